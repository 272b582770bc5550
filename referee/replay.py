"""Replay a match record through the engine and check that it gives the recorded result.

Beyond the moves and the result, every field that follows from others is checked, so that
an edited record does not pass: the player list against the seat count, each move's status
against the faults at that decision, the forfeits against the faults and ``max_faults``,
the time bank against the timeouts, and the ranking, engine ranking, termination and
reason against the engine's outcome.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from referee.games import make_game
from referee.games.base import Game, SettingsError, State
from referee.match import match_reason, rank_with_forfeits
from referee.result import Fault, FaultKind, MatchRecord, MoveStatus
from referee.sandbox import SandboxConfig

BANK_TOLERANCE = 0.0015
"""Seconds: the record rounds bank use to milliseconds."""
_KINDS_FOR_STATUS = {
    MoveStatus.OK: (),
    MoveStatus.TIMEOUT: (FaultKind.TIMEOUT,),
    MoveStatus.INVALID: (FaultKind.INVALID,),
    MoveStatus.ERROR: (FaultKind.ERROR, FaultKind.PROCESS_EXIT),
    MoveStatus.FORFEITED: (FaultKind.PROCESS_EXIT,),  # the process was found dead before the call
}
"""The fault a move of a seat not yet forfeited must carry, by its status (none for OK)."""
_TIME_CONTROL = {"move_timeout": float, "time_bank": float, "max_faults": int, "startup_timeout": float}


class StopReplay(Exception):
    """Raised by an ``on_state`` callback that has seen enough: the replay ends there, quietly
    (the web viewer draws 40 steps at a time).  Not a finding about the record."""


@dataclass
class ReplayReport:
    """What the replay found: ``ok`` when every move and the result match the record.

    ``stopped`` is true when ``on_state`` stopped the replay early (:class:`StopReplay`): then
    the moves after that point and the result were not checked, and ``ok`` says nothing.
    """

    problems: list[str] = field(default_factory=list)
    state: State[Any, Any] | None = None
    stopped: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems


def replay(record: MatchRecord, on_state: Callable[[int, State[Any, Any]], None] | None = None) -> ReplayReport:
    """Check the record's fields against each other, then apply the recorded action indices
    from the recorded seed and compare every move and the result.

    ``on_state(n, state)`` sees the state after the first ``n`` moves, from 0 (before any
    move) on, for as long as the record agrees with the engine (the web replay viewer); it
    may raise :class:`StopReplay` to end the replay there (``report.stopped``).

    :raises SettingsError: if the record names a game, variant, seat count or setting the
        engines do not know.
    """
    report = ReplayReport(problems=list(consistency_problems(record)))
    try:
        game = make_game(record.game, variant=record.variant, num_players=record.num_players,
                         settings=record.settings)
    except SettingsError:
        raise
    except Exception as error:  # noqa: BLE001 - odd recorded settings must not crash the replay
        raise SettingsError(f"the engine rejects the recorded configuration: {type(error).__name__}: {error}") \
            from None
    if game.variant != record.variant:
        report.problems.append(f"variant {record.variant!r} is recorded, but the engine plays {game.variant!r}")
    if dict(game.settings) != record.settings:
        report.problems.append(f"settings {record.settings} are recorded, but the engine makes them "
                               f"{dict(game.settings)}")
    try:
        _replay_moves(record, game, report, on_state)
    except StopReplay:
        report.stopped = True
    except SettingsError:
        raise
    except Exception as error:  # noqa: BLE001 - an engine that fails on a record is a finding, not a crash
        report.problems.append(f"the engine failed on the record: {type(error).__name__}: {error}")
    return report


def _replay_moves(record: MatchRecord, game: Game, report: ReplayReport,
                  on_state: Callable[[int, State[Any, Any]], None] | None) -> None:
    state = game.new_initial_state(record.seed)
    report.state = state
    if on_state is not None:
        on_state(0, state)
    for number, move in enumerate(record.moves):
        where = f"move {number}"
        if state.is_terminal():
            report.problems.append(f"{where}: the game is already over")
            return
        if state.current_player() != move.seat:
            report.problems.append(f"{where}: seat {state.current_player()} is to play, the record says {move.seat}")
            return
        legal = state.legal_actions()
        if not 0 <= move.index < len(legal):
            report.problems.append(f"{where}: index {move.index} but only {len(legal)} legal actions")
            return
        action = legal[move.index]
        if str(action) != move.action:
            report.problems.append(f"{where}: index {move.index} is {str(action)!r}, the record says {move.action!r}")
            return
        state.apply(action)
        if on_state is not None:
            on_state(number + 1, state)
    if record.termination == "aborted":
        report.problems.append(f"the match was aborted ({record.reason}): it has no result to check")
        return
    if not state.is_terminal():
        report.problems.append(f"the game is not over after the {len(record.moves)} recorded moves")
        return
    outcome = state.outcome()
    if list(outcome.scores) != list(record.scores):
        report.problems.append(f"scores {list(outcome.scores)} differ from the recorded {record.scores}")
    if list(outcome.ranking) != list(record.engine_ranking):
        report.problems.append(f"engine ranking {list(outcome.ranking)} differs from the recorded "
                               f"{record.engine_ranking}")
    ranking = list(rank_with_forfeits(outcome.ranking, set(record.forfeited), game.teams))
    if ranking != list(record.ranking):
        report.problems.append(f"ranking {ranking} differs from the recorded {record.ranking}")
    if outcome.termination.value != record.termination:
        report.problems.append(f"termination {outcome.termination.value!r} differs from the recorded "
                               f"{record.termination!r}")
    elif not report.problems:  # the reason names players and forfeits: only comparable once those agree
        reason = match_reason(outcome, record.forfeited, record.players, ranking)
        older = match_reason(outcome, record.forfeited, record.players, None)  # records stored before issue 25
        if record.reason not in (reason, older):
            report.problems.append(f"reason {reason!r} differs from the recorded {record.reason!r}")


def consistency_problems(record: MatchRecord) -> Iterator[str]:
    """What in ``record`` contradicts itself, without the engine: seats, faults, statuses,
    forfeits, time bank, time control and sandbox."""
    seats = record.num_players
    if len(record.players) != seats:
        count = len(record.players)
        yield f"the record lists {count} player{'' if count == 1 else 's'} for {seats} seats"
    for name in ("scores", "ranking", "engine_ranking", "bank_used"):
        values = getattr(record, name)
        if record.termination != "aborted" and len(values) != seats:
            yield f"{name} has {len(values)} entries for {seats} seats"
    outside = sorted({seat for seat in [m.seat for m in record.moves] + [f.seat for f in record.faults]
                      + record.forfeited if not 0 <= seat < seats})
    if outside:
        yield f"seat {outside[0]} is not a seat of this {seats}-player match"
        return  # the checks below index by seat
    if len(set(record.forfeited)) != len(record.forfeited):
        yield f"forfeited {record.forfeited} lists a seat twice"
    for number, move in enumerate(record.moves):
        if move.elapsed_ms < 0:
            yield f"move {number}: elapsed time {move.elapsed_ms} ms is negative"
            break
    if record.duration_s < 0:
        yield f"duration {record.duration_s} s is negative"
    time_control = _time_control(record)
    if isinstance(time_control, str):
        yield time_control
        return
    yield from _fault_problems(record, time_control["max_faults"])
    yield from _bank_problems(record, time_control["time_bank"])
    try:
        SandboxConfig.from_dict(record.sandbox)
    except (ValueError, TypeError, AttributeError) as error:
        yield f"sandbox {record.sandbox} is not a sandbox configuration ({error})"


def _time_control(record: MatchRecord) -> dict[str, Any] | str:
    """The record's time control, or what is wrong with it."""
    control = record.time_control
    for name, kind in _TIME_CONTROL.items():
        value = control.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or (kind is int and not isinstance(value, int)) or value < (1 if kind is int else 0):
            return f"time_control {name} is {value!r}, not a non-negative {'whole ' if kind is int else ''}number"
    unknown = set(control) - set(_TIME_CONTROL)
    if unknown:
        return f"time_control has an unknown field {sorted(unknown)[0]!r}"
    return control


