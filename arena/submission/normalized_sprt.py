"""Is the new version stronger?  The normalised SPRT on pair scores, luck-adjusted where the
game has a luck estimator (issue 35; docs/sprt.md).

A pair (one deal, sides swapped: :mod:`arena.submission.pairs`) gives a **pair score**:

* ``adjusted``: NEW's mean luck-adjusted result over its seats in the pair's two matches minus
  OLD's (:func:`referee.luck.analyse`; a result is a score relative to the table, so this is a
  margin in the game's points); beside it the *raw* score, the same with the plain results;
* ``points``: the plain outcome, ``(points - 1) / 2`` for NEW's 0, 1/2, 1, 3/2 or 2 points
  (the pentanomial outcome, centred): the fallback for a game without a luck estimator.

Either has mean 0 when the versions are equally strong, and the adjusted score has the mean of
the raw one (each luck term has mean zero: docs/luck.md), with less variance.

**Hypotheses** are on the *normalised effect* of the raw pair score, ``t = E[score] / sd(raw
score)`` per pair, in fishtest's **normalised Elo** (``nElo = t / sqrt(2) * 800 / ln 10``: the
per-match t-value of a pair of matches times ``800 / ln 10``): H0 ``elo0`` (0) against H1
``elo1`` (10).  Why this unit:

* a margin in game points has no win probability without a model per game and per pair of
  bots, so logistic Elo cannot state a hypothesis about margins; a t-value can, in the same
  words for plain points and for margins, in every game;
* it is measured against the *raw* spread, a property of the two bots and the game, never of
  the estimator: H1 means the same with or without luck adjustment, and a better estimator only
  makes the test shorter (the adjusted scores estimate the same mean with less variance);
* for plain points of decisive, independent matches, normalised and logistic Elo coincide
  (the per-match sd is then 1/2), so the default [0, 10] asks what the logistic test asked.

"Stronger" then means a mean margin (or share of the points) of at least ``t1`` raw standard
deviations: for the adjusted test, a question about the score margin, not the win rate.

**The LLR** is fishtest's normal (Brownian) approximation of the generalised SPRT, with the
pairs' empirical variance, valid for any real pair score::

    LLR = N (mu1 - mu0) (2 m - mu0 - mu1) / (2 v),    mu_k = t_k * sd_raw

with ``N`` pairs, ``m`` and ``v`` the mean and variance of the scores the test counts (adjusted
or points) and ``sd_raw`` the standard deviation of the raw scores.  On plain points it is
fishtest's normalised LLR drift ``N (t1 - t0) (t - (t0 + t1) / 2)`` (``t = m / sd``); with luck
adjustment the same times ``sd_raw^2 / v``: the pairs needed shrink with the variance ratio.
The points' statistics are regularised as the logistic test's (an unseen pair score counts
0.001 pairs); ``v`` is kept above 1/1000 of ``sd_raw^2``, and a run whose raw scores have not
varied yet (NEW and OLD played every pair alike) is judged on its regularised points.  It
stops at Wald's bounds after at least :data:`~arena.submission.sprt.MIN_PAIRS` pairs, as the
logistic test does.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from arena.submission.sprt import MIN_PAIRS, PAIR_SCORES, SPRT, PairCounts, Verdict, score_stats
from arena.submission.sprt import NAME as LOGISTIC

NAME = "normalized"
"""The test's name in every output (the older one is ``"logistic"``)."""

MEASURES = ("adjusted", "margin", "points")
"""What a pair score is: luck-adjusted results, or plain points (see the module docstring)."""

NELO_PER_T = 800.0 / math.log(10.0)
"""Normalised Elo per unit of per-match t-value (fishtest's constant, 347.4)."""


def pair_t(nelo: float) -> float:
    """The per-pair t-value of a normalised Elo (a pair is two matches: ``sqrt(2)`` per-match)."""
    return math.sqrt(2.0) * nelo / NELO_PER_T


def nelo_of(t: float) -> float:
    """The normalised Elo of a per-pair t-value (the inverse of :func:`pair_t`)."""
    return t * NELO_PER_T / math.sqrt(2.0)


VARIANCE_FLOOR = 1e-3
"""The counted scores' variance is taken as at least this share of the raw scores' (a perfect
estimator would otherwise give an infinite LLR)."""


def brownian_llr(pairs: float, mean: float, variance: float, mu0: float, mu1: float) -> float:
    """Fishtest's normal approximation of the generalised LLR of mean ``mu1`` against ``mu0``
    for ``pairs`` scores of this mean and (population) variance."""
    return pairs * (mu1 - mu0) * (2.0 * mean - mu0 - mu1) / (2.0 * variance) if pairs else 0.0


