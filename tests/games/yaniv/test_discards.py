"""Hand values and the valid discards: sets, runs, jokers, the ace low, distinct meanings."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.yaniv import hand_value, valid_discards

RANKS = "A23456789TJQK"
DECK = [r + s for r in RANKS for s in "SHDC"] + ["X1", "X2"]


def groups(hand: str) -> set[tuple[str, ...]]:
    found = {tuple(group) for group in valid_discards(hand)}
    assert len(found) == len(valid_discards(hand)), "each discard is listed once"
    return found


def g(text: str) -> tuple[str, ...]:
    return tuple(text.split())


class TestHandValue:
    def test_the_seeds_example_hand_is_26(self) -> None:
        assert hand_value(["X1", "AH", "5S", "TD", "QC"]) == 26

    def test_face_cards_are_10_and_jokers_0(self) -> None:
        assert hand_value("JS QH KD TC") == 40
        assert hand_value("X1 X2") == 0
        assert hand_value([]) == 0

    def test_a_repeated_or_bad_card_is_refused(self) -> None:
        with pytest.raises(ValueError):
            hand_value("AS AS")
        with pytest.raises(ValueError):
            hand_value("1S")


class TestSetsAndSingles:
    def test_singles_and_a_pair_in_both_orders(self) -> None:
        assert groups("5S 5H KD") == {g("5S"), g("5H"), g("KD"), g("5S 5H"), g("5H 5S")}

    def test_a_joker_alone_is_one_discard_whichever_joker(self) -> None:
        assert g("X1") in groups("X1 X2 KD") and g("X2") not in groups("X1 X2 KD")
        assert g("X2") in groups("X2 KD")

    def test_jokers_alone_are_no_set(self) -> None:
        assert groups("X1 X2") == {g("X1")}

    def test_a_joker_stands_in_a_set(self) -> None:
        found = groups("TS X1 TD")
        assert {g("TS X1"), g("X1 TS"), g("TS X1 TD"), g("TD X1 TS"), g("X1 TS TD"), g("TS TD X1")} <= found

    def test_set_orders_differing_only_in_the_middle_are_one_discard(self) -> None:
        found = groups("7S 7H 7D 7C")
        fours = [group for group in found if len(group) == 4]
        assert len(fours) == 12  # 4 first cards x 3 last cards; the middle two in one order
        assert g("7S 7H 7D 7C") in found and g("7S 7D 7H 7C") not in found

    def test_two_jokers_in_a_set_are_placed_x1_first(self) -> None:
        found = groups("9S X1 X2")
        assert {g("X1 9S X2"), g("9S X1 X2"), g("X1 X2 9S")} <= found
        assert g("X2 9S X1") not in found and g("X2 X1 9S") not in found


class TestRuns:
    def test_a_run_lands_lowest_first_and_goes_up_only(self) -> None:
        found = groups("5H 6H 7H")
        assert g("5H 6H 7H") in found and g("7H 6H 5H") not in found

    def test_runs_need_one_suit_and_three_cards(self) -> None:
        assert g("5H 6H 7S") not in groups("5H 6H 7S")
        assert not [group for group in groups("5H 6H") if len(group) == 2]

    def test_the_ace_is_low_only(self) -> None:
        assert g("AS 2S 3S") in groups("AS 2S 3S")
        assert not [group for group in groups("QS KS AS") if len(group) == 3]
        assert g("JS QS KS") in groups("JS QS KS")

    def test_no_q_k_a_even_with_a_joker(self) -> None:
        found = groups("QS KS X1")
        assert g("JS QS KS") not in found
        assert g("X1 QS KS") in found  # the joker as the jack
        assert g("QS KS X1") not in found  # the joker cannot be an ace above the king

    def test_a_joker_in_the_middle_of_a_run(self) -> None:
        assert g("AC 2C X1 4C") in groups("AC 2C X1 4C")
        assert g("5H X2 7H") in groups("5H X2 7H")

    def test_a_joker_at_either_end_is_a_distinct_meaning(self) -> None:
        found = groups("5H 6H X1")
        assert {g("X1 5H 6H"), g("5H 6H X1")} <= found

    def test_two_jokers_with_one_card_at_each_place(self) -> None:
        found = groups("5H X1 X2")
        assert {g("X1 X2 5H"), g("X1 5H X2"), g("5H X1 X2")} <= found
        # X1 5H X2 is both the set 5-5-5 and the run 4-5-6: listed once (checked by groups()).

    def test_a_joker_may_stand_for_a_held_card(self) -> None:
        assert g("5H X1 7H") in groups("5H 6H 7H X1")

    def test_a_run_below_the_ace_is_impossible(self) -> None:
        found = groups("AS 2S X1")
        assert g("AS 2S X1") in found and g("X1 AS 2S") not in found


# --- an exhaustive, deliberately plain reference ------------------------------------------------

def _rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def _is_valid(order: tuple[str, ...]) -> bool:
    naturals = [c for c in order if c[0] != "X"]
    if len(order) == 1:
        return True
    if not naturals:
        return False
    if len({_rank(c) for c in naturals}) == 1:
        return True
    if len(order) < 3 or len({c[1] for c in naturals}) != 1:
        return False
    first = next(i for i, c in enumerate(order) if c[0] != "X")
    start = _rank(order[first]) - first
    return (start >= 1 and start + len(order) - 1 <= 13
            and all(_rank(c) == start + i for i, c in enumerate(order) if c[0] != "X"))


def _canonical(order: tuple[str, ...], jokers: list[str]) -> tuple[str, ...]:
    """The held jokers placed lowest-numbered first, left to right; a set's middle sorted as
    the engine lists it."""
    tokens = ["X" if c[0] == "X" else c for c in order]
    naturals = [c for c in order if c[0] != "X"]
    if len(order) > 2 and len({_rank(c) for c in naturals}) == 1 and not _is_run(order):
        middle = sorted(tokens[1:-1], key=lambda c: -1 if c == "X" else DECK.index(c))
        tokens = [tokens[0], *middle, tokens[-1]]
    out, k = [], 0
    for c in tokens:
        if c == "X":
            out.append(jokers[k])
            k += 1
        else:
            out.append(c)
    return tuple(out)


def _is_run(order: tuple[str, ...]) -> bool:
    naturals = [c for c in order if c[0] != "X"]
    return len(naturals) >= 2 and len({_rank(c) for c in naturals}) > 1


def reference(hand: list[str]) -> set[tuple[str, ...]]:
    found = set()
    jokers = sorted(c for c in hand if c[0] == "X")
    for size in range(1, len(hand) + 1):
        for subset in combinations(hand, size):
            for order in permutations(subset):
                if _is_valid(order):  # jokers are interchangeable: the canonical form picks them
                    found.add(_canonical(order, jokers))
    return found


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=5, unique=True))
def test_valid_discards_match_an_exhaustive_reference(hand: list[str]) -> None:
    assert groups(" ".join(hand)) == reference(hand)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.sampled_from(DECK[:8] + DECK[-2:]), min_size=3, max_size=5, unique=True))
def test_valid_discards_match_the_reference_on_joker_heavy_hands(hand: list[str]) -> None:
    assert groups(" ".join(hand)) == reference(hand)
