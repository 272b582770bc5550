"""Yaniv's action map and vector (docs/learning.md, "Yaniv").

Cards use the engine's numbers: ``(rank - 1) * 4 + suit`` (S H D C) for the 52, 52 = X1,
53 = X2 (the same as :data:`arena.envs.codec.CARD_SLOTS`).

Actions: 0 call Yaniv, 1 draw from the stock, ``2 + c`` take card ``c`` (54), then ``56 + k``
discards the ``k``-th group of :func:`discard_groups`: every group any hand of at most five
cards can discard (singles, sets, runs, with jokers), each in the order its cards land, sorted
by length and then by card numbers.  The list is derived from the engine's own discard search.

Vector (``4 * 54 + 8 * 54 + 6 + 5 * 8`` = 694 values): 54 each for this seat's hand, the cards
the player to move may take (the first and last of the group on offer), this round's dead
discards, every card discarded this round; per seat counted from this one (8 slots), the
cards it took and still holds (8 x 54); the phase one-hot (discard, draw, over), this seat to
act, hand value / 50, stock / 54; per seat counted from this one (8 each): hand size / 5,
total / 100, out, the seat to act, the round's starter.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations
from typing import Any, Final

import numpy as np

from arena.envs.codec import ActionIndex, Codec, card_slot, relative
from referee.games import yaniv as yv
from referee.games import yaniv_groups as yg
from referee.games.base import Game, State

_TAKE: Final = 2
_DISCARD: Final = 56
_SEATS: Final = 8
_PHASES: Final = {"discard": 0, "draw": 1, "over": 2}
_PUBLIC: Final = 4 * 54 + _SEATS * 54


@cache
def discard_groups() -> tuple[tuple[int, ...], ...]:
    """Every discard group a hand of at most five cards can make, as engine card numbers.

    A set uses cards of one rank and jokers, a run at most five consecutive ranks of one suit
    and jokers, and the engine lists a group from exactly the cards it uses, so the groups of
    every small hand of one rank or of one five-rank window of one suit, jokers added, are
    all the groups there are."""
    jokers = (52, 53)
    pools = [tuple(range(4 * r, 4 * r + 4)) + jokers for r in range(13)]
    pools += [tuple(4 * r + suit for r in range(start, min(start + 5, 13))) + jokers
              for suit in range(4) for start in range(11)]
    found: set[tuple[int, ...]] = {(card,) for card in range(54)}
    for pool in pools:
        for size in range(2, 6):
            for cards in combinations(pool, size):
                found.update(yg.groups_of(sum(1 << c for c in cards)))
    return tuple(sorted(found, key=lambda group: (len(group), group)))


class YanivCodec(Codec):
    vector_size = _PUBLIC + 6 + 5 * _SEATS

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        groups = discard_groups()
        self.num_actions = _DISCARD + len(groups)
        by_value: dict[Any, int] = {yv.Yaniv(): 0, yv.DrawStock(): 1}
        by_value.update({yv.TakeCard(card): _TAKE + i for i, card in enumerate(yg.CARDS)})
        by_value.update({yv.Discard(tuple(yg.CARDS[c] for c in group)): _DISCARD + k
                         for k, group in enumerate(groups)})
        self._index = ActionIndex(by_value)
        self._groups = groups

    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        return list(map(self._index, legal))

    def encode(self, observation: yv.YanivObservation) -> np.ndarray:
        o = observation
        me = o.seat
        n = len(o.totals)
        v = np.zeros(self.vector_size, np.float32)
        for card in o.hand:
            v[card_slot(card)] = 1
        if o.draw_group:
            v[54 + card_slot(o.draw_group[0])] = 1
            v[54 + card_slot(o.draw_group[-1])] = 1
        for card in o.dead:
            v[108 + card_slot(card)] = 1
        for _, group in o.discards:
            for card in group:
                v[162 + card_slot(card)] = 1
        for seat, took in enumerate(o.took):
            base = 216 + 54 * relative(seat, me, n)
            for card in took:
                v[base + card_slot(card)] = 1
        base = _PUBLIC
        v[base + _PHASES[o.phase]] = 1
        v[base + 3:base + 6] = (o.current_player == me, o.hand_value / 50, o.stock_size / 54)
        base += 6
        for seat in range(n):
            r = base + relative(seat, me, n)
            v[r] = o.hand_sizes[seat] / 5
            v[r + _SEATS] = o.totals[seat] / 100
            v[r + 2 * _SEATS] = o.out_round[seat] > 0
        if o.current_player >= 0:
            v[base + 3 * _SEATS + relative(o.current_player, me, n)] = 1
        v[base + 4 * _SEATS + relative(o.starter, me, n)] = 1
        return v

    def scores(self, observation: yv.YanivObservation) -> Sequence[float]:
        return observation.totals

    def action_name(self, index: int) -> str:
        if index < _TAKE:
            return ("yaniv", "draw stock")[index]
        if index < _DISCARD:
            return f"take {yg.CARDS[index - _TAKE]}"
        return "discard " + " ".join(yg.TEXTS[c] for c in self._groups[index - _DISCARD])
