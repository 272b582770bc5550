"""Secrecy over the wire: random Yoninkan matches through the real referee, every request
recorded.  No request names a card of another hand before it is played (or shown to that
seat), nor the seat's partner before the groups are public; every legal-action list obeys
the rules."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from arena.v1 import bot_pb2
from recorded_matches import cards_named, cards_named_in_text

from .rules_check import check_legal_actions, hand_of, hidden_from, may_know_group

GROUP_WORDS = re.compile(r"\b(kan|mukan|partner|partners|group|groups)\b")


def this_battle_events(request: bot_pb2.DecideRequest) -> list[bot_pb2.Event]:
    """The request's events since this battle's deal (earlier battles' cards were dealt again)."""
    events = list(request.observation.events)
    deals = [i for i, event in enumerate(events) if " is dealt " in event.text]
    return events[deals[-1]:] if deals else events


def named_about_this_battle(request: bot_pb2.DecideRequest) -> set[str]:
    observation = request.observation.yoninkan
    named = cards_named_in_text(request.observation.text)
    for event in this_battle_events(request):
        named |= cards_named(event)
    for action in request.legal_actions:
        named |= cards_named(action)
    for name in ("hand", "shown_cards"):
        named |= set(getattr(observation, name))
    for name in ("trick", "tricks", "captured"):
        for item in getattr(observation, name):
            named |= cards_named(item)
    return named


@pytest.mark.slow
def test_no_request_names_a_hidden_card_or_a_secret_partner(recorded_matches: Callable[..., Any]) -> None:
    checked = secret = 0
    for match in recorded_matches("yoninkan", settings={"games": 2}, seeds=range(24)):
        for state, seat, request in match.decisions():
            observation = request.observation.yoninkan
            check_legal_actions(state, [a.text for a in request.legal_actions])
            leaked = named_about_this_battle(request) & hidden_from(state, seat)
            assert not leaked, f"seat {seat} was sent hidden cards {sorted(leaked)} at {request.decision_number}"
            assert set(observation.hand) == hand_of(state, seat)
            if not state.revealed:
                secret += 1
                juukan = seat == state.jack_holder == state.joker_holder
                assert observation.partner == ((seat + 2) % 4 if juukan else -1)
                assert list(observation.kan_seats) == [] and list(observation.table) == [0, 1, 2, 3]
                assert observation.my_group == ("kan" if may_know_group(state, seat) else "")
                for event in this_battle_events(request):
                    assert not GROUP_WORDS.search(event.text), f"seat {seat} was told {event.text!r}"
            else:
                assert sorted(observation.kan_seats) == sorted(state.kan)
            checked += 1
        for seat in range(4):
            (end,) = match.of_kind(seat, bot_pb2.EndMatchRequest)
            assert list(end.ranking) == match.record.ranking
    assert checked > 600 and secret > 300
