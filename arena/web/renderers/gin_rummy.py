"""Gin Rummy: the hand, the opponent's cards (backs, except those taken from the pile), the
discard pile, the stock, the score sheet and the last hand shown.  The full table shows both
hands.

The score sheet shows where the outcome's scores come from, as the engine counts them
(docs/rules/gin_rummy.md): the points of the hands won, then, once a seat reaches the target,
the box bonus (25 per hand won, to both), the game bonus and the shutout.  The last hand
shows both hands as the engine laid them out when the hand ended (melds, lay-offs,
deadwood), which its observation makes public to both seats, and how its points were counted.
"""

from __future__ import annotations

from collections.abc import Sequence

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row
from referee.games.base import TERMINAL
from referee.games.cards import cards_text
from referee.games.gin_rummy import GinRummyObservation, HandResult, end_bonuses
from referee.games.gin_rummy_melds import BIG_GIN_BONUS, GIN_BONUS, UNDERCUT_BONUS

_BONUS_ROWS = (("box", "box bonus (25 per hand won)"), ("game", "game bonus"), ("shutout", "shutout bonus"))


def _name(ctx: RenderContext, seat: int) -> str:
    return ctx.players[seat] if seat < len(ctx.players) else f"seat {seat}"


def _header(obs: GinRummyObservation, ctx: RenderContext) -> Markup:
    if obs.current_player == TERMINAL:
        turn = Markup("match over")
    else:
        turn = Markup("<b>{}</b> (seat {}) to {}").format(_name(ctx, obs.current_player), obs.current_player,
                                                          obs.phase)
    extra = f"; knock limit {obs.knock_limit}" + (", doubled" if obs.doubled else "")
    return Markup('<p class="status">Hand {}, seat {} deals{}: {}.</p>{}').format(
        obs.hand_number, obs.dealer, extra, turn, _score_sheet(obs, ctx))


def _score_sheet(obs: GinRummyObservation, ctx: RenderContext) -> Markup:
    """Hands won, the hands' points and, once the match is won, each bonus and the total."""
    rows: list[tuple[str, str, Sequence[int]]] = [("hands", "hands won", obs.hands_won)]
    goal = f"first to {obs.hands_to_win} hands wins" if obs.hands_to_win else f"target {obs.target}"
    if obs.hands_to_win:  # Straight: the hands won decide; points are shown for the record
        rows.append(("points", "points of the hands (not counted)", obs.scores))
    else:
        rows.append(("points", "points of the hands", obs.scores))
        if obs.current_player == TERMINAL and max(obs.scores) >= obs.target:
            bonuses = end_bonuses(obs.scores, obs.hands_won, obs.target)
            rows += [(key, label, [b.get(key, 0) for b in bonuses]) for key, label in _BONUS_ROWS]
            rows.append(("total", "total (the result's score)",
                         [obs.scores[s] + sum(bonuses[s].values()) for s in (0, 1)]))
    head = Markup("").join(Markup('<th scope="col">{} <small>seat {}</small></th>').format(_name(ctx, s), s)
                           for s in (0, 1))
    body = Markup("").join(
        Markup('<tr data-row="{}"><th scope="row">{}</th>{}</tr>').format(
            key, label, Markup("").join(Markup('<td class="n" data-seat="{}">{}</td>').format(s, v)
                                        for s, v in enumerate(values)))
        for key, label, values in rows)
    return Markup('<table class="gin-scores"><thead><tr><th>{}</th>{}</tr></thead><tbody>{}</tbody>'
                  '</table>').format(goal, head, body)


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


def _counted(result: HandResult) -> str:
    """How the hand's points were counted, as the engine's settlement does."""
    s = result.score
    assert s is not None
    if result.kind == "knock":
        counted = f"defender's deadwood {s.defender_deadwood} \u2212 knocker's {s.knocker_deadwood}"
    elif result.kind == "undercut":
        counted = (f"knocker's deadwood {s.knocker_deadwood} \u2212 defender's {s.defender_deadwood}"
                f" + undercut bonus {UNDERCUT_BONUS}")
    else:
        bonus = BIG_GIN_BONUS if result.kind == "big_gin" else GIN_BONUS
        counted = f"defender's deadwood {s.defender_deadwood} + {result.kind.replace('_', ' ')} bonus {bonus}"
    if result.doubled:
        return f"{counted} = {s.points}, doubled by the spade upcard = {result.points}"
    return f"{counted} = {result.points}"


