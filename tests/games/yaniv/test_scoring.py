"""Round scoring (Yaniv and Assaf), halving, elimination, the next starter, the caps and
the final ranking."""

from __future__ import annotations

from referee.games.base import TERMINAL, Termination

from .helpers import deck, new_match, play

# The seed's example, one turn each and then a call: A 2, B 5, C 10, D 17 points.
SEED_HANDS = {0: "X1 X2 AS KS KH", 1: "2C 3C 4C 5C 6C", 2: "2S 2H 3S KC KD", 3: "7D 8D 9D 4S 4H"}
SEED_TURNS = {0: ("discard KS KH", "AH"), 1: ("discard 3C 4C 5C 6C", "3H"), 2: ("discard KC KD", "3D"),
              3: ("discard 7D 8D 9D", "9S")}


def seed_example(declarer: int):
    order = [(declarer + k) % 4 for k in range(4)]
    stock = " ".join(SEED_TURNS[seat][1] for seat in order)
    state = new_match(deck(SEED_HANDS, "QC", stock, starter=declarer), players=4, first_player=declarer)
    for seat in order:
        play(state, SEED_TURNS[seat][0], "draw stock")
    assert [state.values[s] for s in range(4)] == [2, 5, 10, 17]
    return play(state, "yaniv")


class TestRoundScores:
    def test_the_seed_example_when_a_declares(self) -> None:
        result = seed_example(0).results[-1]
        assert result.kind == "yaniv" and result.assaf_by == ()
        assert result.round_scores == (0, 5, 10, 17)

    def test_the_seed_example_when_b_declares_and_a_is_lower(self) -> None:
        state = seed_example(1)
        result = state.results[-1]
        assert result.kind == "assaf" and result.assaf_by == (0,)
        assert result.round_scores == (2, 35, 10, 17) and state.totals == [2, 35, 10, 17]

    def test_an_equal_hand_is_assaf(self) -> None:
        hands = {0: "X1 AS AH KS KH", 1: "X2 AD AC QS QH", 2: "9S 9H 9D 9C 8S"}
        state = new_match(deck(hands, "5C", "2S 2H 8H"), players=3)
        play(state, "discard KS KH", "draw stock", "discard QS QH", "draw stock", "discard 9S 9H 9D 9C", "draw stock")
        play(state, "yaniv")
        result = state.results[-1]
        assert result.hand_values == (4, 4, 16) and result.assaf_by == (1,)
        assert result.round_scores == (34, 4, 16)
        assert state.starter == 0  # tied lowest with the declarer: the declarer starts

    def test_every_hand_is_revealed_in_a_public_event(self) -> None:
        state = seed_example(0)
        reveal = next(e for e in reversed(state.events) if "hands:" in e.text)
        assert reveal.visible_to is None
        for cards in ("seat 0 AS AH X1 X2 (2)", "seat 1 2C 3H (5)", "seat 2 2S 2H 3S 3D (10)", "seat 3 4S 4H 9S (17)"):
            assert cards in reveal.text


# Two players: seat 0 calls Yaniv at once with 5 points, seat 1 adds its 10 points.
QUICK = {0: "X1 X2 AS AH 3S", 1: "3C 2D 2H 2S AD"}


def quick_round(totals: list[int], *more_decks: list[str]):
    state = new_match(deck(QUICK, "KC"), *more_decks, players=2, totals=totals)
    return play(state, "yaniv")


class TestHalving:
    def test_exactly_100_becomes_50(self) -> None:
        state = quick_round([0, 90])
        assert state.totals == [0, 50] and state.results[-1].halved == ("", "100->50")

    def test_exactly_50_becomes_25(self) -> None:
        state = quick_round([0, 40])
        assert state.totals == [0, 25] and state.results[-1].halved == ("", "50->25")

    def test_staying_on_50_after_100_to_50_halves_again_next_round(self) -> None:
        second = deck({0: "KS KH KD QS QH", 1: "X1 X2 AS AH 3S"}, "9C", "JS")
        state = quick_round([0, 90], second)
        assert state.starter == 0 and state.round_number == 2
        play(state, "discard KS KH KD", "draw stock", "yaniv")
        assert state.totals == [30, 25] and state.results[-1].halved == ("", "50->25")

    def test_adding_points_to_50_does_not_halve(self) -> None:
        second = deck({0: "X1 X2 AS AH 3S", 1: "3C 2D 2H 2S AD"}, "9C")
        state = play(quick_round([0, 90], second), "yaniv")
        assert state.totals == [0, 60] and state.results[-1].halved == ("", "")

    def test_reaching_0_then_50_in_one_round_is_one_halving(self) -> None:
        # 100 -> 50 in a round never goes on to 25 in the same round.
        state = quick_round([0, 90])
        assert state.totals[1] == 50


class TestElimination:
    def test_above_100_is_out_and_the_last_player_wins(self) -> None:
        state = quick_round([0, 95])
        assert state.out_round == [0, 1] and state.current_player() == TERMINAL
        outcome = state.outcome()
        assert outcome.ranking == (0, 1) and outcome.scores == (0.0, 105.0)
        assert outcome.termination is Termination.NORMAL

    def test_players_out_are_skipped_and_dealt_no_cards(self) -> None:
        hands = {0: "X1 X2 AS AH 3S", 1: "3C 2D 2H 2S AD", 2: "KS KH KD KC QS"}
        second = deck({0: "4S 4H 4D 4C 5S", 1: "6S 6H 6D 6C 7S"}, "9C", out=[2], players=3)
        state = new_match(deck(hands, "JC"), second, players=3, totals=[0, 0, 60])
        play(state, "yaniv")
        assert state.out_round == [0, 0, 1] and state.round_number == 2
        assert state.hands[2] == 0 and state.observe(0).hand_sizes == (5, 5, 0)
        play(state, "discard 4S 4H 4D 4C", "draw stock")
        assert state.current_player() == 1
        play(state, "discard 6S 6H 6D 6C", "draw stock")
        assert state.current_player() == 0


