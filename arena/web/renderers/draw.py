"""SVG pieces shared by the renderers: playing cards and dice.

Cards are drawn from their text form (rank then suit, ``"TD"``; jokers ``"X1"``), so any
card game's observation can use them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from markupsafe import Markup, escape

CARD_W, CARD_H = 46, 66
SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
RED_SUITS = frozenset("HD")
_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)], 4: [(0, 0), (2, 0), (0, 2), (2, 2)],
         5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)], 6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}


@functools.lru_cache(maxsize=8192)
def card(text: Any, x: float, y: float, *, face_down: bool = False, mark: str = "") -> Markup:
    """One card at ``(x, y)``; ``mark`` adds a CSS class (``"taken"``, ``"top"``...).

    Built with f-strings and :func:`escape` (``Markup.format`` is too slow for a replay's
    thousands of cards); every text goes through :func:`escape`.
    """
    classes = escape("card" + (f" {mark}" if mark else ""))
    if face_down:
        return Markup(f'<g class="{classes} back" transform="translate({x},{y})"><rect width="{CARD_W}" '
                      f'height="{CARD_H}" rx="5"/><rect class="pattern" x="5" y="5" width="{CARD_W - 10}" '
                      f'height="{CARD_H - 10}" rx="3"/></g>')
    label = str(text)
    rank, suit = label[:-1] or label, label[-1:]
    if label.startswith("X"):  # a joker: a star and the word, never its number (X2 is not a two)
        return Markup(f'<g class="{classes} joker" transform="translate({x},{y})" data-card="{escape(label)}">'
                      f'<rect width="{CARD_W}" height="{CARD_H}" rx="5"/><text x="5" y="17" class="rank">\u2605</text>'
                      f'<text x="{CARD_W / 2}" y="{CARD_H / 2 + 8}" class="pip" text-anchor="middle">\u2605</text>'
                      f'<text x="{CARD_W / 2}" y="{CARD_H - 6}" class="joker-word" text-anchor="middle">JOKER</text>'
                      f'</g>')
    rank = "10" if rank == "T" else rank
    symbol, colour = SUIT_SYMBOLS.get(suit, suit), "red" if suit in RED_SUITS else "black"
    rank, symbol = escape(rank), escape(symbol)
    return Markup(f'<g class="{classes} {colour}" transform="translate({x},{y})" data-card="{escape(label)}">'
                  f'<rect width="{CARD_W}" height="{CARD_H}" rx="5"/><text x="5" y="17" class="rank">{rank}</text>'
                  f'<text x="5" y="32" class="suit">{symbol}</text><text x="{CARD_W / 2 + 6}" y="{CARD_H - 12}" '
                  f'class="pip" text-anchor="middle">{symbol}</text></g>')


def card_row(cards: Sequence[Any], *, face_down: int = 0, marks: dict[str, str] | None = None,
             overlap: float = 0.62, label: str = "") -> Markup:
    """An ``<svg>`` of cards side by side (``face_down`` more backs after them)."""
    step = CARD_W * overlap
    total = len(cards) + face_down
    width = round(max(CARD_W, CARD_W + step * (total - 1)) + 4, 1)
    parts = [card(c, round(2 + i * step, 1), 2, mark=(marks or {}).get(str(c), "")) for i, c in enumerate(cards)]
    parts += [card("", round(2 + (len(cards) + i) * step, 1), 2, face_down=True) for i in range(face_down)]
    aria = escape(label or " ".join(str(c) for c in cards))
    return Markup(f'<svg class="cards" role="img" aria-label="{aria}" width="{width}" height="{CARD_H + 4}" '
                  f'viewBox="0 0 {width} {CARD_H + 4}">{"".join(parts)}</svg>')


@functools.lru_cache(maxsize=1024)
def die(value: int, x: float, y: float, size: float = 44, *, mark: str = "") -> Markup:
    """One die showing ``value`` (1-6) at ``(x, y)``."""
    value = int(value)
    radius = round(size * 0.09, 2)
    pips = "".join(f'<circle cx="{round(size * (0.25 + 0.25 * px), 2)}" cy="{round(size * (0.25 + 0.25 * py), 2)}" '
                   f'r="{radius}"/>' for px, py in _PIPS.get(value, []))
    classes = escape("die" + (f" {mark}" if mark else ""))
    return Markup(f'<g class="{classes}" transform="translate({x},{y})" data-value="{value}"><rect width="{size}" '
                  f'height="{size}" rx="{round(size * 0.18, 2)}"/>{pips}</g>')


def dice_row(values: Iterable[int], size: float = 44) -> Markup:
    values = [int(v) for v in values]
    width = max(1, len(values)) * (size + 8) + 4
    parts = "".join(die(v, 2 + i * (size + 8), 2, size) for i, v in enumerate(values))
    return Markup(f'<svg class="dice" role="img" aria-label="dice {" ".join(map(str, values))}" width="{width}" '
                  f'height="{size + 4}" viewBox="0 0 {width} {size + 4}">{parts}</svg>')
