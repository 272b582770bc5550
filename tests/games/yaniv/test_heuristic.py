"""The sample heuristic bot, in process (engine -> wire -> strategy), beats random players
at 4-player tables.

Run as a script to measure the win rate over more matches::

    .venv/bin/python -m tests.games.yaniv.test_heuristic 200
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

from arena.v1 import bot_pb2
from referee.games.yaniv import YanivGame
from referee.wire import yaniv as wire

STRATEGY = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yaniv_heuristic" / "strategy.py"


def load_strategy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("yaniv_heuristic_strategy", STRATEGY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def heuristic_wins(matches: int, players: int = 4) -> int:
    """Matches the heuristic wins outright (sole rank 0) against seeded random players; its
    seat rotates with the seed."""
    decide = load_strategy().decide
    game = YanivGame(num_players=players)
    wins = 0
    for seed in range(matches):
        state = game.new_initial_state(seed)
        heuristic = seed % players
        choices = random.Random(10_000 + seed)
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            if seat == heuristic:
                observation = bot_pb2.Observation(text=str(state.observe(seat)),
                                                  yaniv=wire.observation(state.observe(seat)))
                legal = [bot_pb2.Action(text=str(a), yaniv=wire.action(a)) for a in actions]
                index = decide(observation, legal)
                assert 0 <= index < len(actions)
                state.apply(actions[index])
            else:
                state.apply(actions[choices.randrange(len(actions))])
        winners = state.outcome().winners
        wins += winners == (heuristic,)
    return wins


def test_heuristic_beats_three_random_players_by_a_wide_margin() -> None:
    assert heuristic_wins(24) >= 18  # random play would win about 6 of 24


def test_heuristic_plays_two_and_eight_seats() -> None:
    assert heuristic_wins(4, players=2) >= 3
    assert heuristic_wins(3, players=8) >= 2


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    won = heuristic_wins(count)
    print(f"4 players: heuristic won {won} of {count} matches against 3 random bots ({100 * won / count:.1f}%)")
