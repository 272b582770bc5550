"""Secrecy over the wire: random Yaniv matches through the real referee, every request
recorded; each legal-action list obeys the rules and no request names a card of another
seat's hand, or of the stock, before the rules make it public."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from arena.v1 import bot_pb2, yaniv_pb2
from recorded_matches import cards_named, cards_named_in_text
from referee.games import yaniv_groups as yg
from referee.games.yaniv import hand_value, valid_discards

_ROUND_START = re.compile(r"^round \d+: seat \d+ starts")
_Kind = yaniv_pb2.YanivAction


def named_about_this_round(request: bot_pb2.DecideRequest) -> set[str]:
    """Cards the request names about the round in play: events of earlier rounds (their
    cards were dealt again since) and the previous round's revealed hands are left out."""
    observation = request.observation.yaniv
    named = set(cards_named_in_text(request.observation.text))
    for action in request.legal_actions:
        named |= cards_named(action)
    events = list(request.observation.events)
    starts = [i for i, event in enumerate(events) if _ROUND_START.match(event.text)]
    for event in events[starts[-1] if starts else 0:]:
        named |= cards_named(event)
    for name in ("hand", "draw_group", "dead"):
        named |= set(getattr(observation, name))
    for group in list(observation.discards) + list(observation.took):
        named |= set(group.cards)
    return named


def check_legal_actions(request: bot_pb2.DecideRequest) -> None:
    """The legal actions follow from what the seat sees, as the rules say."""
    observation = request.observation.yaniv
    actions = [a.yaniv for a in request.legal_actions]
    if observation.phase == yaniv_pb2.YanivObservation.PHASE_DISCARD:
        may_call = hand_value(observation.hand) <= 5
        assert [a.kind == _Kind.KIND_YANIV for a in actions[:1]] == [may_call]
        discards = [list(a.cards) for a in actions if a.kind == _Kind.KIND_DISCARD]
        assert discards == valid_discards(list(observation.hand))
        assert len(actions) == len(discards) + may_call
    else:
        assert observation.phase == yaniv_pb2.YanivObservation.PHASE_DRAW
        group = list(observation.draw_group)
        takes = {group[0], group[-1]}
        if group[0][0] == group[-1][0] == "X":
            takes = {group[0]}
        assert actions[0].kind == _Kind.KIND_DRAW_STOCK
        assert {a.cards[0] for a in actions[1:]} == takes and len(actions) == 1 + len(takes)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 5, 8])
def test_no_request_names_a_hidden_card(recorded_matches: Callable[..., Any], players: int) -> None:
    checked = 0
    for match in recorded_matches("yaniv", num_players=players, settings={"max_rounds": 3}, seeds=range(2)):
        for state, seat, request in match.decisions():
            check_legal_actions(request)
            public = {yg.TEXTS[c] for _, group in state.history for c in group}
            for other in range(players):
                public |= {yg.TEXTS[c] for c in yg.indices(state.took[other])}
            secret = {yg.TEXTS[c] for c in state.stock}
            for other in range(players):
                if other != seat:
                    secret |= {yg.TEXTS[c] for c in yg.indices(state.hands[other])}
            leaked = named_about_this_round(request) & (secret - public)
            assert not leaked, \
                f"seat {seat} was sent hidden cards {sorted(leaked)} at decision {request.decision_number}"
            assert set(request.observation.yaniv.hand) == {yg.TEXTS[c] for c in yg.indices(state.hands[seat])}
            checked += 1
        assert match.final_state is not None
        sent = [{e.text for r in match.of_kind(s, bot_pb2.DecideRequest) for e in r.observation.events}
                for s in range(players)]
        for result in match.final_state.results:  # at each round's end every hand is revealed
            reveal = next(e for e in match.final_state.events
                          if e.text.startswith(f"round {result.round_number} ends"))
            assert reveal.visible_to is None
            for s, hand in enumerate(result.hands):
                if hand:
                    assert f"seat {s} {' '.join(map(str, hand))} ({result.hand_values[s]})" in reveal.text
                    out = match.final_state.out_round[s]
                    if result is not match.final_state.results[-1] and not 0 < out <= result.round_number:
                        assert reveal.text in sent[s], f"seat {s} was not told the hands of round {result.round_number}"
        for s in range(players):
            (end,) = match.of_kind(s, bot_pb2.EndMatchRequest)
            assert list(end.ranking) == match.record.ranking
    assert checked > 100
