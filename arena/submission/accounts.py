"""Accounts of the people who submit bots: users, their API tokens and their web sessions.

**Tokens.**  A token is ``arena_<id>_<secret>``: ``<id>`` is 12 random hex digits that find
the user's row (and tell tokens apart in ``arena user list``), ``<secret>`` is 32 random
bytes from :mod:`secrets`.  Only the SHA-256 of the whole token is stored, compared in
constant time.  A plain hash is right here, unlike for passwords: slow, salted password
hashes exist because people choose guessable passwords, but a 256-bit random token cannot
be guessed from its hash however fast the hash is, and a slow hash would only cost every
API request its time.  Rotation replaces the hash (the old token stops working at once)
and ends the user's web sessions; a disabled user cannot authenticate at all.

**Sessions.**  Signing in on the web creates a session: a random id in the browser's cookie,
stored server-side only as its SHA-256, with an expiry and a random CSRF token.  Server-side
sessions (not signed cookies) so that signing out, rotating or disabling ends them at once.

**Names** are shown on web pages and in terminals: 2 to 32 characters of ASCII letters,
digits, ``.``, ``_`` and ``-``, starting with a letter or digit, unique whatever the case.

Tables (schema 6): :data:`arena.league.storage.ACCOUNTS_SCHEMA`.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.league.storage import Database

TOKEN_PREFIX = "arena_"
TOKEN_ID_HEX = 12
TOKEN_SECRET_BYTES = 32
SESSION_SECONDS = 7 * 24 * 3600
"""A web session lasts a week from sign-in, then the person signs in again."""
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,31}")
_TOKEN_PATTERN = re.compile(rf"{TOKEN_PREFIX}([0-9a-f]{{{TOKEN_ID_HEX}}})_[A-Za-z0-9_-]{{43}}")


class AccountError(ValueError):
    """A request about accounts that cannot be done; the message says why, for people."""


class NameTakenError(AccountError):
    """The name belongs to another user already (whatever its case)."""


class NoSuchUserError(AccountError):
    """No user has that name."""


@dataclass(frozen=True)
class User:
    """A user as the rest of arena sees it (never the token hash)."""

    id: int
    name: str
    admin: bool
    disabled: bool
    created_at: float
    token_id: str
    """The public part of the current token (``arena_<token_id>_...``)."""
    token_created_at: float


@dataclass(frozen=True)
class Session:
    """A signed-in web session."""

    user: User
    csrf: str
    """The session's CSRF token, embedded in each form that changes something."""
    expires_at: float


