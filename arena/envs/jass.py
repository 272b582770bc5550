"""Jass' action map and vector (docs/learning.md, "Jass").

Actions (43): 0-5 choose a mode (hearts, diamonds, spades, clubs, obenabe, undenufe), 6 push,
``7 + c`` play card ``c``, where ``c = suit * 9 + rank`` (suits S H D C, ranks 6 7 8 9 T J Q
K A).

Vector (6 * 36 + 37 = 253 values): 36 each (cards ``c`` as above) for this seat's hand, then
the current trick's card played by each seat counted from this one (4 x 36), then the cards of
this hand's finished tricks; then the mode one-hot (6, none while choosing), the phase one-hot
(declare, play, over), pushed, the multiplier / 4, this seat to act; counted from this seat
(one-hot of 4 each): the seat to act, the forehand, the trick's leader, the chooser, the
Stöck scorer; this seat's team's and the other team's hand points / 157, match scores /
target, weis points / 300.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from arena.envs.codec import ActionIndex, Codec, relative
from referee.games import jass as js
from referee.games import jass_cards as jc
from referee.games.base import Game, State

_PLAY: Final = 7
_PHASES: Final = {"declare": 0, "play": 1, "over": 2}
_SCALARS: Final = 6 * 36


class JassCodec(Codec):
    num_actions = _PLAY + 36
    vector_size = 6 * 36 + 6 + 3 + 3 + 5 * 4 + 5

    def __init__(self, game: Game) -> None:
        super().__init__(game)
        by_value: dict[Any, int] = {js.Choose(mode): i for i, mode in enumerate(jc.MODES)}
        by_value[js.Push()] = 6
        by_value.update({js.Play(card): _PLAY + i for i, card in enumerate(jc.CARDS)})
        self._index = ActionIndex(by_value)

    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        return list(map(self._index, legal))

    def encode(self, observation: js.JassObservation) -> np.ndarray:
        o = observation
        index = jc.INDEX
        me = o.seat
        v = np.zeros(self.vector_size, np.float32)
        for card in o.hand:
            v[index[str(card)]] = 1
        for position, card in enumerate(o.trick):
            v[36 * (1 + relative((o.trick_leader + position) % 4, me, 4)) + index[str(card)]] = 1
        for trick in o.tricks:
            for card in trick.cards:
                v[180 + index[str(card)]] = 1
        base = _SCALARS
        if o.mode:
            v[base + jc.MODES.index(o.mode)] = 1
        v[base + 6 + _PHASES[o.phase]] = 1
        v[base + 9:base + 12] = (o.pushed, o.multiplier / 4, o.current_player == me)
        base += 12
        for seat in (o.current_player, o.forehand, o.trick_leader, o.chooser, o.stoeck):
            if seat >= 0:
                v[base + relative(seat, me, 4)] = 1
            base += 4
        team = me % 2
        v[base:base + 5] = (o.hand_points[team] / 157, o.hand_points[1 - team] / 157, o.scores[team] / o.target,
                            o.scores[1 - team] / o.target, o.weis_points / 300)
        return v

    def scores(self, observation: js.JassObservation) -> Sequence[float]:
        return [observation.scores[seat % 2] for seat in range(4)]

    def action_name(self, index: int) -> str:
        if index < 6:
            return f"choose {jc.MODES[index]}"
        return "push" if index == 6 else f"play {jc.CARDS[index - _PLAY]}"
