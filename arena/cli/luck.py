"""``arena luck``: measure the luck of played matches that have no report from their game's
current estimator (a database older than luck reports, matches played before an estimator
existed, or a new estimator version beside the old one; docs/luck.md).

Each report is committed as it is measured and none is ever replaced
(:func:`arena.league.luck.measure_missing`), so Ctrl-C loses at most the match being measured
and running it again takes up the rest.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from arena.cli.common import check_game, db_option, open_db
from arena.cli.hints import arena_hint
from arena.cli.output import console
from arena.league.luck import count_missing, current_estimators, measure_missing
from arena.league.queries import counted
from arena.league.storage import Database
from referee.luck import Estimator

SHOWN_FAILURES = 10
"""Matches named with the reason they could not be measured; beyond, a count."""


@click.command()
@click.option("--game", default=None, help="Only this game's matches (default: every game with an estimator).")
@db_option
def luck_command(game: str | None, db_path: Path) -> None:
    """Measure and store the luck of played matches that have none from their game's current
    estimator, oldest first, with a progress bar.

    Each report is committed as soon as it is measured and a stored report is never
    replaced: stop it with Ctrl-C at any time and run it again to measure the rest. A match
    that cannot be measured (an aborted match has no result) is named with the reason and
    left without a report. Games without an estimator are skipped (said once each).
    """
    if game is not None:
        check_game(game, None)
    with open_db(db_path) as db:
        games = [game] if game is not None else sorted({name for name, _, _, _ in db.game_totals()})
        estimators, missing = current_estimators(games)
        if game is not None and game in missing:
            raise click.ClickException(missing[game])
        for name, reason in missing.items():
            console.print(f"{name}: skipped: {reason}")
        if not games:
            console.print(f"no played matches in {db_path}")
        for name in sorted(estimators):
            _measure(db, estimators[name], db_path)


def _measure(db: Database, estimator: Estimator, db_path: Path) -> None:
    """One game's missing reports, with a bar on a terminal; exits 130 on Ctrl-C."""
    total = count_missing(db, estimator)
    if not total:
        console.print(f"{estimator.game}: every played match has a {estimator.name} report")
        return
    measured, failures = 0, []
    progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                        TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True),
                        disable=not sys.stderr.isatty())
    try:
        with progress:
            task = progress.add_task(f"{estimator.name}", total=total)
            for outcome in measure_missing(db, estimator):
                if outcome.error is None:
                    measured += 1
                else:
                    failures.append(f"match {outcome.match_id}: {outcome.error}")
                progress.advance(task)
    except KeyboardInterrupt:
        console.print(f"{estimator.game}: interrupted after {counted(measured, 'report')} stored; run "
                      f"`{arena_hint('luck', '--game', estimator.game, '--db', db_path)}` again for the rest")
        sys.exit(130)
    console.print(f"{estimator.game}: {counted(measured, 'match', 'matches')} measured with {estimator.name}"
                  + (f", {len(failures)} could not be:" if failures else ""))
    for line in failures[:SHOWN_FAILURES]:
        console.print(f"  {line}")
    if len(failures) > SHOWN_FAILURES:
        console.print(f"  ... and {len(failures) - SHOWN_FAILURES} more")
