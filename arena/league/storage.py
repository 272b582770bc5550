"""The arena database: bots, tournaments, every match with its full record, and ratings.

One SQLite file in WAL mode.  Only the tournament's parent process writes (workers return
records to it), so there is a single writer.

**Crash safety.**  A tournament's matches are inserted as ``pending`` rows, with their seats
and seeds, in the same transaction that creates the tournament.  A finished match is
stored by one transaction that updates its row *only if it is not done yet* and fills in its
seats; so each result is committed atomically and at most once, and after a ``kill -9``
resuming simply runs the rows that are not ``done``.  Ratings are derived data: they are
recomputed from the stored results in match-id order (see :mod:`arena.league.ratings`).

Schema (version :data:`SCHEMA_VERSION`)::

    schema_version(version)
    bots(id, name, version, author, language, manifest, address, files_hash, registered_at)
        UNIQUE(name, version): a new version is a new entrant
    tournaments(id, name, game, variant, settings, format, table_size, rounds, duplicate,
                seed, time_control, options, status, runner_pid, created_at, finished_at)
    tournament_bots(tournament_id, position, bot_id)
    matches(id, tournament_id, position, round, deal, rotation, game, variant, settings, seed,
            num_players, status, termination, reason, scores, ranking, engine_ranking,
            faults, forfeited, record, duration_s, attempts, finished_at)
    match_seats(match_id, seat, bot_id, score, rank, faults, forfeited)     WITHOUT ROWID
    ratings(game, variant, bot_id, mu, sigma, matches)
    rating_history(bot_id, match_id, mu, sigma)        the rating after each match, WITHOUT ROWID
    rating_state(game, variant, last_match_id, rated_count)
    rating_priors(game, variant, bot_id, mu, sigma, reason)
                                                       where a bot's rating starts (a new version's: its
                                                       previous version's), read by every rating path
    game_stats, bot_stats, pair_stats, tournament_stats, tournament_bot_stats
                                                       running totals (:mod:`arena.league.stats`)
    ladder_entrants(tournament_id, bot_id, state, reason, joined_at, active_since, changed_at,
                    matches, last_match_at, boss)
    ladder_status(tournament_id, pid, started_at, heartbeat, in_flight, per_minute, note)
    indexes: matches by (game, variant, status, id) and (tournament_id, status, id), seats by bot
    users, web_sessions    accounts of people who submit bots (:mod:`arena.submission.accounts`)
    bot_names, submissions    uploaded bots, stored by content hash (:mod:`arena.submission.submissions`)
    sprt_runs, sprt_points, sprt_pairs
                              each new version's SPRT against the previous one (:mod:`arena.submission.sprt_runs`)

**Compact records.**  ``matches.record`` holds the full match record (what ``arena show``
prints and ``arena replay`` checks) as a zlib-compressed JSON document whose moves are
stored by column (:func:`encode_record`): a random Gin Rummy match of 15,000 decisions
takes about 50 kB instead of 1.5 MB.  Schema 4 compresses with a preset dictionary, leaves
out the seats and action texts the engine gives back from the seed and indices (a checksum
stays), and the result the match's row holds (``engine_ranking`` and ``faults`` are then
kept in the record alone): a two-seat Yahtzee record takes about 270 bytes instead of 740.
Schema 1 stored the JSON text and schema 2 the compact record without those savings;
opening such a file for writing migrates it in one transaction, and read-only commands
read all of them.

**Batched commits.**  :meth:`Database.store_results` commits many results in one
transaction (one fsync), each still guarded by its own row's status; nothing of a batch is
reported stored before its ``COMMIT``.  The same transaction adds each match to the running
totals of :mod:`arena.league.stats`, so readers never scan the league.  Schema 2 files gain
those tables on opening for writing (computed from the stored matches, in one transaction);
read-only connections to older files compute them in memory instead.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.league import stats as league_stats
from referee import luck
from referee.result import MatchRecord, MoveStatus

SCHEMA_VERSION = 14
"""1: records as JSON text; 2: records compact; 3: running totals (:mod:`arena.league.stats`)
and rating history by bot; 4: records with a preset dictionary and the engine's texts left out
(:func:`encode_record`), seats and rating history without row ids; 5: ladder entrants and
status (:data:`LADDER_SCHEMA`); 6: accounts and web sessions (:mod:`arena.submission.accounts`);
7: each ladder entrant's played matches and last match as running totals; 8: submitted bots
(:mod:`arena.submission.submissions`); 9: each bot's totals per tournament (the standings) as running
totals; 10: SPRT runs of submitted versions (:mod:`arena.submission.sprt_runs`); 11: rating priors
(:data:`RATING_PRIORS_SCHEMA`); 12: luck reports (:data:`LUCK_SCHEMA`); 13: each counted pair of an
SPRT run, with its luck-adjusted score (:data:`SPRT_PAIRS_SCHEMA`); 14: ladder entrants marked as
reference bots ("boss").  Older files are migrated on open."""
_LUCK_SINCE = 12
"""The first schema with luck reports."""
_STATS_SINCE = 3
"""The first schema with the running totals."""
_ENTRANT_TOTALS_SINCE = 7
"""The first schema with ladder entrants' running totals."""
_TOURNAMENT_TOTALS_SINCE = 9
"""The first schema with each bot's running totals per tournament."""
_RATING_PRIORS_SINCE = 11
"""The first schema with rating priors."""
_BOSSES_SINCE = 14
"""The first schema with ladder entrants marked as reference bots."""
DEFAULT_DB = "arena.db"

NEWEST_LUCK_FIRST = "CAST(substr(estimator, instr(estimator, '/') + 1) AS INTEGER) DESC"
"""SQL order of a match's ``match_luck`` rows, newest estimator version first (``game/N``:
by N as a number, so version 10 comes before 9)."""

_SCHEMA = """
CREATE TABLE schema_version (version INTEGER NOT NULL);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    author TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT '',
    manifest TEXT,
    address TEXT,
    files_hash TEXT NOT NULL,
    registered_at REAL NOT NULL,
    UNIQUE (name, version)
);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    settings TEXT NOT NULL,
    format TEXT NOT NULL,
    table_size INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    duplicate INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    time_control TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    runner_pid INTEGER,
    created_at REAL NOT NULL,
    finished_at REAL
);
CREATE TABLE tournament_bots (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    PRIMARY KEY (tournament_id, position),
    UNIQUE (tournament_id, bot_id)
);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    round INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    num_players INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    termination TEXT,
    reason TEXT,
    scores TEXT,
    ranking TEXT,
    engine_ranking TEXT,
    faults TEXT,
    forfeited TEXT,
    record TEXT,
    duration_s REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    finished_at REAL,
    UNIQUE (tournament_id, position)
);
CREATE INDEX matches_by_game ON matches (game, variant, status, id);
"""
_ROWLESS_TABLES = """
CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    score REAL,
    rank INTEGER,
    faults INTEGER,
    forfeited INTEGER,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
CREATE TABLE rating_history (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (bot_id, match_id)
) WITHOUT ROWID;
CREATE INDEX seats_by_bot ON match_seats (bot_id);
"""
"""Schema 4's tables keyed by their primary key alone: a row id and a second copy of the key
in an index cost about 50 bytes a match.  The rating history is read by bot (a bot's page);
deleting a game's or tournament's history, rare, reads all of it."""
_SCHEMA += _ROWLESS_TABLES + """
CREATE TABLE ratings (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id)
);
CREATE TABLE rating_state (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    last_match_id INTEGER NOT NULL,
    rated_count INTEGER NOT NULL,
    PRIMARY KEY (game, variant)
);
"""

RATING_PRIORS_SCHEMA = """
CREATE TABLE IF NOT EXISTS rating_priors (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, variant, bot_id)
);
"""
"""Where a bot's rating starts in one game and variant, instead of TrueSkill's default: an
input of the ratings, not derived data, so a recompute keeps it and replays from it
(:func:`arena.league.ratings.stored_priors`).  ``reason`` says where it came from."""


