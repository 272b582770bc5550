"""The sample heuristic Jass bot: legal answers, the behaviours it promises, and that it beats
random play (in process, through the wire adapter, as the referee would call it)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from arena.v1 import jass_pb2
from referee import wire
from referee.games.jass import JassGame

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "jass_heuristic"))
import strategy  # noqa: E402


def play_match(seed: int, heuristic_team: int, target: int) -> int:
    """One match, the heuristic on ``heuristic_team``'s seats, random elsewhere; the winning team."""
    state = JassGame(settings={"target": target}).new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        actions = state.legal_actions()
        if seat % 2 == heuristic_team:
            observation = wire.observation_to_proto("jass", state.observe(seat))
            index = strategy.decide(observation, wire.actions_to_proto("jass", actions))
        else:
            index = rng.randrange(len(actions))
        state.apply(actions[index])
    ranking = state.outcome().ranking
    return 0 if ranking[0] < ranking[1] else 1 if ranking[1] < ranking[0] else -1


def observation(**fields: object) -> jass_pb2.JassObservation:
    return jass_pb2.JassObservation(**fields)


def test_it_chooses_a_strong_trump_and_pushes_a_weak_hand() -> None:
    assert strategy.choose_mode("JH 9H AH KH 6H AS 7D 8C 6S".split(), may_push=True) == "hearts"
    assert strategy.choose_mode("AS KS QS AH KH AD 6C 7C 8D".split(), may_push=True) == "obenabe"
    assert strategy.choose_mode("7S 9S 7H TH 8D QD 7C 9C JC".split(), may_push=True) is None
    assert strategy.choose_mode("7S 9S 7H TH 8D QD 7C 9C JC".split(), may_push=False) is not None


def test_it_wins_a_trick_with_the_cheapest_winning_card() -> None:
    obs = observation(seat=1, mode="obenabe", hand=["QS", "KS", "AS"], trick=["JS"], trick_leader=0)
    assert strategy.choose_card(obs, ["QS", "KS", "AS"]) == "QS"


def test_it_feeds_points_to_its_partners_winning_trick() -> None:
    # Seat 3 plays last; its partner seat 1 leads with the winning AS.
    obs = observation(seat=3, mode="hearts", hand=["TD", "6D", "KC"], trick=["AS", "7S", "8S"], trick_leader=1)
    assert strategy.choose_card(obs, ["TD", "6D", "KC"]) == "TD"


def test_it_throws_its_cheapest_card_when_it_cannot_win() -> None:
    # Seat 0, an opponent of seat 3, leads the trump J.
    obs = observation(seat=3, mode="spades", hand=["TD", "6D", "KC"], trick=["JS", "AH", "7H"], trick_leader=0)
    assert strategy.choose_card(obs, ["TD", "6D", "KC"]) == "6D"


@pytest.mark.slow
def test_it_beats_two_random_bots_clearly() -> None:
    wins = sum(play_match(seed, seed % 2, 1000) == seed % 2 for seed in range(20))
    assert wins >= 16
