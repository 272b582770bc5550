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

**Priors.**  A bot's first rated match starts from TrueSkill's default (mu 25, sigma 25/3),
or from its stored prior in that game and variant (``rating_priors``, :func:`stored_priors`):
a new version of a submitted bot starts from its previous version's rating, widened
(:func:`widened`).  A prior is an input, like the results: every path that starts a rating
(the incremental extension, a recompute, the read-only plan, the scheduler's view) reads it,
so the table stays a pure function of the stored results and priors.  It is stored only for a
bot that has not played in that game and variant yet (:func:`store_prior`), so it never
changes a rating already computed.

Rating streams over the stored matches (one cursor, history written in chunks), so memory
does not grow with the league.  Two sides (two seats, or two teams) are rated by the closed
form of :func:`rate_two_sides`, equal to the library's factor graph to 1e-9 (tested on
100,000 random updates) and many times faster; three or more sides of one bot each
(free-for-all tables) by :func:`rate_free_for_all`, the library's message passing ported to
plain numbers (equal to it to 1e-9, about three times faster); other shapes (three or more
teams of several bots) use the library.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import trueskill

from arena.league import stats as league_stats
from arena.league.storage import Database, MatchRow

MU = 25.0
SIGMA = MU / 3
BETA = MU / 6
TAU = MU / 300
DRAW_PROBABILITY = 0.10


NEW_VERSION_WIDENING = SIGMA / 2
"""Added (in quadrature) to the previous version's sigma for a new version's prior."""


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
                ranking: Sequence[int], teams: Sequence[Sequence[int]] | None,
                priors: Mapping[int, trueskill.Rating] | None = None) -> dict[int, trueskill.Rating]:
    """Rate one match; updates ``current`` in place and returns the new ratings of its bots.

    A bot not in ``current`` starts from its entry in ``priors``, else from the default.
    A match :func:`rated_sides` refuses changes nothing and returns ``{}``.
    """
    sides = rated_sides(bot_ids, ranking, teams)
    if sides is None:
        return {}
    groups, ranks = sides

    def now(bot: int) -> trueskill.Rating:
        rating = current.get(bot)
        if rating is None and priors:
            rating = priors.get(bot)
        return env.create_rating() if rating is None else rating

    rating_groups = [{bot_ids[seat]: now(bot_ids[seat]) for seat in group} for group in groups]
    if len(groups) == 2:
        rated = rate_two_sides(env, rating_groups, ranks)
    elif all(len(group) == 1 for group in groups):
        rated = [{bot_ids[group[0]]: rating} for group, rating in
                 zip(groups, rate_free_for_all(env, [now(bot_ids[group[0]]) for group in groups], ranks))]
    else:
        rated = env.rate(rating_groups, ranks=ranks)
    new = {bot: rating for group in rated for bot, rating in group.items()}
    current.update(new)
    return new


def rate_two_sides(env: trueskill.TrueSkill, sides: Sequence[Mapping[int, trueskill.Rating]],
                   ranks: Sequence[int]) -> list[dict[int, trueskill.Rating]]:
    """``env.rate(sides, ranks)`` for exactly two sides, in closed form.

    With two sides the library's factor graph has a single truncated difference, and its
    message passing ends in the textbook update: ``c^2`` sums every player's variance
    (sigma^2 + tau^2) and beta^2 per player; the mean difference and the draw margin,
    divided by ``c``, go through the library's v and w functions (:func:`_v_w`).
    """
    first = 0 if ranks[0] <= ranks[1] else 1  # the library sorts by rank, stably
    tau2 = env.tau ** 2
    size = len(sides[0]) + len(sides[1])
    variances = [{bot: r.sigma ** 2 + tau2 for bot, r in side.items()} for side in sides]
    c2 = sum(variances[0].values()) + sum(variances[1].values()) + size * env.beta ** 2
    c = math.sqrt(c2)
    winner, loser = sides[first], sides[1 - first]
    diff = (sum(r.mu for r in winner.values()) - sum(r.mu for r in loser.values())) / c
    v, w = _v_w(env, diff, _draw_margin(env, size) / c, ranks[0] == ranks[1])
    rated = []
    for index, side in enumerate(sides):
        step = (v if index == first else -v) / c
        var = variances[index]
        rated.append({bot: trueskill.Rating(r.mu + var[bot] * step, math.sqrt(var[bot] * (1 - var[bot] / c2 * w)))
                      for bot, r in side.items()})
    return rated


