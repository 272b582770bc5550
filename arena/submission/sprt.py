"""Is the new version stronger?  The *logistic* sequential probability ratio test on duplicate
pairs: the test of every run stored before issue 35, still available (``--test logistic``);
new runs use :mod:`arena.submission.normalized_sprt`, on luck-adjusted pair scores.

The new version (NEW) plays the previous one (OLD) on **duplicate pairs**: one deal played
twice with the sides swapped (:mod:`arena.submission.pairs`).  Each match gives NEW 1, 1/2 or
0 points (better, equal or worse rank than OLD), so a pair gives NEW 0, 1/2, 1, 3/2 or 2: the
**pentanomial** model, which fishtest adopted because the two games of a pair are correlated
(the deal's luck is shared) and treating them as independent games overstates the variance.

The hypotheses are logistic Elo differences: H0, NEW is ``elo0`` stronger (default 0);
H1, ``elo1`` stronger (default 10).  An Elo difference ``e`` means an expected score per match
of ``L(e) = 1 / (1 + 10 ** (-e / 400))``.  After every pair the test computes the
log-likelihood ratio (LLR) of H1 against H0 with the approximation of the generalised SPRT
that Michel Van den Bergh derived for fishtest ("GSPRT approximation"), with the mean ``m``
and variance ``v`` of the per-match score ``pair / 2`` over the ``N`` pairs so far::

    LLR = N * (s1 - s0) * (2 m - s0 - s1) / (2 v),    s0 = L(elo0), s1 = L(elo1)

and stops at Wald's bounds: accepted (stronger) once ``LLR >= log((1 - beta) / alpha)``,
rejected (not stronger) once ``LLR <= log(beta / (1 - alpha))``; with ``alpha = beta =
0.05`` that is +-2.94.  As in fishtest, a pair score not seen yet counts 0.001 pairs, so
that the variance is never zero.

**Logistic, not normalised, Elo.**  Fishtest's newer normalised Elo measures a difference
in standard deviations of the score, which makes the bounds mean the same test length
whatever the draw rate of chess at a given time control.  Here the games differ wildly in
luck (a Yahtzee pair is far noisier than a Jass pair), and an author asks "does it score
more against the old one?"; logistic Elo answers that in the same unit for every game
(+10 Elo is 51.4 % of the points), and the game's noise only changes how many pairs it
takes.  (Normalised bounds would also call a tiny but very consistent gain "stronger".)

**No verdict before** :data:`MIN_PAIRS` **pairs.**  The approximation plugs in the
variance measured so far; after a handful of pairs it is mostly the 0.001 of the unseen
scores, and a first pair won twice would already cross the upper bound.  Fishtest never
sees this (its workers report hundreds of games at once); here the LLR is still reported
from the first pair, but the test stops no earlier than :data:`MIN_PAIRS` pairs
(``benchmarks/sprt.py`` measures the false acceptances with it).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

PAIR_SCORES = (0.0, 0.5, 1.0, 1.5, 2.0)
"""NEW's points in a duplicate pair, the index of each pentanomial count."""

UNSEEN = 1e-3
"""The count given to a pair score not seen yet (fishtest's regularisation)."""

MIN_PAIRS = 10
"""Pairs before the test may stop (see the module docstring)."""

NAME = "logistic"
"""This test's name in every output; a stored state without a name is this test's (runs
stored before :mod:`arena.submission.normalized_sprt` existed)."""


class Verdict(Enum):
    """How a test ended."""

    STRONGER = "stronger"
    """The LLR reached the upper bound: H1 accepted."""
    NOT_STRONGER = "not stronger"
    """The LLR reached the lower bound: H0 accepted."""


def logistic_score(elo: float) -> float:
    """Expected score per match of a bot ``elo`` logistic Elo stronger than its opponent."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def elo_from_score(score: float) -> float:
    """The logistic Elo difference whose expected score is ``score`` (+-inf at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0: an even score is 0, not -0


def wald_bounds(alpha: float, beta: float) -> tuple[float, float]:
    """The LLR bounds (lower, upper) for false acceptance ``alpha`` and false rejection ``beta``."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def score_stats(counts: Sequence[float]) -> tuple[float, float, float]:
    """Pairs (unseen scores counted :data:`UNSEEN`), mean and variance of the per-match score.

    :raises ValueError: unless ``counts`` holds the five pentanomial counts, none negative.
    """
    if len(counts) != len(PAIR_SCORES) or any(c < 0 for c in counts):
        raise ValueError(f"expected {len(PAIR_SCORES)} counts of pair scores, none negative; got {list(counts)}")
    weights = [c if c > 0 else UNSEEN for c in counts]
    total = sum(weights)
    values = [score / 2.0 for score in PAIR_SCORES]
    mean = sum(w * x for w, x in zip(weights, values)) / total
    variance = sum(w * (x - mean) ** 2 for w, x in zip(weights, values)) / total
    return total, mean, variance


def pentanomial_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The approximate generalised log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``).

    :param counts: how many pairs gave NEW 0, 1/2, 1, 3/2 and 2 points.
    :raises ValueError: on counts that are not five non-negative numbers.
    """
    pairs, mean, variance = score_stats(counts)
    s0, s1 = logistic_score(elo0), logistic_score(elo1)
    return pairs * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * variance)


