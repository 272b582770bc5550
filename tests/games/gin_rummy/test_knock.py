"""Settling a knock: knock, undercut, gin, big gin and lay-offs (``score_knock``)."""

from __future__ import annotations

import pytest

from referee.games.gin_rummy import KnockScore, score_knock


def _texts(cards: tuple[object, ...]) -> str:
    return " ".join(map(str, cards))


class TestKnock:
    def test_knocker_lower_scores_the_difference(self) -> None:
        # Knocker: A-2-3S, 4-5-6H, 7C 7D 7S, deadwood 2D = 2.  Defender: nothing melds, no
        # lay-off fits: K K Q Q J J T 9 8 3 = 90.
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "KS KH QD QC JD JC TS 9H 8D 3C")
        assert (score.kind, score.winner, score.points) == ("knock", "knocker", 88)
        assert (score.knocker_deadwood, score.defender_deadwood) == (2, 90)
        assert _texts(score.knocker_unmatched) == "2D"
        assert score.layoffs == ()

    def test_defender_melds_count_before_comparing(self) -> None:
        # Defender: K K K and T-J-Q of clubs meld, leaving 9H 8D 3C 4C = 24.
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "KS KH KD QC JC TC 9H 8D 3C 4C")
        assert (score.kind, score.points, score.defender_deadwood) == ("knock", 22, 24)
        assert {_texts(m) for m in score.defender_melds} == {"KS KH KD", "TC JC QC"}

    def test_knock_limit_is_checked(self) -> None:
        with pytest.raises(ValueError, match="deadwood 10 is above the knock limit 9"):
            score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S JD", "KS KH QD QC 2D JC TS 9H 8D 3C", knock_limit=9)

    def test_returns_a_knock_score(self) -> None:
        assert isinstance(score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "KS KH QD QC JD JC TS 9H 8D 3C"), KnockScore)


class TestUndercut:
    def test_defender_lower_scores_difference_plus_25(self) -> None:
        # Knocker deadwood 4 (4D).  Defender: 9-T-J spades, Q Q Q, K K K and 2H (2), which
        # lays off nowhere (3H would): the defender scores 4 - 2 + 25.
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 4D", "9S TS JS QS QH QD KH KD KC 2H")
        assert (score.knocker_deadwood, score.defender_deadwood) == (4, 2)
        assert (score.kind, score.winner, score.points) == ("undercut", "defender", 27)

    def test_equal_deadwood_is_an_undercut(self) -> None:
        # Knocker: 3 melds + 8D (8).  Defender: 3 melds + 8H (8) -> defender scores 0 + 25.
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 8D", "9S 9H 9D TC JC QC KS KH KD 8H")
        assert (score.kind, score.winner, score.points) == ("undercut", "defender", 25)

    def test_lay_offs_can_turn_a_knock_into_an_undercut(self) -> None:
        # Knocker deadwood 5 (5C).  Defender: runs 4-5-6S and 8-9-TD, then 3H 7H AC 2D = 13;
        # 3H and 7H lay off on 4-5-6H, leaving AC 2D = 3: an undercut.
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 5C", "4S 5S 6S 7H 3H AC 2D 8D 9D TD")
        assert _texts(score.layoffs) == "3H 7H"
        assert (score.kind, score.winner, score.points) == ("undercut", "defender", 5 - 3 + 25)


class TestGin:
    def test_gin_scores_deadwood_plus_25(self) -> None:
        score = score_knock("AS 2S 3S 4H 5H 6H 7C 7D 7S 7H", "KS KH QD QC JD JC TS 9H 8D 3C")
        assert (score.kind, score.winner, score.points) == ("gin", "knocker", 90 + 25)

    def test_no_lay_off_after_gin(self) -> None:
        # 4S would extend A-2-3S and 8H the run 5-6-7H: not after gin.
        score = score_knock("AS 2S 3S 5H 6H 7H 9C 9D 9S 9H", "4S 8H QD QC JD JC TS KH 8D 3C")
        assert score.layoffs == ()
        assert score.defender_deadwood == 4 + 8 + 10 + 10 + 10 + 10 + 10 + 10 + 8 + 3
        assert score.points == score.defender_deadwood + 25

    def test_gin_is_never_undercut(self) -> None:
        score = score_knock("AS 2S 3S 5H 6H 7H 9C 9D 9S 9H", "4C 5C 6C JD JC JH 8D 8C 8S 8H")
        assert score.defender_deadwood == 0
        assert (score.kind, score.winner, score.points) == ("gin", "knocker", 25)