_DRAW_MARGINS: dict[tuple[float, float, Callable[..., float], int], float] = {}
"""The draw margin by environment and number of players: the library computes it (an inverse
error function, by iteration) on every update; it depends on nothing else."""


def _draw_margin(env: trueskill.TrueSkill, size: int) -> float:
    key = (env.draw_probability, env.beta, env.ppf, size)
    margin = _DRAW_MARGINS.get(key)
    if margin is None:
        margin = _DRAW_MARGINS[key] = trueskill.calc_draw_margin(env.draw_probability, size, env)
    return margin


def _v_w(env: trueskill.TrueSkill, diff: float, margin: float, draw: bool) -> tuple[float, float]:
    """The library's ``v_win, w_win`` (or ``v_draw, w_draw``) of ``diff`` and ``margin``, the
    same arithmetic with each normal density and distribution evaluated once instead of twice.
    Where the library refuses (a floating-point error), its own functions raise it."""
    if not draw:
        x = diff - margin
        denom = env.cdf(x)
        v = (env.pdf(x) / denom) if denom else -x
        w = v * (v + x)
        return (v, w) if 0 < w < 1 else (env.v_win(diff, margin), env.w_win(diff, margin))
    abs_diff = abs(diff)
    a, b = margin - abs_diff, -margin - abs_diff
    denom = env.cdf(a) - env.cdf(b)
    if not denom:
        return env.v_draw(diff, margin), env.w_draw(diff, margin)
    pdf_a, pdf_b = env.pdf(a), env.pdf(b)
    v = (pdf_b - pdf_a) / denom
    return v * (-1 if diff < 0 else +1), v ** 2 + (a * pdf_a - b * pdf_b) / denom


class _Variable:
    """A variable of the factor graph: its value and the message each factor last sent it,
    as ``(pi, tau)`` (precision and precision times mean), updated as ``trueskill.factorgraph``
    updates its ``Variable``."""

    __slots__ = ("pi", "tau", "messages")

    def __init__(self, factors: Iterable[str]) -> None:
        self.pi, self.tau = 0.0, 0.0
        self.messages = {factor: (0.0, 0.0) for factor in factors}

    def set(self, pi: float, tau: float) -> float:
        pi_delta = abs(self.pi - pi)
        delta = 0. if pi_delta == math.inf else max(abs(self.tau - tau), math.sqrt(pi_delta))
        self.pi, self.tau = pi, tau
        return delta

    def update_message(self, factor: str, pi: float, tau: float) -> float:
        old_pi, old_tau = self.messages[factor]
        self.messages[factor] = (pi, tau)
        return self.set(self.pi - old_pi + pi, self.tau - old_tau + tau)

    def update_value(self, factor: str, pi: float, tau: float) -> float:
        old_pi, old_tau = self.messages[factor]
        self.messages[factor] = (pi + old_pi - self.pi, tau + old_tau - self.tau)
        return self.set(pi, tau)

    def without(self, factor: str) -> tuple[float, float]:
        """The value divided by ``factor``'s message."""
        pi, tau = self.messages[factor]
        return self.pi - pi, self.tau - tau


def _sum_update(target: _Variable, factor: str, terms: Sequence[tuple[_Variable, float]]) -> float:
    """``SumFactor.update``: the message to ``target`` from the weighted sum of ``terms``."""
    pi_inv = 0.
    mu = 0.
    for var, coeff in terms:
        pi, tau = var.without(factor)
        mu += coeff * (pi and tau / pi)
        if pi_inv == math.inf:
            continue
        try:
            pi_inv += coeff ** 2 / pi
        except ZeroDivisionError:
            pi_inv = math.inf
    pi = 1. / pi_inv
    return target.update_message(factor, pi, pi * mu)


