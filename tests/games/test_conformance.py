"""One conformance suite for every registered engine and variant.

Each engine also has its own rule and property tests; this suite checks the interface
promises the referee relies on, the same way for all of them.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.v1 import bot_pb2
from referee import wire
from referee.games import game_class, game_names, make_game
from referee.games.base import TERMINAL, IllegalActionError, Outcome

CONFIGS = [(name, variant, players)
           for name in game_names()
           for variant in game_class(name).variants
           for players in sorted({game_class(name).min_players, game_class(name).default_players,
                                  game_class(name).max_players})]


def play_random(name: str, variant: str, players: int, seed: int, choice_seed: int, *, check_wire: bool = False):
    game = make_game(name, variant=variant, num_players=players)
    state = game.new_initial_state(seed)
    rng = random.Random(choice_seed)
    indices = []
    seen = [0] * players  # events already sent to each seat, as the referee keeps it
    while not state.is_terminal():
        seat = state.current_player()
        assert 0 <= seat < players
        actions = state.legal_actions()
        assert actions, "a non-terminal state must offer actions"
        assert len(set(map(str, actions))) == len(actions), "action texts must be distinct"
        if check_wire:
            observation = wire.observation_to_proto(name, state.observe(seat), state.events_for(seat, seen[seat]))
            seen[seat] = len(state.events)
            assert bot_pb2.Observation.FromString(observation.SerializeToString()) == observation
            assert observation.WhichOneof("game") == wire.game_module(name).FIELD
            for message in wire.actions_to_proto(name, actions):
                assert message.text and message.WhichOneof("game") == wire.game_module(name).FIELD
        index = rng.randrange(len(actions))
        indices.append(index)
        state.apply(actions[index])
        assert len(indices) < 200_000, "game did not terminate"
    return state, indices


@pytest.mark.parametrize("name, variant, players", CONFIGS)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1))
def test_random_games_end_with_a_consistent_outcome(name: str, variant: str, players: int, seed: int,
                                                     choice_seed: int) -> None:
    state, _ = play_random(name, variant, players, seed, choice_seed)
    assert state.current_player() == TERMINAL and state.legal_actions() == []
    outcome = state.outcome()
    assert isinstance(outcome, Outcome)
    assert len(outcome.scores) == len(outcome.ranking) == players
    assert min(outcome.ranking) == 0
    for seat in range(players):  # competition ranking: rank = seats strictly ahead
        assert outcome.ranking[seat] == sum(1 for other in outcome.ranking if other < outcome.ranking[seat])


@pytest.mark.parametrize("name, variant, players", CONFIGS)
def test_same_seed_and_actions_replay_identically(name: str, variant: str, players: int) -> None:
    first, indices = play_random(name, variant, players, 1234, 99)
    game = make_game(name, variant=variant, num_players=players)
    second = game.new_initial_state(1234)
    for index in indices:
        second.apply(second.legal_actions()[index])
    assert [e.text for e in second.events] == [e.text for e in first.events]
    assert second.outcome() == first.outcome()


@pytest.mark.parametrize("name, variant, players", CONFIGS)
def test_every_observation_and_action_converts_to_the_wire(name: str, variant: str, players: int) -> None:
    play_random(name, variant, players, 5, 6, check_wire=True)


@pytest.mark.parametrize("name", game_names())
def test_clone_is_independent_and_illegal_actions_are_refused(name: str) -> None:
    game = make_game(name)
    state = game.new_initial_state(3)
    clone = state.clone()
    actions = state.legal_actions()
    state.apply(actions[-1])
    assert [str(a) for a in clone.legal_actions()] == [str(a) for a in actions]
    assert len(clone.events) < len(state.events)
    # Replaying an action from the old position on the new one is refused unless still legal.
    stale = [a for a in actions if not state.is_legal(a)]
    for action in stale[:3]:
        with pytest.raises(IllegalActionError):
            state.apply(action)
    finished, _ = play_random(name, game.variant, game.num_players, 8, 8)
    with pytest.raises(IllegalActionError):
        finished.apply(actions[0])


@pytest.mark.parametrize("name", game_names())
def test_every_engine_marks_the_milestones_of_a_match(name: str) -> None:
    """`arena play` and `arena show` summarise a match by its milestone events (hand, round
    or battle ends): every engine marks some, and the last event of a finished match is one."""
    state, _ = play_random(name, game_class(name).variants[0], game_class(name).default_players, 3, 4)
    milestones = [event for event in state.events if event.milestone]
    assert milestones and state.events[-1].milestone
    assert all(event.visible_to is None for event in milestones)  # a summary line is public
