"""Submitted bots: each upload is checked, unpacked and stored by content hash as a version
of its author's bot (issue 27).

**Names.**  A bot name belongs to the first author who submits it (whatever its case,
the table ``bot_names``): another author's upload under that name is refused.  A bot
name becomes a folder name, so it follows the user-name rule (:data:`accounts.NAME_PATTERN`).

**Storage.**  An upload is unpacked by :func:`archive.unpack` (every archive rule, a valid
manifest, a language and game this server takes) into ``<data dir>/incoming/``, then moved to
``<data dir>/bots/<author>/<name>/<content hash>/`` and made read-only.  The same content
again is the same version: nothing new is stored and the earlier submission is returned.
Nothing under the data dir is ever served.

**States.**  A submission starts ``received``; the worker of :mod:`arena.submission.pipeline`
(``arena submissions work``) moves it through ``building`` and ``validating`` to ``active``, or
to ``failed``; a newer version's entry moves it to ``retired``.

Tables (schema 8): :data:`arena.league.storage.SUBMISSIONS_SCHEMA`.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.league.storage import Database
from arena.submission import accounts

if TYPE_CHECKING:  # the archive code (tarfile, zipfile, lzma...) is imported by the functions that use it
    from arena.submission.archive import ArchiveLimits, ServerPolicy

LANGUAGES = frozenset({"python", "node", "cpp", "go"})
"""The manifest languages a server builds (those of the sample bots and starter kits)."""


KEEP = 2
"""Active versions of one bot an author keeps on a ladder by default; older ones retire
(:mod:`arena.submission.pipeline`)."""


class SubmissionError(ValueError):
    """An upload refused; the message says why, for its author."""


class NameOwnedError(SubmissionError):
    """The bot name belongs to another author."""


@dataclass(frozen=True)
class Submission:
    id: int
    author: str
    bot_name: str
    version: str
    content_hash: str
    ladder: str
    state: str
    created_at: float
    changed_at: float
    message: str

    def as_json(self) -> dict[str, Any]:
        return {"id": self.id, "author": self.author, "bot": self.bot_name, "version": self.version,
                "content_hash": self.content_hash, "ladder": self.ladder or None, "state": self.state,
                "created_at": self.created_at, "changed_at": self.changed_at, "message": self.message}


_COLUMNS = "s.id, u.name, s.bot_name, s.version, s.content_hash, s.ladder, s.state, s.created_at, s.changed_at, " \
           "s.message"


def _submission(row: Sequence[Any]) -> Submission:
    return Submission(int(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]), str(row[5]), str(row[6]),
                      float(row[7]), float(row[8]), str(row[9]))


def submissions(db: Database, author: accounts.User | None = None) -> list[Submission]:
    """The submissions of ``author`` (``None``: everyone's), newest first."""
    where, params = ("WHERE s.author_id = ?", (author.id,)) if author is not None else ("", ())
    return [_submission(row) for row in db.conn.execute(
        f"SELECT {_COLUMNS} FROM submissions s JOIN users u ON u.id = s.author_id {where} ORDER BY s.id DESC",
        params)]


def submission(db: Database, submission_id: int, reader: accounts.User) -> Submission | None:
    """Submission ``submission_id`` if ``reader`` may see it (its author, or an admin), else ``None``,
    the same answer as for an id that does not exist."""
    row = db.conn.execute(f"SELECT {_COLUMNS}, s.author_id FROM submissions s JOIN users u ON u.id = s.author_id "
                          "WHERE s.id = ?", (submission_id,)).fetchone()
    if row is None or (row[10] != reader.id and not reader.admin):
        return None
    return _submission(row)


def registered_bot(db: Database, name: str, version: str) -> int | None:
    """The league bot a submission of ``name`` (its stored, first case) and ``version`` entered:
    registered under its manifest's case, which may differ (a bot name is its author's whatever
    its case), so matched case-blind as :func:`authored_bots` matches."""
    row = db.conn.execute("SELECT id FROM bots WHERE name = ? COLLATE NOCASE AND version = ? ORDER BY id DESC",
                          (name, version)).fetchone()
    return None if row is None else int(row[0])


def authored_bots(db: Database, author: accounts.User, bot_ids: Sequence[int]) -> set[int]:
    """The league bots among ``bot_ids`` that ``author``'s submissions entered in a ladder.

    A submission for a ladder reaches ``active`` (later ``retired``) only once the bot of its
    name and version is registered with its files, so that row is the author's.  Names are
    owned whatever their case (``bot_names``), hence the case-blind match.
    A submission for no ladder is never registered: it claims no league bot."""
    if not bot_ids:
        return set()
    marks = ", ".join("?" * len(bot_ids))
    return {int(row[0]) for row in db.conn.execute(
        "SELECT b.id FROM bots b JOIN submissions s ON s.bot_name = b.name COLLATE NOCASE AND s.version = b.version"
        f" WHERE s.author_id = ? AND s.ladder <> '' AND s.state IN ('active', 'retired') AND b.id IN ({marks})",
        (author.id, *bot_ids))}


def ladder_named(db: Database, name: str) -> str:
    """The server's ladder called ``name``, whatever its case, spelled as the server spells it
    (``""`` for none): authors type names, and "Dice" is plainly the ladder "dice".

    :raises SubmissionError: naming the server's ladders, when none is called ``name``.
    """
    from arena.runs.ladder_store import ladders

    if not name:
        return ""
    names = sorted({t.name for t in ladders(db)}, key=str.lower)
    found = [known for known in names if known.lower() == name.lower()]
    if not found:
        raise SubmissionError(f"this server has no ladder named {name[:64]!r}; its ladders: "
                              f"{', '.join(names) or 'none yet'}")
    return name if name in found else found[0]


def policy(db: Database, ladder: str) -> ServerPolicy:
    """What an upload for ``ladder`` (a ladder's name; ``""``: none yet) must be: a language
    of :data:`LANGUAGES`, and a game the ladder plays (without a ladder, any game arena hosts).

    :raises SubmissionError: if there is no ladder of that name (:func:`ladder_named`).
    """
    from arena.runs.ladder_store import ladders
    from arena.submission.archive import ServerPolicy
    from referee.games import game_names

    if not ladder:
        return ServerPolicy(languages=LANGUAGES, games=frozenset(game_names()))
    ladder = ladder_named(db, ladder)
    games = {t.game for t in ladders(db) if t.name == ladder}
    return ServerPolicy(languages=LANGUAGES, games=frozenset(games))


INCOMING = "incoming"
"""The data dir's folder where uploads are unpacked before they are stored."""


def _read_only(folder: Path) -> None:
    """Files 0o444 (0o555 if executable) and folders 0o555: a stored version never changes."""
    for parent, folders, files in os.walk(folder):
        for name in files:
            path = Path(parent, name)
            path.chmod(0o555 if path.stat().st_mode & 0o111 else 0o444)
        for name in folders:
            Path(parent, name).chmod(0o555)
    folder.chmod(0o555)


def _remove(folder: Path) -> None:
    """Remove a (possibly read-only) unpacked tree (a link in it is removed, its target never
    touched: chmod would follow it)."""
    for parent, folders, _ in os.walk(folder):
        for name in folders:
            if not Path(parent, name).is_symlink():
                Path(parent, name).chmod(0o755)
    if folder.exists():
        folder.chmod(0o755)
    shutil.rmtree(folder, ignore_errors=True)


STALE_STAGING_S = 3600.0
"""A staging folder this much older than its last change belongs to no upload in progress.

A folder is staged only while one request unpacks and checks one archive, which its size limit
(``--max-upload-mb``, also the most it may unpack to) bounds to seconds; an hour leaves a wide
margin for a loaded machine and for another server sharing the data dir (one being restarted
while the old one finishes a request), so no live unpack's folder is ever taken from under it."""


def remove_stale_staging(data_dir: Path, older_than: float = STALE_STAGING_S) -> list[Path]:
    """Remove the staging folders (``incoming/.*.part``, :func:`archive.unpack`'s) that a server
    stopped mid-unpack left, once ``older_than`` seconds old; return them.  Nothing else is
    touched: not other names, not files or links, not what ``incoming/`` holds below them."""
    incoming = Path(data_dir) / INCOMING
    if not incoming.is_dir():
        return []
    cutoff = time.time() - older_than
    removed = []
    for entry in sorted(incoming.iterdir()):
        if entry.name.startswith(".") and entry.name.endswith(".part") and not entry.is_symlink() \
                and entry.is_dir() and entry.lstat().st_mtime < cutoff:
            _remove(entry)
            removed.append(entry)
    return removed


def bot_folder(data_dir: Path, author: str, name: str, content_hash: str) -> Path:
    """Where a stored version lies."""
    return Path(data_dir) / "bots" / author / name / content_hash


def receive(db: Database, data_dir: Path, author: accounts.User, data: bytes, *, ladder: str = "",
            limits: ArchiveLimits | None = None) -> tuple[Submission, bool]:
    """Check, unpack and store an upload: ``(submission, new)``; ``new`` is false when the
    author had submitted this bot with the same content already (that submission is returned;
    one submitted for no ladder is entered for ``ladder`` now, :func:`_onto_ladder`).
    ``limits``: the archive's, by default ``ArchiveLimits()``.

    :raises arena.submission.archive.ArchiveError: for an archive, manifest, language or game refused; nothing is left on disk.
    :raises SubmissionError: for an unknown ladder, a bot name unfit for a folder, one owned
        by another author, or the same files for another ladder; nothing is left on disk.
    """
    from arena.submission.archive import ArchiveLimits, unpack

    ladder = ladder_named(db, ladder)
    server = policy(db, ladder)
    incoming = Path(data_dir) / INCOMING
    incoming.mkdir(parents=True, exist_ok=True)
    staged = incoming / secrets.token_hex(8)
    bot = unpack(data, staged, ArchiveLimits() if limits is None else limits, policy=server)
    try:
        name = bot.spec.name
        if not accounts.NAME_PATTERN.fullmatch(name):
            raise SubmissionError(f"bot.toml's name {name[:40]!r} cannot be stored: a submitted bot's name is 2 to 32 "
                                  "characters: ASCII letters, digits, '.', '_' and '-', starting with a letter or digit")
        now = time.time()
        with db.transaction() as conn:
            conn.execute("INSERT OR IGNORE INTO bot_names (name, author_id) VALUES (?, ?)", (name, author.id))
            owner = conn.execute("SELECT author_id FROM bot_names WHERE name = ?", (name,)).fetchone()[0]
            if owner != author.id:
                raise NameOwnedError(f"the bot name {name!r} belongs to another author; rename the bot in bot.toml")
            name = conn.execute("SELECT name FROM bot_names WHERE name = ?", (name,)).fetchone()[0]  # its first case
            try:
                cursor = conn.execute(
                    "INSERT INTO submissions (author_id, bot_name, version, content_hash, ladder, state, created_at,"
                    " changed_at) VALUES (?, ?, ?, ?, ?, 'received', ?, ?)",
                    (author.id, name, bot.spec.version, bot.content_hash, ladder, now, now))
                new_id, new = int(cursor.lastrowid or 0), True
            except sqlite3.IntegrityError:  # the same content again: the same version
                new_id, had, state = conn.execute(
                    "SELECT id, ladder, state FROM submissions WHERE author_id = ? AND bot_name = ? AND "
                    "content_hash = ?", (author.id, name, bot.content_hash)).fetchone()
                new = False
                if ladder and ladder != had:
                    _onto_ladder(conn, int(new_id), str(had), str(state), ladder)
            target = bot_folder(data_dir, author.name, name, bot.content_hash)
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                staged.rename(target)
                _read_only(target)
    finally:
        if staged.exists():
            _remove(staged)
    found = submission(db, new_id, author)
    assert found is not None
    return found, new


def _onto_ladder(conn: sqlite3.Connection, sid: int, had: str, state: str, ladder: str) -> None:
    """Submission ``sid`` again, now for ``ladder``: one submitted for no ladder goes back to
    ``received`` for it, so the worker builds, validates, enters (and SPRT-tests) it as it does
    a fresh upload for that ladder.  A submission enters one ladder, and one the worker holds
    keeps the ladder it has: those are refused, with what to do.

    :raises SubmissionError: if it is for another ladder, or being built or validated."""
    if had:
        raise SubmissionError(f"these files are submission {sid}, for ladder {had!r}; a submission enters one ladder: "
                              f"to enter {ladder!r} as well, give them a new version in bot.toml and submit again")
    if state in ("building", "validating"):
        raise SubmissionError(f"these files are submission {sid}, being checked for no ladder right now; "
                              f"submit them again for ladder {ladder!r} once it is done")
    conn.execute("UPDATE submissions SET ladder = ?, state = 'received', message = ?, changed_at = ? WHERE id = ?",
                 (ladder, f"submitted again for ladder {ladder} (it was for no ladder): waiting for the worker",
                  time.time(), sid))


def read_log(data_dir: Path, log_path: str) -> str:
    """A submission's log (``log_path`` relative to the data dir), or ``""`` before the worker wrote one."""
    path = Path(data_dir) / log_path
    return path.read_text(encoding="utf-8", errors="replace") if log_path and path.is_file() else ""


__all__ = ["LANGUAGES", "NameOwnedError", "STALE_STAGING_S", "Submission", "SubmissionError", "authored_bots",
           "bot_folder", "policy", "read_log", "receive", "registered_bot", "remove_stale_staging", "submission", "submissions"]
