"""Oklahoma (knock limit from the upcard, spade double, 150) and Straight (gin only, 4 hands)."""

from __future__ import annotations

import pytest

from referee.games.base import Termination
from referee.games.gin_rummy import Discard, GinRummyGame, knock_limit_of, parse_action, score_knock

from .helpers import deck, new_match, play

# Seat 0: three melds and 8D, deadwood 8.  Seat 1: nothing melds (deadwood 92).
EIGHT = "AS 2S 3S 4H 5H 6H 7C 7D 7S 8D"
JUNK = "KH KD QC QD JH JC 9H 9D 8C 6D"
RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"


def knocks(state) -> list[str]:
    return [str(a) for a in state.legal_actions() if isinstance(a, Discard) and a.knock]


class TestOklahoma:
    @pytest.mark.parametrize("upcard, limit", [("AH", 0), ("2C", 2), ("7H", 7), ("TD", 10), ("JS", 10),
                                               ("QH", 10), ("KC", 10)])
    def test_upcard_sets_the_knock_limit(self, upcard: str, limit: int) -> None:
        assert knock_limit_of(parse_action(f"take {upcard}").card) == limit  # type: ignore[union-attr]
        state = new_match(deck(EIGHT, JUNK, upcard), variant="oklahoma")
        assert state.observe(0).knock_limit == state.observe(1).knock_limit == limit

    def test_deadwood_above_the_limit_cannot_knock(self) -> None:
        # Upcard 7H: after drawing KC the best discard leaves 8 (8D), above 7.
        state = play(new_match(deck(EIGHT, JUNK, "7H", "KC"), variant="oklahoma"),
                     "pass", "pass", "draw stock")
        assert knocks(state) == []

    def test_deadwood_at_the_limit_can_knock(self) -> None:
        state = play(new_match(deck(EIGHT, JUNK, "8H", "KC"), variant="oklahoma"), "pass", "pass", "draw stock")
        assert knocks(state) == ["discard KC knock"]

    def test_ace_upcard_allows_gin_only(self) -> None:
        state = play(new_match(deck(EIGHT, JUNK, "AH", "2D"), variant="oklahoma"), "pass", "pass", "draw stock")
        assert knocks(state) == []  # deadwood 2 after discarding 8D: no knock
        # 7H melds (4-5-6-7H), so discarding 8D leaves gin.
        gin = play(new_match(deck(EIGHT, JUNK, "AH", "7H"), variant="oklahoma"), "pass", "pass", "draw stock")
        assert knocks(gin) == ["discard 8D knock"]
        play(gin, "discard 8D knock")
        assert gin.last_hand is not None and gin.last_hand.kind == "gin"

    def test_spade_upcard_doubles_the_hand(self) -> None:
        state = play(new_match(deck(EIGHT, JUNK, "9S", "KC"), variant="oklahoma"), "pass", "pass", "draw stock")
        assert state.observe(0).doubled and state.knock_limit == 9
        play(state, "discard KC knock")
        single = score_knock(EIGHT, JUNK).points
        assert state.last_hand is not None and state.last_hand.doubled
        assert state.last_hand.points == 2 * single == state.scores[0]

    def test_other_suits_do_not_double(self) -> None:
        state = play(new_match(deck(EIGHT, JUNK, "TH", "KC"), variant="oklahoma"), "pass", "pass", "draw stock",
                     "discard KC knock")
        assert state.scores[0] == score_knock(EIGHT, JUNK).points

    def test_target_is_150(self) -> None:
        assert GinRummyGame(variant="oklahoma").target == 150
        assert GinRummyGame(variant="oklahoma", settings={"target_score": 120}).target == 120
        # 2 x 84 = 168 ends an Oklahoma match; 84 alone would not.
        state = play(new_match(deck(EIGHT, JUNK, "9S", "KC"), variant="oklahoma"), "pass", "pass", "draw stock",
                     "discard KC knock")
        assert state.is_terminal()
        state = play(new_match(deck(EIGHT, JUNK, "TH", "KC"), variant="oklahoma"), "pass", "pass", "draw stock",
                     "discard KC knock")
        assert not state.is_terminal() and state.scores == [84, 0]


class TestStraight:
    def test_only_gin_may_end_a_hand(self) -> None:
        state = play(new_match(deck(EIGHT, JUNK, "TH", "2D"), variant="straight"), "pass", "pass", "draw stock")
        assert state.knock_limit == 0 and knocks(state) == []
        gin = play(new_match(deck(EIGHT, JUNK, "TH", "7H"), variant="straight"), "pass", "pass", "draw stock")
        assert knocks(gin) == ["discard 8D knock"]

    def test_first_to_win_four_hands_wins_whatever_the_points(self) -> None:
        # Seat 0 shows big gin in every hand: as non-dealer it takes the upcard first; as
        # dealer after seat 1 passes.  Seat 1 wins nothing.
        hands = [deck(RUN, JUNK, "JS") if i % 2 == 0 else deck(JUNK, RUN, "JS") for i in range(4)]
        state = new_match(*hands, variant="straight")
        for i in range(4):
            assert not state.is_terminal()
            if i % 2 == 1:
                play(state, "pass")
            play(state, "take JS", "big gin")
            assert state.hands_won == [i + 1, 0]
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome.ranking == (0, 1) and outcome.scores == (4.0, 0.0)
        assert outcome.termination is Termination.NORMAL
        assert state.scores[0] == 4 * (92 + 31), "points are still kept"

    def test_hands_to_win_is_a_setting(self) -> None:
        state = new_match(deck(RUN, JUNK, "JS"), variant="straight", hands_to_win=1)
        play(state, "take JS", "big gin")
        assert state.is_terminal() and state.outcome().ranking == (0, 1)
