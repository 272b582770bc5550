"""The sample heuristic bot, in process (engine -> wire -> strategy), beats a random player.

Run as a script to measure the win rate over more matches::

    .venv/bin/python -m tests.games.gin_rummy.test_heuristic 200
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from arena.v1 import bot_pb2
from referee.games.gin_rummy import GinRummyGame
from referee.wire import gin_rummy as wire

STRATEGY = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "gin_heuristic" / "strategy.py"


def load_strategy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gin_heuristic_strategy", STRATEGY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def heuristic_wins(matches: int, variant: str = "standard") -> int:
    """Matches won by the heuristic against a seeded random player, seats alternating."""
    decide = load_strategy().decide
    game = GinRummyGame(variant=variant)
    wins = 0
    for seed in range(matches):
        state = game.new_initial_state(seed)
        heuristic = seed % 2
        choices = random.Random(10_000 + seed)
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            if seat == heuristic:
                observation = bot_pb2.Observation(text=str(state.observe(seat)),
                                                  gin_rummy=wire.observation(state.observe(seat)))
                legal = [bot_pb2.Action(text=str(a), gin_rummy=wire.action(a)) for a in actions]
                index = decide(observation, legal)
                assert 0 <= index < len(actions)
                state.apply(actions[index])
            else:
                state.apply(actions[choices.randrange(len(actions))])
        wins += state.outcome().ranking[heuristic] == 0 and state.outcome().ranking[1 - heuristic] == 1
    return wins


def test_heuristic_beats_random_by_a_wide_margin() -> None:
    assert heuristic_wins(50) >= 45


def test_heuristic_plays_the_variants() -> None:
    assert heuristic_wins(6, "oklahoma") >= 5
    assert heuristic_wins(6, "straight") >= 5


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    for name in GinRummyGame.variants:
        won = heuristic_wins(count, name)
        print(f"{name}: heuristic won {won} of {count} matches against random ({100 * won / count:.1f}%)")
