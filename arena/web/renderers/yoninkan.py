"""Yoninkan: four seats in play order around the table, the battle and its trump, the trick in
the middle, the honours each seat captured, the declarations, and the scores.

The groups (kan, mukan) are drawn only as far as the observation holds them: once public,
on every seat; before that, a seat's view names only the viewer's own group and partner when
its cards tell it, and the full table shows what each seat itself knows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from markupsafe import Markup

from arena.web.renderers import RenderContext
from arena.web.renderers.draw import card_row
from arena.web.renderers.seats import SUIT_NAMES, around, fan, name, seat_box, trick_cross, who
from referee.games.base import TERMINAL
from referee.games.yoninkan import YoninkanObservation

_PHASES = {"play": "to play", "right": "may declare {} or pass", "show": "to show two cards to the partner",
           "trump": "to name the trump"}


def _words(name: str) -> str:
    """A declaration or bonus name as words: ``declared_16_failed`` is "declared 16 failed"."""
    return name.replace("_", " ")


def _played(obs: YoninkanObservation) -> list[int]:
    """Cards each seat has played in this battle, so the others' hands are drawn to size."""
    played = [0, 0, 0, 0]
    for trick in obs.tricks:
        for seat, _ in trick.plays:
            played[seat] += 1
    for seat, _ in obs.trick:
        played[seat] += 1
    return played


def _status(obs: YoninkanObservation, ctx: RenderContext) -> Markup:
    trump = Markup("trump <b>{}</b>").format(SUIT_NAMES[obs.trump]) if obs.trump else Markup("trump not named yet")
    head = Markup("Game {}/{}, battle {}: {}; kan needs {} honours, mukan {}.").format(
        obs.game_number, obs.games, obs.battle, trump, obs.kan_needs, obs.mukan_needs)
    if obs.current_player == TERMINAL:
        turn = Markup(" Match over.")
    else:
        verb = _PHASES.get(obs.phase, obs.phase).format(_words(obs.right))
        trick = f" Trick {obs.trick_number}:" if obs.phase in ("play", "right") else ""
        turn = Markup("{} {} {}.").format(trick, who(ctx, obs.current_player), verb)
    return Markup('<p class="status">{}{}</p>').format(head, turn)


def _groups(observations: Sequence[YoninkanObservation], ctx: RenderContext) -> tuple[dict[int, str], Markup]:
    """Each seat's group tag and a line about the groups, from what the observations hold."""
    first = observations[0]
    if first.kan_seats:
        kan = first.kan_seats
        tags = {seat: "kan" if seat in kan else "mukan" for seat in range(4)}
        mukan = [seat for seat in range(4) if seat not in kan]
        line = Markup("Groups: kan {} and {}; mukan {} and {}.").format(
            who(ctx, kan[0]), who(ctx, kan[1]), who(ctx, mukan[0]), who(ctx, mukan[1]))
        return tags, Markup('<p class="groups">{}</p>').format(line)
    tags, known = {}, Markup("")
    for obs in observations:
        if obs.my_group:
            partner = Markup(", partner {}").format(who(ctx, obs.partner)) if obs.partner >= 0 else Markup("")
            tags[obs.seat] = obs.my_group
            known += Markup(" {} knows it is {}{}.").format(who(ctx, obs.seat), obs.my_group, partner)
    return tags, Markup('<p class="groups">The groups are secret.{}</p>').format(known)


def _middle(obs: YoninkanObservation, ctx: RenderContext, bottom: int) -> Markup:
    if obs.trick:
        call = Markup(", the joker calls {}").format(SUIT_NAMES[obs.led_suit]) if obs.trick[0][1].suit == "X" \
            else Markup("")
        caption = Markup("trick {}, led by {}{}").format(obs.trick_number, who(ctx, obs.leader), call)
        cross, marks = list(obs.trick), {}
    elif obs.tricks:
        last = obs.tricks[-1]
        caption = Markup("trick {} to {}").format(last.number, who(ctx, last.winner))
        cross, marks = list(last.plays), {last.winner: "top"}
    else:
        return Markup('<p class="caption">no card played yet</p>')
    return Markup('{}<p class="caption">{}</p>').format(trick_cross(cross, obs.table, bottom, marks=marks), caption)


