"""The Jass search sample bot (sample_bots/search/jass_search): a short match through the
real referee in the sandbox (its folder is all it has), the same moves again for the same
seed and budget, deals sampled consistently with what the seat saw, and its copy of the
heuristic kept equal to the heuristic bot's."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from benchmarks.inprocess import heuristic, load_strategy, play
from referee import wire
from referee.bots import resolve_bot
from referee.games.jass import JassGame
from referee.match import MatchConfig, TimeControl, run_match

SAMPLES = Path(__file__).resolve().parents[3] / "sample_bots" / "python"
SHORT = {"target": 300, "max_hands": 2}


def test_a_team_of_two_plays_a_legal_match_through_the_sandboxed_referee() -> None:
    search, other = resolve_bot(str(SAMPLES.parent / "search" / "jass_search")), resolve_bot(str(SAMPLES / "jass_heuristic"))
    record = run_match(MatchConfig(game="jass", settings=SHORT, seed=4,
                                   time_control=TimeControl(startup_timeout=20)), [search, other, search, other])
    assert record.finished and not record.faults and not record.forfeited
    assert len(record.moves) >= 36  # at least one whole hand


def test_the_same_seed_and_budget_give_the_same_moves() -> None:
    strategy = load_strategy("jass_search")
    saved = strategy.BUDGET, strategy.TIME_GUARD_S
    try:
        strategy.TIME_GUARD_S = None  # no wall clock: the budget alone decides
        strategy.BUDGET = 600
        runs = [[m.index for m in play("jass", 11, [strategy.decide, heuristic("jass")] * 2, settings=SHORT).moves]
                for _ in range(2)]
        strategy.BUDGET = 601
        other = [m.index for m in play("jass", 11, [strategy.decide, heuristic("jass")] * 2, settings=SHORT).moves]
    finally:
        strategy.BUDGET, strategy.TIME_GUARD_S = saved
    assert runs[0] == runs[1] and len(runs[0]) >= 36
    assert other != runs[0]  # the budget seeds the search too (600 and 601 buy the same deals)


def test_sampled_deals_agree_with_everything_the_seat_saw() -> None:
    strategy = load_strategy("jass_search")
    sim = sys.modules["jass_sim"]  # loaded with the strategy, from its folder
    state = JassGame(settings=SHORT).new_initial_state(7)
    rng = random.Random(7)
    checked = 0
    while not state.is_terminal():
        seat = state.current_player()
        actions = state.legal_actions()
        observation = wire.observation_to_proto("jass", state.observe(seat)).jass
        if observation.phase == observation.PHASE_PLAY and observation.tricks:
            played, lacks, _ = strategy._seen(observation)
            for _ in range(5):
                hands = strategy.sample_deal(observation, rng, played, lacks)
                assert [sorted(h) for h in hands][seat] == sorted(sim.card(c) for c in observation.hand)
                for other in range(4):
                    assert len(hands[other]) == state.hands[other].bit_count()
                    assert not set(hands[other]) & {c for cards in played for c in cards}
                    for suit in lacks[other] - {-1}:
                        assert all(c // 9 != suit for c in hands[other]), (other, suit)
                assert sorted(c for h in hands for c in h) == sorted(
                    set(range(36)) - {c for cards in played for c in cards})
                checked += 1
        state.apply(actions[rng.randrange(len(actions))])
    assert checked > 50


def test_its_copy_of_the_heuristic_is_the_heuristic_bots_strategy() -> None:
    assert (SAMPLES.parent / "search" / "jass_search" / "heuristic_jass.py").read_bytes() == \
        (SAMPLES / "jass_heuristic" / "strategy.py").read_bytes()
