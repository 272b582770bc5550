"""The normalised SPRT on pair scores: hand-computed values, fishtest's normalised drift on plain
points, the variance ratio of luck adjustment, the old test kept for stored states, and the
luck of real matches turned into pair scores."""

from __future__ import annotations

import math
import statistics
import sys
from pathlib import Path

import pytest

from arena.submission.normalized_sprt import (NELO_PER_T, NormalizedSPRT, brownian_llr, load_test, nelo_of,
                                              new_test, pair_t)
from arena.submission.pairs import adjusted_score, pair_layout
from arena.submission.sprt import PAIR_SCORES, SPRT, Verdict, score_stats
from arena.executors import JobResult
from referee import luck

ROOT = Path(__file__).resolve().parents[2]


def test_normalised_elo_is_fishtests_per_match_t_value() -> None:
    assert NELO_PER_T == pytest.approx(347.43558552260146)
    assert pair_t(10) == pytest.approx(math.sqrt(2) * 10 * math.log(10) / 800)  # 0.0407
    assert nelo_of(pair_t(7.5)) == pytest.approx(7.5)


def test_brownian_llr_by_hand() -> None:
    # 20 pairs of mean 0.3 and variance 0.5, H0 mean 0, H1 mean 0.1: 20 * 0.1 * (0.6 - 0.1) / 1.0 = 1.0
    assert brownian_llr(20, 0.3, 0.5, 0.0, 0.1) == pytest.approx(1.0)
    assert brownian_llr(0, 0.3, 0.5, 0.0, 0.1) == 0.0


def test_on_points_it_is_fishtests_normalised_drift() -> None:
    """N (t1 - t0) (t - (t0 + t1) / 2) with t the per-pair t-value of the (regularised) points."""
    scores = [2, 1.5, 1, 1, 0.5, 0, 2, 1.5, 1, 1, 1, 0.5, 2, 2, 1.5, 1, 2, 0.5]
    test = NormalizedSPRT(measure="points", note="no luck estimator for this test", elo0=-3, elo1=12)
    for points in scores:
        test.record(points)
    pairs, mean, variance = score_stats([scores.count(s) for s in PAIR_SCORES])
    t = (mean - 0.5) / math.sqrt(variance)
    t0, t1 = pair_t(-3), pair_t(12)
    assert test.llr == pytest.approx(pairs * (t1 - t0) * (t - (t0 + t1) / 2))
    assert test.nelo == pytest.approx(nelo_of(t))
    assert test.score == pytest.approx(sum(scores) / (2 * len(scores)))


def _adjusted(raw: list[float], shrink: float) -> list[float]:
    """Scores with the raw ones' mean and ``shrink`` times their deviations."""
    mean = statistics.fmean(raw)
    return [mean + shrink * (x - mean) for x in raw]


def test_luck_adjustment_multiplies_the_llr_by_the_variance_ratio() -> None:
    raw = [3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, -6.0, 5.0, 3.0, 5.0, -8.0]
    plain, adjusted = (NormalizedSPRT(measure="adjusted", estimator="test/1", min_pairs=1) for _ in range(2))
    for x, y in zip(raw, _adjusted(raw, 0.5)):
        plain.record(2.0 if x > 0 else 0.0, x, x)
        adjusted.record(2.0 if x > 0 else 0.0, y, x)
    assert adjusted.llr == pytest.approx(4 * plain.llr)  # variance / 4: the same evidence in a quarter of the pairs
    m, sd = statistics.fmean(raw), statistics.pstdev(raw)
    t1 = pair_t(10)
    assert plain.llr == pytest.approx(len(raw) * t1 * (m / sd - t1 / 2))
    assert plain.nelo == pytest.approx(adjusted.nelo) == pytest.approx(nelo_of(m / sd))  # the same estimate


def test_a_perfect_estimator_is_capped_not_infinite() -> None:
    test = NormalizedSPRT(measure="adjusted", estimator="test/1")
    for x in (1.0, -1.0, 2.0, 0.0):
        test.record(1.0, 0.5, x)  # every adjusted score equal: variance 0
    assert math.isfinite(test.llr) and test.llr > 0


def test_identical_bots_that_play_alike_are_judged_on_their_points() -> None:
    """Raw scores that never vary (NEW and OLD played each pair alike): the regularised points
    decide.  Their t-value is 0, so the LLR falls by t1^2 / 2 a pair: "not stronger" once
    N t1^2 / 2 reaches log(19), after about 3,555 pairs (a t-value needs pairs to be told apart
    from 0.04; the logistic test says it after 10)."""
    test = NormalizedSPRT(measure="adjusted", estimator="test/1")
    while test.verdict is None:
        test.record(1.0, 0.0, 0.0)
    expected = math.ceil(2 * math.log(19) / pair_t(10) ** 2 * 1.0001)  # the 0.001 unseen counts weigh in
    assert test.verdict is Verdict.NOT_STRONGER and abs(test.pairs - expected) <= 2


def test_no_verdict_before_the_minimum_and_none_after_it_ends() -> None:
    test = NormalizedSPRT(measure="adjusted", estimator="test/1")
    for _ in range(9):
        assert test.record(2.0, 10.0 + _, 10.0 + 2 * _) is None
    assert test.record(2.0, 12.0, 13.0) is Verdict.STRONGER
    with pytest.raises(ValueError, match="ended"):
        test.record(2.0, 1.0, 1.0)


