"""Yoninkan's action map and vector (docs/learning.md, "Yoninkan").

Cards are numbered as the engine does: ``suit * 10 + rank`` (suits S H D C, ranks 5 6 7 8 9
T J Q K A; no 5 of spades, so 0 is unused) and 40 for the joker X1.

Actions (1,812): a play is ``card * 25 + call * 5 + declaration`` (call: none, S, H, D, C,
only the led joker names one; declaration: none, skunk, 16, reverse_skunk, reverse_16), so
0..1024 with the combinations no rule allows never legal; then 1025 declare 16, 1026 declare
reverse_16, 1027 pass, 1028-1031 name trump S H D C, and ``1032 + k`` shows the ``k``-th pair
of cards (pairs in the order of ``itertools.combinations`` over the display order: the
joker, then by suit S H D C, strongest first; 780 pairs).

Vector (7 * 41 + 50 = 337 values): 41 each (card numbers as above) for this seat's hand, the
current trick's card played by each seat counted from this one (4 x 41), the cards of this
battle's finished tricks, the two cards shown to or by this seat; then the phase one-hot
(play, right, show, trump, over), trump one-hot (S H D C), led suit one-hot, this seat's
group (kan, mukan, unknown), battle one-hot (1-3), this seat to act, trick number / 10, game
number / games, kan and mukan needs / 16, the right on offer (16, reverse_16); counted from
this seat (one-hot of 4 each): the seat to act, the trick's leader, the partner, the kan
seats once public; honours captured per seat counted from this one / 16 (4); match scores
per seat counted from this one / 100 (4).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import Any, Final

import numpy as np

from arena.envs.codec import ActionIndex, Codec, relative
from referee.games import yoninkan as yk
from referee.games.base import Game, State

_CALLS: Final = ("", "S", "H", "D", "C")
_DECLARATIONS: Final = ("", "skunk", "16", "reverse_skunk", "reverse_16")
_DECLARE: Final = 1025
_PASS: Final = 1027
_TRUMP: Final = 1028
_SHOW: Final = 1032
_ORDER: Final = (40, *(10 * s + r for s in range(4) for r in range(9, -1, -1) if 10 * s + r))
"""The card numbers in the engine's display order (hands, shows): the joker, then S H D C,
strongest first."""
_SHOW_PAIRS: Final = tuple(combinations(_ORDER, 2))
_PHASES: Final = {"play": 0, "right": 1, "show": 2, "trump": 3, "over": 4}
_SUITS: Final = "SHDC"
_GROUPS: Final = {"kan": 0, "mukan": 1, "": 2}


def card_number(card: Any) -> int:
    return yk.card_id(card)


class YoninkanCodec(Codec):
    num_actions = _SHOW + len(_SHOW_PAIRS)
    vector_size = 7 * 41 + 5 + 4 + 4 + 3 + 3 + 5 + 2 + 4 * 4 + 4 + 4

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        by_value: dict[Any, int] = {}
        for card in _ORDER:
            for c, call in enumerate(_CALLS):
                for d, declaration in enumerate(_DECLARATIONS):
                    by_value[yk.Play(yk.CARDS[card], call, declaration)] = card * 25 + c * 5 + d
        by_value[yk.Declare("16")] = _DECLARE
        by_value[yk.Declare("reverse_16")] = _DECLARE + 1
        by_value[yk.Pass()] = _PASS
        by_value.update({yk.NameTrump(suit): _TRUMP + i for i, suit in enumerate(_SUITS)})
        by_value.update({yk.Show((yk.CARDS[a], yk.CARDS[b])): _SHOW + k for k, (a, b) in enumerate(_SHOW_PAIRS)})
        self._index = ActionIndex(by_value)

    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        return list(map(self._index, legal))

    def encode(self, observation: yk.YoninkanObservation) -> np.ndarray:
        o = observation
        me = o.seat
        v = np.zeros(self.vector_size, np.float32)
        for card in o.hand:
            v[card_number(card)] = 1
        for seat, card in o.trick:
            v[41 * (1 + relative(seat, me, 4)) + card_number(card)] = 1
        for trick in o.tricks:
            for _, card in trick.plays:
                v[205 + card_number(card)] = 1
        for card in o.shown_cards:
            v[246 + card_number(card)] = 1
        base = 287
        v[base + _PHASES[o.phase]] = 1
        if o.trump:
            v[base + 5 + _SUITS.index(o.trump)] = 1
        if o.led_suit:
            v[base + 9 + _SUITS.index(o.led_suit)] = 1
        v[base + 13 + _GROUPS[o.my_group]] = 1
        v[base + 16 + o.battle - 1] = 1
        v[base + 19:base + 24] = (o.current_player == me, o.trick_number / 10, o.game_number / o.games,
                                  o.kan_needs / 16, o.mukan_needs / 16)
        if o.right:
            v[base + 24 + (o.right == "reverse_16")] = 1
        base += 26
        for seat in (o.current_player, o.leader, o.partner):
            if seat >= 0:
                v[base + relative(seat, me, 4)] = 1
            base += 4
        for seat in o.kan_seats:
            v[base + relative(seat, me, 4)] = 1
        base += 4
        for seat in range(4):
            v[base + relative(seat, me, 4)] = len(o.captured[seat]) / 16
            v[base + 4 + relative(seat, me, 4)] = o.scores[seat] / 100
        return v

    def scores(self, observation: yk.YoninkanObservation) -> Sequence[float]:
        return observation.scores

    def action_name(self, index: int) -> str:
        if index < _DECLARE:
            card, rest = divmod(index, 25)
            call, declaration = divmod(rest, 5)
            return str(yk.Play(yk.CARDS[card], _CALLS[call], _DECLARATIONS[declaration]))
        if index < _PASS:
            return ("declare 16", "declare reverse_16")[index - _DECLARE]
        if index == _PASS:
            return "pass"
        if index < _SHOW:
            return f"trump {_SUITS[index - _TRUMP]}"
        a, b = _SHOW_PAIRS[index - _SHOW]
        return f"show {yk.CARDS[a]} {yk.CARDS[b]}"
