"""Pieces shared by the drawings of the seated card games (Jass, Yoninkan, Yaniv): seat
labels, a hand as a fan (face up, or backs where the viewer may not see it), four seats
around a table and the trick between them.

Every text goes through ``Markup.format`` or :func:`markupsafe.escape`: names come from bots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row

SUIT_NAMES = {"S": "\u2660 spades", "H": "\u2665 hearts", "D": "\u2666 diamonds", "C": "\u2663 clubs"}
_POSITIONS = ("south", "west", "north", "east")
"""Grid areas in play order from the seat at the bottom (play goes round clockwise)."""


def name(ctx: RenderContext, seat: int) -> str:
    """The player's label (untrusted text: escape it where it is drawn)."""
    return ctx.players[seat] if 0 <= seat < len(ctx.players) else f"seat {seat}"


def who(ctx: RenderContext, seat: int) -> Markup:
    """``name (seat n)``, escaped."""
    return Markup("<b>{}</b> (seat {})").format(name(ctx, seat), seat)


def fan(cards: Sequence[Any], hidden: int = 0, *, marks: Mapping[str, str] | None = None) -> Markup:
    """A hand: its known cards face up, then ``hidden`` backs (cards this view may not see).

    The label says how many cards are hidden, never which.
    """
    label = " ".join(str(c) for c in cards) + (f" and {hidden} hidden" if hidden else "")
    return card_row(list(cards), face_down=max(0, hidden), marks=dict(marks or {}), overlap=0.48,
                    label=label or "no cards")


def around(boxes: Mapping[int, Markup], order: Sequence[int], bottom: int, middle: Markup) -> Markup:
    """Four seat boxes around ``middle``: ``bottom`` at the bottom, then clockwise in ``order``
    (the seats in play order)."""
    start = list(order).index(bottom)
    cells = Markup("").join(Markup('<div class="place {}">{}</div>').format(
        _POSITIONS[k], boxes[order[(start + k) % 4]]) for k in range(4))
    return Markup('<div class="around">{}<div class="place middle">{}</div></div>').format(cells, middle)


def trick_cross(plays: Sequence[tuple[int, Any]], order: Sequence[int], bottom: int, *,
                marks: Mapping[int, str] | None = None) -> Markup:
    """The cards of a trick, each on its player's side of the table (``marks``: a CSS class
    per seat, such as the winner's)."""
    start = list(order).index(bottom)
    side = {order[(start + k) % 4]: _POSITIONS[k] for k in range(4)}
    cells = Markup("").join(
        Markup('<div class="slot {}" data-seat="{}">{}</div>').format(
            side[seat], seat, card_row([card], marks={str(card): (marks or {}).get(seat, "")}))
        for seat, card in plays)
    return Markup('<div class="trick-cross">{}</div>').format(cells)


def seat_box(ctx: RenderContext, seat: int, *, tags: Sequence[str], hand: Markup, to_play: bool,
             extra: Markup = Markup("")) -> Markup:
    """One seat: its name, short tags (dealer, team...), its hand and anything else."""
    tag_html = Markup("").join(Markup('<span class="tag">{}</span>').format(t) for t in tags)
    return Markup('<div class="seat-box{}" data-seat="{}"><h4>{} {}</h4>{}{}</div>').format(
        " to-play" if to_play else "", seat, who(ctx, seat), tag_html, hand, extra)
