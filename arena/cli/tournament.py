"""Tournament commands: ``tournament run|resume|list``, ``ratings``, ``h2h``, ``matches``, ``show``, ``demo``.

Registered on the ``arena`` group by :mod:`arena.cli`.  Commands stay thin: they parse
options, call :mod:`arena.runs.tournament`, :mod:`arena.league.ratings` or :mod:`arena.league.storage`, and
print.  Every expected failure is a one-line ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.table import Table

from arena.cli.common import (check_database_path, check_output_path, executor_options, make_time_control,
                              parse_settings, print_faults, print_match_log, print_result, sandbox_options,
                              time_control_options)
from arena.cli.hints import arena_hint
from arena.cli.output import Column, console, emit, format_option
from arena.cli.progress import progress_display
from arena.league.queries import BotLookupError, bot_labels, current_table, find_bot, h2h_matrix, players_text, rating_json
from arena.league.ratings import RatingRow, plan_ratings, separations
from arena.resources import random_bot_copies, sample_bots_dir
from arena.league.storage import DEFAULT_DB, BotRow, Database, StorageError
from referee.bots import BotSpec, resolve_bot
from referee.games import game_class, game_names
from referee.games.base import SettingsError
from referee.result import MatchRecord, MoveStatus
from referee.sandbox import SandboxConfig, SandboxError

if TYPE_CHECKING:
    from arena.runs.tournament import RunSummary, TournamentSpec

SAMPLE_BOTS = sample_bots_dir() / "python"
"""The demo's bots: every Python sample bot (shipped inside the package, see arena.resources)."""


def _expected() -> tuple[type[Exception], ...]:
    """The errors a command reports as one ``Error:`` line.

    The tournament runner and the executors (and so grpc) are imported here and in the commands
    that run matches, not at the top: ``arena --help`` and the commands that only read start fast.
    """
    from arena.executors import ExecutorError
    from arena.runs.tournament import TournamentError

    return StorageError, TournamentError, SettingsError, SandboxError, ExecutorError


def db_option(function: Callable[..., Any]) -> Callable[..., Any]:
    return click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                        default=lambda: os.environ.get("ARENA_DB", DEFAULT_DB), show_default=f"{DEFAULT_DB}",
                        help=f"SQLite database file (default: {DEFAULT_DB} in the current folder, or $ARENA_DB).")(
        function)


def open_db(path: Path, *, create: bool = False, readonly: bool = False) -> Database:
    """Open the database, noting it for error messages (see ``arena.cli._Guarded``).

    Commands that only read pass ``readonly``: the file is opened in SQLite's read-only
    mode, so a missing, empty or foreign file is reported and never changed.
    """
    click.get_current_context().meta["arena.db"] = path
    try:
        return Database(path, create=create, readonly=readonly)
    except StorageError as error:
        raise click.ClickException(str(error)) from None


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
    if summary.played or summary.failed:
        console.print(f"  throughput: {summary.per_minute:.1f} matches/min over {summary.elapsed_s:.1f} s; worker "
                      f"time {summary.startup_share:.0%} starting bots ({summary.startup_s:.1f} s), "
                      f"{summary.play_s:.1f} s playing, {summary.stop_s:.1f} s stopping bots; "
                      f"{summary.faults} bot fault(s), {len(summary.startup_forfeits)} start-up forfeit(s)")
    for error in summary.errors[:10]:
        console.print(f"  failed: {error}")
    if summary.errors[10:]:
        console.print(f"  ... and {len(summary.errors) - 10} more failures")
    if summary.done:
        print_ratings(db, t.game, t.variant, "table")
    if summary.interrupted:
        console.print(f"interrupted: resume with `{arena_hint('tournament', 'resume', tid, '--db', db.path)}`")
        sys.exit(130)
    if summary.failed:
        raise click.ClickException(f"{summary.failed} match(es) failed; "
                                   f"`{arena_hint('tournament', 'resume', tid, '--db', db.path)}` retries them")


@tournament.command("run")
@click.option("--game", required=True, help="Game name (see `arena games`).")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@click.option("--setting", "settings", multiple=True, metavar="NAME=VALUE", help="A game setting; repeatable.")
@click.option("--bot", "bots", multiple=True, required=True, metavar="MANIFEST|FOLDER|ADDRESS",
              help="A bot: bot.toml, its folder, a folder of bot folders, or host:port. Repeatable.")
