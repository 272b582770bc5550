"""Yoninkan's luck estimator, version 1 (docs/luck.md, "Yoninkan").

Value: each seat's expected final total is its total so far plus or minus (kan or mukan)
the expected points of the game in progress, a linear model per battle of the kan group's
cards (honours, trumps or its longest suit before trump is named, the joker), the points its
earlier battles added, the seating and who leads.  Coefficients fitted by
``scripts/fit_luck_yoninkan.py`` on in-process matches of the sample bots, frozen in
``models/yoninkan-1.json``.  Later games are worth nothing in expectation to any seat: the
deal is the same for every seat and the points are zero-sum.

Chance: the deals, the only thing the engine draws.  A game's first deal decides the groups;
by the same symmetry every seat expects 0 from it, so its expectation is exact (the totals
after the last game).  The deals of battles 2 and 3 keep the groups: their expectation is a
mean over :data:`DEAL_SAMPLES` fresh deals (unbiased).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

from referee.games.base import Game
from referee.games.yoninkan import _DECK, Pass, Play, YoninkanState
from referee.games.yoninkan_scoring import ADDED_BONUSES, KAN
from referee.luck import Estimator, _sample_seed

VERSION: Final = 1
MODEL_FILE: Final = f"yoninkan-{VERSION}.json"
DEAL_SAMPLES: Final = 64
FEATURES: Final = ("one", "added", "kan_honours", "kan_trumps", "kan_joker", "double_kan", "opposite", "kan_leads",
                   "mukan_longest", "captured_gap")

_JOKER: Final = 1 << 40
_HONOURS: Final = sum(1 << (10 * s + r) for s in range(4) for r in range(6, 10))
_SUITS: Final = tuple(((1 << 10) - 1) << (10 * s) for s in range(4))


def features(state: YoninkanState, hands: Sequence[int]) -> list[float]:
    """The model's inputs (:data:`FEATURES`) for the game in progress, with ``hands`` as the
    seats' cards (the state's own, or a deal drawn in their place)."""
    kan = tuple(state.kan)
    kan_cards = hands[kan[0]] | hands[kan[1]]
    mukan = [s for s in range(4) if s not in state.kan]
    if state.trump >= 0:
        trumps = (kan_cards & _SUITS[state.trump]).bit_count()
    else:  # the 決め役 will name it: the kan group's longest suit
        trumps = max((kan_cards & suit).bit_count() for suit in _SUITS)
    table = state.table
    opposite = (table.index(kan[0]) - table.index(kan[1])) % 4 == 2
    added = sum(ADDED_BONUSES[bonus] for winner, bonus in state.results if winner == KAN and bonus)
    captured = [(state.captured[s] & _HONOURS).bit_count() for s in range(4)]
    return [1.0, added, (kan_cards & _HONOURS).bit_count(), trumps, float(bool(kan_cards & _JOKER)),
            float(state.jack_holder == state.joker_holder), float(opposite), float(state.battle > 1 or state.leader in state.kan),
            max((hands[s] & suit).bit_count() for s in mukan for suit in _SUITS),
            sum(captured[s] for s in kan) - sum(captured[s] for s in mukan)]


class YoninkanEstimator(Estimator):
    game = "yoninkan"
    version = VERSION
    for_verdicts = False
    """Measured to add variance where verdicts are made (docs/luck.md, Yoninkan): on the SPRT's
    replay pairs of the search bot against the heuristic (100 pairs, seed 36) the adjusted
    margin's variance was 7.5 times the raw one's, and on the noisy heuristic's (150 pairs) its
    verdicts took 412 pairs against 308 on raw margins; at whole tables it took out nothing
    (0.94x single, 0.99x on duplicate deals).  Its reports are still measured and shown."""

    def __init__(self, model: dict[str, Any] | None = None) -> None:
        """``model``: the frozen file's content (read on first use when not given)."""
        self._model = model

    @property
    def model(self) -> dict[str, Any]:
        if self._model is None:
            self._model = json.loads(resources.files("referee.luck").joinpath("models", MODEL_FILE).read_text())
            if self._model["version"] != VERSION or tuple(self._model["features"]) != FEATURES:
                raise ValueError(f"{MODEL_FILE} does not fit this estimator")
        return self._model

    def points(self, state: YoninkanState, hands: Sequence[int]) -> float:
        """The expected points of each kan player in the game in progress."""
        weights = self.model["coefficients"][str(state.battle)]
        return sum(w * x for w, x in zip(weights, features(state, hands)))

    def _with(self, state: YoninkanState, points: float) -> list[float]:
        return [total + (points if seat in state.kan else -points) for seat, total in enumerate(state.scores)]

    def value(self, state: Any) -> list[float]:
        if state.is_terminal():
            return [float(total) for total in state.scores]
        return self._with(state, self.points(state, state.hands))

    def initial(self, game: Game, state: Any) -> list[float]:
        # The deal is the same for every seat and the value reads seats only through the
        # cards, the groups and the seating: each seat expects the same, and the sum is 0.
        return [0.0] * 4

    def may_resolve_chance(self, state: Any, action: Any) -> bool:
        return type(action) is Pass or (type(action) is Play and len(state.trick) == 3)

    def chance(self, before: Any, action: Any, after: Any) -> tuple[str, Sequence[float]] | None:
        if after._dealt == before._dealt:
            return None
        text = f"deal of game {after.game_number}, battle {after.battle}"
        if after.battle == 1:
            return text, [float(total) for total in after.scores]
        rng = random.Random(_sample_seed((before.seed, after._dealt)))
        deck = list(_DECK)
        mean = 0.0
        for _ in range(DEAL_SAMPLES):
            rng.shuffle(deck)
            mean += self.points(after, [sum(1 << c for c in deck[10 * s:10 * s + 10]) for s in range(4)])
        return text, self._with(after, mean / DEAL_SAMPLES)


ESTIMATOR: Final = YoninkanEstimator()
