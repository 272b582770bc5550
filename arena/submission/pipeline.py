"""The submission pipeline: ``received → building → validating → active`` (or ``failed``).

``arena submissions work`` runs :func:`work_once` in a process of its own, never in the web
server: uploads stay a thin step that stores files, and a build (minutes of a stranger's
code, under the sandbox) or a validation match never holds up a request.  One worker at a
time: each submission is claimed by an update from ``received`` to ``building`` in one
transaction, so a second worker started by mistake takes other submissions, never the same.

**Build**: the manifest's ``[build] command`` by :func:`referee.build.ensure_built`,
into the same store by content hash that matches read (so the ladder never rebuilds it).
**Validate**: :func:`arena.authoring.check_bot.check_bot`'s checks on the ladder's game, then
one match in every seat against the sample random bot, with the ladder's settings and time
control, played as a ladder's worker plays (:func:`arena.executors.play_job`).  A match that
does not finish, or in which the bot faults out or forfeits, fails validation; its record is
kept as a file (``<data dir>/logs/<id>-seat<N>.json``, ``arena replay`` reads it), not as a
tournament row: a validation match in the league would be rated with the ladder's matches.
The submitted bot's output in each validation match (its last :data:`OUTPUT_BYTES`) is kept
beside it as ``<id>-seat<N>.out``, for its author (:mod:`arena.web.author_pages`).
**Enter**: the bot is registered and added to its ladder; older ``active`` versions of the
same bot (its name whatever its case) on that ladder beyond ``keep`` leave it (removed, state
``retired``); the author's other bots stay.
**SPRT**: a version entered after an earlier one of the same bot opens an SPRT run against
it, in the transaction that makes it ``active`` (:mod:`arena.submission.sprt_runs`, "Opening");
``arena submissions work`` plays open runs a batch at a time between submissions
(:mod:`arena.submission.sprt_play`).

Ratings: a new version starts from its previous version's rating, not from TrueSkill's
default (mu 25, sigma 8.33): the author's newest earlier version of the same bot name that
reached ``active`` and has a rating in the ladder's game and variant (its rated one, else its
own prior).  The new version keeps that mu, with sigma widened to
``min(8.33, sqrt(sigma^2 + 4.17^2))`` (:func:`arena.league.ratings.widened`): a new version is
usually close to its predecessor, so it needs fewer matches to find its place and plays at
its level from the first set, while the wider sigma lets it move quickly if it changed much,
and keeps it above the ladder's ``new_sigma`` (4.17), so the scheduler still seats it first.
The start is stored as the bot's rating prior in the same transaction as its entry
(``rating_priors``), and every recompute replays from it (:mod:`arena.league.ratings`).  A first
version, or one whose earlier versions have no rating, starts from the default.

Each submission's log (``<data dir>/logs/<id>.log``, the row's ``log_path``) holds the build
log, the check's report and each validation match's outcome, for its author's eyes.
"""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import trueskill

from arena.authoring.check_bot import CheckReport, check_bot
from arena.executors import MatchJob, play_job
from arena.executors.keeper import BotKeeper
from arena.league.queries import counted
from arena.league.ratings import DEFAULT_START, plan_ratings, starting_rating, stored_priors, widened
from arena.league.storage import BotConflictError, Database, TournamentRow
from arena.resources import random_bot_dir
from arena.runs import ladder_store
from arena.runs.tournament import register
from arena.scheduling.round_robin import SEED_LIMIT
from arena.submission.archive import ArchiveError, read_manifest
from arena.submission import sprt_runs
from arena.submission.sprt_runs import SprtSettings, plan_run, store_run
from arena.submission.submissions import KEEP, bot_folder, registered_bot
from referee.bots import MANIFEST_NAME, BotSpec
from referee.build import BuildError, build_folder, ensure_built
from referee.games import game_class
from referee.match import BotConnection, BotUnavailable, MatchConfig, TimeControl
from referee.sandbox import SandboxConfig


@dataclass(frozen=True)
class Outcome:
    """What became of one submission."""

    id: int
    state: str
    message: str


OUTPUT_BYTES = 64 * 1024
"""The submitted bot's output (stdout and stderr) kept per validation match: its last 64 KiB."""


class StepFailed(Exception):
    """A step that failed; the message is the author's one line."""


def _set(db: Database, sid: int, state: str, message: str = "", log_path: str | None = None) -> None:
    with db.transaction() as conn:
        _update(conn, sid, state, message, log_path)