def _fault_problems(record: MatchRecord, max_faults: int) -> Iterator[str]:
    """Replays the referee's fault rules: each move's status must match the fault at that
    decision, and the forfeits must be those the faults cause, in the same order."""
    faults = {}
    previous = -1
    for fault in record.faults:
        at = -1 if fault.decision is None else fault.decision
        if (fault.kind is FaultKind.STARTUP) != (fault.decision is None):
            yield f"{_a(fault.kind.value)} fault {'without' if fault.decision is None else 'with'} a decision number"
            return
        if at < previous or at in faults:
            yield f"faults are out of order or two at decision {at}"
            return
        if at >= len(record.moves) or (at >= 0 and record.moves[at].seat != fault.seat):
            yield f"a fault of seat {fault.seat} at decision {at}, which is not that seat's move"
            return
        previous = at
        if at >= 0:
            faults[at] = fault
    counts = [0] * record.num_players
    forfeited: list[int] = []

    def count(fault: Fault) -> None:
        counts[fault.seat] += 1
        if (fault.kind in (FaultKind.PROCESS_EXIT, FaultKind.STARTUP) or counts[fault.seat] >= max_faults) \
                and fault.seat not in forfeited:
            forfeited.append(fault.seat)

    for fault in record.faults:
        if fault.decision is None:
            count(fault)
    for number, move in enumerate(record.moves):
        fault = faults.get(number)
        if move.seat in forfeited:
            agrees = move.status is MoveStatus.FORFEITED and fault is None
            expected = "forfeited, without a fault (the seat had forfeited)"
        else:
            kinds = _KINDS_FOR_STATUS[move.status]
            agrees = (fault is None) if not kinds else (fault is not None and fault.kind in kinds)
            expected = f"{_a(' or '.join(k.value for k in kinds))} fault" if kinds else "no fault"
        if not agrees:
            found = f"{_a(fault.kind.value)} fault" if fault else "no fault"
            yield f"move {number}: status {move.status.value} needs {expected}, the record has {found}"
            return
        if fault is not None:
            count(fault)
    if forfeited != record.forfeited:
        yield f"forfeited {record.forfeited} is recorded, but the faults (max_faults {max_faults}) give {forfeited}"


def _bank_problems(record: MatchRecord, time_bank: float) -> Iterator[str]:
    """Bank use lies between 0 and the bank, and a timeout drains the bank."""
    if len(record.bank_used) != record.num_players:
        return
    for seat, used in enumerate(record.bank_used):
        if not -BANK_TOLERANCE <= used <= time_bank + BANK_TOLERANCE:
            yield f"seat {seat} used {used} s of a {time_bank} s time bank"
        elif any(f.seat == seat and f.kind is FaultKind.TIMEOUT for f in record.faults) \
                and abs(used - time_bank) > BANK_TOLERANCE:
            yield f"seat {seat} timed out, which drains the time bank, but used only {used} of {time_bank} s"


def _a(word: str) -> str:
    return f"an {word}" if word[0] in "aeiou" else f"a {word}"