@click.option("--rounds", type=click.IntRange(min=1), default=1, show_default=True,
              help="Times the whole round-robin is played, each time with the tables' seat cycles changed "
                   "(at most 1,000,000 matches in all).")
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
@click.option("--allow-broken", is_flag=True,
              help="Run even if the pre-flight check finds bots that are not ready (they forfeit).")
@click.option("--no-preflight", "skip_preflight", is_flag=True,
              help="Skip the pre-flight check (bots are then first started by the matches).")
@click.option("--dev", is_flag=True,
              help="Development mode: a bot whose files changed since its name@version was registered is "
                   "entered as name@version+devN (a rating row of its own) instead of refused.")
@time_control_options
@sandbox_options
@executor_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@db_option
def run_command(game: str, variant: str | None, settings: tuple[str, ...], bots: tuple[str, ...], rounds: int,
                workers: int, duplicate: bool | None, table_size: int | None, seed: int | None, name: str,
                keep_alive: bool, max_tables: int, allow_broken: bool, skip_preflight: bool, dev: bool,
                move_timeout: float,
                time_bank: float, max_faults: int, startup_timeout: float, sandbox: SandboxConfig,
                executor_factory: Callable[..., Any] | None, quiet: bool, db_path: Path) -> None:
    """Schedule a round-robin tournament and play it.

    Before anything is stored, a pre-flight check starts every bot once: it must serve,
    identify itself and claim the game; otherwise the run is refused (see --allow-broken).
    Bots given by address are entered under the name and version they report, and share
    the rating row of that name and version (see docs/tournaments.md, "Bots and versions").

    Two-player games: every pair, both seat orders. Free-for-all games: tables of
    --table-size with every seat rotation. Team games: every partnership, both sides. The
    whole schedule is stored first; if the run stops (Ctrl-C, a crash, kill -9),
    `arena tournament resume ID` plays what is left, with the same sandbox and limits.
    """
    from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, plan_tournament, run_tournament

    _check_game(game, variant)
    check_database_path(db_path)
    try:
        specs, skipped = expand_bots(bots, game)
        for line in skipped:
            console.print(f"skipped bot {line}")
        seed = seed if seed is not None else random.randrange(2**31)
        spec = TournamentSpec(game=game, bots=tuple(specs), variant=variant, settings=parse_settings(settings),
                              rounds=rounds, duplicate=duplicate, table_size=table_size, seed=seed,
                              time_control=make_time_control(move_timeout, time_bank, max_faults, startup_timeout),
                              name=name, max_tables=max_tables, keep_alive=keep_alive, sandbox=sandbox, dev=dev)
        plan = plan_tournament(spec)  # everything is checked before the database file is touched
        if not skip_preflight:
            spec = dataclasses.replace(spec, bots=tuple(_preflight(spec, allow_broken)))
            plan = plan_tournament(spec)
        with open_db(db_path, create=True) as db:
            tid = create_tournament(db, plan)
            t = db.tournament(tid)
            for entered, row in zip(plan.spec.bots, db.tournament_bots(tid)):
                if row.version != entered.version:
                    console.print(f"bot {entered.label} changed since it was registered: entered as development "
                                  f"revision {row.label}")
                elif entered.address is not None and row.manifest and not _folder_unchanged(row):
                    console.print(f"warning: bot {row.label} at {entered.address} is entered as the registered "
                                  f"{row.label}, whose folder has changed since ({row.manifest}); if the bot "
                                  f"you run is the changed one, enter its folder with --dev or a new version")
            total = sum(db.match_counts(tid).values())
            console.print(f"tournament {tid}: {t.game} ({t.variant}), {len(specs)} bots, {t.options['format']}, "
                          f"duplicate deals {'on' if t.duplicate else 'off'}, seed {t.seed}: {total} matches "
                          f"on {min(workers, total)} worker(s); database {db_path}")
            summary = run_tournament(db, tid, workers=workers, keep_alive=keep_alive,
                                     progress=None if quiet else progress_display(f"{t.game} ({t.variant})"),
                                     executor_factory=executor_factory)
            _print_summary(db, tid, summary)
    except _expected() as error:
        raise click.ClickException(str(error)) from None


