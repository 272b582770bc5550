"""The referee against real bot processes on loopback: normal play and every kind of fault."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from arena.sdk import serve
from referee.bots import BotSpec, owner_tag, remove_stale_folders, resolve_bot
from referee.match import MatchConfig, TimeControl, rank_with_forfeits, run_match
from referee.replay import replay
from referee.result import FaultKind, MatchRecord, MoveStatus
from referee.sandbox import SandboxConfig, SandboxMode
from tests.referee.script_bots import WRITE_FILE, read_file_when_written, script_bot, wait_for_file

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
BOTS = ROOT / "tests" / "bots"
BOT_FOLDERS = (ROOT / "sample_bots", BOTS)
FAST = TimeControl(move_timeout=0.2, time_bank=0.5, max_faults=3, startup_timeout=15)
"""For the tests of the clock itself (timeouts, the bank)."""
ROOMY = TimeControl(move_timeout=30.0, time_bank=0.0, max_faults=3, startup_timeout=60)
"""For matches about anything but time: a busy machine must not make a bot time out, and the
referee's waits end at the answer, not at the timeout."""


def test_normal_match_between_sample_bots_finishes_without_faults_and_replays(live_processes_in,
                                                                              leftover_folders) -> None:
    bots = [resolve_bot(str(RANDOM_BOT)), resolve_bot(str(RANDOM_BOT / "bot.toml"))]
    record = run_match(MatchConfig(game="yahtzee", seed=7, time_control=ROOMY), bots)
    assert record.finished and record.termination == "normal"
    assert record.faults == [] and record.forfeited == []
    assert all(move.status is MoveStatus.OK for move in record.moves)
    assert sorted(record.ranking) in ([0, 1], [0, 0])
    assert len(record.moves) >= 2 * 13
    again = MatchRecord.from_json(record.to_json())
    assert replay(again).ok
    assert not live_processes_in(*BOT_FOLDERS)
    assert not leftover_folders(mine=True)


def test_same_seed_and_deterministic_bots_give_the_same_match() -> None:
    bots = [resolve_bot(str(RANDOM_BOT))] * 2
    first = run_match(MatchConfig(game="yahtzee", seed=11, time_control=ROOMY), bots)
    second = run_match(MatchConfig(game="yahtzee", seed=11, time_control=ROOMY), bots)
    assert [m.action for m in first.moves] == [m.action for m in second.moves]
    assert first.scores == second.scores


def test_bot_sleeping_past_its_deadline_gets_fallback_faults_and_a_drained_bank() -> None:
    bots = [resolve_bot(str(BOTS / "sleep.toml")), resolve_bot(str(RANDOM_BOT))]
    started = time.monotonic()
    record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=FAST, seat_move_timeouts={1: 30.0}), bots)
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
    record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=tc, seat_move_timeouts={1: 30.0}), bots)
    assert record.faults == []
    assert 0.35 <= record.bank_used[0] <= 1.0  # slept 0.6 s with 0.2 s free
    assert record.bank_used[1] < 0.2


def test_bot_exiting_mid_match_forfeits_and_the_match_finishes(live_processes_in, leftover_folders) -> None:
    bots = [resolve_bot(str(RANDOM_BOT)), resolve_bot(str(BOTS / "crash.toml"))]
    record = run_match(MatchConfig(game="yahtzee", seed=5, time_control=ROOMY), bots)
    assert record.finished
    assert [f.kind for f in record.faults] == [FaultKind.PROCESS_EXIT]
    assert "exited with status 3" in record.faults[0].detail
    assert record.forfeited == [1]
    assert record.ranking == [0, 1]
    assert sum(1 for m in record.moves if m.seat == 1 and m.status is MoveStatus.OK) == 3
    assert replay(record).ok
    assert not live_processes_in(*BOT_FOLDERS)
    assert not leftover_folders(mine=True)


