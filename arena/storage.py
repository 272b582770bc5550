"""The arena database: bots, tournaments, every match with its full record, and ratings.

One SQLite file in WAL mode.  Only the tournament's parent process writes (workers return
records to it), so there is a single writer.

**Crash safety.**  A tournament's matches are inserted as ``pending`` rows, with their seats
and seeds, in the same transaction that creates the tournament.  A finished match is
stored by one transaction that updates its row *only if it is not done yet* and fills in its
seats; so each result is committed atomically and at most once, and after a ``kill -9``
resuming simply runs the rows that are not ``done``.  Ratings are derived data: they are
recomputed from the stored results in match-id order (see :mod:`arena.ratings`).

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
    match_seats(match_id, seat, bot_id, score, rank, faults, forfeited)
    ratings(game, variant, bot_id, mu, sigma, matches)
    rating_history(match_id, bot_id, mu, sigma)        the rating after each match
    rating_state(game, variant, last_match_id, rated_count)
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

from referee.result import MatchRecord

SCHEMA_VERSION = 1
DEFAULT_DB = "arena.db"

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
CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    score REAL,
    rank INTEGER,
    faults INTEGER,
    forfeited INTEGER,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX seats_by_bot ON match_seats (bot_id);
CREATE TABLE ratings (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id)
);
CREATE TABLE rating_history (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (match_id, bot_id)
);
CREATE TABLE rating_state (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    last_match_id INTEGER NOT NULL,
    rated_count INTEGER NOT NULL,
    PRIMARY KEY (game, variant)
);
"""


class StorageError(Exception):
    """A database problem, told in one line (never a traceback)."""


class SchemaTooNewError(StorageError):
    """The file was written by a newer arena."""


class BotConflictError(StorageError):
    """A bot registered again under the same name and version but with other files."""


class NotFoundError(StorageError):
    """No tournament or match with that id."""


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


@dataclass(frozen=True)
class ScheduledMatch:
    """A match to insert as pending: seats are bot ids."""

    seats: tuple[int, ...]
    seed: int
    round: int
    deal: int
    rotation: int


_MATCH_COLUMNS = ("id, tournament_id, position, round, deal, rotation, game, variant, settings, seed, num_players,"
                  " status, termination, reason, scores, ranking, forfeited, duration_s, finished_at")
