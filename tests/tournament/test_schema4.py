"""Schema 4 (issue 29, bytes per match): records that leave seats, action texts and the row's
result out, a preset zlib dictionary, seats and rating history without row ids; schema-3
files migrated with everything they show unchanged."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.league.storage import (_RECORD_MAGIC, _ZDICT_AR4, SCHEMA_VERSION, Database, ScheduledMatch, StorageError,
                           encode_record)
from referee.games import game_names, make_game
from referee.replay import replay
from referee.result import MatchRecord, Move, MoveStatus

from .data.schema3_pages import league_view

DATA = Path(__file__).parent / "data"
ROOT = Path(__file__).resolve().parents[2]


def load_schema_3(path: Path) -> None:
    """The schema-3 league of tests/tournament/data, written by arena before schema 4 (an SQL dump)."""
    conn = sqlite3.connect(path)
    conn.executescript((DATA / "schema3.sql").read_text())
    conn.close()


def stored_json(blob: bytes) -> dict[str, Any]:
    """What a schema-4 record holds, uncompressed."""
    assert blob.startswith(_RECORD_MAGIC)
    inflate = zlib.decompressobj(zdict=_ZDICT_AR4)
    return json.loads(inflate.decompress(blob[len(_RECORD_MAGIC):]) + inflate.flush())


def without_pages(view: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """The view but the web app's answers, and those answers: pages and JSON change with the
    app (a navigation link, a new field, a seed held back while its deal may still be played),
    so they are compared before and after the migration with the same code, and the rest
    (records, replays, ratings, histories) with what arena wrote."""
    return {**view, "pages": {}}, dict(view["pages"])


def test_a_schema_3_league_migrates_with_every_record_replay_page_and_rating_intact(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    load_schema_3(path)
    expected, _ = without_pages(json.loads((DATA / "schema3_expected.json").read_text()))
    assert len(expected["records"]) == 20 and len(expected["replays"]) == 19
    unmigrated, pages = without_pages(league_view(path))
    assert unmigrated == expected  # read-only, not migrated: as arena wrote it
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 3
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and db.integrity_problems() == []
        tables = dict(db.conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'table'").fetchall())
        assert "WITHOUT ROWID" in tables["match_seats"] and "WITHOUT ROWID" in tables["rating_history"]
        assert not {"old_match_seats", "old_rating_history"} & tables.keys()
        blobs = {row[0]: (row[1], row[2]) for row in db.conn.execute("SELECT id, status, record FROM matches"
                                                                     " WHERE record IS NOT NULL")}
        assert {blob[:3] for _, blob in blobs.values()} == {_RECORD_MAGIC}
        kept_texts = [match_id for match_id, (_, blob) in blobs.items()
                      if "action" in stored_json(blob)["moves_by_column"]]
        assert kept_texts == [18]  # the handmade record, whose texts are not the engine's
        assert all(("scores" in stored_json(blob)) == (status != "done") for status, blob in blobs.values())
        before = db.conn.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0]
        assert before == 2 * 10 + 4 * 4 + 3 * 3  # two-seat, four-seat and three-seat matches, rated
    assert without_pages(league_view(path)) == (expected, pages)  # migrated: the same records, replays, pages, ratings
    with Database(path) as again:  # opening it again changes nothing
        assert again.schema_version() == SCHEMA_VERSION
        assert again.conn.execute("SELECT COUNT(*) FROM rating_history").fetchone()[0] == before


def test_a_migration_that_fails_leaves_the_schema_3_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    load_schema_3(path)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE old_rating_history (x)")  # the migration's rename of rating_history now fails
    conn.commit()
    conn.close()
    with pytest.raises(StorageError, match="not a usable arena database"):
        Database(path)
    with Database(path, readonly=True) as reader:
        assert reader.schema_version() == 3
        assert {row[0][:3] for row in reader.conn.execute("SELECT record FROM matches WHERE record IS NOT NULL")} \
            == {b"AR2"}
        assert "WITHOUT ROWID" not in reader.conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'match_seats'").fetchone()[0]


def played(game: str, seed: int, rng: random.Random) -> MatchRecord:
    """A match of random moves as the referee records it (times to the microsecond, rare
    comments, an invalid answer replaced by the fallback), finished or cut short."""
    engine = make_game(game)
    state = engine.new_initial_state(seed)
    moves = []
    cut = rng.choice([None, rng.randrange(1, 40)])
    while not state.is_terminal() and len(moves) < 4000 and len(moves) != cut:
        legal = state.legal_actions()
        index = rng.randrange(len(legal))
        status = MoveStatus.INVALID if rng.random() < 0.01 else MoveStatus.OK
        moves.append(Move(state.current_player(), index, str(legal[index]), status,
                          round(rng.uniform(0, 5000), 3), "<i>hm</i>" if rng.random() < 0.02 else ""))
        state.apply(legal[index])
    n = engine.num_players
    outcome = state.outcome() if state.is_terminal() else None
    return MatchRecord(match_id="1", game=game, variant=engine.variant, num_players=n, settings=dict(engine.settings),
                       seed=seed, players=[f"p{i}@1" for i in range(n)], moves=moves,
                       scores=list(outcome.scores) if outcome else [0.0] * n,
                       ranking=list(outcome.ranking) if outcome else list(range(n)),
                       engine_ranking=list(outcome.ranking) if outcome else list(range(n)),
                       termination=outcome.termination.value if outcome else "aborted", reason="r",
                       duration_s=1.25, bank_used=[0.0] * n,
                       time_control={"move_timeout": 1.0, "time_bank": 10.0, "max_faults": 3, "startup_timeout": 10.0})


def states(record: MatchRecord) -> tuple[list[str], list[str]]:
    """Every state the replay passes through (each seat's view) and its findings."""
    seen: list[str] = []
    report = replay(record, lambda n, state: seen.append(repr([state.observe(s) for s in range(record.num_players)])))
    return seen, report.problems


@pytest.mark.parametrize("game", game_names())
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31 - 1))
def test_a_stored_record_comes_back_equal_and_replays_to_the_same_states(tmp_path: Path, game: str, seed: int) -> None:
    rng = random.Random(seed)
    record = played(game, seed, rng)
    path = tmp_path / f"{game}-{seed}.db"
    path.unlink(missing_ok=True)
    with Database(path) as db:
        bots = [db.register_bot(name=f"b{i}", version="1", files_hash=f"h{i}").id for i in range(record.num_players)]
        tid = db.create_tournament(name="t", game=game, variant=record.variant, settings=record.settings,
                                   format="free_for_all", table_size=record.num_players, rounds=1, duplicate=False,
                                   seed=0, time_control={}, options={}, bot_ids=bots,
                                   matches=[ScheduledMatch(tuple(bots), seed=seed, round=0, deal=0, rotation=0)] * 2)
        done, failed = (m.id for m in db.unfinished_matches(tid))
        assert db.store_result(done, record) is True
        db.mark_failed(failed, "worker died", record)
        for match_id in (done, failed):
            loaded = db.match_record(match_id)
            assert loaded == record and loaded.dumps() == record.dumps()
            assert states(loaded) == states(record)
            columns = stored_json(db.conn.execute("SELECT record FROM matches WHERE id = ?",
                                                  (match_id,)).fetchone()[0])["moves_by_column"]
            assert "engine_crc" in columns and "action" not in columns and "seat" not in columns


