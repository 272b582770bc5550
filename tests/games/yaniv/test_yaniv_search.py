"""The Yaniv search bot (sample_bots/search/yaniv_search): its own discards agree with the
engine's, and it plays a legal, reproducible round through the real referee."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from budgeted_bots import budgeted_copy
from referee.bots import BotSpec
from referee.games import yaniv_groups as yg
from referee.match import MatchConfig, TimeControl, run_match

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "sample_bots" / "search" / "yaniv_search"
HEURISTIC = ROOT / "sample_bots" / "python" / "yaniv_heuristic"
sys.path.insert(0, str(BOT))
import yaniv_sim as sim  # noqa: E402


def shape(cards: list[int]) -> tuple[int, ...]:
    """A group as a sorted multiset of sim cards, both jokers alike."""
    return tuple(sorted(sim.JOKERS[0] if c in sim.JOKERS else c for c in cards))


def test_every_simulated_discard_is_legal_and_the_best_one_is_found() -> None:
    rng = random.Random(7)
    for _ in range(2000):
        # few suits and ranks, with the jokers, so that sets and runs are common
        pool = [i for i in range(52) if i % 4 < 2 and i // 4 < 7] + [52, 53]
        hand = rng.sample(pool, rng.randint(1, 5))
        mine = [sim.parse(yg.TEXTS[c]) for c in hand]
        engine = {shape([sim.parse(yg.TEXTS[c]) for c in g]) for g in yg.groups_of(yg.to_mask(yg.TEXTS[c] for c in hand))}
        groups = sim.groups(mine)
        assert {shape(list(g)) for g in groups} <= engine, hand
        assert sim.best_group(mine) == max(sim.points(g) for g in engine)


def test_halving_and_elimination() -> None:
    assert sim.after_round(90, 10) == (50, False)
    assert sim.after_round(40, 10) == (25, False)
    assert sim.after_round(95, 6) == (101, True)
    assert sim.after_round(20, 5) == (25, False)


def test_it_plays_a_legal_reproducible_round_through_the_referee(tmp_path: Path) -> None:
    """One round against the heuristic, twice with the same seed and budget:
    no fault, same moves. The time guard is set far away, so only the budget bounds the search."""
    search = BotSpec.from_manifest(budgeted_copy(BOT, tmp_path, "80", 4, 30))
    heuristic = BotSpec.from_manifest(HEURISTIC)
    config = MatchConfig(game="yaniv", seed=5, settings={"max_rounds": 1},
                         time_control=TimeControl(move_timeout=30, time_bank=0))
    first, second = (run_match(config, [heuristic, search]) for _ in range(2))
    assert not first.faults and not first.forfeited, first.faults
    assert {m.status.value for m in first.moves} == {"ok"}
    assert any(m.seat == 1 for m in first.moves)
    assert [m.action for m in first.moves] == [m.action for m in second.moves]