def _folder_unchanged(row: BotRow) -> bool:
    """Whether a registered manifest bot's folder still holds its registered files."""
    from arena.runs.tournament import TournamentError, spec_from_row

    try:
        spec_from_row(row)
    except TournamentError:
        return False
    return True


def _preflight(spec: TournamentSpec, allow_broken: bool) -> list[BotSpec]:
    """Check every bot (:mod:`arena.runs.preflight`); print what is wrong; refuse unless allowed."""
    from arena.runs.preflight import preflight
    from arena.runs.tournament import TournamentError

    checks = preflight(spec.bots, spec.game, startup_timeout=spec.time_control.startup_timeout,
                       sandbox=spec.sandbox)
    for check in checks:
        for warning in check.warnings:
            console.print(f"warning: bot {check.spec.label}: {warning}")
    broken = [check for check in checks if not check.ready]
    if broken:
        table = Table(title="bots not ready", box=box.SIMPLE_HEAD, pad_edge=False)
        table.add_column("bot", no_wrap=True)
        table.add_column("problem")
        for check in broken:
            table.add_row(check.spec.label, check.problem or "")
        console.print(table)
        if not allow_broken:
            raise TournamentError(f"{len(broken)} of {len(checks)} bot(s) not ready (listed above); fix them, "
                                  f"leave them out, or run with --allow-broken to let them forfeit")
    return [check.spec for check in checks]


@tournament.command("resume")
@click.argument("tournament_id", type=int)
@click.option("--workers", type=click.IntRange(min=1), default=lambda: min(4, os.cpu_count() or 1),
              show_default="CPU count, at most 4", help="Referee worker processes.")
@click.option("--keep-alive/--no-keep-alive", default=None, help="Override the tournament's keep-alive choice.")
@executor_options
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@db_option
def resume_command(tournament_id: int, workers: int, keep_alive: bool | None,
                   executor_factory: Callable[..., Any] | None, quiet: bool, db_path: Path) -> None:
    """Play the matches of tournament TOURNAMENT_ID that are not done (pending or failed)."""
    from arena.runs.tournament import entrant_specs, run_tournament

    check_database_path(db_path)
    db = open_db(db_path)
    try:
        t = db.tournament(tournament_id)
        entrant_specs(db, t)  # a vanished or changed bot is an error before anything starts
        counts = db.match_counts(tournament_id)
        left = counts["pending"] + counts["failed"]
        console.print(f"tournament {tournament_id}: {counts['done']} of {sum(counts.values())} matches done, "
                      f"{left} to play")
        summary = run_tournament(db, tournament_id, workers=workers, keep_alive=keep_alive,
                                 progress=None if quiet or not left else progress_display(f"{t.game} ({t.variant})"),
                                 executor_factory=executor_factory)
        _print_summary(db, tournament_id, summary)
    except _expected() as error:
        raise click.ClickException(str(error)) from None
    finally:
        db.close()


@tournament.command("abandon")
@click.argument("tournament_id", type=int)
@db_option
def abandon_command(tournament_id: int, db_path: Path) -> None:
    """Give up on tournament TOURNAMENT_ID: its played matches stay (and stay rated); the
    unplayed ones are never played, and `resume` refuses it."""
    from arena.runs.tournament import abandon_tournament

    with open_db(db_path) as db:
        try:
            abandon_tournament(db, tournament_id)
            counts = db.match_counts(tournament_id)
        except _expected() as error:
            raise click.ClickException(str(error)) from None
    console.print(f"tournament {tournament_id} abandoned: {counts['done']} played match(es) kept, "
                  f"{counts['pending'] + counts['failed']} unplayed")


@tournament.command("delete")
@click.argument("tournament_id", type=int)
@click.option("--yes", "-y", is_flag=True, help="Do not ask for confirmation.")
@db_option
def delete_command(tournament_id: int, yes: bool, db_path: Path) -> None:
    """Delete tournament TOURNAMENT_ID and all its matches, then recompute its game's ratings.

    This cannot be undone: `arena db backup` first if in doubt.
    """
    from arena.runs.tournament import delete_tournament

    with open_db(db_path) as db:
        try:
            t = db.tournament(tournament_id)
            total = sum(db.match_counts(tournament_id).values())
            if not yes:
                if not sys.stdin.isatty():
                    raise click.ClickException("not deleting without confirmation: run it in a terminal or add --yes")
                click.confirm(f"delete tournament {tournament_id} ({t.game} {t.variant}, {total} matches) from "
                              f"{db_path}?", abort=True)
            deleted = delete_tournament(db, tournament_id)
        except _expected() as error:
            raise click.ClickException(str(error)) from None
    console.print(f"tournament {tournament_id} deleted with its {deleted} match(es); {t.game} ({t.variant}) "
                  f"ratings recomputed")


