"""The ladder's rows: entrants and their states, appended matches, the running process's status.

A ladder is a tournament row with ``options["kind"] == "ladder"`` (so the web pages, replays,
exports and rating recomputes read its matches as any tournament's).  Its entrants are in
``tournament_bots`` as well, plus a ``ladder_entrants`` row each with the state that
``arena ladder add|pause|resume|remove`` write from any terminal; the running process polls
them.  Its matches are appended as ``pending`` rows, one duplicate set at a time, and
stored by the run loop as any tournament's.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from arena.league.ratings import Rated, store_prior
from arena.league.storage import Database, ScheduledMatch, TournamentRow
from referee.games import game_class

STATES = ("active", "paused", "removed")
NEXT_STATES = {"active": ("paused", "removed"), "paused": ("active", "removed"), "removed": ("active",)}
"""The states an entrant may be set to from each: a removed one is out until it comes back
(resume, or add); pausing it would put it back in the ladder as if it had been paused."""
RATE_WINDOW_S = 60.0
"""Matches per minute, the ladder's and each entrant's, count the matches of this last stretch."""
STALE_S = 10.0
"""A heartbeat older than this (the process writes one a second) means no process runs the ladder."""
RECENT_CAP = 5000
""":func:`recent_matches` reads at most this many matches, whatever the rate."""


@dataclass(frozen=True)
class EntrantRow:
    """One entrant of a ladder as stored."""

    bot_id: int
    label: str
    state: str
    reason: str
    joined_at: float
    active_since: float
    """When it last became active: its fair share of matches is counted from then."""
    changed_at: float
    matches: int = 0
    """Its played matches of the ladder (a running total: schema 7)."""
    last_match_at: float | None = None
    """When its last played match of the ladder finished."""
    boss: bool = False
    """A reference bot ("boss", the config's ``bosses``): shown as such, never retired."""


@dataclass(frozen=True)
class StatusRow:
    """What the running process last said about a ladder."""

    pid: int | None
    started_at: float | None
    heartbeat: float | None
    in_flight: int
    per_minute: float
    note: str
    """Why it plays nothing, if it does not (too few active entrants, or a schedule it cannot
    make), else empty."""


def is_ladder(tournament: TournamentRow) -> bool:
    return tournament.options.get("kind") == "ladder"


def ladder_rating(ladder: TournamentRow) -> str:
    """The ladder's rating model: its options' ``rating``; ``"trueskill"`` if it has none (a
    ladder created before the key keeps the model it was rated with)."""
    rating = ladder.options.get("rating", "trueskill")
    return rating if rating in ("trueskill", "score") else "trueskill"


def table_needs(t: TournamentRow) -> int:
    """How many active entrants ladder ``t`` needs to seat a table: its fewest seats (the
    config's ``seats``), or one bot per team in a team game (a bot then fills its team)."""
    cls = game_class(t.game)
    if cls.teams:
        return len(cls.teams)
    return int(t.options.get("seats", [cls.min_players])[0])


def waiting_note(needed: int, active: int) -> str:
    """Why a ladder plays nothing with ``active`` active entrants, or ``""`` if it can play."""
    return f"waiting: needs at least {needed} active entrants, has {active}" if active < needed else ""


def ladders(db: Database) -> list[TournamentRow]:
    """Every ladder of the database, oldest first."""
    return [t for t in db.tournaments() if is_ladder(t)]


def entrants(db: Database, tid: int) -> list[EntrantRow]:
    """The ladder's entrants (removed ones included), in the order they joined, with their
    played matches: running totals, or (a read-only view of a schema-5 or 6 file) counted."""
    totals = ", e.matches, e.last_match_at" if db.has_entrant_totals else ""
    boss = "e.boss" if db.has_bosses else "0"
    rows = db.conn.execute(
        f"SELECT e.bot_id, b.name, b.version, e.state, e.reason, e.joined_at, e.active_since, e.changed_at, {boss}"
        f"{totals} FROM ladder_entrants e JOIN bots b ON b.id = e.bot_id WHERE e.tournament_id = ?"
        " ORDER BY e.joined_at, e.bot_id", (tid,)).fetchall()
    counted = {} if db.has_entrant_totals else _count_activity(db, tid)
    return [EntrantRow(r[0], f"{r[1]}@{r[2]}" if r[2] else r[1], r[3], r[4], r[5], r[6], r[7],
                       *(r[9:] if db.has_entrant_totals else counted.get(r[0], (0, None))), boss=bool(r[8]))
            for r in rows]


def bosses(db: Database, tid: int) -> set[int]:
    """The bot ids of the ladder's reference bots (none in a file older than schema 14)."""
    if not db.has_bosses:
        return set()
    return {r[0] for r in db.conn.execute("SELECT bot_id FROM ladder_entrants WHERE tournament_id = ? AND boss = 1",
                                          (tid,))}


def set_boss(db: Database, tid: int, bot_id: int, boss: bool = True) -> None:
    """Mark an entrant as a reference bot (or not): shown as one, never retired by a newer
    version (:mod:`arena.submission.pipeline`)."""
    with db.transaction():
        db.conn.execute("UPDATE ladder_entrants SET boss = ? WHERE tournament_id = ? AND bot_id = ?",
                        (int(boss), tid, bot_id))


def add_entrant(db: Database, tid: int, bot_id: int, address: str | None, *,
                prior: tuple[Rated, str] | None = None) -> str:
    """Enter a registered bot (again): active from now.  Returns what changed: ``"added"``,
    ``"resumed"`` (it was paused or removed) or ``"already active"``.

    The bot joins ``tournament_bots`` once; a bot entered by address keeps its address in the
    ladder's options, as a tournament's do.  ``prior`` (a rating and where it comes from) is
    stored as where the bot's rating in the ladder's game starts, in the same transaction
    (:func:`arena.league.ratings.store_prior`: not if it has one or has played there already).
    """
    now = time.time()
    with db.transaction():
        if prior is not None:
            game, variant = db.conn.execute("SELECT game, variant FROM tournaments WHERE id = ?", (tid,)).fetchone()
            store_prior(db, game, variant, bot_id, *prior)
        row = db.conn.execute("SELECT state FROM ladder_entrants WHERE tournament_id = ? AND bot_id = ?",
                              (tid, bot_id)).fetchone()
        position = db.conn.execute("SELECT position FROM tournament_bots WHERE tournament_id = ? AND bot_id = ?",
                                   (tid, bot_id)).fetchone()
        if position is None:
            position = db.conn.execute("SELECT COALESCE(MAX(position) + 1, 0) FROM tournament_bots"
                                       " WHERE tournament_id = ?", (tid,)).fetchone()
            db.conn.execute("INSERT INTO tournament_bots (tournament_id, position, bot_id) VALUES (?, ?, ?)",
                            (tid, position[0], bot_id))
        options: dict[str, Any] = json.loads(db.conn.execute("SELECT options FROM tournaments WHERE id = ?",
                                                             (tid,)).fetchone()[0])
        addresses = options.setdefault("addresses", {})
        if address is not None:
            addresses[str(position[0])] = address
        else:
            addresses.pop(str(position[0]), None)
        db.conn.execute("UPDATE tournaments SET options = ? WHERE id = ?", (json.dumps(options, sort_keys=True), tid))
        if row is None:
            db.conn.execute("INSERT INTO ladder_entrants (tournament_id, bot_id, state, reason, joined_at,"
                            " active_since, changed_at) VALUES (?, ?, 'active', '', ?, ?, ?)",
                            (tid, bot_id, now, now, now))
            return "added"
        if row[0] == "active":
            return "already active"
        db.conn.execute("UPDATE ladder_entrants SET state = 'active', reason = '', active_since = ?, changed_at = ?"
                        " WHERE tournament_id = ? AND bot_id = ?", (now, now, tid, bot_id))
        return "resumed"


class EntrantStateError(ValueError):
    """A change of state an entrant may not make (:data:`NEXT_STATES`), told in one line."""


def set_state(db: Database, tid: int, bot_id: int, state: str, reason: str = "") -> bool:
    """Pause, resume or remove an entrant; ``False`` if it is not an entrant of the ladder.

    Resuming restarts the clock of its fair share (``active_since``).  Setting the state it
    has again only updates the reason.

    :raises EntrantStateError: for pausing a removed entrant (:data:`NEXT_STATES`).
    """
    assert state in STATES
    now = time.time()
    with db.transaction():
        row = db.conn.execute("SELECT state FROM ladder_entrants WHERE tournament_id = ? AND bot_id = ?",
                              (tid, bot_id)).fetchone()
        if row is None:
            return False
        if state != row[0] and state not in NEXT_STATES[row[0]]:
            raise EntrantStateError(f"it is {row[0]}: resume it (or add it again) first")
        since = ", active_since = ?" if state == "active" else ""
        params: tuple[Any, ...] = (state, reason[:300], now, *((now,) if state == "active" else ()), tid, bot_id)
        cursor = db.conn.execute(f"UPDATE ladder_entrants SET state = ?, reason = ?, changed_at = ?{since}"
                                 " WHERE tournament_id = ? AND bot_id = ?", params)
        return cursor.rowcount == 1


def append_matches(db: Database, tournament: TournamentRow, matches: list[ScheduledMatch]) -> list[int]:
    """Insert matches as pending after the ladder's last one, in one transaction; their ids."""
    settings = json.dumps(tournament.settings, sort_keys=True)
    ids = []
    with db.transaction():
        position = db.conn.execute("SELECT COALESCE(MAX(position) + 1, 0) FROM matches WHERE tournament_id = ?",
                                   (tournament.id,)).fetchone()[0]
        for offset, match in enumerate(matches):
            cursor = db.conn.execute(
                "INSERT INTO matches (tournament_id, position, round, deal, rotation, game, variant, settings,"
                " seed, num_players, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending')",
                (tournament.id, position + offset, match.round, match.deal, match.rotation, tournament.game,
                 tournament.variant, settings, match.seed, len(match.seats)))
            ids.append(int(cursor.lastrowid or 0))
            db.conn.executemany("INSERT INTO match_seats (match_id, seat, bot_id) VALUES (?, ?, ?)",
                                [(ids[-1], seat, bot) for seat, bot in enumerate(match.seats)])
        db.conn.execute("UPDATE tournament_stats SET pending = pending + ? WHERE tournament_id = ?",
                        (len(matches), tournament.id))
    return ids


def drop_pending(db: Database, tid: int, match_ids: list[int] | None = None, *, failed: bool = False) -> int:
    """Delete the ladder's pending matches (``match_ids`` only, if given): those dropped from
    the queue, or left in play by a process that was killed; with ``failed``, failed ones too
    (matches whose worker was killed as the ladder stopped).  Returns how many went.

    Their seats go with them; they have no rating history to delete (only played matches are
    rated, and a played match never becomes pending or failed again)."""
    statuses = ("pending", "failed") if failed else ("pending",)
    where = f"tournament_id = ? AND status IN ({','.join('?' * len(statuses))})"
    params: list[Any] = [tid, *statuses]
    if match_ids is not None:
        if not match_ids:
            return 0
        where += f" AND id IN ({','.join('?' * len(match_ids))})"
        params += match_ids
    with db.transaction():
        counts = dict(db.conn.execute(f"SELECT status, COUNT(*) FROM matches WHERE {where} GROUP BY status",
                                      params).fetchall())
        ids = f"SELECT id FROM matches WHERE {where}"
        db.conn.execute(f"DELETE FROM match_seats WHERE match_id IN ({ids})", params)
        deleted = db.conn.execute(f"DELETE FROM matches WHERE {where}", params).rowcount
        db.conn.execute("UPDATE tournament_stats SET pending = pending - ?, failed = failed - ? WHERE tournament_id = ?",
                        (counts.get("pending", 0), counts.get("failed", 0), tid))
    return int(deleted)


def write_status(db: Database, tid: int, *, pid: int | None, started_at: float | None, in_flight: int,
                 per_minute: float, note: str = "") -> None:
    """The running process's heartbeat (``pid`` ``None``: it stopped)."""
    with db.transaction():
        db.conn.execute("INSERT OR REPLACE INTO ladder_status (tournament_id, pid, started_at, heartbeat, in_flight,"
                        " per_minute, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (tid, pid, started_at, time.time(), in_flight, per_minute, note))


def status(db: Database, tid: int) -> StatusRow | None:
    row = db.conn.execute("SELECT pid, started_at, heartbeat, in_flight, per_minute, note FROM ladder_status"
                          " WHERE tournament_id = ?", (tid,)).fetchone()
    return None if row is None else StatusRow(row[0], row[1], row[2], row[3], row[4], row[5])


def _count_activity(db: Database, tid: int) -> dict[int, tuple[int, float | None]]:
    """``bot id -> (matches played in the ladder, when its last one finished)``, read from
    every match of the ladder: only for files without the running totals."""
    return {r[0]: (r[1], r[2]) for r in db.conn.execute(
        "SELECT s.bot_id, COUNT(DISTINCT m.id), MAX(m.finished_at) FROM matches m JOIN match_seats s"
        " ON s.match_id = m.id WHERE m.tournament_id = ? AND m.status = 'done' GROUP BY s.bot_id", (tid,))}


def recent_matches(db: Database, tid: int, now: float, window: float = RATE_WINDOW_S) -> Counter[int]:
    """Per bot, its matches of the ladder that finished in the last ``window`` seconds.

    Reads the ladder's played matches newest first through their index and stops at the
    first that finished before the window (ids follow the order matches were scheduled in,
    so a match finishing out of order at the window's edge may be missed): the work follows
    the match rate, not the ladder's length, and never exceeds :data:`RECENT_CAP` matches.
    """
    counts: Counter[int] = Counter()
    ids = []
    for match_id, finished in db.conn.execute(
            "SELECT id, finished_at FROM matches WHERE tournament_id = ? AND status = 'done' ORDER BY id DESC"
            f" LIMIT {RECENT_CAP}", (tid,)):
        if finished is None or finished < now - window:
            break
        ids.append(match_id)
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        counts.update(r[0] for r in db.conn.execute(
            f"SELECT DISTINCT bot_id, match_id FROM match_seats WHERE match_id IN ({','.join('?' * len(chunk))})",
            chunk))
    return counts


def is_running(row: StatusRow | None, now: float, alive: Callable[[int], bool] | None = None) -> bool:
    """Whether a process runs the ladder: it said so (a pid) and, given ``alive`` (the same
    machine's check of that pid), it lives; else its heartbeat is at most :data:`STALE_S` old."""
    if row is None or row.pid is None:
        return False
    if alive is not None:
        return alive(row.pid)
    return row.heartbeat is not None and now - row.heartbeat <= STALE_S


def head(db: Database, t: TournamentRow, *, now: float, alive: Callable[[int], bool] | None = None) -> dict[str, Any]:
    """A ladder's name and game, what its running process last said (if one runs:
    :func:`is_running`, with ``alive``) and its matches played and failed: a status row and
    running totals.  ``note`` says why it plays nothing: too few active entrants for a table
    (:func:`waiting_note`, whether a process runs it or not), else the process's own note."""
    return _head(db, t, status(db, t.id), now, alive)


def _head(db: Database, t: TournamentRow, row: StatusRow | None, now: float,
          alive: Callable[[int], bool] | None) -> dict[str, Any]:
    on = is_running(row, now, alive)
    counts = db.match_counts(t.id)
    waiting = waiting_note(table_needs(t), state_counts(db, t.id)["active"])
    return {"ladder": t.name, "id": t.id, "game": t.game, "variant": t.variant, "rating": ladder_rating(t),
            "running": on,
            "pid": row.pid if on and row else None,
            "matches_per_minute": round(row.per_minute, 2) if on and row else 0.0,
            "in_flight": row.in_flight if on and row else 0,
            "heartbeat_age_s": round(now - row.heartbeat, 1) if on and row and row.heartbeat else None,
            "note": waiting or (row.note if on and row else ""),
            "matches_done": counts["done"], "matches_failed": counts["failed"]}


def state_counts(db: Database, tid: int) -> dict[str, int]:
    """How many of the ladder's entrants are in each state."""
    counts = dict(db.conn.execute("SELECT state, COUNT(*) FROM ladder_entrants WHERE tournament_id = ?"
                                  " GROUP BY state", (tid,)).fetchall())
    return {state: counts.get(state, 0) for state in STATES}


def overview(db: Database, t: TournamentRow, *, now: float, alive: Callable[[int], bool] | None = None,
             ratings: dict[int, tuple[float, float]] | None = None) -> dict[str, Any]:
    """What ``arena ladder status`` and the web's ladder page show: :func:`head`, and per
    entrant (in the order they joined) whether it is a reference bot (``boss``), its state, matches, matches per minute over the last
    :data:`RATE_WINDOW_S` (since the process started, if that is less), when its last match
    finished (Unix time), ``ratings``' mu and sigma (``None`` without them), and the reason it
    is paused.

    Reads running totals, the status row and the last minute's matches: never the whole ladder.
    """
    row = status(db, t.id)
    data = _head(db, t, row, now, alive)
    started = row.started_at if data["running"] and row else None
    minutes = (RATE_WINDOW_S if started is None else min(RATE_WINDOW_S, max(now - started, 1.0))) / 60.0
    recent = recent_matches(db, t.id, now)
    data["entrants"] = []
    for e in entrants(db, t.id):
        mu, sigma = (ratings or {}).get(e.bot_id, (None, None))
        data["entrants"].append({"bot_id": e.bot_id, "bot": e.label, "state": e.state, "matches": e.matches,
                                 "per_minute": round(recent[e.bot_id] / minutes, 2),
                                 "last_match_at": e.last_match_at, "mu": mu, "sigma": sigma, "reason": e.reason,
                                 "boss": e.boss})
    return data


@dataclass(frozen=True)
class HeadToHead:
    """How one bot fared against another in the ladder's played matches where both sat."""

    matches: int
    wins: int
    """Matches it ranked better than the other (by its best seat, for a bot filling a team)."""
    draws: int
    losses: int

    @property
    def mean(self) -> float | None:
        """Its mean result: 1 a win, 0.5 a draw, 0 a loss (``None`` with no match)."""
        return (self.wins + self.draws / 2) / self.matches if self.matches else None


def head_to_head(db: Database, tid: int, bot_id: int, other_id: int) -> HeadToHead:
    """``bot_id`` against ``other_id`` in ladder ``tid``'s played matches: one indexed read of
    the pair's seats (a bot's best rank per match)."""
    rows = db.conn.execute(
        "SELECT MIN(a.rank), MIN(b.rank) FROM match_seats a JOIN match_seats b ON b.match_id = a.match_id"
        " JOIN matches m ON m.id = a.match_id WHERE a.bot_id = ? AND b.bot_id = ? AND m.tournament_id = ?"
        " AND m.status = 'done' GROUP BY a.match_id", (bot_id, other_id, tid)).fetchall()
    wins = sum(1 for mine, theirs in rows if mine < theirs)
    losses = sum(1 for mine, theirs in rows if mine > theirs)
    return HeadToHead(len(rows), wins, len(rows) - wins - losses, losses)
