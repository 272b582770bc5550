"""What every game's encoding provides: a fixed action space and a fixed-length vector.

A :class:`Codec` maps each engine action to one index of a ``Discrete(num_actions)`` space
that depends only on the game, its variant and seat count (never on the position), and
encodes one seat's observation (the engine's ``observe(seat)``, the same view the referee
sends a bot) as a ``float32`` vector of ``vector_size`` values.  Each game's module
(``arena/envs/<game>.py``) documents its map and its vector; docs/learning.md gathers them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from referee.games.base import Game, State
from referee.games.cards import Card

CARD_SLOTS: Final = 54
"""Card one-hots use one slot per card of the 54-card deck: ``(rank - 1) * 4 + suit`` for the
52 (suits S H D C, so 0 is the ace of spades, 51 the king of clubs), then 52 = X1, 53 = X2."""
_SLOT: Final[dict[str, int]] = {"A23456789TJQK"[i // 4] + "SHDC"[i % 4]: i for i in range(52)} | {"X1": 52, "X2": 53}


def card_slot(card: Card) -> int:
    """A card's slot in a :data:`CARD_SLOTS` one-hot (by its text form, which is cached)."""
    return _SLOT[str(card)]


def relative(seat: int, me: int, seats: int) -> int:
    """A seat counted from ``me`` (0 is ``me``, 1 the next seat in play order...), so that a
    vector reads the same from every seat; -1 (no seat) stays -1."""
    return -1 if seat < 0 else (seat - me) % seats


class ActionIndex:
    """Engine action -> fixed index, for a game whose actions do not depend on the position.

    Engines hand out the same interned action objects again and again, so the first lookup
    is by identity; the entry keeps its action alive, so no other object takes its id.
    Equal actions that are new objects are found by value.
    """

    _LIMIT: Final = 100_000

    def __init__(self, by_value: dict[Any, int]) -> None:
        self.by_value = by_value
        self._by_id: dict[int, tuple[Any, int]] = {}

    def __call__(self, action: Any) -> int:
        entry = self._by_id.get(id(action))
        if entry is None:
            if len(self._by_id) >= self._LIMIT:
                self._by_id.clear()
            entry = self._by_id[id(action)] = (action, self.by_value[action])
        return entry[1]


class Codec(ABC):
    """One game's action space and vector encoding, for one configuration."""

    num_actions: int
    """Size of the ``Discrete`` action space."""
    vector_size: int
    """Length of the observation vector."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @abstractmethod
    def legal_indices(self, state: State[Any, Any], legal: Sequence[Any]) -> list[int]:
        """The index of each legal action, in the engine's order (all distinct).

        :raises KeyError: for an action outside the map (a bug: tests play every game)."""

    @abstractmethod
    def encode(self, observation: Any) -> np.ndarray:
        """One seat's observation as a ``float32`` vector of :attr:`vector_size` values."""

    @abstractmethod
    def scores(self, observation: Any) -> Sequence[float]:
        """Every seat's running score as the observation shows it (per-hand rewards use it)."""

    @abstractmethod
    def action_name(self, index: int) -> str:
        """What an index means, for people (docs, errors)."""