@tournament.command("list")
@format_option
@db_option
def list_command(fmt: str, db_path: Path) -> None:
    """List the tournaments in the database."""
    with open_db(db_path, readonly=True) as db:
        rows = []
        for t in db.tournaments():
            counts = db.match_counts(t.id)
            rows.append({"id": t.id, "name": t.name, "game": t.game, "variant": t.variant,
                         "format": t.options.get("format", t.format), "bots": len(db.tournament_bots(t.id)),
                         "done": counts["done"], "failed": counts["failed"], "pending": counts["pending"],
                         "total": sum(counts.values()), "status": t.status, "created": _iso(t.created_at),
                         "finished": _iso(t.finished_at)})
    emit(TOURNAMENT_COLUMNS if fmt in ("table", "markdown") else TOURNAMENT_COLUMNS + TOURNAMENT_COLUMNS_DATA, rows,
         fmt, title="tournaments", empty=f"no tournaments in {db_path}")


TOURNAMENT_COLUMNS = [Column("id"), Column("name"), Column("game"), Column("variant"), Column("format"),
                      Column("bots"), Column("done"), Column("failed"), Column("total"), Column("status"),
                      Column("created")]
TOURNAMENT_COLUMNS_DATA = [Column("pending"), Column("finished")]


def _iso(stamp: float | None) -> str | None:
    """A stored time as ISO 8601 in local time with its UTC offset, to the second, or ``None``."""
    return None if stamp is None else datetime.fromtimestamp(stamp).astimezone().isoformat(timespec="seconds")


# --- ratings and results ---------------------------------------------------------------------------------------------
def print_ratings(db: Database, game: str, variant: str, fmt: str, *, recompute: bool = False) -> list[RatingRow]:
    """The up-to-date table, computed from the stored one and the results without writing
    (:func:`arena.league.queries.current_table`, as the web server does)."""
    rows = current_table(db, game, variant, plan_ratings(db, game, variant, recompute=recompute))
    records = []
    for row, sep in zip(rows, separations(rows)):
        tied: list[int] | str = list(sep.tied_with) if fmt == "json" else " ".join(map(str, sep.tied_with))
        records.append(dict(rating_json(row), best_rank=sep.best, worst_rank=sep.worst, tied_with=tied,
                            ranks=f"{sep.best}" if sep.best == sep.worst else f"{sep.best}-{sep.worst}"))
    columns = RATING_COLUMNS + (RATING_TIES_TEXT if fmt in ("table", "markdown") else RATING_TIES_DATA)
    if game_class(game).lower_scores_win:  # Yaniv's penalty points: the table must say which way is better
        columns = [Column(c.key, "mean score (lower is better)", c.digits) if c.key == "mean_score" else c
                   for c in columns]
    emit(columns, records, fmt, title=f"{game} ({variant}) ratings")
    return rows


RATING_COLUMNS = [Column("rank"), Column("bot"), Column("version"), Column("mu", digits=3),
                  Column("sigma", digits=3), Column("conservative", "mu-3sigma", digits=3), Column("matches"),
                  Column("wins"), Column("mean_score"), Column("faults")]
RATING_TIES_TEXT = [Column("ranks"), Column("tied_with")]
"""Where each bot may really stand (docs/ladder.md): a rank range and the ranks it is not separated from."""
RATING_TIES_DATA = [Column("best_rank"), Column("worst_rank"), Column("tied_with")]


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@click.option("--recompute", is_flag=True, help="Recompute from every stored result, in match-id order.")
@db_option
def ratings(game: str, variant: str | None, fmt: str, recompute: bool, db_path: Path) -> None:
    """TrueSkill ratings of one game and variant, best conservative rating (mu - 3 sigma) first.

    "ranks" and "tied with" show, from the ratings' uncertainty, where each bot may really
    stand and which bots it is not yet separated from (order less than 95% sure; docs/ladder.md).
    """
    variant = _check_game(game, variant)
    with open_db(db_path, readonly=True) as db:
        rows = print_ratings(db, game, variant, fmt, recompute=recompute)
    if not rows and fmt == "table":
        console.print(f"no played {game} ({variant}) matches in {db_path}")


