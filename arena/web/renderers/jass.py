"""Swiss Jass: four seats around the table (partners opposite), the trick in the middle, the
mode and who chose it, the team scores, and the weis and Stöck once the rules make them public.

A seat's view shows its own hand and the backs of the others; the full table shows all four.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row
from arena.web.renderers.seats import SUIT_NAMES, around, fan, name, seat_box, trick_cross, who
from referee.games.base import TERMINAL
from referee.games.cards import Card
from referee.games.jass import JassObservation

_ORDER = (0, 1, 2, 3)
_MODES = {"hearts": SUIT_NAMES["H"], "diamonds": SUIT_NAMES["D"], "spades": SUIT_NAMES["S"],
          "clubs": SUIT_NAMES["C"], "obenabe": "Obenabe (no trump, A high)",
          "undenufe": "Undenufe (no trump, 6 high)"}


def _team(seat: int) -> str:
    return "team 0+2" if seat % 2 == 0 else "team 1+3"


def _played(obs: JassObservation) -> list[int]:
    """Cards each seat has played in this hand, so the others' hands are drawn to size."""
    played = [0, 0, 0, 0]
    for trick in obs.tricks:
        for i in range(len(trick.cards)):
            played[(trick.leader + i) % 4] += 1
    for i in range(len(obs.trick)):
        played[(obs.trick_leader + i) % 4] += 1
    return played


def _status(obs: JassObservation, ctx: RenderContext) -> Markup:
    head = Markup("Hand {}: {} deals, {} is forehand.").format(obs.hand_number, who(ctx, obs.dealer),
                                                              who(ctx, obs.forehand))
    if obs.mode:
        pushed = Markup(" after {} pushed").format(who(ctx, obs.forehand)) if obs.pushed else Markup("")
        kind = "Mode" if obs.mode in ("obenabe", "undenufe") else "Trump"
        mode = Markup(' {}: <b class="mode">{}</b> \u00d7{}, chosen by {}{}.').format(
            kind, _MODES[obs.mode], obs.multiplier, who(ctx, obs.chooser), pushed)
    elif obs.pushed:
        mode = Markup(" {} pushed: the partner chooses.").format(who(ctx, obs.forehand))
    else:
        mode = Markup(" Trump or mode not chosen yet.")
    if obs.current_player == TERMINAL:
        turn = Markup(" Match over.")
    else:
        verb = "to choose trump or mode" if obs.phase == "declare" else "to play"
        turn = Markup(" {} {}.").format(who(ctx, obs.current_player), verb)
    return Markup('<p class="status">{}{}{}</p>').format(head, mode, turn)


def _scores(obs: JassObservation, ctx: RenderContext) -> Markup:
    won = [0, 0]
    for trick in obs.tricks:
        won[trick.winner % 2] += 1
    rows = Markup("").join(
        Markup('<tr><th scope="row">{} <small>{}, {}</small></th><td class="n total" data-team="{}">{}</td>'
               '<td class="n">{}</td><td class="n">{}</td></tr>').format(
            _team(team), name(ctx, team), name(ctx, team + 2), team, obs.scores[team],
            obs.hand_points[team], won[team])
        for team in (0, 1))
    return Markup('<table class="team-scores"><thead><tr><th>target {}</th><th class="n">match points</th>'
                  '<th class="n">card points this hand</th><th class="n">tricks</th></tr></thead><tbody>{}'
                  '</tbody></table>').format(obs.target, rows)


def _announcements(obs: JassObservation, ctx: RenderContext) -> Markup:
    parts = Markup("")
    if obs.weis:
        team = _team(obs.weis[0].seat)
        items = Markup("").join(Markup('<li>{}: {} of {} points {}</li>').format(
            who(ctx, w.seat), w.kind, w.points, card_row(list(w.cards), overlap=0.48)) for w in obs.weis)
        parts += Markup('<div class="weis"><h4>Weis: {} scores {}</h4><ul>{}</ul></div>').format(
            team, obs.weis_points, items)
    if obs.stoeck >= 0:
        parts += Markup('<p class="stoeck">St\u00f6ck: {} ({}) scored 20 \u00d7{}.</p>').format(
            who(ctx, obs.stoeck), _team(obs.stoeck), obs.multiplier)
    return parts


def _middle(obs: JassObservation, ctx: RenderContext, bottom: int) -> Markup:
    if obs.trick:
        plays = [((obs.trick_leader + i) % 4, card) for i, card in enumerate(obs.trick)]
        caption = Markup("trick {}, led by {}").format(len(obs.tricks) + 1, who(ctx, obs.trick_leader))
        marks: dict[int, str] = {}
    elif obs.tricks:
        last = obs.tricks[-1]
        plays = [((last.leader + i) % 4, card) for i, card in enumerate(last.cards)]
        caption = Markup("trick {} to {}: {} points").format(len(obs.tricks), who(ctx, last.winner), last.points)
        marks = {last.winner: "top"}
    else:
        return Markup('<p class="caption">no card played yet</p>')
    return Markup('{}<p class="caption">{}</p>').format(trick_cross(plays, _ORDER, bottom, marks=marks), caption)


def _board(obs: JassObservation, ctx: RenderContext, hands: Mapping[int, Sequence[Card]], bottom: int) -> Markup:
    played = _played(obs)
    won = [0, 0, 0, 0]
    for trick in obs.tricks:
        won[trick.winner] += 1
    boxes = {}
    for seat in range(4):
        tags = [_team(seat)] + ["dealer"] * (seat == obs.dealer) + ["forehand"] * (seat == obs.forehand)
        if seat == obs.chooser:
            tags.append("chose the mode")
        if seat in hands:
            hand = fan(hands[seat])
        else:
            hand = fan([], 9 - played[seat])
        boxes[seat] = seat_box(ctx, seat, tags=tags, hand=hand, to_play=seat == obs.current_player,
                               extra=Markup('<p class="won">tricks won: {}</p>').format(won[seat]))
    return Markup('<div class="jass table-game">{}{}{}{}</div>').format(
        _status(obs, ctx), around(boxes, _ORDER, bottom, _middle(obs, ctx, bottom)), _scores(obs, ctx),
        _announcements(obs, ctx))


def render_seat(obs: JassObservation, ctx: RenderContext) -> Markup:
    return _board(obs, ctx, {obs.seat: obs.hand}, obs.seat)


def render_table(observations: Sequence[JassObservation], ctx: RenderContext) -> Markup:
    return _board(observations[0], ctx, {obs.seat: obs.hand for obs in observations}, 0)


_TRUMPS = {"hearts": "H", "diamonds": "D", "spades": "S", "clubs": "C"}


def why_not(obs: JassObservation, card: str) -> str:
    """Why ``card`` of the hand may not be played now (docs/rules/jass.md, "Playing a card")."""
    if obs.phase != "play":
        return "first choose the trump or mode (the buttons)"
    if not obs.trick:
        return ""
    led, trump = str(obs.trick[0])[-1], _TRUMPS.get(obs.mode, "")
    if led == trump:
        return f"you must follow trump: {SUIT_NAMES[led]} was led (only the trump J may be kept back)"
    if card[-1] == trump:
        return "you may not under-trump: a trump played here must beat the trump already in the trick"
    return f"you must follow suit: {SUIT_NAMES[led]} was led"
