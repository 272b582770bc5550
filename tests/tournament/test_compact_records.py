"""Compact match records (issue 15): the same content as the JSON record, a fraction of the
bytes, and schema-1 databases migrated without loss."""

from __future__ import annotations

import json
import random
import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.league.storage import SCHEMA_VERSION, Database, StorageError, decode_record, encode_record
from referee.games import make_game
from referee.result import Fault, FaultKind, MatchRecord, Move, MoveStatus

from .helpers import tournament_db


def random_record(game: str, seed: int) -> MatchRecord:
    """A finished match of random moves, with the times and rare faults and comments of real play."""
    state = make_game(game).new_initial_state(seed)
    rng = random.Random(seed)
    moves = []
    while not state.is_terminal():
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        status = MoveStatus.TIMEOUT if rng.random() < 0.001 else MoveStatus.OK
        moves.append(Move(state.current_player(), index, str(legal[index]), status, round(rng.uniform(0.1, 4), 3),
                          "thinking <b>hard</b>" if rng.random() < 0.01 else ""))
        state.apply(legal[index])
    outcome = state.outcome()
    n = len(outcome.scores)
    return MatchRecord(match_id="7", game=game, variant=state.game.variant, num_players=n,
                       settings=dict(state.game.settings), seed=seed, players=[f"bot{i}@1" for i in range(n)],
                       moves=moves, faults=[Fault(0, FaultKind.TIMEOUT, "no answer within 1.000 s", 3)],
                       scores=list(outcome.scores), ranking=list(outcome.ranking),
                       engine_ranking=list(outcome.ranking), termination="normal", reason="done", duration_s=1.5)


@pytest.mark.parametrize("game", ["yahtzee", "gin_rummy"])
def test_round_trip_and_size(game):
    record = random_record(game, 5)
    compact = encode_record(record)
    assert decode_record(compact) == record
    text = json.dumps(record.to_json(), sort_keys=True)
    assert decode_record(text) == record  # schema-1 text still reads
    ratio = len(text.encode()) / len(compact)
    print(f"{game}: {len(record.moves)} moves, {len(text.encode())} bytes as JSON, {len(compact)} compact, x{ratio:.1f}")
    assert ratio > 5


@settings(max_examples=50, deadline=None)
@given(elapsed=st.lists(st.floats(0, 100_000, allow_nan=False).map(lambda x: round(x, 3)), min_size=1, max_size=20),
       comment=st.text(max_size=30))
def test_times_and_comments_survive_exactly(elapsed, comment):
    record = random_record("yahtzee", 1)
    record.moves = [Move(0, 0, "score chance 5", MoveStatus.INVALID, ms, comment) for ms in elapsed]
    assert decode_record(encode_record(record)).moves == record.moves


def test_damaged_compact_record_is_a_storage_error(tmp_path):
    db, tid, _ = tournament_db(tmp_path / "a.db", 2, [[0, 1]])
    (match,) = db.unfinished_matches(tid)
    db.store_result(match.id, random_record("yahtzee", 2))
    blob = db.conn.execute("SELECT record FROM matches WHERE id = ?", (match.id,)).fetchone()[0]
    db.conn.execute("UPDATE matches SET record = ? WHERE id = ?", (blob[:40] + b"\x00" * 10 + blob[50:], match.id))
    with pytest.raises(StorageError, match="damaged record"):
        db.match_record(match.id)


def test_a_schema_1_database_is_migrated_and_read_only_commands_read_it(tmp_path):
    path = tmp_path / "old.db"
    db, tid, _ = tournament_db(path, 2, [[0, 1], [1, 0]])
    records = []
    for match in db.unfinished_matches(tid):
        record = random_record("yahtzee", match.id)
        db.store_result(match.id, record)
        records.append(record)
    db.close()
    # Turn it into what arena wrote before: JSON text records, schema 1.
    conn = sqlite3.connect(path)
    for match_id, record in zip((1, 2), records):
        conn.execute("UPDATE matches SET record = ? WHERE id = ?", (json.dumps(record.to_json(), sort_keys=True),
                                                                   match_id))
    conn.execute("UPDATE schema_version SET version = 1")
    conn.commit()
    conn.close()
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 1 and reader.match_record(1) == records[0]
    with Database(path) as writer:
        assert writer.schema_version() == SCHEMA_VERSION
        kinds = {row[0] for row in writer.conn.execute("SELECT typeof(record) FROM matches")}
        assert kinds == {"blob"}
        assert [writer.match_record(i) for i in (1, 2)] == records
