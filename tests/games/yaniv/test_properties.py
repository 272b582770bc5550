"""Properties of random legal matches (hypothesis): termination, conservation of the 54
cards, scores that follow the rules, replay, clones, and observations without hidden cards."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import yaniv_groups as yg
from referee.games.base import TERMINAL, Termination
from referee.games.yaniv import DrawStock, YanivGame, YanivState, parse_action

PLAYERS = st.integers(2, 8)
SEEDS = st.integers(0, 2**32 - 1)
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SHORT = {"max_rounds": 6, "max_turns_per_round": 60}


def short_game(players: int, **overrides: int) -> YanivGame:
    return YanivGame(num_players=players, settings={**SHORT, **overrides})


def random_match(state: YanivState, choices: random.Random,
                 check: Callable[[YanivState], None] | None = None) -> list[str]:
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


def assert_54_cards(state: YanivState) -> None:
    parts = [*state.hands, yg.to_mask(yg.TEXTS[c] for c in state.stock),
             yg.to_mask(yg.TEXTS[c] for c in state.dead), yg.to_mask(yg.TEXTS[c] for c in state.offered),
             yg.to_mask(yg.TEXTS[c] for c in state.pending)]
    total = 0
    for part in parts:
        assert not total & part, "a card is in two places"
        total |= part
    assert total == yg.FULL_DECK
    for seat, hand in enumerate(state.hands):
        if not state.out_round[seat] and not state.is_terminal():
            assert 1 <= hand.bit_count() <= 5 or state.pending and seat == state.to_play
            assert state.values[seat] == yg.mask_value(hand)
        assert not state.took[seat] & ~hand, "took lists only cards still held"


@PROPERTY
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_random_matches_end_and_conserve_the_54_cards(players: int, seed: int, choice_seed: int) -> None:
    state = short_game(players).new_initial_state(seed)
    random_match(state, random.Random(choice_seed), assert_54_cards)
    outcome = state.outcome()
    assert len(outcome.ranking) == players and min(outcome.ranking) == 0


@PROPERTY
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_totals_follow_the_round_results(players: int, seed: int, choice_seed: int) -> None:
    state = short_game(players).new_initial_state(seed)
    random_match(state, random.Random(choice_seed))
    totals, out = [0] * players, [0] * players
    for result in state.results:
        still = [s for s in range(players) if not out[s]]
        for s in range(players):
            expected = result.hand_values[s] if s in still else 0
            if s == result.declarer:
                lower = tuple(o for o in still if o != s and result.hand_values[o] <= result.hand_values[s])
                assert result.assaf_by == lower
                assert result.kind == ("assaf" if lower else "yaniv")
                expected = 30 + result.hand_values[s] if lower else 0
            assert result.round_scores[s] == expected
            if s in still:
                total = totals[s] + expected
                halved = {100: "100->50", 50: "50->25"}.get(total, "")
                assert result.halved[s] == halved
                totals[s] = {100: 50, 50: 25}.get(total, total)
                if totals[s] > 100:
                    out[s] = result.round_number
        if result.declarer is None:
            assert result.kind == "cap"
        else:
            assert result.hand_values[result.declarer] <= 5
        assert list(result.totals) == totals
    assert state.totals == totals and state.out_round == out
    outcome = state.outcome()
    assert outcome.scores == tuple(map(float, totals))
    remaining = [s for s in range(players) if not out[s]]
    if outcome.termination is Termination.NORMAL:
        assert len(remaining) <= 1
        if remaining:
            assert outcome.ranking[remaining[0]] == 0 and outcome.ranking.count(0) == 1
    else:
        assert state.round_number == SHORT["max_rounds"] and len(remaining) >= 2
    for a in range(players):  # later out is better; then lower total; equal keys tie
        for b in range(players):
            key_a = (out[a] or 10**9, -totals[a])
            key_b = (out[b] or 10**9, -totals[b])
            assert (outcome.ranking[a] < outcome.ranking[b]) == (key_a > key_b)


@PROPERTY
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_same_seed_and_actions_give_the_same_match(players: int, seed: int, choice_seed: int) -> None:
    first = short_game(players).new_initial_state(seed)
    played = random_match(first, random.Random(choice_seed))
    second = short_game(players).new_initial_state(seed)
    for text in played:
        second.apply(parse_action(text))
    assert second.events == first.events and second.outcome() == first.outcome()


@PROPERTY
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS, at=st.integers(0, 300))
def test_clone_is_independent(players: int, seed: int, choice_seed: int, at: int) -> None:
    state = short_game(players).new_initial_state(seed)
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


def _swap_hidden_card(state: YanivState, seat: int, rng: random.Random) -> YanivState | None:
    """A copy in which one of ``seat``'s hidden cards is exchanged with a stock card, and
    the stock is shuffled: nothing another seat may see changes."""
    hidden = yg.indices(state.hands[seat] & ~state.took[seat])
    if not hidden or not state.stock:
        return None
    other = state.clone()
    card, pos = rng.choice(hidden), rng.randrange(len(other.stock))
    other.hands[seat] ^= 1 << card | 1 << other.stock[pos]
    other.values[seat] = yg.mask_value(other.hands[seat])
    other.stock[pos] = card
    rng.shuffle(other.stock)
    return other


@PROPERTY
@given(players=PLAYERS, seed=SEEDS, choice_seed=SEEDS)
def test_observations_never_hold_another_seats_hidden_cards(players: int, seed: int, choice_seed: int) -> None:
    state = short_game(players).new_initial_state(seed)
    rng = random.Random(seed)

    def check(s: YanivState) -> None:
        if rng.random() > 0.1:
            return
        for seat in range(players):
            for other in range(players):
                if other != seat and not s.out_round[other]:
                    changed = _swap_hidden_card(s, other, rng)
                    if changed is not None:
                        assert changed.observe(seat) == s.observe(seat)

    random_match(state, random.Random(choice_seed), check)
    for seat in range(players):
        for event in state.events_for(seat):
            assert event.visible_to in (None, frozenset({seat}))
            if isinstance(event.action, DrawStock):
                assert not any(text in event.text.split() for text in yg.TEXTS)