@click.command()
@click.option("--game", required=True, help="Game name.")
@click.option("--variant", default=None, help="Variant (default: the game's first).")
@format_option
@db_option
def h2h(game: str, variant: str | None, fmt: str, db_path: Path) -> None:
    """Head-to-head: each row bot's mean result against each column bot (1 above, 0.5 tied, 0 below).

    Tables show the matrix; json and csv give one record per ordered pair of bots.
    """
    variant = _check_game(game, variant)
    with open_db(db_path, readonly=True) as db:
        matrix = h2h_matrix(db, game, variant)
    cells = matrix.cells
    ids = [bot.id for bot in matrix.bots]
    labels = {bot.id: bot.label for bot in matrix.bots}
    if fmt in ("json", "csv"):
        emit([Column("bot"), Column("opponent"), Column("matches"), Column("result")],
             [{"bot": labels[a], "opponent": labels[b], "matches": n, "result": round(result, 4)}
              for (a, b), (n, result) in sorted(cells.items(),
                                                key=lambda item: (labels[item[0][0]], labels[item[0][1]]))], fmt)
        return
    if not cells:
        console.print(f"no played {game} ({variant}) matches in {db_path}")
        return
    columns = [Column("bot")] + [Column(f"c{b}", labels[b]) for b in ids]
    rows = [{"bot": labels[a], **{f"c{b}": f"{cells[a, b][1]:.2f} ({cells[a, b][0]})" if (a, b) in cells
                                  else "-" for b in ids}} for a in ids]
    emit(columns, rows, fmt, title=f"{game} ({variant}) head to head: mean result (matches)")


MATCHES_PAGE = 50
"""``arena matches`` lists this many at a time unless told otherwise."""


@click.command()
@click.option("--tournament", "tournament_id", type=int, default=None, help="Only this tournament.")
@click.option("--game", default=None, help="Only this game.")
@click.option("--bot", "bot_name", default=None, help="Only matches of this bot (name or name@version).")
@click.option("--status", type=click.Choice(["pending", "done", "failed"]), default=None, help="Only this status.")
@click.option("--faults", "with_faults", is_flag=True, help="Only matches where some bot faulted.")
@click.option("--limit", type=click.IntRange(min=1), default=MATCHES_PAGE, show_default=True,
              help="At most this many matches, newest first (the output says how many there are in all).")
@click.option("--all", "show_all", is_flag=True, help="Every match: no --limit.")
@click.option("--after", "after_id", type=click.IntRange(min=1), default=None, metavar="ID",
              help="The next page: the matches listed after match ID (older ones), as the previous page says.")
