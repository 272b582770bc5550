"""Statistics kept as running totals, so no reader ever scans the league (schema 3).

The single writer adds each played match to these tables in the transaction that stores
it (:meth:`arena.league.storage.Database.store_results`); reading a leaderboard's statistics or
the head-to-head matrix is then a lookup of a few hundred rows, however many matches the
league holds.  They are derived data: :func:`rebuild` computes them again from the stored
matches (on migration, and after a tournament is deleted), with the same per-match
functions the writer uses, so both ways give the same numbers.

* ``game_stats(game, variant, matches, last_match_id)``: played matches and the largest id;
* ``bot_stats(game, variant, bot_id, matches, wins, score_sum, faults)``: per bot, over the
  matches it sat in (a bot filling two seats counts once: best rank, mean score, all faults);
* ``pair_stats(game, variant, bot_id, other_id, matches, half_points)``: ``bot_id``'s results
  against ``other_id`` in half points (2 ranked above, 1 tied, 0 below), exact integers;
* ``tournament_stats(tournament_id, pending, done, failed)``: matches by status;
* ``tournament_bot_stats(tournament_id, bot_id, matches, wins, rank_sum, score_sum, faults)``
  (schema 9): each bot's played matches of one tournament, as ``bot_stats`` counts them plus
  the sum of its best ranks (0 is first), for the tournament page's standings;
* ``ladder_entrants.matches`` and ``last_match_at`` (schema 7): each ladder entrant's played
  matches of its ladder and when the last one finished (the table itself is the ladder's,
  :data:`arena.league.storage.LADDER_SCHEMA`).
"""

from __future__ import annotations

import itertools
import sqlite3
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

SCHEMA = """
CREATE TABLE IF NOT EXISTS game_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    matches INTEGER NOT NULL,
    last_match_id INTEGER NOT NULL,
    PRIMARY KEY (game, variant)
);
CREATE TABLE IF NOT EXISTS bot_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    score_sum REAL NOT NULL,
    faults INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id)
);
CREATE TABLE IF NOT EXISTS pair_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    other_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    half_points INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id, other_id)
);
CREATE TABLE IF NOT EXISTS tournament_stats (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    pending INTEGER NOT NULL,
    done INTEGER NOT NULL,
    failed INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tournament_bot_stats (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    rank_sum INTEGER NOT NULL,
    score_sum REAL NOT NULL,
    faults INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, bot_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS matches_by_tournament ON matches (tournament_id, status, id);
"""


@dataclass(frozen=True)
class BotStats:
    matches: int
    wins: int
    """Matches ranked first, shared first places included."""
    score_sum: float
    """Sum over its matches of its mean score in the match."""
    faults: int


@dataclass(frozen=True)
class TournamentBotStats:
    """One bot's played matches of one tournament (what its standings show)."""

    matches: int
    wins: int
    rank_sum: int
    """Sum over its matches of its best rank in the match (0 is first)."""
    score_sum: float
    faults: int


def teams_of(game: str) -> tuple[tuple[int, ...], ...] | None:
    """The engine's fixed partnerships, or ``None`` (also for a game this arena does not know)."""
    from referee.games import UnknownGameError, game_class

    try:
        return game_class(game).teams
    except UnknownGameError:
        return None


def bot_results(bot_ids: Sequence[int], scores: Sequence[float], ranking: Sequence[int],
                faults: Sequence[int]) -> dict[int, tuple[int, float, int]]:
    """Per bot of one match: ``(best rank, mean score, faults)`` over the seats it filled (it won
    if its best rank is 0).  The writer computes it once per match for every total it adds to."""
    seats: dict[int, list[int]] = defaultdict(list)
    for seat, bot in enumerate(bot_ids):
        seats[bot].append(seat)
    return {bot: (min(ranking[s] for s in mine), sum(scores[s] for s in mine) / len(mine),
                  sum(faults[s] for s in mine)) for bot, mine in seats.items()}


def pair_results(bot_ids: Sequence[int], ranking: Sequence[int],
                 teams: Sequence[Sequence[int]] | None) -> dict[tuple[int, int], int]:
    """``(bot, other) -> half points`` of one match: 2 ranked above, 1 tied, 0 below.

    In a team game only opponents count (partners share their rank), a bot never meets
    itself, and a bot filling two seats meets each opponent once (its first seat's result).
    """
    team_of = {seat: t for t, team in enumerate(teams or ()) for seat in team}
    met: dict[tuple[int, int], int] = {}
    for a, b in itertools.permutations(range(len(bot_ids)), 2):
        pair = (bot_ids[a], bot_ids[b])
        if pair[0] == pair[1] or teams and team_of.get(a) == team_of.get(b) or pair in met:
            continue
        met[pair] = 2 if ranking[a] < ranking[b] else 1 if ranking[a] == ranking[b] else 0
    return met


