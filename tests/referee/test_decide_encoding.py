"""The referee serialises DecideRequest itself (cached action encodings): it must be the very
message the generated classes would build, for every game, so that every bot reads it unchanged."""

from __future__ import annotations

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
            encoded = wire.decide_request_bytes(game_name, match_id="m1", decision_number=decision,
                                                observation=observation, events=events, legal_actions=legal,
                                                time_left_ms=11000, bank_left_ms=10000)
            assert bot_pb2.DecideRequest.FromString(encoded) == expected
            assert len(encoded) == expected.ByteSize()
            state.apply(legal[rng.randrange(len(legal))])
            decision += 1