def rate_free_for_all(env: trueskill.TrueSkill, ratings: Sequence[trueskill.Rating],
                      ranks: Sequence[int]) -> list[trueskill.Rating]:
    """``env.rate`` for three or more sides of one player each (a free-for-all table): the
    library's factor graph and schedule, step for step, on plain numbers.

    The library builds its graph from objects on every update (about 0.5 ms for four seats,
    most of a league's rating time).  Here, as there (``TrueSkill.factor_graph_builders`` and
    ``run_schedule``, ``trueskill/factorgraph.py``): prior, performance and team performance
    down; then along the chain of differences, each truncated (a draw between equal ranks),
    forwards and backwards until no message changes by more than ``trueskill.DELTA`` (at most
    ten passes); then back up to each rating.  Equal to the library to 1e-9 (tested).
    """
    order = sorted(range(len(ratings)), key=lambda seat: ranks[seat])  # the library sorts by rank, stably
    n = len(order)
    margin = _draw_margin(env, 2)
    rating = [_Variable(("prior", "likelihood")) for _ in order]
    perf = [_Variable(("likelihood", "team")) for _ in order]
    team = [_Variable(["team"] + [f"diff{x}" for x in (k - 1, k) if 0 <= x < n - 1]) for k in range(n)]
    diff = [_Variable((f"diff{x}", f"cut{x}")) for x in range(n - 1)]
    for k, seat in enumerate(order):
        prior = ratings[seat]
        pi = math.sqrt(prior.sigma ** 2 + env.tau ** 2) ** -2
        rating[k].update_value("prior", pi, pi * prior.mu)
        pi, tau = rating[k].without("likelihood")
        a = 1. / (1. + env.beta ** 2 * pi)
        perf[k].update_message("likelihood", a * pi, a * tau)
        _sum_update(team[k], "team", ((perf[k], 1),))

    def diff_down(x: int) -> None:
        _sum_update(diff[x], f"diff{x}", ((team[x], +1), (team[x + 1], -1)))

    def diff_up(x: int, index: int) -> None:
        if index == 1:
            _sum_update(team[x + 1], f"diff{x}", ((team[x], 1.), (diff[x], -1.)))
        else:
            _sum_update(team[x], f"diff{x}", ((diff[x], 1.), (team[x + 1], 1.)))

    def truncate(x: int) -> float:
        pi, tau = diff[x].without(f"cut{x}")
        sqrt_pi = math.sqrt(pi)
        v, w = _v_w(env, tau / sqrt_pi, margin * sqrt_pi, ranks[order[x]] == ranks[order[x + 1]])
        denom = (1. - w)
        return diff[x].update_value(f"cut{x}", pi / denom, (tau + sqrt_pi * v) / denom)

    for _ in range(10):
        delta = 0.
        for x in range(n - 2):
            diff_down(x)
            delta = max(delta, truncate(x))
            diff_up(x, 1)
        for x in range(n - 2, 0, -1):
            diff_down(x)
            delta = max(delta, truncate(x))
            diff_up(x, 0)
        if delta <= trueskill.DELTA:
            break
    diff_up(0, 0)
    diff_up(n - 2, 1)
    rated: list[trueskill.Rating] = [trueskill.Rating()] * n
    for k, seat in enumerate(order):
        _sum_update(perf[k], "team", ((team[k], 1.),))
        pi, tau = perf[k].without("likelihood")
        a = 1. / (1. + env.beta ** 2 * pi)
        rating[k].update_message("likelihood", a * pi, a * tau)
        var = rating[k]
        rated[seat] = trueskill.Rating(float(var.pi and var.tau / var.pi),
                                       float(math.sqrt(1 / var.pi) if var.pi else math.inf))
    return rated


def rate(matches: Iterable[MatchRow], teams: Sequence[Sequence[int]] | None,
         start: dict[int, trueskill.Rating] | None = None,
         priors: Mapping[int, trueskill.Rating] | None = None) \
        -> tuple[dict[int, trueskill.Rating], list[RatingUpdate]]:
    """Apply ``matches`` (played, in id order) from ``start`` (bots not in it: from ``priors``,
    else the default); the final ratings and the history."""
    env = environment()
    current = dict(start or {})
    history = []
    for match in matches:
        assert match.ranking is not None
        new = apply_match(env, current, match.bot_ids, match.ranking, teams, priors)
        if new:
            history.append(RatingUpdate(match.id, new))
    return current, history


game_teams = league_stats.teams_of
"""The engine's fixed partnerships, or ``None`` (also for a game this arena does not know)."""