def _shown_hand(ctx: RenderContext, seat: int, role: str, melds: Sequence[Sequence[object]],
                layoffs: Sequence[object], deadwood: Sequence[object], points: int) -> Markup:
    parts = Markup("").join(card_row(list(m), overlap=0.48, label="meld " + cards_text(m)) for m in melds)
    if layoffs:
        parts += Markup('<span class="label">laid off</span>{}').format(
            card_row(list(layoffs), overlap=0.48, label="laid off " + cards_text(layoffs)))
    if deadwood:
        parts += Markup('<span class="label">deadwood</span>{}').format(
            card_row(list(deadwood), overlap=0.48, marks={str(c): "dead" for c in deadwood},
                     label="deadwood " + cards_text(deadwood)))
    return Markup('<tr data-seat="{}"><th scope="row">{} <small>seat {}, {}</small></th><td class="shown">{}</td>'
                  '<td class="n">{}</td></tr>').format(seat, _name(ctx, seat), seat, role, parts, points)


def _last_hand(result: HandResult | None, ctx: RenderContext) -> Markup:
    """The hand that just ended: both hands as shown, and how its points were counted."""
    if result is None:
        return Markup("")
    s = result.score
    if s is None or result.knocker is None or result.winner is None:
        return Markup('<section class="last-hand"><h4>Hand {}: void (nobody scores; the hands are not shown)'
                      '</h4></section>').format(result.hand_number)
    knocker, defender = result.knocker, 1 - result.knocker
    rows = _shown_hand(ctx, knocker, "knocked", s.knocker_melds, (), s.knocker_unmatched, s.knocker_deadwood)
    rows += _shown_hand(ctx, defender, "defended", s.defender_melds, s.layoffs, s.defender_unmatched,
                        s.defender_deadwood)
    return Markup('<section class="last-hand"><h4>Hand {}: {}; <b>{}</b> scores {}</h4><p class="counted">{}</p>'
                  '<table><thead><tr><th>player</th><th>hand as shown</th><th class="n">deadwood</th></tr></thead>'
                  '<tbody>{}</tbody></table></section>').format(
        result.hand_number, result.kind.replace("_", " "), _name(ctx, result.winner), result.points,
        _counted(result), rows)


def render_seat(obs: GinRummyObservation, ctx: RenderContext) -> Markup:
    other = 1 - obs.seat
    took = list(obs.opponent_took)
    opponent = Markup('<div class="hand opponent" data-seat="{}"><h4>{} (seat {}): {} cards</h4>{}</div>').format(
        other, _name(ctx, other), other, obs.opponent_hand_size,
        card_row(took, face_down=obs.opponent_hand_size - len(took), label=f"{obs.opponent_hand_size} cards"))
    return Markup('<div class="gin">{}{}{}{}{}</div>').format(_header(obs, ctx), opponent, _middle(obs),
                                                              _hand(obs, ctx, obs.seat),
                                                              _last_hand(obs.last_hand, ctx))


def render_table(observations: Sequence[GinRummyObservation], ctx: RenderContext) -> Markup:
    first = observations[0]
    return Markup('<div class="gin">{}{}{}{}{}</div>').format(
        _header(first, ctx), _hand(observations[1], ctx, 1), _middle(first), _hand(observations[0], ctx, 0),
        _last_hand(first.last_hand, ctx))


def why_not(obs: GinRummyObservation, card: str) -> str:
    """Why ``card`` of the hand may not be discarded now (docs/rules/gin_rummy.md)."""
    if obs.phase in ("offer", "draw"):
        return "draw first: take the discard pile's top card or draw from the stock"
    if obs.phase == "discard" and obs.taken_card is not None and str(obs.taken_card) == card:
        return "you may not discard the card you just took from the discard pile"
    return ""