def test_an_adjusted_test_refuses_a_pair_without_its_scores() -> None:
    test = NormalizedSPRT(measure="adjusted", estimator="test/1")
    with pytest.raises(ValueError, match="adjusted and raw"):
        test.record(2.0)
    with pytest.raises(ValueError, match="adjusted and raw"):
        test.record(2.0, math.nan, 1.0)
    with pytest.raises(ValueError, match="names its luck estimator"):
        NormalizedSPRT(measure="adjusted")
    with pytest.raises(ValueError, match="below"):
        NormalizedSPRT(elo0=5, elo1=5, measure="points")


def test_states_round_trip_and_old_states_read_as_the_logistic_test() -> None:
    test = NormalizedSPRT(measure="adjusted", estimator="test/1")
    for x in (1.5, -0.25, 3.0):
        test.record(1.5, x, 2 * x)
    again = load_test(test.to_json())
    assert again == test and again.to_json() == test.to_json()
    old = {"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "min_pairs": 10, "counts": [0, 1, 4, 3, 2],
           "pairs": 10, "llr": 0.39, "lower": -2.94, "upper": 2.94, "verdict": None}  # as runs were stored
    read = load_test(old)
    assert isinstance(read, SPRT) and read.counts == [0, 1, 4, 3, 2] and read.to_json()["test"] == "logistic"
    assert read.llr == pytest.approx(0.39093452077450735)
    with pytest.raises(ValueError, match="unknown SPRT test"):
        load_test({**old, "test": "bayes"})


def test_a_game_without_an_estimator_falls_back_to_points_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(luck._ESTIMATOR_MODULES, "jass", raising=False)
    test = new_test("jass")
    assert isinstance(test, NormalizedSPRT) and test.measure == "points" and not test.needs_luck
    assert test.describe() == "normalized GSPRT on plain pair points (no luck estimator for jass)"
    assert isinstance(new_test("jass", "logistic"), SPRT)
    with pytest.raises(ValueError, match="the test is one of"):
        new_test("jass", "bayes")



def test_a_game_whose_estimator_is_not_for_verdicts_counts_raw_margins() -> None:
    """Yoninkan's estimator is measured to add variance on pairs: its runs count the raw margin,
    say so, and score it like an adjusted test whose luck is zero."""
    test = new_test("yoninkan")
    assert isinstance(test, NormalizedSPRT) and test.measure == "margin" and test.needs_margin and not test.needs_luck
    assert "plain pair results (yoninkan/1 not used" in test.describe()
    with pytest.raises(ValueError, match="raw score"):
        test.record(2.0)
    same = NormalizedSPRT(measure="adjusted", estimator="test/1")
    for points, raw in ((2.0, 30.0), (1.0, -4.0), (2.0, 12.5), (0.0, -20.0)):
        test.record(points, None, raw)
        same.record(points, raw, raw)
    assert test.llr == same.llr and test.nelo == same.nelo
    assert load_test(test.to_json()) == test
    assert new_test("gin_rummy").measure == "adjusted"  # an estimator used for verdicts

ZERO_LUCK = '''
from referee.luck import Estimator


class ZeroLuck(Estimator):
    """A throwaway estimator for tests: every value 0, no chance event, so no luck."""
    game = "{game}"
    version = 1

    def value(self, state):
        return [0.0] * state.game.num_players

    def initial(self, game, state):
        return [0.0] * game.num_players

    def may_resolve_chance(self, state, action):
        return False

    def chance(self, before, action, after):
        return None


ESTIMATOR = ZeroLuck()
'''


@pytest.mark.parametrize("game", ["yahtzee", "jass"])
def test_real_matches_give_their_margin_as_the_pair_score(game: str, tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With an estimator that sees no luck, the adjusted score is the raw one: NEW's mean
    result minus OLD's, from the records of two real matches (Jass: NEW's team)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from inprocess import heuristic, noisy, play
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    (tmp_path / f"zero_luck_{game}.py").write_text(ZERO_LUCK.replace("{game}", game))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(luck._ESTIMATOR_MODULES, game, f"zero_luck_{game}")
    test = new_test(game)
    assert test.needs_luck and test.estimator == f"{game}/1"
    layout = pair_layout(game)
    decide = heuristic(game)
    records = [play(game, 7, list(layout.seats(match, noisy(decide, 0.5, 1), decide))) for match in (0, 1)]
    played = [JobResult(match, record) for match, record in enumerate(records)]
    adjusted, raw = adjusted_score(layout, played, test.estimator)
    sign = -1.0 if game == "yaniv" else 1.0
    margins = []
    for record, seats in zip(records, layout.new_seats):
        new = [record.scores[s] for s in seats]
        old = [record.scores[s] for s in range(layout.num_players) if s not in seats]
        margins.append(sign * (statistics.fmean(new) - statistics.fmean(old)))
    assert adjusted == raw == pytest.approx(statistics.fmean(margins))
    test.record(layout.points([r.ranking for r in records]), adjusted, raw)
    assert test.pairs == 1 and test.mean == adjusted
