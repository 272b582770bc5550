"""The registry of game engines: name -> :class:`~referee.games.base.Game` subclass.

Engines are imported on first use so that one broken or slow engine does not tax the others.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from referee.games.base import Game, SettingsError

_REGISTRY: dict[str, str] = {
    "yahtzee": "referee.games.yahtzee:YahtzeeGame",
    "gin_rummy": "referee.games.gin_rummy:GinRummyGame",
    "yaniv": "referee.games.yaniv:YanivGame",
    "jass": "referee.games.jass:JassGame",
    "yoninkan": "referee.games.yoninkan:YoninkanGame",
}


class UnknownGameError(SettingsError):
    """No engine has this name."""


def game_names() -> list[str]:
    """Every registered game name, sorted."""
    return sorted(_REGISTRY)


def game_class(name: str) -> type[Game]:
    """The engine class registered as ``name``.

    :raises UnknownGameError: if there is none.
    """
    try:
        module_name, class_name = _REGISTRY[name].split(":")
    except KeyError:
        raise UnknownGameError(f"unknown game {name!r} (games: {', '.join(game_names())})") from None
    cls: type[Game] = getattr(importlib.import_module(module_name), class_name)
    return cls


def make_game(name: str, *, variant: str | None = None, num_players: int | None = None,
              settings: Mapping[str, Any] | None = None) -> Game:
    """A configured game.

    :raises SettingsError: for an unknown game, variant, seat count or setting.
    """
    return game_class(name)(variant=variant, num_players=num_players, settings=settings)
