"""Rewards: zero-sum at every table; per-hand rewards add up to the final score's reward."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from arena import envs  # noqa: E402
from referee.games import game_class  # noqa: E402


def play(name: str, players: int, rewards: str, seed: int) -> dict[str, float]:
    """Total reward per agent of one random match."""
    table = envs.raw_env(name, num_players=players, settings=game_class(name).short_match_settings, rewards=rewards)
    table.reset(seed=seed)
    rng = random.Random(seed)
    totals = dict.fromkeys(table.possible_agents, 0.0)
    while not all(table.terminations.values()):
        table.step(rng.choice(table.legal_indices()))
        for agent, reward in table.rewards.items():
            totals[agent] += reward
    return totals


@pytest.mark.parametrize(("name", "players"), [("gin_rummy", 2), ("yahtzee", 3), ("yaniv", 4), ("jass", 4),
                                               ("yoninkan", 4)])
def test_hand_rewards_add_up_to_the_score_reward(name: str, players: int) -> None:
    for seed in (1, 2):
        score = play(name, players, "score", seed)
        hand = play(name, players, "hand", seed)
        assert hand == pytest.approx(score)
        assert sum(score.values()) == pytest.approx(0.0)
        ranking = play(name, players, "ranking", seed)
        assert sum(ranking.values()) == pytest.approx(0.0) and all(-1 <= r <= 1 for r in ranking.values())


def test_a_lone_yahtzee_player_is_rewarded_its_score() -> None:
    table = envs.raw_env("yahtzee", num_players=1, rewards="score")
    table.reset(seed=5)
    while not all(table.terminations.values()):
        table.step(table.legal_indices()[0])
    assert table.rewards["seat_0"] == table.state.outcome().scores[0] > 0
