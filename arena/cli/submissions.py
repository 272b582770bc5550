"""``arena submissions work``: the worker that builds, validates and enters submitted bots
(:mod:`arena.submission.pipeline`) and plays each new version's SPRT run against the previous
one (:mod:`arena.submission.sprt_play`), a process of its own beside ``arena serve``."""

from __future__ import annotations

import os
import time
from pathlib import Path

import click

from arena.cli.common import db_option, open_db, sandbox_options, uploads_folder
from arena.submission.normalized_sprt import TESTS
from arena.submission.sprt_runs import BATCH, MAX_PAIRS, SprtSettings
from arena.submission.submissions import KEEP
from referee.sandbox import SandboxConfig


@click.group("submissions")
def submissions_group() -> None:
    """Take submitted bots through build, validation and ladder entry (docs/submitting.md)."""


@submissions_group.command("work")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where `arena serve --uploads` stores the uploads (default: the DB's name + .data, beside it).")
@click.option("--once", is_flag=True,
              help="Process what is waiting and play the open SPRT runs to their end, then exit (for tests and cron).")
@click.option("--keep", type=click.IntRange(min=1), default=KEEP, show_default=True,
              help="Active versions of one bot an author keeps on a ladder; older ones retire.")
@click.option("--interval", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds between looks at the database for new submissions.")
@click.option("--sprt-test", type=click.Choice(TESTS), default=TESTS[0], show_default=True,
              help="New SPRT runs' test: normalized (on luck-adjusted results where the game has an estimator) or "
                   "logistic (the older one); docs/sprt.md.")
@click.option("--sprt-elo0", type=float, default=0.0, show_default=True,
              help="New SPRT runs' H0: the new version is this much stronger (in the test's Elo).")
@click.option("--sprt-elo1", type=float, default=10.0, show_default=True, help="New SPRT runs' H1.")
@click.option("--sprt-alpha", type=float, default=0.05, show_default=True,
              help="New SPRT runs' chance of calling a version stronger under H0.")
@click.option("--sprt-beta", type=float, default=0.05, show_default=True,
              help="New SPRT runs' chance of calling a version not stronger under H1.")
@click.option("--sprt-max-pairs", type=click.IntRange(min=1), default=MAX_PAIRS, show_default=True,
              help="New SPRT runs end undecided after this many pairs.")
@click.option("--sprt-batch", type=click.IntRange(min=1), default=BATCH, show_default=True,
              help="Pairs an SPRT run plays (and stores) at a time; waiting submissions go first between batches.")
@click.option("--sprt-workers", type=click.IntRange(min=1), default=lambda: min(2, os.cpu_count() or 1),
              show_default="CPU count, at most 2", help="Referee worker processes of an SPRT batch.")
@sandbox_options
@db_option
def work(data_dir: Path | None, once: bool, keep: int, interval: float, sprt_test: str, sprt_elo0: float,
         sprt_elo1: float,
         sprt_alpha: float, sprt_beta: float, sprt_max_pairs: int, sprt_batch: int, sprt_workers: int,
         sandbox: SandboxConfig, db_path: Path) -> None:
    """Build, validate and enter every `received` submission of DB, oldest first, then play
    the open SPRT runs (a new version against the previous one, docs/sprt.md) a batch at a
    time, a waiting submission first between batches; then wait for more (until Ctrl-C), or
    exit with --once once nothing waits and no run is open.  Run one worker per database: at
    its start it takes up again what a stopped worker left half done."""
    from arena.submission.pipeline import requeue_interrupted, work_once  # the referee: only when it runs
    from arena.submission.sprt_play import play_batch
    from arena.submission.sprt_runs import oldest_open

    settings = SprtSettings(sprt_elo0, sprt_elo1, sprt_alpha, sprt_beta, sprt_max_pairs, sprt_test)
    try:
        settings.test("yahtzee")  # the bounds' check; the game only chooses the pair score
    except ValueError as error:
        raise click.ClickException(f"bad SPRT bounds (--sprt-elo0, --sprt-elo1, --sprt-alpha, --sprt-beta): "
                                   f"{error}") from None
    with open_db(db_path, create=False) as db:
        folder = uploads_folder(db_path, data_dir)
        if interrupted := requeue_interrupted(db):
            click.echo(f"{interrupted} submission(s) left half done by a stopped worker: taken up again")
        try:
            while True:
                for outcome in work_once(db, folder, keep=keep, sandbox=sandbox, sprt=settings):
                    click.echo(f"submission {outcome.id}: {outcome.state}: {outcome.message}")
                run = oldest_open(db)
                if run is not None:
                    click.echo(play_batch(db, run, pairs=sprt_batch, workers=sprt_workers).line())
                    continue
                if once:
                    return
                time.sleep(interval)
        except KeyboardInterrupt:
            click.echo("stopped")