@pytest.mark.parametrize("behaviour, index_text", [("bad-index", "index "), ("negative-index", "index -1 ")])
def test_out_of_range_answers_are_invalid_faults_then_forfeit(behaviour: str, index_text: str) -> None:
    bots = [resolve_bot(str(BOTS / f"{behaviour}.toml")), resolve_bot(str(RANDOM_BOT))]
    record = run_match(MatchConfig(game="yahtzee", seed=9, time_control=ROOMY), bots)
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
        record = run_match(MatchConfig(game="yahtzee", seed=1, time_control=ROOMY), bots)
        assert record.faults == [] and record.finished
        assert record.players[0] == f"127.0.0.1:{bound.port}"
        second = run_match(MatchConfig(game="yahtzee", seed=2, time_control=ROOMY), bots)
        assert second.faults == []
    finally:
        bound.stop()


def test_a_decide_that_answers_with_the_action_itself_plays_it_and_an_illegal_one_is_a_fault() -> None:
    """Any callable ``(observation, legal actions) -> action`` is a bot (issue 37): the SDK
    answers the action's index; an action that is not legal fails the call, and the referee's
    fallback plays."""
    chosen: list[str] = []

    def last(observation, legal):  # noqa: ANN001, ANN202 - the SDK's signature
        chosen.append(legal[-1].text)
        return legal[-1]

    def foreign(observation, legal):  # noqa: ANN001, ANN202
        return type(legal[0])(text="not an action of this game")

    good = serve(last, name="last", version="1", address="127.0.0.1:0")
    bad = serve(foreign, name="foreign", version="1", address="127.0.0.1:0")
    try:
        record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=ROOMY),
                           [BotSpec.from_address(f"127.0.0.1:{good.port}"), BotSpec.from_address(f"127.0.0.1:{bad.port}")])
        mine = [move for move in record.moves if move.seat == 0]
        assert [move.action for move in mine] == chosen and all(move.status is MoveStatus.OK for move in mine)
        assert record.faults and all(f.seat == 1 and f.kind is FaultKind.ERROR for f in record.faults)
        assert "not among the legal ones" in record.faults[0].detail
        assert record.finished and replay(record).ok
    finally:
        good.stop()
        bad.stop()


