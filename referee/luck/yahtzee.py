"""Yahtzee and Yams luck, exact: the value of solitaire-optimal play (docs/luck.md).

A seat's value in any position is what its card has earned so far plus the optimal expected
value of the rest of its game from its exact position, as :mod:`arena.yahtzee_dp` defines
it over the engine's rules (:mod:`referee.luck.yahtzee_tables`):

- *earned so far* counts each filled box with its sign (Yams Minus negative, so Plus and
  Minus are Delta once both are filled, as they are at the end), the upper bonus of the
  upper total, and the Yahtzee bonuses: at the end of the game it is the engine's total;
- *the rest*: between turns, the value of ``(filled boxes, capped upper total, 50 in the
  Yahtzee box)``; for the seat whose turn it is, the value of its dice with the rolls it has
  left, from that card's turn table (the best keep, or the best box with no roll left).

Chance events are the first roll of each turn (made inside the previous seat's score, or at
the start) and every reroll.  The expectation before each is exact: the turn's value before
its first roll, or the kept dice's expected value over the rerolled ones, the very sums the
programme maximises over.  So each seat's luck has mean zero given the past, the adjusted
result is unbiased, and a seat that plays the solitaire-optimal policy has adjusted score
exactly the value of an empty card: its decisions never change its value, only the dice do.

The values are those of the engine's rules: version 1 is "the exact optimum of the rules the
referee plays", read from the table whose digest matches them.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from arena.yahtzee_dp import DICE_INDEX, KEEP_INDEX, best_keep_values, turn_table
from referee.games.base import Game, State
from referee.games.yahtzee import Reroll, Score, YahtzeeState
from referee.luck import Estimator
from referee.luck.yahtzee_tables import table

_TURN_CACHE = 4096
"""Turn tables kept in memory (about 14 kB each): a 2-seat match needs 26."""


@dataclass(frozen=True, eq=False)
class _Turn:
    """One card's turn: the value of each dice with 0, 1, 2 rolls left, and of each keep
    before the last roll (``keep1``) or before the second (``keep2``)."""

    by_rolls_left: tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64]]
    keep1: NDArray[np.float64]
    keep2: NDArray[np.float64]


@functools.lru_cache(maxsize=_TURN_CACHE)
def _turn(variant: str, filled: int, upper: int, flag: int) -> _Turn:
    solved = table(variant)
    turn = turn_table(solved.rules, solved.values, np.array([filled]), np.array([upper]), np.array([flag]))
    keep1, keep2 = turn.keep1[:, 0], turn.keep2[:, 0]
    final = turn.final[:, 0]
    return _Turn((final, best_keep_values(turn.keep1)[:, 0], best_keep_values(turn.keep2)[:, 0]), keep1, keep2)


class YahtzeeEstimator(Estimator):
    """The exact estimator of both variants, any number of seats."""

    game: ClassVar[str] = "yahtzee"
    version: ClassVar[int] = 1

    def value(self, state: State[Any, Any]) -> list[float]:
        assert isinstance(state, YahtzeeState)
        values = self._between_turns(state)
        if not state.is_terminal():
            seat = state.current_player()
            values[seat] = self._earned(state, seat) + float(
                self._turn_of(state, seat).by_rolls_left[state.rerolls_left][DICE_INDEX[state.dice]])
        return values

    def initial(self, game: Game, state: State[Any, Any]) -> list[float]:
        solved = table(game.variant)
        return [solved.expected_score] * game.num_players

    def may_resolve_chance(self, state: State[Any, Any], action: Any) -> bool:
        assert isinstance(state, YahtzeeState)
        return isinstance(action, Reroll) or state.turns_played + 1 < state.total_turns

    def chance(self, before: State[Any, Any], action: Any, after: State[Any, Any]) \
            -> tuple[str, Sequence[float]] | None:
        assert isinstance(before, YahtzeeState) and isinstance(after, YahtzeeState)
        if isinstance(action, Reroll):
            seat = before.current_player()
            kept = list(before.dice)
            for face in action.dice:
                kept.remove(face)
            turn = self._turn_of(before, seat)
            keeps = turn.keep2 if before.rerolls_left == 2 else turn.keep1
            expected = self.value(before)
            expected[seat] = self._earned(before, seat) + float(keeps[KEEP_INDEX[tuple(kept)]])
            count = len(action.dice)
            return f"seat {seat} rolls {count} {'die' if count == 1 else 'dice'}", expected
        if isinstance(action, Score) and not after.is_terminal():
            return f"seat {after.current_player()} rolls 5 dice", self._between_turns(after)
        return None

    # --- helpers ------------------------------------------------------------------------
    def _between_turns(self, state: YahtzeeState) -> list[float]:
        """Every seat's value as if no dice were rolled yet (its card's start-of-turn value)."""
        solved = table(state.variant)
        values = []
        for seat in range(state.num_players):
            earned, filled, upper, flag = _card(state, seat)
            values.append(earned + float(solved.values[solved.rules.index(filled, upper, flag)]))
        return values

    @staticmethod
    def _earned(state: YahtzeeState, seat: int) -> float:
        return _card(state, seat)[0]

    @staticmethod
    def _turn_of(state: YahtzeeState, seat: int) -> _Turn:
        _, filled, upper, flag = _card(state, seat)
        return _turn(state.variant, filled, upper, flag)


@functools.cache
def _layout(variant: str) -> tuple[tuple[tuple[str, int, bool], ...], Any, int, str | None]:
    """Per box in the table's order (name, sign, whether upper); the upper bonus by total; the
    cap; the Yahtzee box when the joker rule exists."""
    rules = table(variant).rules
    boxes = tuple((box, int(sign), bool(face)) for box, sign, face in zip(rules.boxes, rules.sign, rules.upper_face,
                                                                          strict=True))
    return boxes, [int(b) for b in rules.bonus], rules.cap, rules.boxes[rules.yahtzee_box] if rules.joker else None


def _card(state: YahtzeeState, seat: int) -> tuple[float, int, int, int]:
    """``seat``'s card: what it has earned (signed boxes, upper bonus of the upper total, Yahtzee
    bonuses) and its table state (filled boxes, capped upper total, 50 in the Yahtzee box)."""
    boxes, bonus, cap, yahtzee_box = _layout(state.variant)
    card = state.cards[seat]
    earned = upper = filled = 0
    for bit, (box, sign, is_upper) in enumerate(boxes):
        points = card[box]
        if points is not None:
            filled |= 1 << bit
            earned += sign * points
            if is_upper:
                upper += points
    flag = int(yahtzee_box is not None and card[yahtzee_box] == 50)
    return float(earned + bonus[upper] + state.bonus[seat]), filled, min(upper, cap), flag


ESTIMATOR = YahtzeeEstimator()
