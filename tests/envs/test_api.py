"""PettingZoo's own checks for every game, variant and seat count: ``api_test`` and
``seed_test``, on short matches (few cycles; the settings cap the match length)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from pettingzoo.test import api_test, seed_test  # noqa: E402

from arena import envs  # noqa: E402
from referee.games import game_class, game_names  # noqa: E402

CONFIGS = [(name, variant, players)
           for name in game_names()
           for variant in game_class(name).variants
           for players in range(game_class(name).min_players, game_class(name).max_players + 1)]


EXPECTED = {"Observation is not a NumPy array",
            "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete"}


def short(name: str) -> dict[str, Any]:
    return dict(game_class(name).short_match_settings)


@pytest.mark.parametrize(("name", "variant", "players"), CONFIGS)
def test_api_test_passes(name: str, variant: str, players: int) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(envs.env(name, variant=variant, num_players=players, settings=short(name)), num_cycles=20)
    # Any other warning of api_test names a fault; these two it gives every environment whose
    # observation is a dict holding an action mask, as PettingZoo's own card games do.
    worries = {str(w.message) for w in caught} - EXPECTED
    assert worries == set()


@pytest.mark.parametrize(("name", "variant", "players"), CONFIGS)
def test_seed_test_passes(name: str, variant: str, players: int) -> None:
    seed_test(lambda: envs.env(name, variant=variant, num_players=players, settings=short(name)), num_cycles=20)


def test_every_game_has_an_environment() -> None:
    assert len(CONFIGS) >= 5 + 8 + 7 + 2
    assert {name for name, _, _ in CONFIGS} == set(game_names())
