"""Declaring, pushing, dealing, scoring a hand, weis, Stöck and the end of the match."""

from __future__ import annotations

import pytest

from referee.games.base import IllegalActionError, Termination
from referee.games.jass import JassGame, parse_action

from .helpers import RICH_DEAL, SEAT0_OBENABE, new_match, play, play_first_legal_except

# No seat holds a weis; seat 0 holds the 7C and the K and Q of hearts.
NO_WEIS = ("KH QH 6S 8S 7C TD 6D 8D AC", "6H 8H TH 7S 9S JS 7D 9D QD",
           "JH AH TS QS AS JD KD JC 8C", "7H 9H KS 9C TC 6C QC KC AD")


def test_the_club_seven_holder_is_the_first_forehand_and_leads() -> None:
    deal = tuple(RICH_DEAL[1:] + RICH_DEAL[:1])  # seat 3 now holds the 7C
    state = new_match(deal)
    assert (state.forehand, state.dealer, state.current_player()) == (3, 2, 3)
    play(state, "choose hearts")
    assert state.current_player() == 3


def test_the_forehand_may_push_and_the_partner_must_then_choose() -> None:
    state = new_match(RICH_DEAL)
    assert [str(a) for a in state.legal_actions()][-1] == "push"
    play(state, "push")
    assert state.current_player() == 2
    assert "push" not in [str(a) for a in state.legal_actions()]
    with pytest.raises(IllegalActionError):
        play(state, "push")
    play(state, "choose spades")
    observation = state.observe(1)
    assert (observation.mode, observation.chooser, observation.pushed, observation.multiplier) == ("spades", 2, True, 2)
    assert state.current_player() == 0  # the forehand leads whoever chose


def test_dealer_rotates_each_hand() -> None:
    state = new_match(RICH_DEAL, target=100_000)
    dealers = []
    for _ in range(5):
        dealers.append(state.dealer)
        hand = state.hand_number
        while state.hand_number == hand:
            state.apply(state.legal_actions()[0])
    assert dealers == [3, 0, 1, 2, 3]
    assert (state.dealer, state.forehand) == (0, 1)


def test_a_hand_scores_its_cards_last_trick_and_match_and_the_best_weis_team_scores_all_its_weis() -> None:
    state = new_match(RICH_DEAL, target=100_000)
    play(state, "choose obenabe")
    play_first_legal_except(state, 0, SEAT0_OBENABE)
    assert state.hand_number == 2
    # Seat 0's team takes every trick: (152 + 5 + 100) x 3.
    # Weis: the six-card sequences of seat 1 (6S-JS) and seat 3 (6D-JD) tie on points, cards
    # and top card; seat 1 is earlier from the forehand (seat 0), so team 1+3 scores all its
    # weis: 100 + 20 (9H TH JH) + 20 (6H 7H 8H) + 100, x 3.  Seat 0's four A and four K and
    # seat 2's five clubs score nothing.
    assert state.scores == [257 * 3, 240 * 3]


def test_weis_cards_become_public_after_trick_one_and_score_at_its_end() -> None:
    state = new_match(RICH_DEAL, target=100_000)
    play(state, "choose obenabe")
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    assert state.observe(0).weis == () and state.scores == [0, 0]
    state.apply(state.legal_actions()[0])  # the end of trick 1
    observation = state.observe(0)
    assert observation.weis_points == 720 and state.scores == [0, 720]
    assert {str(w) for w in observation.weis} == {
        "seat 1 sequence 6S 7S 8S 9S TS JS (100)", "seat 1 sequence 9H TH JH (20)",
        "seat 3 sequence 6H 7H 8H (20)", "seat 3 sequence 6D 7D 8D 9D TD JD (100)"}


def _best_weis_seats(deal: tuple[str, str, str, str], mode: str) -> list[int]:
    """The seats whose weis are public after trick 1 (the scoring team's)."""
    state = new_match(deal, target=100_000)
    play(state, f"choose {mode}")
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    return sorted({w.seat for w in state.public_weis})


def test_weis_more_points_beat_more_cards() -> None:
    # Seat 0 (forehand): 6H-TH (100, 5 cards); seat 1: four Js (200); seat 3: QH KH AH (20).
    deal = ("6H 7H 8H 9H TH 7C AS QD KC", "JS JH JD JC 6S 8S 6D 8D 6C",
            "7S 9S KS 7D 9D KD 8C TC QC", "TS QS QH KH AH TD AD 9C AC")
    assert _best_weis_seats(deal, "hearts") == [1, 3]


