"""PettingZoo environments for every arena game (``pip install arena[learn]``; docs/learning.md).

>>> from arena import envs
>>> table = envs.env("gin_rummy", variant="oklahoma")
>>> table.reset(seed=7)
>>> table.possible_agents, table.agent_selection in table.agents
(['seat_0', 'seat_1'], True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pettingzoo.utils import wrappers

from arena.envs.aec import REWARDS, ArenaEnv, MessageSpace

__all__ = ["REWARDS", "ArenaEnv", "MessageSpace", "env", "gin_rummy", "jass", "raw_env", "yahtzee", "yaniv",
           "yoninkan"]


def raw_env(game: str, *, variant: str | None = None, num_players: int | None = None,
            settings: Mapping[str, Any] | None = None, **options: Any) -> ArenaEnv:
    """The environment without PettingZoo's wrappers (fastest; an illegal action raises).

    ``options``: ``rewards`` ("ranking", "score", "hand"), ``messages``, ``render_mode``.
    """
    return ArenaEnv(game, variant=variant, num_players=num_players, settings=settings, **options)


def env(game: str, *, variant: str | None = None, num_players: int | None = None,
        settings: Mapping[str, Any] | None = None, **options: Any) -> Any:
    """The environment in PettingZoo's usual order checks (``OrderEnforcingWrapper``)."""
    return wrappers.OrderEnforcingWrapper(raw_env(game, variant=variant, num_players=num_players, settings=settings,
                                                  **options))


def gin_rummy(**kwargs: Any) -> Any:
    """``env("gin_rummy", ...)``: variants standard, oklahoma, straight; 2 seats."""
    return env("gin_rummy", **kwargs)


def jass(**kwargs: Any) -> Any:
    """``env("jass", ...)``: Schieber, 4 seats in teams 0+2 and 1+3."""
    return env("jass", **kwargs)


def yahtzee(**kwargs: Any) -> Any:
    """``env("yahtzee", ...)``: variants yahtzee, yams; 1 to 8 seats."""
    return env("yahtzee", **kwargs)


def yaniv(**kwargs: Any) -> Any:
    """``env("yaniv", ...)``: 2 to 8 seats."""
    return env("yaniv", **kwargs)


def yoninkan(**kwargs: Any) -> Any:
    """``env("yoninkan", ...)``: 4 seats."""
    return env("yoninkan", **kwargs)
