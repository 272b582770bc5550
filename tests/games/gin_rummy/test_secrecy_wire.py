"""Secrecy over the wire: random Gin Rummy matches through the real referee, every request
recorded, none naming a card of the opponent's hand or of the stock before it is public."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from arena.v1 import bot_pb2, gin_rummy_pb2
from recorded_matches import cards_named, cards_named_in_text
from referee.games import gin_rummy_melds as gm


def named_about_this_hand(request: bot_pb2.DecideRequest) -> set[str]:
    """Cards the request names about the hand in play: events of earlier hands (their cards
    were dealt again since) and the shown last hand are left out."""
    observation = request.observation.gin_rummy
    named = set(cards_named_in_text(request.observation.text))
    for action in request.legal_actions:
        named |= cards_named(action)
    events = list(request.observation.events)
    deals = [i for i, event in enumerate(events) if " deals" in event.text]
    for event in events[deals[-1] if deals else 0:]:
        named |= cards_named(event)
    for name in ("hand", "discard_pile", "opponent_took"):
        named |= set(getattr(observation, name))
    if observation.taken_card:
        named.add(observation.taken_card)
    return named


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "oklahoma", "straight"])
def test_no_request_names_a_hidden_card(recorded_matches: Callable[..., Any], variant: str) -> None:
    checked = 0
    for match in recorded_matches("gin_rummy", variant=variant, settings={"max_hands": 3}, seeds=range(6)):
        for state, seat, request in match.decisions():
            opponent = 1 - seat
            # The opponent's cards taken from the discard pile are public, and so is the last
            # finished hand (both hands were shown; a card may be dealt again since).
            public = set(gm.to_cards(state.took[opponent])) | cards_named(request.observation.gin_rummy.last_hand)
            hidden = (set(gm.to_cards(state.hands[opponent])) | {str(gm.CARDS[c]) for c in state.stock}) - public
            leaked = named_about_this_hand(request) & {str(card) for card in hidden}
            assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)} at decision {request.decision_number}"
            assert set(request.observation.gin_rummy.hand) == set(map(str, gm.to_cards(state.hands[seat])))
            checked += 1
        final = match.final_state
        assert final is not None
        for seat in (0, 1):
            (end,) = match.of_kind(seat, bot_pb2.EndMatchRequest)
            assert list(end.ranking) == match.record.ranking
            # The final observation: the match as it ended, and every event this seat had not
            # been sent yet (a hand that ended after its last decision included).
            assert end.observation.gin_rummy.phase == gin_rummy_pb2.GinRummyObservation.PHASE_OVER
            sent = [e.text for request in match.of_kind(seat, bot_pb2.DecideRequest) for e in request.observation.events]
            sent += [e.text for e in end.observation.events]
            assert sent == [e.text for e in final.events_for(seat)]
            if final.last_hand is not None and final.last_hand.score is not None:
                assert end.observation.gin_rummy.last_hand.kind == final.last_hand.kind
    assert checked > 100
