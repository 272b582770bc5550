"""Actions: text form, repr, parsing."""

from __future__ import annotations

import pytest

from referee.games.base import InvalidActionError
from referee.games.cards import Card
from referee.games.gin_rummy import BigGin, Discard, DrawStock, Pass, TakeDiscard, parse_action


@pytest.mark.parametrize("action, text, rep", [
    (DrawStock(), "draw stock", "DrawStock()"),
    (TakeDiscard(Card.parse("7H")), "take 7H", "TakeDiscard(Card.parse('7H'))"),
    (Pass(), "pass", "Pass()"),
    (Discard(Card.parse("TD")), "discard TD", "Discard(Card.parse('TD'))"),
    (Discard(Card.parse("TD"), knock=True), "discard TD knock", "Discard(Card.parse('TD'), knock=True)"),
    (BigGin(), "big gin", "BigGin()"),
])
def test_text_form_round_trips(action: object, text: str, rep: str) -> None:
    assert str(action) == text
    assert repr(action) == rep
    assert parse_action(text) == action
    assert eval(rep) == action  # the repr reads like the constructor call


@pytest.mark.parametrize("text", ["", "draw", "take", "take 1H", "discard TD gin", "knock", "take X1", "big"])
def test_bad_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError, match="not a Gin Rummy action"):
        parse_action(text)


def test_actions_are_hashable_and_frozen() -> None:
    assert len({Discard(Card.parse("TD")), Discard(Card.parse("TD")), Discard(Card.parse("TD"), knock=True)}) == 2
    with pytest.raises(AttributeError):
        Discard(Card.parse("TD")).knock = True  # type: ignore[misc]
