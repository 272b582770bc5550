"""The Swiss Jass luck estimator: how much each hand's deal gave a team (docs/luck.md, "Swiss Jass").

Jass's only chance is the deal of each hand (the whole deck; the first hand's forehand follows
from it, as the holder of the 7C).  A position's value is each team's match points so far
plus a small frozen model's estimate of what the current hand adds:

- before the mode is chosen, the *deal's* value: the hand's predicted margin (forehand's
  team minus the other, multiplier, weis and Stöck included) from the best and the mean of
  the six modes' predicted margins, so it depends on the cards alone, never on a choice;
- in a mode, that mode's predicted margin: weis and Stöck exactly (both follow from the deal
  and the mode), the card points from the forehand's team's features in the mode
  (:mod:`referee.luck.jass_features`), less what is already scored or taken.

Both teams share the hand's mean total (:data:`MODEL` ``hand_total``) evenly; only the
margin differs between them, and only the margin reaches a result.

A deal's luck is the deal's value minus its mean over uniformly random deals with the same
forehand, a frozen per-role constant fitted on many shuffles (``expected_deal``); the first
deal's mean is the same for every seat by symmetry (the forehand is whoever holds the 7C).
The model comes from scripts/fit_luck_jass.py and ships as models/jass-<version>.json; its
digest is checked when it is loaded, so it cannot change under the same version.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from importlib import resources
from typing import Any, Final

from referee.games import jass_cards as jc
from referee.games.base import Game, State
from referee.games.jass import JassState, Play
from referee.luck import Estimator, LuckError
from referee.luck.jass_features import KIND, bonus_margins, deal_margin, team_features

VERSION: Final = 1
MODEL_DIGEST: Final = "e692be7fbabf5d950b5807a5c293e3d12d2a40d4a8fa8ff7beadd2bd2f3f0d73"
"""sha256 of models/jass-1.json: a refit is a new version, never a new file under this one."""


def load_model(version: int = VERSION, digest: str | None = MODEL_DIGEST) -> dict[str, Any]:
    """The frozen model of ``version``, checked against ``digest`` (``None``: unchecked, for the fit).

    :raises LuckError: when the file is not the one this version froze.
    """
    data = (resources.files("referee.luck") / "models" / f"jass-{version}.json").read_bytes()
    if digest is not None and hashlib.sha256(data).hexdigest() != digest:
        raise LuckError(f"models/jass-{version}.json is not the frozen model of version {version} "
                        "(a new fit is a new version)")
    model: dict[str, Any] = json.loads(data)
    if model.get("version") != version:
        raise LuckError(f"models/jass-{version}.json says version {model.get('version')}")
    return model


class JassEstimator(Estimator):
    """Frozen model ``models/jass-1.json``; the chance model is the deal of each hand."""

    game = "jass"
    version = VERSION

    def __init__(self, model: dict[str, Any] | None = None) -> None:
        self.model = model if model is not None else load_model()
        self.hand_total = float(self.model["hand_total"])
        self.expected_deal = float(self.model["expected_deal"]["mean"])

    def _split(self, state: JassState, margin: float) -> list[float]:
        team = state.forehand % 2
        share = (self.hand_total + margin) / 2, (self.hand_total - margin) / 2
        return [state.scores[seat % 2] + share[0 if seat % 2 == team else 1] for seat in range(4)]

    def value(self, state: State[Any, Any]) -> list[float]:
        assert isinstance(state, JassState)
        if state.is_terminal():
            return [float(state.scores[seat % 2]) for seat in range(4)]
        if state.mode < 0:
            return self._split(state, deal_margin(self.model, state.hands, state.forehand))
        return self._split(state, self._play_margin(state))

    def _play_margin(self, state: JassState) -> float:
        """The margin still to come in the mode played: exact weis and Stöck not yet scored,
        the card points taken, and the predicted card margin scaled to the points left."""
        hands = _dealt(state)
        team = state.forehand % 2
        mode = state.mode
        multiplier = jc.MULTIPLIER[mode]
        kind = self.model["kinds"][KIND[mode]]
        cards = kind["intercept"] + sum(w * x for w, x in zip(kind["weights"], team_features(hands, team, mode)))
        taken = state.hand_points[team] - state.hand_points[1 - team]
        left = 157 - state.hand_points[0] - state.hand_points[1]
        scored = state.bonus[team] - state.bonus[1 - team]
        return bonus_margins(hands, state.forehand)[mode] - scored + multiplier * (taken + cards * left / 157)

    def initial(self, game: Game, state: State[Any, Any]) -> list[float]:
        """Before the first deal every seat is alike: whoever holds the 7C will be forehand."""
        return [self.hand_total / 2] * 4

    def may_resolve_chance(self, state: State[Any, Any], action: Any) -> bool:
        """Only the hand's last card deals the next hand."""
        assert isinstance(state, JassState)
        return type(action) is Play and len(state.tricks) == 8 and len(state.trick) == 3

    def chance(self, before: State[Any, Any], action: Any, after: State[Any, Any]
               ) -> tuple[str, Sequence[float]] | None:
        """The next deal, if the match goes on: its mean value for the new forehand's team is the
        frozen per-role constant, on top of the scores the last hand left."""
        assert isinstance(before, JassState) and isinstance(after, JassState)
        if after.hand_number == before.hand_number:
            return None
        return f"deal of hand {after.hand_number}", self._split(after, self.expected_deal)


def _dealt(state: JassState) -> list[int]:
    """The hand's four hands as dealt: the cards held plus the cards each seat has played."""
    hands = list(state.hands)
    for leader, cards, _, _ in state.tricks:
        for offset, card in enumerate(cards):
            hands[(leader + offset) % 4] |= 1 << card
    for offset, card in enumerate(state.trick):
        hands[(state.trick_leader + offset) % 4] |= 1 << card
    return hands


ESTIMATOR: Final = JassEstimator()
