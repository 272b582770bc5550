"""Running tournaments: schedule into the database, play in worker processes, resume after a crash.

:func:`create_tournament` validates everything (game, variant, settings, bots) before it
writes; then it registers the bots and inserts the whole schedule as ``pending`` matches in
one transaction.  :func:`run_tournament` plays whatever is not ``done`` yet, so it is also
how a tournament is resumed.

Matches are played by an executor (:mod:`arena.executors`): worker processes on this
machine (:mod:`arena.executors.local`) or a Dask cluster (:mod:`arena.executors.dask`).
Executors never touch the database: they return each
:class:`~referee.result.MatchRecord`, and this process, the single writer, commits it in one
transaction, at most once per match.  The run loop (:mod:`arena.runs.loop`, shared with the
ladder) reads the same whichever executor plays.

``Ctrl-C`` (or SIGTERM) stops dispatching and lets the running matches finish and be stored;
a second ``Ctrl-C`` abandons them (their bots are stopped; they stay pending).

**Keeping bots alive** (``keep_alive=True``): each worker starts a bot's process once and
reuses it for every match it plays, instead of a fresh process per match.  It is faster
when start-up dominates, at a cost in isolation: a bot can carry memory from one match to
the next (it could learn an opponent, or leak), and a crash hurts only the match it happens
in (the process is restarted for the next one).
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from arena.runs.progress import NoProgress, Progress, RichProgress
from arena.executors import Executor, JobResult, MatchJob, play_job
from arena.executors.keeper import BotKeeper
from arena.executors.local import LocalExecutor
from arena.league.ratings import update_ratings
from arena.league.storage import BotRow, Database, ScheduledMatch, TournamentRow
from arena.runs.loop import QueueSource, RunSummary, run_loop
from arena.scheduling.round_robin import Format, Pairing, ScheduleError, format_for, schedule
from referee.bots import MANIFEST_NAME, BotSpec, BotSpecError, bot_files_hash, resolve_bot
from referee.games import game_class
from referee.games.base import Game, SettingsError
from referee.match import MatchConfig, TimeControl
from referee.sandbox import SandboxConfig

__all__ = ["BotKeeper", "Executor", "JobResult", "LocalExecutor", "MatchJob", "NoProgress", "Progress", "RichProgress",
           "RunSummary", "TournamentError", "TournamentPlan", "TournamentSpec", "abandon_tournament",
           "check_not_running", "create_tournament", "delete_tournament", "entrant_specs", "expand_bots",
           "plan_tournament", "play_job", "register", "run_tournament", "runner_alive", "spec_from_row"]
"""Executors and the progress display live in their own modules; their names stay importable here."""

DICE_GAMES = frozenset({"yahtzee"})
"""Games whose chance is dice, not a deal: duplicate seeds help less there, so they are off by default."""


class TournamentError(ValueError):
    """A tournament that cannot be created or run, told in one line."""


# --- bots -------------------------------------------------------------------------------------------
def expand_bots(texts: Iterable[str], game: str | None = None) -> tuple[list[BotSpec], list[str]]:
    """Resolve command-line bot arguments: manifests, folders of manifests, addresses.

    A folder without its own ``bot.toml`` stands for every manifest below it; those that do
    not play ``game`` are skipped (and named in the second list).  A bot named explicitly
    that does not play ``game`` is an error.

    :raises TournamentError: for an argument that names no bot.
    """
    specs: list[BotSpec] = []
    skipped: list[str] = []
    for text in texts:
        path = Path(text)
        try:
            if path.is_dir() and not (path / MANIFEST_NAME).exists():
                found = sorted(path.rglob(MANIFEST_NAME))
                found = [p for p in found if "node_modules" not in p.parts]
                if not found:
                    raise TournamentError(f"no {MANIFEST_NAME} in folder {text}")
                for manifest in found:
                    spec = BotSpec.from_manifest(manifest)
                    if game is not None and not spec.plays(game):
                        skipped.append(f"{spec.label} (does not play {game})")
                    else:
                        specs.append(spec)
                continue
            spec = resolve_bot(text)
        except BotSpecError as error:
            raise TournamentError(str(error)) from None
        if game is not None and not spec.plays(game):
            raise TournamentError(f"bot {spec.label} does not play {game} (its manifest lists {', '.join(spec.games)})")
        specs.append(spec)
    return specs, skipped


def spec_from_row(row: BotRow, address: str | None = None) -> BotSpec:
    """The bot a stored entrant refers to: at ``address`` if the tournament entered it by
    address, else from its manifest, checked against its registered files.  It carries the
    row's name and version (a development revision's ``+devN`` included).

    :raises TournamentError: if its manifest is gone or its files changed.
    """
    try:
        if address is None and row.manifest:
            spec = BotSpec.from_manifest(Path(row.manifest))
        else:
            return BotSpec.from_address(address or str(row.address), name=row.name, version=row.version)
    except BotSpecError as error:
        raise TournamentError(f"bot {row.label}: {error}") from None
    if bot_files_hash(spec) != row.files_hash:
        raise TournamentError(f"bot {row.label} changed since it was registered ({row.manifest}); "
                              f"restore it, or enter the changed bot under a new version")
    return dataclasses.replace(spec, name=row.name, version=row.version)


def entrant_specs(db: Database, tournament: TournamentRow) -> dict[int, BotSpec]:
    """Every entrant of ``tournament`` by bot id, reached as the tournament entered it.

    :raises TournamentError: if a manifest is gone or a bot's files changed.
    """
    addresses = tournament.options.get("addresses", {})
    return {row.id: spec_from_row(row, addresses.get(str(position)))
            for position, row in enumerate(db.tournament_bots(tournament.id))}


def register(db: Database, spec: BotSpec, *, dev: bool = False) -> BotRow:
    """Register ``spec`` (a new name or version is a new entrant; see :meth:`Database.register_bot`)."""
    return db.register_bot(name=spec.name, version=spec.version, files_hash=bot_files_hash(spec), author=spec.author,
                           language=spec.language, manifest=str(spec.manifest) if spec.manifest else None,
                           address=spec.address, dev=dev)


# --- creating -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TournamentSpec:
    """Everything that defines a tournament."""

    game: str
    bots: tuple[BotSpec, ...]
    variant: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    rounds: int = 1
    duplicate: bool | None = None
    """``None``: on for card games, off for dice games."""
    table_size: int | None = None
    seed: int = 0
    time_control: TimeControl = TimeControl()
    name: str = ""
    max_tables: int = 2000
    keep_alive: bool = False
    sandbox: SandboxConfig = SandboxConfig()
    """Stored with the tournament, so a resumed run confines bots the same way."""
    dev: bool = False
    """Enter a manifest bot whose files changed under a development revision (``name@version+devN``)."""
    rating: str = "trueskill"
    """The rating model its game's leaderboard uses (``"trueskill"`` or ``"score"``, docs/ratings.md),
    stored in its options."""


@dataclass(frozen=True)
class TournamentPlan:
    """A validated tournament: what :func:`create_tournament` will store."""

    spec: TournamentSpec
    game: Game
    format: Format
    duplicate: bool
    pairings: tuple[Pairing[int], ...]
    """Seats as positions in ``spec.bots``."""


def plan_tournament(spec: TournamentSpec) -> TournamentPlan:
    """Validate everything about a tournament without touching any database.

    A tournament needs at least two bots and tables of at least two seats: a single seat
    cannot be rated, and a league must never hold a match its ratings cannot use.

    :raises TournamentError: for a bad game, variant, setting, table size, or bot list.
    """
    try:
        cls = game_class(spec.game)
    except SettingsError as error:
        raise TournamentError(str(error)) from None
    labels = [bot.label for bot in spec.bots]
    twice = sorted({label for label in labels if labels.count(label) > 1})
    if twice:
        raise TournamentError(f"bot {twice[0]} is entered twice; each entrant needs its own name or version")
    if len(spec.bots) < 2:
        raise TournamentError(f"a tournament needs at least 2 bots to rate, got {len(spec.bots)}")
    for bot in spec.bots:
        if not bot.plays(spec.game):
            raise TournamentError(f"bot {bot.label} does not play {spec.game} (its manifest lists "
                                  f"{', '.join(bot.games)})")
    if spec.table_size is not None and spec.table_size < 2:
        raise TournamentError(f"tables of {spec.table_size} seat cannot be rated; a tournament needs at least 2 "
                              f"seats per table")
    try:
        fmt: Format = format_for(min_players=cls.min_players, max_players=cls.max_players, teams=cls.teams,
                                 num_bots=len(spec.bots), table_size=spec.table_size)
        if fmt.table_size < 2:
            raise ScheduleError(f"tables of {fmt.table_size} seat cannot be rated; a tournament needs at least 2 "
                                f"seats per table")
        game = cls(variant=spec.variant, num_players=fmt.table_size, settings=spec.settings)
        duplicate = spec.duplicate if spec.duplicate is not None else spec.game not in DICE_GAMES
        pairings = schedule(fmt, list(range(len(spec.bots))), rounds=spec.rounds, duplicate=duplicate,
                            seed=spec.seed, max_tables=spec.max_tables)
    except (SettingsError, ScheduleError) as error:
        raise TournamentError(str(error)) from None
    return TournamentPlan(spec, game, fmt, duplicate, tuple(pairings))


def create_tournament(db: Database, spec: TournamentSpec | TournamentPlan) -> int:
    """Validate (unless given a plan), register the bots and store the whole schedule.

    Returns the tournament id.

    :raises TournamentError: for a bad game, variant, setting, table size, or bot list.
    :raises StorageError: for a bot registered before with other files.
    """
    plan = spec if isinstance(spec, TournamentPlan) else plan_tournament(spec)
    spec, game, fmt = plan.spec, plan.game, plan.format
    rows = [register(db, bot, dev=spec.dev) for bot in spec.bots]
    addresses = {str(i): bot.address for i, bot in enumerate(spec.bots) if bot.address is not None}
    matches = [ScheduledMatch(tuple(rows[i].id for i in p.seats), p.seed, p.round, p.deal, p.rotation)
               for p in plan.pairings]
    tc = dataclasses.asdict(spec.time_control)
    name = spec.name or f"{game.name} {game.variant}: {len(rows)} bots, {spec.rounds} round(s)"
    return db.create_tournament(
        name=name, game=game.name, variant=game.variant, settings=dict(game.settings), format=fmt.kind,
        table_size=fmt.table_size, rounds=spec.rounds, duplicate=plan.duplicate, seed=spec.seed, time_control=tc,
        options={"max_tables": spec.max_tables, "keep_alive": spec.keep_alive, "format": fmt.describe(),
                 "sandbox": spec.sandbox.to_dict(), "addresses": addresses, "rating": spec.rating},
        bot_ids=[row.id for row in rows], matches=matches)


# --- running ---------------------------------------------------------------------------------------------
def runner_alive(pid: int | None) -> bool:
    """Whether another arena process still runs this tournament."""
    if pid is None or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return True
    return b"arena" in cmdline  # a recycled pid of some other program does not count


def check_not_running(tournament: TournamentRow) -> None:
    """:raises TournamentError: if a live arena process is running ``tournament``."""
    if runner_alive(tournament.runner_pid):
        raise TournamentError(f"tournament {tournament.id} is being run by process {tournament.runner_pid}")


def abandon_tournament(db: Database, tid: int) -> None:
    """Mark a tournament abandoned: its played matches stay (and stay rated), the rest is never played.

    :raises TournamentError: if a live process is running it.
    """
    check_not_running(db.tournament(tid))
    db.set_tournament_status(tid, "abandoned")


def delete_tournament(db: Database, tid: int) -> int:
    """Delete a tournament and all its matches, then recompute its game's ratings.

    Returns how many matches were deleted.

    :raises TournamentError: if a live process is running it.
    """
    tournament = db.tournament(tid)
    check_not_running(tournament)
    deleted = db.delete_tournament(tid)
    update_ratings(db, tournament.game, tournament.variant, recompute=True)
    return deleted


def run_tournament(db: Database, tid: int, *, workers: int = 1, keep_alive: bool | None = None,
                   progress: Progress | None = None,
                   executor_factory: Callable[[int, bool], Executor] | None = None) -> RunSummary:
    """Play every match of tournament ``tid`` that is not done, then update the ratings.

    Used both to run and to resume.  Returns after all matches, or after Ctrl-C once the
    running matches are stored (``summary.interrupted``).

    :raises TournamentError: if another process is running it, or a bot changed or vanished.
    :raises SandboxError: if the tournament's sandbox is bwrap and bwrap does not work here.
    """
    progress = progress or NoProgress()
    tournament = db.tournament(tid)
    check_not_running(tournament)
    if tournament.status == "abandoned":
        raise TournamentError(f"tournament {tid} was abandoned; its unplayed matches are not played")
    if tournament.options.get("kind") == "ladder":
        raise TournamentError(f"tournament {tid} is a ladder; run it with `arena ladder run`")
    entrants = db.tournament_bots(tid)
    specs = entrant_specs(db, tournament)
    todo = db.unfinished_matches(tid)
    counts = db.match_counts(tid)
    total = sum(counts.values())
    summary = RunSummary(tid, total, counts["done"])
    keep = bool(tournament.options.get("keep_alive", False)) if keep_alive is None else keep_alive
    tc = TimeControl(**tournament.time_control)
    # Resolved here, once: a missing bwrap fails or warns before any worker starts.
    requested = SandboxConfig.from_dict(tournament.options.get("sandbox"))
    sandbox = requested.resolved()
    hashes = {row.id: row.files_hash for row in entrants}
    jobs = [MatchJob(m.id, MatchConfig(game=m.game, variant=m.variant, settings=m.settings, seed=m.seed,
                                       match_id=str(m.id), time_control=tc, sandbox=sandbox),
                     tuple(specs[b] for b in m.bot_ids), tuple(hashes[b] for b in m.bot_ids), m.attempts + 1,
                     requested)
            for m in todo]
    start = time.monotonic()
    status = "incomplete"  # what an unexpected error leaves: resumable, never stuck "running"
    try:
        if jobs:
            db.set_tournament_status(tid, "running", runner_pid=os.getpid())
            factory = executor_factory or (lambda n, keep: LocalExecutor(n, keep_alive=keep))
            run_loop(db, QueueSource(jobs), summary, lambda: factory(min(workers, len(jobs)), keep),
                     progress=progress, on_stopping=lambda running: progress.note(
                         f"stopping: finishing the {running} running match(es); Ctrl-C again to abandon them"))
        summary.elapsed_s = time.monotonic() - start
        update_ratings(db, tournament.game, tournament.variant)
        left = db.match_counts(tid)
        status = "finished" if left["pending"] == 0 and left["failed"] == 0 else "interrupted" \
            if summary.interrupted else "incomplete"
    finally:
        db.set_tournament_status(tid, status)
    return summary
