"""The protobuf adapter, and the sample heuristic strategy played through it in-process."""

from __future__ import annotations

import importlib.util
import random
import statistics
from pathlib import Path
from types import ModuleType

import pytest

from arena.v1 import bot_pb2, yahtzee_pb2
from referee import wire
from referee.games.base import TERMINAL
from referee.games.yahtzee import Reroll, Score, YahtzeeGame, YahtzeeState
from referee.wire import yahtzee as yahtzee_wire

STRATEGY = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yahtzee_heuristic" / "strategy.py"


@pytest.fixture(scope="module")
def strategy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("yahtzee_heuristic_strategy", STRATEGY)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def roundtrip(message):  # type: ignore[no-untyped-def]
    return type(message).FromString(message.SerializeToString())


class TestAdapter:
    def test_field_names_the_oneof(self) -> None:
        assert yahtzee_wire.FIELD == "yahtzee"
        assert bot_pb2.Observation.DESCRIPTOR.fields_by_name["yahtzee"].containing_oneof.name == "game"

    def test_actions_round_trip(self) -> None:
        for action in (Reroll((1, 3, 3)), Score("full_house", 25), Score("sixes", 30, bonus=100)):
            message = wire.action_to_proto("yahtzee", action)
            assert roundtrip(message) == message
            assert message.text == str(action)
        reroll = yahtzee_wire.action(Reroll((6, 1)))
        assert (reroll.WhichOneof("kind"), list(reroll.reroll.dice)) == ("reroll", [1, 6])
        score = yahtzee_wire.action(Score("sixes", 30, bonus=100))
        assert (score.WhichOneof("kind"), score.score.box, score.score.points, score.score.bonus) == (
            "score", "sixes", 30, 100)

    def test_not_an_action(self) -> None:
        with pytest.raises(TypeError):
            yahtzee_wire.action("reroll 1")  # type: ignore[arg-type]

    def test_observation_round_trips_with_computed_totals(self) -> None:
        game = YahtzeeGame(variant="yams", num_players=2)
        rolls = [(6, 6, 6, 6, 6), (1, 1, 1, 2, 2), (1, 2, 3, 4, 6), (6, 6, 6, 6, 5)]
        state = game.new_initial_state(0, dice_source=rolls)
        for box in ("sixes", "minus", "small_straight", "plus"):
            state.apply(next(a for a in state.legal_actions() if isinstance(a, Score) and a.box == box))
        message = wire.observation_to_proto("yahtzee", state.observe(1), state.events_for(1))
        assert roundtrip(message) == message
        assert message.WhichOneof("game") == "yahtzee"
        obs = message.yahtzee
        assert (obs.seat, obs.variant, obs.current_player, obs.rerolls_left, obs.round, obs.rounds) == (
            1, "yams", 0, 2, 3, 14)
        assert len(obs.cards) == 2 and [b.name for b in obs.cards[0].boxes][:7] == [
            "ones", "twos", "threes", "fours", "fives", "sixes", "plus"]
        seat0, seat1 = obs.cards
        assert (seat0.upper_total, seat0.upper_bonus, seat0.delta, seat0.total) == (30, 0, 0, 75)
        assert (seat1.upper_total, seat1.delta, seat1.total) == (0, 29 - 7, 22)
        minus = next(b for b in seat1.boxes if b.name == "minus")
        assert (minus.filled, minus.score) == (True, 7)
        assert not next(b for b in seat1.boxes if b.name == "ones").filled
        assert len(message.events) == len(state.events)

    @pytest.mark.parametrize("variant", ["yahtzee", "yams"])
    @pytest.mark.parametrize("players", [1, 3, 6])
    def test_observation_bytes_are_the_serialised_message(self, variant: str, players: int) -> None:
        # The referee sends observation_bytes (cached scorecards); bots parse observation().
        rng = random.Random(players)
        state = YahtzeeGame(variant=variant, num_players=players).new_initial_state(players)
        while True:
            for seat in range(players):
                observation = state.observe(seat)
                assert yahtzee_wire.observation_bytes(observation) == \
                    yahtzee_wire.observation(observation).SerializeToString()
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])

    def test_terminal_observation(self) -> None:
        state = YahtzeeGame(num_players=1).new_initial_state(1)
        while not state.is_terminal():
            state.apply(state.legal_actions()[0])
        obs = yahtzee_wire.observation(state.observe(0))
        assert (obs.current_player, list(obs.dice)) == (TERMINAL, [])
        assert obs.cards[0].total == state.outcome().scores[0]


def play_solitaire(state: YahtzeeState, strategy: ModuleType | None, chooser: random.Random) -> float:
    """Play a 1-seat game with ``strategy`` (through the wire), or at random if it is None."""
    while not state.is_terminal():
        actions = state.legal_actions()
        if strategy is None:
            index = chooser.randrange(len(actions))
        else:
            observation = wire.observation_to_proto("yahtzee", state.observe(0))
            index = strategy.decide(observation, wire.actions_to_proto("yahtzee", actions))
        state.apply(actions[index])
    return state.outcome().scores[0]


class TestHeuristic:
    @pytest.mark.parametrize(("variant", "games", "floor"), [("yahtzee", 50, 180), ("yams", 20, 220)])
    def test_beats_random_by_a_wide_margin(self, strategy: ModuleType, variant: str, games: int,
                                           floor: int) -> None:
        game = YahtzeeGame(variant=variant, num_players=1)
        heuristic = [play_solitaire(game.new_initial_state(seed), strategy, random.Random(seed))
                     for seed in range(games)]
        randomly = [play_solitaire(game.new_initial_state(seed), None, random.Random(seed))
                    for seed in range(games)]
        # measured: yahtzee ~240 vs ~45, yams ~320 vs ~30
        assert statistics.mean(heuristic) > floor
        assert statistics.mean(randomly) < 100
        assert statistics.mean(heuristic) > statistics.mean(randomly) + 120

    def test_wins_head_to_head(self, strategy: ModuleType) -> None:
        game = YahtzeeGame(num_players=2)
        wins = 0
        for seed in range(10):
            state = game.new_initial_state(seed)
            chooser = random.Random(seed)
            while not state.is_terminal():
                actions = state.legal_actions()
                seat = state.current_player()
                if seat == seed % 2:
                    observation = wire.observation_to_proto("yahtzee", state.observe(seat))
                    index = strategy.decide(observation, wire.actions_to_proto("yahtzee", actions))
                else:
                    index = chooser.randrange(len(actions))
                assert 0 <= index < len(actions)
                state.apply(actions[index])
            wins += state.outcome().ranking[seed % 2] == 0
        assert wins >= 9

    def test_answers_every_kind_of_decision(self, strategy: ModuleType) -> None:
        state = YahtzeeGame(num_players=1).new_initial_state(0, dice_source=[(2, 2, 2, 2, 2), (2, 2, 2, 2, 2)])
        state.apply(Score("yahtzee", 50))
        observation = wire.observation_to_proto("yahtzee", state.observe(0))
        actions = state.legal_actions()
        index = strategy.decide(observation, wire.actions_to_proto("yahtzee", actions))
        assert actions[index] == Score("twos", 10, bonus=100)  # forced, and better than any reroll

    def test_message_types(self) -> None:
        assert yahtzee_pb2.YahtzeeAction.DESCRIPTOR.oneofs_by_name["kind"].fields[0].name == "reroll"