def test_a_record_the_engine_no_longer_plays_is_one_clear_error(tmp_path: Path) -> None:
    """What an engine changed since a match was stored looks like: the indices now give other
    actions, so the texts left to the engine cannot come back (the checksum says so)."""
    path = tmp_path / "a.db"
    record = played("yahtzee", 3, random.Random(3))
    with Database(path) as db:
        bots = [db.register_bot(name=f"b{i}", version="1", files_hash=f"h{i}").id for i in range(2)]
        tid = db.create_tournament(name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all",
                                   table_size=2, rounds=1, duplicate=False, seed=0, time_control={}, options={},
                                   bot_ids=bots, matches=[ScheduledMatch(tuple(bots), seed=3, round=0, deal=0,
                                                                         rotation=0)])
        (match,) = db.unfinished_matches(tid)
        db.store_result(match.id, record)
        data = stored_json(db.conn.execute("SELECT record FROM matches").fetchone()[0])
        data["seed"] = 4  # the same indices from another deal: what a changed engine would play
        deflate = zlib.compressobj(9, zdict=_ZDICT_AR4)
        blob = _RECORD_MAGIC + deflate.compress(json.dumps(data).encode()) + deflate.flush()
        db.conn.execute("UPDATE matches SET record = ?", (blob,))
        with pytest.raises(StorageError, match="not what this arena's engine plays"):
            db.match_record(match.id)
    shown = subprocess.run([sys.executable, "-m", "arena.cli", "show", str(match.id), "--db", str(path)],
                           capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert shown.returncode == 1 and "Traceback" not in shown.stderr
    assert shown.stderr.strip().startswith("Error:") and len(shown.stderr.strip().splitlines()) == 1


def test_the_engine_texts_are_left_out_only_when_the_engine_gives_them_back() -> None:
    record = played("yahtzee", 5, random.Random(5))
    exact = encode_record(record)
    record.moves[-1] = Move(record.moves[-1].seat, record.moves[-1].index, "not the engine's text")
    kept = encode_record(record)
    assert "engine_crc" in stored_json(exact)["moves_by_column"]
    assert stored_json(kept)["moves_by_column"]["action"][-1] == "not the engine's text"


def test_a_tournament_stores_what_its_workers_encoded_and_it_replays(tmp_path: Path) -> None:
    """The executors encode each record on the worker (the writer only stores it)."""
    path = tmp_path / "t.db"
    bots = ROOT / "sample_bots" / "python"
    run = subprocess.run([sys.executable, "-m", "arena.cli", "tournament", "run", "--game", "yahtzee", "--bot",
                          str(bots / "random_bot"), "--bot", str(bots / "yahtzee_heuristic"), "--rounds", "1",
                          "--workers", "1", "--sandbox", "none", "--quiet", "--db", str(path)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr
    with Database(path, readonly=True) as db:
        matches = db.matches(status="done")
        assert len(matches) == 2
        for match in matches:
            record = db.match_record(match.id)
            assert replay(record).ok and list(match.scores) == record.scores and record.moves
            data = stored_json(db.conn.execute("SELECT record FROM matches WHERE id = ?", (match.id,)).fetchone()[0])
            assert "engine_crc" in data["moves_by_column"] and "scores" not in data