LADDER_SCHEMA = """
CREATE TABLE IF NOT EXISTS ladder_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'removed')),
    reason TEXT NOT NULL DEFAULT '',
    joined_at REAL NOT NULL,
    active_since REAL NOT NULL,
    changed_at REAL NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    last_match_at REAL, boss INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, bot_id)
);
CREATE TABLE IF NOT EXISTS ladder_status (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    pid INTEGER,
    started_at REAL,
    heartbeat REAL,
    in_flight INTEGER NOT NULL DEFAULT 0,
    per_minute REAL NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT ''
);
"""
"""A ladder is a tournament row (``options.kind == "ladder"``) whose matches are appended as it
plays; these tables hold its entrants' states, written by ``arena ladder add|pause|...``, and
the status its running process refreshes (:mod:`arena.runs.ladder_store`).  ``matches`` and
``last_match_at`` are running totals (:func:`arena.league.stats.count_entrant_match`)."""

ACCOUNTS_SCHEMA = """
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    admin INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    token_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL,
    token_created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS web_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS web_sessions_by_user ON web_sessions (user_id)
"""
"""Schema 6: the users who submit bots and their web sessions (:mod:`arena.submission.accounts`)."""

SUBMISSIONS_SCHEMA = """
CREATE TABLE IF NOT EXISTS bot_names (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    author_id INTEGER NOT NULL REFERENCES users(id)
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    author_id INTEGER NOT NULL REFERENCES users(id),
    bot_name TEXT NOT NULL,
    version TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    ladder TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL CHECK (state IN ('received', 'building', 'validating', 'active', 'failed', 'retired')),
    created_at REAL NOT NULL,
    changed_at REAL NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    log_path TEXT NOT NULL DEFAULT '',
    UNIQUE (author_id, bot_name, content_hash)
);
CREATE INDEX IF NOT EXISTS submissions_by_author ON submissions (author_id, id)
"""
"""Schema 8: submitted bots (:mod:`arena.submission.submissions`).  ``message`` is the latest
step's one-line outcome and ``log_path`` its log (relative to the data dir), both for the
author's eyes only; the later steps fill them."""

LUCK_SCHEMA = """
CREATE TABLE IF NOT EXISTS match_luck (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    estimator TEXT NOT NULL,
    luck TEXT NOT NULL,
    report TEXT NOT NULL,
    PRIMARY KEY (match_id, estimator)
) WITHOUT ROWID
"""
"""Schema 12: each played match's luck (:mod:`referee.luck`), per estimator version: ``luck``
is the per-seat JSON list (what ratings read), ``report`` the whole
:meth:`referee.luck.LuckReport.to_json`.  A new estimator version adds rows beside the old
ones; nothing here is ever rewritten in place."""

SPRT_SCHEMA = """
CREATE TABLE IF NOT EXISTS sprt_runs (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL UNIQUE REFERENCES submissions(id),
    old_submission_id INTEGER NOT NULL REFERENCES submissions(id),
    new_bot_id INTEGER NOT NULL REFERENCES bots(id),
    old_bot_id INTEGER NOT NULL REFERENCES bots(id),
    config TEXT NOT NULL,
    state TEXT NOT NULL,
    max_pairs INTEGER NOT NULL,
    next_pair INTEGER NOT NULL DEFAULT 0,
    verdict TEXT CHECK (verdict IN ('stronger', 'not stronger', 'undecided', 'refused', 'failed')),
    reason TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    changed_at REAL NOT NULL,
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS sprt_runs_open ON sprt_runs (id) WHERE verdict IS NULL;
CREATE TABLE IF NOT EXISTS sprt_points (
    run_id INTEGER NOT NULL REFERENCES sprt_runs(id),
    played INTEGER NOT NULL,
    pairs INTEGER NOT NULL,
    llr REAL NOT NULL,
    PRIMARY KEY (run_id, played)
) WITHOUT ROWID
"""
"""Schema 10: each new version's SPRT run (:mod:`arena.submission.sprt_runs`).  ``config``: the
ladder's game, variant, settings, time control, sandbox and keep-alive, as JSON; ``state``:
:meth:`arena.submission.sprt.SPRT.to_json`; ``next_pair``: the pairs played so far, counted or
not (a pair whose match did not finish is not counted), so the index of the next; ``verdict``
is ``NULL`` while the run is open.  ``sprt_points``: the LLR after each stored batch (``pairs``
counted, ``played`` the run's ``next_pair`` after it), for the author's chart."""

SPRT_PAIRS_SCHEMA = """
CREATE TABLE IF NOT EXISTS sprt_pairs (
    run_id INTEGER NOT NULL REFERENCES sprt_runs(id),
    pair INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    points REAL NOT NULL,
    adjusted REAL,
    raw REAL,
    PRIMARY KEY (run_id, pair)
) WITHOUT ROWID
"""
"""Schema 13: each counted pair of an SPRT run: its deal's ``seed``, NEW's plain ``points`` (0 to
2) and, for a test on luck-adjusted results, ``adjusted`` and ``raw`` (NEW's mean adjusted, and
plain, result minus OLD's; ``NULL`` otherwise), stored with the batch, so that a run's test can be recomputed from
its pairs.  Runs stored before schema 13 keep their state alone; their test (the logistic one)
reads it as before."""


class StorageError(Exception):
    """A database problem, told in one line (never a traceback)."""


class SchemaTooNewError(StorageError):
    """The file was written by a newer arena."""


class BotConflictError(StorageError):
    """A bot registered again under the same name and version but with other files."""


class NotFoundError(StorageError):
    """No tournament or match with that id."""


class QueryInterrupted(StorageError):
    """A query ran past the time limit of :meth:`Database.time_limit`."""


@dataclass(frozen=True)
class BotRow:
    id: int
    name: str
    version: str
    author: str
    language: str
    manifest: str | None
    address: str | None
    files_hash: str

    @property
    def label(self) -> str:
        return f"{self.name}@{self.version}" if self.version else self.name


@dataclass(frozen=True)
class TournamentRow:
    id: int
    name: str
    game: str
    variant: str
    settings: dict[str, Any]
    format: str
    table_size: int
    rounds: int
    duplicate: bool
    seed: int
    time_control: dict[str, Any]
    options: dict[str, Any]
    status: str
    runner_pid: int | None
    created_at: float
    finished_at: float | None


@dataclass(frozen=True)
class MatchRow:
    """A match as stored: its schedule always, its result once ``status == "done"``."""

    id: int
    tournament_id: int | None
    position: int
    round: int
    deal: int
    rotation: int
    game: str
    variant: str
    settings: dict[str, Any]
    seed: int
    num_players: int
    status: str
    bot_ids: tuple[int, ...]
    """Bot id by seat."""
    termination: str | None = None
    reason: str | None = None
    scores: tuple[float, ...] | None = None
    ranking: tuple[int, ...] | None = None
    faults: tuple[int, ...] | None = None
    """Fault count by seat."""
    forfeited: tuple[int, ...] | None = None
    """Forfeited seats."""
    duration_s: float | None = None
    finished_at: float | None = None
    attempts: int = 0
    """Times a result or a failure was stored for it."""


@dataclass(frozen=True)
class ScheduledMatch:
    """A match to insert as pending: seats are bot ids."""

    seats: tuple[int, ...]
    seed: int
    round: int
    deal: int
    rotation: int


_MATCH_COLUMNS = ("id, tournament_id, position, round, deal, rotation, game, variant, settings, seed, num_players,"
                  " status, termination, reason, scores, ranking, forfeited, duration_s, finished_at, attempts")
"""What a :class:`MatchRow` needs: the (large) record is read only by :meth:`Database.match_record`."""


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


INTEGRITY_HINT = 'check it with: sqlite3 {path} "PRAGMA integrity_check"'
"""Appended to every error about a damaged or unreadable database file."""


