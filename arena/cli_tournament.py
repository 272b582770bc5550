"""Tournament commands: ``tournament run|resume|list``, ``ratings``, ``h2h``, ``matches``, ``show``, ``demo``.

Registered on the ``arena`` group by :mod:`arena.cli`.  Commands stay thin: they parse
options, call :mod:`arena.tournament`, :mod:`arena.ratings` or :mod:`arena.storage`, and
print.  Every expected failure is a one-line ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click
from rich import box
from rich.console import Console
from rich.table import Table

from arena.cli_common import (make_time_control, parse_settings, print_faults, print_result, sandbox_options,
                              time_control_options)
from arena.queries import (RATING_COLUMNS, BotLookupError, bot_labels, find_bot, h2h_matrix, players_text,
                           rating_values)
from arena.ratings import RatingRow, rating_table, update_ratings
from arena.storage import DEFAULT_DB, Database, StorageError
from arena.tournament import (RichProgress, RunSummary, TournamentError, TournamentSpec, create_tournament,
                              expand_bots, run_tournament, spec_from_row)
from referee.games import game_class, game_names
from referee.games.base import SettingsError
from referee.sandbox import SandboxConfig, SandboxError

console = Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 160)
"""Piped output is not squeezed to 80 columns: tables keep their natural width."""
FORMATS = ("table", "csv", "json", "markdown")
SAMPLE_BOTS = Path(__file__).resolve().parent.parent / "sample_bots" / "python"

_EXPECTED = (StorageError, TournamentError, SettingsError, SandboxError)


def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                        default=lambda: os.environ.get("ARENA_DB", DEFAULT_DB), show_default=f"{DEFAULT_DB}",
                        help=f"SQLite database file (default: {DEFAULT_DB} in the current folder, or $ARENA_DB).")(
        function)


def format_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="Output format.")(function)


def open_db(path: Path, *, create: bool = False) -> Database:
    """Open the database; for read-only commands a missing file is an error, not a new file."""
    try:
        return Database(path, create=create)
    except StorageError as error:
        raise click.ClickException(str(error)) from None


def emit(headers: Sequence[str], rows: Sequence[Sequence[Any]], fmt: str, *, title: str = "") -> None:
    """Print rows as a rich table, CSV, JSON (a list of objects) or a Markdown table."""
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(headers)
        writer.writerows(rows)
        click.echo(out.getvalue(), nl=False)
    elif fmt == "json":
        click.echo(json.dumps([dict(zip(headers, row)) for row in rows], indent=1))
    elif fmt == "markdown":
        if title:
            click.echo(f"**{title}**\n")
        click.echo("| " + " | ".join(headers) + " |")
        click.echo("|" + "|".join(" --- " if i == 0 else " ---: " for i in range(len(headers))) + "|")
        for row in rows:
            click.echo("| " + " | ".join(_text(cell) for cell in row) + " |")
    else:
        table = Table(title=title or None, box=box.SIMPLE_HEAD, pad_edge=False)
        for header in headers:
            left = header in ("bot", "name", "players", "reason", "game", "variant", "format", "status", "created")
            table.add_column(header, justify="left" if left else "right", no_wrap=header in ("bot", "mu-3sigma"))
        for row in rows:
            table.add_row(*(_text(cell) for cell in row))
        console.print(table)


def _text(cell: Any) -> str:
    if isinstance(cell, float):
        return f"{cell:.2f}"
    return "" if cell is None else str(cell)


def _check_game(game: str, variant: str | None) -> str:
    """The variant to use (the game's first by default); a clear error for unknown names."""
    try:
        cls = game_class(game)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    if variant is not None and variant not in cls.variants:
        raise click.ClickException(f"{game} has no variant {variant!r} (variants: {', '.join(cls.variants)})")
    return variant or cls.variants[0]


# --- tournament ----------------------------------------------------------------------------------------------
@click.group()
def tournament() -> None:
    """Run, resume and list round-robin tournaments."""


def _print_summary(db: Database, tid: int, summary: RunSummary) -> None:
    t = db.tournament(tid)
    console.print(f"tournament {tid}: {summary.done} of {summary.total} matches done "
                  f"({summary.played} now, {summary.per_minute:.1f}/min)")
    for error in summary.errors[:10]:
        console.print(f"  failed: {error}")
    if summary.errors[10:]:
        console.print(f"  ... and {len(summary.errors) - 10} more failures")
    if summary.done:
        print_ratings(db, t.game, t.variant, "table")
    if summary.interrupted:
        console.print(f"interrupted: resume with `arena tournament resume {tid} --db {db.path}`")
        sys.exit(130)
    if summary.failed:
        raise click.ClickException(f"{summary.failed} match(es) failed; `arena tournament resume {tid}` retries them")


@tournament.command("run")
@click.option("--game", required=True, help="Game name (see `arena games`).")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", help="A game setting; repeatable.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="MANIFEST|FOLDER|ADDRESS",
              help="A bot: bot.toml, its folder, a folder of bot folders, or host:port. Repeatable.")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Times the whole round-robin is played.")
