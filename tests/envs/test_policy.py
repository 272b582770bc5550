"""arena.envs.policy: a policy served as a bot sees exactly what the environment showed it,
and its choice reaches the referee as the legal action it names (or a legal fallback)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from arena import envs  # noqa: E402
from arena.envs.policy import PolicyDecide  # noqa: E402
from arena.v1 import bot_pb2  # noqa: E402
from referee import wire  # noqa: E402
from referee.games import game_class  # noqa: E402


def first_legal(observation: dict[str, Any]) -> int:
    return int(np.flatnonzero(observation["action_mask"])[0])


def position(table: Any) -> tuple[bot_pb2.Observation, list[bot_pb2.Action]]:
    """What the referee would send the seat to act: its observation and the legal actions."""
    return table.message(table.agent_selection), wire.actions_to_proto(table.game.name, table.legal_actions())


@pytest.mark.parametrize("variant", game_class("gin_rummy").variants)
def test_the_bot_sees_what_the_environment_showed_the_policy(variant: str) -> None:
    settings = dict(game_class("gin_rummy").short_match_settings)
    chosen: list[int] = []
    decide = PolicyDecide(lambda observation: chosen[-1], game="gin_rummy", variant=variant, settings=settings)
    table = envs.raw_env("gin_rummy", variant=variant, settings=settings, messages=True)
    rng = random.Random(5)
    for seed in (1, 2):
        table.reset(seed=seed)
        while not all(table.terminations.values()):
            shown = table.observe(table.agent_selection)
            seen = decide.observe(*position(table))
            assert np.array_equal(seen["observation"], shown["observation"])
            assert np.array_equal(seen["action_mask"], shown["action_mask"])
            assert seen["message"] == shown["message"]
            chosen.append(rng.choice(table.legal_indices()))
            answer = decide(*position(table))
            assert table.legal_indices()[answer.action_index] == chosen[-1] and not answer.comment
            table.step(chosen[-1])


def test_a_legal_action_message_is_played_and_an_illegal_choice_falls_back_with_a_message(
        capsys: pytest.CaptureFixture[str]) -> None:
    table = envs.raw_env("gin_rummy", messages=True)
    table.reset(seed=3)
    message, legal = position(table)
    answer = PolicyDecide(lambda o: o["legal_actions"][-1], game="gin_rummy")(message, legal)
    assert answer.action_index == len(legal) - 1 and not answer.comment
    illegal = int(np.flatnonzero(table.observe(table.agent_selection)["action_mask"] == 0)[0])
    answer = PolicyDecide(lambda o: illegal, game="gin_rummy")(message, legal)
    assert 0 <= answer.action_index < len(legal)
    assert answer.comment == f"illegal policy choice: action {illegal} ({table.action_name(illegal)}); random fallback"
    printed = capsys.readouterr().err
    assert f"policy: action {illegal} ({table.action_name(illegal)}) is not legal here" in printed
    assert f"playing a random legal action instead: {legal[answer.action_index].text}" in printed
    assert "outside the action space" in PolicyDecide(lambda o: 999, game="gin_rummy")(message, legal).comment
    with pytest.raises(TypeError, match="return an index of the action space"):
        PolicyDecide(lambda o: "draw", game="gin_rummy")(message, legal)  # type: ignore[arg-type, return-value]


def test_a_match_of_another_variant_or_a_game_without_a_decoder_is_refused() -> None:
    table = envs.raw_env("gin_rummy", variant="oklahoma", messages=True)
    table.reset(seed=3)
    with pytest.raises(ValueError, match="trained for gin_rummy variant standard, not oklahoma"):
        PolicyDecide(first_legal, game="gin_rummy")(*position(table))
    with pytest.raises(ValueError, match="yaniv: arena.envs.policy cannot serve"):
        PolicyDecide(first_legal, game="yaniv")
