"""The Gin Rummy search bot (sample_bots/search/gin_search): its own rules agree with the
engine's, and it plays a legal, reproducible match through the real referee."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from budgeted_bots import budgeted_copy
from referee.bots import BotSpec
from referee.games import gin_rummy_melds as gm
from referee.match import MatchConfig, TimeControl, run_match

ROOT = Path(__file__).resolve().parents[3]
BOT = ROOT / "sample_bots" / "search" / "gin_search"
HEURISTIC = ROOT / "sample_bots" / "python" / "gin_heuristic"
sys.path.insert(0, str(BOT))
import gin_sim as sim  # noqa: E402


def sim_mask(engine_mask: int) -> int:
    return sim.to_mask([sim.parse(gm.TEXTS[i]) for i in gm.indices(engine_mask)])


def random_hands(rng: random.Random, suits: int) -> tuple[int, int]:
    """Two disjoint 10-card engine masks from the first ``suits`` suits (fewer suits: more melds)."""
    cards = rng.sample([i for i in range(52) if i % 4 < suits], 20)
    return gm.to_mask(gm.TEXTS[c] for c in cards[:10]), gm.to_mask(gm.TEXTS[c] for c in cards[10:])


@pytest.mark.parametrize("suits", [2, 3, 4])
def test_deadwood_agrees_with_the_engine(suits: int) -> None:
    rng = random.Random(suits)
    for _ in range(300):
        hand, _ = random_hands(rng, suits)
        assert sim.deadwood(sim_mask(hand)) == gm.min_deadwood(hand)


@pytest.mark.parametrize("suits", [2, 3, 4])
def test_knock_settlement_agrees_with_the_engine(suits: int) -> None:
    """Points and winner of a knock, lay-offs and the knocker's choice of melds included."""
    rng = random.Random(10 + suits)
    kinds = set()
    for _ in range(300):
        knocker, defender = random_hands(rng, suits)
        score = gm.settle(knocker, defender)
        kinds.add(score.kind)
        assert sim.settle(sim_mask(knocker), sim_mask(defender)) == (score.points, score.winner == "knocker")
    assert suits == 4 or {"knock", "undercut"} <= kinds


def test_it_plays_a_legal_reproducible_hand_through_the_referee(tmp_path: Path) -> None:
    """One hand against the heuristic, twice with the same seed and budget: no fault, same moves.
    The time guard is set far away, so only the budget of deals bounds the search."""
    search = BotSpec.from_manifest(budgeted_copy(BOT, tmp_path, "200", 4, 30))
    heuristic = BotSpec.from_manifest(HEURISTIC)
    config = MatchConfig(game="gin_rummy", variant="oklahoma", seed=3, settings={"max_hands": 1},
                         time_control=TimeControl(move_timeout=30, time_bank=0))
    first, second = (run_match(config, [search, heuristic]) for _ in range(2))
    assert not first.faults and not first.forfeited, first.faults
    assert {m.status.value for m in first.moves} == {"ok"}
    assert len(first.moves) > 10
    assert [m.action for m in first.moves] == [m.action for m in second.moves]
