"""Yoninkan's luck estimator (referee/luck/yoninkan.py): unbiased, exact at a game's first deal, deterministic, frozen."""

from __future__ import annotations

import hashlib
import random
import statistics
from importlib import resources

from benchmarks.inprocess import RANDOM, heuristic, noisy, play
from referee.games import make_game
from referee.games.yoninkan import _DECK, TEXTS
from referee.luck import analyse, yoninkan

SHORT = {"games": 2}
DIGESTS = {1: "7a0fe790f26f52c3e84bb94cbd7675bdc89052284528a3be9ed4d430778925da"}
"""sha256 of each version's frozen model file: a changed file needs a new version."""


def test_model_file_is_frozen_for_its_version() -> None:
    data = resources.files("referee.luck").joinpath("models", yoninkan.MODEL_FILE).read_bytes()
    assert hashlib.sha256(data).hexdigest() == DIGESTS[yoninkan.VERSION]


def test_first_deal_expectation_is_exact_by_rotation() -> None:
    """The game-start expectation is the totals: over the four rotations of any deal the
    value's game term sums to zero for every seat, so it does over all deals."""
    rng = random.Random(5)
    game = make_game("yoninkan")
    for _ in range(20):
        deck = list(_DECK)
        rng.shuffle(deck)
        hands = [[TEXTS[c] for c in deck[10 * s:10 * s + 10]] for s in range(4)]
        sums = [0.0] * 4
        for turn in range(4):
            state = game.new_initial_state(1, deals=[hands[-turn:] + hands[:-turn]])
            for seat, value in enumerate(yoninkan.ESTIMATOR.value(state)):
                sums[seat] += value
        assert all(abs(total) < 1e-9 for total in sums)


def test_analysis_is_deterministic() -> None:
    best = heuristic("yoninkan")
    record = play("yoninkan", 4_300, [best, noisy(best, 0.2, 1), RANDOM, best], settings=SHORT)
    assert analyse(record).to_json() == analyse(record).to_json()


def test_mean_adjusted_result_is_the_mean_result() -> None:
    best = heuristic("yoninkan")
    lineup = [best, noisy(best, 0.2, 1), RANDOM, best]
    lucks = [analyse(play("yoninkan", 4_400 + k, lineup, settings=SHORT)).luck[0] for k in range(60)]
    error = statistics.stdev(lucks) / len(lucks) ** 0.5
    assert abs(statistics.mean(lucks)) <= 4 * error
