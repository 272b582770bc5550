"""Per-game drawings for the replay viewer: one small module per game, named after it.

A renderer module ``arena.web.renderers.<game>`` provides

* ``render_seat(observation, ctx) -> Markup``: one seat's view, from exactly what
  ``State.observe(seat)`` returned;
* optionally ``render_table(observations, ctx) -> Markup``: the full table, from every
  seat's observation (default: each seat's view in turn).

A game without a module gets :mod:`arena.web.renderers.generic`, which shows the
observation's text and fields, so a new engine is viewable at once and a module makes it
prettier.  Renderers must escape every text they draw (``Markup.format`` does): player names
come from bots.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from markupsafe import Markup

from referee.games import game_names


@dataclass(frozen=True)
class RenderContext:
    """What a renderer knows besides the observation."""

    players: tuple[str, ...]
    """Player labels by seat (untrusted text)."""
    seat: int | None
    """The seat whose view is drawn, or ``None`` for the full table."""


def renderer_for(game: str) -> ModuleType:
    """The game's renderer module, or the generic one."""
    if game in game_names():
        try:
            return importlib.import_module(f"{__name__}.{game}")
        except ModuleNotFoundError as error:
            if error.name != f"{__name__}.{game}":
                raise
    return importlib.import_module(f"{__name__}.generic")


def render_seat(module: ModuleType, observation: Any, ctx: RenderContext) -> Markup:
    return Markup(module.render_seat(observation, ctx))


def render_table(module: ModuleType, observations: Sequence[Any], ctx: RenderContext) -> Markup:
    """The full table: the module's own drawing, or every seat's view one after the other."""
    if hasattr(module, "render_table"):
        return Markup(module.render_table(observations, ctx))
    parts = [Markup('<section class="seat-view"><h3>{}</h3>{}</section>').format(
        f"seat {seat}: {ctx.players[seat]}" if seat < len(ctx.players) else f"seat {seat}",
        module.render_seat(obs, RenderContext(ctx.players, seat))) for seat, obs in enumerate(observations)]
    return Markup("").join(parts)
