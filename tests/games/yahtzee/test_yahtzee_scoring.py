"""Box scores, bonuses and totals of both variants (docs/rules/yahtzee.md), via the public
checking functions."""

from __future__ import annotations

import pytest

from referee.games.yahtzee import card_total, delta, fillable_boxes, score_box, upper_bonus, yahtzee_bonus
from referee.games.yahtzee_scoring import YAHTZEE_BOXES, YAMS_BOXES, reroll_choices


class TestSeedExamples:
    def test_threes_counts_only_threes(self) -> None:
        assert score_box("yahtzee", "threes", (1, 3, 3, 3, 6)) == 9
        assert score_box("yahtzee", "ones", (1, 3, 3, 3, 6)) == 1
        assert score_box("yahtzee", "fives", (1, 3, 3, 3, 6)) == 0

    def test_three_of_a_kind_scores_all_dice(self) -> None:
        assert score_box("yahtzee", "three_kind", (2, 2, 2, 4, 5)) == 15

    def test_four_of_a_kind_scores_all_dice(self) -> None:
        assert score_box("yahtzee", "four_kind", (5, 5, 5, 4, 5)) == 24

    def test_chance_example(self) -> None:
        assert score_box("yahtzee", "chance", (1, 5, 3, 4, 6)) == 19

    def test_second_yahtzee_of_fives_scores_fives_plus_bonus(self) -> None:
        card = {"yahtzee": 50}
        assert score_box("yahtzee", "fives", (5, 5, 5, 5, 5), card) == 25
        assert yahtzee_bonus("yahtzee", (5, 5, 5, 5, 5), card) == 100

    def test_yams_upper_bonus_example_65(self) -> None:
        card = {"sixes": 30, "fives": 25, "fours": 8, "ones": 2}
        assert upper_bonus("yams", card) == 35


@pytest.mark.parametrize("variant", ["yahtzee", "yams"])
class TestUpperBoxes:
    @pytest.mark.parametrize(("box", "expected"), [("ones", 2), ("twos", 2), ("threes", 0), ("fours", 4),
                                                   ("fives", 0), ("sixes", 6)])
    def test_upper_box_sums_its_face(self, variant: str, box: str, expected: int) -> None:
        assert score_box(variant, box, (1, 1, 2, 4, 6)) == expected

    def test_order_of_dice_does_not_matter(self, variant: str) -> None:
        for box in (YAHTZEE_BOXES if variant == "yahtzee" else YAMS_BOXES):
            assert score_box(variant, box, (6, 2, 4, 3, 5)) == score_box(variant, box, (2, 3, 4, 5, 6))


class TestYahtzeeLowerBoxes:
    @pytest.mark.parametrize(("box", "dice", "expected"), [
        ("three_kind", (2, 2, 2, 4, 5), 15),
        ("three_kind", (2, 2, 4, 4, 5), 0),
        ("three_kind", (6, 6, 6, 6, 1), 25),
        ("three_kind", (3, 3, 3, 3, 3), 15),
        ("four_kind", (6, 6, 6, 6, 1), 25),
        ("four_kind", (6, 6, 6, 1, 1), 0),
        ("four_kind", (2, 2, 2, 2, 2), 10),
        ("full_house", (3, 3, 3, 6, 6), 25),
        ("full_house", (3, 3, 6, 6, 6), 25),
        ("full_house", (3, 3, 3, 3, 6), 0),
        ("full_house", (3, 3, 3, 3, 3), 0),
        ("small_straight", (1, 2, 3, 4, 4), 30),
        ("small_straight", (2, 3, 4, 5, 1), 30),
        ("small_straight", (3, 4, 5, 6, 6), 30),
        ("small_straight", (1, 2, 3, 5, 6), 0),
        ("small_straight", (1, 2, 3, 4, 5), 30),
        ("large_straight", (2, 3, 4, 5, 6), 40),
        ("large_straight", (1, 2, 3, 4, 5), 40),
        ("large_straight", (1, 2, 3, 4, 6), 0),
        ("large_straight", (1, 2, 3, 4, 4), 0),
        ("yahtzee", (1, 1, 1, 1, 1), 50),
        ("yahtzee", (1, 1, 1, 1, 2), 0),
        ("chance", (6, 6, 6, 6, 6), 30),
    ])
    def test_box(self, box: str, dice: tuple[int, ...], expected: int) -> None:
        assert score_box("yahtzee", box, dice) == expected