def stored_priors(db: Database, game: str, variant: str) -> dict[int, trueskill.Rating]:
    """``bot id -> rating`` each bot with a stored prior starts from in ``game``/``variant``;
    the others start from the default (also every bot of a read-only file older than priors)."""
    if not db.has_rating_priors:
        return {}
    return {row[0]: trueskill.Rating(row[1], row[2]) for row in db.conn.execute(
        "SELECT bot_id, mu, sigma FROM rating_priors WHERE game = ? AND variant = ?", (game, variant))}


DEFAULT_START = "TrueSkill's default"
"""Where the rating of a bot without a prior starts (:func:`starting_rating`)."""


def starting_rating(db: Database, game: str, variant: str, bot_id: int) -> tuple[trueskill.Rating, str]:
    """Where ``bot_id``'s rating in ``game``/``variant`` starts and why: its prior and the
    prior's reason, else the default and :data:`DEFAULT_START`."""
    row = db.conn.execute("SELECT mu, sigma, reason FROM rating_priors WHERE game = ? AND variant = ? AND bot_id = ?",
                          (game, variant, bot_id)).fetchone() if db.has_rating_priors else None
    return (environment().create_rating(), DEFAULT_START) if row is None else (trueskill.Rating(row[0], row[1]), row[2])


def widened(previous: Rated) -> trueskill.Rating:
    """A new version's prior: its previous version's mu, and a sigma widened by
    :data:`NEW_VERSION_WIDENING` in quadrature (the new code may play better or worse), at most
    the default's.  Always above the ladder's ``new_sigma`` (SIGMA / 2), so the scheduler still
    seats the new version first until its own matches have placed it."""
    return trueskill.Rating(previous.mu, min(SIGMA, math.hypot(previous.sigma, NEW_VERSION_WIDENING)))


def store_prior(db: Database, game: str, variant: str, bot_id: int, prior: Rated, reason: str) -> bool:
    """Store ``bot_id``'s prior in ``game``/``variant``, within the caller's transaction.

    Nothing is stored (``False``) if the bot has a prior there already, or has played a match
    there: ratings may have been computed from where it started (the stored table, the web's
    cached plan), and a prior now would make them and a recompute disagree.  (The played
    matches are the running totals' ``bot_stats``, which every writable file has.)
    """
    if db.conn.execute("SELECT 1 FROM rating_priors WHERE game = ? AND variant = ? AND bot_id = ? UNION ALL"
                       " SELECT 1 FROM bot_stats WHERE game = ? AND variant = ? AND bot_id = ? AND matches > 0",
                       (game, variant, bot_id) * 2).fetchone() is not None:
        return False
    db.conn.execute("INSERT INTO rating_priors (game, variant, bot_id, mu, sigma, reason) VALUES (?, ?, ?, ?, ?, ?)",
                    (game, variant, bot_id, prior.mu, prior.sigma, reason))
    return True


@dataclass
class RatingPlan:
    """What :func:`update_ratings` would store, computed without writing (the web server is read-only)."""

    after: int
    """Matches with ``id <= after`` were already rated in the stored table (0: rated from scratch)."""
    rated_before: int
    """How many matches the stored table had rated, when it is extended."""
    final: dict[int, trueskill.Rating] = field(default_factory=dict)
    """Every rated bot's rating after the played matches."""
    counts: dict[int, int] = field(default_factory=dict)
    """Rated matches per bot."""
    considered: int = 0
    """Played matches with ``id > after`` gone through now (rated or not)."""
    last_id: int = 0
    """The largest of their ids (0 if none)."""
    history: list[RatingUpdate] = field(default_factory=list)
    """The ratings after each rated match gone through now, if asked for (``keep_history``)."""


def _stored_start(db: Database, game: str, variant: str, recompute: bool) -> RatingPlan:
    """The stored table to extend, if every played match up to its last rated id is rated; else empty."""
    state = db.conn.execute("SELECT last_match_id, rated_count FROM rating_state WHERE game = ? AND variant = ?",
                            (game, variant)).fetchone()
    if state is None or recompute:
        return RatingPlan(0, 0)
    played, last = db.game_signature(game, variant)
    current = played == state[1] and last == state[0]  # the usual case: a lookup, no count
    if not current and db.count_done(game, variant, up_to_id=state[0]) != state[1]:
        return RatingPlan(0, 0)
    plan = RatingPlan(state[0], state[1])
    for row in db.conn.execute("SELECT bot_id, mu, sigma, matches FROM ratings WHERE game = ? AND variant = ?",
                               (game, variant)):
        plan.final[row[0]] = trueskill.Rating(row[1], row[2])
        plan.counts[row[0]] = row[3]
    return plan