def _update(conn: sqlite3.Connection, sid: int, state: str, message: str = "", log_path: str | None = None) -> None:
    sets, params = "state = ?, message = ?, changed_at = ?", [state, message[:500], time.time()]
    if log_path is not None:
        sets += ", log_path = ?"
        params.append(log_path)
    conn.execute(f"UPDATE submissions SET {sets} WHERE id = ?", (*params, sid))


def _claim(db: Database) -> tuple[int, str, str, str, str] | None:
    """The oldest ``received`` submission, moved to ``building``: ``(id, author, name, hash, ladder)``.

    A plain read first: an idle worker polls, and ``BEGIN IMMEDIATE`` takes the write lock."""
    if db.conn.execute("SELECT 1 FROM submissions WHERE state = 'received' LIMIT 1").fetchone() is None:
        return None
    with db.transaction() as conn:
        row = conn.execute("SELECT s.id, u.name, s.bot_name, s.content_hash, s.ladder FROM submissions s JOIN users u"
                           " ON u.id = s.author_id WHERE s.state = 'received' ORDER BY s.id LIMIT 1").fetchone()
        if row is None:
            return None
        conn.execute("UPDATE submissions SET state = 'building', changed_at = ? WHERE id = ?", (time.time(), row[0]))
    return int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4])


def requeue_interrupted(db: Database) -> int:
    """Put submissions a stopped worker left ``building`` or ``validating`` back to ``received``
    (a worker starting up calls it: one worker per database); how many."""
    with db.transaction() as conn:
        return conn.execute("UPDATE submissions SET state = 'received', message = 'interrupted; waiting again',"
                            " changed_at = ? WHERE state IN ('building', 'validating')", (time.time(),)).rowcount


def work_once(db: Database, data_dir: Path, *, keep: int = KEEP, sandbox: SandboxConfig = SandboxConfig(),
              sprt: SprtSettings = SprtSettings()) -> list[Outcome]:
    """Take every waiting submission through the pipeline, oldest first; what became of each.
    A new version opens its SPRT run with ``sprt``'s bounds; the run is not played here.

    Builds go to the store of ``$ARENA_BUILDS`` (:func:`referee.build.builds_root`),
    the one the matches' own :func:`~referee.build.ensure_built` reads."""
    outcomes = []
    while (claimed := _claim(db)) is not None:
        outcomes.append(process(db, Path(data_dir), claimed, keep=keep, sandbox=sandbox, sprt=sprt))
    return outcomes


def process(db: Database, data_dir: Path, claimed: tuple[int, str, str, str, str], *, keep: int,
            sandbox: SandboxConfig, sprt: SprtSettings = SprtSettings()) -> Outcome:
    """Build, validate and enter one claimed submission, and open its SPRT run if it is a new
    version; never raises for the bot's faults."""
    sid, author, name, digest, ladder_name = claimed
    logs = data_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    log_path = logs / f"{sid}.log"
    log_path.write_text("", encoding="utf-8")
    relative = str(log_path.relative_to(data_dir))
    step = "build"
    try:
        try:
            spec = read_manifest(bot_folder(data_dir, author, name, digest))
        except ArchiveError as error:
            raise StepFailed(str(error)) from None
        _set(db, sid, "building", "building", relative)
        _build(spec, sandbox, log_path)
        step = "validation"
        _set(db, sid, "validating", "validating")
        ladder = _ladder(db, ladder_name)
        _validate(spec, ladder, sandbox, log_path, logs / str(sid), sid)
        step = "ladder entry"
        message = _enter(db, sid, spec, ladder, author, keep) if ladder else "validated; submitted for no ladder"
    except StepFailed as failure:
        message = f"{step} failed: {failure}"
        _append(log_path, f"== {message}\n")
        _set(db, sid, "failed", message)
        return Outcome(sid, "failed", message)
    _append(log_path, f"== {message}\n")
    planned = plan_run(db, sid, ladder, sprt) if ladder is not None else None
    with db.transaction() as conn:  # active with its run, or neither (sprt_runs: "Opening")
        _update(conn, sid, "active", message)
        run_id = store_run(conn, planned) if planned is not None else None
    if run_id is not None:
        _log_sprt(db, run_id, log_path)
    return Outcome(sid, "active", message)


def _log_sprt(db: Database, run_id: int, log_path: Path) -> None:
    """Say in the new version's log that its SPRT run opened (or was refused)."""
    run = sprt_runs.run(db, run_id)
    assert run is not None
    old = db.bot(run.old_bot_id).label
    if run.verdict == "refused":
        _append(log_path, f"== SPRT run {run.id} against {old}: refused: {run.reason}\n")
    else:
        _append(log_path, f"== SPRT run {run.id} against {old}: opened ({run.test.describe()}; "
                          f"{run.test.elo_unit} Elo [{run.test.elo0:g}, {run.test.elo1:g}], alpha {run.test.alpha:g},"
                          f" beta {run.test.beta:g}, at most {run.max_pairs} pairs)\n")


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as log:
        log.write(text)


