"""The database: schema and version checks, bots, exactly-once results."""

from __future__ import annotations

import sqlite3

import pytest

from arena.league.storage import SCHEMA_VERSION, BotConflictError, Database, NotFoundError, SchemaTooNewError, StorageError
from referee.result import Fault, FaultKind

from .helpers import record, tournament_db


def make_db(path, n_bots=2, n_matches=2):
    return tournament_db(path, n_bots, [list(range(n_bots))] * n_matches)


class TestSchema:
    def test_new_file_is_wal_with_the_current_version(self, tmp_path):
        db = Database(tmp_path / "a.db")
        assert db.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.conn.execute("SELECT version FROM schema_version").fetchone()[0] == SCHEMA_VERSION
        db.close()
        Database(tmp_path / "a.db").close()  # reopens fine

    def test_newer_schema_is_a_clear_error(self, tmp_path):
        Database(tmp_path / "a.db").close()
        conn = sqlite3.connect(tmp_path / "a.db")
        conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))
        conn.commit()
        conn.close()
        with pytest.raises(SchemaTooNewError, match=f"schema {SCHEMA_VERSION + 1}, newer"):
            Database(tmp_path / "a.db")

    def test_not_a_database(self, tmp_path):
        (tmp_path / "junk.db").write_text("hello " * 100)
        with pytest.raises(StorageError, match="not a usable arena database"):
            Database(tmp_path / "junk.db")

    def test_another_sqlite_file(self, tmp_path):
        conn = sqlite3.connect(tmp_path / "other.db")
        conn.execute("CREATE TABLE x (y)")
        conn.commit()
        conn.close()
        with pytest.raises(StorageError, match="not an arena database"):
            Database(tmp_path / "other.db")

    def test_missing_file_when_not_creating(self, tmp_path):
        with pytest.raises(StorageError, match="no arena database"):
            Database(tmp_path / "none.db", create=False)

    def test_another_sqlite_file_is_left_untouched(self, tmp_path):
        path = tmp_path / "other.sqlite"
        conn = sqlite3.connect(path)
        conn.execute("CREATE TABLE x (y)")
        conn.commit()
        conn.close()
        before = path.read_bytes()
        assert before[18:20] == b"\x01\x01"  # rollback journal, as its program left it
        for readonly in (True, False):
            with pytest.raises(StorageError, match="not an arena database"):
                Database(path, readonly=readonly)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite"]

    @pytest.mark.parametrize("create", [False, True])
    def test_read_only_never_creates_or_converts(self, tmp_path, create):
        empty = tmp_path / "empty.db"
        empty.touch()
        for path in (empty, tmp_path / "missing.db"):
            with pytest.raises(StorageError, match=f"no arena database at {path}"):
                Database(path, readonly=True, create=create)
        assert empty.read_bytes() == b"" and not (tmp_path / "missing.db").exists()

    def test_read_only_reads_and_cannot_write(self, tmp_path):
        make_db(tmp_path / "a.db")[0].close()
        with Database(tmp_path / "a.db", readonly=True) as db:
            assert len(db.matches()) == 2
            with pytest.raises(sqlite3.OperationalError, match="readonly"):
                db.register_bot(name="x", version="1", files_hash="h")

    def test_folder_missing_is_a_clear_error(self, tmp_path):
        with pytest.raises(StorageError, match="does not exist"):
            Database(tmp_path / "no" / "a.db")
        assert not (tmp_path / "no").exists()