def _rate_after(db: Database, game: str, variant: str, plan: RatingPlan,
                before_id: int | None = None) -> Iterator[RatingUpdate]:
    """Rate the played matches after ``plan.after`` (and below ``before_id``) in id order, one
    cursor, updating ``plan``; yields the update of each rated match."""
    env = environment()
    teams = game_teams(game)
    priors = stored_priors(db, game, variant)
    for match_id, bot_ids, _, ranking, _ in league_stats.played(db.conn, game, variant, after_id=plan.after,
                                                                 before_id=before_id):
        plan.considered += 1
        plan.last_id = match_id
        new = apply_match(env, plan.final, bot_ids, ranking, teams, priors)
        if new:
            for bot in new:
                plan.counts[bot] = plan.counts.get(bot, 0) + 1
            yield RatingUpdate(match_id, new)


def plan_ratings(db: Database, game: str, variant: str, *, recompute: bool = False,
                 keep_history: bool = False) -> RatingPlan:
    """The up-to-date ratings of ``game``/``variant``, from the stored table and results; reads only.

    Incremental when every played match up to the last rated id was already rated; from
    scratch otherwise (for instance after a tournament with lower ids was resumed), or when
    ``recompute`` is set.  ``keep_history`` keeps each rated match's update (for a bot's
    rating history beyond the stored one).
    """
    plan = _stored_start(db, game, variant, recompute)
    for update in _rate_after(db, game, variant, plan):
        if keep_history:
            plan.history.append(update)
    return plan


_HISTORY_CHUNK = 10_000
"""Rating-history rows written at once while rating: memory stays flat however long the league."""


def update_ratings(db: Database, game: str, variant: str, *, recompute: bool = False,
                   before_id: int | None = None) -> int:
    """Bring the stored table of ``game``/``variant`` up to date; returns how many matches were rated.

    See :func:`plan_ratings` for when it extends the table and when it starts over.  One
    transaction: the table, its history and its state change together or not at all.

    ``before_id`` rates only the matches below it: a ladder passes its lowest match still in
    play, so that a match finishing after a later one never forces a recompute (the table
    then always extends in id order, and equals a full recompute).
    """
    insert = "INSERT OR REPLACE INTO rating_history (match_id, bot_id, mu, sigma) VALUES (?, ?, ?, ?)"
    with db.transaction():
        plan = _stored_start(db, game, variant, recompute)
        if not plan.after:
            db.conn.execute("DELETE FROM ratings WHERE game = ? AND variant = ?", (game, variant))
            db.conn.execute("DELETE FROM rating_history WHERE match_id IN (SELECT id FROM matches WHERE game = ?"
                            " AND variant = ?)", (game, variant))
        rows: list[tuple[int, int, float, float]] = []
        for update in _rate_after(db, game, variant, plan, before_id):
            rows.extend((update.match_id, bot, r.mu, r.sigma) for bot, r in update.ratings.items())
            if len(rows) >= _HISTORY_CHUNK:
                db.conn.executemany(insert, rows)
                rows.clear()
        db.conn.executemany(insert, rows)
        if plan.considered or not plan.after:
            db.conn.executemany("INSERT OR REPLACE INTO ratings (game, variant, bot_id, mu, sigma, matches)"
                                " VALUES (?, ?, ?, ?, ?, ?)",
                                [(game, variant, bot, r.mu, r.sigma, plan.counts[bot]) for bot, r in plan.final.items()])
            db.conn.execute("INSERT OR REPLACE INTO rating_state (game, variant, last_match_id, rated_count)"
                            " VALUES (?, ?, ?, ?)", (game, variant, max(plan.last_id, plan.after),
                                                     plan.rated_before + plan.considered))
    return plan.considered


def stored_ratings(db: Database, game: str, variant: str) -> dict[int, tuple[float, float]]:
    """``bot id -> (mu, sigma)`` of the stored table, as the last :func:`update_ratings` left it."""
    return {r[0]: (r[1], r[2]) for r in db.conn.execute(
        "SELECT bot_id, mu, sigma FROM ratings WHERE game = ? AND variant = ?", (game, variant))}


