"""Yahtzee and Yams: the dice of the seat to play and every seat's score card.

The card shows every number its total is made of, as the engine counts it
(docs/rules/yahtzee.md): the upper subtotal and its bonus (Yahtzee +35 at 63; Yams 30 + the
excess at 60), Yams' delta (plus - minus, which count only through it) and the Yahtzee bonus,
so that each column adds up to its total.  Yahtzee hides nothing, so a seat's view and the
full table are the same drawing.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from markupsafe import Markup, escape

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import dice_row
from referee.games.base import TERMINAL
from referee.games.yahtzee import YahtzeeObservation
from referee.games.yahtzee_scoring import UPPER_BOXES, delta, upper_bonus, upper_total

_BONUS_RULES = {"yahtzee": "upper bonus (+35 at 63)", "yams": "upper bonus (30 + excess at 60)"}


def _name(ctx: RenderContext, seat: int) -> str:
    return ctx.players[seat] if seat < len(ctx.players) else f"seat {seat}"


@functools.lru_cache(maxsize=1024)
def _escaped(text: str) -> str:
    """Escaped once, not once per step: a replay draws the same names and boxes 200 times."""
    return str(escape(text))


def render_seat(obs: YahtzeeObservation, ctx: RenderContext) -> Markup:
    if obs.current_player == TERMINAL:
        status = Markup('<p class="status">Game over after {} rounds.</p>').format(obs.rounds)
        dice = Markup("")
    else:
        status = Markup('<p class="status">Round {}/{}: <b>{}</b> (seat {}) to play, {} reroll(s) left.</p>').format(
            obs.round, obs.rounds, _name(ctx, obs.current_player), obs.current_player, obs.rerolls_left)
        dice = dice_row(obs.dice)
    seats = range(len(obs.cards))
    # f-strings and escape(), not Markup.format: a replay draws hundreds of these cards.
    head = "".join(f'<th class="{"to-play" if s == obs.current_player else ""}" scope="col">'
                   f'{_escaped(_name(ctx, s))}<br><small>seat {s}</small></th>' for s in seats)
    body = ""
    cards = [obs.card(s) for s in seats]
    for index, box in enumerate(obs.boxes):
        cells = "".join('<td class="empty"></td>' if obs.cards[s][index] is None
                        else f'<td class="filled">{int(obs.cards[s][index] or 0)}</td>' for s in seats)
        uncounted = ' class="uncounted"' if box in ("plus", "minus") else ""
        body += f'<tr{uncounted}><th scope="row">{_escaped(box.replace("_", " "))}</th>{cells}</tr>'
        if box == UPPER_BOXES[-1]:
            body += _row("upper", "upper subtotal", [upper_total(card) for card in cards])
            body += _row("upper-bonus", _BONUS_RULES.get(obs.variant, "upper bonus"),
                         [upper_bonus(obs.variant, card) for card in cards])
        if box == "minus":
            body += _row("delta", "delta (plus \u2212 minus)", [delta(obs.variant, card) for card in cards])
    if obs.variant != "yams":
        body += _row("bonus", "yahtzee bonus", list(obs.yahtzee_bonus))
    totals = "".join(f'<td class="total" data-seat="{s}">{int(obs.totals[s])}</td>' for s in seats)
    head, body, totals = Markup(head), Markup(body), Markup(totals)
    return Markup('<div class="yahtzee">{}{}<table class="scorecard"><thead><tr><th></th>{}</tr></thead>'
                  '<tbody>{}<tr class="totals"><th scope="row">total</th>{}</tr></tbody></table></div>').format(
        status, dice, head, body, totals)


def _row(kind: str, label: str, values: Sequence[int]) -> str:
    """A computed row of the card (subtotal, bonus, delta): ``data-row`` names it for tests."""
    cells = "".join(f'<td data-seat="{s}">{int(v)}</td>' for s, v in enumerate(values))
    return f'<tr class="computed" data-row="{kind}"><th scope="row">{_escaped(label)}</th>{cells}</tr>'



def render_table(observations: Sequence[YahtzeeObservation], ctx: RenderContext) -> Markup:
    """Nothing is hidden in Yahtzee: the full table is any seat's view, drawn once."""
    return render_seat(observations[0], ctx)


def play_hint(obs: YahtzeeObservation, actions: Sequence[str]) -> str:
    """Dice, not cards: pick the dice to roll again, or score a box."""
    if any(text.startswith("reroll ") for text in actions):
        return "click dice to pick the ones to roll again, then Reroll; or score a box"
    return "score a box (no rerolls left)"
