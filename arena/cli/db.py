"""``arena db check|backup``: checking and backing up an arena database."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import check_output_path, db_option, open_db
from arena.cli.hints import arena_hint
from arena.cli.output import console


@click.group("db")
def db_group() -> None:
    """Check and back up an arena database."""


@db_group.command("check")
@db_option
def db_check(db_path: Path) -> None:
    """Run SQLite's integrity check and show the schema version; exit 1 if the file is damaged."""
    with open_db(db_path, readonly=True) as db:
        version = db.schema_version()
        problems = db.integrity_problems()
        tournaments = len(db.tournaments()) if not problems else None
    if problems:
        shown = "; ".join(" ".join(p.split()) for p in problems[:5])
        raise click.ClickException(f"{db_path} is damaged (schema {version}): {shown}"
                                   + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else "")
                                   + f"; restore a backup (`{arena_hint('db', 'backup')}` makes one)")
    console.print(f"{db_path}: ok, arena database schema {version}, {tournaments} tournament(s)")


@db_group.command("backup")
@click.option("--to", "target", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The backup file to write (replaced if it exists).")
@db_option
def db_backup(target: Path, db_path: Path) -> None:
    """Copy the database with SQLite's online backup API: a consistent snapshot, safe while a
    tournament writes to it."""
    check_output_path(target, "--to", database=db_path)
    with open_db(db_path, readonly=True) as db:
        db.backup(target)
    console.print(f"{db_path} backed up to {target} ({target.stat().st_size} bytes)")
