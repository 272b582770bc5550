"""The exact Yahtzee/Yams luck estimator (referee.luck.yahtzee) and its cached tables.

The tables are the platform's (solved once per machine, about 20 s for both variants, then
read from the cache: ``./dev test`` solves them before the suite; two workers asking at once
solve them once, under the lock).  Matches are played in process by the sample strategies
(benchmarks/inprocess.py), with fixed seeds.
"""

from __future__ import annotations

import statistics
import sys
from collections import Counter
from collections.abc import Callable
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from arena import yahtzee_dp as dp
from referee.games import make_game
from referee.games.yahtzee import Reroll, Score, YahtzeeState
from referee.luck import analyse
from referee.luck.yahtzee import ESTIMATOR
from referee.luck.yahtzee_tables import cache_root, cached_table, engine_rules, read_table, table, table_path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import inprocess  # noqa: E402

VARIANTS = ("yahtzee", "yams")


@pytest.fixture(scope="module")
def optimal() -> inprocess.Policy:
    """The optimal sample bot's ``decide`` over the platform's tables."""
    strategy = inprocess.load_strategy("yahtzee_optimal")
    return strategy.Strategy({variant: table(variant) for variant in VARIANTS}).decide  # type: ignore[no-any-return]


# --- the optimal player's identity ----------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_solitaire_optimal_player_always_scores_the_start_value_once_adjusted(variant: str, optimal) -> None:
    """Its decisions never change its value, so only the dice move it: adjusted = V(empty card)."""
    start = table(variant).expected_score
    scores = set()
    for seed in range(6):
        report = analyse(inprocess.play("yahtzee", seed, [optimal], variant=variant))
        scores.add(report.result[0])
        assert report.adjusted[0] == pytest.approx(start, abs=1e-6)
        assert sum(step.luck[0] for step in report.steps) == pytest.approx(report.result[0] - start, abs=1e-6)
    assert len(scores) > 3, "the games differ, their adjusted scores do not"


def test_two_optimal_players_are_adjusted_to_a_tie() -> None:
    """Results are relative to the table: two optimal cards adjust to 0 each, whatever the dice."""
    strategy = inprocess.load_strategy("yahtzee_optimal").Strategy({v: table(v) for v in VARIANTS})
    for seed in range(2):
        report = analyse(inprocess.play("yahtzee", seed, [strategy.decide] * 2, variant="yams"))
        assert report.result[0] != 0
        assert report.adjusted == pytest.approx((0.0, 0.0), abs=1e-6)


# --- unbiased: every roll's luck has mean zero ---------------------------------------------


