"""Yaniv's luck estimator (referee/luck/yaniv.py): unbiased, exact at stock draws, deterministic, frozen."""

from __future__ import annotations

import hashlib
import random
import statistics
from importlib import resources

import pytest

from benchmarks.inprocess import RANDOM, heuristic, noisy, play
from referee.games import make_game
from referee.games import yaniv_groups as yg
from referee.games.yaniv import DrawStock, Yaniv
from referee.luck import analyse, yaniv

SHORT = {"max_rounds": 3}
DIGESTS = {1: "f10dacfe6e5dabdac6bb06af88ed30ad8f771cbd6b982032b12d1eee0c1fe0ac"}
"""sha256 of each version's frozen model file: a changed file needs a new version."""


def test_model_file_is_frozen_for_its_version() -> None:
    data = resources.files("referee.luck").joinpath("models", yaniv.MODEL_FILE).read_bytes()
    assert hashlib.sha256(data).hexdigest() == DIGESTS[yaniv.VERSION]


def test_best_discard_matches_the_engines_discards() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        hand = sum(1 << c for c in rng.sample(range(yg.NUM_CARDS), rng.randint(1, 6)))
        assert yaniv.best_discard(hand) == max(sum(yg.VALUES[c] for c in g) for g in yg.groups_of(hand))


def test_stock_draw_expectation_equals_brute_force() -> None:
    state = make_game("yaniv", num_players=3).new_initial_state(11)
    rng = random.Random(3)
    checked = 0
    while checked < 5:
        legal = state.legal_actions()
        if DrawStock() in legal and state.turn + 1 < state._max_turns:
            before = state.clone()
            state.apply(DrawStock())
            found = yaniv.ESTIMATOR.chance(before, DrawStock(), state)
            assert found is not None
            totals = [0.0] * 3
            for card in before.stock:  # put each stock card on top in turn and draw it
                copy = before.clone()
                copy.stock.remove(card)
                copy.stock.append(card)
                copy.apply(DrawStock())
                for seat, value in enumerate(yaniv.ESTIMATOR.value(copy)):
                    totals[seat] += value / len(before.stock)
            assert found[1] == pytest.approx(totals, abs=1e-9)
            checked += 1
        else:
            state.apply(rng.choice(legal))


class _TotalsOnly(yaniv.YanivEstimator):
    """The estimator with the table replaced by the totals it is given (to read the round's scores)."""

    def finals(self, totals: tuple[int, ...]) -> tuple[float, ...]:
        return tuple(float(t) for t in totals)


@pytest.mark.parametrize("seed", range(12))
def test_a_call_now_scores_the_round_as_the_engine_does(seed: int) -> None:
    # Play random moves to a position where the seat to move may call, at totals near the
    # halving and elimination marks, then compare the call's modelled outcome with the engine's.
    rng = random.Random(seed)
    seats = 2 + seed % 3
    totals = [rng.choice([0, 45, 50, 70, 75, 95, 99]) for _ in range(seats)]
    state = make_game("yaniv", num_players=seats).new_initial_state(seed, totals=totals)
    estimator = _TotalsOnly(yaniv.ESTIMATOR.model)
    checked = 0
    while not state.is_terminal() and checked < 3:
        legal = state.legal_actions()
        if Yaniv() in legal:
            order = yaniv.turn_order(state)
            summaries = [yaniv.hand_summary(h) for h in state.hands]
            modelled = estimator._called(state.totals, summaries, order)
            copy = state.clone()
            copy.apply(Yaniv())
            assert modelled == {seat: (float(copy.totals[seat]),) * 2 for seat in order}
            checked += 1
        state.apply(rng.choice([a for a in legal if a != Yaniv()] or legal))
    assert checked


def test_analysis_is_deterministic() -> None:
    best = heuristic("yaniv")
    record = play("yaniv", 4_100, [best, noisy(best, 0.2, 1), RANDOM])
    assert analyse(record).to_json() == analyse(record).to_json()


@pytest.mark.parametrize("seats", [2, 4])
def test_mean_adjusted_result_is_the_mean_result(seats: int) -> None:
    best = heuristic("yaniv")
    lineup = [best, noisy(best, 0.2, 1), RANDOM, best][:seats]
    lucks = [analyse(play("yaniv", 4_200 + k, lineup, settings=SHORT)).luck[0] for k in range(40)]
    error = statistics.stdev(lucks) / len(lucks) ** 0.5
    assert abs(statistics.mean(lucks)) <= 4 * error


@pytest.mark.parametrize("seats", [3, 4])
def test_tabulated_table_equals_its_regression(seats: int) -> None:
    rng = random.Random(seats)
    weights = yaniv.ESTIMATOR.model["table3"][str(seats)]
    for _ in range(200):
        totals = tuple(rng.randrange(101) for _ in range(seats))
        finals = yaniv.ESTIMATOR.finals(totals)
        for place in range(seats):
            others = totals[:place] + totals[place + 1:]
            terms = yaniv.table_terms(totals[place], others, place / (seats - 1))
            assert finals[place] == pytest.approx(sum(weights[k] * x for k, x in terms), abs=1e-9)