@dataclass
class Totals:
    """One game's statistics, summed in memory (a rebuild, or reading a file of an older schema)."""

    matches: int = 0
    last_match_id: int = 0

    def __post_init__(self) -> None:
        self.bots: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0.0, 0])
        self.pairs: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])

    def add(self, match_id: int, bot_ids: Sequence[int], scores: Sequence[float], ranking: Sequence[int],
            faults: Sequence[int], teams: Sequence[Sequence[int]] | None) -> None:
        self.matches += 1
        self.last_match_id = max(self.last_match_id, match_id)
        for bot, (best, score, fault) in bot_results(bot_ids, scores, ranking, faults).items():
            row = self.bots[bot]
            row[0] += 1
            row[1] += int(best == 0)
            row[2] += score
            row[3] += fault
        for pair, points in pair_results(bot_ids, ranking, teams).items():
            self.pairs[pair][0] += 1
            self.pairs[pair][1] += points

    def bot_stats(self) -> dict[int, BotStats]:
        return {bot: BotStats(int(r[0]), int(r[1]), float(r[2]), int(r[3])) for bot, r in self.bots.items()}


def played(conn: sqlite3.Connection, game: str, variant: str, *,
           after_id: int = 0, before_id: int | None = None) \
        -> Iterable[tuple[int, list[int], list[float], list[int], list[int]]]:
    """The played matches of a game with ``after_id < id < before_id``, in id order: ``(id, bots,
    scores, ranks, faults)`` by seat.

    One pass over a cursor: memory does not grow with the league.
    """
    rows = conn.execute(
        "SELECT s.match_id, s.bot_id, s.score, s.rank, s.faults FROM matches m JOIN match_seats s"
        " ON s.match_id = m.id WHERE m.game = ? AND m.variant = ? AND m.status = 'done' AND m.id > ?"
        " AND m.id < ? ORDER BY m.id, s.seat", (game, variant, after_id, 2**63 - 1 if before_id is None else before_id))
    for match_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seat_rows = list(seats)
        yield (match_id, [r[1] for r in seat_rows], [r[2] for r in seat_rows], [r[3] for r in seat_rows],
               [r[4] or 0 for r in seat_rows])


def compute(conn: sqlite3.Connection, game: str, variant: str) -> Totals:
    """One game's statistics from its stored matches."""
    totals = Totals()
    teams = teams_of(game)
    for match_id, bots, scores, ranks, faults in played(conn, game, variant):
        totals.add(match_id, bots, scores, ranks, faults, teams)
    return totals


def add_match(conn: sqlite3.Connection, game: str, variant: str, match_id: int, bot_ids: Sequence[int],
              ranking: Sequence[int], results: dict[int, tuple[int, float, int]]) -> None:
    """Add one newly played match, with its :func:`bot_results`, to the running totals (inside
    the writer's transaction)."""
    conn.execute("INSERT INTO game_stats (game, variant, matches, last_match_id) VALUES (?, ?, 1, ?)"
                 " ON CONFLICT DO UPDATE SET matches = matches + 1, last_match_id = MAX(last_match_id, excluded.last_match_id)",
                 (game, variant, match_id))
    conn.executemany(
        "INSERT INTO bot_stats (game, variant, bot_id, matches, wins, score_sum, faults) VALUES (?, ?, ?, 1, ?, ?, ?)"
        " ON CONFLICT DO UPDATE SET matches = matches + 1, wins = wins + excluded.wins,"
        " score_sum = score_sum + excluded.score_sum, faults = faults + excluded.faults",
        [(game, variant, bot, int(best == 0), score, fault) for bot, (best, score, fault) in results.items()])
    conn.executemany(
        "INSERT INTO pair_stats (game, variant, bot_id, other_id, matches, half_points) VALUES (?, ?, ?, ?, 1, ?)"
        " ON CONFLICT DO UPDATE SET matches = matches + 1, half_points = half_points + excluded.half_points",
        [(game, variant, a, b, points) for (a, b), points in pair_results(bot_ids, ranking, teams_of(game)).items()])


def count_status(conn: sqlite3.Connection, tournament_id: int | None, old: str, new: str) -> None:
    """Move one match of a tournament from status ``old`` to ``new`` in its counts."""
    if tournament_id is None or old == new:
        return
    conn.execute(f"UPDATE tournament_stats SET {old} = {old} - 1, {new} = {new} + 1 WHERE tournament_id = ?",
                 (tournament_id,))


COMPUTE_TOURNAMENT_BOTS = """
SELECT bot_id, COUNT(*), SUM(best = 0), SUM(best), SUM(score), SUM(faults) FROM
 (SELECT s.bot_id, s.match_id, MIN(s.rank) AS best, AVG(s.score) AS score, SUM(s.faults) AS faults
  FROM match_seats s JOIN matches m ON m.id = s.match_id
  WHERE m.tournament_id = ? AND m.status = 'done' GROUP BY s.bot_id, s.match_id)
GROUP BY bot_id ORDER BY bot_id"""
"""Each bot's totals over one tournament's played matches, from the matches themselves: the
rebuild, and a read-only view of a file older than schema 9."""