def _build(spec: BotSpec, sandbox: SandboxConfig, log_path: Path) -> None:
    """The manifest's build step, if it has one, with its log copied into the submission's."""
    if not spec.build_command:
        _append(log_path, "== build: none (the manifest has no [build] command)\n")
        return
    try:
        # In the try: a folder that cannot be hashed (changed on disk since the upload) is
        # this submission's failure; raised out of here it would stop the worker, and the
        # submission, left "building", would stop every worker started after it.
        folder = build_folder(spec)
    except BuildError as error:
        raise StepFailed(str(error)) from None
    try:
        ensure_built(spec, sandbox, folder=folder)
    except BuildError as error:
        raise StepFailed(str(error).replace(str(folder.parent), "<builds>")) from None
    finally:
        built_log = folder.with_name(folder.name + ".log")
        text = built_log.read_text(encoding="utf-8", errors="replace") if built_log.exists() else ""
        _append(log_path, f"== build log\n{text}\n")


def _ladder(db: Database, name: str) -> TournamentRow | None:
    if not name:
        return None
    for ladder in ladder_store.ladders(db):
        if ladder.name == name:
            return ladder
    raise StepFailed(f"this server has no ladder named {name!r} any more")


def _check_text(report: CheckReport) -> str:
    lines = [f"bot: {report.bot}", f"identity: {report.identity}"]
    for game in report.games:
        lines.append(f"{game.game}: {counted(game.matches, 'match', 'matches')}, {counted(game.decisions, 'decision')},"
                     f" median {game.median_ms:.1f} ms,"
                     f" p99 {game.percentile(0.99):.1f} ms, bank used {game.bank_used_s:.2f} s")
        lines += [f"FAIL: {game.game}: match aborted: {problem}" for problem in game.aborted]
        lines += [f"FAIL: {game.game}: {fault.kind.value}: {fault.detail}" for fault in game.faults]
    lines += [f"FAIL: {problem}" for problem in report.problems]
    if report.output:
        lines += ["the bot's last output (stdout and stderr), after its first failure:", *(f"  | {line}" for line in report.output)]
    return "\n".join(lines)


def validation_seed(ladder_seed: int, sid: int, seat: int) -> int:
    """The seed of submission ``sid``'s validation match in ``seat``.  Its author reads that
    match's record, seed included, so the seed must not give the ladder's away (the ladder's
    seed gives every deal it will play): it is drawn from a hash of the ladder's seed, which a
    ladder's random 63-bit seed keeps out of reach of a search (a seed set by hand in the
    ladder's config is as secret as its owner keeps it)."""
    return random.Random(f"validation:{ladder_seed}:{sid}:{seat}").randrange(SEED_LIMIT)


def _validate(spec: BotSpec, ladder: TournamentRow | None, sandbox: SandboxConfig, log_path: Path,
              records: Path, sid: int) -> None:
    """check-bot's checks, then (for a ladder) one match per seat against the sample random bot."""
    tc = TimeControl(**ladder.time_control) if ladder else TimeControl()
    report = check_bot(spec, time_control=tc, only=[ladder.game] if ladder else None, sandbox=sandbox)
    _append(log_path, f"== check-bot\n{_check_text(report)}\n")
    if not report.ok:
        raise StepFailed(f"check-bot: {report.first_failure()}")
    if ladder is None:
        return
    seats = ladder.table_size or game_class(ladder.game).default_players
    # One spec in every other seat: the keeper starts a process per seat, and a validation
    # match is never stored, so its opponents need no names of their own.
    randoms = [BotSpec.from_manifest(random_bot_dir() / MANIFEST_NAME)] * (seats - 1)
    keeper = BotKeeper(keep_alive=False)
    try:
        for seat in range(seats):
            bots = list(randoms)
            bots.insert(seat, spec)
            config = MatchConfig(game=ladder.game, variant=ladder.variant, settings=ladder.settings,
                                 seed=validation_seed(ladder.seed, sid, seat), match_id=f"validation-{seat}", time_control=tc,
                                 sandbox=sandbox.resolved())
            output: list[str] = []

            def keep_output(used: Sequence[BotSpec | BotConnection | BotUnavailable], seat: int = seat) -> None:
                bot = used[seat]
                if isinstance(bot, BotConnection) and bot.process is not None:
                    output.append(bot.process.output(OUTPUT_BYTES))

            result = play_job(MatchJob(0, config, tuple(bots)), keeper, on_played=keep_output)
            record = result.record
            faults = [f for f in record.faults if f.seat == seat] if record else []
            problem = result.error or (f"forfeited: {record.reason}" if record and seat in record.forfeited else "")
            line = f"seat {seat}: " + (problem or f"finished, {len(faults)} faults")
            if record is not None and (problem or faults):
                file = records.with_name(f"{records.name}-seat{seat}.json")
                file.write_text(record.dumps() + "\n", encoding="utf-8")
                line += f"; record: {file.name}"
            if output and output[0]:
                file = records.with_name(f"{records.name}-seat{seat}.out")
                file.write_text(output[0], encoding="utf-8")
                line += f"; the bot's output: {file.name}"
            _append(log_path, f"== validation match {line}\n"
                              + "".join(f"   fault: {f.kind.value}: {f.detail}\n" for f in faults))
            if problem:
                raise StepFailed(f"validation match in seat {seat}: {problem}")
    finally:
        keeper.close()


