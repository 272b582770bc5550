"""``arena submissions work``: the worker that builds, validates and enters submitted bots
(:mod:`arena.submission.pipeline`), a process of its own beside ``arena serve``."""

from __future__ import annotations

import time
from pathlib import Path

import click

from arena.cli.common import db_option, open_db, sandbox_options, uploads_folder
from arena.submission.submissions import KEEP
from referee.sandbox import SandboxConfig


@click.group("submissions")
def submissions_group() -> None:
    """Take submitted bots through build, validation and ladder entry (docs/submitting.md)."""


@submissions_group.command("work")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where `arena serve --uploads` stores the uploads (default: the DB's name + .data, beside it).")
@click.option("--once", is_flag=True, help="Process what is waiting, then exit (for tests and cron).")
@click.option("--keep", type=click.IntRange(min=1), default=KEEP, show_default=True,
              help="Active versions an author keeps on a ladder; older ones retire.")
@click.option("--interval", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds between looks at the database for new submissions.")
@sandbox_options
@db_option
def work(data_dir: Path | None, once: bool, keep: int, interval: float, sandbox: SandboxConfig, db_path: Path) -> None:
    """Build, validate and enter every `received` submission of DB, oldest first; then wait
    for more (until Ctrl-C), or exit with --once.  Run one worker per database: at its start it
    takes up again what a stopped worker left half done."""
    from arena.submission.pipeline import requeue_interrupted, work_once  # the referee: only when it runs

    with open_db(db_path, create=False) as db:
        folder = uploads_folder(db_path, data_dir)
        if interrupted := requeue_interrupted(db):
            click.echo(f"{interrupted} submission(s) left half done by a stopped worker: taken up again")
        try:
            while True:
                for outcome in work_once(db, folder, keep=keep, sandbox=sandbox):
                    click.echo(f"submission {outcome.id}: {outcome.state}: {outcome.message}")
                if once:
                    return
                time.sleep(interval)
        except KeyboardInterrupt:
            click.echo("stopped")
