"""TrueSkill ratings per game and variant, computed from stored rankings in match-id order.

Ratings read only a match's ``ranking`` (0 best, ties equal; the referee already moved
forfeiting seats last) and, for team games, the engine's ``teams``:

* free-for-all and two-seat games: every seat is its own TrueSkill team;
* team games (Jass): each partnership is one TrueSkill team, ranked by its worst seat, so
  a partnership with a forfeiting member ranks last.

A match is rated only when it has at least two sides and no bot sits on two of them
(:func:`rated_sides`): a solitaire table, or a team game where a bot opposes itself
(self-play), says nothing about one bot against another, and TrueSkill cannot rate a
single side.  A bot filling both seats of one team (it partners itself, as tournaments of
2 or 3 Jass bots schedule) is one player of that side and is rated.  Such matches stay stored and count in the statistics; they are left out of
the ratings.  Tournaments refuse to schedule single-seat tables in the first place.

Because the update is applied in match-id order (ids are fixed when a tournament is
scheduled, before anything is played), the table is a pure function of the stored results:
resuming an interrupted tournament, or ``--recompute``, gives exactly the same numbers as
an uninterrupted run.  The cached table is extended incrementally while the stored results
only grow past the last rated id, and recomputed from scratch otherwise.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

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


def rated_sides(bot_ids: Sequence[int], ranking: Sequence[int] | None,
                teams: Sequence[Sequence[int]] | None) -> tuple[list[list[int]], list[int]] | None:
    """The match's TrueSkill sides and their ranks, or ``None`` if it cannot be rated.

    Not rated: fewer than two sides, a bot on two sides, or a ranking that does not match
    the seats (a damaged row must not stop the league's table).

    >>> rated_sides([7], [0], None) is None
    True
    >>> rated_sides([7, 7, 8, 8], [0, 1, 0, 1], [(0, 2), (1, 3)]) is None
    True
    """
    if ranking is None or len(ranking) != len(bot_ids):
        return None
    if teams is not None and sorted(seat for team in teams for seat in team) != list(range(len(bot_ids))):
        return None
    groups, ranks = team_ranks(ranking, teams)
    sides = [{bot_ids[seat] for seat in group} for group in groups]
    if len(sides) < 2 or sum(len(side) for side in sides) != len(set().union(*sides)):
        return None
    return groups, ranks


def apply_match(env: trueskill.TrueSkill, current: dict[int, trueskill.Rating], bot_ids: Sequence[int],
                ranking: Sequence[int], teams: Sequence[Sequence[int]] | None) -> dict[int, trueskill.Rating]:
    """Rate one match; updates ``current`` in place and returns the new ratings of its bots.

    A match :func:`rated_sides` refuses changes nothing and returns ``{}``.
    """
    sides = rated_sides(bot_ids, ranking, teams)
    if sides is None:
        return {}
    groups, ranks = sides
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
        new = apply_match(env, current, match.bot_ids, match.ranking, teams)
        if new:
            history.append(RatingUpdate(match.id, new))
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
    """The played matches considered now, in id order."""
    final: dict[int, trueskill.Rating]
    """Every rated bot's rating after them."""
    history: list[RatingUpdate]
    """The ratings after each rated one of :attr:`matches`."""
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
    for update in history:
        for bot in update.ratings:
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
        "SELECT bot_id, COUNT(*), SUM(best = 0), AVG(score), SUM(faults) FROM"
        " (SELECT s.bot_id, s.match_id, MIN(s.rank) AS best, AVG(s.score) AS score, SUM(s.faults) AS faults"
        "  FROM match_seats s JOIN matches m ON m.id = s.match_id"
        "  WHERE m.game = ? AND m.variant = ? AND m.status = 'done' GROUP BY s.bot_id, s.match_id)"
        " GROUP BY bot_id", (game, variant))}
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
    """For every ordered pair of bots that met, the mean result of the first against the second.

    In a team game only opponents count (partners always share their rank), and a bot never
    meets itself.
    """
    teams = game_teams(game)
    team_of = {seat: t for t, team in enumerate(teams or ()) for seat in team}
    totals: dict[tuple[int, int], list[float]] = defaultdict(lambda: [0, 0.0])
    for match in db.done_matches(game, variant):
        assert match.ranking is not None
        met: set[tuple[int, int]] = set()  # a bot filling two seats (its team's) meets each opponent once
        for a, b in itertools.permutations(range(match.num_players), 2):
            pair = (match.bot_ids[a], match.bot_ids[b])
            if pair[0] == pair[1] or teams and team_of.get(a) == team_of.get(b) or pair in met:
                continue
            met.add(pair)
            ra, rb = match.ranking[a], match.ranking[b]
            cell = totals[pair]
            cell[0] += 1
            cell[1] += 1.0 if ra < rb else 0.5 if ra == rb else 0.0
    return {pair: HeadToHead(pair[0], pair[1], int(n), score / n) for pair, (n, score) in totals.items()}


SEPARATION = 0.95
"""How sure the ratings must be of two bots' order before the table calls them separated."""


class Rated(Protocol):
    """Anything with a TrueSkill mean and deviation (``trueskill.Rating``, :class:`RatingRow`...)."""

    @property
    def mu(self) -> float: ...

    @property
    def sigma(self) -> float: ...


def stronger_probability(a: Rated, b: Rated) -> float:
    """The probability that ``a``'s skill is above ``b``'s, taking both ratings as independent
    normals: ``Phi((mu_a - mu_b) / sqrt(sigma_a^2 + sigma_b^2))``."""
    spread = math.hypot(a.sigma, b.sigma)
    if spread == 0:
        return 1.0 if a.mu > b.mu else 0.0 if a.mu < b.mu else 0.5
    return 0.5 * math.erfc((b.mu - a.mu) / (spread * math.sqrt(2)))


@dataclass(frozen=True)
class Separation:
    """Where one row of a rating table may really stand, given the ratings' uncertainty."""

    best: int
    """1 + the rows surely above it."""
    worst: int
    """The rows count minus those surely below it."""
    tied_with: tuple[int, ...]
    """Ranks (1-based positions in the table) of the rows it is not yet separated from."""


def separations(table: Sequence[Rated], confidence: float = SEPARATION) -> list[Separation]:
    """For each row of ``table`` (in its order), the rows it is not yet separated from.

    Two bots are separated once :func:`stronger_probability` puts one above the other with
    at least ``confidence``; otherwise their order is still open ("tied with").  The rank
    range runs from one below the rows surely above to one above the rows surely below.
    """
    out = []
    for i, row in enumerate(table):
        above = below = 0
        tied = []
        for j, other in enumerate(table):
            if i == j:
                continue
            p = stronger_probability(other, row)
            if p >= confidence:
                above += 1
            elif 1 - p >= confidence:
                below += 1
            else:
                tied.append(j + 1)
        out.append(Separation(above + 1, len(table) - below, tuple(tied)))
    return out
