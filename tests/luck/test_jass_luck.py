"""The Swiss Jass luck estimator (referee/luck/jass.py, docs/luck.md "Swiss Jass")."""

from __future__ import annotations

import hashlib
import importlib.util
import statistics
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from referee.games import make_game
from referee.luck import LuckError, analyse, estimator_for
from referee.luck import jass as luck_jass
from referee.luck.jass_features import bonus_margins
from referee.result import MatchRecord

ROOT = Path(__file__).resolve().parents[2]
SETTINGS = {"target": 1000, "max_hands": 40}
"""Matches of about five hands: enough deals per match, fast enough for the suite."""


@pytest.fixture(scope="module")
def inprocess() -> ModuleType:
    spec = importlib.util.spec_from_file_location("luck_inprocess", ROOT / "benchmarks" / "inprocess.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def records(inprocess: ModuleType) -> list[MatchRecord]:
    """Fixed bots, fixed seeds: heuristic team vs noisy heuristics and vs random."""
    h = inprocess.heuristic("jass")
    n = inprocess.noisy(h, 0.1, 7)
    lineups = ([h, n, h, n], [inprocess.RANDOM, h, inprocess.RANDOM, h], [n, n, n, n])
    return [inprocess.play("jass", seed, lineups[seed % 3], settings=SETTINGS) for seed in range(150)]


def test_adjusted_mean_is_the_raw_mean(records: list[MatchRecord]) -> None:
    """Every luck term has mean zero: over 150 matches (seeds 0-149) the mean luck of seat 0's
    team is within 4 standard errors of zero, and the adjustment does change results."""
    luck = [analyse(record).luck[0] for record in records]
    error = statistics.stdev(luck) / len(luck) ** 0.5
    assert error > 0
    assert abs(statistics.fmean(luck)) < 4 * error


def test_luck_is_measured_at_every_deal(records: list[MatchRecord]) -> None:
    record = records[0]
    report = analyse(record)
    state = make_game("jass", settings=SETTINGS).new_initial_state(record.seed)
    for move in record.moves:
        state.apply(state.legal_actions()[move.index])
    assert [step.text for step in report.steps] == ["the deal"] + [
        f"deal of hand {hand}" for hand in range(2, state.hand_number + 1)]
    assert report.estimator == "jass/1"
    for step in report.steps:  # partners share their team's luck; the teams' luck is opposite
        assert step.luck[0] == step.luck[2] == pytest.approx(-step.luck[1]) == pytest.approx(-step.luck[3])


def test_analysis_is_deterministic(records: list[MatchRecord]) -> None:
    fresh = luck_jass.JassEstimator(luck_jass.load_model())
    for record in records[:10]:
        assert analyse(record).to_json() == analyse(record, fresh).to_json() == analyse(record).to_json()


def test_first_deal_is_alike_for_every_seat() -> None:
    """Before the first deal nobody knows who will hold the 7C and be forehand."""
    game = make_game("jass")
    expected = estimator_for("jass").initial(game, game.new_initial_state(3))
    assert len(set(expected)) == 1


def test_weis_and_stoeck_are_exact(records: list[MatchRecord]) -> None:
    """The estimator's weis and Stöck margin is what the engine scores, hand by hand."""
    checked = 0
    for record in records[:30]:
        state = make_game("jass", settings=SETTINGS).new_initial_state(record.seed)
        dealt, forehand, hand, mode = list(state.hands), state.forehand, state.hand_number, -1
        for move in record.moves:
            state.apply(state.legal_actions()[move.index])
            mode = state.mode if state.mode >= 0 else mode
            if len(state.results) >= hand:
                result = state.results[hand - 1]
                sign = 1 if forehand % 2 == 0 else -1
                assert bonus_margins(dealt, forehand)[mode] == sign * (result.bonus[0] - result.bonus[1])
                checked += 1
                dealt, forehand, hand = list(state.hands), state.forehand, state.hand_number
    assert checked > 100


def test_value_at_the_end_is_the_score(records: list[MatchRecord]) -> None:
    record = records[1]
    state = make_game("jass", settings=SETTINGS).new_initial_state(record.seed)
    for move in record.moves:
        state.apply(state.legal_actions()[move.index])
    assert luck_jass.ESTIMATOR.value(state) == list(record.scores)


def test_frozen_model_matches_its_digest() -> None:
    """models/jass-1.json cannot change without a new version (and a new file)."""
    data = (resources.files("referee.luck") / "models" / f"jass-{luck_jass.VERSION}.json").read_bytes()
    assert hashlib.sha256(data).hexdigest() == luck_jass.MODEL_DIGEST
    assert luck_jass.load_model()["version"] == luck_jass.VERSION == luck_jass.ESTIMATOR.version


def test_a_changed_model_is_refused() -> None:
    with pytest.raises(LuckError, match="frozen model"):
        luck_jass.load_model(digest="0" * 64)
