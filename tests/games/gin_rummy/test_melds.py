"""Deadwood and meld search, checked against an exhaustive search."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games import gin_rummy_melds as gm
from referee.games.gin_rummy import deadwood

from .helpers import ALL_CARDS, brute_deadwood, rank

@st.composite
def dense_hands(draw: st.DrawFn, min_size: int = 0, max_size: int = 11) -> list[str]:
    """Hands drawn from a few neighbouring ranks, so that melds are common."""
    low = draw(st.integers(0, 8))
    width = draw(st.integers(3, 5))
    pool = [c for c in ALL_CARDS if low <= rank(c) - 1 < low + width]
    size = draw(st.integers(min_size, min(max_size, len(pool))))
    return draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))


class TestDeadwoodExamples:
    def test_issue_example(self) -> None:
        assert deadwood(["AS", "2S", "3S", "KD"]) == 10

    def test_empty_hand_has_no_deadwood(self) -> None:
        assert deadwood([]) == 0

    def test_set_of_four_and_run(self) -> None:
        assert deadwood("7S 7H 7D 7C 8S 9S TS") == 0

    def test_king_ace_does_not_connect(self) -> None:
        assert deadwood("QS KS AS") == 21

    def test_card_shared_by_a_set_and_a_run_counts_once(self) -> None:
        # 7S fits 7S-8S-9S and 7S 7H 7D; the best arrangement leaves 7H 7D (14) or 8S 9S (17).
        assert deadwood("7S 8S 9S 7H 7D") == 14

    def test_two_runs_or_three_sets(self) -> None:
        assert deadwood("3S 4S 5S 3H 4H 5H 3D 4D 5D KC") == 10

    def test_full_deck_melds_completely(self) -> None:
        assert deadwood(ALL_CARDS) == 0

    def test_accepts_card_objects(self) -> None:
        assert deadwood(gm.to_cards(gm.to_mask("AS 2S 3S KD"))) == 10

    @pytest.mark.parametrize("bad, message", [(["AS", "AS"], "twice"), (["1S"], "not a Gin Rummy card"),
                                              (["X1"], "not a Gin Rummy card"), (["as"], "not a Gin Rummy card")])
    def test_bad_input_is_refused(self, bad: list[str], message: str) -> None:
        with pytest.raises(ValueError, match=message):
            deadwood(bad)


class TestDeadwoodAgainstExhaustiveSearch:
    @settings(max_examples=300, deadline=None)
    @given(dense_hands())
    def test_deadwood_is_minimal(self, hand: list[str]) -> None:
        assert deadwood(hand) == brute_deadwood(hand)

    @settings(max_examples=40, deadline=None)
    @given(st.lists(st.sampled_from(ALL_CARDS), min_size=0, max_size=11, unique=True))
    def test_deadwood_of_random_hands(self, hand: list[str]) -> None:
        assert deadwood(hand) == brute_deadwood(hand)

    @settings(max_examples=10, deadline=None)
    @given(dense_hands(min_size=12, max_size=14))
    def test_deadwood_of_more_than_eleven_cards(self, hand: list[str]) -> None:
        assert deadwood(hand) == brute_deadwood(hand)

    @settings(max_examples=60, deadline=None)
    @given(dense_hands(min_size=11, max_size=11))
    def test_every_discard_of_an_eleven_card_hand(self, hand: list[str]) -> None:
        own, after = gm.discard_deadwoods(gm.to_mask(hand), 1000)
        assert own == brute_deadwood(hand)
        for card, dw in after:
            rest = [c for c in hand if c != gm.TEXTS[card]]
            assert dw == brute_deadwood(rest)

    @settings(max_examples=60, deadline=None)
    @given(dense_hands(min_size=11, max_size=11), st.integers(0, 10))
    def test_discard_deadwoods_skips_only_hopeless_discards(self, hand: list[str], limit: int) -> None:
        own, after = gm.discard_deadwoods(gm.to_mask(hand), limit)
        exact = {card: deadwood([c for c in hand if c != card]) for card in hand}
        if after is None:
            assert own is None and min(exact.values()) > limit
        else:
            assert own == deadwood(hand)
            assert {gm.TEXTS[card]: dw for card, dw in after} == exact


class TestMeldSearch:
    def test_finds_sub_runs_and_sub_sets(self) -> None:
        melds = {gm.to_cards(m) and " ".join(map(str, gm.to_cards(m))) for m in gm.find_melds(gm.to_mask(
            "4S 5S 6S 7S 9H 9D 9C 9S"))}
        assert melds == {"4S 5S 6S", "5S 6S 7S", "4S 5S 6S 7S", "9S 9H 9D 9C", "9H 9D 9C", "9S 9D 9C",
                         "9S 9H 9C", "9S 9H 9D"}

    def test_deck_has_65_sets_and_264_runs(self) -> None:
        runs = [m for m in gm.MELD_VALUES if gm.is_run(m)]
        assert len(runs) == 264 and len(gm.MELD_VALUES) - len(runs) == 65

    def test_packings_start_with_the_empty_one(self) -> None:
        assert gm.packings(gm.to_mask("AS 2S 3S"))[0] == ()
        assert len(gm.packings(gm.to_mask("AS 2S 3S"))) == 2