@click.option("--workers", type=click.IntRange(min=1), default=lambda: min(4, os.cpu_count() or 1),
              show_default="CPU count, at most 4", help="Referee worker processes.")
@click.option("--duplicate/--no-duplicate", default=None,
              help="Play each seed once per seat rotation (default: on for card games, off for dice).")
@click.option("--table-size", type=click.IntRange(min=1), default=None,
              help="Seats per table in free-for-all games (default: all bots, at most the game's maximum).")
@click.option("--seed", type=int, default=None, help="Tournament seed (default: random; stored).")
@click.option("--name", default="", help="A name for the tournament.")
@click.option("--keep-alive", is_flag=True,
              help="Start each bot once per worker and reuse it across matches (faster, less isolated).")
@click.option("--max-tables", type=click.IntRange(min=1), default=2000, show_default=True,
              help="Above this many tables per round, play a pair-balanced sample.")
@time_control_options
@sandbox_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@db_option
def run_command(game: str, variant: str | None, settings: tuple[str, ...], bots: tuple[str, ...], rounds: int,
                workers: int, duplicate: bool | None, table_size: int | None, seed: int | None, name: str,
                keep_alive: bool, max_tables: int, move_timeout: float, time_bank: float, max_faults: int,
                startup_timeout: float, sandbox: SandboxConfig, quiet: bool, db_path: Path) -> None:
    """Schedule a round-robin tournament and play it.

    Two-player games: every pair, both seat orders. Free-for-all games: tables of
    --table-size with every seat rotation. Team games: every partnership, both sides. The
    whole schedule is stored first; if the run stops (Ctrl-C, a crash, kill -9),
    `arena tournament resume ID` plays what is left, with the same sandbox and limits.
    """
    _check_game(game, variant)
    try:
        specs, skipped = expand_bots(bots, game)
        for line in skipped:
            console.print(f"skipped bot {line}")
        seed = seed if seed is not None else random.randrange(2**31)
        spec = TournamentSpec(game=game, bots=tuple(specs), variant=variant, settings=parse_settings(settings),
                              rounds=rounds, duplicate=duplicate, table_size=table_size, seed=seed,
                              time_control=make_time_control(move_timeout, time_bank, max_faults, startup_timeout),
                              name=name, max_tables=max_tables, keep_alive=keep_alive, sandbox=sandbox)
        with Database(db_path) as db:
            tid = create_tournament(db, spec)
            t = db.tournament(tid)
            total = sum(db.match_counts(tid).values())
            console.print(f"tournament {tid}: {t.game} ({t.variant}), {len(specs)} bots, {t.options['format']}, "
                          f"duplicate deals {'on' if t.duplicate else 'off'}, seed {t.seed}: {total} matches "
                          f"on {min(workers, total)} worker(s); database {db_path}")
            summary = run_tournament(db, tid, workers=workers, keep_alive=keep_alive,
                                     progress=None if quiet else RichProgress(f"{t.game} ({t.variant})"))
            _print_summary(db, tid, summary)
    except _EXPECTED as error:
        raise click.ClickException(str(error)) from None


@tournament.command("resume")
@click.argument("tournament_id", type=int)
@click.option("--workers", type=click.IntRange(min=1), default=lambda: min(4, os.cpu_count() or 1),
              show_default="CPU count, at most 4", help="Referee worker processes.")
