"""Replay of edited and malformed match records (issue 11): every field that can be derived
or must agree with another is checked, and a malformed file is a one-line error."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee.bots import resolve_bot
from referee.match import MatchConfig, TimeControl, run_match
from referee.replay import StopReplay, replay
from referee.result import MatchRecord, MoveStatus

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
ROOMY = TimeControl(move_timeout=30.0, time_bank=0.5, max_faults=3, startup_timeout=60)
"""Time is not what these tests are about: a busy machine must not make a bot time out."""
Data = dict[str, Any]


@pytest.fixture(scope="module")
def faulty() -> Data:
    """A real record in which seat 0 answers out of range three times and forfeits."""
    bots = [resolve_bot(str(ROOT / "tests" / "bots" / "bad-index.toml")), resolve_bot(str(RANDOM_BOT))]
    record = run_match(MatchConfig(game="yahtzee", seed=9, time_control=ROOMY), bots)
    assert record.forfeited == [0] and len(record.faults) == 3 and replay(record).ok
    return json.loads(record.dumps())


def first(data: Data, seat: int, status: str) -> Data:
    return next(m for m in data["moves"] if m["seat"] == seat and m["status"] == status)


def drop_player(data: Data) -> None:
    data["players"].pop()


def ok_move_becomes_timeout(data: Data) -> None:
    first(data, 1, "ok")["status"] = "timeout"


def invalid_move_becomes_ok(data: Data) -> None:
    first(data, 0, "invalid")["status"] = "ok"


def forfeited_move_becomes_ok(data: Data) -> None:
    first(data, 0, "forfeited")["status"] = "ok"


def forgive_the_forfeit(data: Data) -> None:
    data["forfeited"] = []


def swap_ranking(data: Data) -> None:
    data["ranking"].reverse()


def swap_engine_ranking(data: Data) -> None:
    data["engine_ranking"] = [0, 0] if data["engine_ranking"] != [0, 0] else [0, 1]


def change_termination(data: Data) -> None:
    data["termination"] = "cap"


def change_reason(data: Data) -> None:
    data["reason"] = "seat 0 won fair and square"


def overdraw_the_bank(data: Data) -> None:
    data["bank_used"][1] = 99.0


def move_a_fault_to_the_other_seat(data: Data) -> None:
    data["faults"][0]["seat"] = 1


def drop_a_fault(data: Data) -> None:
    data["faults"].pop(0)


def raise_max_faults(data: Data) -> None:
    data["time_control"]["max_faults"] = 5


def negative_max_faults(data: Data) -> None:
    data["time_control"]["max_faults"] = -1


def seat_out_of_range(data: Data) -> None:
    data["forfeited"] = [7]


def unknown_sandbox_mode(data: Data) -> None:
    data["sandbox"]["mode"] = "chroot"


@pytest.mark.parametrize("edit, problem", [
    (drop_player, "the record lists 1 player for 2 seats"),
    (ok_move_becomes_timeout, "status timeout needs a timeout fault, the record has no fault"),
    (invalid_move_becomes_ok, "status ok needs no fault, the record has an invalid fault"),
    (forfeited_move_becomes_ok, "status ok needs forfeited, without a fault"),
    (forgive_the_forfeit, "forfeited [] is recorded, but the faults (max_faults 3) give [0]"),
    (swap_ranking, "ranking [1, 0] differs from the recorded [0, 1]"),
    (swap_engine_ranking, "engine ranking"),
    (change_termination, "termination 'normal' differs from the recorded 'cap'"),
    (change_reason, "reason"),
    (overdraw_the_bank, "seat 1 used 99.0 s of a 0.5 s time bank"),
    (move_a_fault_to_the_other_seat, "a fault of seat 1 at decision"),
    (drop_a_fault, "status invalid needs an invalid fault, the record has no fault"),
    (raise_max_faults, "status forfeited needs a process_exit fault"),
    (negative_max_faults, "time_control max_faults is -1"),
    (seat_out_of_range, "seat 7 is not a seat of this 2-player match"),
    (unknown_sandbox_mode, "sandbox"),
], ids=lambda value: value.__name__ if callable(value) else "")
def test_an_edited_record_does_not_replay(faulty: Data, edit: Callable[[Data], None], problem: str) -> None:
    data = copy.deepcopy(faulty)
    edit(data)
    report = replay(MatchRecord.from_json(data))
    assert not report.ok
    assert any(problem in line for line in report.problems), report.problems


def test_the_unedited_faulty_record_replays(faulty: Data) -> None:
    record = MatchRecord.from_json(copy.deepcopy(faulty))
    assert replay(record).problems == []
    assert {m.status for m in record.moves if m.seat == 0} == {MoveStatus.INVALID, MoveStatus.FORFEITED}


def set_path(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    target = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()


@pytest.mark.parametrize("path, value, message", [
    ((), [1, 2], "match record must be an object, not a list"),
    ((), "record", 'match record must be an object, not a string ("record")'),
    (("format",), 2, "match record format 2 is not 1"),
    (("moves", 3, "index"), "3", 'moves[3].index must be a whole number, not a string ("3")'),
    (("moves", 0, "seat"), 0.5, "moves[0].seat must be a whole number, not a number (0.5)"),
    (("moves", 0, "status"), "great", "moves[0].status must be one of ok, timeout, error, invalid, forfeited"),
    (("moves", 0), [1, 2], "moves[0] must be an object, not a list"),
    (("moves", 0, "action"), DELETE, "moves[0] has no 'action' field"),
    (("moves",), {}, "moves must be a list, not an object"),
    (("players",), DELETE, "match record has no 'players' field"),
    (("players", 0), None, "players[0] must be a string, not null"),
    (("surprise",), 1, 'match record has an unknown field "surprise"'),
    (("seed",), True, "seed must be a whole number, not true"),
    (("scores", 0), "12", 'scores[0] must be a number, not a string ("12")'),
    (("faults", 0, "decision"), "1", 'faults[0].decision must be a whole number, not a string ("1")'),
    (("faults", 0, "kind"), "meltdown", "faults[0].kind must be one of"),
    (("settings",), [], "settings must be an object, not a list"),
    (("time_control",), None, "time_control must be an object, not null"),
])
def test_a_malformed_record_is_a_one_line_value_error(faulty: Data, path: tuple[Any, ...], value: Any,
                                                      message: str) -> None:
    data = set_path(copy.deepcopy(faulty), path, value)
    with pytest.raises(ValueError) as error:
        MatchRecord.from_json(data)
    assert message in str(error.value) and "\n" not in str(error.value)


def test_a_callback_may_stop_the_replay_without_a_finding_bug(faulty: Data) -> None:
    """Issue 25: the web viewer stopped after its page of steps by raising from ``on_state``, and
    the replay reported that as "the engine failed on the record" for every good record."""
    record = MatchRecord.from_json(faulty)
    seen: list[int] = []

    def first_three(number: int, state: object) -> None:
        if number == 3:
            raise StopReplay
        seen.append(number)

    report = replay(record, first_three)
    assert report.stopped and report.problems == [] and seen == [0, 1, 2]
    whole = replay(record, lambda number, state: None)
    assert not whole.stopped and whole.ok
