"""Properties of random legal matches (hypothesis): termination, conservation, replay, clones,
scores, and that no observation holds the opponent's hidden cards."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import gin_rummy_melds as gm
from referee.games.base import TERMINAL, Termination
from referee.games.gin_rummy import DrawStock, GinRummyGame, GinRummyState, parse_action

VARIANTS = st.sampled_from(GinRummyGame.variants)
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# Short matches: random players rarely knock, so a low target and caps keep each match brief.
SHORT = {"target_score": 30, "max_hands": 12, "hands_to_win": 1}


def short_game(variant: str) -> GinRummyGame:
    return GinRummyGame(variant=variant, settings=SHORT)


def random_match(state: GinRummyState, choices: random.Random, check=None) -> list[str]:
    played = []
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, "legal actions are nonempty until the end"
        if check is not None:
            check(state)
        action = actions[choices.randrange(len(actions))]
        played.append(str(action))
        state.apply(action)
    assert state.legal_actions() == [] and state.current_player() == TERMINAL
    return played


def assert_52_cards(state: GinRummyState) -> None:
    parts = [state.hands[0], state.hands[1], gm.to_mask(gm.TEXTS[c] for c in state.discard_pile),
             gm.to_mask(gm.TEXTS[c] for c in state.stock)]
    total = 0
    for part in parts:
        assert not total & part, "a card is in two places"
        total |= part
    assert total == gm.FULL_DECK and sum(p.bit_count() for p in parts) == 52


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, choice_seed=SEEDS)
def test_random_matches_end_and_conserve_the_52_cards(variant: str, seed: int, choice_seed: int) -> None:
    state = short_game(variant).new_initial_state(seed)
    random_match(state, random.Random(choice_seed), assert_52_cards)
    assert_52_cards(state)
    outcome = state.outcome()
    assert sorted(outcome.ranking) in ([0, 1], [0, 0])


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, choice_seed=SEEDS)
def test_scores_agree_with_the_hand_results(variant: str, seed: int, choice_seed: int) -> None:
    state = short_game(variant).new_initial_state(seed)
    random_match(state, random.Random(choice_seed))
    points, won = [0, 0], [0, 0]
    assert [r.hand_number for r in state.results] == list(range(1, state.hand_number + 1))
    for result in state.results:
        if result.kind == "void":
            assert result.winner is None and result.points == 0
            continue
        assert result.score is not None and result.winner is not None
        assert result.points == result.score.points * (2 if result.doubled else 1)
        assert (result.winner == result.knocker) == (result.score.winner == "knocker")
        points[result.winner] += result.points
        won[result.winner] += 1
    assert state.scores == points and state.hands_won == won
    outcome = state.outcome()
    if outcome.termination is Termination.CAP:
        assert state.hand_number == SHORT["max_hands"]
    elif variant == "straight":
        assert outcome.scores == tuple(map(float, won)) and max(won) == SHORT["hands_to_win"]
    else:
        winner = outcome.winners[0]
        assert points[winner] >= SHORT["target_score"] > points[1 - winner]
        bonus = 100 + (100 if won[1 - winner] == 0 else 0)
        assert outcome.scores[winner] == points[winner] + 25 * won[winner] + bonus
        assert outcome.scores[1 - winner] == points[1 - winner] + 25 * won[1 - winner]


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, choice_seed=SEEDS)
def test_same_seed_and_actions_give_the_same_match(variant: str, seed: int, choice_seed: int) -> None:
    first = short_game(variant).new_initial_state(seed)
    played = random_match(first, random.Random(choice_seed))
    second = short_game(variant).new_initial_state(seed)
    for text in played:
        second.apply(parse_action(text))
    assert second.events == first.events
    assert second.outcome() == first.outcome()


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, choice_seed=SEEDS, at=st.integers(0, 400))
def test_clone_is_independent(variant: str, seed: int, choice_seed: int, at: int) -> None:
    state = short_game(variant).new_initial_state(seed)
    choices = random.Random(choice_seed)
    for _ in range(at):
        if state.is_terminal():
            break
        actions = state.legal_actions()
        state.apply(actions[choices.randrange(len(actions))])
    clone = state.clone()
    before = (str(clone), list(clone.events), clone.legal_actions())
    rest = random_match(state, random.Random(choice_seed + 1))
    assert (str(clone), list(clone.events), clone.legal_actions()) == before
    for text in rest:  # the clone, random generator included, replays the same future
        clone.apply(parse_action(text))
    assert clone.events == state.events and clone.outcome() == state.outcome()


def _swap_hidden_card(state: GinRummyState, seat: int, rng: random.Random) -> GinRummyState | None:
    """A copy in which one of ``seat``'s hidden cards is exchanged with a stock card."""
    hidden = gm.indices(state.hands[seat] & ~state.took[seat])
    if not hidden or not state.stock:
        return None
    other = state.clone()
    card, pos = rng.choice(hidden), rng.randrange(len(other.stock))
    other.hands[seat] ^= 1 << card | 1 << other.stock[pos]
    other.stock[pos] = card
    return other


@PROPERTY
@given(variant=VARIANTS, seed=SEEDS, choice_seed=SEEDS)
def test_observations_never_hold_the_opponents_hidden_cards(variant: str, seed: int, choice_seed: int) -> None:
    state = short_game(variant).new_initial_state(seed)
    rng = random.Random(seed)

    def check(s: GinRummyState) -> None:
        if rng.random() > 0.1:
            return
        for seat in (0, 1):
            changed = _swap_hidden_card(s, 1 - seat, rng)
            if changed is not None:
                assert changed.observe(seat) == s.observe(seat)
            opponent_hidden = {gm.TEXTS[c] for c in gm.indices(s.hands[1 - seat] & ~s.took[1 - seat])}
            observation = s.observe(seat)
            assert not opponent_hidden & {str(c) for c in observation.hand + observation.opponent_took}

    random_match(state, random.Random(choice_seed), check)
    for seat in (0, 1):
        for event in state.events_for(seat):
            assert event.visible_to in (None, frozenset({seat}))
            if isinstance(event.action, DrawStock):
                assert not any(text in event.text.split() for text in gm.TEXTS)