class Database:
    """A connection to an arena database file.

    ``readonly`` opens the file with SQLite's read-only mode: nothing is ever written, not
    even the switch to WAL, so a file that is not an arena database is left untouched.  Such
    a connection may be used from any thread (one at a time: the web server pools them), and
    WAL lets it read while a tournament writes.
    Otherwise the file must be an arena database, or (with ``create``) absent or empty, in
    which case the current schema is created.  A foreign SQLite file is refused before any
    change is made to it.  ``pooled`` lets a writing connection too be used from any thread,
    one at a time (the web server's accounts door pools them).

    :raises SchemaTooNewError: if the file's schema is newer than this arena knows.
    :raises StorageError: if the file is not an arena database or cannot be opened.
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True, readonly: bool = False,
                 pooled: bool = False) -> None:
        self.path = Path(path)
        self.readonly = readonly
        self._deadlines: list[float] = []
        exists = self.path.is_file()
        if (readonly or not create) and (not exists or self.path.stat().st_size == 0):
            raise StorageError(f"no arena database at {self.path}")
        if self.path.is_dir():
            raise StorageError(f"{self.path} is a folder, not a database file")
        if not exists and not self.path.parent.is_dir():
            raise StorageError(f"cannot create database {self.path}: folder {self.path.parent} does not exist")
        try:
            if readonly:
                uri = f"{self.path.resolve().as_uri()}?mode=ro"
                self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0,
                                            check_same_thread=False)
                self.conn.execute("PRAGMA query_only=ON")
            else:
                self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0,
                                            check_same_thread=not pooled)
            self.conn.row_factory = sqlite3.Row
            self._check_schema(create=create and not readonly)
            if not readonly:
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.execute("PRAGMA foreign_keys=ON")
        except sqlite3.DatabaseError as error:
            self.conn.close()
            raise StorageError(f"{self.path} is not a usable arena database ({error}); "
                               + INTEGRITY_HINT.format(path=self.path)) from None
        except StorageError:
            self.conn.close()
            raise

    def _check_schema(self, *, create: bool) -> None:
        """Refuse anything but an arena database of a known schema; create one in an empty file."""
        tables = {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables:
            if not create:
                raise StorageError(f"no arena database at {self.path}")
            with self.transaction():
                _execute_script(self.conn, _SCHEMA + RATING_PRIORS_SCHEMA + league_stats.SCHEMA + LADDER_SCHEMA + ';'
                                + ACCOUNTS_SCHEMA + ';' + SUBMISSIONS_SCHEMA + ';' + SPRT_SCHEMA + ';'
                                + LUCK_SCHEMA + ';' + SPRT_PAIRS_SCHEMA)
                self.conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            self.has_stats = self.has_entrant_totals = self.has_tournament_totals = self.has_rating_priors = True
            self.has_luck = self.has_bosses = True
            return
        if "schema_version" not in tables:
            raise StorageError(f"{self.path} is an SQLite file but not an arena database")
        version = self.schema_version()
        if version is None:
            raise StorageError(f"{self.path} has no schema version")
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(f"{self.path} uses database schema {version}, newer than this arena's "
                                    f"{SCHEMA_VERSION}; upgrade arena to read it")
        if version < 1:
            raise StorageError(f"{self.path} uses database schema {version}, which this arena cannot migrate")
        if version < SCHEMA_VERSION and not self.readonly:
            self._migrate(version)
        self.has_stats = (self.schema_version() or 0) >= _STATS_SINCE
        """Whether the running totals are stored (else, a read-only view of an older file, they are computed)."""
        self.has_entrant_totals = (self.schema_version() or 0) >= _ENTRANT_TOTALS_SINCE
        """Whether ladder entrants' played matches are stored (schema 7), else they are counted."""
        self.has_tournament_totals = (self.schema_version() or 0) >= _TOURNAMENT_TOTALS_SINCE
        """Whether each bot's totals per tournament are stored (schema 9), else they are computed."""
        self.has_luck = (self.schema_version() or 0) >= _LUCK_SINCE
        """Whether the file keeps luck reports (schema 12)."""
        self.has_bosses = (self.schema_version() or 0) >= _BOSSES_SINCE
        """Whether ladder entrants can be marked as reference bots (schema 14; else none is)."""
        self.has_rating_priors = (self.schema_version() or 0) >= _RATING_PRIORS_SINCE
        """Whether the file has rating priors (else, a read-only view of an older file, every bot
        starts at the default)."""

    def _migrate(self, version: int) -> None:
        """Bring an older schema up to :data:`SCHEMA_VERSION`, in one transaction.

        The version is read again under the write lock: another process that opened the file
        at the same time may have migrated it meanwhile (its steps are not all repeatable)."""
        with self.transaction():
            version = self.schema_version() or version
            if version >= SCHEMA_VERSION:
                return
            if version < 3:  # running totals, computed once from the stored matches
                _execute_script(self.conn, league_stats.SCHEMA)
                league_stats.rebuild_all(self.conn)
            if version < 4:  # records of schema 4 (from schema 1's JSON text or schema 2's compact ones),
                # seats and rating history without row ids
                self._reencode_records()
                self.conn.execute("DROP INDEX IF EXISTS seats_by_bot")
                self.conn.execute("DROP INDEX IF EXISTS history_by_bot")  # now the table's own key
                for table in ("match_seats", "rating_history"):
                    self.conn.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
                _execute_script(self.conn, _ROWLESS_TABLES + league_stats.SCHEMA)
                for table in ("match_seats", "rating_history"):
                    columns = ", ".join(row[1] for row in self.conn.execute(f"PRAGMA table_info(old_{table})"))
                    self.conn.execute(f"INSERT INTO {table} ({columns}) SELECT {columns} FROM old_{table}")
                    self.conn.execute(f"DROP TABLE old_{table}")
            if version < 5:  # ladders: entrants and the running process's status
                _execute_script(self.conn, LADDER_SCHEMA)
            elif version < 7:  # each ladder entrant's played matches, counted once from the stored ones
                self.conn.execute("ALTER TABLE ladder_entrants ADD COLUMN matches INTEGER NOT NULL DEFAULT 0")
                self.conn.execute("ALTER TABLE ladder_entrants ADD COLUMN last_match_at REAL")
                league_stats.rebuild_entrants(self.conn)
            if version < 6:  # accounts: users and their web sessions
                _execute_script(self.conn, ACCOUNTS_SCHEMA)
            if version < 8:  # submitted bots
                _execute_script(self.conn, SUBMISSIONS_SCHEMA)
            if version < 9:  # each bot's totals per tournament, computed once from the stored matches
                _execute_script(self.conn, league_stats.SCHEMA)
                league_stats.rebuild_tournament_bots(self.conn)
            if version < 10:  # SPRT runs of submitted versions
                _execute_script(self.conn, SPRT_SCHEMA)
            if version < 11:  # rating priors: none yet, so every rating stays as it was
                _execute_script(self.conn, RATING_PRIORS_SCHEMA)
            if version < 12:  # luck reports: older matches get theirs from `arena luck`
                _execute_script(self.conn, LUCK_SCHEMA)
            if version < 13:  # SPRT runs' pairs: none stored before; older runs keep their state
                _execute_script(self.conn, SPRT_PAIRS_SCHEMA)
            columns = {row[1] for row in self.conn.execute("PRAGMA table_info(ladder_entrants)")}
            if "boss" not in columns:  # schema 14's reference bots: none yet (the fresh schema's text is what this writes)
                self.conn.execute("ALTER TABLE ladder_entrants ADD COLUMN boss INTEGER NOT NULL DEFAULT 0")
            self.conn.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,))

    def _reencode_records(self) -> None:
        """Every older record in schema 4's format, a thousand at a time (memory stays flat).

        A played match's record leaves out what its row holds (when the two agree), and the row
        no longer keeps the record's engine ranking and faults.  A record that does not decode
        is left as it was (unreadable as before, and named by :meth:`match_record`).
        """
        last = 0
        while True:
            rows = self.conn.execute(f"SELECT id, status, record, {', '.join(_ROW_RESULT)} FROM matches"
                                     " WHERE id > ? AND record IS NOT NULL ORDER BY id LIMIT 1000", (last,)).fetchall()
            if not rows:
                return
            last = rows[-1]["id"]
            updates = [(new[0], int(new[1]), row["id"]) for row in rows if (new := reencoded(row)) is not None]
            self.conn.executemany("UPDATE matches SET record = ?, engine_ranking = CASE WHEN ? THEN NULL"
                                  " ELSE engine_ranking END, faults = CASE WHEN ?2 THEN NULL ELSE faults END"
                                  " WHERE id = ?", updates)

    def schema_version(self) -> int | None:
        row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        return None if row is None or row[0] is None else int(row[0])

    def integrity_problems(self, limit: int = 20) -> list[str]:
        """SQLite's ``PRAGMA integrity_check`` findings (empty for a sound file)."""
        try:
            rows = [row[0] for row in self.conn.execute(f"PRAGMA integrity_check({int(limit)})")]
        except sqlite3.DatabaseError as error:  # damage bad enough to stop the check itself
            return [str(error)]
        return [] if rows == ["ok"] else rows

    def backup(self, target: str | os.PathLike[str]) -> None:
        """Copy the database to ``target`` with SQLite's online backup API.

        Safe while a tournament writes: the copy is one consistent snapshot.  The copy is
        written beside ``target`` and renamed into place, so a failed backup leaves no
        half-written file.
        """
        target = Path(target)
        partial = target.with_name(target.name + ".partial")
        try:
            with sqlite3.connect(partial) as copy:
                self.conn.backup(copy)
                copy.execute("PRAGMA journal_mode=DELETE")
            copy.close()
            os.replace(partial, target)
        finally:
            partial.unlink(missing_ok=True)

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def time_limit(self, seconds: float | None) -> Iterator[None]:
        """Interrupt this connection's queries once ``seconds`` have passed (``None``: no limit)
        within the block; an inner limit replaces the outer one until it ends.

        SQLite checks the deadline every thousand steps of a statement, so a query that would
        read too much stops instead of running on.

        :raises QueryInterrupted: if a query ran past the deadline.
        """
        self._deadlines.append(float("inf") if seconds is None else time.monotonic() + seconds)
        self.conn.set_progress_handler(lambda: time.monotonic() > self._deadlines[-1], 1000)
        try:
            yield
        except sqlite3.OperationalError as error:
            if str(error) != "interrupted":
                raise
            raise QueryInterrupted(f"the database took longer than {seconds:g} s to answer") from None
        finally:
            self._deadlines.pop()
            if not self._deadlines:
                self.conn.set_progress_handler(None, 0)

    def __enter__(self) -> Database:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT``, rolled back on any exception."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        self.conn.execute("COMMIT")

    # --- bots ----------------------------------------------------------------------------------
    def register_bot(self, *, name: str, version: str, files_hash: str, author: str = "", language: str = "",
                     manifest: str | None = None, address: str | None = None, dev: bool = False) -> BotRow:
        """The bot's row, inserted if this name and version are new.

        Identity (``docs/tournaments.md``, "Bots and versions"): a bot given by manifest is
        ``name@version`` with the hash of its files; a bot given by address (``manifest`` is
        ``None``) has no files here, so it is the row of the ``name@version`` it reports,
        however that row was registered.  A manifest entering a row that only addresses
        registered gives the row its files.  With ``dev``, a manifest whose files differ from
        the registered ones is the development revision ``name@version+devN`` with the same
        files, or a new one.

        :raises BotConflictError: if ``name@version`` is registered with other files (and not ``dev``).
        """
        with self.transaction():
            row = self.conn.execute("SELECT * FROM bots WHERE name = ? AND version = ?", (name, version)).fetchone()
            if row is not None and manifest is not None and row["files_hash"] != files_hash:
                if row["manifest"] is None:  # registered by address only: these are its files
                    self.conn.execute("UPDATE bots SET manifest = ?, files_hash = ?, author = ?, language = ? "
                                      "WHERE id = ?", (manifest, files_hash, author, language, row["id"]))
                elif dev:
                    version, row = self._dev_revision(name, version, files_hash)
                else:
                    label = f"{name}@{version}" if version else name
                    raise BotConflictError(f"bot {label} is already registered with different files; "
                                           f"give the changed bot a new version in its bot.toml, or enter it "
                                           f"with --dev as a development revision")
            if row is None:
                self.conn.execute(
                    "INSERT INTO bots (name, version, author, language, manifest, address, files_hash, registered_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, version, author, language, manifest, address, files_hash, time.time()))
            row = self.conn.execute("SELECT * FROM bots WHERE name = ? AND version = ?", (name, version)).fetchone()
        return self._bot(row)

    def _dev_revision(self, name: str, version: str, files_hash: str) -> tuple[str, sqlite3.Row | None]:
        """The development revision of ``name@version`` holding these files, or the next free one."""
        revision = 1
        while True:
            dev_version = f"{version}+dev{revision}"
            row = self.conn.execute("SELECT * FROM bots WHERE name = ? AND version = ?", (name, dev_version)).fetchone()
            if row is None or row["files_hash"] == files_hash:
                return dev_version, row
            revision += 1

    @staticmethod
    def _bot(row: sqlite3.Row) -> BotRow:
        return BotRow(row["id"], row["name"], row["version"], row["author"], row["language"], row["manifest"],
                      row["address"], row["files_hash"])

    def bot(self, bot_id: int) -> BotRow:
        row = self.conn.execute("SELECT * FROM bots WHERE id = ?", (bot_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no bot with id {bot_id}")
        return self._bot(row)

    def bots(self) -> list[BotRow]:
        return [self._bot(row) for row in self.conn.execute("SELECT * FROM bots ORDER BY id")]

    # --- tournaments -------------------------------------------------------------------------------
    def create_tournament(self, *, name: str, game: str, variant: str, settings: dict[str, Any], format: str,
                          table_size: int, rounds: int, duplicate: bool, seed: int, time_control: dict[str, Any],
                          options: dict[str, Any], bot_ids: Sequence[int],
                          matches: Sequence[ScheduledMatch]) -> int:
        """Insert a tournament, its entrants and all its matches as pending, in one transaction."""
        settings_json = json.dumps(settings, sort_keys=True)
        with self.transaction():
            cursor = self.conn.execute(
                "INSERT INTO tournaments (name, game, variant, settings, format, table_size, rounds, duplicate, seed,"
                " time_control, options, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'created', ?)",
                (name, game, variant, settings_json, format, table_size, rounds, int(duplicate), seed,
                 json.dumps(time_control, sort_keys=True), json.dumps(options, sort_keys=True), time.time()))
            tid = int(cursor.lastrowid or 0)
            self.conn.executemany("INSERT INTO tournament_bots (tournament_id, position, bot_id) VALUES (?, ?, ?)",
                                  [(tid, i, bot_id) for i, bot_id in enumerate(bot_ids)])
            for position, match in enumerate(matches):
                cursor = self.conn.execute(
                    "INSERT INTO matches (tournament_id, position, round, deal, rotation, game, variant, settings,"
                    " seed, num_players, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')",
                    (tid, position, match.round, match.deal, match.rotation, game, variant, settings_json,
                     match.seed, len(match.seats)))
                match_id = cursor.lastrowid
                self.conn.executemany("INSERT INTO match_seats (match_id, seat, bot_id) VALUES (?, ?, ?)",
                                      [(match_id, seat, bot_id) for seat, bot_id in enumerate(match.seats)])
            self.conn.execute("INSERT INTO tournament_stats (tournament_id, pending, done, failed) VALUES (?, ?, 0, 0)",
                              (tid, len(matches)))
        return tid

    @staticmethod
    def _tournament(row: sqlite3.Row) -> TournamentRow:
        return TournamentRow(row["id"], row["name"], row["game"], row["variant"], json.loads(row["settings"]),
                             row["format"], row["table_size"], row["rounds"], bool(row["duplicate"]), row["seed"],
                             json.loads(row["time_control"]), json.loads(row["options"]), row["status"],
                             row["runner_pid"], row["created_at"], row["finished_at"])

    def tournament(self, tid: int) -> TournamentRow:
        row = self.conn.execute("SELECT * FROM tournaments WHERE id = ?", (tid,)).fetchone()
        if row is None:
            raise NotFoundError(f"no tournament {tid} in {self.path}")
        return self._tournament(row)

    def tournaments(self) -> list[TournamentRow]:
        return [self._tournament(row) for row in self.conn.execute("SELECT * FROM tournaments ORDER BY id")]

    def tournament_bots(self, tid: int) -> list[BotRow]:
        rows = self.conn.execute("SELECT bots.* FROM tournament_bots JOIN bots ON bots.id = tournament_bots.bot_id"
                                 " WHERE tournament_id = ? ORDER BY position", (tid,))
        return [self._bot(row) for row in rows]

    def match_counts(self, tid: int) -> dict[str, int]:
        """Matches of a tournament by status (``pending``, ``done``, ``failed``)."""
        counts = {"pending": 0, "done": 0, "failed": 0}
        if self.has_stats:
            row = self.conn.execute("SELECT pending, done, failed FROM tournament_stats WHERE tournament_id = ?",
                                    (tid,)).fetchone()
            return counts if row is None else {"pending": row[0], "done": row[1], "failed": row[2]}
        for row in self.conn.execute("SELECT status, COUNT(*) FROM matches WHERE tournament_id = ? GROUP BY status",
                                     (tid,)):
            counts[row[0]] = row[1]
        return counts

    def set_tournament_status(self, tid: int, status: str, *, runner_pid: int | None = None) -> None:
        finished = time.time() if status == "finished" else None
        with self.transaction():
            self.conn.execute("UPDATE tournaments SET status = ?, runner_pid = ?, finished_at = ? WHERE id = ?",
                              (status, runner_pid, finished, tid))

    def delete_tournament(self, tid: int) -> int:
        """Delete a tournament, its entrants and its matches with their seats, rating history and
        luck reports (a ladder: its entrants' states and its status too), in one transaction;
        returns how many matches went.  Ratings must be recomputed after."""
        tournament = self.tournament(tid)
        with self.transaction():
            ids = "SELECT id FROM matches WHERE tournament_id = ?"
            self.conn.execute(f"DELETE FROM rating_history WHERE match_id IN ({ids})", (tid,))
            self.conn.execute(f"DELETE FROM match_seats WHERE match_id IN ({ids})", (tid,))
            self.conn.execute(f"DELETE FROM match_luck WHERE match_id IN ({ids})", (tid,))
            deleted = self.conn.execute("DELETE FROM matches WHERE tournament_id = ?", (tid,)).rowcount
            self.conn.execute("DELETE FROM tournament_bots WHERE tournament_id = ?", (tid,))
            self.conn.execute("DELETE FROM tournament_stats WHERE tournament_id = ?", (tid,))
            self.conn.execute("DELETE FROM tournament_bot_stats WHERE tournament_id = ?", (tid,))
            self.conn.execute("DELETE FROM ladder_entrants WHERE tournament_id = ?", (tid,))
            self.conn.execute("DELETE FROM ladder_status WHERE tournament_id = ?", (tid,))
            self.conn.execute("DELETE FROM tournaments WHERE id = ?", (tid,))
            league_stats.rebuild(self.conn, tournament.game, tournament.variant)
        return int(deleted)

    # --- matches ----------------------------------------------------------------------------------
    def _match(self, row: sqlite3.Row, seats: list[sqlite3.Row]) -> MatchRow:
        faults = tuple(s["faults"] for s in seats) if row["status"] == "done" else None
        return MatchRow(
            id=row["id"], tournament_id=row["tournament_id"], position=row["position"], round=row["round"],
            deal=row["deal"], rotation=row["rotation"], game=row["game"], variant=row["variant"],
            settings=json.loads(row["settings"]), seed=row["seed"], num_players=row["num_players"],
            status=row["status"], bot_ids=tuple(s["bot_id"] for s in seats), termination=row["termination"],
            reason=row["reason"], scores=_tuple(_loads(row["scores"])), ranking=_tuple(_loads(row["ranking"])),
            faults=faults, forfeited=_tuple(_loads(row["forfeited"])), duration_s=row["duration_s"],
            finished_at=row["finished_at"], attempts=row["attempts"])

    def _seats(self, match_ids: Sequence[int]) -> dict[int, list[sqlite3.Row]]:
        seats: dict[int, list[sqlite3.Row]] = {m: [] for m in match_ids}
        for start in range(0, len(match_ids), 500):
            chunk = match_ids[start:start + 500]
            marks = ",".join("?" * len(chunk))
            for row in self.conn.execute(f"SELECT * FROM match_seats WHERE match_id IN ({marks})"
                                         " ORDER BY match_id, seat", chunk):
                seats[row["match_id"]].append(row)
        return seats

    def _matches(self, sql: str, params: Sequence[Any]) -> list[MatchRow]:
        rows = self.conn.execute(sql, params).fetchall()
        seats = self._seats([row["id"] for row in rows])
        return [self._match(row, seats[row["id"]]) for row in rows]

    def match(self, match_id: int) -> MatchRow:
        found = self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id = ?", (match_id,))
        if not found:
            raise NotFoundError(f"no match {match_id} in {self.path}")
        return found[0]

    def match_record(self, match_id: int) -> MatchRecord | None:
        """The full record (moves included) of a played match, else ``None``."""
        row = self.conn.execute(f"SELECT record, {', '.join(_ROW_RESULT)} FROM matches WHERE id = ?",
                                (match_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no match {match_id} in {self.path}")
        if row["record"] is None:
            return None
        try:
            return decode_record(row["record"], _row_result(row))
        except EngineMismatchError as error:
            raise StorageError(f"match {match_id} in {self.path}: {error}") from None
        except (ValueError, zlib.error) as error:
            raise StorageError(f"match {match_id} in {self.path} has a damaged record ({error}); "
                               + INTEGRITY_HINT.format(path=self.path)) from None

    def unfinished_matches(self, tid: int) -> list[MatchRow]:
        """The tournament's matches still to play (pending or failed), in schedule order."""
        return self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE tournament_id = ? AND status != 'done'"
                             " ORDER BY id", (tid,))

    @staticmethod
    def _match_filter(tournament_id: int | None, game: str | None, variant: str | None, bot_id: int | None,
                      status: str | None, faults: bool | None, before_id: int | None = None,
                      after_id: int | None = None, *, counting: bool = False) -> tuple[str, list[Any]]:
        where: list[str] = []
        params: list[Any] = []
        for condition, bound in (("id < ?", before_id), ("id > ?", after_id)):
            if bound is not None:
                where.append(condition)
                params.append(bound)
        for column, value in (("tournament_id", tournament_id), ("game", game), ("variant", variant),
                              ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if bot_id is not None:  # a list walks ids newest first and looks at each one's seats; a count
            # walks the bot's seats (so a list stops after a page, a count after its cap)
            where.append("id IN (SELECT match_id FROM match_seats WHERE bot_id = ?)" if counting else
                         "EXISTS (SELECT 1 FROM match_seats b WHERE b.match_id = matches.id AND +b.bot_id = ?)")
            params.append(bot_id)
        if faults is not None:
            where.append(("" if faults else "NOT ") + "EXISTS (SELECT 1 FROM match_seats s"
                         " WHERE s.match_id = matches.id AND s.faults > 0)")
        return (" WHERE " + " AND ".join(where) if where else ""), params

    def matches(self, *, tournament_id: int | None = None, game: str | None = None, variant: str | None = None,
                bot_id: int | None = None, status: str | None = None, faults: bool | None = None,
                limit: int | None = None, offset: int = 0, newest_first: bool = False, before_id: int | None = None,
                after_id: int | None = None) -> list[MatchRow]:
        """Matches filtered by any of the given fields, in id order.

        ``faults``: ``True`` only matches where some seat faulted, ``False`` only those without.
        ``before_id`` / ``after_id``: only ids below / above it (keyset paging: a deep page costs
        what the first does, where ``offset`` reads every row it skips).
        """
        where, params = self._match_filter(tournament_id, game, variant, bot_id, status, faults, before_id, after_id)
        sql = f"SELECT {_MATCH_COLUMNS} FROM matches" + where
        sql += " ORDER BY id DESC" if newest_first else " ORDER BY id"
        if limit is not None:
            sql += f" LIMIT {int(limit)} OFFSET {int(offset)}"
        return self._matches(sql, params)

    def count_matches(self, *, tournament_id: int | None = None, game: str | None = None,
                      variant: str | None = None, bot_id: int | None = None, status: str | None = None,
                      faults: bool | None = None, before_id: int | None = None, cap: int | None = None) -> int:
        """How many matches :meth:`matches` would list with these filters and no limit.

        Filtered by tournament and status alone, it is read from the running totals.  Otherwise
        ``cap`` stops the count past ``cap`` rows (the answer is then ``cap + 1``: "more than cap").
        """
        if (self.has_stats and game is None and variant is None and bot_id is None and faults is None
                and before_id is None):
            columns = "pending + done + failed" if status is None else status if status in _STATUSES else "0"
            sql = f"SELECT COALESCE(SUM({columns}), 0) FROM tournament_stats"
            if tournament_id is None:
                return int(self.conn.execute(sql).fetchone()[0])
            return int(self.conn.execute(sql + " WHERE tournament_id = ?", (tournament_id,)).fetchone()[0])
        where, params = self._match_filter(tournament_id, game, variant, bot_id, status, faults, before_id,
                                           counting=True)
        limit = "" if cap is None else f" LIMIT {int(cap) + 1}"
        return int(self.conn.execute(f"SELECT COUNT(*) FROM (SELECT 1 FROM matches{where}{limit})",
                                     params).fetchone()[0])

    def store_result(self, match_id: int, record: MatchRecord) -> bool:
        """Commit a finished match atomically; ``False`` (and nothing written) if it was already done.

        :raises StorageError: if the record does not fit the scheduled match.
        """
        outcome = self.store_results([(match_id, record)])[0]
        if isinstance(outcome, StorageError):
            raise outcome
        return outcome

    def store_results(self, results: Sequence[tuple[int, MatchRecord] | tuple[int, MatchRecord, bytes | None]
                                        | tuple[int, MatchRecord, bytes | None, str | None]]
                      ) -> list[bool | StorageError]:
        """Commit finished matches in one transaction: per match, ``True`` if stored now,
        ``False`` if it was already done, or the error that kept it out (nothing of it written).

        A result may carry its record already encoded as stored (``encode_record(record,
        result_in_row=True)``, which the executors make on their workers); else it is encoded here.
        Likewise its luck report (:func:`referee.luck.report_json`), else measured here; a
        match whose luck cannot be measured is stored without it.

        Each match is guarded by its own row (``UPDATE ... WHERE status != 'done'``), so a
        result delivered twice, in one batch or in two, is stored once.  Every result of the
        batch is durable when this returns; an exception (a database error) rolls the whole
        batch back, and none of it is stored.
        """
        prepared: list[tuple[int, MatchRecord, tuple[Any, ...] | StorageError, tuple[str, str, str] | None]] = []
        for match_id, record, *extra in results:  # compress and measure before taking the write lock
            try:
                values: tuple[Any, ...] | StorageError = _result_values(match_id, record, extra[0] if extra else None)
            except StorageError as error:
                values = error
            report = extra[1] if len(extra) > 1 else luck.report_json(record)
            prepared.append((match_id, record, values, None if report is None else _luck_values(report)))
        outcomes: list[bool | StorageError] = []
        if not prepared:
            return outcomes
        with self.transaction():
            for match_id, record, values, luck_values in prepared:
                outcome = values if isinstance(values, StorageError) else self._store_one(match_id, record, values)
                if outcome is True and luck_values is not None:
                    self.conn.execute("INSERT OR IGNORE INTO match_luck (match_id, estimator, luck, report)"
                                      " VALUES (?, ?, ?, ?)", (match_id, *luck_values))
                outcomes.append(outcome)
        return outcomes

    def store_luck(self, match_id: int, report: str) -> bool:
        """Keep a played match's luck report (:func:`referee.luck.report_json`) if that estimator
        version has none for it yet; ``False`` when it had one (reports are never rewritten)."""
        with self.transaction():
            cursor = self.conn.execute("INSERT OR IGNORE INTO match_luck (match_id, estimator, luck, report)"
                                       " VALUES (?, ?, ?, ?)", (match_id, *_luck_values(report)))
            return cursor.rowcount == 1

    def luck_report(self, match_id: int, estimator: str | None = None) -> luck.LuckReport | None:
        """A match's luck report: from ``estimator`` (``"game/version"``), or the newest version
        stored; ``None`` when it has none (or the file predates schema 12)."""
        if not self.has_luck:
            return None
        row = self.conn.execute(
            "SELECT report FROM match_luck WHERE match_id = ? AND (? IS NULL OR estimator = ?)"
            f" ORDER BY {NEWEST_LUCK_FIRST} LIMIT 1",
            (match_id, estimator, estimator)).fetchone()
        if row is None:
            return None
        try:
            return luck.LuckReport.from_json(row[0])
        except ValueError:
            return None

    def matches_without_luck(self, estimator: str, *, after_id: int = 0, limit: int = 1000) -> list[int]:
        """Played matches of ``estimator``'s game with no report from that version, by id."""
        game = estimator.split("/", 1)[0]
        return [row[0] for row in self.conn.execute(
            "SELECT id FROM matches WHERE game = ? AND status = 'done' AND id > ? AND NOT EXISTS"
            " (SELECT 1 FROM match_luck WHERE match_id = matches.id AND estimator = ?) ORDER BY id LIMIT ?",
            (game, after_id, estimator, limit))]

    def _store_one(self, match_id: int, record: MatchRecord, values: tuple[Any, ...]) -> bool | StorageError:
        """One result inside :meth:`store_results`' transaction; checks before it writes anything."""
        row = self.conn.execute("SELECT status, num_players, game, variant, tournament_id FROM matches WHERE id = ?",
                                (match_id,)).fetchone()
        if row is None:
            return NotFoundError(f"no match {match_id} in {self.path}")
        if row["status"] == "done":
            return False
        n = len(record.players)
        if row["num_players"] != n:
            return StorageError(f"match {match_id} has {row['num_players']} seats but the record {n} players")
        finished = time.time()
        cursor = self.conn.execute(
            "UPDATE matches SET status = 'done', termination = ?, reason = ?, scores = ?, ranking = ?,"
            " engine_ranking = ?, faults = ?, forfeited = ?, record = ?, duration_s = ?, attempts = attempts + 1,"
            " finished_at = ? WHERE id = ? AND status != 'done'", (*values, finished, match_id))
        if cursor.rowcount != 1:  # cannot happen under BEGIN IMMEDIATE; kept as the guard
            raise StorageError(f"match {match_id} changed while being stored")
        faults = [0] * n
        for fault in record.faults:
            faults[fault.seat] += 1
        self.conn.executemany(
            "UPDATE match_seats SET score = ?, rank = ?, faults = ?, forfeited = ? WHERE match_id = ? AND seat = ?",
            [(record.scores[seat], record.ranking[seat], faults[seat], int(seat in record.forfeited), match_id,
              seat) for seat in range(n)])
        bot_ids = [r[0] for r in self.conn.execute("SELECT bot_id FROM match_seats WHERE match_id = ? ORDER BY seat",
                                                   (match_id,))]
        results = league_stats.bot_results(bot_ids, record.scores, record.ranking, faults)
        league_stats.add_match(self.conn, row["game"], row["variant"], match_id, bot_ids, record.ranking, results)
        league_stats.count_status(self.conn, row["tournament_id"], row["status"], "done")
        league_stats.count_entrant_match(self.conn, row["tournament_id"], bot_ids, finished)
        league_stats.count_tournament_match(self.conn, row["tournament_id"], results)
        return True

    def mark_failed(self, match_id: int, reason: str, record: MatchRecord | None = None) -> None:
        """Note that a match could not be played (it stays to be played on resume)."""
        with self.transaction():
            row = self.conn.execute("SELECT status, tournament_id FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None or row["status"] == "done":
                return
            self.conn.execute(
                "UPDATE matches SET status = 'failed', reason = ?, record = ?, attempts = attempts + 1,"
                " finished_at = ? WHERE id = ? AND status != 'done'",
                (reason[:500], None if record is None else encode_record(record), time.time(), match_id))
            league_stats.count_status(self.conn, row["tournament_id"], row["status"], "failed")

    def done_matches(self, game: str, variant: str, *, after_id: int = 0) -> list[MatchRow]:
        """Played matches of one game and variant with ``id > after_id``, in id order (for ratings)."""
        return self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE game = ? AND variant = ? AND status = 'done'"
                             " AND id > ? ORDER BY id", (game, variant, after_id))

    def count_done(self, game: str, variant: str, *, up_to_id: int) -> int:
        """Played matches of one game with ``id <= up_to_id``.

        With the running totals, all played ones minus those above ``up_to_id``: a ladder rates
        only up to its lowest match in play, so ``up_to_id`` is nearly always close to the
        largest id, and counting below it would scan the whole game.  One statement, so both
        numbers come from the same snapshot of a file another process writes.
        """
        if self.has_stats:
            row = self.conn.execute(
                "SELECT COALESCE((SELECT matches FROM game_stats WHERE game = ? AND variant = ?), 0)"
                " - (SELECT COUNT(*) FROM matches WHERE game = ? AND variant = ? AND status = 'done' AND id > ?)",
                (game, variant, game, variant, up_to_id)).fetchone()
        else:
            row = self.conn.execute("SELECT COUNT(*) FROM matches WHERE game = ? AND variant = ? AND status = 'done'"
                                    " AND id <= ?", (game, variant, up_to_id)).fetchone()
        return int(row[0])

    def game_variants(self) -> list[tuple[str, str]]:
        """Every (game, variant) with a played match."""
        return [(game, variant) for game, variant, _, _ in self.game_totals()]

    # --- running totals (arena.league.stats) ------------------------------------------------------------
    def game_totals(self) -> list[tuple[str, str, int, int]]:
        """``(game, variant, played matches, largest played id)`` of every game with a played match."""
        sql = ("SELECT game, variant, matches, last_match_id FROM game_stats WHERE matches > 0" if self.has_stats else
               "SELECT game, variant, COUNT(*), MAX(id) FROM matches WHERE status = 'done' GROUP BY game, variant")
        return sorted((r[0], r[1], int(r[2]), int(r[3])) for r in self.conn.execute(sql))

    def game_signature(self, game: str, variant: str) -> tuple[int, int]:
        """``(played matches, largest played id)`` of one game: its ratings change exactly when this does."""
        if self.has_stats:
            row = self.conn.execute("SELECT matches, last_match_id FROM game_stats WHERE game = ? AND variant = ?",
                                    (game, variant)).fetchone()
        else:
            row = self.conn.execute("SELECT COUNT(*), COALESCE(MAX(id), 0) FROM matches WHERE game = ? AND variant = ?"
                                    " AND status = 'done'", (game, variant)).fetchone()
        return (0, 0) if row is None else (int(row[0]), int(row[1]))

    def bot_stats(self, game: str, variant: str) -> dict[int, league_stats.BotStats]:
        """Per bot id, its statistics over the played matches of one game."""
        if not self.has_stats:
            return league_stats.compute(self.conn, game, variant).bot_stats()
        return {r[0]: league_stats.BotStats(r[1], r[2], r[3], r[4]) for r in self.conn.execute(
            "SELECT bot_id, matches, wins, score_sum, faults FROM bot_stats WHERE game = ? AND variant = ?",
            (game, variant))}

    def pair_stats(self, game: str, variant: str) -> dict[tuple[int, int], tuple[int, int]]:
        """``(bot, other) -> (matches, half points of bot)`` over the played matches of one game."""
        if not self.has_stats:
            return {pair: (n, points) for pair, (n, points) in league_stats.compute(self.conn, game, variant).pairs.items()}
        return {(r[0], r[1]): (r[2], r[3]) for r in self.conn.execute(
            "SELECT bot_id, other_id, matches, half_points FROM pair_stats WHERE game = ? AND variant = ?",
            (game, variant))}

    def tournament_bot_stats(self, tid: int) -> dict[int, league_stats.TournamentBotStats]:
        """Per bot id, its statistics over the played matches of tournament ``tid``: a lookup of
        one row per bot, however many matches the tournament (a ladder) has played."""
        sql = ("SELECT bot_id, matches, wins, rank_sum, score_sum, faults FROM tournament_bot_stats"
               " WHERE tournament_id = ?" if self.has_tournament_totals else league_stats.COMPUTE_TOURNAMENT_BOTS)
        return {r[0]: league_stats.TournamentBotStats(*r[1:]) for r in self.conn.execute(sql, (tid,))}

    def bot_games(self, bot_id: int) -> list[tuple[str, str]]:
        """Every (game, variant) in which the bot played a match."""
        if not self.has_stats:
            return [(r[0], r[1]) for r in self.conn.execute(
                "SELECT DISTINCT m.game, m.variant FROM match_seats s JOIN matches m ON m.id = s.match_id"
                " WHERE s.bot_id = ? AND m.status = 'done' ORDER BY m.game, m.variant", (bot_id,))]
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT game, variant FROM bot_stats WHERE bot_id = ? ORDER BY game, variant", (bot_id,))]


_STATUSES = ("pending", "done", "failed")


def _tuple(value: Any) -> Any:
    return None if value is None else tuple(value)


def _luck_values(report: str) -> tuple[str, str, str]:
    """The ``match_luck`` columns of a report (estimator, per-seat luck, the report itself)."""
    data = json.loads(report)
    return data["estimator"], json.dumps(data["luck"], separators=(",", ":")), report


def _result_values(match_id: int, record: MatchRecord, stored: bytes | None = None) -> tuple[Any, ...]:
    """The ``matches`` columns of a finished match, from termination to duration.

    :raises StorageError: if the record has no complete ranking and scores.
    """
    n = len(record.players)
    if n == 0 or len(record.ranking) != n or len(record.scores) != n:
        raise StorageError(f"match {match_id}: the record has no complete ranking and scores")
    return (record.termination, record.reason, json.dumps(record.scores), json.dumps(record.ranking),
            None, None,  # schema 4 keeps the engine ranking and faults in the record alone
            json.dumps(record.forfeited), stored or encode_record(record, result_in_row=True), record.duration_s)


_ROW_RESULT = ("termination", "reason", "scores", "ranking", "forfeited", "duration_s")
"""The record's fields a played match's row holds too (for lists and pages): schema 4's
records leave them out (:func:`encode_record` with ``result_in_row``)."""


def _row_result(row: sqlite3.Row) -> dict[str, Any]:
    """The :data:`_ROW_RESULT` fields of a ``matches`` row, as in :meth:`MatchRecord.to_json`."""
    return {name: row[name] if name in ("termination", "reason", "duration_s") else _loads(row[name])
            for name in _ROW_RESULT}


def _execute_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated statements inside the current transaction (``executescript`` would commit)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


# --- compact records ---------------------------------------------------------------------------------
_COMPACT_MAGIC = b"AR2"
"""Prefix of a schema-2 compact record: the rest is zlib-compressed JSON (moves by column)."""
_RECORD_MAGIC = b"AR4"
"""Prefix of a schema-4 record: zlib with the preset dictionary :data:`_ZDICT_AR4`, and the
seats and action texts left to the engine when it gives them back."""
_ZDICT_AR4 = (
    b"process_exit startup invalid error forfeited no answer within index of actions deadline s exceeded"
    b" after hands rounds games wins team seat totals points gin_rummy standard oklahoma straight jass"
    b" schieber yaniv yoninkan yams reroll score ones twos threes fours fives sixes three_kind four_kind"
    b" full_house small_straight large_straight chance yahtzee"
    b'{"match_id":"","game":"yahtzee","variant":"yahtzee","num_players":2,"settings":{},"seed":,'
    b'"players":["@1.0","@1.0"],"faults":[{"seat":0,"kind":"timeout","detail":"","decision":}],'
    b'"forfeited":[],"scores":[.0,.0],"ranking":[0,1],"engine_ranking":[0,1],"termination":"normal",'
    b'"reason":"totals seat 0 , seat 1 ","duration_s":0.,"bank_used":[0.0,0.0],'
    b'"time_control":{"move_timeout":1.0,"time_bank":10.0,"max_faults":3,"startup_timeout":10.0},'
    b'"sandbox":{"mode":"bwrap","limits":{"memory_mb":1024,"cpu_seconds":600,"open_files":256,'
    b'"file_size_mb":64,"processes":128,"tmp_mb":64}},"format":1,'
    b'"moves_by_column":{"status":{},"comment":{},"engine_crc":,"index":[],"elapsed_us":[')
"""zlib's preset dictionary of :data:`_RECORD_MAGIC` records: the field names and the values
most records share, which zlib then refers to instead of spelling out.  Frozen: a record is
decoded with the dictionary it was compressed with, so a new dictionary needs a new prefix."""


class EngineMismatchError(ValueError):
    """A stored record's moves are no longer what the engine plays from its seed, so the
    action texts left to the engine cannot be given back (the engine changed since)."""


def reencoded(row: sqlite3.Row) -> tuple[bytes, bool] | None:
    """A row's older record in schema 4's format (the migration's step for one match), and
    whether the row holds its result (a played match whose row agrees with its record: the
    record then leaves the result out).  ``None`` for a record that is new already or does not
    decode.  ``row`` has the columns ``status``, ``record`` and :data:`_ROW_RESULT`."""
    stored = row["record"]
    if isinstance(stored, bytes) and stored.startswith(_RECORD_MAGIC):
        return None
    try:
        record = decode_record(stored)
    except (ValueError, zlib.error):
        return None
    in_row = row["status"] == "done" and json.dumps(_row_result(row)) == json.dumps(
        {name: getattr(record, name) for name in _ROW_RESULT})
    return encode_record(record, result_in_row=in_row), in_row


def encode_record(record: MatchRecord, *, result_in_row: bool = False) -> bytes:
    """The record as stored: :meth:`MatchRecord.to_json` with the moves by column, compressed
    with a preset dictionary of what records share.

    Indices and times are lists (times in whole microseconds, exact for the referee's
    millisecond times rounded to 3 decimals); statuses other than ``ok`` and non-empty comments
    are sparse maps from move number.  Seats and action texts are what the engine plays from
    the seed and indices in every record the referee writes: then only their checksum is kept
    (``engine_crc``) and :func:`decode_record` asks the engine again; a record the engine does
    not replay keeps them as lists.  With ``result_in_row``, the fields of :data:`_ROW_RESULT`
    are left out: the match's row holds them.  :func:`decode_record` gives back an equal record.
    """
    moves = record.moves
    data = dataclasses.replace(record, moves=[]).to_json()  # the moves go by column, read straight from them
    del data["moves"]
    if result_in_row:
        for name in _ROW_RESULT:
            del data[name]
    plays = [(m.seat, m.action) for m in moves]
    columns: dict[str, Any] = {
        "status": {str(i): m.status.value for i, m in enumerate(moves) if m.status is not MoveStatus.OK},
        "comment": {str(i): m.comment for i, m in enumerate(moves) if m.comment}}
    if moves and _engine_agrees(data, [m.index for m in moves], plays):
        columns["engine_crc"] = _plays_crc(plays)
    else:
        columns["seat"], columns["action"] = [m.seat for m in moves], [m.action for m in moves]
    columns["index"] = [m.index for m in moves]
    columns["elapsed_us"] = [round(m.elapsed_ms * 1000) for m in moves]
    data["moves_by_column"] = columns
    compressor = zlib.compressobj(9, zdict=_ZDICT_AR4)
    return _RECORD_MAGIC + compressor.compress(json.dumps(data, separators=(",", ":")).encode()) + compressor.flush()


def decode_record(stored: bytes | str, row_result: dict[str, Any] | None = None) -> MatchRecord:
    """A stored record: schema 4's, schema 2's compact one, or schema 1's JSON text.

    ``row_result``: the :data:`_ROW_RESULT` fields of the match's row, for a record that
    left them out.

    :raises EngineMismatchError: if the engine no longer plays the record's moves.
    :raises ValueError: if it is none of those, or its fields are not a record's.
    :raises zlib.error: if the compressed bytes are damaged.
    """
    if isinstance(stored, str):
        return _record_from_text(stored)
    if stored.startswith(_RECORD_MAGIC):
        decompressor = zlib.decompressobj(zdict=_ZDICT_AR4)
        text = decompressor.decompress(stored[len(_RECORD_MAGIC):]) + decompressor.flush()
        if not decompressor.eof or decompressor.unused_data:
            raise zlib.error("the compressed record is cut short or has bytes after its end")
    elif stored.startswith(_COMPACT_MAGIC):
        text = zlib.decompress(stored[len(_COMPACT_MAGIC):])
    else:
        raise ValueError("not a compact match record")
    data = json.loads(text)
    if isinstance(data, dict) and "termination" not in data:
        if row_result is None:
            raise ValueError("the record's result is in its match row, which was not given")
        data.update(row_result)
    columns = data.pop("moves_by_column", None)
    if not isinstance(columns, dict):
        raise ValueError("compact match record without moves")
    try:
        status, comment, indices = columns["status"], columns["comment"], columns["index"]
        if "engine_crc" in columns:
            plays = _engine_plays(data, indices)
            if len(plays) != len(indices) or _plays_crc(plays) != columns["engine_crc"]:
                raise EngineMismatchError(
                    "its moves are not what this arena's engine plays from its seed (the engine changed since "
                    "it was stored), so its action texts cannot be given back")
            seats, actions = [seat for seat, _ in plays], [action for _, action in plays]
        else:
            seats, actions = columns["seat"], columns["action"]
        data["moves"] = [{"seat": seat, "index": index, "action": action, "elapsed_ms": elapsed / 1000,
                          "status": status.get(str(i), MoveStatus.OK.value), "comment": comment.get(str(i), "")}
                         for i, (seat, index, action, elapsed) in enumerate(zip(
                             seats, indices, actions, columns["elapsed_us"], strict=True))]
    except EngineMismatchError:
        raise
    except (KeyError, TypeError, AttributeError, ValueError) as error:
        raise ValueError(f"compact match record with malformed moves ({type(error).__name__})") from None
    return MatchRecord.from_json(data)


def _engine_moves(data: dict[str, Any], indices: Sequence[int]) -> Iterator[tuple[int, str]]:
    """``(seat, action text)`` of each move the engine plays for ``indices`` from the seed of the
    record ``data`` (:meth:`MatchRecord.to_json`); ends early at an index it refuses."""
    from referee.games import make_game  # the engines are loaded only where records are read or written

    game = make_game(data["game"], variant=data["variant"], num_players=data["num_players"],
                     settings=data["settings"])
    state = game.new_initial_state(data["seed"])
    for index in indices:
        if state.is_terminal() or not isinstance(index, int):
            return
        legal = state.legal_actions()
        if not 0 <= index < len(legal):
            return
        yield state.current_player(), str(legal[index])
        state.apply(legal[index])


def _engine_agrees(data: dict[str, Any], indices: list[int], plays: list[tuple[int, str]]) -> bool:
    """Whether the engine plays exactly ``plays`` for ``indices`` (stops at the first difference)."""
    try:
        derived = _engine_moves(data, indices)
        return all(next(derived, None) == play for play in plays)
    except Exception:  # noqa: BLE001 - a record the engine cannot replay keeps its texts
        return False


def _engine_plays(data: dict[str, Any], indices: list[int]) -> list[tuple[int, str]]:
    """What the engine plays for ``indices``, as far as it accepts them.

    :raises EngineMismatchError: if the engine fails on the record.
    """
    try:
        return list(_engine_moves(data, indices))
    except Exception as error:  # noqa: BLE001 - an engine that fails on a stored record is a finding
        raise EngineMismatchError(f"this arena's engine fails on its moves ({type(error).__name__}: {error})") \
            from None


def _plays_crc(plays: Sequence[tuple[int, str]]) -> int:
    return zlib.crc32("\n".join(f"{seat} {action}" for seat, action in plays).encode())


def _record_from_text(text: str) -> MatchRecord:
    return MatchRecord.from_json(json.loads(text))


class ConnectionPool:
    """Open connections to one database file, lent to one request at a time.

    Opening a :class:`Database` runs its schema check and PRAGMAs, too costly for every web
    request; a pool keeps the connections it opened and lends an idle one, opening another only
    when every one is lent (a connection serves one thread at a time).
    """

    def __init__(self, open_one: Callable[[], Database]) -> None:
        """Opens the first connection now, so a missing or foreign file fails at start-up."""
        self._open = open_one
        first = open_one()
        self._lock = threading.Lock()
        self._idle = [first]
        self._all = [first]

    @contextmanager
    def borrow(self) -> Iterator[Database]:
        with self._lock:
            db = self._idle.pop() if self._idle else None
        if db is None:
            db = self._open()
            with self._lock:
                self._all.append(db)
        try:
            yield db
        finally:
            with self._lock:
                self._idle.append(db)

    def close(self) -> None:
        with self._lock:
            for db in self._all:
                db.close()
            self._all.clear()
            self._idle.clear()
