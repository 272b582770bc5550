"""Replay a match record through the engine and check that it gives the recorded result."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from referee.games import make_game
from referee.games.base import State
from referee.match import rank_with_forfeits
from referee.result import MatchRecord


@dataclass
class ReplayReport:
    """What the replay found: ``ok`` when every move and the result match the record."""

    problems: list[str] = field(default_factory=list)
    state: State[Any, Any] | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(record: MatchRecord, on_state: Callable[[int, State[Any, Any]], None] | None = None) -> ReplayReport:
    """Apply the recorded action indices from the recorded seed and compare everything.

    ``on_state(n, state)`` sees the state after the first ``n`` moves, from 0 (before any
    move) on, for as long as the record agrees with the engine (the web replay viewer).

    :raises SettingsError: if the record names a game or setting the engines do not know.
    """
    report = ReplayReport()
    game = make_game(record.game, variant=record.variant, num_players=record.num_players, settings=record.settings)
    state = game.new_initial_state(record.seed)
    report.state = state
    if on_state is not None:
        on_state(0, state)
    for number, move in enumerate(record.moves):
        where = f"move {number}"
        if state.is_terminal():
            report.problems.append(f"{where}: the game is already over")
            return report
        if state.current_player() != move.seat:
            report.problems.append(f"{where}: seat {state.current_player()} is to play, the record says {move.seat}")
            return report
        legal = state.legal_actions()
        if not 0 <= move.index < len(legal):
            report.problems.append(f"{where}: index {move.index} but only {len(legal)} legal actions")
            return report
        action = legal[move.index]
        if str(action) != move.action:
            report.problems.append(f"{where}: index {move.index} is {str(action)!r}, the record says {move.action!r}")
            return report
        state.apply(action)
        if on_state is not None:
            on_state(number + 1, state)
    if not state.is_terminal():
        report.problems.append(f"the game is not over after the {len(record.moves)} recorded moves")
        return report
    outcome = state.outcome()
    if list(outcome.scores) != list(record.scores):
        report.problems.append(f"scores {list(outcome.scores)} differ from the recorded {record.scores}")
    ranking = list(rank_with_forfeits(outcome.ranking, set(record.forfeited)))
    if ranking != list(record.ranking):
        report.problems.append(f"ranking {ranking} differs from the recorded {record.ranking}")
    return report
