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

from arena.v1 import bot_pb2, yoninkan_pb2
from referee.games.yoninkan import YoninkanGame
from referee.wire import yoninkan as wire

STRATEGY = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yoninkan_heuristic" / "strategy.py"


def load_strategy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("yoninkan_heuristic_strategy", STRATEGY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
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


def _trick(number: int, leader: int, cards: list[str], winner: int) -> yoninkan_pb2.YoninkanTrick:
    return yoninkan_pb2.YoninkanTrick(number=number, leader=leader, winner=winner, plays=[
        yoninkan_pb2.YoninkanPlay(seat=(leader + i) % 4, card=card) for i, card in enumerate(cards)])


def test_a_seat_holding_neither_card_reads_the_groups_from_the_play() -> None:
    groups = load_strategy().read_groups
    double = yoninkan_pb2.YoninkanObservation(seat=0, battle=1, trump="C", hand=["AS", "9D"], table=[0, 1, 2, 3],
                                              tricks=[_trick(1, 0, ["KS", "QS", "X1", "7S"], 2),
                                                      _trick(2, 2, ["JC", "5C", "6C", "7C"], 2)])
    assert (groups(double).mine, groups(double).partner) == ("kan", 2)  # the 重カン holder sits opposite
    apart = yoninkan_pb2.YoninkanObservation(seat=0, battle=1, trump="C", hand=["AS", "9D"], table=[0, 1, 2, 3],
                                             tricks=[_trick(1, 0, ["KS", "X1", "QS", "7S"], 1),
                                                     _trick(2, 1, ["5C", "6C", "JC", "7C"], 3)])
    assert (groups(apart).mine, groups(apart).partner, groups(apart).kan) == ("mukan", 2, {1, 3})
    one = yoninkan_pb2.YoninkanObservation(seat=0, battle=1, trump="C", hand=["AS", "9D"], table=[0, 1, 2, 3],
                                           tricks=[_trick(1, 0, ["KS", "X1", "QS", "7S"], 1)])
    assert (groups(one).mine, groups(one).partner) == ("mukan", -1)  # seat 2 or 3 may be its partner


def test_it_takes_its_own_honour_to_break_the_other_groups_open_declaration() -> None:
    decide = load_strategy().decide
    played = [_trick(1, 1, ["9S", "X1", "6S", "7S"], 2)]
    legal = [bot_pb2.Action(yoninkan=yoninkan_pb2.YoninkanAction(kind=yoninkan_pb2.YoninkanAction.KIND_PLAY,
                                                                    card=card)) for card in ("AH", "8H")]

    def choice(declarations: list[yoninkan_pb2.YoninkanDeclaration]) -> str:
        obs = yoninkan_pb2.YoninkanObservation(
            seat=0, battle=2, phase=yoninkan_pb2.YoninkanObservation.PHASE_PLAY, trump="D", table=[1, 2, 3, 0],
            kan_seats=[1, 3], my_group="mukan", partner=2, hand=["AH", "8H"], trick_number=2, leader=1,
            led_suit="H", tricks=played, declarations=declarations, captured=[yoninkan_pb2.YoninkanCards()] * 4,
            trick=[yoninkan_pb2.YoninkanPlay(seat=s, card=c) for s, c in ((1, "6H"), (2, "5H"), (3, "7H"))])
        return legal[decide(bot_pb2.Observation(yoninkan=obs), legal)].yoninkan.card

    assert choice([]) == "8H"  # last to play, no honour at stake: the cheapest winning card
    assert choice([yoninkan_pb2.YoninkanDeclaration(seat=1, declaration="16")]) == "AH"  # one honour breaks it


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    totals, firsts = heuristic_results(count)
    print(f"1 heuristic vs 3 random, {count} matches of 10 games: mean total {sum(totals) / count:+.1f}, "
          f"first {firsts} times ({100 * firsts / count:.0f}%), min {min(totals)}, max {max(totals)}")
