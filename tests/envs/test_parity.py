"""Parity: from the same seed and the same actions, the environment yields what a real match
through the referee sends (gRPC, recording bots): the same protocol observations, the same
legal actions in the same order, the same end-of-match observations and result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from arena import envs  # noqa: E402
from arena.v1 import bot_pb2  # noqa: E402
from referee import wire  # noqa: E402
from referee.games import game_class, game_names  # noqa: E402

CASES = [("gin_rummy", "standard", 2), ("gin_rummy", "oklahoma", 2), ("gin_rummy", "straight", 2),
         ("yahtzee", "yahtzee", 3), ("yahtzee", "yams", 1), ("yaniv", "standard", 3), ("yaniv", "standard", 5),
         ("jass", "schieber", 4), ("yoninkan", "standard", 4)]


def test_the_cases_cover_every_game_and_variant() -> None:
    assert {(name, variant) for name, variant, _ in CASES} == \
        {(name, variant) for name in game_names() for variant in game_class(name).variants}


@pytest.mark.slow
@pytest.mark.parametrize(("name", "variant", "players"), CASES)
def test_the_environment_replays_a_real_match(recorded_matches: Callable[..., Any], name: str, variant: str,
                                              players: int) -> None:
    settings = dict(game_class(name).short_match_settings)
    checked = 0
    for match in recorded_matches(name, variant=variant, num_players=players, settings=settings, seeds=(3, 11)):
        record = match.record
        table = envs.raw_env(name, variant=variant, num_players=players, settings=settings, messages=True)
        table.reset(seed=record.seed)
        pending = [iter(match.of_kind(seat, bot_pb2.DecideRequest)) for seat in range(players)]
        for move in record.moves:
            agent = f"seat_{move.seat}"
            assert table.agent_selection == agent
            request = next(pending[move.seat])
            observation = table.observe(agent)
            assert observation["message"] == request.observation
            assert wire.actions_to_proto(name, table.legal_actions()) == list(request.legal_actions)
            indices = table.legal_indices()
            assert len(set(indices)) == len(indices) == len(request.legal_actions)
            assert sorted(observation["action_mask"].nonzero()[0].tolist()) == sorted(indices)
            table.step(indices[move.index])
            checked += 1
        assert all(table.terminations.values()) and len(table.agents) == players
        for seat, agent in enumerate(table.possible_agents):
            (end,) = match.of_kind(seat, bot_pb2.EndMatchRequest)
            assert table.message(agent) == end.observation
        ranks = record.ranking
        expected = [(sum(r > ranks[s] for r in ranks) - sum(r < ranks[s] for r in ranks)) / max(players - 1, 1)
                    for s in range(players)]
        assert [table.rewards[agent] for agent in table.possible_agents] == pytest.approx(expected)
        assert list(table.state.outcome().scores) == record.scores
    assert checked > 40