def test_bot_that_never_starts_forfeits_with_the_reason(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # the sandbox's unprivileged user must be able to read the bot's folder
    (tmp_path / "bot.toml").write_text('name = "broken"\ncommand = ["{python}", "-c", "import sys; '
                                       'print(\'cannot start\'); sys.exit(4)"]\n')
    bots = [resolve_bot(str(tmp_path)), resolve_bot(str(RANDOM_BOT))]
    record = run_match(MatchConfig(game="yahtzee", seed=1, time_control=ROOMY), bots)
    assert [f.kind for f in record.faults] == [FaultKind.STARTUP]
    assert "exited with status 4: cannot start" in record.faults[0].detail
    assert record.forfeited == [0] and record.ranking == [1, 0] and record.finished


def test_replay_detects_a_tampered_record() -> None:
    record = run_match(MatchConfig(game="yahtzee", seed=4, time_control=ROOMY), [resolve_bot(str(RANDOM_BOT))] * 2)
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
    stubborn = script_bot(
        tmp_path, "stubborn",
        "import os, signal, subprocess, sys, time\n" + WRITE_FILE +
        "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)'])\n"
        "write_file('child.pid', str(child.pid))\n"
        "time.sleep(600)\n")
    from referee.bots import BotProcess

    process = BotProcess(stubborn, SandboxConfig(SandboxMode.NONE))
    child = int(read_file_when_written(tmp_path / "child.pid"))
    assert running(child)
    process.stop(grace=0.3)
    deadline = time.monotonic() + 30
    while running(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(child)
    assert not process.alive()


def test_bot_dies_with_a_referee_killed_by_sigkill_and_the_next_referee_removes_its_folder(
        tmp_path: Path, running, live_processes_in, leftover_folders, private_tmp: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    script = ("import sys, time\n"
              "from referee.bots import BotProcess, resolve_bot\n"
              f"bot = BotProcess(resolve_bot({str(RANDOM_BOT)!r}))\n"
              "print(bot.process.pid, bot.address, flush=True)\n"
              "time.sleep(600)\n")
    env = dict(os.environ, TMPDIR=str(private_tmp))
    referee = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env)
    assert referee.stdout is not None
    pid_text, address = referee.stdout.readline().split()
    bot_pid, folder = int(pid_text), Path(address.removeprefix("unix://")).parent
    time.sleep(0.5)
    assert running(bot_pid)
    # A live referee's folder, which the next referee must leave alone: this process's.
    live = private_tmp / f"arena-bot-{owner_tag()}-live"
    live.mkdir()
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    deadline = time.monotonic() + 30  # generous: dying takes a turn on the CPU, a rare one for a nice bot under load
    while running(bot_pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not running(bot_pid), "the bot outlived its referee"
    while live_processes_in(RANDOM_BOT) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not live_processes_in(RANDOM_BOT), "a process of the sandboxed bot outlived its referee"
    assert folder.parent == private_tmp and folder.is_dir()  # nobody could remove it
    subprocess.run([sys.executable, "-m", "arena.cli", "play", "--game", "yahtzee", "--quiet",
                    "--bot", str(RANDOM_BOT)], check=True, capture_output=True, timeout=60, cwd=ROOT, env=env)
    assert leftover_folders(private_tmp) == [live], "the next referee removes the dead one's folder, only that"


def test_stale_folders_are_removed_only_for_dead_referees(tmp_path: Path, monkeypatch) -> None:
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    mine = tmp_path / f"arena-check-{owner_tag()}-abc"
    reused_pid = tmp_path / f"arena-bot-{owner_tag().split('.')[0]}.1-abc"  # this pid, another start time
    dead = tmp_path / "arena-bot-4194999.77-abc"  # above the kernel's pid limit: never alive
    dead_cluster = tmp_path / "arena-dask-4194997.77-abc"  # a killed run's local Dask cluster's scratch space
    link = tmp_path / "arena-bot-4194998.77-abc"
    old_style = tmp_path / "arena-bot-k2j4abcd"  # no owner in the name: left alone
    for folder in (mine, reused_pid, dead, dead_cluster, old_style):
        folder.mkdir()
    (dead / "bot.log").write_text("x")
    (dead_cluster / "dask-scratch-space").mkdir()
    link.symlink_to(old_style)
    assert sorted(remove_stale_folders()) == sorted([reused_pid, dead, dead_cluster])
    assert mine.is_dir() and old_style.is_dir() and link.is_symlink()


def test_a_seat_with_its_own_move_timeout_waits_longer_and_the_record_replays() -> None:
    """``seat_move_timeouts`` (the web's human seat): only that seat gets the longer time."""
    bots = [resolve_bot(str(BOTS / "sleep-once.toml")), resolve_bot(str(BOTS / "sleep-once.toml"))]
    tc = TimeControl(move_timeout=0.2, time_bank=0.0, max_faults=3, startup_timeout=15)
    seen: list[int] = []
    record = run_match(MatchConfig(game="yahtzee", seed=3, time_control=tc, seat_move_timeouts={1: 2.0}), bots,
                       on_state=lambda state: seen.append(len(state.events)))
    assert [(f.seat, f.kind) for f in record.faults] == [(0, FaultKind.TIMEOUT)]  # seat 1 slept 0.6 s in time
    assert record.time_control["seat_move_timeouts"] == {"1": 2.0}
    assert len(seen) == len(record.moves) + 1  # before every decision and once at the end
    assert replay(MatchRecord.from_json(record.to_json())).ok


def test_a_bots_output_is_read_as_its_last_bytes_until_it_stops(tmp_path: Path) -> None:
    """What the submission worker keeps of a validation match: stdout and stderr together, cut
    to the last ``limit`` bytes (a flooding bot costs the limit, not its flood)."""
    loud = script_bot(tmp_path, "loud",
                      "import sys, time\n"
                      "print('first ' + 'x' * 100_000, flush=True)\n"
                      "print('to stderr: the end', file=sys.stderr, flush=True)\n"
                      "open('done', 'w').close()\n"
                      "time.sleep(600)\n")
    from referee.bots import BotProcess

    process = BotProcess(loud, SandboxConfig(SandboxMode.NONE))
    try:
        assert wait_for_file(tmp_path / "done")  # written after the output, which went straight to the log
        tail = process.output(64 * 1024)
        assert len(tail.encode()) == 64 * 1024 and tail.endswith("x\nto stderr: the end\n")
        assert "first" in process.output(200_000) and process.output_tail() == "to stderr: the end"
    finally:
        process.stop(grace=0.3)
    assert process.output(64 * 1024) == ""  # its log is gone with it: read before stopping
