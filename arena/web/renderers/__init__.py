"""Per-game drawings for the replay viewer: one small module per game, named after it.

A renderer module ``arena.web.renderers.<game>`` provides

* ``render_seat(observation, ctx) -> Markup``: one seat's view, from exactly what
  ``State.observe(seat)`` returned;
* optionally ``render_table(observations, ctx) -> Markup``: the full table, from every
  seat's observation (default: each seat's view in turn);
* optionally, for a person at the table (:func:`play_help`), ``why_not(observation, card)
  -> str``: why a card of the hand cannot be played now, in the game's words ("you must
  follow suit"), and ``play_hint(observation, actions) -> str``: how to choose.

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

from referee.games import game_class, game_names


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


def play_help(module: ModuleType, observation: Any, actions: Sequence[str]) -> dict[str, Any]:
    """What the person's page shows beside the legal ``actions`` (their texts, as the referee
    sent them): ``blocked``, each card of the hand that no legal action names with why it
    cannot be played now, and ``hint``, how to choose.  Only from the seat's observation."""
    named = {word for text in actions for word in text.split()}
    hand = [str(card) for card in getattr(observation, "hand", ())]
    why_not = getattr(module, "why_not", None)
    blocked = {card: (why_not(observation, card) if why_not is not None else "")
               or "no legal action plays this card now" for card in hand if card not in named}
    hint = getattr(module, "play_hint", None)
    default = "click a highlighted card, or a button" if named.intersection(hand) else "click a button"
    return {"blocked": blocked, "hint": (hint(observation, actions) if hint is not None else "") or default}


def teams_of(game: str) -> list[list[int]]:
    """The game's fixed partnerships (Jass: seats 0+2 and 1+3), or ``[]``: result lists show a
    team once, ranked among the teams."""
    if game not in game_names():
        return []
    return [list(team) for team in game_class(game).teams or ()]