class TestMaintenance:
    def test_backup_is_a_complete_arena_database(self, tmp_path):
        db, _, _ = make_db(tmp_path / "a.db")
        db.store_result(db.matches()[0].id, record(1, [0, 1]))
        db.backup(tmp_path / "copy.db")
        db.close()
        with Database(tmp_path / "copy.db", readonly=True) as copy:
            assert [m.status for m in copy.matches()] == ["done", "pending"]
            assert copy.integrity_problems() == [] and copy.schema_version() == SCHEMA_VERSION
        assert not (tmp_path / "copy.db.partial").exists()

    def test_integrity_check_finds_damage(self, tmp_path):
        db, _, _ = make_db(tmp_path / "a.db", n_matches=300)
        db.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        db.close()
        with open(tmp_path / "a.db", "r+b") as f:
            f.seek(8192)
            f.write(b"\xff" * 1000)
        try:
            with Database(tmp_path / "a.db", readonly=True) as damaged:
                problems = damaged.integrity_problems()
        except StorageError as error:  # damage this early can already fail the schema check
            problems = [str(error)]
        assert problems


class TestBots:
    def test_same_bot_registers_once_and_a_new_version_is_a_new_entrant(self, tmp_path):
        db = Database(tmp_path / "a.db")
        first = db.register_bot(name="x", version="1", files_hash="h")
        assert db.register_bot(name="x", version="1", files_hash="h") == first
        second = db.register_bot(name="x", version="2", files_hash="h2")
        assert second.id != first.id and [b.label for b in db.bots()] == ["x@1", "x@2"]

    def test_changed_files_under_the_same_version_are_refused(self, tmp_path):
        db = Database(tmp_path / "a.db")
        db.register_bot(name="x", version="1", files_hash="h", manifest="/bots/x/bot.toml")
        with pytest.raises(BotConflictError, match="new version"):
            db.register_bot(name="x", version="1", files_hash="other", manifest="/bots/x/bot.toml")


class TestMatches:
    def test_schedule_is_stored_pending_with_seats(self, tmp_path):
        db, tid, bots = make_db(tmp_path / "a.db", n_matches=3)
        assert db.match_counts(tid) == {"pending": 3, "done": 0, "failed": 0}
        pending = db.unfinished_matches(tid)
        assert [m.seed for m in pending] == [0, 1, 2] and pending[0].bot_ids == tuple(bots)

    def test_a_result_is_stored_exactly_once(self, tmp_path):
        db, tid, _ = make_db(tmp_path / "a.db")
        match_id = db.unfinished_matches(tid)[0].id
        rec = record(match_id, [1, 0], faults=[Fault(0, FaultKind.TIMEOUT, "slow", 0)])
        assert db.store_result(match_id, rec) is True
        assert db.store_result(match_id, record(match_id, [0, 1])) is False
        stored = db.match(match_id)
        assert stored.status == "done" and stored.ranking == (1, 0) and stored.faults == (1, 0)
        assert db.match_record(match_id) == rec
        assert db.match_counts(tid) == {"pending": 1, "done": 1, "failed": 0}

    def test_a_failed_match_stays_to_be_played(self, tmp_path):
        db, tid, _ = make_db(tmp_path / "a.db")
        match_id = db.unfinished_matches(tid)[0].id
        db.mark_failed(match_id, "engine exploded")
        assert db.match(match_id).status == "failed"
        assert match_id in [m.id for m in db.unfinished_matches(tid)]
        assert db.store_result(match_id, record(match_id, [0, 1])) is True

    def test_a_record_that_does_not_fit_is_refused(self, tmp_path):
        db, tid, _ = make_db(tmp_path / "a.db")
        match_id = db.unfinished_matches(tid)[0].id
        with pytest.raises(StorageError, match="no complete ranking"):
            db.store_result(match_id, record(match_id, []))
        with pytest.raises(StorageError, match="2 seats but the record 3 players"):
            db.store_result(match_id, record(match_id, [0, 1, 2]))
        assert db.match(match_id).status == "pending"

    def test_unknown_ids(self, tmp_path):
        db, _, _ = make_db(tmp_path / "a.db")
        with pytest.raises(NotFoundError, match="no match 99"):
            db.match(99)
        with pytest.raises(NotFoundError, match="no tournament 7"):
            db.tournament(7)