class TestNextStarter:
    def test_the_lowest_hand_starts_ties_going_to_the_first_after_the_declarer(self) -> None:
        hands = {1: "X1 AS AH KS KH", 2: "X2 AD QS QH QD", 0: "AC JS JH JD JC"}
        state = new_match(deck(hands, "5C", "2S 2H 2D", starter=1, players=3), players=3, first_player=1)
        play(state, "discard KS KH", "draw stock", "discard QS QH QD", "draw stock")
        play(state, "discard JS JH JD JC", "draw stock")
        play(state, "yaniv")
        result = state.results[-1]
        assert result.hand_values == (3, 4, 3) and result.assaf_by == (0, 2)
        assert state.starter == 2 and state.current_player() == 2

    def test_a_player_going_out_does_not_start_the_next_round_even_with_the_lowest_hand(self) -> None:
        hands = {0: "X1 AS AH KS KH", 1: "X2 AD QS QH QD", 2: "9S 9H 9D 9C 8S"}
        state = new_match(deck(hands, "5C", "2S 2H 8H"), players=3, totals=[0, 98, 0])
        play(state, "discard KS KH", "draw stock", "discard QS QH QD", "draw stock")
        play(state, "discard 9S 9H 9D 9C", "draw stock")
        play(state, "yaniv")
        result = state.results[-1]
        assert result.hand_values == (4, 3, 16) and result.eliminated == (1,)
        assert state.starter == 0 and state.current_player() == 0

    def test_after_the_turn_cap_the_player_to_move_stands_in_for_the_declarer(self) -> None:
        hands = {1: "KS 5S 4S 3S 2S", 2: "KD 5D 4D 3D 2D", 0: "KC 5C 4C 3C 2C"}
        state = new_match(deck(hands, "QH", "AS AD TC", starter=1, players=3), players=3, first_player=1,
                          max_turns_per_round=3)
        play(state, "discard KS", "draw stock", "discard KD", "draw stock", "discard KC", "draw stock")
        result = state.results[-1]
        assert result.kind == "cap" and result.declarer is None
        assert result.hand_values == (24, 15, 15) and result.round_scores == (24, 15, 15)
        assert state.starter == 1  # seats 1 and 2 tie; seat 1 was to move
        assert state.round_number == 2 and state.current_player() == 1

    def test_the_first_starter_comes_from_the_seed(self) -> None:
        from referee.games.yaniv import YanivGame

        starters = {YanivGame(num_players=8).new_initial_state(seed).starter for seed in range(40)}
        assert len(starters) > 3
        game = YanivGame(num_players=8)
        assert game.new_initial_state(5).starter == game.new_initial_state(5).starter


TIED = {0: "X1 X2 AS AH 3S", 1: "4D 2D 2H 2S 3C", 2: "4C 3D 3H AC 2C"}
"""Seat 0 calls Yaniv at once with 5; seats 1 and 2 hold 13 each."""


class TestCapsAndRanking:
    def test_the_round_cap_ranks_the_remaining_by_lower_total_with_ties(self) -> None:
        state = play(new_match(deck(TIED, "JC"), players=3, max_rounds=1), "yaniv")
        outcome = state.outcome()
        assert outcome.termination is Termination.CAP
        assert state.totals == [0, 13, 13] and outcome.ranking == (0, 1, 1)

    def test_players_out_in_the_same_round_with_equal_totals_tie(self) -> None:
        state = play(new_match(deck(TIED, "JC"), players=3, totals=[0, 90, 90]), "yaniv")
        assert state.outcome().ranking == (0, 1, 1) and state.out_round == [0, 1, 1]

    def test_later_out_ranks_higher(self) -> None:
        hands = {0: "X1 X2 AS AH 3S", 1: "3C 2D 2H 2S AD", 2: "KS KH KD KC QS"}
        second = deck({0: "X1 X2 AS AH 3S", 1: "KS KH KD KC QS"}, "9C", out=[2], players=3)
        state = new_match(deck(hands, "JC"), second, players=3, totals=[0, 80, 95])
        play(state, "yaniv")
        assert state.out_round == [0, 0, 1] and state.totals == [0, 90, 145]
        play(state, "yaniv")
        outcome = state.outcome()
        assert state.out_round == [0, 2, 1] and outcome.ranking == (0, 1, 2)

    def test_when_all_remaining_go_out_together_the_lowest_totals_win(self) -> None:
        hands = {0: "KS 2S 3S 4S 5S", 1: "KD 2D 3D 4D 5D"}
        state = new_match(deck(hands, "QH", "AH AD"), players=2, totals=[95, 95], max_turns_per_round=2)
        play(state, "discard KS", "draw stock", "discard KD", "draw stock")
        assert state.out_round == [1, 1] and state.totals == [110, 110]
        assert state.outcome().ranking == (0, 0)

    def test_all_out_together_with_different_totals(self) -> None:
        hands = {0: "KS 2S 3S 4S 5S", 1: "KD 2D 3D 4D 6D"}
        state = new_match(deck(hands, "QH", "AH AD"), players=2, totals=[95, 95], max_turns_per_round=2)
        play(state, "discard KS", "draw stock", "discard KD", "draw stock")
        assert state.totals == [110, 111] and state.outcome().ranking == (0, 1)
