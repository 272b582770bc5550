"""Batched commits keep "reported stored means durable", even under kill -9 mid-batch."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from arena.league.storage import Database

from .helpers import ROOT, tournament_db
from .test_league_stats import assert_totals_match_the_matches

WRITER = r"""
import sys
from arena.league.storage import Database
from referee.result import MatchRecord, Move, MoveStatus

db = Database(sys.argv[1])
ids = [m.id for m in db.unfinished_matches(1)]
def result(match_id):
    ranking = [match_id % 2, 1 - match_id % 2]
    moves = [Move(k % 2, k % 5, f"keep {k}", MoveStatus.OK, 1.5) for k in range(60)]
    return match_id, MatchRecord(
        match_id=str(match_id), game="yahtzee", variant="yahtzee", num_players=2, settings={}, seed=match_id,
        players=["a@1", "b@1"], moves=moves, faults=[], forfeited=[], scores=[float(100 + match_id), 90.0],
        ranking=ranking, engine_ranking=ranking, termination="normal", reason="test", duration_s=0.1)
for start in range(0, len(ids), 40):
    batch = [result(i) for i in ids[start:start + 40]]
    outcomes = db.store_results(batch)
    assert all(outcome is True for outcome in outcomes), outcomes
    print("stored", " ".join(str(i) for i, _ in batch), flush=True)  # reported only after the commit
print("finished", flush=True)
"""


def test_kill_9_of_the_writer_mid_batch_loses_nothing_reported_stored(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    db, tid, _ = tournament_db(path, 2, [(0, 1)] * 4000)
    assert tid == 1
    db.close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True)
    assert writer.stdout is not None
    reported: list[int] = []
    while len(reported) < 5 * 40:  # a few committed batches, then kill it in the middle of the next ones
        line = writer.stdout.readline()
        assert line.startswith("stored "), line
        reported += [int(i) for i in line.split()[1:]]
    time.sleep(0.05)
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait()
    assert writer.returncode == -signal.SIGKILL
    reported += [int(i) for line in writer.stdout.read().splitlines() if line.startswith("stored ")
                 for i in line.split()[1:]]
    with Database(path) as db:
        assert db.integrity_problems() == []
        done = db.matches(status="done")
        assert {m.id for m in done} >= set(reported)  # every reported result survived
        assert len(done) % 40 == 0 and len(done) < 4000  # whole batches only, and it was killed before the end
        for match in done:  # each stored match is complete: row, seats and record
            assert match.ranking == (match.id % 2, 1 - match.id % 2) and match.scores == (100.0 + match.id, 90.0)
            assert match.faults == (0, 0)
            stored = db.match_record(match.id)
            assert stored is not None and len(stored.moves) == 60
        assert db.match_counts(1) == {"pending": 4000 - len(done), "done": len(done), "failed": 0}
        assert_totals_match_the_matches(db)


def test_a_batch_stores_each_result_once_and_refuses_only_the_bad_ones(tmp_path: Path) -> None:
    from .helpers import record

    db, tid, _ = tournament_db(tmp_path / "a.db", 2, [(0, 1)] * 3)
    a, b, c = (m.id for m in db.unfinished_matches(tid))
    outcomes = db.store_results([(a, record(a, [0, 1])), (b, record(b, [0])), (a, record(a, [1, 0])),
                                 (999, record(999, [0, 1])), (c, record(c, [1, 0]))])
    assert outcomes[0] is True and outcomes[2] is False and outcomes[4] is True
    assert "2 seats but the record 1 players" in str(outcomes[1]) and "no match 999" in str(outcomes[3])
    assert db.match(a).ranking == (0, 1) and db.match(b).status == "pending" and db.match(c).ranking == (1, 0)
    assert db.match_record(a).ranking == [0, 1]
    assert db.store_results([]) == []
    db.close()
