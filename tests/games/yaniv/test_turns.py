"""A turn: discard then draw; what may be drawn; Yaniv only at the start; the reshuffle."""

from __future__ import annotations

import random

import pytest

from referee.games.base import IllegalActionError, InvalidActionError
from referee.games.cards import Card
from referee.games.yaniv import Discard, DrawStock, TakeCard, YanivGame, parse_action

from .helpers import deck, new_match, play, texts

HANDS = {0: "5H 6H 7H KS KD", 1: "2C 9D 9S JC QC"}


def two_players(upcard: str = "4D", stock: str = "8C 8H 3S 3C", **settings: object):
    return new_match(deck(HANDS, upcard, stock), players=2, **settings)


class TestDrawChoices:
    def test_the_first_player_may_take_the_face_up_card(self) -> None:
        state = play(two_players(), "discard KS KD")
        assert texts(state.legal_actions()) == ["draw stock", "take 4D"]

    def test_after_a_three_card_run_the_next_player_may_take_its_first_or_last_card(self) -> None:
        state = play(two_players(), "discard 5H 6H 7H", "draw stock", "discard QC")
        assert texts(state.legal_actions()) == ["draw stock", "take 5H", "take 7H"]
        with pytest.raises(IllegalActionError):
            play(state, "take 6H")

    def test_a_joker_in_the_middle_cannot_be_taken(self) -> None:
        hands = {0: "5H X1 7H KS KD", 1: "2C 9D 9S JC QC"}
        state = play(new_match(deck(hands, "4D", "8C"), players=2), "discard 5H X1 7H", "draw stock", "discard QC")
        assert texts(state.legal_actions()) == ["draw stock", "take 5H", "take 7H"]

    def test_jokers_at_both_ends_are_one_take(self) -> None:
        hands = {0: "5H X1 X2 KS KD", 1: "2C 9D 9S JC QC"}
        state = play(new_match(deck(hands, "4D", "8C"), players=2), "discard X1 5H X2", "draw stock", "discard QC")
        assert texts(state.legal_actions()) == ["draw stock", "take X1"]

    def test_older_discards_are_dead(self) -> None:
        state = play(two_players(), "discard 5H 6H 7H", "take 4D", "discard QC", "draw stock", "discard KS")
        # Seat 1 drew from the stock instead of taking from seat 0's run: the run is dead.
        assert texts(state.legal_actions()) == ["draw stock", "take QC"]
        assert texts(state.observe(0).draw_group) == ["QC"]
        assert sorted(texts(state.observe(0).dead)) == ["5H", "6H", "7H"]

    def test_taken_cards_are_public(self) -> None:
        state = play(two_players(), "discard 5H 6H 7H", "take 4D")
        assert texts(state.observe(1).took[0]) == ["4D"]
        play(state, "discard QC", "draw stock", "discard 4D")
        assert texts(state.observe(1).took[0]) == []

    def test_draw_stock_is_public_but_the_card_is_private(self) -> None:
        state = play(two_players(), "discard KS KD", "draw stock")
        public = [e for e in state.events if isinstance(e.action, DrawStock)]
        private = [e for e in state.events if e.text == "seat 0 draws 8C"]
        assert len(public) == 1 and "8C" not in public[0].text
        assert len(private) == 1 and private[0].visible_to == frozenset({0})
        assert "8C" in texts(state.observe(0).hand) and "8C" not in str(state.observe(1))


class TestActionsAsValues:
    def test_actions_built_by_hand_are_legal_like_the_listed_ones(self) -> None:
        hands = {0: "5H X1 X2 KS KD", 1: "2C 9D 9S JC QC"}
        state = new_match(deck(hands, "4D", "8C"), players=2)
        built = Discard((Card.parse("X1"), Card.parse("5H"), Card.parse("X2")))
        assert built == parse_action("discard X1 5H X2") and state.is_legal(built)
        assert not state.is_legal(Discard.from_text("X2 5H X1"))  # the listed form places X1 first
        with pytest.raises(IllegalActionError):
            state.apply(Discard.from_text("X2 X1 5H"))
        state.apply(built)
        assert state.is_legal(TakeCard(Card.parse("4D"))) and not state.is_legal(TakeCard(Card.parse("8C")))
        state.apply(DrawStock())
        assert texts(state.observe(0).hand) == ["8C", "KS", "KD"]

    def test_anything_else_is_not_an_action(self) -> None:
        state = two_players()
        with pytest.raises(InvalidActionError):
            state.apply("discard KS")  # type: ignore[arg-type]
        with pytest.raises(InvalidActionError):
            parse_action("discard")


class TestYanivTiming:
    def test_yaniv_is_offered_at_the_start_of_a_turn_with_5_or_less(self) -> None:
        hands = {0: "X1 X2 AS AH 3S", 1: "2C 9D 9S JC QC"}
        state = new_match(deck(hands, "4D"), players=2)
        assert texts(state.legal_actions())[0] == "yaniv"

    def test_six_points_may_not_call_yaniv(self) -> None:
        hands = {0: "AS AH AD AC 2S", 1: "2C 9D 9S JC QC"}
        state = new_match(deck(hands, "4D"), players=2)
        assert "yaniv" not in texts(state.legal_actions())

    def test_reaching_5_during_a_turn_waits_for_the_next_turn(self) -> None:
        hands = {0: "AS AH AD AC KS", 1: "2C 9D 9S JC QC"}
        state = play(new_match(deck(hands, "X1", "2D"), players=2), "discard KS")
        assert "yaniv" not in texts(state.legal_actions())
        play(state, "take X1")
        assert state.observe(0).hand_value == 4 and state.current_player() == 1
        play(state, "discard QC", "draw stock")
        assert texts(state.legal_actions())[0] == "yaniv"


class TestReshuffle:
    def test_an_empty_stock_takes_the_dead_discards_reshuffled(self) -> None:
        state = YanivGame(num_players=8).new_initial_state(7)
        rng = random.Random(1)
        reshuffled = 0
        while reshuffled < 2:
            discards = [a for a in state.legal_actions() if str(a).startswith("discard")]
            play(state, str(rng.choice(discards)))
            last_draw = len(state.stock) == 1
            expected = sorted(state.dead + list(state.offered)) if last_draw else None
            state.apply(DrawStock())
            if last_draw:
                reshuffled += 1
                assert sorted(state.stock) == expected and state.dead == []
                assert "shuffled into a new stock" in state.events[-1].text
                assert state.offered == state.history[-1][1]  # the group just discarded stays up
            assert len(state.stock) + len(state.dead) + len(state.offered) + sum(
                h.bit_count() for h in state.hands) == 54
        assert state.round_number == 1

    def test_the_stock_order_after_a_reshuffle_comes_from_the_seed(self) -> None:
        def stock_after_reshuffle(seed: int) -> list[int]:
            state = YanivGame(num_players=8).new_initial_state(seed)
            while True:
                discards = [a for a in state.legal_actions() if str(a).startswith("discard")]
                state.apply(discards[0])
                last = len(state.stock) == 1
                state.apply(DrawStock())
                if last:
                    return list(state.stock)

        assert stock_after_reshuffle(3) == stock_after_reshuffle(3)
