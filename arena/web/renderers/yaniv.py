"""Yaniv: every seat's hand as a fan (backs where the view may not see it, the cards it took
from the discards face up), this round's discard groups and the one that may be taken, the
stock (its size only), the totals, and the last round's call with every hand shown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row
from arena.web.renderers.seats import fan, name, seat_box, who
from referee.games.base import TERMINAL
from referee.games.cards import Card
from referee.games.yaniv import RoundResult, YanivObservation

_FACE_UP = -2
"""The seat of the round's face-up card in ``discards``."""
_GROUPS_SHOWN = 12
"""The latest discard groups drawn: a round may run to hundreds of turns."""


def _status(obs: YanivObservation, ctx: RenderContext) -> Markup:
    if obs.current_player == TERMINAL:
        return Markup('<p class="status">Match over after {} rounds.</p>').format(obs.round_number)
    verb = "to discard or call Yaniv" if obs.phase == "discard" else "to draw"
    return Markup('<p class="status">Round {}, turn {} (started by {}): {} {}.</p>').format(
        obs.round_number, obs.turn + 1, who(ctx, obs.starter), who(ctx, obs.current_player), verb)


def _seats(obs: YanivObservation, ctx: RenderContext, hands: Mapping[int, tuple[Sequence[Card], int]]) -> Markup:
    boxes = Markup("")
    for seat in range(len(obs.totals)):
        tags = [f"total {obs.totals[seat]}"]
        if obs.out_round[seat]:
            tags.append(f"out in round {obs.out_round[seat]}")
            hand = Markup("")
        elif seat in hands:
            cards, value = hands[seat]
            hand = fan(cards, marks={str(c): "taken" for c in obs.took[seat]})
            tags.append(f"hand {value} points")
        else:
            took = obs.took[seat]
            hand = fan(took, obs.hand_sizes[seat] - len(took), marks={str(c): "taken" for c in took})
            tags.append(f"{obs.hand_sizes[seat]} cards")
        box = seat_box(ctx, seat, tags=tags, hand=hand, to_play=seat == obs.current_player)
        boxes += Markup('<div class="{}">{}</div>').format("out" if obs.out_round[seat] else "in", box)
    return Markup('<div class="seats">{}</div>').format(boxes)


def _piles(obs: YanivObservation, ctx: RenderContext) -> Markup:
    group = list(obs.draw_group)
    ends = {str(group[0]): "top", str(group[-1]): "top"} if group else {}
    offered = Markup('<div class="offered"><h4>may be taken: its first or last card only <small>(a group lands '
                     'in the order its player discarded it)</small></h4>{}</div>').format(
        card_row(group, marks=ends, overlap=1.05, label="may be taken: " + " ".join(map(str, group))))
    stock = Markup('<div class="stock"><h4>stock: {} cards</h4>{}</div>').format(
        obs.stock_size, card_row([], face_down=1 if obs.stock_size else 0, label=f"stock of {obs.stock_size}"))
    recent = obs.discards[-_GROUPS_SHOWN:]
    groups = Markup("").join(
        Markup("<figure>{}<figcaption>{}</figcaption></figure>").format(
            card_row(list(cards), overlap=0.48), "face-up card" if seat == _FACE_UP else name(ctx, seat))
        for seat, cards in recent)
    earlier = len(obs.discards) - len(recent)
    note = f"the last {len(recent)} of {len(obs.discards)}, " if earlier else ""
    discards = Markup('<div class="discards"><h4>discards this round ({}{} cards dead)</h4><div class="groups">{}'
                      '</div></div>').format(note, len(obs.dead), groups)
    return Markup('<div class="pile-area">{}{}{}</div>').format(stock, offered, discards)


def _last_round(result: RoundResult | None, ctx: RenderContext) -> Markup:
    """The previous round's end: the call, every hand shown, what each seat scored."""
    if result is None:
        return Markup("")
    if result.declarer is None:
        call = Markup("the turn cap ended it")
    elif result.assaf_by:
        call = Markup("{} called Yaniv; Assaf by {}").format(
            who(ctx, result.declarer), Markup(", ").join(who(ctx, s) for s in result.assaf_by))
    else:
        call = Markup("{} called Yaniv and was lowest").format(who(ctx, result.declarer))
    rows = Markup("")
    for seat, hand in enumerate(result.hands):
        if not hand and not result.round_scores[seat]:
            continue  # already out before this round
        notes = []
        if result.halved[seat]:
            notes.append("halved " + result.halved[seat].replace("->", " to "))
        if seat in result.eliminated:
            notes.append("out")
        rows += Markup('<tr><th scope="row">{}</th><td>{}</td><td class="n">{}</td><td class="n">+{}</td>'
                       '<td class="n">{}</td><td>{}</td></tr>').format(
            name(ctx, seat), card_row(list(hand), overlap=0.48), result.hand_values[seat],
            result.round_scores[seat], result.totals[seat], ", ".join(notes))
    return Markup('<section class="last-round"><h4>Round {}: {}</h4><table><thead><tr><th>player</th><th>hand</th>'
                  '<th class="n">points</th><th class="n">scored</th><th class="n">total</th><th></th></tr></thead>'
                  '<tbody>{}</tbody></table></section>').format(result.round_number, call, rows)


def _board(obs: YanivObservation, ctx: RenderContext, hands: Mapping[int, tuple[Sequence[Card], int]]) -> Markup:
    return Markup('<div class="yaniv table-game">{}{}{}{}</div>').format(
        _status(obs, ctx), _piles(obs, ctx), _seats(obs, ctx, hands), _last_round(obs.last_round, ctx))


def render_seat(obs: YanivObservation, ctx: RenderContext) -> Markup:
    return _board(obs, ctx, {obs.seat: (obs.hand, obs.hand_value)})


def render_table(observations: Sequence[YanivObservation], ctx: RenderContext) -> Markup:
    return _board(observations[0], ctx, {obs.seat: (obs.hand, obs.hand_value) for obs in observations})


def why_not(obs: YanivObservation, card: str) -> str:
    """Why ``card`` of the hand may not be played now (docs/rules/yaniv.md)."""
    if obs.phase == "draw":
        return "you have discarded: now draw the top of the stock, or the first or last card of the group offered"
    return ""


def play_hint(obs: YanivObservation, actions: Sequence[str]) -> str:
    """Discard order matters where a group of several cards may land in more than one order."""
    groups = [text.split()[1:] for text in actions if text.startswith("discard ")]
    if any(len(cards) > 1 for cards in groups):
        return ("click a card to discard it alone, or a button for a group. A group lands in the order its button "
                "shows, and the next player may take only its first or last card: in a group of three or more, "
                "the middle cards are out of their reach")
    return ""
