"""Solitaire-optimal Yahtzee and Yams over the protocol messages.

Each decision reads the bot's own card from the observation, turns it into a
:class:`~arena.yahtzee_dp.Position` and values every legal action with the table its build
step solved (build.py, into ``$ARENA_BUILD``): a score action is worth its reward plus the value of the
card it leaves, a reroll the expected value of the dice it keeps.  The best one wins; ties
go to the earlier action (scores come before rerolls).

In games of two or more players it plays exactly the same way: it maximises its own
expected score and ignores the other cards.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.v1 import bot_pb2
from arena.yahtzee_dp import KEEP_INDEX, Position, Table, TurnTable, score_values, turn_table

VARIANTS = ("yahtzee", "yams")


def table_path(variant: str, folder: Path) -> Path:
    """Where the build step saves ``variant``'s table in its outputs ``folder``."""
    return folder / f"optimal-{variant}.npz"


@dataclass(frozen=True, eq=False)
class Strategy:
    """The optimal policy for each variant's table."""

    tables: Mapping[str, Table]

    @classmethod
    def from_build(cls) -> Strategy:
        """Load both tables from the build step's outputs (``$ARENA_BUILD``).

        :raises SystemExit: if there is no build (the bot was started without arena's build).
        """
        folder = os.environ.get("ARENA_BUILD")
        paths = {variant: table_path(variant, Path(folder or ".")) for variant in VARIANTS}
        missing = [str(path) for path in paths.values() if not folder or not path.is_file()]
        if missing:
            raise SystemExit(f"yahtzee-optimal: no table at {missing[0]}: arena runs this bot's build step "
                             f"([build] in bot.toml) and passes its outputs in ARENA_BUILD; by hand: "
                             f"ARENA_BUILD=DIR python build.py, then ARENA_BUILD=DIR python bot.py")
        return cls({variant: Table.load(path) for variant, path in paths.items()})

    def position(self, observation: bot_pb2.Observation) -> Position:
        """The current player's card, dice and rerolls as the table indexes them."""
        obs = observation.yahtzee
        rules = self.tables[obs.variant].rules
        card = {box.name: box for box in obs.cards[obs.current_player].boxes}
        filled = sum(1 << i for i, name in enumerate(rules.boxes) if card[name].filled)
        yahtzee_box = card[rules.boxes[rules.yahtzee_box]]
        flag = int(rules.joker and yahtzee_box.filled and yahtzee_box.score == 50)
        upper = min(obs.cards[obs.current_player].upper_total, rules.cap)
        return Position(filled, upper, flag, tuple(sorted(obs.dice)), obs.rerolls_left)

    @functools.lru_cache(maxsize=8)  # noqa: B019 - one Strategy per bot process
    def _turn(self, variant: str, filled: int, upper: int, flag: int) -> TurnTable:
        """The keep tables of a card, computed at a turn's first decision and reused by the
        next two."""
        return turn_table(self.tables[variant].rules, self.tables[variant].values,
                          np.array([filled]), np.array([upper]), np.array([flag]))

    def decide(self, observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
        """The index of the legal action with the highest expected final score."""
        variant = observation.yahtzee.variant
        table = self.tables[variant]
        position = self.position(observation)
        scores = score_values(table, position)
        keeps = None
        if position.rerolls_left:
            turn = self._turn(variant, position.filled, position.upper, position.flag)
            keeps = (turn.keep2 if position.rerolls_left == 2 else turn.keep1)[:, 0]
        box_index = {name: i for i, name in enumerate(table.rules.boxes)}
        best_index, best_value = 0, float("-inf")
        for index, action in enumerate(legal_actions):
            move = action.yahtzee
            if move.WhichOneof("kind") == "score":
                value = scores[box_index[move.score.box]]
            else:
                assert keeps is not None, "a reroll is legal only while rerolls are left"
                kept = list(position.dice)
                for face in move.reroll.dice:
                    kept.remove(face)
                value = keeps[KEEP_INDEX[tuple(kept)]]
            if value > best_value:
                best_index, best_value = index, float(value)
        return best_index