def count_tournament_match(conn: sqlite3.Connection, tournament_id: int | None,
                           results: dict[int, tuple[int, float, int]]) -> None:
    """Add one played match, with its :func:`bot_results`, to its tournament's per-bot totals
    (inside the writer's transaction)."""
    if tournament_id is None:
        return
    conn.executemany(
        "INSERT INTO tournament_bot_stats (tournament_id, bot_id, matches, wins, rank_sum, score_sum, faults)"
        " VALUES (?, ?, 1, ?, ?, ?, ?) ON CONFLICT DO UPDATE SET matches = matches + 1, wins = wins + excluded.wins,"
        " rank_sum = rank_sum + excluded.rank_sum, score_sum = score_sum + excluded.score_sum,"
        " faults = faults + excluded.faults",
        [(tournament_id, bot, int(best == 0), best, score, fault) for bot, (best, score, fault) in results.items()])


def rebuild_tournament_bots(conn: sqlite3.Connection) -> None:
    """Every tournament's per-bot totals from the stored matches (the migration to schema 9)."""
    conn.execute("DELETE FROM tournament_bot_stats")
    for (tid,) in conn.execute("SELECT id FROM tournaments").fetchall():
        conn.executemany("INSERT INTO tournament_bot_stats (tournament_id, bot_id, matches, wins, rank_sum,"
                         " score_sum, faults) VALUES (?, ?, ?, ?, ?, ?, ?)",
                         [(tid, *row) for row in conn.execute(COMPUTE_TOURNAMENT_BOTS, (tid,))])


def count_entrant_match(conn: sqlite3.Connection, tournament_id: int | None, bot_ids: Sequence[int],
                        finished_at: float) -> None:
    """Add one played match to its ladder entrants' totals (a bot in two seats counts once);
    a match of a tournament that is not a ladder has no entrant rows and changes nothing."""
    if tournament_id is None:
        return
    conn.executemany("UPDATE ladder_entrants SET matches = matches + 1, last_match_at = ?"
                     " WHERE tournament_id = ? AND bot_id = ?",
                     [(finished_at, tournament_id, bot) for bot in sorted(set(bot_ids))])


def rebuild_entrants(conn: sqlite3.Connection) -> None:
    """Every ladder entrant's totals from the stored matches (the migration to schema 7)."""
    conn.execute(
        "UPDATE ladder_entrants SET (matches, last_match_at) = (SELECT COUNT(DISTINCT m.id), MAX(m.finished_at)"
        " FROM matches m JOIN match_seats s ON s.match_id = m.id WHERE m.tournament_id = ladder_entrants.tournament_id"
        " AND s.bot_id = ladder_entrants.bot_id AND m.status = 'done')")


def rebuild(conn: sqlite3.Connection, game: str, variant: str) -> None:
    """Replace one game's running totals by a fresh computation (inside a transaction)."""
    totals = compute(conn, game, variant)
    for table in ("game_stats", "bot_stats", "pair_stats"):
        conn.execute(f"DELETE FROM {table} WHERE game = ? AND variant = ?", (game, variant))
    if totals.matches:
        conn.execute("INSERT INTO game_stats (game, variant, matches, last_match_id) VALUES (?, ?, ?, ?)",
                     (game, variant, totals.matches, totals.last_match_id))
    conn.executemany("INSERT INTO bot_stats (game, variant, bot_id, matches, wins, score_sum, faults)"
                     " VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [(game, variant, bot, s.matches, s.wins, s.score_sum, s.faults)
                      for bot, s in totals.bot_stats().items()])
    conn.executemany("INSERT INTO pair_stats (game, variant, bot_id, other_id, matches, half_points)"
                     " VALUES (?, ?, ?, ?, ?, ?)",
                     [(game, variant, a, b, n, points) for (a, b), (n, points) in totals.pairs.items()])


def rebuild_all(conn: sqlite3.Connection) -> None:
    """Every running total from the stored matches (the migration to schema 3)."""
    for table in ("game_stats", "bot_stats", "pair_stats", "tournament_stats"):
        conn.execute(f"DELETE FROM {table}")
    for game, variant in conn.execute("SELECT DISTINCT game, variant FROM matches WHERE status = 'done'").fetchall():
        rebuild(conn, game, variant)
    conn.execute("INSERT INTO tournament_stats (tournament_id, pending, done, failed)"
                 " SELECT t.id, COALESCE(SUM(m.status = 'pending'), 0), COALESCE(SUM(m.status = 'done'), 0),"
                 " COALESCE(SUM(m.status = 'failed'), 0) FROM tournaments t LEFT JOIN matches m"
                 " ON m.tournament_id = t.id GROUP BY t.id")
