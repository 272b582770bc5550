"""Gin Rummy: the hand, the opponent's cards (backs, except those taken from the pile), the
discard pile, the stock, scores and the last hand shown.  The full table shows both hands.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row
from referee.games.base import TERMINAL
from referee.games.cards import cards_text
from referee.games.gin_rummy import GinRummyObservation, HandResult


def _name(ctx: RenderContext, seat: int) -> str:
    return ctx.players[seat] if seat < len(ctx.players) else f"seat {seat}"


def _header(obs: GinRummyObservation, ctx: RenderContext) -> Markup:
    if obs.current_player == TERMINAL:
        turn = Markup("match over")
    else:
        turn = Markup("<b>{}</b> (seat {}) to {}").format(_name(ctx, obs.current_player), obs.current_player,
                                                          obs.phase)
    scores = ", ".join(f"{_name(ctx, s)} {obs.scores[s]} ({obs.hands_won[s]} hands)" for s in range(2))
    extra = f"; knock limit {obs.knock_limit}" + (", doubled" if obs.doubled else "")
    return Markup('<p class="status">Hand {}, seat {} deals{}: {}.</p><p class="scores">Points: {}</p>').format(
        obs.hand_number, obs.dealer, extra, turn, scores)


def _hand(obs: GinRummyObservation, ctx: RenderContext, seat: int) -> Markup:
    marks = {str(obs.taken_card): "taken"} if obs.taken_card is not None else {}
    return Markup('<div class="hand" data-seat="{}"><h4>{} (seat {}): deadwood {}</h4>{}</div>').format(
        seat, _name(ctx, seat), seat, obs.deadwood, card_row(obs.hand, marks=marks))


def _middle(obs: GinRummyObservation) -> Markup:
    pile = obs.discard_pile[-8:]
    marks = {str(pile[-1]): "top"} if pile else {}
    hidden = len(obs.discard_pile) - len(pile)
    note = f" ({hidden} more below)" if hidden else ""
    return Markup('<div class="middle"><div class="stock"><h4>stock: {}</h4>{}</div>'
                  '<div class="pile"><h4>discard pile{}</h4>{}</div></div>').format(
        obs.stock_size, card_row([], face_down=1 if obs.stock_size else 0, label="stock"), note,
        card_row(pile, marks=marks, label="discard pile " + cards_text(pile)))


def _last_hand(result: HandResult | None) -> Markup:
    if result is None:
        return Markup("")
    text = str(result)
    if result.score is not None:
        s = result.score
        text += (f"; knocker melds {' '.join('[' + cards_text(m) + ']' for m in s.knocker_melds) or '-'}"
                 f" deadwood {s.knocker_deadwood}; defender deadwood {s.defender_deadwood}")
    return Markup('<p class="last-hand">Last hand: {}</p>').format(text)


def render_seat(obs: GinRummyObservation, ctx: RenderContext) -> Markup:
    other = 1 - obs.seat
    took = list(obs.opponent_took)
    opponent = Markup('<div class="hand opponent" data-seat="{}"><h4>{} (seat {}): {} cards</h4>{}</div>').format(
        other, _name(ctx, other), other, obs.opponent_hand_size,
        card_row(took, face_down=obs.opponent_hand_size - len(took), label=f"{obs.opponent_hand_size} cards"))
    return Markup('<div class="gin">{}{}{}{}{}</div>').format(_header(obs, ctx), opponent, _middle(obs),
                                                              _hand(obs, ctx, obs.seat), _last_hand(obs.last_hand))


def render_table(observations: Sequence[GinRummyObservation], ctx: RenderContext) -> Markup:
    first = observations[0]
    return Markup('<div class="gin">{}{}{}{}{}</div>').format(
        _header(first, ctx), _hand(observations[1], ctx, 1), _middle(first), _hand(observations[0], ctx, 0),
        _last_hand(first.last_hand))
