"""Yahtzee's and Yams' action map and vector (docs/learning.md, "Yahtzee").

Actions (``B + 31``, ``B`` = 13 boxes in Yahtzee, 14 in Yams): ``b`` scores box ``b`` in the
variant's card order; ``B + m - 1`` rerolls the dice at the positions of the 5-bit mask ``m``
(bit ``i`` = the ``i``-th die of the sorted dice).  The engine names a reroll by the values
rerolled, so of the masks that reroll the same values only one is legal: the one that takes,
for each value, its leftmost dice.

Vector (``36 + 3 + 2 + 8 + 8 * (2 * 14 + 2)`` = 289 values): the sorted dice (5 one-hots of
6), the count of each face / 5, the rerolls left one-hot (0, 1, 2), round / rounds, this seat
to act; the seat to act counted from this one (one-hot of 8); then per seat counted from this
one (8 slots, empty beyond the table): each box filled (14), each box's score / 50 (14), total
/ 500, Yahtzee bonus / 300.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Final

import numpy as np

from arena.envs.codec import Codec, relative
from referee.games import yahtzee as yz
from referee.games.base import TERMINAL, Game, State
from referee.games.yahtzee_scoring import boxes

_SEATS: Final = 8
_BOXES: Final = 14
_PER_SEAT: Final = 2 * _BOXES + 2
_TABLE: Final = 36 + 3 + 2 + _SEATS


@cache
def reroll_mask(dice: tuple[int, ...], rerolled: tuple[int, ...]) -> int:
    """The positions (bit mask over the sorted ``dice``) that reroll ``rerolled``: for each
    value, its leftmost dice."""
    mask = 0
    for value in set(rerolled):
        count = rerolled.count(value)
        for position, die in enumerate(dice):
            if die == value and count:
                mask |= 1 << position
                count -= 1
    return mask


class YahtzeeCodec(Codec):
    vector_size = _TABLE + _SEATS * _PER_SEAT

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.boxes = boxes(game.variant)
        self._box = {box: i for i, box in enumerate(self.boxes)}
        self.num_actions = len(self.boxes) + 31

    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        dice = state.dice  # type: ignore[attr-defined]  # public: every seat sees the roll
        base = len(self.boxes) - 1
        return [self._box[a.box] if type(a) is yz.Score else base + reroll_mask(dice, a.dice) for a in legal]

    def encode(self, observation: yz.YahtzeeObservation) -> np.ndarray:
        o = observation
        v = np.zeros(self.vector_size, np.float32)
        for position, die in enumerate(o.dice):
            v[position * 6 + die - 1] = 1
            v[30 + die - 1] += 0.2
        v[36 + o.rerolls_left] = 1
        v[39] = o.round / o.rounds
        n = len(o.cards)
        if o.current_player != TERMINAL:
            v[40] = o.current_player == o.seat
            v[41 + relative(o.current_player, o.seat, n)] = 1
        for seat in range(n):
            base = _TABLE + relative(seat, o.seat, n) * _PER_SEAT
            for b, value in enumerate(o.cards[seat]):
                if value is not None:
                    v[base + b] = 1
                    v[base + _BOXES + b] = value / 50
            v[base + 2 * _BOXES] = o.totals[seat] / 500
            v[base + 2 * _BOXES + 1] = o.yahtzee_bonus[seat] / 300
        return v

    def scores(self, observation: yz.YahtzeeObservation) -> Sequence[float]:
        return observation.totals

    def action_name(self, index: int) -> str:
        if index < len(self.boxes):
            return f"score {self.boxes[index]}"
        mask = index - len(self.boxes) + 1
        return "reroll dice at " + " ".join(str(i) for i in range(5) if mask >> i & 1)