@format_option
@db_option
def matches(tournament_id: int | None, game: str | None, bot_name: str | None, status: str | None,
            with_faults: bool, limit: int, show_all: bool, after_id: int | None, fmt: str, db_path: Path) -> None:
    """List matches, newest first: players by seat with their rank, scores and how it ended.

    Shows --limit matches at a time and says how many there are; --after continues where a
    page stopped (it names the ID), --all lists every one.
    """
    if game is not None:
        _check_game(game, None)
    with open_db(db_path, readonly=True) as db:
        if tournament_id is not None:
            try:
                db.tournament(tournament_id)
            except StorageError as error:
                raise click.ClickException(str(error)) from None
        bot_id = None
        if bot_name is not None:
            try:
                bot_id = find_bot(db, bot_name).id
            except BotLookupError as error:
                raise click.ClickException(str(error)) from None
        where: dict[str, Any] = {"tournament_id": tournament_id, "game": game, "bot_id": bot_id, "status": status,
                                 "faults": True if with_faults else None}
        total = db.count_matches(**where)
        left = db.count_matches(**where, before_id=after_id) if after_id is not None else total
        found_matches = db.matches(**where, before_id=after_id, limit=None if show_all else limit, newest_first=True)
        labels = bot_labels(db)
    page = MatchPage(total=total, skipped=total - left, shown=len(found_matches),
                     next_after=found_matches[-1].id if len(found_matches) < left else None)
    rows = [{"id": m.id, "tournament": m.tournament_id, "game": m.game, "variant": m.variant, "seed": m.seed,
             "round": m.round + 1, "players": [labels[b] for b in m.bot_ids],
             "ranking": [rank + 1 for rank in m.ranking] if m.ranking else None,
             "scores": list(m.scores) if m.scores else None, "forfeited": list(m.forfeited or ()),
             "faults": sum(m.faults) if m.faults else 0, "status": m.status, "reason": m.reason or "",
             "finished": _iso(m.finished_at)}
            for m in found_matches]
    filters = [("--tournament", tournament_id), ("--game", game), ("--bot", bot_name), ("--status", status)]
    options = [word for name, value in filters if value is not None for word in (name, value)]
    options += ["--faults"] if with_faults else []
    next_hint = None if page.next_after is None else arena_hint(
        "matches", *options, *(["--limit", limit] if limit != MATCHES_PAGE else []), "--after", page.next_after,
        *(["--format", fmt] if fmt != "table" else []), "--db", db_path)
    if fmt == "json":
        click.echo(json.dumps({"total": page.total, "shown": page.shown, "truncated": page.next_after is not None,
                               "next_after": page.next_after,
                               "matches": [{column.key: row[column.key] for column in MATCH_COLUMNS_DATA}
                                           for row in rows]}, indent=1))
        return
    if fmt == "csv":  # one value per cell: a row per seat
        seat_rows = [{"match": row["id"], "tournament": row["tournament"], "game": row["game"],
                      "variant": row["variant"], "seed": row["seed"], "round": row["round"], "seat": seat, "bot": bot,
                      "rank": row["ranking"][seat] if row["ranking"] else None,
                      "score": row["scores"][seat] if row["scores"] else None,
                      "forfeited": seat in row["forfeited"], "status": row["status"], "reason": row["reason"],
                      "finished": row["finished"]}
                     for row in rows for seat, bot in enumerate(row["players"])]
        emit([Column(key) for key in ("match", "tournament", "game", "variant", "seed", "round", "seat", "bot", "rank",
                                      "score", "forfeited", "status", "reason", "finished")], seat_rows, fmt)
        if page.next_after is not None or page.skipped:
            click.echo(page.text() + (f"; next: {next_hint}" if next_hint else ""), err=True)
        return
    for row, match in zip(rows, found_matches):
        row["players"] = players_text(match, labels)
        row["game"] = f"{row['game']}/{row['variant']}"
    wanted = ", ".join(f"{name.lstrip('-')} {value}" for name, value in filters if value is not None)
    wanted += (", " if wanted else "") + "faults" if with_faults else ""
    emit(MATCH_COLUMNS, rows, fmt, title="matches",
         empty=f"no matches{' with ' + wanted if wanted else ''}{' after match ' + str(after_id) if after_id else ''}"
               f" in {db_path}")
    if rows and (page.next_after is not None or page.skipped):
        console.print(page.text() + (f"; next: `{next_hint}`" if next_hint else ""))


@dataclasses.dataclass(frozen=True)
class MatchPage:
    """Where a page of ``arena matches`` sits in the whole listing."""

    total: int
    """Matches with these filters, all pages together."""
    skipped: int
    """Newer matches on the pages before this one (``--after``)."""
    shown: int
    next_after: int | None
    """The ``--after`` of the next page, ``None`` on the last one."""

    def text(self) -> str:
        """``50 of 60 matches`` on the first page, ``matches 51 to 60 of 60`` on the next."""
        if not self.skipped:
            return f"{self.shown} of {self.total} matches"
        return f"matches {self.skipped + 1} to {self.skipped + self.shown} of {self.total}"


MATCH_COLUMNS = [Column("id"), Column("tournament"), Column("game"), Column("round"), Column("seed"),
                 Column("players"), Column("status"), Column("scores", digits=0), Column("reason")]
MATCH_COLUMNS_DATA = [Column(key) for key in ("id", "tournament", "game", "variant", "seed", "round", "players",
                                              "ranking", "scores", "forfeited", "faults", "status", "reason",
                                              "finished")]


@click.command()
@click.argument("match_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the full match record as JSON.")
@click.option("--out", type=click.Path(dir_okay=False, writable=True, path_type=Path), default=None,
              help="Write the match record to this file (for `arena replay`).")
@click.option("--verbose", "-v", is_flag=True, help="Every move with its time and comment, and the deals, draws "
                                                    "and hand ends it caused (the full table's view).")
