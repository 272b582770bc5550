"""The end of a match: target, game, box and shutout bonuses, the safety cap."""

from __future__ import annotations

import pytest

from referee.games.base import Termination
from referee.games.gin_rummy import GinRummyGame

from .helpers import deck, new_match, play

RUN = "AS 2S 3S 4S 5S 6S 7S 8S 9S TS"
JUNK = "KH KD QC QD JH JC 9H 9D 8C 7D"  # deadwood 93, no meld
SMALL_KNOCKER = "AH 2H 3H 4D 5D 6D 7C 7H 7S KC"  # takes 2C, discards KC: deadwood 2
SMALL_DEFENDER = "3S 4S 5S 8H 8D 8C TC JC QC 4C"  # deadwood 4, nothing lays off


class TestBonuses:
    def test_shutout(self) -> None:
        state = play(new_match(deck(RUN, JUNK, "JS")), "take JS", "big gin")
        assert state.is_terminal()
        points = 93 + 31
        assert state.scores == [points, 0]
        outcome = state.outcome()
        assert outcome.scores == (points + 100 + 25 + 100, 0.0)
        assert outcome.ranking == (0, 1) and outcome.winners == (0,)

    def test_game_and_box_bonuses_without_shutout(self) -> None:
        first = deck(SMALL_DEFENDER, SMALL_KNOCKER, "2C")
        second = deck(JUNK, RUN, "JS")
        state = play(new_match(first, second), "pass", "take 2C", "discard KC knock")
        assert state.scores == [0, 2] and state.hands_won == [0, 1]
        play(state, "pass", "take JS", "big gin")
        outcome = state.outcome()
        assert outcome.scores == (124 + 100 + 25, 2 + 25)
        assert outcome.ranking == (0, 1)

    def test_target_score_setting(self) -> None:
        state = play(new_match(deck(SMALL_DEFENDER, SMALL_KNOCKER, "2C"), target_score=2),
                     "pass", "take 2C", "discard KC knock")
        assert state.is_terminal()
        assert state.outcome().scores == (0.0, 2 + 100 + 25 + 100)
        assert state.outcome().ranking == (1, 0)

    def test_outcome_before_the_end_is_an_error(self) -> None:
        with pytest.raises(ValueError, match="not over"):
            new_match(deck(RUN, JUNK, "JS")).outcome()


class TestCap:
    def test_cap_ends_the_match_with_a_ranking_by_points(self) -> None:
        state = play(new_match(deck(SMALL_DEFENDER, SMALL_KNOCKER, "2C"), max_hands=1),
                     "pass", "take 2C", "discard KC knock")
        assert state.is_terminal()
        outcome = state.outcome()
        assert outcome.termination is Termination.CAP
        assert outcome.scores == (0.0, 2.0) and outcome.ranking == (1, 0)

    def test_cap_with_equal_points_is_a_tie(self) -> None:
        game = GinRummyGame(settings={"max_hands": 1})
        state = game.new_initial_state(7)
        while not state.is_terminal():
            actions = state.legal_actions()
            plain = [a for a in actions if "knock" not in str(a) and str(a) != "big gin"]
            state.apply(plain[-1] if plain else actions[0])
        assert state.last_hand is not None and state.last_hand.kind == "void"
        assert state.outcome().ranking == (0, 0)

    @pytest.mark.parametrize("settings", [{"max_hands": 0}, {"target_score": -1}, {"hands": 3}])
    def test_bad_settings_are_refused(self, settings: dict[str, int]) -> None:
        from referee.games.base import SettingsError
        with pytest.raises(SettingsError):
            GinRummyGame(settings=settings)

    def test_exactly_two_players(self) -> None:
        from referee.games.base import SettingsError
        with pytest.raises(SettingsError):
            GinRummyGame(num_players=3)


class TestDrawCap:
    def test_hand_is_void_after_the_draw_cap(self) -> None:
        # Both players keep taking the discard pile back: only the cap ends the hand.
        state = play(new_match(deck(RUN, JUNK, "JD"), max_draws_per_hand=4, target_score=500),
                     "take JD", "discard TS", "take TS", "discard KH", "take KH", "discard AS", "take AS")
        assert state.draws == 4 and state.hand_number == 1
        play(state, "discard KD")
        assert state.last_hand is not None and state.last_hand.kind == "void"
        assert state.hand_number == 2 and len(state.stock) == 31
