"""The Yoninkan search sample bot (sample_bots/search/yoninkan_search): a short match through
the real referee in the sandbox (its folder is all it has), the same moves again for the same
seed and budget, deals (and so groups) sampled consistently with what the seat saw, and its
copies of the heuristic and of the scoring module kept equal to their originals."""

from __future__ import annotations

import random
from pathlib import Path

from benchmarks.inprocess import heuristic, load_strategy, play
from referee import wire
from referee.bots import resolve_bot
from referee.games.yoninkan import YoninkanGame
from referee.match import MatchConfig, TimeControl, run_match

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_bots" / "python"


def test_it_plays_a_legal_match_through_the_sandboxed_referee() -> None:
    search, other = resolve_bot(str(SAMPLES.parent / "search" / "yoninkan_search")), resolve_bot(str(SAMPLES / "yoninkan_heuristic"))
    record = run_match(MatchConfig(game="yoninkan", settings={"games": 1}, seed=5,
                                   time_control=TimeControl(startup_timeout=20)), [other, search, other, other])
    assert record.finished and not record.faults and not record.forfeited
    assert sum(1 for m in record.moves if m.seat == 1) >= 4


def test_the_same_seed_and_budget_give_the_same_moves() -> None:
    strategy = load_strategy("yoninkan_search")
    saved = strategy.BUDGET, strategy.TIME_GUARD_S
    seats = [heuristic("yoninkan"), strategy.decide, heuristic("yoninkan"), heuristic("yoninkan")]
    try:
        strategy.TIME_GUARD_S = None  # no wall clock: the budget alone decides
        strategy.BUDGET = 500
        runs = [[m.index for m in play("yoninkan", 12, seats, settings={"games": 2}).moves] for _ in range(2)]
    finally:
        strategy.BUDGET, strategy.TIME_GUARD_S = saved
    assert runs[0] == runs[1] and len(runs[0]) >= 40


def test_sampled_deals_and_groups_agree_with_everything_the_seat_saw() -> None:
    strategy = load_strategy("yoninkan_search")
    game = YoninkanGame(settings={"games": 2})
    rng = random.Random(3)
    checked = groups_seen = 0
    for seed in range(6):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_player()
            actions = state.legal_actions()
            obs = wire.observation_to_proto("yoninkan", state.observe(seat)).yoninkan
            if obs.phase == obs.PHASE_PLAY and obs.tricks:
                played, lacks = strategy._history(obs)
                gone = {c for cards in played for c in cards}
                kans = set()
                for _ in range(4):
                    hands = strategy.sample_deal(obs, rng, played, lacks)
                    assert sorted(hands[seat]) == sorted(obs.hand)
                    assert sorted(c for h in hands for c in h) == sorted(set(strategy.DECK) - gone)
                    for other in range(4):
                        assert len(hands[other]) == state.hands[other].bit_count()
                        assert not [c for c in hands[other] if c != "X1" and c[1] in lacks[other]], (other, lacks)
                    if obs.shown_by >= 0 and obs.shown_by != seat:
                        assert {c for c in obs.shown_cards if c not in gone} <= set(hands[obs.shown_by])
                    kan = strategy._groups(obs, hands, played)
                    if obs.kan_seats or (seat in state.kan and state.observe(seat).partner >= 0):
                        assert kan == state.kan  # what the seat knows, every deal agrees with
                    assert (obs.seat in kan) == (obs.my_group == "kan") or not obs.my_group
                    kans.add(kan)
                groups_seen += len(kans) > 1
                checked += 1
            state.apply(actions[rng.randrange(len(actions))])
    assert checked > 100 and groups_seen > 0  # in battle 1 the deals weigh more than one grouping


def test_its_copies_are_the_heuristic_bots_strategy_and_the_engines_scoring() -> None:
    folder = SAMPLES.parent / "search" / "yoninkan_search"
    assert (folder / "heuristic_yoninkan.py").read_bytes() == (SAMPLES / "yoninkan_heuristic" / "strategy.py").read_bytes()
    assert (folder / "yoninkan_scoring.py").read_bytes() == \
        (ROOT / "referee" / "games" / "yoninkan_scoring.py").read_bytes()
