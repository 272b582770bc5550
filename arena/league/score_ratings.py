"""Ratings that learn from the score: a Gaussian model of each seat's luck-adjusted result,
fitted over all the matches at once (``rating = "score"``; docs/ratings.md).

**The model.**  Each bot has a strength ``theta``.  In a match, seat ``s``'s *adjusted result*
``y_s`` (its score relative to the table, minus its luck, :mod:`referee.luck`) is::

    y_s = theta(side of s) - mean over seats of theta(side) + noise

where a side is the seat's bot, or in a team game (Jass) its partnership, whose strength is
its members' mean.  The noise is a seat's independent normal error of variance ``noise^2``,
taken relative to the table as the result is (projected by :func:`design`), one variance per
game and variant, estimated from the residuals.  So a rating *difference* is directly in the
game's points: ``theta_a - theta_b`` is how many points more ``a`` scores than ``b`` per match,
on average, at the same table.  Ratings are relative to the mean of the rated bots (they sum
to 0).

**The fit** is the posterior mean under a weak normal prior (``theta ~ N(0, noise^2 /
PRIOR_WEIGHT)``, as much as one heads-up match against a bot of strength 0): weighted least
squares on the sufficient statistics ``A = X'X``, ``b = X'y`` and ``y'y``, which are sums
over the matches.  The result is therefore independent of the matches' order, and adding
matches to an :class:`Accumulator` then solving equals a refit from scratch (to rounding).
The posterior covariance ``noise^2 (A + PRIOR_WEIGHT I)^-1`` gives each rating's interval
and the likelihood of superiority ``LOS(a, b) = Phi((theta_a - theta_b) / sd(theta_a -
theta_b))``, covariances included (bots that met often are compared more surely).

Matches without a luck report of the current estimator use their raw result (counted in
:attr:`ScoreFit.raw`).  A forfeiting seat's score becomes the table's worst and the match is
rated raw (its luck, if any, measured the forfeited play).  Matches where one bot sits on two
sides (self-play) are skipped, as for TrueSkill (:func:`arena.league.ratings.rated_sides`).

numpy is imported here only, by the callers that fit (the CLI's fast start needs it absent
otherwise).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from arena.league import stats as league_stats
from arena.league.storage import Database

if TYPE_CHECKING:
    import numpy as np

MODEL = "score"
"""The name of this model in configs, options and outputs (TrueSkill's is ``"trueskill"``)."""
MODELS = ("trueskill", MODEL)
PRIOR_WEIGHT = 0.5
"""The prior's precision in units of the data's (one heads-up match adds 0.5 to a bot's)."""
CHUNK = 20_000
"""Matches read and added at once: memory stays flat however many there are."""
INTERVAL_Z = 1.959964
"""A rating's interval is ``rating +- INTERVAL_Z * sd``: 95 %."""


def design(seats: int, teams: Sequence[Sequence[int]] | None) -> np.ndarray:
    """The ``seats x seats`` projection ``M`` that maps seat values to side values relative to the
    table: the mean over the seat's side, minus the mean over all seats.  ``M`` is symmetric and
    idempotent; its rank (sides - 1) is what a match contributes to the residual degrees of
    freedom."""
    import numpy as np

    side = np.eye(seats)
    if teams is not None and sorted(s for team in teams for s in team) == list(range(seats)):
        side = np.zeros((seats, seats))
        for team in teams:
            for s in team:
                side[s, list(team)] = 1.0 / len(team)
    return side - np.full((seats, seats), 1.0 / seats)


def rateable(bots: Sequence[int], teams: Sequence[Sequence[int]] | None) -> bool:
    """Whether a match can be rated: at least two sides and no bot on two of them (a bot may
    fill both seats of one partnership)."""
    groups = [list(team) for team in teams] if teams is not None and len(bots) == sum(map(len, teams)) \
        else [[s] for s in range(len(bots))]
    sides = [{bots[s] for s in group} for group in groups]
    return len(sides) >= 2 and sum(len(side) for side in sides) == len(set().union(*sides))


@dataclass
class Accumulator:
    """The fit's sufficient statistics over the matches added so far (sums, so order-free)."""

    index: dict[int, int] = field(default_factory=dict)
    """Bot id -> row of :attr:`a`, in order of first appearance (:meth:`fit` sorts by id)."""
    a: Any = None
    b: Any = None
    yy: float = 0.0
    dof: int = 0
    """Sum over the rated matches of their rank (sides - 1)."""
    matches: int = 0
    adjusted: int = 0
    """Rated matches whose luck-adjusted result was used."""
    raw: int = 0
    """Rated matches that used their raw result (no luck report of the estimator, or a forfeit)."""
    skipped: int = 0
    """Played matches left out (self-play, a missing score)."""
    counts: dict[int, int] = field(default_factory=dict)
    """Rated matches per bot id."""
    last_id: int = 0
    """The largest match id added (the stored reader's high-water mark)."""

    def _rows(self, bots: np.ndarray) -> np.ndarray:
        """Rows of ``bots`` in :attr:`a`, growing it for bots not seen yet."""
        import numpy as np

        unique, inverse = np.unique(bots, return_inverse=True)
        new = [int(b) for b in unique if int(b) not in self.index]
        if new or self.a is None:
            for b in new:
                self.index[b] = len(self.index)
            size = len(self.index)
            grown = np.zeros((size, size))
            old = 0 if self.a is None else self.a.shape[0]
            if old:
                grown[:old, :old] = self.a
            self.a, self.b = grown, np.concatenate([np.zeros(0) if self.b is None else self.b, np.zeros(size - old)])
        return np.array([self.index[int(b)] for b in unique], dtype=np.int64)[inverse].reshape(bots.shape)

    def add(self, bots: np.ndarray, results: np.ndarray, projection: np.ndarray, *, adjusted: int = 0) -> None:
        """Add ``k`` rated matches of one table shape: ``bots`` and ``results`` are ``k x seats``
        (bot ids, results in points, higher better), ``projection`` that shape's :func:`design`;
        ``adjusted`` of them used their luck-adjusted result."""
        import numpy as np

        k, n = bots.shape
        if k == 0:
            return
        rows = self._rows(bots)
        p = self.a.shape[0]
        y = results @ projection  # the side's result relative to the table (M is symmetric)
        pairs = [(t, u) for t in range(n) for u in range(n) if projection[t, u] != 0.0]
        flat = np.concatenate([rows[:, t] * p + rows[:, u] for t, u in pairs])
        weights = np.repeat([projection[t, u] for t, u in pairs], k)
        self.a += np.bincount(flat, weights=weights, minlength=p * p).reshape(p, p)
        self.b += np.bincount(rows.ravel(), weights=y.ravel(), minlength=p)
        self.yy += float(np.sum(y * y))
        self.dof += k * int(round(np.trace(projection)))
        self.matches += k
        self.adjusted += adjusted
        self.raw += k - adjusted
        ordered = np.sort(bots, axis=1)
        first = np.ones(ordered.shape, dtype=bool)
        first[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
        for bot, count in zip(*np.unique(ordered[first], return_counts=True)):
            self.counts[int(bot)] = self.counts.get(int(bot), 0) + int(count)


@dataclass(frozen=True)
class ScoreRating:
    """One bot's rating: ``mu`` (points relative to the rated bots' mean) and its posterior
    ``sigma``; the names TrueSkill's ratings use, so "tied with" and the ladder read both."""

    mu: float
    sigma: float
    matches: int

    @property
    def interval(self) -> tuple[float, float]:
        return self.mu - INTERVAL_Z * self.sigma, self.mu + INTERVAL_Z * self.sigma


@dataclass(frozen=True)
class ScoreFit:
    """The fitted ratings of one game and variant."""

    bots: tuple[int, ...]
    """Rated bot ids, ascending: the order of :attr:`mu` and :attr:`cov`."""
    mu: Any
    cov: Any
    """Posterior covariance of the ratings (points squared)."""
    noise: float
    """The estimated standard deviation of a seat's adjusted result (points)."""
    matches: int
    adjusted: int
    raw: int
    skipped: int
    counts: dict[int, int]
    estimator: str | None = None
    """The luck estimator version whose reports were used (``None``: raw results only)."""

    @property
    def ratings(self) -> dict[int, ScoreRating]:
        return {bot: ScoreRating(float(self.mu[i]), math.sqrt(max(0.0, float(self.cov[i, i]))),
                                 self.counts.get(bot, 0)) for i, bot in enumerate(self.bots)}

    @functools.cached_property
    def _row(self) -> dict[int, int]:
        return {bot: i for i, bot in enumerate(self.bots)}

    def los(self, a: int, b: int) -> float:
        """The likelihood of superiority: the posterior probability that ``a`` is stronger than ``b``.

        :raises KeyError: for a bot the fit does not rate.
        """
        i, j = self._row[a], self._row[b]
        return _phi_ratio(float(self.mu[i] - self.mu[j]), float(self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]))

    def los_matrix(self) -> dict[tuple[int, int], float]:
        """:meth:`los` of every ordered pair of distinct rated bots."""
        return {(a, b): self.los(a, b) for a, b in itertools.permutations(self.bots, 2)}


def _phi_ratio(diff: float, variance: float) -> float:
    if variance <= 0:
        return 1.0 if diff > 0 else 0.0 if diff < 0 else 0.5
    return 0.5 * math.erfc(-diff / math.sqrt(2 * variance))


def fit(acc: Accumulator, *, prior_weight: float = PRIOR_WEIGHT, estimator: str | None = None) -> ScoreFit:
    """Solve the model over everything ``acc`` holds.

    The noise variance is ``(RSS + s0^2) / (dof + 1)``: the residual sum of squares over its
    degrees of freedom, with one pseudo-observation of ``s0^2``, the results' own variance
    around their table (what the noise would be if every bot were equal), so that the first
    matches, with no residual freedom yet, get wide intervals rather than none.
    """
    import numpy as np

    bots = tuple(sorted(acc.index))
    if not bots:
        return ScoreFit((), np.zeros(0), np.zeros((0, 0)), math.nan, acc.matches, acc.adjusted, acc.raw,
                        acc.skipped, dict(acc.counts), estimator)
    order = np.array([acc.index[b] for b in bots])
    a = acc.a[np.ix_(order, order)]
    b = acc.b[order]
    inverse = np.linalg.inv(a + prior_weight * np.eye(len(bots)))
    inverse = (inverse + inverse.T) / 2
    mu = inverse @ b
    centre = np.eye(len(bots)) - 1.0 / len(bots)  # ratings are relative to their mean: its uncertainty is no one's
    rss = max(0.0, acc.yy - 2 * float(mu @ b) + float(mu @ a @ mu))
    free = max(0, acc.dof - (len(bots) - 1))
    s0 = acc.yy / acc.dof if acc.dof else 0.0
    variance = (rss + s0) / (free + 1)
    return ScoreFit(bots, mu, variance * (centre @ inverse @ centre), math.sqrt(variance), acc.matches, acc.adjusted, acc.raw,
                    acc.skipped, dict(acc.counts), estimator)


def current_estimator(game: str) -> str | None:
    """The ``"game/version"`` of the estimator whose luck the ratings take out of the game's
    results (:func:`referee.luck.verdict_estimator`), or ``None``: plain results."""
    from referee import luck

    try:
        estimator = luck.verdict_estimator(game)
    except ImportError:
        return None
    return None if estimator is None else estimator.name


def _lower_wins(game: str) -> bool:
    from referee.games import UnknownGameError, game_class

    try:
        return game_class(game).lower_scores_win
    except UnknownGameError:
        return False


def stored_matches(db: Database, game: str, variant: str, estimator: str | None, *, after_id: int = 0,
                   before_id: int | None = None) -> Iterator[tuple[int, list[int], list[float], list[float] | None]]:
    """The played matches of a game with ``after_id < id < before_id``, in id order: ``(id, bot
    by seat, result by seat, luck by seat or None)``; results are signed so that higher is
    better, forfeiting seats get the table's worst score (and no luck).  One cursor."""
    sign = -1.0 if _lower_wins(game) else 1.0
    luck_join = "LEFT JOIN match_luck l ON l.match_id = m.id AND l.estimator = ? AND s.seat = 0" \
        if estimator is not None and db.has_luck else ""
    params: list[Any] = [estimator] if luck_join else []
    params += [game, variant, after_id, 2**63 - 1 if before_id is None else before_id]
    rows = db.conn.execute(
        "SELECT m.id, s.bot_id, s.score, s.forfeited, " + ("l.luck" if luck_join else "NULL") +
        " FROM matches m JOIN match_seats s ON s.match_id = m.id " + luck_join +
        " WHERE m.game = ? AND m.variant = ? AND m.status = 'done' AND m.id > ? AND m.id < ?"
        " ORDER BY m.id, s.seat", params)
    for match_id, seats in itertools.groupby(rows, key=lambda row: row[0]):
        seat_rows = list(seats)
        scores = [r[2] for r in seat_rows]
        if any(s is None for s in scores):
            yield match_id, [r[1] for r in seat_rows], [], None
            continue
        results = [sign * s for s in scores]
        luck = json.loads(seat_rows[0][4]) if seat_rows[0][4] is not None else None
        if any(r[3] for r in seat_rows):
            worst = min(results)
            results = [worst if r[3] else x for r, x in zip(seat_rows, results)]
            luck = None
        if luck is not None and len(luck) != len(results):
            luck = None
        yield match_id, [r[1] for r in seat_rows], results, luck


def extend(acc: Accumulator, db: Database, game: str, variant: str, estimator: str | None, *,
           before_id: int | None = None, chunk: int = CHUNK) -> Accumulator:
    """Add the stored matches after ``acc.last_id`` (and below ``before_id``) to ``acc``,
    ``chunk`` matches at a time; returns ``acc``."""
    teams = league_stats.teams_of(game)
    pending: dict[int, tuple[list[list[int]], list[list[float]], list[int]]] = {}
    held = 0

    def flush() -> None:
        import numpy as np

        for seats, (bots, results, adjusted) in pending.items():
            acc.add(np.array(bots, dtype=np.int64), np.array(results, dtype=float),
                    _design(seats, teams), adjusted=sum(adjusted))
        pending.clear()

    for match_id, bots, results, luck in stored_matches(db, game, variant, estimator, after_id=acc.last_id,
                                                        before_id=before_id):
        acc.last_id = match_id
        if not results or not rateable(bots, teams):
            acc.skipped += 1
            continue
        shape = pending.setdefault(len(bots), ([], [], []))
        shape[0].append(bots)
        shape[1].append(results if luck is None else [r - x for r, x in zip(results, luck)])
        shape[2].append(luck is not None)
        held += 1
        if held >= chunk:
            flush()
            held = 0
    flush()
    return acc


_DESIGNS: dict[tuple[int, Any], Any] = {}


def _design(seats: int, teams: Sequence[Sequence[int]] | None) -> np.ndarray:
    key = (seats, None if teams is None else tuple(map(tuple, teams)))
    if key not in _DESIGNS:
        _DESIGNS[key] = design(seats, teams)
    return _DESIGNS[key]


def refit(db: Database, game: str, variant: str, *, estimator: str | None = None,
          prior_weight: float = PRIOR_WEIGHT) -> ScoreFit:
    """The full refit of ``game``/``variant`` from its stored matches, with the luck of
    ``estimator`` (default: the game's current one)."""
    estimator = current_estimator(game) if estimator is None else estimator
    return fit(extend(Accumulator(), db, game, variant, estimator), prior_weight=prior_weight, estimator=estimator)
