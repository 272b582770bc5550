"""``arena tournament run|resume|abandon|delete|list`` and ``arena demo``: the commands that run
tournaments.

Registered on the ``arena`` group by :mod:`arena.cli.main`.  Commands stay thin: they parse
options, call :mod:`arena.runs.tournament`, and print (the ratings through
:mod:`arena.cli.results`).  Every expected failure is a one-line ``Error: ...`` and exit status 1.
"""

from __future__ import annotations

import dataclasses
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.table import Table

from arena.cli.common import (check_database_path, check_game, db_option, executor_options, iso_time,
                              make_time_control, open_db, parse_settings, sandbox_options, time_control_options)
from arena.cli.hints import arena_hint
from arena.cli.output import Column, console, emit, format_option
from arena.runs.progress import progress_display
from arena.cli.results import print_ratings
from arena.league.queries import counted
from arena.league.storage import BotRow, Database, StorageError
from arena.resources import random_bot_copies, sample_bots_dir
from referee.bots import BotSpec, resolve_bot
from referee.games import game_class, game_names
from referee.games.base import SettingsError
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
@click.option("--rating", type=click.Choice(["trueskill", "score"]), default="trueskill", show_default=True,
              help="The rating model of the game's leaderboard: TrueSkill (who won) or the score model "
                   "(luck-adjusted scores, refitted over all matches; docs/ratings.md).")
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
                workers: int, duplicate: bool | None, table_size: int | None, seed: int | None, name: str, rating: str,
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

    check_game(game, variant)
    check_database_path(db_path)
    try:
        specs, skipped = expand_bots(bots, game)
        for line in skipped:
            console.print(f"skipped bot {line}")
        seed = seed if seed is not None else random.randrange(2**31)
        spec = TournamentSpec(game=game, bots=tuple(specs), variant=variant, settings=parse_settings(settings),
                              rounds=rounds, duplicate=duplicate, table_size=table_size, seed=seed,
                              time_control=make_time_control(move_timeout, time_bank, max_faults, startup_timeout),
                              name=name, max_tables=max_tables, keep_alive=keep_alive, sandbox=sandbox, dev=dev,
                              rating=rating)
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
                          f"duplicate deals {'on' if t.duplicate else 'off'}, seed {t.seed}: {counted(total, 'match', 'matches')} "
                          f"on {counted(min(workers, total), 'worker')}; database {db_path}")
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
                click.confirm(f"delete tournament {tournament_id} ({t.game} {t.variant}, {counted(total, 'match', 'matches')}) from "
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
                         "total": sum(counts.values()), "status": t.status, "created": iso_time(t.created_at),
                         "finished": iso_time(t.finished_at)})
    emit(TOURNAMENT_COLUMNS if fmt in ("table", "markdown") else TOURNAMENT_COLUMNS + TOURNAMENT_COLUMNS_DATA, rows,
         fmt, title="tournaments", empty=f"no tournaments in {db_path}")


TOURNAMENT_COLUMNS = [Column("id"), Column("name"), Column("game"), Column("variant"), Column("format"),
                      Column("bots"), Column("done"), Column("failed"), Column("total"), Column("status"),
                      Column("created")]
TOURNAMENT_COLUMNS_DATA = [Column("pending"), Column("finished")]


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
    Ctrl-C). A --db that already holds tournaments is said so before the demo starts: it
    adds its own, and the ratings it prints count them all.
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
                held = len(db.tournaments())
                if held:
                    console.print(f"{path} already holds {counted(held, 'tournament')}; the demo adds its own, "
                                  f"and the ratings it prints count them all")
                for game in game_names():
                    specs = _demo_bots(game, Path(folder))
                    cls = game_class(game)
                    needed = len(cls.teams) if cls.teams else cls.min_players  # bots may fill their team
                    if len(specs) < max(2, needed):
                        console.print(f"{game}: only {counted(len(specs), 'sample bot')} "
                                      f"play{'s' if len(specs) == 1 else ''} it; skipped")
                        continue
                    tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=rounds, seed=seed,
                                                               keep_alive=True, name=f"demo {game}"))
                    total = sum(db.match_counts(tid).values())
                    console.print()
                    console.print(game, style="bold", end="")
                    console.print(f": {', '.join(s.label for s in specs)}; {counted(total, 'match', 'matches')}")
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
    if db_path is None:
        console.print("temporary database removed; keep one with --db FILE, or serve it at the end with --serve")
    elif serve_port is None:
        console.print(f"results kept in {db_path}; serve them with `{arena_hint('serve', '--db', db_path)}`")
    else:
        console.print(f"results kept in {db_path}")


def _demo_bots(game: str, folder: Path) -> list[BotSpec]:
    """The sample bots that play ``game``, plus copies of the random bot where a table needs
    more players than there are sample bots (Yoninkan seats four)."""
    from arena.runs.tournament import expand_bots

    specs, _ = expand_bots([str(SAMPLE_BOTS)], game)
    cls = game_class(game)
    missing = 0 if cls.teams else max(0, cls.min_players - len(specs))
    return specs + [resolve_bot(str(copy)) for copy in random_bot_copies(folder, missing)]