def current_ratings(db: Database, game: str, variant: str) -> dict[int, tuple[float, float]]:
    """:func:`stored_ratings`, and the prior of each bot it does not rate yet: the rating each
    bot has now (the ladder's scheduler and status); bots with neither are left out."""
    priors = {bot: (r.mu, r.sigma) for bot, r in stored_priors(db, game, variant).items()}
    return priors | stored_ratings(db, game, variant)


def rating_history(db: Database, game: str, variant: str, bot_id: int, plan: RatingPlan,
                   limit: int | None = None) -> list[tuple[int, float, float]]:
    """``(match id, mu, sigma)`` of ``bot_id`` after each of its rated matches, oldest first:
    the stored history the plan builds on, then the plan's own; only the last ``limit`` if given
    (read newest first through the history's key, by bot, so the cost does not grow with the
    league)."""
    points: list[tuple[int, float, float]] = []
    if plan.after:
        # The game of each history point is checked in the small matches_by_game index, not in
        # the matches table, whose rows hold the records (a page read per point otherwise).
        points = [(row[0], row[1], row[2]) for row in db.conn.execute(
            "SELECT h.match_id, h.mu, h.sigma FROM rating_history h WHERE h.bot_id = ? AND h.match_id <= ?"
            " AND EXISTS (SELECT 1 FROM matches m INDEXED BY matches_by_game WHERE m.game = ? AND m.variant = ?"
            " AND m.status = 'done' AND m.id = h.match_id) ORDER BY h.match_id DESC"
            + ("" if limit is None else f" LIMIT {int(limit)}"), (bot_id, plan.after, game, variant))]
        points.reverse()
    points += [(u.match_id, u.ratings[bot_id].mu, u.ratings[bot_id].sigma) for u in plan.history
               if bot_id in u.ratings]
    return points if limit is None else points[-limit:] if limit else []


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
    model: str = "trueskill"
    """``"trueskill"`` (mu, sigma: TrueSkill's) or ``"score"`` (:mod:`arena.league.score_ratings`:
    mu is the rating in points, sigma its posterior deviation)."""

    @property
    def conservative(self) -> float:
        """``mu - 3 sigma``: a TrueSkill table is sorted by it."""
        return self.mu - 3 * self.sigma


def rating_table(db: Database, game: str, variant: str,
                 ratings: Mapping[int, trueskill.Rating] | None = None) -> list[RatingRow]:
    """The ratings of ``game``/``variant`` with match statistics, best first.

    ``ratings`` (bot id -> rating, e.g. :attr:`RatingPlan.final`) replaces the stored table;
    without it, call :func:`update_ratings` first for an up-to-date table.
    """
    stats = {bot: (s.matches, s.wins, s.score_sum / s.matches, s.faults)
             for bot, s in db.bot_stats(game, variant).items() if s.matches}
    if ratings is None:
        ratings = {bot: trueskill.Rating(mu, sigma) for bot, (mu, sigma) in stored_ratings(db, game, variant).items()}
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
    meets itself (:func:`arena.league.stats.pair_results`).  Read from the running totals.
    """
    return {pair: HeadToHead(pair[0], pair[1], n, points / (2 * n))
            for pair, (n, points) in db.pair_stats(game, variant).items() if n}


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


def separations(table: Sequence[Rated], confidence: float = SEPARATION,
                stronger: Callable[[Any, Any], float] = stronger_probability) -> list[Separation]:
    """For each row of ``table`` (in its order), the rows it is not yet separated from.

    Two bots are separated once ``stronger`` (:func:`stronger_probability`, or the score
    model's LOS) puts one above the other with at least ``confidence``; otherwise their order
    is still open ("tied with").  The rank range runs from one below the rows surely above to
    one above the rows surely below.
    """
    out = []
    for i, row in enumerate(table):
        above = below = 0
        tied = []
        for j, other in enumerate(table):
            if i == j:
                continue
            p = stronger(other, row)
            if p >= confidence:
                above += 1
            elif 1 - p >= confidence:
                below += 1
            else:
                tied.append(j + 1)
        out.append(Separation(above + 1, len(table) - below, tuple(tied)))
    return out
