"""The codec of each game: name -> its :class:`~arena.envs.codec.Codec` (imported on first use)."""

from __future__ import annotations

import importlib
from typing import Final

from arena.envs.codec import Codec
from referee.games.base import Game

_CODECS: Final = {
    "gin_rummy": "arena.envs.gin_rummy:GinRummyCodec",
    "jass": "arena.envs.jass:JassCodec",
    "yahtzee": "arena.envs.yahtzee:YahtzeeCodec",
    "yaniv": "arena.envs.yaniv:YanivCodec",
    "yoninkan": "arena.envs.yoninkan:YoninkanCodec",
}


def make_codec(game: Game) -> Codec:
    """The codec of a configured game.

    :raises KeyError: for a game without one (a test holds every registered game to have one).
    """
    module_name, class_name = _CODECS[game.name].split(":")
    codec: Codec = getattr(importlib.import_module(module_name), class_name)(game)
    return codec
