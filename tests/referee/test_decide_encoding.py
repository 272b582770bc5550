"""The referee serialises DecideRequest itself from cached parts: it must be the very
message the generated classes would build, for every game, so that every bot reads it unchanged."""

from __future__ import annotations

import dataclasses
import random

import pytest

from arena.v1 import bot_pb2
from referee import wire
from referee.games import game_names, make_game


@pytest.mark.parametrize("game_name", game_names())
def test_decide_request_bytes_parse_to_the_message_built_field_by_field(game_name: str) -> None:
    game = make_game(game_name)
    rng = random.Random(5)
    for seed in range(3):
        state = game.new_initial_state(seed)
        seen = [0] * game.num_players
        decision = 0
        encoder = wire.DecideEncoder(game_name, "m1")  # one per match, as the referee keeps it
        while not state.is_terminal() and decision < 300:
            seat = state.current_player()
            legal = state.legal_actions()
            events = state.events_for(seat, seen[seat])
            seen[seat] = len(state.events)
            observation = state.observe(seat)
            expected = bot_pb2.DecideRequest(
                match_id="m1", decision_number=decision,
                observation=wire.observation_to_proto(game_name, observation, events),
                legal_actions=wire.actions_to_proto(game_name, legal), time_left_ms=11000, bank_left_ms=10000)
            encoded = encoder.decide_request(decision_number=decision, observation=observation, events=events,
                                             legal_actions=legal, time_left_ms=11000, bank_left_ms=10000)
            assert bot_pb2.DecideRequest.FromString(encoded) == expected
            assert len(encoded) == expected.ByteSize()
            # The observation, which the referee writes from cached parts, is byte for byte protobuf's.
            assert encoder.observation(observation, events) == expected.observation.SerializeToString()
            state.apply(legal[rng.randrange(len(legal))])
            decision += 1


def test_action_caches_that_start_over_and_new_equal_actions_still_encode_right(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(wire, "_ENCODED_LIMIT", 5)  # start over every few actions, mid-request too
    game = make_game("gin_rummy")
    rng = random.Random(2)
    state = game.new_initial_state(4)
    for _ in range(200):
        legal = state.legal_actions()
        for actions in (legal, [dataclasses.replace(action) for action in legal]):  # the engine's objects, then new ones
            expected = b"".join(bot_pb2.DecideRequest(legal_actions=[action]).SerializeToString()
                                for action in wire.actions_to_proto("gin_rummy", actions))
            assert wire.encoded_legal_actions("gin_rummy", actions) == expected
        state.apply(legal[rng.randrange(len(legal))])
    assert len(wire._by_id["gin_rummy"]) <= 5 and len(wire._legal_by_id["gin_rummy"]) <= 5
