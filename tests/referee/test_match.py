"""The referee against real bot processes on loopback: normal play and every kind of fault."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.sdk import serve
from referee.bots import BotSpec, resolve_bot
from referee.match import MatchConfig, TimeControl, rank_with_forfeits, run_match
from referee.replay import replay
from referee.result import FaultKind, MatchRecord, MoveStatus
from referee.sandbox import SandboxConfig, SandboxMode

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
BOTS = ROOT / "tests" / "bots"
BOT_FOLDERS = (ROOT / "sample_bots", BOTS)
FAST = TimeControl(move_timeout=0.2, time_bank=0.5, max_faults=3, startup_timeout=15)


def test_normal_match_between_sample_bots_finishes_without_faults_and_replays(live_processes_in) -> None:
    bots = [resolve_bot(str(RANDOM_BOT)), resolve_bot(str(RANDOM_BOT / "bot.toml"))]
    record = run_match(MatchConfig(game="yahtzee", seed=7, time_control=FAST), bots)
    assert record.finished and record.termination == "normal"
    assert record.faults == [] and record.forfeited == []
    assert all(move.status is MoveStatus.OK for move in record.moves)
    assert sorted(record.ranking) in ([0, 1], [0, 0])
    assert len(record.moves) >= 2 * 13
    again = MatchRecord.from_json(record.to_json())
    assert replay(again).ok
    assert not live_processes_in(*BOT_FOLDERS)


def test_same_seed_and_deterministic_bots_give_the_same_match() -> None:
    bots = [resolve_bot(str(RANDOM_BOT))] * 2
    first = run_match(MatchConfig(game="yahtzee", seed=11, time_control=FAST), bots)
    second = run_match(MatchConfig(game="yahtzee", seed=11, time_control=FAST), bots)
    assert [m.action for m in first.moves] == [m.action for m in second.moves]
    assert first.scores == second.scores


def test_bot_sleeping_past_its_deadline_gets_fallback_faults_and_a_drained_bank() -> None:
    bots = [resolve_bot(str(BOTS / "sleep.toml")), resolve_bot(str(RANDOM_BOT))]
    started = time.monotonic()
    record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=FAST), bots)
    took = time.monotonic() - started
    timeouts = [f for f in record.faults if f.kind is FaultKind.TIMEOUT]
    assert [f.seat for f in timeouts] == [0, 0, 0]
    # First deadline: move timeout + the whole bank; then the bank is empty.
    assert "0.700 s" in timeouts[0].detail and "0.200 s" in timeouts[1].detail
    assert record.bank_used[0] == pytest.approx(0.5)
    assert record.forfeited == [0]
    assert record.ranking[0] == 1 and record.ranking[1] == 0
    statuses = [m.status for m in record.moves if m.seat == 0]
    assert statuses[:3] == [MoveStatus.TIMEOUT] * 3
    assert set(statuses[3:]) == {MoveStatus.FORFEITED}
    assert record.finished and replay(record).ok
    assert took < 20, "the forfeited bot must not be asked again"


def test_time_beyond_the_move_timeout_comes_out_of_the_bank() -> None:
    bots = [resolve_bot(str(BOTS / "sleep-once.toml")), resolve_bot(str(RANDOM_BOT))]
    tc = TimeControl(move_timeout=0.2, time_bank=2.0, max_faults=3, startup_timeout=15)
    record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=tc), bots)
    assert record.faults == []
    assert 0.35 <= record.bank_used[0] <= 1.0  # slept 0.6 s with 0.2 s free
    assert record.bank_used[1] < 0.2


def test_bot_exiting_mid_match_forfeits_and_the_match_finishes(live_processes_in) -> None:
    bots = [resolve_bot(str(RANDOM_BOT)), resolve_bot(str(BOTS / "crash.toml"))]
    record = run_match(MatchConfig(game="yahtzee", seed=5, time_control=FAST), bots)
    assert record.finished
    assert [f.kind for f in record.faults] == [FaultKind.PROCESS_EXIT]
    assert "exited with status 3" in record.faults[0].detail
    assert record.forfeited == [1]
    assert record.ranking == [0, 1]
    assert sum(1 for m in record.moves if m.seat == 1 and m.status is MoveStatus.OK) == 3
    assert replay(record).ok
    assert not live_processes_in(*BOT_FOLDERS)


@pytest.mark.parametrize("behaviour, index_text", [("bad-index", "index "), ("negative-index", "index -1 ")])
def test_out_of_range_answers_are_invalid_faults_then_forfeit(behaviour: str, index_text: str) -> None:
    bots = [resolve_bot(str(BOTS / f"{behaviour}.toml")), resolve_bot(str(RANDOM_BOT))]
    record = run_match(MatchConfig(game="yahtzee", seed=9, time_control=FAST), bots)
    assert [f.kind for f in record.faults] == [FaultKind.INVALID] * 3
    assert all(f.detail.startswith(index_text) and "is not in 0.." in f.detail for f in record.faults)
    seat0_moves = [number for number, move in enumerate(record.moves) if move.seat == 0]
    assert [f.decision for f in record.faults] == seat0_moves[:3]
    assert record.forfeited == [0] and record.ranking == [1, 0]
    assert replay(record).ok


def test_bot_given_by_address_is_used_and_left_running() -> None:
    bound = serve(lambda observation, legal: len(legal) - 1, name="last", version="1", address="127.0.0.1:0")
    try:
        bots = [BotSpec.from_address(f"127.0.0.1:{bound.port}"), resolve_bot(str(RANDOM_BOT))]
        record = run_match(MatchConfig(game="yahtzee", seed=1, time_control=FAST), bots)
        assert record.faults == [] and record.finished
        assert record.players[0] == f"127.0.0.1:{bound.port}"
        second = run_match(MatchConfig(game="yahtzee", seed=2, time_control=FAST), bots)
        assert second.faults == []
    finally:
        bound.stop()


def test_bot_that_never_starts_forfeits_with_the_reason(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # the sandbox's unprivileged user must be able to read the bot's folder
    (tmp_path / "bot.toml").write_text('name = "broken"\ncommand = ["{python}", "-c", "import sys; '
                                       'print(\'cannot start\'); sys.exit(4)"]\n')
    bots = [resolve_bot(str(tmp_path)), resolve_bot(str(RANDOM_BOT))]
    record = run_match(MatchConfig(game="yahtzee", seed=1, time_control=FAST), bots)
    assert [f.kind for f in record.faults] == [FaultKind.STARTUP]
    assert "exited with status 4: cannot start" in record.faults[0].detail
    assert record.forfeited == [0] and record.ranking == [1, 0] and record.finished


def test_replay_detects_a_tampered_record() -> None:
    record = run_match(MatchConfig(game="yahtzee", seed=4, time_control=FAST), [resolve_bot(str(RANDOM_BOT))] * 2)
    data = record.to_json()
    data["scores"] = [s + 1 for s in data["scores"]]
    report = replay(MatchRecord.from_json(data))
    assert not report.ok and "scores" in report.problems[0]
    data = record.to_json()
    data["moves"][5]["action"] = "something else"
    assert "move 5" in replay(MatchRecord.from_json(data)).problems[0]


def test_rank_with_forfeits_keeps_engine_order_within_groups() -> None:
    assert rank_with_forfeits([0, 1, 2, 3], set()) == (0, 1, 2, 3)
    assert rank_with_forfeits([0, 1, 1, 3], {0}) == (3, 0, 0, 2)
    assert rank_with_forfeits([1, 0, 0, 3], {1, 2}) == (0, 2, 2, 1)


def test_stopping_an_unsandboxed_bot_kills_children_that_ignore_sigterm(tmp_path: Path, running) -> None:
    # Outside the sandbox only the process group holds the bot's processes together
    # (tests/referee/test_hostile_bots.py has the sandboxed case).
    script = tmp_path / "stubborn.py"
    script.write_text(
        "import os, signal, subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)'])\n"
        "open('child.pid', 'w').write(str(child.pid))\n"
        "time.sleep(600)\n")
    (tmp_path / "bot.toml").write_text('name = "stubborn"\ncommand = ["{python}", "stubborn.py"]\n')
    from referee.bots import BotProcess

    process = BotProcess(resolve_bot(str(tmp_path)), SandboxConfig(SandboxMode.NONE))
    deadline = time.monotonic() + 10
    while not (tmp_path / "child.pid").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    child = int((tmp_path / "child.pid").read_text())
    assert running(child)
    process.stop(grace=0.3)
    deadline = time.monotonic() + 5
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child)
    assert not process.alive()


def test_bot_dies_with_a_referee_killed_by_sigkill(tmp_path: Path, running, live_processes_in) -> None:
    import signal
    import subprocess
    import sys

    script = ("import sys, time\n"
              "from referee.bots import BotProcess, resolve_bot\n"
              f"bot = BotProcess(resolve_bot({str(RANDOM_BOT)!r}))\n"
              "print(bot.process.pid, flush=True)\n"
              "time.sleep(600)\n")
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT)
    assert referee.stdout is not None
    bot_pid = int(referee.stdout.readline())
    time.sleep(0.5)
    assert running(bot_pid)
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    deadline = time.monotonic() + 5
    while running(bot_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(bot_pid), "the bot outlived its referee"
    while live_processes_in(RANDOM_BOT) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not live_processes_in(RANDOM_BOT), "a process of the sandboxed bot outlived its referee"
