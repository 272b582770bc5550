"""Accounts: only a token's hash is stored, rotation and disabling take effect at once, names
are checked; schema 6 on fresh and migrated files; the ``arena user`` commands."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import SCHEMA_VERSION, Database
from arena.submission import accounts


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    with Database(tmp_path / "league.db") as opened:
        yield opened


def file_bytes(path: Path) -> bytes:
    """The database file and its WAL, as they lie on disk."""
    return b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))


def secret_of(token: str) -> str:
    """The random part of ``arena_<12 hex digits>_<secret>``."""
    return token[len("arena_") + 13:]


def test_only_the_hash_of_a_token_is_stored(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    with Database(path) as db:
        user, token = accounts.add_user(db, "alice")
        _, rotated = accounts.rotate_token(db, "alice")
        session_id, _ = accounts.start_session(db, accounts.authenticate(db, rotated))  # type: ignore[arg-type]
        stored = file_bytes(path)
    assert token.startswith(f"arena_{user.token_id}_") and len(token) == len("arena_") + 12 + 1 + 43
    for secret in (token, rotated, session_id, secret_of(token)[:20], secret_of(rotated)[:20]):
        assert secret.encode() not in stored
    with Database(path) as db:
        (row,) = db.conn.execute("SELECT token_hash FROM users").fetchall()
        assert row[0] == hashlib.sha256(rotated.encode()).hexdigest()
        (row,) = db.conn.execute("SELECT id_hash FROM web_sessions").fetchall()
        assert row[0] == hashlib.sha256(session_id.encode()).hexdigest()


def test_a_token_authenticates_its_user_and_nothing_else(db: Database) -> None:
    alice, token = accounts.add_user(db, "Alice", admin=True)
    bob, _ = accounts.add_user(db, "bob")
    assert accounts.authenticate(db, token) == alice and alice.admin and not bob.admin
    secret = secret_of(token)
    other_secret = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    for wrong in ("", "arena_", token + "x", token[:-1], token.replace("arena_", "arenb_"),
                  f"arena_{alice.token_id}_{other_secret}", f"arena_{bob.token_id}_{secret}", token.upper(),
                  f" {token}"):
        assert accounts.authenticate(db, wrong) is None, wrong


def test_rotation_replaces_the_token_and_ends_the_sessions_at_once(db: Database) -> None:
    alice, old = accounts.add_user(db, "alice")
    session_id, _ = accounts.start_session(db, alice)
    assert accounts.session(db, session_id) is not None
    rotated, new = accounts.rotate_token(db, "ALICE")
    assert rotated.token_id != alice.token_id and new != old
    assert accounts.authenticate(db, old) is None
    assert accounts.authenticate(db, new) == rotated
    assert accounts.session(db, session_id) is None


def test_a_disabled_user_cannot_authenticate_and_their_sessions_end(db: Database) -> None:
    alice, token = accounts.add_user(db, "alice")
    session_id, _ = accounts.start_session(db, alice)
    assert accounts.disable_user(db, "alice").disabled
    assert accounts.authenticate(db, token) is None
    assert accounts.session(db, session_id) is None
    _, new = accounts.rotate_token(db, "alice")  # a new token does not enable the user again
    assert accounts.authenticate(db, new) is None


def test_sessions_expire_end_on_sign_out_and_expired_ones_are_deleted(db: Database) -> None:
    alice, _ = accounts.add_user(db, "alice")
    expired, _ = accounts.start_session(db, alice, seconds=-1)
    assert accounts.session(db, expired) is None
    live, session = accounts.start_session(db, alice)
    assert accounts.session(db, live) == session and session.user == alice
    assert db.conn.execute("SELECT COUNT(*) FROM web_sessions").fetchone()[0] == 1  # the expired one went
    accounts.end_session(db, live)
    assert accounts.session(db, live) is None
    assert accounts.session(db, "not a session") is None


@pytest.mark.parametrize("name", ["al", "alice", "Alice.B", "a-b_c.9", "9lives", "x" * 32])
def test_valid_names(db: Database, name: str) -> None:
    user, _ = accounts.add_user(db, name)
    assert accounts.user(db, name.swapcase()) == user


@pytest.mark.parametrize("name", ["", "a", "x" * 33, "-alice", ".alice", "_a", "al ice", "<script>", "alice\n",
                                  "al\x1bice", "ålice", "alice@home", "a/b", "a'b"])
def test_invalid_names_are_refused(db: Database, name: str) -> None:
    with pytest.raises(accounts.AccountError, match="2 to 32 characters"):
        accounts.add_user(db, name)
    assert accounts.users(db) == []


def test_names_are_unique_whatever_their_case(db: Database) -> None:
    accounts.add_user(db, "Alice")
    with pytest.raises(accounts.NameTakenError, match="taken"):
        accounts.add_user(db, "aLICE")
    with pytest.raises(accounts.NoSuchUserError):
        accounts.disable_user(db, "bob")
    assert [u.name for u in accounts.users(db)] == ["Alice"]


def schema_3_file(path: Path) -> None:
    """A league file as schema 3 left it: today's schema without the accounts tables."""
    Database(path).close()
    conn = sqlite3.connect(path)
    conn.executescript("DROP TABLE web_sessions; DROP TABLE users; UPDATE schema_version SET version = 3;")
    conn.close()


