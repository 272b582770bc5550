"""Each bot's running totals per tournament (schema 9): kept by the writer through every path
that changes a tournament's matches, equal to a count from scratch, and migrated from schema 8."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

from arena.league.storage import SCHEMA_VERSION, Database, ScheduledMatch
from arena.runs import ladder_store
from arena.runs.tournament import delete_tournament
from referee.result import Fault, FaultKind

from .helpers import record, tournament_db
from .test_league_stats import assert_tournament_totals_match_the_matches


def test_random_results_in_random_seatings_keep_the_totals_equal_to_a_recount(tmp_path: Path) -> None:
    """A property test over seeded random leagues: bots filling several seats, shared ranks,
    fractional scores, faults, results delivered twice, failures, then a tournament deleted."""
    for trial in range(8):
        rng = random.Random(trial)
        seatings = [[rng.randrange(4) for _ in range(rng.choice((2, 3, 4)))] for _ in range(30)]
        db, tid, bots = tournament_db(tmp_path / f"{trial}.db", 4, seatings)
        other = db.create_tournament(name="other", game="yahtzee", variant="yahtzee", settings={},
                                     format="free_for_all", table_size=2, rounds=1, duplicate=False, seed=0,
                                     time_control={}, options={}, bot_ids=bots[:2],
                                     matches=[ScheduledMatch((bots[0], bots[1]), k, 0, k, 0) for k in range(5)])
        pending = db.unfinished_matches(tid) + db.unfinished_matches(other)
        rng.shuffle(pending)
        for match in pending:
            n = match.num_players
            if rng.random() < 0.2:
                db.mark_failed(match.id, "crashed")
                continue
            ranking = [rng.randrange(n) for _ in range(n)]
            scores = [rng.choice((0.5, 1.25, 3.0, 7.75, -2.5)) for _ in range(n)]
            faults = [Fault(rng.randrange(n), FaultKind.TIMEOUT, "late") for _ in range(rng.choice((0, 0, 1, 3)))]
            result = record(match.id, ranking, scores, faults)
            batch = [(match.id, result)] * rng.choice((1, 2))
            db.store_results(batch)
        assert_tournament_totals_match_the_matches(db)
        assert db.tournament_bot_stats(tid)  # the trial played something
        delete_tournament(db, other)
        assert_tournament_totals_match_the_matches(db)
        db.close()


def test_a_ladder_dropping_its_pending_and_failed_matches_keeps_the_totals(tmp_path: Path) -> None:
    db, tid, bots = tournament_db(tmp_path / "a.db", 3, [(0, 1), (1, 2), (2, 0), (0, 2)])
    ids = [m.id for m in db.unfinished_matches(tid)]
    db.store_results([(ids[0], record(ids[0], [0, 1])), (ids[1], record(ids[1], [1, 1], [2.5, 2.5]))])
    db.mark_failed(ids[2], "worker killed")
    before = db.tournament_bot_stats(tid)
    assert ladder_store.drop_pending(db, tid, failed=True) == 2
    assert db.tournament_bot_stats(tid) == before
    assert_tournament_totals_match_the_matches(db)
    db.close()


def test_a_schema_8_file_is_read_the_old_way_and_migrated_to_the_same_standings(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    db, tid, _ = tournament_db(path, 3, [(0, 1), (1, 2), (2, 0), (1, 1)])
    for k, m in enumerate(db.unfinished_matches(tid)):
        db.store_result(m.id, record(m.id, [k % 2, 1 - k % 2], [1.5 * k, 4.0]))
    expected = db.tournament_bot_stats(tid)
    assert len(expected) == 3
    db.close()
    conn = sqlite3.connect(path)  # what schema 8 wrote: no per-tournament totals
    conn.execute("DROP TABLE tournament_bot_stats")
    conn.execute("UPDATE schema_version SET version = 8")
    conn.commit()
    conn.close()
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 8 and not reader.has_tournament_totals
        assert reader.tournament_bot_stats(tid) == expected
    with Database(path) as writer:
        assert writer.schema_version() == SCHEMA_VERSION and writer.has_tournament_totals
        assert writer.conn.execute("SELECT COUNT(*) FROM tournament_bot_stats").fetchone()[0] == 3
        assert writer.tournament_bot_stats(tid) == expected
        assert_tournament_totals_match_the_matches(writer)