def test_weis_equal_points_more_cards_win() -> None:
    # Seat 0: 6H-TH (100, 5 cards) beats seat 1's four aces (100, 4 cards).
    deal = ("6H 7H 8H 9H TH 7C KS QD KC", "AS AH AD AC 6S 8S 6D 8D 6C",
            "7S 9S JS 7D 9D JD 8C TC QC", "TS QS JH QH KH TD KD 9C JC")
    assert _best_weis_seats(deal, "diamonds") == [0]


def test_weis_higher_top_card_in_the_modes_order() -> None:
    # Seat 0: 6S 7S 8S; seat 1: 7D 8D 9D; seat 2: 6H 7H 8H (20 each).
    deal = ("6S 7S 8S JS 7C AH TD QC KS", "7D 8D 9D TS QH KH QD KC AC",
            "6H 7H 8H JH AS QS 6C 9C JC", "9S 9H TH 6D JD KD AD 8C TC")
    assert _best_weis_seats(deal, "clubs") == [1]  # top 9D beats top 8S and 8H
    # Undenufe: the 6 is the top; 6S-8S and 6H-8H tie and seat 0 is earlier from the forehand.
    assert _best_weis_seats(deal, "undenufe") == [0, 2]


def test_weis_equal_sequences_the_trump_one_wins_else_the_earlier_seat() -> None:
    # Seat 0: 6S 7S 8S; seat 1: 6H 7H 8H.
    deal = ("6S 7S 8S JS 7C AH TD QC KS", "6H 7H 8H JH AS QS 6C 9C JC",
            "7D 9D TS QH KH QD KC AC 8C", "9S 9H TH 6D 8D JD KD AD TC")
    assert _best_weis_seats(deal, "hearts") == [1]
    assert _best_weis_seats(deal, "spades") == [0]
    assert _best_weis_seats(deal, "obenabe") == [0]


def test_no_weis_nothing_is_made_public() -> None:
    assert _best_weis_seats(NO_WEIS, "hearts") == []


def test_stoeck_scores_when_its_second_card_is_played() -> None:
    # Seat 0 holds KH and QH; hearts is trump.
    state = new_match(NO_WEIS, target=100_000)
    play(state, "choose spades")
    assert state.stoeck_seat == -1  # not trump: no Stöck
    state = new_match(NO_WEIS, target=100_000)
    play(state, "choose hearts", "play KH")
    assert state.scores == [0, 0]
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    before = list(state.scores)
    play(state, "play QH")
    assert state.scores[0] - before[0] == 20 and state.observe(3).stoeck == 0


def test_the_match_can_end_mid_hand_on_weis() -> None:
    state = new_match(RICH_DEAL, target=700)
    play(state, "choose obenabe")
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    assert state.is_terminal() and len(state.tricks) == 1 and state.hands[0].bit_count() == 8
    outcome = state.outcome()
    assert outcome.ranking == (2, 0, 2, 0) and outcome.scores == (0.0, 720.0, 0.0, 720.0)
    assert outcome.termination is Termination.NORMAL
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("play KS"))


def test_the_match_can_end_mid_hand_on_stoeck() -> None:
    state = new_match(NO_WEIS, target=20)
    play(state, "choose hearts", "play KH")
    while state.current_player() != 0:
        state.apply(state.legal_actions()[0])
    play(state, "play QH")
    assert state.is_terminal() and state.outcome().ranking == (0, 2, 0, 2)


def test_both_teams_over_the_target_at_the_end_of_a_hand_the_higher_total_wins() -> None:
    state = new_match(NO_WEIS, target=50)
    state.scores = [45, 48]  # both cross at the end of this hand
    play(state, "choose diamonds")  # no Stöck in diamonds: all points come at the end of the hand
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    total = state.scores
    assert min(total) >= 50
    winner = 0 if total[0] > total[1] else 1
    assert state.outcome().ranking == tuple(0 if seat % 2 == winner else 2 for seat in range(4))


def test_the_hand_cap_ends_the_match_ranked_by_points() -> None:
    state = JassGame(settings={"max_hands": 2}).new_initial_state(5)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
    outcome = state.outcome()
    assert outcome.termination is Termination.CAP and state.hand_number == 2
    assert outcome.ranking[0] == outcome.ranking[2] and outcome.ranking[1] == outcome.ranking[3]
