"""Secrecy over the wire: random Jass matches through the real referee, every request
recorded; every legal-action list obeys the rules, and no request names a card of another
seat's hand before the rules make it public (played, or shown in the scoring team's weis;
in hand 1 everyone knows the forehand holds the 7C)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.v1 import bot_pb2, jass_pb2
from recorded_matches import cards_named, cards_named_in_text
from referee.games import jass_cards as jc
from referee.games.jass import legal_cards


def named_about_this_hand(request: bot_pb2.DecideRequest) -> set[str]:
    """Cards the request names about the hand in play (events of earlier hands are left out:
    their cards have been dealt again since)."""
    named = set(cards_named_in_text(request.observation.text))
    for action in request.legal_actions:
        named |= cards_named(action)
    events = list(request.observation.events)
    deals = [i for i, event in enumerate(events) if " deals, " in event.text]
    for event in events[deals[-1] if deals else 0:]:
        named |= cards_named(event)
    return named | cards_named(request.observation.jass)


@pytest.mark.slow
def test_legal_lists_obey_the_rules_and_no_request_names_a_hidden_card(recorded_matches: Callable[..., Any]) -> None:
    checked = 0
    for match in recorded_matches("jass", settings={"target": 600, "max_hands": 5}, seeds=range(20)):
        for state, seat, request in match.decisions():
            observation = request.observation.jass
            legal = [action.jass for action in request.legal_actions]
            if observation.phase == observation.PHASE_DECLARE:
                kinds = [a.kind for a in legal]
                assert [a.mode for a in legal if a.kind == a.KIND_CHOOSE] == list(jc.MODES)
                may_push = not observation.pushed and seat == observation.forehand
                assert (jass_pb2.JassAction.KIND_PUSH in kinds) == may_push
            else:
                assert [a.card for a in legal] == legal_cards(list(observation.hand), list(observation.trick),
                                                              observation.mode)
            public = state.played | jc.to_mask(c for w in state.public_weis for c in w.cards)
            if state.hand_number == 1:
                public |= 1 << jc.card_index("7C")
            hidden = {jc.TEXTS[c] for other in range(4) if other != seat
                      for c in jc.indices(state.hands[other] & ~public)}
            leaked = named_about_this_hand(request) & hidden
            assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)} (decision {request.decision_number})"
            assert set(observation.hand) == {jc.TEXTS[c] for c in jc.indices(state.hands[seat])}
            checked += 1
        for seat in range(4):
            (end,) = match.of_kind(seat, bot_pb2.EndMatchRequest)
            assert list(end.ranking) == match.record.ranking
            assert end.ranking[seat] == end.ranking[(seat + 2) % 4]  # partners share their rank
    assert checked > 500
