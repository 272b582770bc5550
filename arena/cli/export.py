"""``arena export``: a league's decisions as a training dataset (docs/learning.md, "Datasets").

Registered on the ``arena`` group by :mod:`arena.cli.main`.  It exports what the league shows
publicly: matches whose deal is settled (:mod:`arena.web.deals`: no seating of it is still to
be played), each decision as its seat saw it.
"""

from __future__ import annotations

import datetime
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from arena.cli.common import check_game, check_output_path, db_option, open_db
from arena.cli.output import console
from arena.league.export import FORMATS, ExportError, MatchFilter, export
from arena.league.queries import BotLookupError, find_bot
from arena.runs.ladder_store import ladders


def _when(text: str | None, option: str) -> float | None:
    """A date (``2026-11-28``) or a time (``2026-11-28T10:00``, UTC unless it says) as Unix time."""
    if text is None:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not a date like 2026-11-28 or 2026-11-28T10:00", param_hint=option) \
            from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


@click.command()
@click.option("--out", "out_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              help="The file to write (replaced only once the export is complete).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="parquet or jsonl (default: from --out's suffix, .parquet or .jsonl).")
@click.option("--game", default=None, help="Only this game.")
@click.option("--variant", default=None, help="Only this variant (with --game).")
@click.option("--bot", "bot_name", default=None, help="Only matches of this bot (name or name@version).")
@click.option("--ladder", "ladder_name", default=None, help="Only this ladder's matches.")
@click.option("--since", default=None, metavar="DATE", help="Only matches finished on or after DATE (UTC).")
@click.option("--until", default=None, metavar="DATE", help="Only matches finished before DATE (UTC).")
@db_option
def export_command(out_path: Path, fmt: str | None, game: str | None, variant: str | None, bot_name: str | None,
                   ladder_name: str | None, since: str | None, until: str | None, db_path: Path) -> None:
    """Write the league's decisions as a dataset: one row per decision a bot was asked for.

    Each row holds the game, the match, the seat, the bot, the observation and legal actions
    that seat was sent (protobuf JSON, as on the wire), the action taken, its time, and the
    match's result for that seat (raw and luck-adjusted).  Only matches whose deal is settled
    are exported.  Parquet needs pyarrow (pip install 'arena[learn]').
    """
    if fmt is None:
        fmt = {".parquet": "parquet", ".jsonl": "jsonl"}.get(out_path.suffix)
        if fmt is None:
            raise click.BadParameter("give --format, or an --out ending in .parquet or .jsonl", param_hint="--format")
    if variant is not None and game is None:
        raise click.BadParameter("--variant needs --game", param_hint="--variant")
    if game is not None:
        variant = check_game(game, variant)
    check_output_path(out_path, "--out", database=db_path)
    from arena.web.deals import shown_seeds  # here: the web package is heavy for `arena --help`

    where_since, where_until = _when(since, "--since"), _when(until, "--until")
    with open_db(db_path, readonly=True) as db:
        bot_id = tid = None
        if bot_name is not None:
            try:
                bot_id = find_bot(db, bot_name).id
            except BotLookupError as error:
                raise click.ClickException(str(error)) from None
        if ladder_name is not None:
            found = [t for t in ladders(db) if t.name.lower() == ladder_name.lower()]
            if not found:
                names = ", ".join(t.name for t in ladders(db)) or "none"
                raise click.ClickException(f"no ladder {ladder_name!r} in {db_path} (ladders: {names})")
            tid = found[0].id
        where = MatchFilter(game=game, variant=variant, bot_id=bot_id, tournament_id=tid, since=where_since,
                            until=where_until)
        total = db.count_matches(game=game, variant=variant, bot_id=bot_id, tournament_id=tid, status="done")
        with Progress(TextColumn("exporting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                      console=Console(stderr=True), transient=True) as progress:
            task = progress.add_task("export", total=total)
            try:
                summary = export(db, where, out_path, fmt, shown=lambda batch: shown_seeds(db, batch).keys(),
                                 on_batch=lambda n: progress.advance(task, n))
            except ExportError as error:
                raise click.ClickException(str(error)) from None
    left_out = f"; {summary.skipped} left out (deal not settled, or record unreadable)" if summary.skipped else ""
    console.print(f"wrote {summary.rows:,} decision{'s' * (summary.rows != 1)} of {summary.matches:,} "
                  f"match{'es' * (summary.matches != 1)} to {out_path} ({fmt}){left_out}")