class TestBigGin:
    def test_eleven_melded_cards_score_deadwood_plus_31(self) -> None:
        score = score_knock("AS 2S 3S 4S 5H 6H 7H 9C 9D 9S 9H", "KS KH QD QC JD JC TS 3H 8D 3C")
        assert (score.kind, score.winner) == ("big_gin", "knocker")
        assert score.points == 10 + 10 + 10 + 10 + 10 + 10 + 10 + 3 + 8 + 3 + 31
        assert score.layoffs == ()

    def test_eleven_cards_must_all_meld(self) -> None:
        with pytest.raises(ValueError, match="big gin needs all 11 cards melded"):
            score_knock("AS 2S 3S 4S 5H 6H 7H 9C 9D 9S KH", "KS QH QD QC JD JC TS 3H 8D 3C")


class TestLayOff:
    def test_run_extended_at_both_ends_repeatedly(self) -> None:
        # Knocker run 5-6-7H: the defender adds 4H then 3H below, 8H then 9H above.
        score = score_knock("5H 6H 7H QS QD QC 2C 3C 4C AD", "3H 4H 8H 9H KS KD 5S 7D 9D JC")
        assert _texts(score.layoffs) == "3H 4H 8H 9H"
        assert score.defender_deadwood == 10 + 10 + 5 + 7 + 9 + 10
        assert (score.kind, score.points) == ("knock", 51 - 1)

    def test_fourth_card_lays_off_on_a_set(self) -> None:
        score = score_knock("8S 8H 8D 2C 3C 4C JS QS KS AD", "8C 4D 5D 9H TH 2S 3H 5S 6C 7D")
        assert _texts(score.layoffs) == "8C"

    def test_nothing_lays_off_on_a_set_of_four(self) -> None:
        score = score_knock("8S 8H 8D 8C 2C 3C 4C AH 2D AD", "KS 4D 5D 9H TH 2S 3H 5S 6C 7D")
        assert score.knocker_deadwood == 4
        assert score.layoffs == ()

    def test_chain_through_a_card_that_also_fits_a_set(self) -> None:
        # 7C completes the knocker's 7s and extends 4-5-6C; laid on the run it makes room for 8C.
        score = score_knock("7S 7H 7D 4C 5C 6C JS QS KS AD", "7C 8C 2D 3H 9H TH 2S 5S 4D QD")
        assert _texts(score.layoffs) == "7C 8C"

    def test_defender_breaks_a_meld_when_laying_off_is_better(self) -> None:
        # Defender 8H 9H TH is a run, but 8H 9H lay off on 5-6-7H and TH too: all three go.
        score = score_knock("5H 6H 7H QS QD QC 2C 3C 4C AD", "8H 9H TH KS KD 5S 7D 9D JC 2D")
        assert score.defender_deadwood == 10 + 10 + 5 + 7 + 9 + 10 + 2

    def test_knocker_arrangement_leaves_the_fewest_lay_off_points(self) -> None:
        # 3-4-5 of spades, hearts and diamonds: three sets or three runs (both deadwood 10).
        # As runs the defender would lay off 6S (6); as sets only 3C (3): the engine shows sets.
        score = score_knock("3S 4S 5S 3H 4H 5H 3D 4D 5D KC", "3C 6S KH QS JD 9C 2C 8H TD 7C")
        assert {_texts(m) for m in score.knocker_melds} == {"3S 3H 3D", "4S 4H 4D", "5S 5H 5D"}
        assert _texts(score.layoffs) == "3C"
        assert score.defender_deadwood == 75 - 3
        assert score.points == 72 - 10


class TestBadInput:
    @pytest.mark.parametrize("knocker, defender, message", [
        ("AS 2S 3S", "KS KH QD QC JD JC TS 9H 8D 3C", "the knocker holds 10 cards"),
        ("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "KS KH QD", "the defender holds 10 cards"),
        ("AS 2S 3S 4H 5H 6H 7C 7D 7S 2D", "AS KH QD QC JD JC TS 9H 8D 3C", "cards in both hands: AS"),
        ("AS 2S 3S 4H 5H 6H 7C 7D 7S 7S", "KS KH QD QC JD JC TS 9H 8D 3C", "given twice"),
        ("AS 2S 3S 4H 5H 6H 7C 7D 7S ZZ", "KS KH QD QC JD JC TS 9H 8D 3C", "not a Gin Rummy card"),
        ("AS 2S 3S 4H 5H 6H 7C 7D KS QS", "KH QH QD QC JD JC TS 9H 8D 3C", "above the knock limit"),
    ])
    def test_bad_hands_raise_value_error(self, knocker: str, defender: str, message: str) -> None:
        with pytest.raises(ValueError, match=message):
            score_knock(knocker, defender)
