"""League files written by earlier arenas: each opens, migrates to exactly the schema a fresh
file gets, and keeps every row (issue 34: the league's store creates and migrates every table
in one place, the accounts, submission and SPRT tables included).

``data/schema11.sql`` is a schema-11 league as arena wrote it at commit a241f8d, before the
layering change moved those three tables' definitions into :mod:`arena.league.storage`: a
played Yahtzee tournament, a ladder with a paused status, two users and a web session, two
submitted versions of one bot made active by the worker, a rating prior for the newer one,
and its SPRT run with one stored batch (an SQL dump, as ``data/schema3.sql``).

``data/schema12_sprt.sql`` is the same league opened by arena at commit 0dcdc72 (schema 12,
before the normalised SPRT) whose SPRT run that arena's :func:`store_batch` played on to its
verdict, "stronger", with the logistic test of the time.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from arena.league.storage import SCHEMA_VERSION, Database
from arena.runs.ladder_store import entrants, ladders, status
from arena.submission import accounts
from arena.submission.sprt import SPRT
from arena.submission.sprt_runs import counted_pairs, history, run_json, run_of
from arena.submission.submissions import submissions

DATA = Path(__file__).parent / "data"


def load(dump: str, path: Path) -> Path:
    """An SQL dump of ``data/`` as a league file at ``path``."""
    conn = sqlite3.connect(path)
    conn.executescript((DATA / dump).read_text(encoding="utf-8"))
    conn.close()
    return path


def schema(path: Path) -> set[tuple[str, str, str, str | None]]:
    """Every table, index and their SQL, as SQLite keeps them (the order of creation aside)."""
    conn = sqlite3.connect(path)
    try:
        return set(conn.execute("SELECT type, name, tbl_name, sql FROM sqlite_master"))
    finally:
        conn.close()


def columns(path: Path) -> dict[str, list[str]]:
    """Each table's columns."""
    conn = sqlite3.connect(path)
    try:
        tables = [name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {table: [row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')] for table in tables}
    finally:
        conn.close()


def rows(path: Path, tables: dict[str, list[str]]) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of each table, those columns only, sorted (a table without row ids comes in
    its key's order, another in its row ids')."""
    conn = sqlite3.connect(path)
    try:
        return {table: sorted(conn.execute(f'SELECT {", ".join(names)} FROM "{table}"'), key=repr)
                for table, names in tables.items()}
    finally:
        conn.close()


def fresh(tmp_path: Path) -> Path:
    path = tmp_path / "fresh.db"
    Database(path).close()
    return path


def test_a_schema_11_league_opens_with_every_row_unchanged_and_the_schema_of_a_fresh_file(tmp_path: Path) -> None:
    path = load("schema11.sql", tmp_path / "league.db")
    tables = {table: names for table, names in columns(path).items() if table != "schema_version"}
    assert {"users", "web_sessions", "bot_names", "submissions", "sprt_runs", "sprt_points"} <= tables.keys()
    before = rows(path, tables)
    assert all(before.values())  # a row in every table
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and db.integrity_problems() == []
        assert [u.name for u in accounts.users(db)] == ["ann", "root"]
        assert [(s.id, s.state) for s in submissions(db)] == [(2, "active"), (1, "active")]
        run = run_of(db, 2)
        assert run is not None and run.old_submission_id == 1 and run.verdict is None and run.next_pair == 2
        assert len(history(db, run.id)) == 1
        ladder = ladders(db)[0]
        assert len(entrants(db, ladder.id)) == 4 and (found := status(db, ladder.id)) is not None
        assert found.note == "stopped"
    assert rows(path, tables) == before
    assert schema(path) == schema(fresh(tmp_path))


@pytest.mark.parametrize("dump", ["schema2.sql", "schema3.sql"])
def test_an_older_league_migrates_to_exactly_the_schema_of_a_fresh_file(tmp_path: Path, dump: str) -> None:
    path = load(dump, tmp_path / "league.db")
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
    assert schema(path) == schema(fresh(tmp_path))


def test_an_sprt_run_stored_before_the_normalised_test_keeps_its_test_and_verdict(tmp_path: Path) -> None:
    path = load("schema12_sprt.sql", tmp_path / "league.db")
    conn = sqlite3.connect(path)
    stored = conn.execute("SELECT state, verdict FROM sprt_runs WHERE submission_id = 2").fetchone()
    conn.close()
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and db.integrity_problems() == []
        run = run_of(db, 2)
        assert run is not None and run.verdict == stored[1] == "stronger"
        assert isinstance(run.test, SPRT) and run.test.name == "logistic"  # read with the test it was played with
        assert run.test.llr == json.loads(stored[0])["llr"] and run.test.verdict is not None
        assert run.test.verdict.value == "stronger" and run.test.counts == [0, 0, 3, 2, 14]
        shown = run_json(db, run)
        assert (shown["test"], shown["elo_unit"], shown["verdict"]) == ("logistic", "logistic", "stronger")
        assert counted_pairs(db, run.id) == []  # its pairs were never stored; the state holds the test
        assert [pairs for pairs, _ in history(db, run.id)] == [2, 19]
    assert schema(path) == schema(fresh(tmp_path))


def test_two_processes_opening_an_older_league_at_once_migrate_it_once(tmp_path: Path) -> None:
    """Two openers (threads here, each with its own connection, as two processes) both read the
    old version before either may write; the one that gets the lock second
    finds the file migrated and leaves it (it used to run the old steps again and fail)."""
    import threading
    import time

    path = tmp_path / "league.db"
    Database(path).close()
    lock = sqlite3.connect(path, isolation_level=None)
    lock.execute("PRAGMA journal_mode=DELETE")  # as an older arena left it: the first opener switches to WAL
    for column in ("matches", "last_match_at"):  # back to schema 6: the columns schema 7 adds, added by ALTER
        lock.execute(f"ALTER TABLE ladder_entrants DROP COLUMN {column}")
    lock.execute("UPDATE schema_version SET version = 6")
    lock.execute("BEGIN IMMEDIATE")  # a writer at work: readers go on, both openers wait to write
    errors: list[BaseException] = []

    def open_it() -> None:
        try:
            Database(path).close()
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    openers = [threading.Thread(target=open_it) for _ in range(2)]
    for opener in openers:
        opener.start()
    time.sleep(1.0)  # both have read schema 6 and wait for the write lock
    lock.execute("ROLLBACK")
    lock.close()
    for opener in openers:
        opener.join(60)
    assert errors == []
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and db.integrity_problems() == []
    expected = columns(fresh(tmp_path))  # in another order: the columns were dropped and added again
    assert {table: set(names) for table, names in columns(path).items()} == {t: set(n) for t, n in expected.items()}
