"""Random legal matches: cards conserved, every observation within what its seat may know,
legal actions as the rules say, zero-sum scores consistent with game_points, determinism."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.yoninkan import YoninkanGame, game_points

from .rules_check import check_legal_actions, hand_of, hidden_from, may_know_group


def check_observations(state) -> None:
    played = {str(card) for trick in state.tricks for _, card in trick.plays}
    played |= {str(card) for _, card in state.observe(0).trick}
    hands = [hand_of(state, seat) for seat in range(4)]
    assert sum(map(len, hands)) + len(played) == 40
    assert len(set().union(*hands) | played) == 40
    for seat in range(4):
        obs = state.observe(seat)
        assert {str(c) for c in obs.hand} == hands[seat]
        named = {str(c) for c in obs.hand} | {str(c) for c in obs.shown_cards}
        named |= {str(c) for _, c in obs.trick} | {str(c) for t in obs.tricks for _, c in t.plays}
        named |= {str(c) for cards in obs.captured for c in cards}
        assert not named & hidden_from(state, seat)
        if not state.revealed:
            assert obs.kan_seats == () and obs.table == (0, 1, 2, 3)
            juukan = seat == state.jack_holder == state.joker_holder
            assert obs.partner == ((seat + 2) % 4 if juukan else -1)
            assert obs.my_group == ("kan" if may_know_group(state, seat) else "")
        else:
            assert set(obs.kan_seats) == state.kan
            assert obs.my_group == ("kan" if seat in state.kan else "mukan")


def play_match(seed: int, choices: int, games: int = 3):
    state = YoninkanGame(settings={"games": games}).new_initial_state(seed)
    rng = random.Random(choices)
    decisions = 0
    while not state.is_terminal():
        actions = state.legal_actions()
        check_legal_actions(state, [str(a) for a in actions])
        if decisions % 3 == 0:
            check_observations(state)
        state.apply(actions[rng.randrange(len(actions))])
        decisions += 1
        assert decisions < 3 * 3 * 60 * games
    return state


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), choices=st.integers(0, 2**31 - 1))
def test_random_matches_keep_every_rule(seed: int, choices: int) -> None:
    state = play_match(seed, choices)
    assert len(state.history) == 3
    totals = [0] * 4
    for game in state.history:
        assert game.points == game_points(game.battles)
        assert len(set(game.kan_seats)) == 2
        for seat in range(4):
            totals[seat] += game.points if seat in game.kan_seats else -game.points
    assert totals == state.scores and sum(state.scores) == 0
    outcome = state.outcome()
    assert list(outcome.scores) == state.scores
    assert all(outcome.ranking[s] == sum(1 for t in state.scores if t > state.scores[s]) for s in range(4))


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_a_match_replays_from_its_seed_and_choices(seed: int) -> None:
    first, second = play_match(seed, 1, games=2), play_match(seed, 1, games=2)
    assert [e.text for e in first.events] == [e.text for e in second.events]
    assert first.scores == second.scores
