"""The SPRT's statistics: hand-computed values, an independent exact computation, the state object."""

from __future__ import annotations

import json
import math
import statistics

import pytest

from arena.submission.sprt import (MIN_PAIRS, PAIR_SCORES, SPRT, Verdict, elo_from_score, logistic_score,
                                   pentanomial_llr, score_stats, wald_bounds)


def test_logistic_score_and_its_inverse() -> None:
    assert logistic_score(0) == 0.5
    assert logistic_score(400) == pytest.approx(10 / 11)  # 10 ** (400 / 400) = 10 to 1
    assert logistic_score(-400) == pytest.approx(1 / 11)
    assert elo_from_score(10 / 11) == pytest.approx(400)
    assert f"{elo_from_score(0.5):+.0f}" == "+0"  # not "-0"
    assert elo_from_score(1.0) == math.inf and elo_from_score(0.0) == -math.inf


def test_wald_bounds_for_five_percent_are_log_19() -> None:
    lower, upper = wald_bounds(0.05, 0.05)
    assert upper == pytest.approx(math.log(19)) and lower == pytest.approx(-math.log(19))
    assert wald_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


def test_llr_by_hand() -> None:
    # 10 pairs: 1 x 0, 2 x 1/2, 3 x 1, 2 x 3/2, 2 x 2 points.  Per-match scores 0, .25, .5, .75, 1:
    # mean 5.5 / 10 = 0.55; variance (.3025 + 2 * .09 + 3 * .0025 + 2 * .04 + 2 * .2025) / 10 = 0.0975.
    assert score_stats([1, 2, 3, 2, 2]) == pytest.approx((10, 0.55, 0.0975))
    s1 = 1 / (1 + 10 ** (-10 / 400))  # 0.514387...
    assert pentanomial_llr([1, 2, 3, 2, 2], 0, 10) == pytest.approx(10 * (s1 - 0.5) * (1.1 - 0.5 - s1) / 0.195)
    assert pentanomial_llr([1, 2, 3, 2, 2], 0, 10) == pytest.approx(0.06316, abs=1e-5)


def test_unseen_scores_count_a_thousandth() -> None:
    # Only draws (pair score 1): every other score counts 0.001, so the variance is small but not zero.
    pairs, mean, variance = score_stats([0, 0, 5, 0, 0])
    assert pairs == pytest.approx(5.004) and mean == pytest.approx(0.5)
    assert variance == pytest.approx(0.001 * (0.25 + 0.0625 + 0.0625 + 0.25) / 5.004)
    assert pentanomial_llr([0, 0, 5, 0, 0], 0, 10) < wald_bounds(0.05, 0.05)[0]


def test_stats_match_a_plain_computation_over_the_pairs() -> None:
    scores = [2, 1.5, 1, 1, 0.5, 0, 2, 1.5, 1, 1, 1, 0.5, 2, 2, 1.5]
    counts = [scores.count(s) for s in PAIR_SCORES]  # every score seen: no regularisation
    per_match = [s / 2 for s in scores]
    pairs, mean, variance = score_stats(counts)
    assert (pairs, mean, variance) == pytest.approx((len(scores), statistics.fmean(per_match),
                                                     statistics.pvariance(per_match)))


def _exact_llr(counts: list[int], s0: float, s1: float) -> float:
    """The generalised LLR itself: the likelihood maximised over all distributions of the five
    scores with mean ``s1``, against those with mean ``s0``.  The maximiser with mean ``s`` is
    p_i / (1 + x (a_i - s)) where x solves sum p_i (a_i - s) / (1 + x (a_i - s)) = 0 (a Lagrange
    multiplier), found here by bisection."""
    n = sum(counts)
    p = [c / n for c in counts]
    a = [s / 2 for s in PAIR_SCORES]

    def fitted(s: float) -> list[float]:
        d = [ai - s for ai in a]
        lo, hi = -1 / max(d) + 1e-12, -1 / min(d) - 1e-12
        for _ in range(200):  # the sum decreases in x
            x = (lo + hi) / 2
            if sum(pi * di / (1 + x * di) for pi, di in zip(p, d)) > 0:
                lo = x
            else:
                hi = x
        return [pi / (1 + x * di) for pi, di in zip(p, d)]

    q0, q1 = fitted(s0), fitted(s1)
    return sum(c * math.log(b / a_) for c, a_, b in zip(counts, q0, q1))


@pytest.mark.parametrize(("counts", "within"), [([40, 90, 150, 110, 60], 0.02), ([60, 110, 150, 90, 40], 0.02),
                                               ([300, 1, 200, 1, 350], 0.01), ([2, 3, 5, 3, 2], 0.001),
                                               ([5, 30, 400, 30, 5], 0.07)])
def test_approximation_is_close_to_the_exact_generalised_llr(counts: list[int], within: float) -> None:
    # The approximation is second order in (s1 - s0) / sigma: a few per cent off at most, most
    # where the variance is small (the last, nearly all equal pairs: sigma 0.115, 6 %).
    s0, s1 = logistic_score(0), logistic_score(10)
    assert pentanomial_llr(counts, 0, 10) == pytest.approx(_exact_llr(counts, s0, s1), rel=within)


def test_no_verdict_before_min_pairs_even_past_the_bound() -> None:
    test = SPRT()
    for _ in range(MIN_PAIRS - 1):
        assert test.record(2.0) is None
    assert test.llr > test.bounds[1]  # the LLR says stronger already; the test waits for MIN_PAIRS
    assert test.record(2.0) is Verdict.STRONGER
    assert test.pairs == MIN_PAIRS


def test_always_equal_pairs_are_not_stronger() -> None:
    test = SPRT(min_pairs=1)
    while (verdict := test.record(1.0)) is None:
        assert test.pairs < 10
    assert verdict is Verdict.NOT_STRONGER and test.score == 0.5 and test.elo == 0


def test_a_decided_test_takes_no_more_pairs() -> None:
    test = SPRT(min_pairs=1)
    while test.record(2.0) is None:
        pass
    with pytest.raises(ValueError, match="has ended"):
        test.record(0.0)


def test_record_refuses_other_scores() -> None:
    with pytest.raises(ValueError, match="pair score"):
        SPRT().record(0.75)


@pytest.mark.parametrize("kwargs", [{"elo0": 10, "elo1": 0}, {"elo0": 5, "elo1": 5}, {"alpha": 0},
                                    {"beta": 0.5}, {"elo1": math.nan}, {"counts": [1, 2, 3]},
                                    {"counts": [0, 0, -1, 0, 0]}, {"min_pairs": 0}])
def test_bad_parameters_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        SPRT(**kwargs)  # type: ignore[arg-type]


def test_state_round_trips_through_json() -> None:
    test = SPRT(elo0=-2, elo1=8, alpha=0.1, beta=0.05, min_pairs=3)
    for score in (2.0, 1.0, 1.5, 0.5):
        test.record(score)
    data = json.loads(json.dumps(test.to_json()))
    again = SPRT.from_json(data)
    assert again == test
    assert data["llr"] == pytest.approx(test.llr) and data["pairs"] == 4
    assert (data["lower"], data["upper"]) == pytest.approx(test.bounds)
    assert data["verdict"] is None if test.verdict is None else data["verdict"] == test.verdict.value
    with pytest.raises(ValueError, match="not an SPRT state"):
        SPRT.from_json({"elo0": 0})
