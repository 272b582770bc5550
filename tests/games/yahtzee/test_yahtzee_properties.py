"""Property tests: random legal games of both variants and every seat count."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.games.base import CHANCE
from referee.games.yahtzee import (Reroll, Score, YahtzeeGame, YahtzeeState, card_total, fillable_boxes, roll_dice,
                                   score_box, yahtzee_bonus)
from referee.games.yahtzee_scoring import UPPER_BOXES, reroll_choices

seeds = st.integers(min_value=0, max_value=2**32 - 1)
variants = st.sampled_from(["yahtzee", "yams"])
players = st.integers(min_value=1, max_value=8)
dice = st.lists(st.integers(min_value=1, max_value=6), min_size=5, max_size=5)


def expected_total(variant: str, card: dict[str, int | None], bonus: int) -> int:
    """A full card's total, computed independently of the engine's scoring module."""
    values = {box: score or 0 for box, score in card.items()}
    upper = sum(values[box] for box in UPPER_BOXES)
    if variant == "yahtzee":
        return sum(values.values()) + (35 if upper >= 63 else 0) + bonus
    rest = sum(v for box, v in values.items() if box not in ("plus", "minus"))
    return rest + (upper - 30 if upper >= 60 else 0) + values["plus"] - values["minus"]


def checked_actions(state: YahtzeeState) -> list[Score | Reroll]:
    """The legal actions built from the checked scoring functions, as the engine once did:
    the engine's precomputed per-roll tables must give exactly this list."""
    card = state.cards[state.current_player()]
    bonus = yahtzee_bonus(state.variant, state.dice, card)
    actions: list[Score | Reroll] = [Score(box, score_box(state.variant, box, state.dice, card), bonus)
                                     for box in fillable_boxes(state.variant, state.dice, card)]
    if state.rerolls_left:
        actions += [Reroll(subset) for subset in reroll_choices(state.dice)]
    return actions


def play(state: YahtzeeState, chooser: random.Random, *, checks: bool = True) -> list[int]:
    """Play random legal actions to the end; return the chosen indices."""
    chosen = []
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions
        if checks:
            assert len(set(actions)) == len(actions)
            seat = state.current_player()
            rerolls = [a for a in actions if isinstance(a, Reroll)]
            assert len(rerolls) == (len(reroll_choices(state.dice)) if state.rerolls_left else 0)
            for a in actions:
                if isinstance(a, Score):
                    assert state.cards[seat][a.box] is None
                    assert a.points == score_box(state.variant, a.box, state.dice, state.cards[seat])
            assert actions == checked_actions(state)
            assert list(state.totals()) == [card_total(state.variant, card, yahtzee_bonus=bonus)
                                            for card, bonus in zip(state.cards, state.bonus)]
        index = chooser.randrange(len(actions))
        chosen.append(index)
        state.apply(actions[index])
    return chosen


@settings(max_examples=60, deadline=None)
@given(variant=variants, num_players=players, seed=seeds, choice_seed=seeds)
def test_random_games_fill_every_card_and_score_it(variant: str, num_players: int, seed: int,
                                                   choice_seed: int) -> None:
    state = YahtzeeGame(variant=variant, num_players=num_players).new_initial_state(seed)
    play(state, random.Random(choice_seed))
    assert state.legal_actions() == []
    decisions = [e for e in state.events if e.seat != CHANCE]
    score_events = [e for e in decisions if isinstance(e.action, Score)]
    assert len(score_events) == num_players * len(state.boxes)
    # a turn is at most two rerolls then one score, by the seat whose turn it is
    turn = 0
    rerolls_this_turn = 0
    for event in decisions:
        assert event.seat == turn % num_players
        if isinstance(event.action, Reroll):
            rerolls_this_turn += 1
            assert rerolls_this_turn <= 2
        else:
            turn, rerolls_this_turn = turn + 1, 0
    outcome = state.outcome()
    for seat in range(num_players):
        card = state.cards[seat]
        assert None not in card.values()
        assert outcome.scores[seat] == expected_total(variant, card, state.bonus[seat])
    assert sorted(outcome.ranking)[0] == 0
    for a in range(num_players):
        for b in range(num_players):
            if outcome.scores[a] > outcome.scores[b]:
                assert outcome.ranking[a] < outcome.ranking[b]
            if outcome.scores[a] == outcome.scores[b]:
                assert outcome.ranking[a] == outcome.ranking[b]


