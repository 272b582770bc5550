"""A hand from the upcard offer to its end: offer order, draws, discards, void hands, dealers."""

from __future__ import annotations

import pytest

from referee.games.base import CHANCE, IllegalActionError, InvalidActionError
from referee.games.gin_rummy import Discard, DrawStock, parse_action

from .helpers import deck, new_match, play, texts

# Seat 0 (the first non-dealer): three melds and 2D, deadwood 2.  Seat 1: nothing melds.
LOW = "AS 2S 3S 4H 5H 6H 7C 7D 7S 2D"
JUNK = "KH KD QC QD JH JC 9H 9D 8C 6D"


def standard_deck(upcard: str = "TC", stock: str = "5C 4S 8S") -> list[str]:
    return deck(LOW, JUNK, upcard, stock)


class TestUpcardOffer:
    def test_non_dealer_then_dealer_then_stock(self) -> None:
        state = new_match(standard_deck())
        assert (state.current_player(), state.dealer) == (0, 1)
        assert texts(state.legal_actions()) == ["take TC", "pass"]
        assert state.observe(0).phase == "offer"
        play(state, "pass")
        assert state.current_player() == 1
        assert texts(state.legal_actions()) == ["take TC", "pass"]
        play(state, "pass")
        assert state.current_player() == 0
        assert texts(state.legal_actions()) == ["draw stock"]
        play(state, "draw stock")
        assert "5C" in {str(c) for c in state.observe(0).hand}
        assert state.observe(0).phase == "discard"

    def test_dealer_takes_the_upcard_then_non_dealer_draws(self) -> None:
        state = play(new_match(standard_deck()), "pass", "take TC")
        assert state.current_player() == 1
        assert "discard TC" not in texts(state.legal_actions())
        play(state, "discard KH")
        assert state.current_player() == 0
        assert texts(state.legal_actions()) == ["draw stock", "take KH"]

    def test_non_dealer_takes_the_upcard(self) -> None:
        state = play(new_match(standard_deck()), "take TC", "discard 2D")
        assert state.current_player() == 1
        assert texts(state.legal_actions()) == ["draw stock", "take 2D"]
        assert [str(c) for c in state.observe(1).discard_pile] == ["2D"]


