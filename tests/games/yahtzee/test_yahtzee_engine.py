"""The engine driven through scripted dice: turn flow, the joker rule's forced boxes, the
end of the game and the ranking (docs/rules/yahtzee.md)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from referee.games import game_class, make_game
from referee.games.base import CHANCE, TERMINAL, IllegalActionError, InvalidActionError, SettingsError
from referee.games.yahtzee import (
    Reroll,
    Score,
    YahtzeeGame,
    YahtzeeObservation,
    YahtzeeState,
    parse_action,
)
from referee.games.yahtzee_scoring import YAHTZEE_BOXES, YAMS_BOXES

PLAIN = (1, 2, 2, 3, 5)
"""A roll that is no Yahtzee, used to fill boxes the test does not care about."""


def new_state(rolls: Sequence[Sequence[int]], *, variant: str = "yahtzee", players: int = 1,
              seed: int = 0) -> YahtzeeState:
    return YahtzeeGame(variant=variant, num_players=players).new_initial_state(seed, dice_source=rolls)


def score_in(state: YahtzeeState, box: str) -> Score:
    """Fill ``box`` through its legal action, and return that action."""
    (action,) = [a for a in state.legal_actions() if isinstance(a, Score) and a.box == box]
    state.apply(action)
    return action


def scores(state: YahtzeeState) -> list[Score]:
    return [a for a in state.legal_actions() if isinstance(a, Score)]


class TestGame:
    def test_registered_metadata(self) -> None:
        cls = game_class("yahtzee")
        assert cls is YahtzeeGame
        assert (cls.name, cls.variants, cls.min_players, cls.max_players, cls.default_players) == (
            "yahtzee", ("yahtzee", "yams"), 1, 8, 2)
        game = make_game("yahtzee")
        assert (game.variant, game.num_players, game.settings) == ("yahtzee", 2, {})

    @pytest.mark.parametrize("kwargs", [{"num_players": 0}, {"num_players": 9}, {"variant": "kniffel"},
                                        {"settings": {"rounds": 3}}])
    def test_bad_configuration(self, kwargs: dict) -> None:  # type: ignore[type-arg]
        with pytest.raises(SettingsError):
            YahtzeeGame(**kwargs)

    def test_same_seed_same_first_roll(self) -> None:
        game = YahtzeeGame()
        assert game.new_initial_state(7).dice == game.new_initial_state(7).dice


class TestActions:
    def test_reroll_text_forms(self) -> None:
        action = Reroll((6, 3, 3))
        assert action.dice == (3, 3, 6)
        assert str(action) == "reroll 3 3 6"
        assert repr(action) == "Reroll((3, 3, 6))"
        assert parse_action(str(action)) == action
        assert eval(repr(action)) == action

    def test_score_text_forms(self) -> None:
        assert str(Score("full_house", 25)) == "score full_house 25"
        assert repr(Score("full_house", 25)) == "Score('full_house', 25)"
        bonus = Score("fives", 25, bonus=100)
        assert str(bonus) == "score fives 25 +100"
        assert parse_action(str(bonus)) == bonus
        assert eval(repr(bonus)) == bonus

    @pytest.mark.parametrize("make", [
        lambda: Reroll(()), lambda: Reroll((1, 2, 3, 4, 5, 6)), lambda: Reroll((0,)), lambda: Reroll((7,)),
        lambda: Reroll(("a",)), lambda: Score("jackpot", 3), lambda: Score("ones", -1),
        lambda: Score("ones", 1, bonus=-100), lambda: parse_action("hold 1 2"),
        lambda: parse_action("reroll"), lambda: parse_action("reroll x"), lambda: parse_action("score ones"),
    ])
    def test_malformed(self, make) -> None:  # type: ignore[no-untyped-def]
        with pytest.raises(InvalidActionError):
            make()


class TestTurnFlow:
    def test_first_roll_is_made_and_logged(self) -> None:
        state = new_state([(6, 3, 1, 5, 3)])
        assert state.dice == (1, 3, 3, 5, 6)
        assert state.rerolls_left == 2
        assert state.current_player() == 0
        assert [(e.seat, e.text) for e in state.events] == [(CHANCE, "seat 0 rolled 1 3 3 5 6")]

    def test_legal_actions_scores_first_then_distinct_rerolls(self) -> None:
        state = new_state([(1, 3, 3, 5, 6)])
        actions = state.legal_actions()
        assert [a.box for a in actions[:13]] == list(YAHTZEE_BOXES)  # type: ignore[union-attr]
        rerolls = actions[13:]
        assert all(isinstance(a, Reroll) for a in rerolls)
        assert len(rerolls) == len(set(rerolls)) == 2 * 3 * 2 * 2 - 1
        assert rerolls[0] == Reroll((1,)) and rerolls[-1] == Reroll((1, 3, 3, 5, 6))

    def test_at_most_two_rerolls_then_forced_to_score(self) -> None:
        state = new_state([(1, 3, 3, 5, 6), (2, 2, 3), (3,)])
        state.apply(Reroll((1, 5, 6)))
        assert (state.dice, state.rerolls_left) == ((2, 2, 3, 3, 3), 1)
        state.apply(Reroll((2,)))
        assert (state.dice, state.rerolls_left) == ((2, 3, 3, 3, 3), 0)
        assert all(isinstance(a, Score) for a in state.legal_actions())
        with pytest.raises(IllegalActionError):
            state.apply(Reroll((2,)))
        assert score_in(state, "four_kind") == Score("four_kind", 14)
        assert state.observe(0).card(0)["four_kind"] == 14
        assert state.rerolls_left == 2  # the next turn has begun

    def test_events_of_a_turn(self) -> None:
        state = new_state([(1, 3, 3, 5, 6), (4, 2, 2), (2, 2, 3, 3, 3)], players=2)
        state.apply(Reroll((1, 5, 6)))
        score_in(state, "full_house")
        assert [(e.seat, e.text, e.action) for e in state.events] == [
            (CHANCE, "seat 0 rolled 1 3 3 5 6", None),
            (0, "seat 0 rerolls 1 5 6", Reroll((1, 5, 6))),
            (CHANCE, "seat 0 rolled 2 2 4: dice 2 2 3 3 4", None),
            (0, "seat 0 scores 0 in full_house", Score("full_house", 0)),
            (CHANCE, "seat 1 rolled 2 2 3 3 3", None),
        ]
        assert all(e.visible_to is None for e in state.events)

    def test_rerolling_a_value_not_showing_is_illegal(self) -> None:
        state = new_state([(1, 3, 3, 5, 6)])
        before = state.clone()
        for action in (Reroll((2,)), Reroll((5, 5)), Score("ones", 2), Score("chance", 18, bonus=100)):
            with pytest.raises(IllegalActionError):
                state.apply(action)
        assert state.events == before.events and state.dice == before.dice

    def test_seats_take_turns_in_order(self) -> None:
        state = new_state([PLAIN] * 3, players=3)
        for seat in (0, 1, 2):
            assert state.current_player() == seat
            score_in(state, "chance")
        assert state.current_player() == 0
        assert state.observe(1).round == 2

    def test_scripted_roll_of_the_wrong_size_is_reported(self) -> None:
        state = new_state([PLAIN, (6, 6)])
        with pytest.raises(ValueError, match="rolls 1 dice"):
            state.apply(Reroll((5,)))
        assert len(state.events) == 1  # nothing logged for the failed reroll

    def test_rng_takes_over_when_the_script_ends(self) -> None:
        state = new_state([PLAIN])
        score_in(state, "chance")
        assert len(state.dice) == 5


class TestJokerRule:
    def test_forced_upper_box_with_bonus(self) -> None:
        state = new_state([(5, 5, 5, 5, 5), (5, 5, 5, 5, 5)])
        assert score_in(state, "yahtzee") == Score("yahtzee", 50)
        assert state.legal_actions()[0] == Score("fives", 25, bonus=100)
        assert scores(state) == [Score("fives", 25, bonus=100)]
        state.apply(Score("fives", 25, bonus=100))
        assert state.totals() == (175,)
        assert state.events[-2].text == "seat 0 scores 25 in fives and a 100 Yahtzee bonus"

    def test_lower_boxes_at_full_value_when_upper_box_full(self) -> None:
        state = new_state([(6, 6, 6, 6, 6), PLAIN, (6, 6, 6, 6, 6)])
        score_in(state, "yahtzee")
        score_in(state, "sixes")
        assert scores(state) == [Score(box, points, bonus=100) for box, points in [
            ("three_kind", 30), ("four_kind", 30), ("full_house", 25), ("small_straight", 30),
            ("large_straight", 40), ("chance", 30)]]

    def test_upper_box_with_0_when_everything_else_full(self) -> None:
        lower = ["three_kind", "four_kind", "full_house", "small_straight", "large_straight", "chance"]
        state = new_state([(6, 6, 6, 6, 6), PLAIN, *[PLAIN] * len(lower), (6, 6, 6, 6, 6)])
        score_in(state, "yahtzee")
        score_in(state, "sixes")
        for box in lower:
            score_in(state, box)
        assert scores(state) == [Score(box, 0, bonus=100) for box in ("ones", "twos", "threes", "fours", "fives")]

    def test_joker_still_applies_after_a_reroll(self) -> None:
        state = new_state([(2, 2, 2, 2, 2), (1, 2, 2, 2, 2), (2,)])
        score_in(state, "yahtzee")
        assert Score("ones", 1) in state.legal_actions()
        state.apply(Reroll((1,)))
        assert scores(state) == [Score("twos", 10, bonus=100)]

    def test_no_joker_when_yahtzee_box_holds_0(self) -> None:
        state = new_state([PLAIN, (4, 4, 4, 4, 4)])
        score_in(state, "yahtzee")
        offered = {a.box: (a.points, a.bonus) for a in scores(state)}
        assert set(offered) == set(YAHTZEE_BOXES) - {"yahtzee"}
        assert offered["full_house"] == offered["small_straight"] == offered["twos"] == (0, 0)
        assert offered["fours"] == offered["four_kind"] == (20, 0)

    def test_first_yahtzee_may_go_anywhere(self) -> None:
        state = new_state([(4, 4, 4, 4, 4)])
        assert len(scores(state)) == 13

    def test_yams_has_no_joker(self) -> None:
        state = new_state([(3, 3, 3, 3, 3), (3, 3, 3, 3, 3)], variant="yams")
        assert score_in(state, "yahtzee") == Score("yahtzee", 65)
        offered = {a.box: (a.points, a.bonus) for a in scores(state)}
        assert set(offered) == set(YAMS_BOXES) - {"yahtzee"}
        assert offered["full_house"] == offered["small_straight"] == (0, 0)
        assert offered["four_kind"] == (55, 0)
        assert offered["threes"] == (15, 0)


class TestEndOfGame:
    @pytest.mark.parametrize(("variant", "boxes"), [("yahtzee", YAHTZEE_BOXES), ("yams", YAMS_BOXES)])
    def test_game_ends_when_every_card_is_full(self, variant: str, boxes: tuple[str, ...]) -> None:
        state = YahtzeeGame(variant=variant, num_players=2).new_initial_state(3)
        with pytest.raises(ValueError, match="not over"):
            state.outcome()
        for box in boxes:
            for _seat in range(2):
                assert not state.is_terminal()
                state.apply(next(a for a in state.legal_actions() if isinstance(a, Score) and a.box == box))
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert state.legal_actions() == []
        assert all(None not in state.observe(0).card(seat).values() for seat in (0, 1))
        with pytest.raises(IllegalActionError, match="over"):
            state.apply(Score("chance", 10))
        observation = state.observe(1)
        assert (observation.dice, observation.rerolls_left, observation.round) == ((), 0, len(boxes))

    def test_ranking_with_ties(self) -> None:
        straight, pairs = (2, 3, 4, 5, 6), (1, 1, 2, 2, 4)
        rolls = [roll for _ in YAHTZEE_BOXES for roll in (straight, straight, pairs)]
        state = new_state(rolls, players=3)
        for box in YAHTZEE_BOXES:
            for _seat in range(3):
                score_in(state, box)
        outcome = state.outcome()
        # straight: 2+3+4+5+6 upper, small 30, large 40, chance 20; pairs: 2+4+4 upper, chance 10
        assert outcome.scores == (110.0, 110.0, 20.0)
        assert outcome.ranking == (0, 0, 2)
        assert outcome.winners == (0, 1)
        assert outcome.detail == "totals seat 0 110, seat 1 110, seat 2 20"

    def test_solitaire(self) -> None:
        state = new_state([(6, 6, 6, 6, 6)] * 13)
        for box in ("yahtzee", "sixes", "three_kind", "four_kind", "full_house", "small_straight",
                    "large_straight", "chance", "ones", "twos", "threes", "fours", "fives"):
            score_in(state, box)
        outcome = state.outcome()
        assert outcome.ranking == (0,)
        upper = 30
        lower = 50 + 30 + 30 + 25 + 30 + 40 + 30
        assert outcome.scores == (float(upper + lower + 12 * 100),)


class TestObservation:
    def test_fields_and_text(self) -> None:
        state = new_state([(1, 3, 3, 5, 6)], players=2, variant="yams")
        observation = state.observe(1)
        assert isinstance(observation, YahtzeeObservation)
        assert (observation.seat, observation.current_player, observation.dice) == (1, 0, (1, 3, 3, 5, 6))
        assert (observation.round, observation.rounds, observation.boxes) == (1, 14, YAMS_BOXES)
        assert observation.cards == ((None,) * 14, (None,) * 14)
        assert str(observation) == "yams (seat 1): round 1/14, seat 0 has 1 3 3 5 6, 2 rerolls left; totals 0 0"
        assert "\n" not in str(state)

    def test_observation_is_frozen(self) -> None:
        observation = new_state([PLAIN]).observe(0)
        with pytest.raises(AttributeError):
            observation.seat = 3  # type: ignore[misc]

    def test_unknown_seat(self) -> None:
        with pytest.raises(ValueError):
            new_state([PLAIN]).observe(1)