class TestYamsLowerBoxes:
    @pytest.mark.parametrize(("box", "dice", "expected"), [
        ("plus", (1, 2, 3, 6, 6), 18),
        ("minus", (1, 1, 1, 2, 2), 7),
        ("four_kind", (4, 4, 4, 4, 1), 57),
        ("four_kind", (4, 4, 4, 4, 4), 60),
        ("four_kind", (4, 4, 4, 1, 1), 0),
        ("full_house", (2, 2, 5, 5, 5), 49),
        ("full_house", (2, 2, 2, 2, 5), 0),
        ("full_house", (5, 5, 5, 5, 5), 0),
        ("small_straight", (1, 2, 3, 4, 6), 45),
        ("small_straight", (3, 4, 5, 6, 6), 45),
        ("small_straight", (1, 2, 4, 5, 6), 0),
        ("large_straight", (1, 2, 3, 4, 5), 50),
        ("large_straight", (2, 3, 4, 5, 6), 50),
        ("large_straight", (1, 3, 4, 5, 6), 0),
        ("yahtzee", (6, 6, 6, 6, 6), 80),
        ("yahtzee", (1, 1, 1, 1, 1), 55),
        ("yahtzee", (6, 6, 6, 6, 5), 0),
        ("rigole", (5, 5, 5, 5, 2), 50),
        ("rigole", (1, 6, 6, 6, 6), 50),
        ("rigole", (3, 3, 3, 3, 4), 50),
        ("rigole", (5, 5, 5, 5, 3), 0),
        ("rigole", (5, 5, 5, 2, 2), 0),
        ("rigole", (4, 4, 4, 4, 4), 0),
    ])
    def test_box(self, box: str, dice: tuple[int, ...], expected: int) -> None:
        assert score_box("yams", box, dice) == expected


class TestJokerScoring:
    def test_lower_boxes_score_full_value_with_50_in_yahtzee(self) -> None:
        card = {"yahtzee": 50, "fours": 12}
        dice = (4, 4, 4, 4, 4)
        assert {box: score_box("yahtzee", box, dice, card) for box in YAHTZEE_BOXES[6:]} == {
            "three_kind": 20, "four_kind": 20, "full_house": 25, "small_straight": 30,
            "large_straight": 40, "yahtzee": 50, "chance": 20}

    def test_upper_box_of_another_face_scores_0(self) -> None:
        assert score_box("yahtzee", "twos", (4, 4, 4, 4, 4), {"yahtzee": 50}) == 0

    def test_no_joker_when_yahtzee_box_holds_0(self) -> None:
        card = {"yahtzee": 0}
        dice = (4, 4, 4, 4, 4)
        assert score_box("yahtzee", "full_house", dice, card) == 0
        assert score_box("yahtzee", "large_straight", dice, card) == 0
        assert yahtzee_bonus("yahtzee", dice, card) == 0

    def test_no_joker_while_yahtzee_box_is_empty(self) -> None:
        assert score_box("yahtzee", "small_straight", (4, 4, 4, 4, 4)) == 0
        assert yahtzee_bonus("yahtzee", (4, 4, 4, 4, 4)) == 0

    def test_yams_has_no_joker_nor_bonus(self) -> None:
        card = {"yahtzee": 70}
        assert score_box("yams", "full_house", (4, 4, 4, 4, 4), card) == 0
        assert score_box("yams", "small_straight", (4, 4, 4, 4, 4), card) == 0
        assert yahtzee_bonus("yams", (4, 4, 4, 4, 4), card) == 0

    def test_no_bonus_without_a_yahtzee(self) -> None:
        assert yahtzee_bonus("yahtzee", (4, 4, 4, 4, 3), {"yahtzee": 50}) == 0

    def test_fillable_boxes_forced_upper(self) -> None:
        assert fillable_boxes("yahtzee", (3, 3, 3, 3, 3), {"yahtzee": 50}) == ("threes",)

    def test_fillable_boxes_lower_when_upper_full(self) -> None:
        card = {"yahtzee": 50, "threes": 9, "chance": 20}
        assert fillable_boxes("yahtzee", (3, 3, 3, 3, 3), card) == (
            "three_kind", "four_kind", "full_house", "small_straight", "large_straight")

    def test_fillable_boxes_upper_when_lower_full(self) -> None:
        card = {box: 0 for box in YAHTZEE_BOXES[6:]} | {"yahtzee": 50, "threes": 9, "ones": 3}
        assert fillable_boxes("yahtzee", (3, 3, 3, 3, 3), card) == ("twos", "fours", "fives", "sixes")

    def test_fillable_boxes_without_joker_are_the_empty_boxes(self) -> None:
        card = {"yahtzee": 0, "chance": 20}
        assert fillable_boxes("yahtzee", (3, 3, 3, 3, 3), card) == tuple(
            box for box in YAHTZEE_BOXES if box not in card)


