"""Random legal Jass matches: cards conserved, every hand worth 157 (257 with a match),
scores consistent, the same seed and actions replay, no seat sees another's hand."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.games import jass_cards as jc
from referee.games.jass import JassGame, legal_cards, trick_winner

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1))
def test_random_matches_conserve_cards_and_score_157_per_hand(seed: int, choice_seed: int) -> None:
    state = JassGame(settings={"target": 1500}).new_initial_state(seed)
    rng = random.Random(choice_seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        masks = list(state.hands)
        # Cards conserved: the four hands and the cards played are the deck, each card once.
        assert sum(m.bit_count() for m in masks) + state.played.bit_count() == 36
        assert (masks[0] | masks[1] | masks[2] | masks[3] | state.played) == jc.FULL
        if state.mode >= 0:  # the engine's list agrees with the public checking function
            texts = [jc.TEXTS[c] for c in jc.indices(masks[state.current_player()])]
            trick = [jc.TEXTS[c] for c in state.trick]
            assert [str(a.card) for a in actions] == legal_cards(texts, trick, jc.MODES[state.mode])
        tricks, mode = len(state.tricks), state.mode
        state.apply(actions[rng.randrange(len(actions))])
        if len(state.tricks) > tricks:  # a finished trick goes to the rules' winner
            leader, cards, winner, _ = state.tricks[-1]
            assert winner == (leader + trick_winner([jc.TEXTS[c] for c in cards], jc.MODES[mode])) % 4
    for result in state.results:
        assert sum(result.card_points) == 157
        multiplier = jc.MULTIPLIER[jc.MODES.index(result.mode)]
        for team in (0, 1):
            match = 100 if result.match == team else 0
            assert result.total[team] == (result.card_points[team] + match) * multiplier + result.bonus[team]
            assert result.bonus[team] % multiplier == 0
    played_out = sum(result.total[0] for result in state.results), sum(result.total[1] for result in state.results)
    unfinished = (0, 0) if state.tricks and len(state.tricks) == 9 else tuple(state.bonus)
    assert tuple(state.scores) == (played_out[0] + unfinished[0], played_out[1] + unfinished[1])
    outcome = state.outcome()
    assert outcome.scores[0] == outcome.scores[2] and outcome.scores[1] == outcome.scores[3]
    assert tuple(outcome.scores[:2]) == tuple(float(s) for s in state.scores)
    if outcome.termination.value == "normal" and outcome.ranking != (0, 0, 0, 0):
        winner = outcome.ranking.index(0)
        assert state.scores[winner] >= 1500 and outcome.ranking == tuple(0 if s % 2 == winner else 2 for s in range(4))


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1))
def test_the_same_seed_and_actions_replay_the_same_match(seed: int, choice_seed: int) -> None:
    game = JassGame(settings={"target": 800})
    first = game.new_initial_state(seed)
    rng = random.Random(choice_seed)
    indices = []
    while not first.is_terminal():
        actions = first.legal_actions()
        indices.append(rng.randrange(len(actions)))
        first.apply(actions[indices[-1]])
    second = game.new_initial_state(seed)
    for index in indices:
        second.apply(second.legal_actions()[index])
    assert [e.text for e in second.events] == [e.text for e in first.events]
    assert second.outcome() == first.outcome()


@SETTINGS
@given(seed=st.integers(0, 2**31 - 1), choice_seed=st.integers(0, 2**31 - 1))
def test_no_observation_or_event_shows_another_seats_unplayed_cards(seed: int, choice_seed: int) -> None:
    state = JassGame(settings={"target": 600}).new_initial_state(seed)
    rng = random.Random(choice_seed)
    while not state.is_terminal():
        public = state.played | (1 << jc.card_index("7C") if state.hand_number == 1 else 0)
        for weis in state.public_weis:
            public |= jc.to_mask(weis.cards)
        for seat in range(4):
            hidden = 0
            for other in range(4):
                if other != seat:
                    hidden |= state.hands[other]
            hidden &= ~public
            observation = state.observe(seat)
            shown = [*observation.hand, *observation.trick, *(c for t in observation.tricks for c in t.cards),
                     *(c for w in observation.weis for c in w.cards)]
            assert not jc.to_mask({str(c) for c in shown}) & hidden
            hand_events = [e for e in state.events if e.visible(seat)]
            start = max(i for i, e in enumerate(hand_events) if " deals, " in e.text)
            for event in hand_events[start:]:
                for word in event.text.replace(";", " ").replace("(", " ").split():
                    if word in jc.INDEX:
                        assert not (1 << jc.INDEX[word]) & hidden, (seat, event.text)
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