def _previous_rating(db: Database, sid: int, author: str, name: str, ladder: TournamentRow) \
        -> tuple[trueskill.Rating, str] | None:
    """The rating of the author's newest version of ``name`` before submission ``sid`` that
    reached ``active`` and is rated in the ladder's game (or has a prior there), and its label."""
    # The submissions keep the name's first case, ``name`` is this manifest's (bot_names).
    earlier = db.conn.execute(
        "SELECT s.bot_name, s.version FROM submissions s JOIN users u ON u.id = s.author_id WHERE u.name = ?"
        " AND s.bot_name = ? COLLATE NOCASE AND s.id < ? AND s.state IN ('active', 'retired') ORDER BY s.id DESC",
        (author, name, sid)).fetchall()
    if not earlier:
        return None
    rated = plan_ratings(db, ladder.game, ladder.variant).final
    priors = stored_priors(db, ladder.game, ladder.variant)
    for bot_name, version in earlier:
        bot_id = registered_bot(db, bot_name, version)
        rating = rated.get(bot_id, priors.get(bot_id)) if bot_id is not None else None
        if rating is not None:
            return rating, f"{bot_name} {version}"
    return None


def _enter(db: Database, sid: int, spec: BotSpec, ladder: TournamentRow, author: str, keep: int) -> str:
    """Register the bot, add it to the ladder (its rating starting from its previous version's,
    widened) and retire this bot's older versions beyond ``keep`` (this one counted)."""
    previous = _previous_rating(db, sid, author, spec.name, ladder)
    prior = None if previous is None else (widened(previous[0]), f"{previous[1]}'s rating, widened")
    try:
        row = register(db, spec)
        change = ladder_store.add_entrant(db, ladder.id, row.id, spec.address, prior=prior)
    except BotConflictError as error:
        raise StepFailed(f"{error}; give the new files a new version in bot.toml") from None
    label, seeded = row.label, ""
    start, why = starting_rating(db, ladder.game, ladder.variant, row.id)
    if why != DEFAULT_START:
        seeded = f"; rated from mu {start.mu:.2f}, sigma {start.sigma:.2f} ({why})"
    # This version counts as one of the ``keep``; it becomes ``active`` after, with its SPRT run.
    # Versions of this bot only (its name whatever its case, as ``bot_names`` owns it): the
    # author's other bots on the ladder are not versions of it.
    older = db.conn.execute(
        "SELECT s.id, s.bot_name, s.version FROM submissions s JOIN users u ON u.id = s.author_id WHERE u.name = ?"
        " AND s.bot_name = ? COLLATE NOCASE AND s.ladder = ? AND s.state = 'active' AND s.id != ? ORDER BY s.id DESC",
        (author, spec.name, ladder.name, sid)).fetchall()[keep - 1:]
    retired = []
    bosses = ladder_store.bosses(db, ladder.id)
    for old_id, old_name, old_version in older:
        found = registered_bot(db, old_name, old_version)
        if found is not None and found in bosses:  # a reference bot stays, whatever comes after it
            continue
        if found is not None:
            ladder_store.set_state(db, ladder.id, found, "removed", f"retired: replaced by submission {sid}")
        _set(db, old_id, "retired", f"retired: replaced by submission {sid} (at most {keep} active versions)")
        retired.append(f"{old_name} {old_version}")
    return (f"active on ladder {ladder.name} as {label} ({change}){seeded}"
            + (f"; retired {', '.join(retired)}" if retired else ""))


__all__ = ["KEEP", "Outcome", "process", "requeue_interrupted", "work_once"]