"""What a :class:`MatchRow` needs: the (large) record is read only by :meth:`Database.match_record`."""


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Database:
    """A connection to an arena database file, created with the current schema if new.

    :raises SchemaTooNewError: if the file's schema is newer than this arena knows.
    :raises StorageError: if the file is not an arena database or cannot be opened.
    """

    def __init__(self, path: str | os.PathLike[str], *, create: bool = True, read_only: bool = False) -> None:
        """With ``read_only`` the file is opened in SQLite's ``mode=ro`` (never created or
        written; WAL lets it read while a tournament writes), usable from any thread."""
        self.path = Path(path)
        self.read_only = read_only
        if (read_only or not create) and not self.path.exists():
            raise StorageError(f"no database at {self.path}")
        if self.path.parent and not self.path.parent.exists():
            raise StorageError(f"cannot create database {self.path}: folder {self.path.parent} does not exist")
        try:
            if read_only:
                uri = f"file:{quote(str(self.path.resolve()))}?mode=ro"
                self.conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0,
                                            check_same_thread=False)
                self.conn.execute("PRAGMA query_only=ON")
            else:
                self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=30.0)
                self.conn.execute("PRAGMA journal_mode=WAL")
                self.conn.execute("PRAGMA synchronous=FULL")
            self.conn.row_factory = sqlite3.Row
            self.conn.execute("PRAGMA foreign_keys=ON")
            self._check_schema()
        except sqlite3.DatabaseError as error:
            raise StorageError(f"{self.path} is not a usable arena database: {error}") from None

    def _check_schema(self) -> None:
        tables = {row[0] for row in self.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not tables and self.read_only:
            raise StorageError(f"{self.path} is not an arena database (it has no tables)")
        if not tables:
            with self.transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self.conn.execute(statement)
                self.conn.execute("INSERT INTO schema_version (version) VALUES (?)", (SCHEMA_VERSION,))
            return
        if "schema_version" not in tables:
            raise StorageError(f"{self.path} is an SQLite file but not an arena database")
        row = self.conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
        version = row[0] if row else None
        if version is None:
            raise StorageError(f"{self.path} has no schema version")
        if version > SCHEMA_VERSION:
            raise SchemaTooNewError(f"{self.path} uses database schema {version}, newer than this arena's "
                                    f"{SCHEMA_VERSION}; upgrade arena to read it")
        if version < SCHEMA_VERSION:  # no older schema has been released yet
            raise StorageError(f"{self.path} uses database schema {version}, which this arena cannot migrate")

    def close(self) -> None:
        self.conn.close()

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
                     manifest: str | None = None, address: str | None = None) -> BotRow:
        """The bot's row, inserted if this name and version are new.

        :raises BotConflictError: if ``name@version`` is registered with other files.
        """
        with self.transaction():
            row = self.conn.execute("SELECT * FROM bots WHERE name = ? AND version = ?", (name, version)).fetchone()
            if row is None:
                self.conn.execute(
                    "INSERT INTO bots (name, version, author, language, manifest, address, files_hash, registered_at)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, version, author, language, manifest, address, files_hash, time.time()))
                row = self.conn.execute("SELECT * FROM bots WHERE name = ? AND version = ?",
                                        (name, version)).fetchone()
            elif row["files_hash"] != files_hash:
                label = f"{name}@{version}" if version else name
                raise BotConflictError(f"bot {label} is already registered with different files; "
                                       f"give the changed bot a new version in its bot.toml")
        return self._bot(row)

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
        for row in self.conn.execute("SELECT status, COUNT(*) FROM matches WHERE tournament_id = ? GROUP BY status",
                                     (tid,)):
            counts[row[0]] = row[1]
        return counts

    def set_tournament_status(self, tid: int, status: str, *, runner_pid: int | None = None) -> None:
        finished = time.time() if status == "finished" else None
        with self.transaction():
            self.conn.execute("UPDATE tournaments SET status = ?, runner_pid = ?, finished_at = ? WHERE id = ?",
                              (status, runner_pid, finished, tid))

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
            finished_at=row["finished_at"])

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
        row = self.conn.execute("SELECT record FROM matches WHERE id = ?", (match_id,)).fetchone()
        if row is None:
            raise NotFoundError(f"no match {match_id} in {self.path}")
        return None if row["record"] is None else MatchRecord.from_json(json.loads(row["record"]))

    def unfinished_matches(self, tid: int) -> list[MatchRow]:
        """The tournament's matches still to play (pending or failed), in schedule order."""
        return self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE tournament_id = ? AND status != 'done'"
                             " ORDER BY id", (tid,))

    @staticmethod
    def _match_filter(tournament_id: int | None, game: str | None, variant: str | None, bot_id: int | None,
                      status: str | None, faults: bool | None) -> tuple[str, list[Any]]:
        where: list[str] = []
        params: list[Any] = []
        for column, value in (("tournament_id", tournament_id), ("game", game), ("variant", variant),
                              ("status", status)):
            if value is not None:
                where.append(f"{column} = ?")
                params.append(value)
        if bot_id is not None:
            where.append("id IN (SELECT match_id FROM match_seats WHERE bot_id = ?)")
            params.append(bot_id)
        if faults is not None:
            where.append(("" if faults else "NOT ") + "EXISTS (SELECT 1 FROM match_seats s"
                         " WHERE s.match_id = matches.id AND s.faults > 0)")
        return (" WHERE " + " AND ".join(where) if where else ""), params

    def matches(self, *, tournament_id: int | None = None, game: str | None = None, variant: str | None = None,
                bot_id: int | None = None, status: str | None = None, faults: bool | None = None,
                limit: int | None = None, offset: int = 0, newest_first: bool = False) -> list[MatchRow]:
        """Matches filtered by any of the given fields, in id order.

        ``faults``: ``True`` only matches where some seat faulted, ``False`` only those without.
        """
        where, params = self._match_filter(tournament_id, game, variant, bot_id, status, faults)
        sql = f"SELECT {_MATCH_COLUMNS} FROM matches" + where
        sql += " ORDER BY id DESC" if newest_first else " ORDER BY id"
        if limit is not None:
            sql += f" LIMIT {int(limit)} OFFSET {int(offset)}"
        return self._matches(sql, params)

    def count_matches(self, *, tournament_id: int | None = None, game: str | None = None,
                      variant: str | None = None, bot_id: int | None = None, status: str | None = None,
                      faults: bool | None = None) -> int:
        """How many matches :meth:`matches` would list with these filters and no limit."""
        where, params = self._match_filter(tournament_id, game, variant, bot_id, status, faults)
        return int(self.conn.execute("SELECT COUNT(*) FROM matches" + where, params).fetchone()[0])

    def store_result(self, match_id: int, record: MatchRecord) -> bool:
        """Commit a finished match atomically; ``False`` (and nothing written) if it was already done.

        :raises StorageError: if the record does not fit the scheduled match.
        """
        n = len(record.players)
        if n == 0 or len(record.ranking) != n or len(record.scores) != n:
            raise StorageError(f"match {match_id}: the record has no complete ranking and scores")
        faults = [0] * n
        for fault in record.faults:
            faults[fault.seat] += 1
        data = record.to_json()
        with self.transaction():
            row = self.conn.execute("SELECT status, num_players FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise NotFoundError(f"no match {match_id} in {self.path}")
            if row["status"] == "done":
                return False
            if row["num_players"] != n:
                raise StorageError(f"match {match_id} has {row['num_players']} seats but the record {n} players")
            cursor = self.conn.execute(
                "UPDATE matches SET status = 'done', termination = ?, reason = ?, scores = ?, ranking = ?,"
                " engine_ranking = ?, faults = ?, forfeited = ?, record = ?, duration_s = ?, attempts = attempts + 1,"
                " finished_at = ? WHERE id = ? AND status != 'done'",
                (record.termination, record.reason, json.dumps(record.scores), json.dumps(record.ranking),
                 json.dumps(record.engine_ranking), json.dumps(data["faults"]), json.dumps(record.forfeited),
                 json.dumps(data, sort_keys=True), record.duration_s, time.time(), match_id))
            if cursor.rowcount != 1:  # cannot happen under BEGIN IMMEDIATE; kept as the guard
                raise StorageError(f"match {match_id} changed while being stored")
            self.conn.executemany(
                "UPDATE match_seats SET score = ?, rank = ?, faults = ?, forfeited = ? WHERE match_id = ? AND seat = ?",
                [(record.scores[seat], record.ranking[seat], faults[seat], int(seat in record.forfeited), match_id,
                  seat) for seat in range(len(record.players))])
        return True

    def mark_failed(self, match_id: int, reason: str, record: MatchRecord | None = None) -> None:
        """Note that a match could not be played (it stays to be played on resume)."""
        with self.transaction():
            self.conn.execute(
                "UPDATE matches SET status = 'failed', reason = ?, record = ?, attempts = attempts + 1,"
                " finished_at = ? WHERE id = ? AND status != 'done'",
                (reason[:500], None if record is None else json.dumps(record.to_json(), sort_keys=True), time.time(),
                 match_id))

    def done_matches(self, game: str, variant: str, *, after_id: int = 0) -> list[MatchRow]:
        """Played matches of one game and variant with ``id > after_id``, in id order (for ratings)."""
        return self._matches(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE game = ? AND variant = ? AND status = 'done'"
                             " AND id > ? ORDER BY id", (game, variant, after_id))

    def count_done(self, game: str, variant: str, *, up_to_id: int) -> int:
        row = self.conn.execute("SELECT COUNT(*) FROM matches WHERE game = ? AND variant = ? AND status = 'done'"
                                " AND id <= ?", (game, variant, up_to_id)).fetchone()
        return int(row[0])

    def game_variants(self) -> list[tuple[str, str]]:
        """Every (game, variant) with a played match."""
        return [(r[0], r[1]) for r in self.conn.execute(
            "SELECT DISTINCT game, variant FROM matches WHERE status = 'done' ORDER BY game, variant")]


def _tuple(value: Any) -> Any:
    return None if value is None else tuple(value)
