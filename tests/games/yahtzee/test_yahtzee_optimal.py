"""The Yahtzee/Yams solver (arena.yahtzee_dp) against independent computations, the engine's
scoring arrays (referee.luck.yahtzee_tables) against the engine, and the optimal sample bot's
own scoring arrays (its yahtzee_rules.py) against the engine's.

Fast tests solve reduced problems (the last one or two boxes of a card) and compare with a
plain recursive expectimax written directly over the engine's scoring functions, whose
rewards are differences of the engine's own ``card_total``.  The full-game figures (the
published optimum, simulated means) are checked by the slow test below and by
``benchmarks/yahtzee_optimal.py``.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from functools import lru_cache
from itertools import combinations_with_replacement

import numpy as np
import pytest

from optimal_bot import yahtzee_rules

from arena import yahtzee_dp as dp
from referee.games import yahtzee_scoring as scoring
from referee.luck.yahtzee_tables import engine_rules

# --- an independent expectimax over the engine's functions ----------------------------------


def _ways(faces: tuple[int, ...]) -> float:
    count = 1
    for n in Counter(faces).values():
        for i in range(2, n + 1):
            count *= i
    total = 1
    for i in range(2, len(faces) + 1):
        total *= i
    return total / count / 6 ** len(faces)


@lru_cache(maxsize=None)
def _outcomes(keep: tuple[int, ...]) -> list[tuple[tuple[int, ...], float]]:
    rolled = 5 - len(keep)
    return [(tuple(sorted(keep + faces)), _ways(faces)) for faces in combinations_with_replacement(range(1, 7), rolled)]


def _sub_keeps(dice: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(dice[i] for i in range(5) if mask >> i & 1)) for mask in range(32)}


class Expectimax:
    """Expected future score of a card under optimal play, by plain recursion.

    A card is a tuple of (box, score) pairs; the reward of a move is the engine's
    ``card_total`` after it minus before it (Yahtzee bonus included).
    """

    def __init__(self, variant: str) -> None:
        self.variant = variant
        self.value = lru_cache(maxsize=None)(self._value)

    def _value(self, card: tuple[tuple[str, int | None], ...], bonus: int) -> float:
        filled = dict(card)
        if all(score is not None for score in filled.values()):
            return 0.0
        before = scoring.card_total(self.variant, filled, yahtzee_bonus=bonus)
        final: dict[tuple[int, ...], float] = {}
        for dice in combinations_with_replacement(range(1, 7), 5):
            extra = scoring.yahtzee_bonus(self.variant, dice, filled)
            best = -np.inf
            for box in scoring.fillable_boxes(self.variant, dice, filled):
                after = dict(filled, **{box: scoring.score_box(self.variant, box, dice, filled)})
                reward = scoring.card_total(self.variant, after, yahtzee_bonus=bonus + extra) - before
                best = max(best, reward + self.value(tuple(after.items()), bonus + extra))
            final[dice] = best
        level = final
        for _ in range(2):
            keep_value = {keep: sum(p * level[d] for d, p in _outcomes(keep)) for keep in dp.KEEPS}
            level = {dice: max(keep_value[k] for k in _sub_keeps(dice)) for dice in final}
        return sum(p * level[d] for d, p in _outcomes(()))


def _dp_value(variant: str, card: dict[str, int | None], open_boxes: int) -> float:
    """The solver's value of ``card``: its future rewards."""
    rules = engine_rules(variant)
    values = dp.solve(rules, open_boxes=open_boxes)
    filled = sum(1 << i for i, box in enumerate(rules.boxes) if card.get(box) is not None)
    upper = min(scoring.upper_total(card), rules.cap)
    flag = int(rules.joker and card.get("yahtzee") == 50)
    return float(values[rules.index(filled, upper, flag)])


def _dp_expected_total(variant: str, card: dict[str, int | None], open_boxes: int) -> float:
    """The solver's expected final score from ``card``: rewards paid so far (every filled box
    signed, Yams Plus and Minus as soon as filled, the upper bonus) plus the future ones."""
    rules = engine_rules(variant)
    paid = sum(int(sign) * (card[box] or 0) for box, sign in zip(rules.boxes, rules.sign, strict=True))
    return paid + int(rules.bonus[scoring.upper_total(card)]) + _dp_value(variant, card, open_boxes)


def _card(variant: str, open_boxes: tuple[str, ...], **scores: int) -> dict[str, int | None]:
    """A card with every box but ``open_boxes`` filled (``scores``, else 0)."""
    return {box: None if box in open_boxes else scores.get(box, 0) for box in scoring.boxes(variant)}


# --- the dice tables -----------------------------------------------------------------------


def test_keep_expectations_equal_the_roll_probabilities() -> None:
    roll = dp.roll_matrix()
    assert np.allclose(roll.sum(axis=1), 1.0)
    final = np.random.default_rng(7).normal(size=(len(dp.DICE), 3))
    assert np.allclose(dp.keep_expectations(final), roll @ final)


def test_best_keep_is_the_best_sub_multiset_of_the_dice() -> None:
    keeps = np.random.default_rng(8).normal(size=(len(dp.KEEPS), 2))
    best = dp.best_keep_values(keeps)
    for d, dice in enumerate(dp.DICE):
        expected = keeps[[dp.KEEP_INDEX[k] for k in _sub_keeps(dice)]].max(axis=0)
        assert np.allclose(best[d], expected)