def test_a_fresh_file_has_the_accounts_tables(tmp_path: Path) -> None:
    with Database(tmp_path / "new.db") as db:
        assert db.schema_version() == SCHEMA_VERSION == 7 and accounts.has_accounts(db) and db.has_stats


def test_a_schema_3_file_is_migrated_and_read_only_views_keep_its_running_totals(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    schema_3_file(path)
    with Database(path, readonly=True) as reader:  # not migrated; its running totals are used as they are
        assert reader.schema_version() == 3 and reader.has_stats and not accounts.has_accounts(reader)
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION and accounts.has_accounts(db) and db.has_stats
        accounts.add_user(db, "alice")
        assert db.integrity_problems() == []


# --- arena user --------------------------------------------------------------------------------
def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    return result.exit_code, result.output


def token_of(output: str) -> str:
    (token,) = [line for line in output.splitlines() if line.startswith("arena_")]
    return token


def test_user_add_prints_the_token_once_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "league.db"
    code, out = run("user", "add", "alice", "--admin", "--db", str(path))
    assert code == 0 and out.startswith("added admin alice; token:\n")
    assert "cannot be shown again" in out
    token = token_of(out)
    with Database(path) as db:
        assert accounts.authenticate(db, token) == accounts.user(db, "alice")
    code, listed = run("user", "list", "--format", "json", "--db", str(path))
    assert code == 0 and token not in listed
    (row,) = json.loads(listed)
    assert row["name"] == "alice" and row["admin"] is True and row["disabled"] is False
    assert token.startswith(f"arena_{row['token_id']}_") and set(row) == {
        "name", "admin", "disabled", "token_id", "created", "token_created"}
    code, table = run("user", "list", "--db", str(path))
    assert code == 0 and "alice" in table and token not in table


def test_user_rotate_and_disable(tmp_path: Path) -> None:
    path = str(tmp_path / "league.db")
    old = token_of(run("user", "add", "bob", "--db", path)[1])
    code, out = run("user", "rotate", "BOB", "--db", path)
    assert code == 0 and out.startswith("new token for bob; token:\n") and "cannot be shown again" in out
    new = token_of(out)
    with Database(path) as db:
        assert accounts.authenticate(db, old) is None and accounts.authenticate(db, new) is not None
    assert run("user", "disable", "bob", "--db", path) == (0, "disabled bob\n")
    with Database(path) as db:
        assert accounts.authenticate(db, new) is None
    assert json.loads(run("user", "list", "--format", "json", "--db", path)[1])[0]["disabled"] is True


@pytest.mark.parametrize("args, message", [
    (["add", "alice"], "Error: the user name 'alice' is taken\n"),
    (["add", "Alice"], "Error: the user name 'Alice' is taken\n"),
    (["add", "<b>x</b>"], "Error: a user name is 2 to 32 characters"),
    (["disable", "nobody"], "Error: no user named 'nobody'\n"),
    (["rotate", "nobody\x1b[2J"], "Error: no user named 'nobody\\x1b[2J'\n"),
])
def test_user_command_errors_are_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    path = str(tmp_path / "league.db")
    run("user", "add", "alice", "--db", path)
    code, out = run("user", *args, "--db", path)
    assert code == 1 and out.startswith(message) and out.count("\n") == 1


def test_user_commands_need_an_existing_database_except_add(tmp_path: Path) -> None:
    missing = tmp_path / "missing.db"
    for args in (["list"], ["disable", "alice"], ["rotate", "alice"]):
        assert run("user", *args, "--db", str(missing)) == (1, f"Error: no arena database at {missing}\n")
    assert run("user", "add", "no way", "--db", str(missing))[1].startswith("Error: a user name is")
    assert not missing.exists()  # not even by an add of an invalid name
    assert run("user", "add", "alice", "--db", str(missing))[0] == 0 and missing.exists()


def test_user_list_of_a_schema_3_file_is_empty_and_leaves_it_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    schema_3_file(path)
    before = path.read_bytes()
    assert run("user", "list", "--db", str(path)) == (0, f"no users in {path}\n")
    assert run("user", "list", "--format", "json", "--db", str(path)) == (0, "[]\n")
    assert path.read_bytes() == before