class PairCounts:
    """What both tests share: the parameters' checks, the pentanomial counts of NEW's plain
    points (shown by both, and the logistic test's data), Wald's bounds, the verdict and the
    plain score.  A test adds its :attr:`pairs` and :attr:`llr`."""

    elo0: float
    elo1: float
    alpha: float
    beta: float
    counts: list[int]
    min_pairs: int

    @property
    def pairs(self) -> int:
        raise NotImplementedError

    @property
    def llr(self) -> float:
        raise NotImplementedError

    def _check_parameters(self) -> None:
        """:raises ValueError: on bounds, error rates, counts or ``min_pairs`` out of range."""
        if not all(math.isfinite(x) for x in (self.elo0, self.elo1)) or not self.elo0 < self.elo1:
            raise ValueError(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 0.5:
                raise ValueError(f"{name} must be between 0 and 0.5 (exclusive), not {value:g}")
        if len(self.counts) != len(PAIR_SCORES) or any(type(c) is not int or c < 0 for c in self.counts):
            raise ValueError(f"counts must be {len(PAIR_SCORES)} non-negative whole numbers, not {self.counts!r}")
        if type(self.min_pairs) is not int or self.min_pairs < 1:
            raise ValueError(f"min_pairs must be a whole number of at least 1, not {self.min_pairs!r}")
        self.counts = list(self.counts)

    def _count(self, points: float) -> None:
        """Count NEW's plain points of one pair.

        :raises ValueError: on another score, or once the test has a verdict (a sequential
            test ends at its first crossing; later pairs must not change its answer).
        """
        if self.verdict is not None:
            raise ValueError(f"the test has ended ({self.verdict.value}); start a new one")
        if points not in PAIR_SCORES:
            raise ValueError(f"a pair score is one of {', '.join(f'{s:g}' for s in PAIR_SCORES)}, not {points!r}")
        self.counts[PAIR_SCORES.index(points)] += 1

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's (lower, upper) LLR bounds for :attr:`alpha` and :attr:`beta`."""
        return wald_bounds(self.alpha, self.beta)

    @property
    def verdict(self) -> Verdict | None:
        """The answer once the LLR has left the bounds (after :attr:`min_pairs`), else ``None``."""
        if self.pairs < self.min_pairs:
            return None
        lower, upper = self.bounds
        llr = self.llr
        return Verdict.STRONGER if llr >= upper else Verdict.NOT_STRONGER if llr <= lower else None

    @property
    def score(self) -> float | None:
        """NEW's mean plain points per match so far (``None`` before the first pair)."""
        pairs = sum(self.counts)
        return sum(n * s for n, s in zip(self.counts, PAIR_SCORES)) / (2.0 * pairs) if pairs else None

    @property
    def elo(self) -> float | None:
        """The logistic Elo difference that :attr:`score` corresponds to (an estimate, not a bound)."""
        return None if self.score is None else elo_from_score(self.score)


@dataclass
class SPRT(PairCounts):
    """One test's state: its parameters and the pentanomial counts so far.

    Feed it one pair at a time with :meth:`record`; it reports :attr:`llr`, :attr:`bounds`
    and :attr:`verdict`, and round-trips through :meth:`to_json` / :meth:`from_json`.
    """

    elo0: float = 0.0
    """H0: NEW is this much stronger (logistic Elo)."""
    elo1: float = 10.0
    """H1: NEW is this much stronger; above ``elo0``."""
    alpha: float = 0.05
    """The chance of calling NEW stronger when H0 holds."""
    beta: float = 0.05
    """The chance of calling NEW not stronger when H1 holds."""
    counts: list[int] = field(default_factory=lambda: [0] * len(PAIR_SCORES))
    """Pairs that gave NEW 0, 1/2, 1, 3/2 and 2 points."""
    min_pairs: int = MIN_PAIRS
    """Pairs before a verdict may be given."""

    name = NAME

    elo_unit = "logistic"
    needs_luck = False
    needs_margin = False
    """This test counts plain points only."""
    estimator = ""

    def __post_init__(self) -> None:
        self._check_parameters()

    def describe(self) -> str:
        """One line for every output: which test."""
        return "logistic pentanomial SPRT (the test before luck adjustment)"

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    @property
    def llr(self) -> float:
        """The log-likelihood ratio so far; 0 before the first pair."""
        return pentanomial_llr(self.counts, self.elo0, self.elo1) if self.pairs else 0.0

    def record(self, pair_score: float, adjusted: float | None = None, raw: float | None = None) -> Verdict | None:
        """Count one pair (NEW's points: 0, 0.5, 1, 1.5 or 2) and return the verdict;
        ``adjusted`` and ``raw`` (the margins of :mod:`~arena.submission.normalized_sprt`) are not
        used by this test.

        :raises ValueError: on another score, or once the test has ended.
        """
        self._count(pair_score)
        return self.verdict

    def to_json(self) -> dict[str, Any]:
        """Parameters and counts, and the derived LLR, bounds and verdict for readers (a web page)."""
        lower, upper = self.bounds
        verdict = self.verdict
        return {"test": NAME, "describe": self.describe(), "elo_unit": self.elo_unit, "elo0": self.elo0, "elo1": self.elo1,
                "alpha": self.alpha, "beta": self.beta,
                "min_pairs": self.min_pairs, "counts": list(self.counts), "pairs": self.pairs,
                "llr": self.llr, "lower": lower, "upper": upper,
                "verdict": verdict.value if verdict is not None else None}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SPRT:
        """The state :meth:`to_json` wrote (derived fields are recomputed, not trusted).

        :raises ValueError: on missing or invalid fields.
        """
        try:
            return cls(elo0=float(data["elo0"]), elo1=float(data["elo1"]), alpha=float(data["alpha"]),
                       beta=float(data["beta"]), counts=list(data["counts"]), min_pairs=data["min_pairs"])
        except (KeyError, TypeError) as error:
            raise ValueError(f"not an SPRT state: {error!r}") from None