@dataclass
class NormalizedSPRT(PairCounts):
    """One normalised test's state: parameters, the pair scores' running mean and sum of
    squared deviations (Welford), and the plain pentanomial counts (shown, and the score).

    The same interface as :class:`arena.submission.sprt.SPRT`: :meth:`record`, :attr:`llr`,
    :attr:`bounds`, :attr:`verdict`, :meth:`to_json` / :meth:`from_json`.
    """

    elo0: float = 0.0
    """H0: NEW is this much stronger (normalised Elo, :attr:`elo_unit`)."""
    elo1: float = 10.0
    """H1; above ``elo0``."""
    alpha: float = 0.05
    beta: float = 0.05
    measure: str = "adjusted"
    """``"adjusted"``, ``"margin"`` (the raw pair score: a game whose estimator is not used for
    verdicts, :attr:`referee.luck.Estimator.for_verdicts`) or ``"points"`` (:data:`MEASURES`)."""
    estimator: str = ""
    """The luck estimator (``"game/version"``) of an adjusted test; ``""`` for points."""
    note: str = ""
    """Why a test uses plain points (``"no luck estimator for jass"``), for every output."""
    counts: list[int] = field(default_factory=lambda: [0] * len(PAIR_SCORES))
    n: int = 0
    mean: float = 0.0
    """The adjusted pair scores' mean (0 for a test on points, which reads :attr:`counts`)."""
    m2: float = 0.0
    """Their sum of squared deviations from the mean (Welford's)."""
    raw_mean: float = 0.0
    """The raw pair scores' mean and sum of squared deviations (adjusted tests)."""
    raw_m2: float = 0.0
    min_pairs: int = MIN_PAIRS

    def __post_init__(self) -> None:
        self._check_parameters()
        if self.measure not in MEASURES:
            raise ValueError(f"measure must be one of {', '.join(MEASURES)}, not {self.measure!r}")
        if (self.measure == "adjusted") != bool(self.estimator):
            raise ValueError("an adjusted test names its luck estimator, a test on points none")
        moments = (self.mean, self.m2, self.raw_mean, self.raw_m2)
        if type(self.n) is not int or self.n != sum(self.counts) or not all(math.isfinite(x) for x in moments) \
                or min(self.m2, self.raw_m2) < 0:
            raise ValueError("inconsistent pair statistics")

    name = NAME

    elo_unit = "normalized"

    @property
    def needs_luck(self) -> bool:
        return self.measure == "adjusted"

    @property
    def needs_margin(self) -> bool:
        """The test counts each pair's raw margin, without luck (``"margin"``)."""
        return self.measure == "margin"

    def describe(self) -> str:
        """One line for every output: which test, on what."""
        if self.measure == "adjusted":
            return f"normalized GSPRT on luck-adjusted pair results (estimator {self.estimator})"
        if self.measure == "margin":
            return "normalized GSPRT on plain pair results" + (f" ({self.note})" if self.note else "")
        return "normalized GSPRT on plain pair points" + (f" ({self.note})" if self.note else "")

    @property
    def pairs(self) -> int:
        return self.n

    def _statistics(self) -> tuple[float, float, float, float]:
        """``(pairs, mean, variance, raw sd)`` of the counted scores (see the module docstring)."""
        raw_variance = self.raw_m2 / self.n if self.n else 0.0
        if self.measure == "points" or raw_variance <= 0.0:
            pairs, mean, variance = score_stats(self.counts)  # per match: centre it on 1/2
            return pairs, mean - 0.5, variance, math.sqrt(variance)
        return self.n, self.mean, max(self.m2 / self.n, VARIANCE_FLOOR * raw_variance), math.sqrt(raw_variance)

    @property
    def llr(self) -> float:
        if not self.n:
            return 0.0
        pairs, mean, variance, raw_sd = self._statistics()
        return brownian_llr(pairs, mean, variance, pair_t(self.elo0) * raw_sd, pair_t(self.elo1) * raw_sd)

    @property
    def nelo(self) -> float | None:
        """The normalised Elo estimate: the counted scores' mean over the raw sd (``None``
        before the second pair)."""
        if self.n < 2:
            return None
        _, mean, _, raw_sd = self._statistics()
        return nelo_of(mean / raw_sd) if raw_sd > 0.0 else None

    def record(self, points: float, adjusted: float | None = None, raw: float | None = None) -> Verdict | None:
        """Count one pair: NEW's plain points (0 to 2 by halves) and, for an adjusted test, its
        adjusted and raw pair scores (NEW's mean adjusted, and plain, result minus OLD's); for a
        test on margins, the raw one alone.

        :raises ValueError: on a bad score, a missing adjusted or raw score, or once the test has ended.
        """
        if self.measure == "adjusted" and not all(x is not None and math.isfinite(x) for x in (adjusted, raw)):
            raise ValueError(f"an adjusted test needs the pair's adjusted and raw scores, not {adjusted!r}, {raw!r}")
        if self.measure == "margin" and (raw is None or not math.isfinite(raw)):
            raise ValueError(f"a test on margins needs the pair's raw score, not {raw!r}")
        self._count(points)
        self.n += 1
        if self.measure != "points":
            counted = adjusted if self.measure == "adjusted" else raw
            assert counted is not None and raw is not None
            self.mean, self.m2 = _welford(self.n, self.mean, self.m2, counted)
            self.raw_mean, self.raw_m2 = _welford(self.n, self.raw_mean, self.raw_m2, raw)
        return self.verdict

    def to_json(self) -> dict[str, Any]:
        lower, upper = self.bounds
        verdict = self.verdict
        return {"test": NAME, "describe": self.describe(), "measure": self.measure, "estimator": self.estimator,
                "note": self.note, "elo_unit": self.elo_unit, "elo0": self.elo0, "elo1": self.elo1,
                "alpha": self.alpha, "beta": self.beta, "min_pairs": self.min_pairs, "counts": list(self.counts),
                "pairs": self.n, "mean": self.mean, "m2": self.m2, "raw_mean": self.raw_mean, "raw_m2": self.raw_m2,
                "nelo": self.nelo, "llr": self.llr, "lower": lower,
                "upper": upper, "verdict": verdict.value if verdict is not None else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NormalizedSPRT:
        """:raises ValueError: on missing or invalid fields (derived ones are recomputed)."""
        try:
            if data["test"] != NAME:
                raise ValueError(f"not a {NAME} test: {data['test']!r}")
            return cls(elo0=float(data["elo0"]), elo1=float(data["elo1"]), alpha=float(data["alpha"]),
                       beta=float(data["beta"]), measure=str(data["measure"]), estimator=str(data["estimator"]),
                       note=str(data["note"]), counts=list(data["counts"]), n=data["pairs"],
                       mean=float(data["mean"]), m2=float(data["m2"]), raw_mean=float(data["raw_mean"]),
                       raw_m2=float(data["raw_m2"]), min_pairs=data["min_pairs"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"not an SPRT state: {error!r}") from None


def _welford(n: int, mean: float, m2: float, x: float) -> tuple[float, float]:
    """The running mean and sum of squared deviations after the ``n``-th value ``x``."""
    delta = x - mean
    mean += delta / n
    return mean, m2 + delta * (x - mean)


PairTest = SPRT | NormalizedSPRT
"""Either test: the same interface."""

TESTS = (NAME, LOGISTIC)
"""The tests a run may use, the default first."""


def load_test(data: Mapping[str, Any]) -> PairTest:
    """The test a stored state is (a state without a ``test`` name is a logistic one).

    :raises ValueError: on an unknown test or a bad state."""
    name = data.get("test", LOGISTIC)
    if name == LOGISTIC:
        return SPRT.from_json(data)
    if name == NAME:
        return NormalizedSPRT.from_json(data)
    raise ValueError(f"unknown SPRT test {name!r}")


def new_test(game: str, test: str = NAME, *, elo0: float = 0.0, elo1: float = 10.0, alpha: float = 0.05,
             beta: float = 0.05) -> PairTest:
    """A fresh test of ``game``: the logistic one (bounds in logistic Elo), or the normalised one
    (bounds in normalised Elo) on luck-adjusted scores when the game has a luck estimator used
    for verdicts, on raw margins with a note when its estimator is not
    (:attr:`referee.luck.Estimator.for_verdicts`), on plain points with a note when it has none.

    :raises ValueError: on an unknown test or bounds the test refuses."""
    from referee.luck import LuckError, estimator_for  # the estimators import the engines: only when a run opens

    if test == LOGISTIC:
        return SPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta)
    if test != NAME:
        raise ValueError(f"the test is one of {', '.join(TESTS)}, not {test!r}")
    try:
        estimator = estimator_for(game)
    except (LuckError, ImportError):
        return NormalizedSPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, measure="points",
                              note=f"no luck estimator for {game}")
    if not estimator.for_verdicts:
        return NormalizedSPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, measure="margin",
                              note=f"{estimator.name} not used: it adds variance here, docs/luck.md")
    return NormalizedSPRT(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, measure="adjusted", estimator=estimator.name)


__all__ = ["MEASURES", "NAME", "NELO_PER_T", "TESTS", "VARIANCE_FLOOR", "NormalizedSPRT", "PairTest", "brownian_llr",
           "load_test", "nelo_of", "new_test", "pair_t"]