class TestTakenCardMayNotBeDiscarded:
    def test_upcard_taken_cannot_be_discarded(self) -> None:
        state = play(new_match(standard_deck()), "take TC")
        assert Discard(parse_action("take TC").card) not in state.legal_actions()
        with pytest.raises(IllegalActionError, match="discard TC is not legal"):
            play(state, "discard TC")
        assert state.observe(0).taken_card is not None and str(state.observe(0).taken_card) == "TC"

    def test_card_taken_from_the_pile_later_cannot_be_discarded(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock", "discard 5C", "take 5C")
        assert "discard 5C" not in texts(state.legal_actions())
        assert "discard KH" in texts(state.legal_actions())

    def test_card_drawn_from_the_stock_can_be_discarded(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock")
        assert "discard 5C" in texts(state.legal_actions())

    def test_taken_card_may_be_discarded_on_a_later_turn(self) -> None:
        state = play(new_match(standard_deck()), "take TC", "discard 2D", "draw stock", "discard 5C",
                     "draw stock")
        assert "discard TC" in texts(state.legal_actions())


class TestLegalActions:
    def test_discards_in_card_order_each_followed_by_its_knock(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock")
        # Hand AS 2S 3S 4H 5H 6H 7C 7D 7S 2D + 5C (deadwood 7).  Discarding 2D, 3S or 5C leaves
        # 10 or less; discarding 7C breaks the set and leaves 21.
        actions = texts(state.legal_actions())
        assert actions[:6] == ["discard AS", "discard 2S", "discard 2D", "discard 2D knock", "discard 3S",
                               "discard 3S knock"]
        assert "discard 5C knock" in actions and "discard 7C knock" not in actions
        assert actions.index("discard 5C") + 1 == actions.index("discard 5C knock")
        assert "big gin" not in actions

    def test_big_gin_is_offered_last(self) -> None:
        state = play(new_match(deck("AS 2S 3S 4S 5S 6S 7S 8S 9S TS", JUNK, "JS")), "take JS")
        actions = texts(state.legal_actions())
        assert actions[-1] == "big gin"
        assert "discard AS knock" in actions  # gin by discarding an end of the run is allowed too

    def test_action_of_another_game_is_invalid(self) -> None:
        state = new_match(standard_deck())
        with pytest.raises(InvalidActionError):
            state.apply("pass")  # type: ignore[arg-type]

    def test_draw_stock_during_the_offer_is_illegal(self) -> None:
        with pytest.raises(IllegalActionError):
            new_match(standard_deck()).apply(DrawStock())


class TestKnockEndsTheHand:
    def test_knock_scores_and_deals_the_next_hand(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock", "discard 5C knock")
        result = state.last_hand
        assert result is not None
        assert (result.kind, result.knocker, result.winner) == ("knock", 0, 0)
        # Seat 1's deadwood: K K Q Q J J 9 9 8 6 = 92, minus 6D? no lay-off fits: 92 - 2.
        assert result.points == 92 - 2
        assert state.scores == [90, 0] and state.hands_won == [1, 0]
        assert (state.hand_number, state.dealer, state.current_player()) == (2, 0, 1)

    def test_shown_hands_become_public(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock", "discard 5C knock")
        shown = [e for e in state.events if "shows" in e.text]
        assert len(shown) == 1 and shown[0].visible_to is None
        assert "KH" in shown[0].text and "2D" in shown[0].text
        assert state.observe(1).last_hand == state.observe(0).last_hand == state.last_hand


class TestVoidHand:
    @staticmethod
    def _draw_and_discard_until(state, stock_left: int) -> None:
        while len(state.stock) > stock_left:
            seat = state.current_player()
            before = state.hands[seat]
            play(state, "draw stock")
            drawn = state.hands[seat] & ~before
            card = next(a for a in state.legal_actions() if isinstance(a, Discard) and not a.knock
                        and 1 << ((a.card.rank - 1) * 4 + "SHDC".index(a.card.suit)) == drawn)
            state.apply(card)

    def test_discard_leaving_two_stock_cards_voids_the_hand(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass")
        self._draw_and_discard_until(state, 3)
        assert (len(state.stock), state.hand_number) == (3, 1)
        seat = state.current_player()
        play(state, "draw stock")
        assert len(state.stock) == 2
        discard = next(a for a in state.legal_actions() if isinstance(a, Discard) and not a.knock)
        state.apply(discard)
        assert state.last_hand is not None and state.last_hand.kind == "void"
        assert state.scores == [0, 0] and state.hands_won == [0, 0]
        assert state.hand_number == 2 and state.dealer == 0, "the dealer alternates after a void hand"
        assert any(e.seat == CHANCE and "void" in e.text for e in state.events)
        assert seat == 0

    def test_knock_is_still_allowed_on_the_last_discard(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass")
        self._draw_and_discard_until(state, 3)
        play(state, "draw stock")
        knocks = [a for a in state.legal_actions() if isinstance(a, Discard) and a.knock]
        assert knocks
        state.apply(knocks[0])
        assert state.last_hand is not None and state.last_hand.kind == "knock"


class TestDealer:
    def test_first_dealer_comes_from_the_seed(self) -> None:
        from referee.games.gin_rummy import GinRummyGame
        dealers = {GinRummyGame().new_initial_state(seed).dealer for seed in range(20)}
        assert dealers == {0, 1}

    def test_dealer_alternates_each_hand(self) -> None:
        state = play(new_match(standard_deck(), deck(JUNK, LOW, "TC"), target_score=500), "pass", "pass",
                     "draw stock", "discard 5C knock")
        assert state.dealer == 0 and state.current_player() == 1
        play(state, "pass", "take TC", "discard 2D knock")
        assert state.dealer == 1 and state.hand_number == 3
        assert state.last_hand is not None and state.last_hand.winner == 0


class TestEvents:
    def test_dealt_cards_and_stock_draws_are_private(self) -> None:
        state = play(new_match(standard_deck()), "pass", "pass", "draw stock")
        dealt = [e for e in state.events if "is dealt" in e.text]
        assert [e.visible_to for e in dealt] == [frozenset({0}), frozenset({1})]
        public_draw = next(e for e in state.events if e.action == DrawStock())
        assert public_draw.visible_to is None and "5C" not in public_draw.text
        private = [e for e in state.events if "draws 5C" in e.text]
        assert len(private) == 1 and private[0].visible_to == frozenset({0})
        assert all("5C" not in e.text for e in state.events_for(1))

    def test_decisions_carry_their_action(self) -> None:
        state = play(new_match(standard_deck()), "take TC", "discard 2D")
        assert [str(e.action) for e in state.events if e.action is not None] == ["take TC", "discard 2D"]