@click.option("--keep-alive/--no-keep-alive", default=None, help="Override the tournament's keep-alive choice.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@db_option
def resume_command(tournament_id: int, workers: int, keep_alive: bool | None, quiet: bool, db_path: Path) -> None:
    """Play the matches of tournament TOURNAMENT_ID that are not done (pending or failed)."""
    db = open_db(db_path)
    try:
        t = db.tournament(tournament_id)
        for row in db.tournament_bots(tournament_id):
            spec_from_row(row)  # a vanished or changed bot is an error before anything starts
        counts = db.match_counts(tournament_id)
        left = counts["pending"] + counts["failed"]
        console.print(f"tournament {tournament_id}: {counts['done']} of {sum(counts.values())} matches done, "
                      f"{left} to play")
        summary = run_tournament(db, tournament_id, workers=workers, keep_alive=keep_alive,
                                 progress=None if quiet or not left else RichProgress(f"{t.game} ({t.variant})"))
        _print_summary(db, tournament_id, summary)
    except _EXPECTED as error:
        raise click.ClickException(str(error)) from None
    finally:
        db.close()


@tournament.command("list")
@format_option
@db_option
def list_command(fmt: str, db_path: Path) -> None:
    """List the tournaments in the database."""
    with open_db(db_path) as db:
        rows = []
        for t in db.tournaments():
            counts = db.match_counts(t.id)
            rows.append([t.id, t.name, t.game, t.variant, t.options.get("format", t.format), len(db.tournament_bots(t.id)),
                         f"{counts['done']}/{sum(counts.values())}", t.status,
                         time.strftime("%Y-%m-%d %H:%M", time.localtime(t.created_at))])
    emit(["id", "name", "game", "variant", "format", "bots", "done", "status", "created"], rows, fmt,
         title="tournaments")


# --- ratings and results ---------------------------------------------------------------------------------------------
def print_ratings(db: Database, game: str, variant: str, fmt: str, *, recompute: bool = False) -> list[RatingRow]:
    update_ratings(db, game, variant, recompute=recompute)
    rows = rating_table(db, game, variant)
    emit(list(RATING_COLUMNS), [rating_values(r) for r in rows], fmt, title=f"{game} ({variant}) ratings")
    return rows


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@click.option("--recompute", is_flag=True, help="Recompute from every stored result, in match-id order.")
@db_option
def ratings(game: str, variant: str | None, fmt: str, recompute: bool, db_path: Path) -> None:
    """TrueSkill ratings of one game and variant, best conservative rating (mu - 3 sigma) first."""
    variant = _check_game(game, variant)
    with open_db(db_path) as db:
        rows = print_ratings(db, game, variant, fmt, recompute=recompute)
    if not rows and fmt == "table":
        console.print(f"no played {game} ({variant}) matches in {db_path}")


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@db_option
def h2h(game: str, variant: str | None, fmt: str, db_path: Path) -> None:
    """Head-to-head: each row bot's mean result against each column bot (1 above, 0.5 tied, 0 below)."""
    variant = _check_game(game, variant)
    with open_db(db_path) as db:
        matrix = h2h_matrix(db, game, variant)
    cells = matrix.cells
    ids = [bot.id for bot in matrix.bots]
    labels = {bot.id: bot.label for bot in matrix.bots}
    if fmt == "json":
        click.echo(json.dumps([{"bot": labels[a], "opponent": labels[b], "matches": n, "result": round(result, 4)}
                               for (a, b), (n, result) in sorted(cells.items())], indent=1))
        return
    rows = [[labels[a]] + [f"{cells[a, b][1]:.2f} ({cells[a, b][0]})" if (a, b) in cells else "-"
                           for b in ids] for a in ids]
    emit(["bot"] + [labels[b] for b in ids], rows, fmt, title=f"{game} ({variant}) head to head: mean result (matches)")


@click.command()
@click.option("--tournament", "tournament_id", type=int, default=None, help="Only this tournament.")
@click.option("--game", default=None, help="Only this game.")
@click.option("--bot", "bot_name", default=None, help="Only matches of this bot (name or name@version).")
@click.option("--status", type=click.Choice(["pending", "done", "failed"]), default=None, help="Only this status.")
@click.option("--limit", type=click.IntRange(min=1), default=50, show_default=True, help="Newest N matches.")
@format_option
@db_option
def matches(tournament_id: int | None, game: str | None, bot_name: str | None, status: str | None, limit: int,
            fmt: str, db_path: Path) -> None:
    """List matches, newest first: players by seat with their rank, scores and how it ended."""
    with open_db(db_path) as db:
        bot_id = None
        if bot_name is not None:
            try:
                bot_id = find_bot(db, bot_name).id
            except BotLookupError as error:
                raise click.ClickException(str(error)) from None
        rows_ = db.matches(tournament_id=tournament_id, game=game, bot_id=bot_id, status=status, limit=limit,
                           newest_first=True)
        labels = bot_labels(db)
        rows = [[m.id, m.tournament_id, f"{m.game}/{m.variant}", m.seed, players_text(m, labels), m.status,
                 " ".join(f"{s:g}" for s in m.scores) if m.scores else "", m.reason or ""] for m in rows_]
    emit(["id", "tournament", "game", "seed", "players", "status", "scores", "reason"], rows, fmt, title="matches")


@click.command()
@click.argument("match_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the full match record as JSON.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write the match record to this file (for `arena replay`).")
@db_option
def show(match_id: int, as_json: bool, out: Path | None, db_path: Path) -> None:
    """Show one match: its set-up, result, faults and every move (the replay log)."""
    with open_db(db_path) as db:
        try:
            match = db.match(match_id)
            record = db.match_record(match_id)
        except (StorageError, ValueError) as error:
            raise click.ClickException(str(error)) from None
        players = players_text(match, bot_labels(db))
    if out is not None:
        if record is None:
            raise click.ClickException(f"match {match_id} has no record ({match.status})")
        out.write_text(record.dumps() + "\n", encoding="utf-8")
        console.print(f"match record written to {out}")
        return
    if as_json:
        if record is None:
            raise click.ClickException(f"match {match_id} has no record ({match.status})")
        click.echo(record.dumps())
        return
    console.print(f"match {match.id} (tournament {match.tournament_id}, round {match.round + 1}, deal {match.deal}, "
                  f"rotation {match.rotation}): {match.game} ({match.variant}), seed {match.seed}, {match.status}")
    if match.settings:
        console.print("settings: " + ", ".join(f"{k}={v}" for k, v in sorted(match.settings.items())))
    console.print(f"players: {players}")
    if record is None:
        if match.reason:
            console.print(f"reason: {match.reason}")
        return
    if record.scores:
        print_result(console, record, f"result: {record.reason}")
    else:
        print_faults(console, record)
    console.print(f"moves ({len(record.moves)}, {record.duration_s:.2f} s):")
    for number, move in enumerate(record.moves):
        status = "" if move.status.value == "ok" else f" [{move.status.value}]"
        comment = f"  # {move.comment}" if move.comment else ""
        console.print(f"  {number:4d}  seat {move.seat} {record.players[move.seat]}: {move.action}"
                      f"{status} ({move.elapsed_ms:.1f} ms){comment}")


# --- demo ---------------------------------------------------------------------------------------------------
@click.command()
@click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Keep the results in this database (default: a temporary one, deleted at the end).")
@click.option("--rounds", type=click.IntRange(min=1), default=4, show_default=True, help="Rounds per game.")
@click.option("--workers", type=click.IntRange(min=1), default=lambda: min(2, os.cpu_count() or 1),
              show_default="2", help="Referee worker processes.")
@click.option("--seed", type=int, default=1, show_default=True, help="Tournament seed.")
@click.option("--serve", "serve_port", is_flag=False, flag_value=8000, type=click.IntRange(1, 65535), default=None,
              metavar="[PORT]", help="Then serve the results on http://127.0.0.1:PORT/ (default 8000) until Ctrl-C.")
def demo(db_path: Path | None, rounds: int, workers: int, seed: int, serve_port: int | None) -> None:
    """Register the sample bots, run a short tournament of every game and print the ratings.

    Bots are kept alive across the matches of a worker to make it quick. With --serve, the
    leaderboards and replays are then served read-only (the temporary database lives until
    Ctrl-C).
    """
    if not SAMPLE_BOTS.is_dir():
        raise click.ClickException(f"no sample bots at {SAMPLE_BOTS} (the demo runs from a checkout of arena)")
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arena-demo-") as folder:
        path = db_path or Path(folder) / "demo.db"
        try:
            with Database(path) as db:
                for game in game_names():
                    specs, _ = expand_bots([str(SAMPLE_BOTS)], game)
                    cls = game_class(game)
                    needed = sum(len(t) for t in cls.teams) if cls.teams else cls.min_players
                    if len(specs) < max(2, needed):
                        console.print(f"{game}: only {len(specs)} sample bot(s) play it; skipped")
                        continue
                    tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=rounds, seed=seed,
                                                               keep_alive=True, name=f"demo {game}"))
                    total = sum(db.match_counts(tid).values())
                    console.print(f"\n[bold]{game}[/bold]: {', '.join(s.label for s in specs)}; {total} matches")
                    summary = run_tournament(db, tid, workers=workers, progress=RichProgress(game))
                    if summary.interrupted:
                        console.print("interrupted")
                        sys.exit(130)
                    for error in summary.errors[:5]:
                        console.print(f"  failed: {error}")
                    t = db.tournament(tid)
                    print_ratings(db, t.game, t.variant, "table")
        except _EXPECTED as error:
            raise click.ClickException(str(error)) from None
        console.print(f"\ndemo finished in {time.monotonic() - started:.1f} s")
        if serve_port is not None:
            from arena.web.server import serve

            try:
                serve(path, port=serve_port, announce=console.print)
            except StorageError as error:
                raise click.ClickException(str(error)) from None
    console.print(f"results kept in {db_path}" if db_path else "temporary database removed")
