"""SPRT runs on the server: each new version of a submitted bot against its previous one
(issue 27; the test itself is :mod:`arena.submission.sprt`, docs/sprt.md).

**Opening.**  When a submission becomes ``active`` on a ladder and its author had an earlier
version of the same bot there (the newest earlier submission that reached ``active``, retired
since or not), a run is stored: NEW is the new version, OLD that one, on the ladder's game,
variant, settings, time control and sandbox as they were at that moment (the run's
``config``).  The worker stores it (:func:`plan_run`, :func:`store_run`) in the transaction
that makes the submission ``active``, so a worker stopped at any moment leaves a version
either not yet active (taken up again when a worker starts) or active with its run.  A run
that cannot be tested on duplicate pairs (the logistic test on Yoninkan, whose pairs are
replays; settings the game refuses) is stored at once as ``refused``, with the reason.

**Playing.**  The worker plays a run in batches (:mod:`arena.submission.sprt_play`); each
batch's new state, the next pair's index and one point of the LLR history are committed by
:func:`store_batch` in ONE transaction, guarded by the index the batch started from.  Pair
``i`` of run ``r`` always plays the same deal (:func:`arena.submission.pairs.run_pair_seeds`),
so a worker killed in the middle of a batch leaves the stored state as it was, and the next
one plays that batch again from its first pair: no pair is counted twice or skipped.

**Endings** (``verdict``): ``stronger`` and ``not stronger`` (the SPRT's), ``undecided`` (the
pair limit reached), ``refused`` (cannot be tested: the reason says why) and ``failed`` (the
run broke: a bot that can no longer be started, matches that keep not finishing).
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from arena.league.storage import Database, TournamentRow
from arena.submission.normalized_sprt import NAME as NORMALIZED
from arena.submission.normalized_sprt import PairTest, load_test, new_test
from arena.submission.submissions import registered_bot

if TYPE_CHECKING:
    from arena.submission.pairs import PairResult

MAX_PAIRS = 2000
"""Pairs before a run ends undecided by default (``arena sprt --max-pairs``' default)."""

BATCH = 10
"""Pairs a worker plays of a run at a time by default (one stored batch); between two
batches, a waiting submission goes first."""


@dataclass(frozen=True)
class SprtSettings:
    """What a server's new runs test (``arena submissions work --sprt-...``)."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    max_pairs: int = MAX_PAIRS
    test_name: str = NORMALIZED
    """``"normalized"`` (bounds in normalised Elo, luck-adjusted where the game has an
    estimator) or ``"logistic"`` (the test before issue 35)."""

    def test(self, game: str) -> PairTest:
        """A new test of ``game`` with these bounds (:func:`~arena.submission.normalized_sprt.new_test`).

        :raises ValueError: on bounds or a test name the tests refuse."""
        return new_test(game, self.test_name, elo0=self.elo0, elo1=self.elo1, alpha=self.alpha, beta=self.beta)


@dataclass(frozen=True)
class Run:
    """One stored run."""

    id: int
    submission_id: int
    old_submission_id: int
    new_bot_id: int
    old_bot_id: int
    config: dict[str, Any]
    test: PairTest
    max_pairs: int
    next_pair: int
    verdict: str | None
    reason: str
    created_at: float
    changed_at: float
    finished_at: float | None


_COLUMNS = ("id, submission_id, old_submission_id, new_bot_id, old_bot_id, config, state, max_pairs, next_pair, "
            "verdict, reason, created_at, changed_at, finished_at")


def _run(row: Any) -> Run:
    return Run(int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), json.loads(row[5]),
               load_test(json.loads(row[6])), int(row[7]), int(row[8]), row[9], str(row[10]), float(row[11]),
               float(row[12]), row[13])


def previous_version(db: Database, submission_id: int) -> tuple[int, str] | None:
    """The newest earlier submission of the same author, bot name and ladder that reached
    ``active`` (retired since or not): ``(id, version)``, or ``None`` for a first version."""
    row = db.conn.execute(
        "SELECT o.id, o.version FROM submissions s JOIN submissions o ON o.author_id = s.author_id AND"
        " o.bot_name = s.bot_name AND o.ladder = s.ladder AND o.id < s.id WHERE s.id = ? AND s.ladder != '' AND"
        " o.state IN ('active', 'retired') ORDER BY o.id DESC LIMIT 1", (submission_id,)).fetchone()
    return None if row is None else (int(row[0]), str(row[1]))


def plan_run(db: Database, submission_id: int, ladder: TournamentRow,
             settings: SprtSettings = SprtSettings()) -> tuple[Any, ...] | None:
    """The run of ``submission_id`` (entering ``ladder``) against the author's previous
    version there, as :func:`store_run` stores it; ``None`` if it has none.  Only reads, so
    that the worker can store the run in the same transaction as the version's activation.
    A run that cannot be tested on duplicate pairs (:meth:`~arena.submission.pairs.PairLayout.check`,
    settings the game refuses) is planned ``refused`` with the reason."""
    from arena.submission.pairs import PairingError, pair_layout  # the referee's engines: when a run opens
    from referee.games import game_class
    from referee.games.base import SettingsError

    previous = previous_version(db, submission_id)
    if previous is None:
        return None
    old_submission, old_version = previous
    name, version = db.conn.execute("SELECT bot_name, version FROM submissions WHERE id = ?",
                                    (submission_id,)).fetchone()
    new_bot, old_bot = registered_bot(db, name, version), registered_bot(db, name, old_version)
    if new_bot is None or old_bot is None:
        return None
    config = {"ladder": ladder.name, "ladder_id": ladder.id, "game": ladder.game, "variant": ladder.variant,
              "settings": ladder.settings, "time_control": ladder.time_control,
              "sandbox": ladder.options.get("sandbox", {}), "keep_alive": bool(ladder.options.get("keep_alive"))}
    verdict, reason, test = None, "", settings.test(ladder.game)
    try:
        layout = pair_layout(ladder.game)
        layout.check(test)
        game_class(ladder.game)(variant=ladder.variant, num_players=layout.num_players, settings=ladder.settings)
    except (PairingError, SettingsError, ValueError) as error:
        verdict, reason = "refused", str(error)
    now = time.time()
    return (submission_id, old_submission, new_bot, old_bot, json.dumps(config, sort_keys=True),
            json.dumps(test.to_json()), settings.max_pairs, verdict, reason, now, now,
            now if verdict else None)


def store_run(conn: sqlite3.Connection, planned: tuple[Any, ...]) -> int | None:
    """Store a run :func:`plan_run` planned, inside the caller's transaction: its id, or
    ``None`` if the submission has a run already."""
    cursor = conn.execute(
        "INSERT OR IGNORE INTO sprt_runs (submission_id, old_submission_id, new_bot_id, old_bot_id, config, state,"
        " max_pairs, verdict, reason, created_at, changed_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?)", planned)
    return int(cursor.lastrowid) if cursor.rowcount else None


def run(db: Database, run_id: int) -> Run | None:
    row = db.conn.execute(f"SELECT {_COLUMNS} FROM sprt_runs WHERE id = ?", (run_id,)).fetchone()
    return None if row is None else _run(row)


def run_of(db: Database, submission_id: int) -> Run | None:
    """The run that tests submission ``submission_id`` (the new version), if any."""
    row = db.conn.execute(f"SELECT {_COLUMNS} FROM sprt_runs WHERE submission_id = ?", (submission_id,)).fetchone()
    return None if row is None else _run(row)


def oldest_open(db: Database) -> Run | None:
    """The open run with the lowest id: the worker plays runs one after the other."""
    row = db.conn.execute(f"SELECT {_COLUMNS} FROM sprt_runs WHERE verdict IS NULL ORDER BY id LIMIT 1").fetchone()
    return None if row is None else _run(row)


def counted_pairs(db: Database, run_id: int) -> list[tuple[int, int, float, float | None, float | None]]:
    """``(pair, seed, points, adjusted, raw)`` of each counted pair of a run stored since schema
    13, in order (runs stored before have their state only)."""
    return [(int(row[0]), int(row[1]), float(row[2]), row[3], row[4]) for row in db.conn.execute(
        "SELECT pair, seed, points, adjusted, raw FROM sprt_pairs WHERE run_id = ? ORDER BY pair", (run_id,))]


def history(db: Database, run_id: int) -> list[tuple[int, float]]:
    """``(pairs counted, LLR)`` after each stored batch, in order."""
    return [(int(pairs), float(llr)) for pairs, llr in db.conn.execute(
        "SELECT pairs, llr FROM sprt_points WHERE run_id = ? ORDER BY played", (run_id,))]


def store_batch(db: Database, start: Run, test: PairTest, next_pair: int,
                pairs: Sequence[PairResult] = ()) -> tuple[str | None, str]:
    """Commit a batch played from ``start``: the state, ``next_pair``, an LLR point, the
    batch's counted ``pairs`` (``sprt_pairs``: each pair's seed, points and adjusted score, so
    that a run's test can be recomputed from its pairs), and the verdict if the test has one or
    the pair limit is reached; one transaction.  Nothing is stored if the run moved on meanwhile
    (a second worker, started by mistake, stored it).

    :returns: the run's verdict after the batch (``None``: still open), or ``"stale"`` when
        nothing was stored; and its reason."""
    answer = test.verdict
    verdict = answer.value if answer is not None else "undecided" if next_pair >= start.max_pairs else None
    reason = f"the pair limit ({start.max_pairs}) was reached" if verdict == "undecided" else ""
    now = time.time()
    with db.transaction() as conn:
        changed = conn.execute(
            "UPDATE sprt_runs SET state = ?, next_pair = ?, verdict = ?, reason = ?, changed_at = ?, finished_at = ?"
            " WHERE id = ? AND next_pair = ? AND verdict IS NULL",
            (json.dumps(test.to_json()), next_pair, verdict, reason, now, now if verdict else None, start.id,
             start.next_pair)).rowcount
        if not changed:
            return "stale", "another worker stored this batch"
        conn.execute("INSERT INTO sprt_points (run_id, played, pairs, llr) VALUES (?, ?, ?, ?)",
                     (start.id, next_pair, test.pairs, test.llr))
        conn.executemany("INSERT INTO sprt_pairs (run_id, pair, seed, points, adjusted, raw) VALUES (?, ?, ?, ?, ?, ?)",
                         [(start.id, pair.index, pair.seed, pair.points, pair.adjusted, pair.raw) for pair in pairs
                          if pair.points is not None])
    return verdict, reason


def end_run(db: Database, run_id: int, verdict: str, reason: str) -> None:
    """End an open run that cannot go on (``failed``), keeping its state so far."""
    now = time.time()
    with db.transaction() as conn:
        conn.execute("UPDATE sprt_runs SET verdict = ?, reason = ?, changed_at = ?, finished_at = ? WHERE id = ? AND"
                     " verdict IS NULL", (verdict, reason[:500], now, now, run_id))


def run_json(db: Database, found: Run) -> dict[str, Any]:
    """A run as its author reads it (``GET /api/submissions/ID/sprt``)."""
    state = found.test.to_json()  # "test" and "describe" say which test the run uses
    state.pop("verdict")  # the SPRT's; the run's own (with undecided, refused, failed) follows
    state["pentanomial"] = state.pop("counts")
    bots = {row.id: row for row in (db.bot(found.new_bot_id), db.bot(found.old_bot_id))}
    return {"run": found.id, "submission": found.submission_id, "old_submission": found.old_submission_id,
            "ladder": found.config["ladder"], "game": found.config["game"], "variant": found.config["variant"],
            "new": {"bot_id": found.new_bot_id, "bot": bots[found.new_bot_id].label},
            "old": {"bot_id": found.old_bot_id, "bot": bots[found.old_bot_id].label},
            **state, "score": found.test.score, "elo": _finite(found.test.elo),
            "played": found.next_pair, "max_pairs": found.max_pairs,
            "history": [{"pairs": pairs, "llr": llr} for pairs, llr in history(db, found.id)],
            "verdict": found.verdict, "reason": found.reason, "running": found.verdict is None,
            "created_at": found.created_at, "changed_at": found.changed_at, "finished_at": found.finished_at}


def _finite(value: float | None) -> float | None:
    """JSON has no infinity: an Elo estimate of +-inf (every match won or lost) is given as None."""
    return value if value is None or abs(value) != float("inf") else None


__all__ = ["BATCH", "MAX_PAIRS", "Run", "SprtSettings", "counted_pairs", "end_run", "history", "oldest_open",
           "plan_run", "previous_version", "run", "run_json", "run_of", "store_batch", "store_run"]
