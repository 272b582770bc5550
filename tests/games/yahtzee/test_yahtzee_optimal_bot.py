"""The optimal sample bot's decisions, through the engine and the protobuf observation."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from optimal_bot import BOT

from arena import yahtzee_dp as dp
from referee.bots import BotSpec
from referee.build import ensure_built
from referee.games import make_game
from referee.games.yahtzee import Reroll, Score, YahtzeeState
from referee.luck.yahtzee_tables import engine_rules
from referee.match import MatchConfig, TimeControl, run_match
from referee.sandbox import SandboxConfig, SandboxMode, bwrap_problem
from referee.wire import actions_to_proto, observation_to_proto

BWRAP = SandboxConfig(SandboxMode.BWRAP)


@pytest.fixture(scope="module")
def strategy_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("yahtzee_optimal_strategy", BOT / "strategy.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def last_box_strategy(strategy_module: ModuleType):
    """The bot over tables solved for cards with one box left (enough for these positions)."""
    tables = {}
    for variant in ("yahtzee", "yams"):
        rules = engine_rules(variant)
        tables[variant] = dp.Table(rules, "test", dp.solve(rules, open_boxes=1))
    return strategy_module.Strategy(tables)


def only_open(state: YahtzeeState, seat: int, box: str) -> None:
    """Fill every box of ``seat``'s card but ``box`` with 0 (a test shortcut to the last turn)."""
    state.cards[seat] = {name: (None if name == box else 0) for name in state.boxes}


def decide(strategy, state: YahtzeeState):
    legal = state.legal_actions()
    seat = state.current_player()
    index = strategy.decide(observation_to_proto("yahtzee", state.observe(seat)), actions_to_proto("yahtzee", legal))
    return legal[index]


@pytest.mark.parametrize(("rerolls_used", "rerolled"), [(0, (1, 2, 4)), (1, (1, 2))])
def test_chance_keeps_what_beats_the_expected_reroll(last_box_strategy, rerolls_used: int,
                                                     rerolled: tuple[int, ...]) -> None:
    """With two rerolls left a die is kept from 5 up (above 4.25), with one from 4 up (above 3.5)."""
    rolls = [[1, 2, 4, 5, 6]] if rerolls_used == 0 else [[1, 1, 1, 1, 1], [1, 2, 4, 5, 6]]
    state = make_game("yahtzee", variant="yahtzee", num_players=1).new_initial_state(1, dice_source=rolls)
    only_open(state, 0, "chance")
    if rerolls_used:
        state.apply(Reroll((1, 1, 1, 1, 1)))
    assert decide(last_box_strategy, state) == Reroll(rerolled)


def test_scores_a_yams_rigole_at_once_rather_than_gamble(last_box_strategy) -> None:
    state = make_game("yahtzee", variant="yams", num_players=1).new_initial_state(1, dice_source=[[2, 5, 5, 5, 5]])
    only_open(state, 0, "rigole")
    assert decide(last_box_strategy, state) == Score("rigole", 50)


def test_in_a_two_player_game_it_plays_its_own_card(last_box_strategy) -> None:
    """Seat 1 has only Yahtzee open, seat 0 only Chance: seat 1 chases five 6s, keeping them."""
    state = make_game("yahtzee", variant="yahtzee", num_players=2).new_initial_state(
        1, dice_source=[[1, 1, 2, 2, 3], [6, 6, 6, 6, 2]])
    only_open(state, 0, "chance")
    only_open(state, 1, "yahtzee")
    state.apply(Score("chance", 9))
    assert decide(last_box_strategy, state) == Reroll((2,))


@pytest.mark.slow
@pytest.mark.skipif(bwrap_problem() is not None, reason=f"no working bubblewrap: {bwrap_problem()}")
def test_the_bot_built_by_its_build_step_plays_in_the_sandbox() -> None:
    """The real path: arena runs the bot's [build] step in the sandbox (about a minute of CPU
    the first time, into the user's store, ``~/.cache/arena/builds``; reused after), then the
    sandboxed bot reads its tables from ``ARENA_BUILD`` and plays Yams and Yahtzee without a
    fault, well above the heuristic's typical mean."""
    spec = BotSpec.from_manifest(BOT)
    outputs = ensure_built(spec, BWRAP)
    assert sorted(path.name for path in outputs.iterdir()) == ["optimal-yahtzee.npz", "optimal-yams.npz"]
    for variant in ("yahtzee", "yams"):
        config = MatchConfig(game="yahtzee", variant=variant, seed=5, sandbox=BWRAP,
                             time_control=TimeControl(move_timeout=5, time_bank=60))
        record = run_match(config, [spec])
        assert not record.faults and not record.forfeited, record.faults
        assert record.scores[0] > 150