def check_name(name: str) -> str:
    """``name`` if it is a valid user name.

    :raises AccountError: if it is not, saying what a name may hold.
    """
    if not NAME_PATTERN.fullmatch(name):
        raise AccountError("a user name is 2 to 32 characters: ASCII letters, digits, '.', '_' and '-', "
                           "starting with a letter or digit")
    return name


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def _new_token() -> tuple[str, str]:
    """A fresh token and its id."""
    token_id = secrets.token_hex(TOKEN_ID_HEX // 2)
    return f"{TOKEN_PREFIX}{token_id}_{secrets.token_urlsafe(TOKEN_SECRET_BYTES)}", token_id


_USER_COLUMNS = "users.id, users.name, users.admin, users.disabled, users.created_at, users.token_id, " \
                "users.token_created_at"
"""What :func:`_user` reads, in its order (never the token hash)."""


def _user(row: Sequence[Any]) -> User:
    return User(id=int(row[0]), name=str(row[1]), admin=bool(row[2]), disabled=bool(row[3]),
                created_at=float(row[4]), token_id=str(row[5]), token_created_at=float(row[6]))


def add_user(db: Database, name: str, *, admin: bool = False) -> tuple[User, str]:
    """Create a user: ``(user, token)``.  The token is returned this once and never stored.

    :raises AccountError: if the name is invalid.
    :raises NameTakenError: if a user has this name in any case.
    """
    check_name(name)
    token, token_id = _new_token()
    now = time.time()
    try:
        with db.transaction() as conn:
            cursor = conn.execute(
                "INSERT INTO users (name, admin, disabled, created_at, token_id, token_hash, token_created_at) "
                "VALUES (?, ?, 0, ?, ?, ?, ?)", (name, int(admin), now, token_id, _digest(token), now))
    except sqlite3.IntegrityError:
        raise NameTakenError(f"the user name {name!r} is taken") from None
    return User(id=int(cursor.lastrowid or 0), name=name, admin=admin, disabled=False, created_at=now,
                token_id=token_id, token_created_at=now), token


def users(db: Database) -> list[User]:
    """Every user, in the order they were added."""
    return [_user(row) for row in db.conn.execute(f"SELECT {_USER_COLUMNS} FROM users ORDER BY id")]


def user(db: Database, name: str) -> User:
    """The user called ``name`` (in any case).

    :raises NoSuchUserError: if there is none.
    """
    row = db.conn.execute(f"SELECT {_USER_COLUMNS} FROM users WHERE name = ?", (name,)).fetchone()
    if row is None:
        raise NoSuchUserError(f"no user named {name!r}")
    return _user(row)


def disable_user(db: Database, name: str) -> User:
    """Stop the user authenticating, by token or by session (their sessions end now).

    :raises NoSuchUserError: if there is no such user.
    """
    found = user(db, name)
    with db.transaction() as conn:
        conn.execute("UPDATE users SET disabled = 1 WHERE id = ?", (found.id,))
        conn.execute("DELETE FROM web_sessions WHERE user_id = ?", (found.id,))
    return user(db, name)


def rotate_token(db: Database, name: str) -> tuple[User, str]:
    """Give the user a new token, returned this once: the old one and the user's web sessions
    stop working at once (a token is rotated because it may have leaked).

    :raises NoSuchUserError: if there is no such user.
    """
    found = user(db, name)
    token, token_id = _new_token()
    with db.transaction() as conn:
        conn.execute("UPDATE users SET token_id = ?, token_hash = ?, token_created_at = ? WHERE id = ?",
                     (token_id, _digest(token), time.time(), found.id))
        conn.execute("DELETE FROM web_sessions WHERE user_id = ?", (found.id,))
    return user(db, name), token


def authenticate(db: Database, token: str) -> User | None:
    """The enabled user whose current token is ``token``, else ``None`` (malformed, unknown,
    replaced, or a disabled user's: the caller cannot tell which, and need not)."""
    match = _TOKEN_PATTERN.fullmatch(token)
    if match is None:
        return None
    row = db.conn.execute(f"SELECT {_USER_COLUMNS}, token_hash FROM users WHERE token_id = ?",
                          (match.group(1),)).fetchone()
    if row is None or not hmac.compare_digest(_digest(token), str(row[7])) or row[3]:
        return None
    return _user(row)


def start_session(db: Database, account: User, *, seconds: float = SESSION_SECONDS) -> tuple[str, Session]:
    """A new web session for ``account``: ``(session id for the cookie, session)``.

    Expired sessions are deleted on the way, so the table holds only live ones.
    """
    session_id = secrets.token_urlsafe(32)
    now = time.time()
    session = Session(user=account, csrf=secrets.token_urlsafe(32), expires_at=now + seconds)
    with db.transaction() as conn:
        conn.execute("DELETE FROM web_sessions WHERE expires_at <= ?", (now,))
        conn.execute("INSERT INTO web_sessions (id_hash, user_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?)",
                     (_digest(session_id), account.id, session.csrf, now, session.expires_at))
    return session_id, session


def session(db: Database, session_id: str) -> Session | None:
    """The live session with this id, else ``None`` (unknown, expired, signed out, or its
    user disabled)."""
    row = db.conn.execute(f"SELECT {_USER_COLUMNS}, web_sessions.csrf, web_sessions.expires_at FROM web_sessions "
                          "JOIN users ON users.id = web_sessions.user_id WHERE web_sessions.id_hash = ?",
                          (_digest(session_id),)).fetchone()
    if row is None or row[3] or float(row[8]) <= time.time():
        return None
    return Session(user=_user(row), csrf=str(row[7]), expires_at=float(row[8]))


def end_session(db: Database, session_id: str) -> None:
    """Sign out: the session id stops working."""
    with db.transaction() as conn:
        conn.execute("DELETE FROM web_sessions WHERE id_hash = ?", (_digest(session_id),))


def has_accounts(db: Database) -> bool:
    """Whether the file has the accounts tables (a read-only view of an older schema has not)."""
    return db.conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'users'").fetchone() is not None