class TestUpperBonus:
    @pytest.mark.parametrize(("upper", "expected"), [(62, 0), (63, 35), (64, 35), (0, 0)])
    def test_yahtzee_bonus_from_63(self, upper: int, expected: int) -> None:
        card = _upper_card(upper)
        assert upper_bonus("yahtzee", card) == expected
        assert card_total("yahtzee", card) == upper + expected

    @pytest.mark.parametrize(("upper", "expected"), [(59, 0), (60, 30), (61, 31), (75, 45)])
    def test_yams_bonus_from_60(self, upper: int, expected: int) -> None:
        card = _upper_card(upper)
        assert upper_bonus("yams", card) == expected
        assert card_total("yams", card) == upper + expected


def _upper_card(upper: int) -> dict[str, int]:
    """Upper boxes adding up to ``upper`` (at most 105), each a reachable score."""
    card = {}
    left = upper
    for face, box in reversed(list(enumerate(("ones", "twos", "threes", "fours", "fives", "sixes"), 1))):
        count = min(5, left // face)
        card[box] = face * count
        left -= face * count
    assert left == 0, upper
    return card


class TestTotals:
    def test_yams_delta_may_be_negative(self) -> None:
        card = {"plus": 8, "minus": 27, "sixes": 12}
        assert delta("yams", card) == -19
        assert card_total("yams", card) == 12 - 19

    def test_yams_plus_and_minus_count_only_through_delta(self) -> None:
        assert card_total("yams", {"plus": 28}) == 0
        assert card_total("yams", {"plus": 28, "minus": 7}) == 21

    def test_yams_full_card(self) -> None:
        card = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                "plus": 25, "minus": 9, "four_kind": 0, "full_house": 49, "small_straight": 45,
                "large_straight": 0, "yahtzee": 70, "rigole": 50}
        assert card_total("yams", card) == 63 + 33 + 16 + 49 + 45 + 70 + 50

    def test_yahtzee_full_card_with_bonus(self) -> None:
        card = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
                "three_kind": 20, "four_kind": 0, "full_house": 25, "small_straight": 30,
                "large_straight": 40, "yahtzee": 50, "chance": 22}
        assert card_total("yahtzee", card, yahtzee_bonus=200) == 63 + 35 + 187 + 200

    def test_delta_is_0_in_yahtzee(self) -> None:
        assert delta("yahtzee", {"chance": 10}) == 0


class TestErrors:
    @pytest.mark.parametrize("call", [
        lambda: score_box("poker", "ones", (1, 2, 3, 4, 5)),
        lambda: score_box("yahtzee", "rigole", (1, 2, 3, 4, 5)),
        lambda: score_box("yams", "chance", (1, 2, 3, 4, 5)),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4)),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4, 7)),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4, 0)),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4, 2.0)),
        lambda: score_box("yahtzee", "ones", 12345),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4, 5), {"plus": 3}),
        lambda: score_box("yahtzee", "ones", (1, 2, 3, 4, 5), {"ones": -1}),
        lambda: yahtzee_bonus("yams", (1, 1, 1, 1), None),
        lambda: card_total("yams", {}, yahtzee_bonus=100),
        lambda: card_total("yahtzee", {}, yahtzee_bonus=50),
    ])
    def test_value_error(self, call) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(ValueError):
            call()

    def test_message_names_the_box(self) -> None:
        with pytest.raises(ValueError, match="yahtzee has no box 'rigole'"):
            score_box("yahtzee", "rigole", (1, 2, 3, 4, 5))


class TestRerollChoices:
    def test_all_distinct_values(self) -> None:
        assert len(reroll_choices((1, 2, 3, 4, 5))) == 31

    def test_five_equal(self) -> None:
        assert reroll_choices((6, 6, 6, 6, 6)) == [(6,), (6, 6), (6, 6, 6), (6, 6, 6, 6), (6, 6, 6, 6, 6)]

    def test_equivalent_rerolls_collapse(self) -> None:
        choices = reroll_choices((1, 3, 3, 5, 6))
        assert len(choices) == len(set(choices)) == 2 * 3 * 2 * 2 - 1