@settings(max_examples=15, deadline=None)
@given(variant=variants, num_players=st.integers(min_value=1, max_value=4), seed=seeds, choice_seed=seeds)
def test_same_seed_and_actions_replay_the_same_game(variant: str, num_players: int, seed: int,
                                                    choice_seed: int) -> None:
    game = YahtzeeGame(variant=variant, num_players=num_players)
    first = game.new_initial_state(seed)
    play(first, random.Random(choice_seed), checks=False)
    second = game.new_initial_state(seed)
    for event in first.events:
        if event.seat != CHANCE:
            second.apply(event.action)
    assert second.events == first.events
    assert second.outcome() == first.outcome()


@settings(max_examples=15, deadline=None)
@given(variant=variants, num_players=st.integers(min_value=1, max_value=4), seed=seeds, choice_seed=seeds,
       split=st.integers(min_value=0, max_value=40))
def test_clone_is_independent(variant: str, num_players: int, seed: int, choice_seed: int, split: int) -> None:
    state = YahtzeeGame(variant=variant, num_players=num_players).new_initial_state(seed)
    chooser = random.Random(choice_seed)
    for _ in range(split):
        if state.is_terminal():
            break
        state.apply(chooser.choice(state.legal_actions()))
    clone = state.clone()
    snapshot = (state.observe(0), list(state.events))
    play(clone, random.Random(choice_seed + 1), checks=False)
    assert (state.observe(0), state.events) == snapshot
    # the clone carries the random generator too: the same actions give the same game
    twin = state.clone()
    rest = play(state, random.Random(choice_seed + 2), checks=False)
    for index in rest:
        twin.apply(twin.legal_actions()[index])
    assert twin.events == state.events


@settings(max_examples=10, deadline=None)
@given(variant=variants, num_players=st.integers(min_value=2, max_value=8), seed=seeds, choice_seed=seeds)
def test_every_seat_sees_the_same_public_observation(variant: str, num_players: int, seed: int,
                                                     choice_seed: int) -> None:
    state = YahtzeeGame(variant=variant, num_players=num_players).new_initial_state(seed)
    chooser = random.Random(choice_seed)
    while True:
        reference = state.observe(0)
        for seat in range(num_players):
            assert state.observe(seat) == replace(reference, seat=seat)
            assert state.events_for(seat) == state.events
        if state.is_terminal():
            break
        assert reference.current_player == state.current_player()
        assert reference.dice == state.dice
        state.apply(chooser.choice(state.legal_actions()))


@settings(max_examples=200, deadline=None)
@given(variant=variants, faces=dice, order=st.randoms(use_true_random=False))
def test_box_scores_ignore_the_order_of_the_dice(variant: str, faces: list[int], order: random.Random) -> None:
    shuffled = faces[:]
    order.shuffle(shuffled)
    state = YahtzeeGame(variant=variant).new_initial_state(0, dice_source=[faces])
    for action in state.legal_actions():
        if isinstance(action, Score):
            assert score_box(variant, action.box, shuffled) == action.points
    for box in UPPER_BOXES:
        face = UPPER_BOXES.index(box) + 1
        assert score_box(variant, box, faces) == face * Counter(faces)[face]


@settings(max_examples=50, deadline=None)
@given(seed=seeds, counts=st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=20))
def test_dice_are_what_randint_gives_so_stored_matches_still_replay(seed: int, counts: list[int]) -> None:
    fast, reference = random.Random(seed), random.Random(seed)
    for count in counts:
        assert roll_dice(fast, count) == tuple(reference.randint(1, 6) for _ in range(count))
    assert fast.random() == reference.random()  # the generator was used the same way


@settings(max_examples=40, deadline=None)
@given(variant=variants, faces=dice, yahtzee_box=st.sampled_from([None, 0, 50]),
       filled=st.sets(st.sampled_from(UPPER_BOXES + ("full_house", "chance", "small_straight")), max_size=8))
def test_legal_actions_match_the_checked_functions_under_the_joker_rule(variant, faces, yahtzee_box, filled) -> None:
    """Random play rarely meets the joker rule; here five equal dice come often."""
    state = YahtzeeGame(variant=variant, num_players=1).new_initial_state(0)
    faces = [faces[0]] * 5 if faces[1] % 2 else faces
    state.dice = tuple(sorted(faces))
    for box in filled:
        if box in state.cards[0]:
            state.cards[0][box] = 0
    if "yahtzee" in state.cards[0]:
        state.cards[0]["yahtzee"] = yahtzee_box
    state._legal = None
    if any(score is None for score in state.cards[0].values()):
        assert state.legal_actions() == checked_actions(state)
