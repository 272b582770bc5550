"""Gin Rummy's action map and vector (docs/learning.md, "Gin Rummy").

Actions (108): 0 draw stock, 1 take the top discard (the upcard during the offer), 2 pass,
3 big gin, ``4 + c`` discard card ``c``, ``56 + c`` discard card ``c`` and knock, where ``c`` is
the card's slot ``(rank - 1) * 4 + suit`` (S H D C).

Vector (276 values): 52 each (card slots) for this seat's hand, the top discard, the rest
of the discard pile, the cards the opponent took and holds, the card just taken (it may not
be discarded now); then the phase one-hot (offer, draw, discard, over); then this seat is to
act, this seat deals, deadwood / 100, stock / 31, the opponent's hand size / 11, knock limit
/ 10, doubled, own and opponent score / target (Straight: hands won / hands to win), own and
opponent hands won / 10, hand number / 100.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from arena.envs.codec import ActionIndex, Codec, card_slot
from referee.games import gin_rummy as gr
from referee.games.base import Game, State
from referee.games.gin_rummy_melds import CARDS

_DISCARD: Final = 4
_KNOCK: Final = 56
_PHASES: Final = {"offer": 0, "draw": 1, "discard": 2, "over": 3}


class GinRummyCodec(Codec):
    num_actions = 108
    vector_size = 5 * 52 + 4 + 12

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        by_value: dict[Any, int] = {gr.DrawStock(): 0, gr.Pass(): 2, gr.BigGin(): 3}
        for card in CARDS:
            slot = card_slot(card)
            by_value[gr.TakeDiscard(card)] = 1
            by_value[gr.Discard(card)] = _DISCARD + slot
            by_value[gr.Discard(card, knock=True)] = _KNOCK + slot
        self._index = ActionIndex(by_value)

    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        return list(map(self._index, legal))

    def encode(self, observation: gr.GinRummyObservation) -> np.ndarray:
        o = observation
        v = np.zeros(self.vector_size, np.float32)
        for card in o.hand:
            v[card_slot(card)] = 1
        pile = o.discard_pile
        if pile:
            v[52 + card_slot(pile[-1])] = 1
            for card in pile[:-1]:
                v[104 + card_slot(card)] = 1
        for card in o.opponent_took:
            v[156 + card_slot(card)] = 1
        if o.taken_card is not None:
            v[208 + card_slot(o.taken_card)] = 1
        base = 260
        v[base + _PHASES[o.phase]] = 1
        me, other = o.seat, 1 - o.seat
        if o.target:
            own, opp = o.scores[me] / o.target, o.scores[other] / o.target
        else:
            own, opp = o.hands_won[me] / o.hands_to_win, o.hands_won[other] / o.hands_to_win
        v[base + 4:base + 16] = (o.current_player == me, o.dealer == me, o.deadwood / 100, o.stock_size / 31,
                                 o.opponent_hand_size / 11, o.knock_limit / 10, o.doubled, own, opp,
                                 o.hands_won[me] / 10, o.hands_won[other] / 10, o.hand_number / 100)
        return v

    def scores(self, observation: gr.GinRummyObservation) -> Sequence[float]:
        o = observation
        return o.scores if o.target else o.hands_won

    def action_name(self, index: int) -> str:
        if index < _DISCARD:
            return ("draw stock", "take discard", "pass", "big gin")[index]
        knock = index >= _KNOCK
        card = CARDS[index - (_KNOCK if knock else _DISCARD)]
        return f"discard {card}" + (" knock" if knock else "")
