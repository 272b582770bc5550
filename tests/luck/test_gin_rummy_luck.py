"""Gin Rummy's luck estimator (referee/luck/gin_rummy.py): exact draws, unbiased results, frozen model."""

from __future__ import annotations

import hashlib
import statistics
from importlib import resources

import pytest

from benchmarks.inprocess import RANDOM, heuristic, noisy, play
from referee.games import gin_rummy_melds as gm
from referee.games import make_game
from referee.games.gin_rummy import DrawStock, GinRummyState
from referee.luck import analyse
from referee.luck import gin_rummy as luck

VARIANTS = ("standard", "oklahoma", "straight")


def test_reads_the_frozen_model_of_its_version() -> None:
    data = resources.files("referee.luck").joinpath(luck.MODEL_FILE).read_bytes()
    assert luck.MODEL_FILE == f"models/gin_rummy-{luck.ESTIMATOR.version}.json"
    assert hashlib.sha256(data).hexdigest() == luck.MODEL_DIGESTS[luck.ESTIMATOR.version], \
        "the model file changed: freeze the new one as a new version"
    assert set(luck.ESTIMATOR.model) == set(VARIANTS)


def test_fitting_cards_are_the_cards_that_meld() -> None:
    import random
    rng = random.Random(5)
    for _ in range(500):
        cards = rng.sample(range(gm.NUM_CARDS), 11)
        hand = sum(1 << c for c in cards[:10])
        card = cards[10]
        melds = any(m >> card & 1 for m in gm.find_melds(hand | 1 << card))
        assert bool(luck.fitting(hand) >> card & 1) == melds


@pytest.mark.parametrize("variant", VARIANTS)
def test_stock_draw_expectation_is_the_mean_over_the_stock(variant: str) -> None:
    h = heuristic("gin_rummy")
    record = play("gin_rummy", 31, [h, noisy(h, 0.2, 1)], variant=variant)
    state = make_game("gin_rummy", variant=variant).new_initial_state(record.seed)
    assert isinstance(state, GinRummyState)
    checked = 0
    for move in record.moves:
        action = state.legal_actions()[move.index]
        if isinstance(action, DrawStock) and checked < 12:
            values = []
            for card in state.stock:
                copy = state.clone()
                copy.stock.remove(card)
                copy.stock.append(card)
                copy.apply(action)
                values.append(luck.ESTIMATOR.value(copy))
            brute = [statistics.fmean(v[seat] for v in values) for seat in (0, 1)]
            assert luck.ESTIMATOR.draw_expectation(state) == pytest.approx(brute, abs=1e-9)
            checked += 1
        state.apply(action)
    assert checked == 12


def test_same_record_same_report() -> None:
    h = heuristic("gin_rummy")
    record = play("gin_rummy", 32, [h, RANDOM], variant="oklahoma")
    assert analyse(record).to_json() == analyse(record).to_json()
    assert any(step.text.startswith("deal of hand") for step in analyse(record).steps)


@pytest.mark.parametrize("variant", VARIANTS)
def test_adjusted_results_keep_the_mean(variant: str) -> None:
    """Over fixed bots and seeds, mean(result - adjusted) = mean luck is 0 within 4 standard errors."""
    h = heuristic("gin_rummy")
    bots = [h, noisy(h, 0.1, 9)]
    lucks = []
    for seed in range(40_000, 40_020):
        report = analyse(play("gin_rummy", seed, bots, variant=variant))
        lucks.append(report.luck[0])
    error = statistics.stdev(lucks) / len(lucks) ** 0.5
    assert abs(statistics.fmean(lucks)) <= 4 * error


def test_light_snapshot_gives_the_report_of_a_full_copy() -> None:
    """The estimator's snapshot copies only what ``chance`` reads; with the framework's default
    (the whole state) every step is the same."""
    class FullCopy(luck.GinRummyEstimator):
        def snapshot(self, state):  # type: ignore[no-untyped-def]
            return state.clone()

    h = heuristic("gin_rummy")
    record = play("gin_rummy", 33, [h, noisy(h, 0.3, 2)])
    assert analyse(record).to_json() == analyse(record, FullCopy()).to_json()