def _scores(obs: YoninkanObservation, ctx: RenderContext) -> Markup:
    rows = Markup("").join(Markup('<tr><th scope="row">{}</th><td class="n total" data-seat="{}">{}</td></tr>').format(
        name(ctx, seat), seat, obs.scores[seat]) for seat in range(4))
    battles = Markup("").join(Markup("<li>battle {}: {} wins{}</li>").format(
        number, winner, f" ({_words(bonus)})" if bonus else "")
        for number, (winner, bonus) in enumerate(obs.results, 1))
    parts = Markup('<table class="match-scores"><thead><tr><th>player</th><th class="n">points</th></tr></thead>'
                   '<tbody>{}</tbody></table>').format(rows)
    if battles:
        parts += Markup('<h4>This game</h4><ul class="battles">{}</ul>').format(battles)
    last = obs.last_game
    if last is not None:
        results = ", ".join(f"{winner}" + (f" ({_words(bonus)})" if bonus else "")
                            for winner, bonus in last.battles)
        parts += Markup('<p class="last-game">Game {}: kan {} and {}; battles won by {}; {:+d} for each kan player, '
                        '{:+d} for each mukan player.</p>').format(
            last.game_number, who(ctx, last.kan_seats[0]), who(ctx, last.kan_seats[1]), results, last.points,
            -last.points)
    return parts


def _shown(observations: Sequence[YoninkanObservation], ctx: RenderContext) -> Markup:
    """The 決め役's two shown cards, drawn for the seats that saw them."""
    for obs in observations:
        if obs.shown_cards and obs.shown_by == obs.seat:
            partner = obs.partner
            to = Markup(" to {}").format(who(ctx, partner)) if partner >= 0 else Markup("")
            return Markup('<div class="shown"><h4>{} showed{}</h4>{}</div>').format(
                who(ctx, obs.seat), to, card_row(list(obs.shown_cards)))
    for obs in observations:
        if obs.shown_cards:
            return Markup('<div class="shown"><h4>{} showed {}</h4>{}</div>').format(
                who(ctx, obs.shown_by), who(ctx, obs.seat), card_row(list(obs.shown_cards)))
    return Markup("")


def _board(observations: Sequence[YoninkanObservation], ctx: RenderContext, hands: Mapping[int, Sequence[object]],
           bottom: int) -> Markup:
    obs = observations[0]
    played = _played(obs)
    won = [0, 0, 0, 0]
    for trick in obs.tricks:
        won[trick.winner] += 1
    declared: dict[int, list[str]] = {}
    for seat, declaration in obs.declarations:
        declared.setdefault(seat, []).append(_words(declaration))
    groups, group_line = _groups(observations, ctx)
    boxes = {}
    for seat in range(4):
        tags = [groups[seat]] if seat in groups else []
        if seat == obs.leader:
            tags.append("leads")
        hand = fan(hands[seat]) if seat in hands else fan([], 10 - played[seat])
        extra = Markup('<p class="won">tricks won: {}; honours: {}</p>{}').format(
            won[seat], len(obs.captured[seat]),
            card_row(list(obs.captured[seat]), overlap=0.35, label="honours " + " ".join(map(str, obs.captured[seat])))
            if obs.captured[seat] else Markup(""))
        if seat in declared:
            extra += Markup('<p class="declared">declared {}</p>').format(", ".join(declared[seat]))
        boxes[seat] = seat_box(ctx, seat, tags=tags, hand=hand, to_play=seat == obs.current_player, extra=extra)
    board = around(boxes, obs.table, bottom, _middle(obs, ctx, bottom))
    return Markup('<div class="yoninkan table-game">{}{}{}{}{}</div>').format(
        _status(obs, ctx), group_line, board, _shown(observations, ctx), _scores(obs, ctx))


def render_seat(obs: YoninkanObservation, ctx: RenderContext) -> Markup:
    return _board([obs], ctx, {obs.seat: obs.hand}, obs.seat)


def render_table(observations: Sequence[YoninkanObservation], ctx: RenderContext) -> Markup:
    return _board(observations, ctx, {obs.seat: obs.hand for obs in observations}, observations[0].table[0])


def why_not(obs: YoninkanObservation, card: str) -> str:
    """Why ``card`` of the hand may not be played now (docs/rules/yoninkan.md)."""
    if obs.phase != "play":
        return "not a card to play now: " + _PHASES.get(obs.phase, obs.phase).format(_words(obs.right))
    if obs.trick and obs.led_suit in SUIT_NAMES:
        return f"you must follow suit: {SUIT_NAMES[obs.led_suit]} was led (or play the joker)"
    return ""
