"""TrueSkill ratings per game and variant, computed from stored rankings in match-id order.

Ratings read only a match's ``ranking`` (0 best, ties equal; the referee already moved
forfeiting seats last) and, for team games, the engine's ``teams``:

* free-for-all and two-seat games: every seat is its own TrueSkill team;
* team games (Jass): each partnership is one TrueSkill team, ranked by its worst seat, so
  a partnership with a forfeiting member ranks last.

Because the update is applied in match-id order (ids are fixed when a tournament is
scheduled, before anything is played), the table is a pure function of the stored results:
resuming an interrupted tournament, or ``--recompute``, gives exactly the same numbers as
an uninterrupted run.  The cached table is extended incrementally while the stored results
only grow past the last rated id, and recomputed from scratch otherwise.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import trueskill

from arena.storage import Database, MatchRow

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
DRAW_PROBABILITY = 0.10


def environment() -> trueskill.TrueSkill:
    """The one TrueSkill environment (the package's defaults, stated here so they are fixed)."""
    return trueskill.TrueSkill(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU, draw_probability=DRAW_PROBABILITY)


def team_ranks(ranking: Sequence[int], teams: Sequence[Sequence[int]] | None) -> tuple[list[list[int]], list[int]]:
    """Group seats into TrueSkill teams and rank them: ``(seats per team, rank per team)``.

    >>> team_ranks([1, 0, 1, 0], [(0, 2), (1, 3)])
    ([[0, 2], [1, 3]], [1, 0])
    """
    if teams is None:
        return [[seat] for seat in range(len(ranking))], list(ranking)
    groups = [list(team) for team in teams]
    return groups, [max(ranking[seat] for seat in team) for team in groups]


@dataclass
class RatingUpdate:
    """The ratings of the match's bots after it."""

    match_id: int
    ratings: dict[int, trueskill.Rating]


def apply_match(env: trueskill.TrueSkill, current: dict[int, trueskill.Rating], bot_ids: Sequence[int],
                ranking: Sequence[int], teams: Sequence[Sequence[int]] | None) -> dict[int, trueskill.Rating]:
    """Rate one match; updates ``current`` in place and returns the new ratings of its bots."""
    groups, ranks = team_ranks(ranking, teams)
    rating_groups = [{bot_ids[seat]: current.get(bot_ids[seat], env.create_rating()) for seat in group}
                     for group in groups]
    rated = env.rate(rating_groups, ranks=ranks)
    new = {bot: rating for group in rated for bot, rating in group.items()}
    current.update(new)
    return new


def rate(matches: Iterable[MatchRow], teams: Sequence[Sequence[int]] | None,
         start: dict[int, trueskill.Rating] | None = None) -> tuple[dict[int, trueskill.Rating], list[RatingUpdate]]:
    """Apply ``matches`` (played, in id order) from ``start``; the final ratings and the history."""
    env = environment()
    current = dict(start or {})
    history = []
    for match in matches:
        assert match.ranking is not None
        history.append(RatingUpdate(match.id, apply_match(env, current, match.bot_ids, match.ranking, teams)))
    return current, history


def game_teams(game: str) -> tuple[tuple[int, ...], ...] | None:
    """The engine's fixed partnerships, or ``None`` (also for a game this arena does not know)."""
    from referee.games import UnknownGameError, game_class

    try:
        return game_class(game).teams
    except UnknownGameError:
        return None


@dataclass
class RatingPlan:
    """What :func:`update_ratings` would store, computed without writing (the web server is read-only)."""

    after: int
    """Matches with ``id <= after`` were already rated in the stored table (0: rated from scratch)."""
    rated_before: int
    """How many matches the stored table had rated, when it is extended."""
    matches: list[MatchRow]
    """The played matches rated now, in id order."""
    final: dict[int, trueskill.Rating]
    """Every rated bot's rating after them."""
    history: list[RatingUpdate]
    """The ratings after each of :attr:`matches`."""
    counts: dict[int, int]
    """Rated matches per bot."""


def plan_ratings(db: Database, game: str, variant: str, *, recompute: bool = False) -> RatingPlan:
    """The up-to-date ratings of ``game``/``variant``, from the stored table and results; reads only.

    Incremental when every played match up to the last rated id was already rated; from
    scratch otherwise (for instance after a tournament with lower ids was resumed), or when
    ``recompute`` is set.
    """
    state = db.conn.execute("SELECT last_match_id, rated_count FROM rating_state WHERE game = ? AND variant = ?",
                            (game, variant)).fetchone()
    start: dict[int, trueskill.Rating] = {}
    counts: dict[int, int] = defaultdict(int)
    after = rated_before = 0
    if state is not None and not recompute and db.count_done(game, variant, up_to_id=state[0]) == state[1]:
        after, rated_before = state[0], state[1]
        for row in db.conn.execute("SELECT bot_id, mu, sigma, matches FROM ratings WHERE game = ? AND variant = ?",
                                   (game, variant)):
            start[row[0]] = trueskill.Rating(row[1], row[2])
            counts[row[0]] = row[3]
    matches = db.done_matches(game, variant, after_id=after)
    final, history = rate(matches, game_teams(game), start)
    for match in matches:
        for bot in match.bot_ids:
            counts[bot] += 1
    return RatingPlan(after, rated_before, matches, final, history, dict(counts))


def update_ratings(db: Database, game: str, variant: str, *, recompute: bool = False) -> int:
    """Bring the stored table of ``game``/``variant`` up to date; returns how many matches were rated.

    See :func:`plan_ratings` for when it extends the table and when it starts over.
    """
    plan = plan_ratings(db, game, variant, recompute=recompute)
    after, matches = plan.after, plan.matches
    if not matches and after:
        return 0
    last = matches[-1].id if matches else 0
    with db.transaction():
        if not after:
            db.conn.execute("DELETE FROM ratings WHERE game = ? AND variant = ?", (game, variant))
            db.conn.execute("DELETE FROM rating_history WHERE match_id IN (SELECT id FROM matches WHERE game = ?"
                            " AND variant = ?)", (game, variant))
        db.conn.executemany("INSERT OR REPLACE INTO ratings (game, variant, bot_id, mu, sigma, matches)"
                            " VALUES (?, ?, ?, ?, ?, ?)",
                            [(game, variant, bot, r.mu, r.sigma, plan.counts[bot]) for bot, r in plan.final.items()])
        db.conn.executemany("INSERT OR REPLACE INTO rating_history (match_id, bot_id, mu, sigma) VALUES (?, ?, ?, ?)",
                            [(u.match_id, bot, r.mu, r.sigma) for u in plan.history for bot, r in u.ratings.items()])
        db.conn.execute("INSERT OR REPLACE INTO rating_state (game, variant, last_match_id, rated_count)"
                        " VALUES (?, ?, ?, ?)", (game, variant, max(last, after), plan.rated_before + len(matches)))
    return len(matches)


def rating_history(db: Database, game: str, variant: str, bot_id: int,
                   plan: RatingPlan) -> list[tuple[int, float, float]]:
    """``(match id, mu, sigma)`` of ``bot_id`` after each of its rated matches, oldest first:
    the stored history the plan builds on, then the plan's own."""
    points: list[tuple[int, float, float]] = []
    if plan.after:
        points = [(row[0], row[1], row[2]) for row in db.conn.execute(
            "SELECT h.match_id, h.mu, h.sigma FROM rating_history h JOIN matches m ON m.id = h.match_id"
            " WHERE h.bot_id = ? AND m.game = ? AND m.variant = ? AND m.id <= ? ORDER BY h.match_id",
            (bot_id, game, variant, plan.after))]
    points += [(u.match_id, u.ratings[bot_id].mu, u.ratings[bot_id].sigma) for u in plan.history
               if bot_id in u.ratings]
    return points


@dataclass(frozen=True)
class RatingRow:
    """One line of a rating table."""

    rank: int
    bot_id: int
    bot: str
    version: str
    mu: float
    sigma: float
    matches: int
    wins: int
    """Matches ranked first, shared first places included."""
    mean_score: float
    faults: int
    language: str = ""

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: the table is sorted by it."""
        return self.mu - 3 * self.sigma


def rating_table(db: Database, game: str, variant: str,
                 ratings: Mapping[int, trueskill.Rating] | None = None) -> list[RatingRow]:
    """The ratings of ``game``/``variant`` with match statistics, best first.

    ``ratings`` (bot id -> rating, e.g. :attr:`RatingPlan.final`) replaces the stored table;
    without it, call :func:`update_ratings` first for an up-to-date table.
    """
    stats = {row[0]: row[1:] for row in db.conn.execute(
        "SELECT s.bot_id, COUNT(*), SUM(s.rank = 0), AVG(s.score), SUM(s.faults) FROM match_seats s"
        " JOIN matches m ON m.id = s.match_id WHERE m.game = ? AND m.variant = ? AND m.status = 'done'"
        " GROUP BY s.bot_id", (game, variant))}
    if ratings is None:
        ratings = {r[0]: trueskill.Rating(r[1], r[2]) for r in db.conn.execute(
            "SELECT bot_id, mu, sigma FROM ratings WHERE game = ? AND variant = ?", (game, variant))}
    bots = {r[0]: r[1:] for r in db.conn.execute("SELECT id, name, version, language FROM bots")}
    rows = []
    for bot_id, rating in ratings.items():
        name, version, language = bots[bot_id]
        played, wins, mean, faults = stats.get(bot_id, (0, 0, 0.0, 0))
        rows.append(RatingRow(0, bot_id, name, version, rating.mu, rating.sigma, played, wins or 0, mean or 0.0,
                              faults or 0, language))
    rows.sort(key=lambda row: (-row.conservative, -row.mu, row.bot))
    return [dataclasses.replace(row, rank=i + 1) for i, row in enumerate(rows)]


@dataclass(frozen=True)
class HeadToHead:
    """Results of ``bot`` against ``other`` over the matches where both sat."""

    bot: int
    other: int
    matches: int
    result: float
    """Mean of 1 (ranked above), 0.5 (tied) and 0 (ranked below)."""


def head_to_head(db: Database, game: str, variant: str) -> dict[tuple[int, int], HeadToHead]:
    """For every ordered pair of bots that met, the mean result of the first against the second."""
    rows = db.conn.execute(
        "SELECT a.bot_id, b.bot_id, COUNT(*), SUM(CASE WHEN a.rank < b.rank THEN 1.0 WHEN a.rank = b.rank THEN 0.5"
        " ELSE 0.0 END) FROM matches m JOIN match_seats a ON a.match_id = m.id JOIN match_seats b"
        " ON b.match_id = m.id AND b.seat != a.seat WHERE m.game = ? AND m.variant = ? AND m.status = 'done'"
        " GROUP BY a.bot_id, b.bot_id", (game, variant))
    return {(a, b): HeadToHead(a, b, int(n), score / n) for a, b, n, score in rows}
