"""The sample heuristic bot, in process (engine -> wire -> strategy), against random players.

Run as a script to measure one heuristic against three random players::

    .venv/bin/python -m tests.games.yoninkan.test_heuristic 100
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from arena.v1 import bot_pb2
from referee.games.yoninkan import YoninkanGame
from referee.wire import yoninkan as wire

STRATEGY = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yoninkan_heuristic" / "strategy.py"


def load_strategy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("yoninkan_heuristic_strategy", STRATEGY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def heuristic_results(matches: int, games: int = 10) -> tuple[list[int], int]:
    """The heuristic's totals and its first places (ties included) against three random players;
    its seat rotates with the match number."""
    decide = load_strategy().decide
    game = YoninkanGame(settings={"games": games})
    totals, firsts = [], 0
    for seed in range(matches):
        state = game.new_initial_state(seed)
        heuristic = seed % 4
        choices = random.Random(10_000 + seed)
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            if seat == heuristic:
                obs = state.observe(seat)
                observation = bot_pb2.Observation(text=str(obs), yoninkan=wire.observation(obs))
                legal = [bot_pb2.Action(text=str(a), yoninkan=wire.action(a)) for a in actions]
                index = decide(observation, legal)
                assert 0 <= index < len(actions)
                state.apply(actions[index])
            else:
                state.apply(actions[choices.randrange(len(actions))])
        totals.append(state.scores[heuristic])
        firsts += state.outcome().ranking[heuristic] == 0
    return totals, firsts


def test_heuristic_beats_random_clearly() -> None:
    totals, firsts = heuristic_results(20)
    # A random player's expected total is 0 and it is first about a quarter of the time.
    assert sum(totals) / len(totals) > 20
    assert firsts >= 10


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    totals, firsts = heuristic_results(count)
    print(f"1 heuristic vs 3 random, {count} matches of 10 games: mean total {sum(totals) / count:+.1f}, "
          f"first {firsts} times ({100 * firsts / count:.0f}%), min {min(totals)}, max {max(totals)}")