def _outcomes(count: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sorted result of ``count`` dice with its probability."""
    found = []
    for faces in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for n in Counter(faces).values():
            ways //= factorial(n)
        found.append((faces, ways / 6 ** count))
    return found


def _position(variant: str, seats: int, rolls: list[tuple[int, ...]], cards: dict[int, dict[str, int]]) \
        -> YahtzeeState:
    """A game whose rolls are ``rolls`` and whose cards hold ``cards`` (seat -> box -> points)."""
    state = make_game("yahtzee", variant=variant, num_players=seats).new_initial_state(1, dice_source=rolls)
    for seat, card in cards.items():
        state.cards[seat].update(card)
    return state


POSITIONS: list[tuple[str, int, list[tuple[int, ...]], dict[int, dict[str, int]], list[Any]]] = [
    # Yahtzee, 2 seats, 50 in seat 0's Yahtzee box and Sixes filled: four 6s chase the joker
    ("yahtzee", 2, [(2, 3, 6, 6, 6), (1, 6)], {0: {"yahtzee": 50, "sixes": 24, "ones": 2}, 1: {"chance": 20}},
     [Reroll((2, 3)), Reroll((1,))]),
    ("yahtzee", 1, [(1, 2, 4, 5, 6)], {0: {"threes": 9, "fours": 16, "fives": 15, "sixes": 18}},
     [Reroll((1, 2, 4, 5, 6))]),
    # Yams: Plus filled, Minus open, near the upper bonus
    ("yams", 3, [(1, 1, 2, 5, 6), (1, 3)], {0: {"plus": 27, "sixes": 24, "fives": 20, "fours": 12}},
     [Reroll((5, 6)), Reroll((1, 1, 2))]),
]


@pytest.mark.parametrize(("variant", "seats", "rolls", "cards", "actions"), POSITIONS)
def test_a_rerolls_luck_has_mean_zero_over_all_its_outcomes(variant: str, seats: int, rolls, cards,
                                                            actions: list[Reroll]) -> None:
    """Enumerate the last reroll's outcomes: the probability-weighted mean of every seat's value
    after it is the expectation the estimator gives before it."""
    *prefix, last = actions
    mean = np.zeros(seats)
    expected = None
    for faces, probability in _outcomes(len(last.dice)):
        state = _position(variant, seats, [*rolls, faces], cards)
        for action in prefix:
            state.apply(action)
        before = state.clone()
        state.apply(last)
        found = ESTIMATOR.chance(before, last, state)
        assert found is not None
        expected = found[1]
        mean += probability * np.array(ESTIMATOR.value(state))
    assert expected is not None
    assert list(mean) == pytest.approx(list(expected), abs=1e-9)


@pytest.mark.parametrize(("variant", "seats"), [("yahtzee", 2), ("yams", 1)])
def test_a_turns_first_roll_has_mean_zero_over_all_its_outcomes(variant: str, seats: int) -> None:
    """The roll made inside a score (the next seat's first roll), over its 252 outcomes."""
    cards = {0: {"yahtzee": 50 if variant == "yahtzee" else 55, "twos": 6}}
    box = "chance" if variant == "yahtzee" else "plus"
    mean, expected = np.zeros(seats), None
    for faces, probability in _outcomes(5):
        state = _position(variant, seats, [(2, 3, 4, 5, 6), faces], cards)
        action = next(a for a in state.legal_actions() if isinstance(a, Score) and a.box == box)
        before = state.clone()
        state.apply(action)
        found = ESTIMATOR.chance(before, action, state)
        assert found is not None and found[0] == f"seat {1 % seats} rolls 5 dice"
        expected = found[1]
        mean += probability * np.array(ESTIMATOR.value(state))
    assert expected is not None
    assert list(mean) == pytest.approx(list(expected), abs=1e-9)


def _mean_luck_in_errors(policies: list[Callable[..., int]], variant: str, seeds: range) -> float:
    """Seat 0's mean luck (mean raw result - mean adjusted) in standard errors."""
    lucks = [analyse(inprocess.play("yahtzee", seed, policies, variant=variant)).luck[0] for seed in seeds]
    return statistics.fmean(lucks) / (statistics.stdev(lucks) / len(lucks) ** 0.5)


@pytest.mark.parametrize(("name", "variant", "seeds"), [
    ("random", "yahtzee", range(200)),
    ("random", "yams", range(1000, 1200)),
    ("heuristic", "yahtzee", range(30)),
])
def test_the_adjusted_mean_is_the_raw_mean(name: str, variant: str, seeds: range) -> None:
    """Fixed bots, fixed seeds: mean adjusted = mean raw within 4 standard errors (of the
    paired difference, the luck).  Thousands of matches: benchmarks/luck_variance.py."""
    bot = inprocess.RANDOM if name == "random" else inprocess.heuristic("yahtzee")
    policies = [bot] if name == "heuristic" else [bot, inprocess.RANDOM]
    assert abs(_mean_luck_in_errors(policies, variant, seeds)) < 4


# --- the cache --------------------------------------------------------------------------------


def test_the_cache_folder_follows_the_environment(tmp_path: Path) -> None:
    assert cache_root({"ARENA_CACHE": str(tmp_path), "XDG_CACHE_HOME": "/x"}) == tmp_path
    assert cache_root({"XDG_CACHE_HOME": "/x"}) == Path("/x/arena")
    assert cache_root({}) == Path.home() / ".cache" / "arena"


def test_a_table_of_other_rules_is_never_read(tmp_path: Path) -> None:
    """A file at the right name but written with another digest is not read; a changed rule
    (a different array) names another file; the right one is read back, not solved again."""
    rules = engine_rules("yams")
    partial = dp.solve(rules, open_boxes=1)  # not the full table: proves it was read, not solved
    path = table_path(rules, tmp_path)
    path.parent.mkdir(parents=True)
    dp.Table(rules, "0123456789abcdef", partial).save(path)
    assert read_table(rules, path) is None
    changed = engine_rules("yams").score.copy()
    changed[0, 0] += 1
    other = dp.Rules(**{**{f: getattr(rules, f) for f in rules.__dataclass_fields__}, "score": changed})
    assert table_path(other, tmp_path) != path
    dp.Table(rules, dp.rules_digest(rules), partial).save(path)
    assert np.array_equal(cached_table(rules, tmp_path).values, partial)
    assert [p.name for p in path.parent.iterdir()] == [path.name]
