"""Which cards may be played (docs/rules/jass.md, "Playing a card"), through ``legal_cards``."""

from __future__ import annotations

import pytest

from referee.games.jass import legal_cards


def test_the_leader_may_play_any_card() -> None:
    assert legal_cards("6S JH AD", [], "hearts") == ["6S", "JH", "AD"]


def test_follow_the_led_suit_when_able() -> None:
    assert legal_cards("6S 9D AD", ["KD"], "obenabe") == ["9D", "AD"]
    assert legal_cards("6S 9D AD", ["KD"], "undenufe") == ["9D", "AD"]


def test_without_the_led_suit_any_card_goes_in_obenabe_and_undenufe() -> None:
    assert legal_cards("6S 9H AC", ["KD"], "obenabe") == ["6S", "9H", "AC"]


def test_a_trump_may_always_be_played_instead_of_following_suit() -> None:
    assert legal_cards("6S 9D AH", ["KS"], "hearts") == ["6S", "AH"]


def test_without_the_led_suit_any_card_goes_in_a_trump_mode() -> None:
    assert legal_cards("6C 9D AH", ["KS"], "hearts") == ["AH", "9D", "6C"]


def test_no_under_trumping_on_a_non_trump_lead() -> None:
    # 9H is the second trump; 6H cannot go under it, AH cannot either (trump order J 9 A ...).
    assert legal_cards("6S 6H AH", ["KS", "9H"], "hearts") == ["6S"]
    assert legal_cards("6C 6H JH", ["KS", "9H"], "hearts") == ["JH", "6C"]


def test_over_trumping_is_allowed_and_judged_against_every_trump_in_the_trick() -> None:
    assert legal_cards("6S 6H 9H", ["KS", "AH", "QS"], "hearts") == ["6S", "9H"]


def test_under_trump_allowed_only_when_nothing_else_is_playable() -> None:
    # Only trumps, none beats the 9: any card (the under-trumps) may go.
    assert legal_cards("6H 7H AH", ["KS", "9H"], "hearts") == ["6H", "7H", "AH"]


def test_only_trumps_held_must_over_trump_if_able() -> None:
    # Decision: read literally, a hand of trumps that can over-trump must.
    assert legal_cards("6H 7H JH", ["KS", "9H"], "hearts") == ["JH"]


def test_a_trump_lead_must_be_followed_with_trump() -> None:
    assert legal_cards("6S 7H AH", ["KH"], "hearts") == ["7H", "AH"]
    # No under-trump rule on a trump lead: any trump follows.
    assert legal_cards("6S 7H AH", ["KH", "9H"], "hearts") == ["7H", "AH"]


def test_the_trump_jack_alone_need_not_follow_a_trump_lead() -> None:
    assert legal_cards("6S JH AD", ["KH"], "hearts") == ["6S", "JH", "AD"]


def test_the_trump_jack_may_be_played_at_any_time() -> None:
    assert legal_cards("6S 7S JH", ["KS"], "hearts") == ["6S", "7S", "JH"]
    assert legal_cards("6S JH", ["KS", "9H"], "hearts") == ["6S", "JH"]


def test_the_jack_with_other_trumps_must_follow_a_trump_lead() -> None:
    assert legal_cards("6S 7H JH", ["KH"], "hearts") == ["7H", "JH"]


def test_no_trumps_in_obenabe_so_hearts_are_a_plain_suit() -> None:
    assert legal_cards("6S JH AD", ["KS"], "obenabe") == ["6S"]


@pytest.mark.parametrize("bad", [("1S", [], "hearts"), ("6S", ["2S"], "hearts"), ("6S", [], "trumps"),
                                 ("6S 6S", [], "hearts"), ("6S", ["7S", "8S", "9S", "TS"], "hearts")])
def test_bad_arguments_are_refused(bad: tuple[str, list[str], str]) -> None:
    with pytest.raises(ValueError):
        legal_cards(*bad)
