"""Trick winners in all six modes and card points (docs/rules/jass.md)."""

from __future__ import annotations

import pytest

from referee.games.jass import MODES, card_points, trick_winner


@pytest.mark.parametrize("mode, trick, winner", [
    ("hearts", ["KS", "AS", "6H", "QS"], 2),      # the only trump
    ("hearts", ["KS", "AH", "9H", "JH"], 3),      # J 9 A: the trump jack is highest
    ("hearts", ["KS", "AH", "9H", "TS"], 2),      # the trump 9 beats the trump A
    ("hearts", ["KS", "AD", "AC", "QS"], 0),      # off-suit aces do not count
    ("diamonds", ["6D", "7D", "AH", "TD"], 3),    # trump led: highest trump
    ("spades", ["KH", "JH", "6S", "7S"], 3),
    ("clubs", ["9C", "JC", "AC", "KC"], 1),
    ("obenabe", ["KS", "AS", "JH", "QS"], 1),     # no trump, A high
    ("obenabe", ["6D", "AS", "AH", "7D"], 3),     # only the led suit counts
    ("undenufe", ["KS", "AS", "6H", "QS"], 3),    # 6 high, A low: Q beats K and A
    ("undenufe", ["7C", "6C", "8C", "6S"], 1),
])
def test_trick_winner(mode: str, trick: list[str], winner: int) -> None:
    assert trick_winner(trick, mode) == winner


def test_an_unfinished_trick_has_a_current_winner_and_an_empty_one_has_none() -> None:
    assert trick_winner(["TS", "AS"], "hearts") == 1
    with pytest.raises(ValueError):
        trick_winner([], "hearts")


@pytest.mark.parametrize("card, mode, points", [
    ("AS", "hearts", 11), ("KS", "hearts", 4), ("QS", "hearts", 3), ("JS", "hearts", 2), ("TS", "hearts", 10),
    ("9S", "hearts", 0), ("8S", "hearts", 0), ("7S", "hearts", 0), ("6S", "hearts", 0),
    ("JH", "hearts", 20), ("9H", "hearts", 14), ("AH", "hearts", 11), ("8H", "hearts", 0),
    ("JC", "clubs", 20), ("9S", "spades", 14), ("JD", "diamonds", 20),
    ("8S", "obenabe", 8), ("8S", "undenufe", 8), ("JS", "obenabe", 2), ("9S", "obenabe", 0),
    ("AS", "undenufe", 11), ("6S", "undenufe", 0),  # Decision: no swap of A and 6 in Undenufe
])
def test_card_points(card: str, mode: str, points: int) -> None:
    assert card_points(card, mode) == points


@pytest.mark.parametrize("mode", MODES)
def test_the_deck_is_worth_152_in_every_mode(mode: str) -> None:
    deck = [rank + suit for suit in "SHDC" for rank in "6789TJQKA"]
    assert sum(card_points(card, mode) for card in deck) == 152  # + 5 for the last trick = 157