@db_option
def show(match_id: int, as_json: bool, out: Path | None, verbose: bool, db_path: Path) -> None:
    """Show one match: its set-up, result, faults, each seat's decision times and a line per
    hand (round, battle); -v for every move."""
    if out is not None:
        check_output_path(out, "--out")
    with open_db(db_path, readonly=True) as db:
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
    emit([Column("seat"), Column("bot"), Column("decisions"), Column("median_ms", "median ms", digits=1),
          Column("p99_ms", "p99 ms", digits=1), Column("max_ms", "max ms", digits=1)],
         decision_times(record), "table", title="decision times")
    console.print(f"{len(record.moves)} moves in {record.duration_s:.2f} s" + (":" if verbose else "; summary:"))
    print_match_log(console, record, verbose=verbose)


def decision_times(record: MatchRecord) -> list[dict[str, Any]]:
    """Per seat: how many decisions its bot answered, and their median, 99th percentile and
    longest time (moves the fallback played for a forfeited seat are left out)."""
    from arena.authoring.check_bot import percentile

    rows = []
    for seat, name in enumerate(record.players):
        times = sorted(m.elapsed_ms for m in record.moves if m.seat == seat and m.status is not MoveStatus.FORFEITED)
        rows.append({"seat": seat, "bot": name, "decisions": len(times),
                     "median_ms": statistics.median(times) if times else None,
                     "p99_ms": percentile(times, 0.99) if times else None,
                     "max_ms": times[-1] if times else None})
    return rows


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
    from arena.runs.tournament import TournamentSpec, create_tournament, run_tournament

    if not SAMPLE_BOTS.is_dir():
        raise click.ClickException(f"no sample bots at {SAMPLE_BOTS} (arena is installed incompletely)")
    if db_path is not None:
        check_database_path(db_path)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="arena-demo-") as folder:
        path = db_path or Path(folder) / "demo.db"
        try:
            with Database(path) as db:
                for game in game_names():
                    specs = _demo_bots(game, Path(folder))
                    cls = game_class(game)
                    needed = len(cls.teams) if cls.teams else cls.min_players  # bots may fill their team
                    if len(specs) < max(2, needed):
                        console.print(f"{game}: only {len(specs)} sample bot(s) play it; skipped")
                        continue
                    tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=rounds, seed=seed,
                                                               keep_alive=True, name=f"demo {game}"))
                    total = sum(db.match_counts(tid).values())
                    console.print()
                    console.print(game, style="bold", end="")
                    console.print(f": {', '.join(s.label for s in specs)}; {total} matches")
                    summary = run_tournament(db, tid, workers=workers, progress=progress_display(game))
                    if summary.interrupted:
                        console.print("interrupted")
                        sys.exit(130)
                    for error in summary.errors[:5]:
                        console.print(f"  failed: {error}")
                    t = db.tournament(tid)
                    print_ratings(db, t.game, t.variant, "table")
        except _expected() as error:
            raise click.ClickException(str(error)) from None
        console.print(f"\ndemo finished in {time.monotonic() - started:.1f} s")
        if serve_port is not None:
            from arena.web.server import ListenError, serve

            try:
                serve(path, port=serve_port, announce=console.print)
            except (StorageError, ListenError) as error:
                raise click.ClickException(str(error)) from None
    console.print(f"results kept in {db_path}" if db_path else "temporary database removed")


def _demo_bots(game: str, folder: Path) -> list[BotSpec]:
    """The sample bots that play ``game``, plus copies of the random bot where a table needs
    more players than there are sample bots (Yoninkan seats four)."""
    from arena.runs.tournament import expand_bots

    specs, _ = expand_bots([str(SAMPLE_BOTS)], game)
    cls = game_class(game)
    missing = 0 if cls.teams else max(0, cls.min_players - len(specs))
    return specs + [resolve_bot(str(copy)) for copy in random_bot_copies(folder, missing)]


# --- database maintenance ------------------------------------------------------------------------------------
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
    check_output_path(target, "--to")
    if target.exists() and target.resolve() == db_path.resolve():
        raise click.BadParameter("the backup cannot replace the database itself", param_hint="--to")
    with open_db(db_path, readonly=True) as db:
        db.backup(target)
    console.print(f"{db_path} backed up to {target} ({target.stat().st_size} bytes)")
