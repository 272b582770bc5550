"""The deck, trump, the kan group and 重カン, the lead, following suit and the joker."""

from __future__ import annotations

import pytest

from referee.games.base import IllegalActionError, InvalidActionError
from referee.games.yoninkan import YoninkanGame, YoninkanState, card_id, parse_action, trick_winner

from .helpers import DECK, STRONG_OPPOSITE, deal, new_match, play, run, texts

SUIT = {s: i for i, s in enumerate("SHDC")}

# Seat 0 leads (AS); seat 2 holds JC and no spade; seat 1 holds the joker (adjacent partners).
JOKER_AT_1 = deal("AS 6S 7S 5H 6H 7H 5D 6D 7D 5C", "KS QS 8H 9H TH 8D 9D TD X1 6C",
                  "JC AC KC QC JH QH KH AH JD QD", "8S 9S TS JS AD KD 7C 8C 9C TC")


def test_the_deck_has_40_cards_16_honours_and_one_joker() -> None:
    assert len(DECK) == len(set(DECK)) == 40
    assert "X1" in DECK and "5S" not in DECK and "X2" not in DECK
    assert sum(1 for card in DECK if card[0] in "AKQJ") == 16
    for text in ("5S", "2H", "X2", "1H"):
        with pytest.raises(InvalidActionError):
            card_id(text)


def test_every_seat_is_dealt_10_cards_and_the_battle_1_trump_rotates_with_spades_last() -> None:
    game = YoninkanGame(settings={"games": 5})
    state = game.new_initial_state(7)
    assert sorted(len(state.observe(seat).hand) for seat in range(4)) == [10, 10, 10, 10]
    trumps = []
    while not state.is_terminal():
        if state.battle == 1 and state.trick_number == 1 and not state.trick:
            trumps.append(state.observe(0).trump)
        state.apply(state.legal_actions()[0])
    assert trumps == ["C", "D", "H", "C", "S"]


@pytest.mark.parametrize("games, trump, opener", [(2, "C", "AS"), (1, "S", "AC")])
def test_battle_1_is_led_by_the_holder_of_the_spade_ace_or_in_the_last_game_the_club_ace(
        games: int, trump: str, opener: str) -> None:
    hands = deal("5H", "AC", "AS")
    state = new_match(hands, games=games)
    holder = next(seat for seat, hand in enumerate(hands) if opener in hand.split())
    assert state.observe(0).trump == trump
    assert state.current_player() == holder
    assert f"seat {holder} holds {opener} and leads" in [e.text for e in state.events]


def test_kan_is_the_trump_jack_and_the_joker() -> None:
    state = new_match(JOKER_AT_1)
    assert state.kan == {1, 2}
    assert (state.a_seat, state.b_seat) == (2, 1)


def test_juukan_one_player_with_both_is_partnered_with_the_player_opposite() -> None:
    state = new_match(deal("AS", "JC X1"))
    assert state.kan == {1, 3}
    assert (state.a_seat, state.b_seat) == (3, 1)  # the holder plays B's part of the 決め役
    state = new_match(deal("AS", "", "", "JC X1"))
    assert state.kan == {3, 1}
    assert (state.a_seat, state.b_seat) == (1, 3)


def test_a_player_holding_the_led_suit_must_follow_but_may_play_the_joker() -> None:
    state = play(new_match(JOKER_AT_1), "play 6S")
    # Seat 1 holds KS QS and the joker: spades or the joker (whose trick-1 play declares).
    assert texts(state.legal_actions()) == ["play QS", "play QS declare 16", "play KS", "play KS declare 16",
                                            "play X1 declare 16"]
    with pytest.raises(IllegalActionError):
        play(state, "play 8H")
    with pytest.raises(IllegalActionError):
        play(state, "play X1")  # the joker in trick 1 is a declaration
    play(state, "play QS")
    # Seat 2 holds no spade: any card (and, holding the trump J, it may declare 16).
    hand = "JC AC KC QC JH QH KH AH JD QD".split()
    assert set(texts(state.legal_actions())) == {f"play {c}" for c in hand} | {f"play {c} declare 16" for c in hand}


def test_a_led_joker_names_the_suit_to_follow() -> None:
    hands = deal("X1 AS 6S 7S 5H 6H 7H 5D 6D 7D", "KS QS 8H 9H TH 8D 9D TD 5C 6C",
                 "JC AC KC QC JH QH KH AH JD QD", "8S 9S TS JS AD KD 7C 8C 9C TC")
    state = new_match(hands)
    joker_leads = [t for t in texts(state.legal_actions()) if t.startswith("play X1")]
    assert joker_leads == [f"play X1 call {s} declare 16" for s in "SHDC"]
    play(state, "play X1 call D declare 16")
    assert state.observe(1).led_suit == "D"
    assert texts(state.legal_actions()) == ["play 8D", "play 9D", "play TD"]
    play(state, "play TD", "play QD", "play KD")
    assert state.tricks[0].winner == 0  # the joker wins before trick 10
    assert state.captured[0] and state.tricks[0].call == "D"


def test_trick_winner() -> None:
    def winner(cards: str, trump: str, led: str, last: bool = False) -> int:
        return trick_winner([(seat, card_id(c)) for seat, c in enumerate(cards.split())], SUIT[trump], SUIT[led],
                            last=last)

    assert winner("9S KH TS AD", "C", "S") == 2  # highest of the led suit
    assert winner("AS 5C 9C KS", "C", "S") == 2  # highest trump
    assert winner("AS 5C KS X1", "C", "S") == 3  # the joker
    # Trick 10: the joker is the weakest card.
    assert winner("AS 5C KS X1", "C", "S", last=True) == 1
    assert winner("AS 6S KS X1", "C", "S", last=True) == 0
    # Led in trick 10, it is the lowest card of the suit it named ...
    assert winner("X1 5H 9D KD", "C", "H", last=True) == 1
    assert winner("X1 5H 9D 5C", "C", "H", last=True) == 3
    # ... and wins only when nobody plays that suit or a trump.
    assert winner("X1 5D 9D KS", "C", "H", last=True) == 0


def test_the_joker_kept_to_trick_10_loses_it() -> None:
    def keep_the_joker(state: YoninkanState) -> object:
        if state.phase == "right":
            return parse_action("declare 16")
        plain = [a for a in state.legal_actions() if "declare" not in str(a)]
        return next((a for a in plain if "X1" not in str(a)), plain[0])

    state = run(new_match(STRONG_OPPOSITE), lambda s: s.battle > 1, keep_the_joker)
    lines = [e.text for e in state.events]
    tenth = lines[next(i for i, line in enumerate(lines) if " wins trick 9" in line) + 1:]
    tenth = tenth[:next(i for i, line in enumerate(tenth) if "trick 10" in line) + 1]
    assert "seat 0 plays X1" in tenth
    assert tenth[-1].startswith("seat 2 wins trick 10")  # seat 2's AC beats the joker
    assert state.results == [("kan", "16")]


def test_parse_action_round_trips_and_rejects_junk() -> None:
    for text in ("play AS", "play X1 call H", "play KD declare 16", "play X1 call S declare reverse_skunk",
                 "play X1", "declare 16", "declare reverse_16", "pass", "show AS X1", "trump H"):
        assert str(parse_action(text)) == text
    for text in ("play", "play 5S", "play AS call H", "play X1 call SH", "play AS declare 17", "declare skunk",
                 "show AS AS", "show AS", "trump SH", "trump", "jump"):
        with pytest.raises(InvalidActionError):
            parse_action(text)