def test_dice_index_ignores_order() -> None:
    rolls = np.array([[6, 1, 3, 3, 2], [1, 2, 3, 3, 6], [5, 5, 5, 5, 5]])
    assert list(dp.dice_index(rolls)) == [dp.DICE_INDEX[(1, 2, 3, 3, 6)]] * 2 + [dp.DICE_INDEX[(5,) * 5]]


# --- reduced problems ------------------------------------------------------------------------


def test_chance_alone_is_worth_70_thirds() -> None:
    """One die kept from 4 up after the first roll, from 5 up after the second: 5 x 14/3."""
    card = _card("yahtzee", ("chance",))
    assert _dp_value("yahtzee", card, 1) == pytest.approx(70 / 3, abs=1e-9)


def test_yahtzee_alone_is_worth_50_times_the_three_roll_chance() -> None:
    """P(five equal within three rolls, keeping the largest group) = 2783176 / 6**10."""
    card = _card("yahtzee", ("yahtzee",))
    assert _dp_value("yahtzee", card, 1) == pytest.approx(50 * 2783176 / 6 ** 10, abs=1e-9)


@pytest.mark.parametrize(("variant", "open_boxes", "scores"), [
    ("yahtzee", ("sixes", "full_house"), {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15}),
    ("yahtzee", ("fives", "small_straight"), {"yahtzee": 50, "sixes": 24, "fours": 16, "threes": 9}),
    ("yahtzee", ("threes", "chance"), {"yahtzee": 50, "ones": 2}),
    ("yahtzee", ("twos", "yahtzee"), {"sixes": 30, "fives": 25, "fours": 4}),
    ("yams", ("plus", "minus"), {"sixes": 30, "fives": 20}),
    ("yams", ("fours", "rigole"), {"sixes": 30, "fives": 25}),
    ("yams", ("sixes", "yahtzee"), {"fives": 20, "fours": 16, "threes": 12}),
    ("yams", ("minus", "four_kind"), {"plus": 27}),
], ids=lambda value: "-".join(value) if isinstance(value, tuple) else None)
def test_last_two_boxes_match_a_plain_expectimax(variant: str, open_boxes: tuple[str, ...],
                                                 scores: dict[str, int]) -> None:
    """Bonus thresholds, the joker rule with 50 in the Yahtzee box, Yams Delta and Rigole."""
    card = _card(variant, open_boxes, **scores)
    expected = scoring.card_total(variant, card) + Expectimax(variant).value(tuple(card.items()), 0)
    assert _dp_expected_total(variant, card, 2) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("variant", ["yahtzee", "yams"])
def test_the_bots_scoring_arrays_are_the_engines(variant: str) -> None:
    """The bot reads the rules from its own yahtzee_rules.py (it plays away from the referee):
    every array and number its solver reads must be what the engine's scoring gives."""
    assert set(scoring.VARIANTS) == {"yahtzee", "yams"}, "a new variant: teach the bot its rules"
    bot, engine = yahtzee_rules.rules(variant), engine_rules(variant)
    for field in dataclasses.fields(dp.Rules):
        mine, theirs = getattr(bot, field.name), getattr(engine, field.name)
        if isinstance(theirs, np.ndarray):
            assert mine.shape == theirs.shape and np.array_equal(mine, theirs), field.name
        else:
            assert mine == theirs, field.name


def test_upper_bonus_of_the_engine_is_linear_past_the_cap() -> None:
    for variant in ("yahtzee", "yams"):
        rules = engine_rules(variant)
        assert len(set(np.diff(rules.bonus[rules.cap:]))) == 1
        assert rules.bonus[rules.cap] > rules.bonus[rules.cap - 1]


def test_signed_boxes_and_bonus_give_the_engine_total() -> None:
    """Cards.totals (used by the simulation) equals card_total on random full cards."""
    rng = np.random.default_rng(3)
    for variant in ("yahtzee", "yams"):
        rules = engine_rules(variant)
        points = rng.integers(0, 40, size=(50, len(rules.boxes)))
        points[:, :6] = rng.integers(0, 6, size=(50, 6)) * np.arange(1, 7)
        bonus = rng.integers(0, 3, size=50) * 100 if rules.joker else np.zeros(50, np.int64)
        totals = dp.Cards(points, bonus).totals(rules)
        for row, extra, total in zip(points, bonus, totals, strict=True):
            card = dict(zip(rules.boxes, (int(p) for p in row), strict=True))
            assert scoring.card_total(variant, card, yahtzee_bonus=int(extra)) == total


def test_a_saved_table_loads_back(tmp_path) -> None:
    rules = engine_rules("yams")
    table = dp.Table(rules, "digest", dp.solve(rules, open_boxes=1))
    table.save(tmp_path / "t.npz")
    loaded = dp.Table.load(tmp_path / "t.npz")
    assert loaded.digest == "digest" and loaded.rules.boxes == rules.boxes and loaded.rules.cap == rules.cap
    assert np.array_equal(loaded.values, table.values) and np.array_equal(loaded.rules.score, rules.score)
    (tmp_path / "bad.npz").write_bytes(b"not a table")
    with pytest.raises(ValueError):
        dp.Table.load(tmp_path / "bad.npz")


# --- the full game (slow: one full solve, about a minute or two) ------------------------------


@pytest.mark.slow
def test_official_rules_reach_the_published_optimum() -> None:
    """With the joker rule also after a scratched Yahtzee (the official rule, which
    docs/rules/yahtzee.md drops), the forced-joker optimum is the published 254.5877."""
    rules = dataclasses.replace(engine_rules("yahtzee"), joker_when_scratched=True)
    values = dp.solve(rules)
    assert values[rules.index(0, 0, 0)] == pytest.approx(254.5877, abs=0.01)
