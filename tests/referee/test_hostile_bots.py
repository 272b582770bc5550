"""Hostile bots in real matches against the random bot, in the bwrap sandbox.

Every match must finish with the right fault recorded against the hostile seat, the random
bot's seat untouched (no fault, every move its own, ranked first), and no process of either
bot, nor any bot's private folder, left afterwards.  The snoop, network and orphan bots are
also run *without* the sandbox, to show that their attacks work there, so that the sandboxed
test would notice if they got through.
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from referee.bots import BotSpec, resolve_bot
from referee.match import BotConnection, MatchConfig, TimeControl, run_match
from referee.result import FaultKind, MatchRecord, MoveStatus
from referee.sandbox import Limits, SandboxConfig, SandboxMode

from loopback import connections_to, listener  # noqa: F401 (listener is a fixture)

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = ROOT / "tests" / "bots"
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
LIMITS = Limits(memory_mb=256, cpu_seconds=3, processes=64)
SANDBOX = SandboxConfig(SandboxMode.BWRAP, LIMITS)
UNSANDBOXED = SandboxConfig(SandboxMode.NONE)
TIME = TimeControl(move_timeout=0.5, time_bank=1.0, max_faults=3, startup_timeout=30)
"""The hostile seat's time.  Start-up is generous: a loaded machine starts a sandboxed Python
bot in seconds, and every misbehaviour but never-healthy's shows only once the bot is up."""
ROOM = 60.0
"""Start-up and move timeout of the random bot's seat: its time is not what these tests are
about, and a busy machine must not make it fault (waits end at the answer, not at the timeout)."""


@pytest.fixture(autouse=True)
def no_folder_left(leftover_folders) -> Iterator[None]:
    """Whatever a bot did, its private folder in the temporary directory is gone after the test."""
    yield
    assert not leftover_folders(mine=True)


def play(hostile: BotSpec | BotConnection, sandbox: SandboxConfig = SANDBOX, time_control: TimeControl = TIME,
         seed: int = 1) -> MatchRecord:
    """A match of ``hostile`` (seat 0, on ``time_control``) against the random bot (seat 1, with
    :data:`ROOM` to start and to answer)."""
    config = MatchConfig(game="yahtzee", seed=seed, time_control=time_control, sandbox=sandbox,
                         seat_move_timeouts={1: ROOM})
    random_bot = BotConnection(resolve_bot(str(RANDOM_BOT)), ROOM, sandbox)
    try:
        return run_match(config, [hostile, random_bot])
    finally:
        random_bot.close()


def wait_until_gone(find: Callable[..., list[int]], *folders: Path, timeout: float = 30.0) -> list[int]:
    """Processes still in ``folders`` after up to ``timeout`` s (the kernel reaps a PID
    namespace a moment after its first process dies)."""
    deadline = time.monotonic() + timeout
    while (left := find(*folders)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return left


def assert_contained(record: MatchRecord, *, forfeited: bool = True) -> None:
    """The match finished, and only the hostile seat 0 paid for its behaviour."""
    assert record.finished, record.reason
    assert record.sandbox["mode"] == "bwrap"
    assert all(fault.seat == 0 for fault in record.faults)
    assert all(move.status is MoveStatus.OK for move in record.moves if move.seat == 1)
    if forfeited:
        assert record.forfeited == [0] and record.ranking == [1, 0]


def hostile(behaviour: str) -> BotSpec:
    return resolve_bot(str(HOSTILE / f"{behaviour}.toml"))


@pytest.mark.parametrize("behaviour, kinds, detail", [
    ("sleep", [FaultKind.TIMEOUT] * 3, "no answer within 1.500 s"),
    ("crash", [FaultKind.PROCESS_EXIT], "exited with status 3"),
    ("bad-index", [FaultKind.INVALID] * 3, "is not in 0.."),
    ("negative-index", [FaultKind.INVALID] * 3, "index -1 is not in"),
    ("huge-answer", [FaultKind.INVALID] * 3, "larger than the 4 MiB message limit"),
    ("never-healthy", [FaultKind.STARTUP], "not SERVING within 10 s (NOT_SERVING)"),
])
def test_misbehaving_bot_is_faulted_and_forfeits(behaviour: str, kinds: list[FaultKind], detail: str,
                                                  live_processes_in) -> None:
    # never-healthy waits out its start-up time: long enough to come up and say NOT_SERVING under load.
    record = play(hostile(behaviour), time_control=replace(TIME, startup_timeout=10)
                  if behaviour == "never-healthy" else TIME)
    assert_contained(record)
    assert [fault.kind for fault in record.faults] == kinds
    assert detail in record.faults[0].detail
    assert not wait_until_gone(live_processes_in, HOSTILE, RANDOM_BOT)


def test_memory_bomb_is_stopped_at_the_data_limit(live_processes_in) -> None:
    record = play(hostile("memory-bomb"))
    assert_contained(record)
    first = record.faults[0]
    assert first.kind is FaultKind.ERROR and "allocation failed after" in first.detail
    allocated = int(first.detail.split("allocation failed after ")[1].split()[0])
    assert 0 < allocated < LIMITS.memory_mb
    assert not wait_until_gone(live_processes_in, HOSTILE, RANDOM_BOT)


def test_cpu_spinner_is_killed_at_the_cpu_limit(live_processes_in) -> None:
    # A deadline far past the CPU limit, so that the limit acts first even when a busy machine
    # gives the (nice) bot a tenth of a core; the match ends when the bot dies, not at the deadline.
    record = play(hostile("cpu-spin"), time_control=TimeControl(move_timeout=60 * LIMITS.cpu_seconds, time_bank=0,
                                                                startup_timeout=TIME.startup_timeout))
    assert_contained(record)
    assert [fault.kind for fault in record.faults] == [FaultKind.PROCESS_EXIT]
    assert "SIGXCPU" in record.faults[0].detail  # killed by the CPU limit, no other cause
    assert not wait_until_gone(live_processes_in, HOSTILE, RANDOM_BOT)


def test_fork_bomb_hits_the_process_limit(live_processes_in) -> None:
    record = play(hostile("fork-bomb"))
    assert_contained(record)
    first = record.faults[0]
    assert first.kind is FaultKind.ERROR and "fork failed after" in first.detail, first.detail
    assert "Resource temporarily unavailable" in first.detail
    assert not wait_until_gone(live_processes_in, HOSTILE, RANDOM_BOT)


def test_child_that_ignores_sigterm_and_leaves_the_group_dies_with_the_sandbox(live_processes_in) -> None:
    connection = BotConnection(hostile("orphan"), TIME.startup_timeout, SANDBOX)
    try:
        # bwrap, the sandbox's init, the bot, and its runaway child.
        deadline = time.monotonic() + 30
        while len(live_processes_in(HOSTILE)) < 4 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(live_processes_in(HOSTILE)) >= 4
        record = play(connection)
    finally:
        connection.close()
    assert_contained(record, forfeited=False)
    assert record.faults == []
    assert not wait_until_gone(live_processes_in, HOSTILE, RANDOM_BOT)


def test_stopping_a_sandbox_leaves_not_even_a_zombie(running) -> None:
    """The sandbox's init is killed and reaped by bwrap, not orphaned to PID 1."""
    connection = BotConnection(hostile("orphan"), TIME.startup_timeout, SANDBOX)
    assert connection.process is not None
    init = connection.process.sandbox_init()
    assert init is not None and running(init)
    connection.close()
    deadline = time.monotonic() + 30
    while Path(f"/proc/{init}").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not Path(f"/proc/{init}").exists()


def test_without_the_sandbox_the_orphan_survives_the_match(live_processes_in) -> None:
    """Why the PID namespace matters: a child in a new session escapes the process group."""
    record = play(hostile("orphan"), UNSANDBOXED)
    assert record.finished
    time.sleep(0.5)
    orphans = [pid for pid in live_processes_in(HOSTILE) if b"SIG_IGN" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    try:
        assert len(orphans) == 1
    finally:
        for pid in orphans:
            os.kill(pid, signal.SIGKILL)


@pytest.fixture
def organiser(tmp_path: Path) -> tuple[Path, str]:
    """A folder of the organiser's with a secret file readable by every user."""
    folder = tmp_path / "organiser"
    folder.mkdir()
    token = secrets.token_hex(8)
    (folder / "secret.txt").write_text(f"secret {token}\n", encoding="utf-8")
    (folder / "secret.txt").chmod(0o644)
    folder.chmod(0o777)  # even a world-writable folder must stay out of reach
    return folder, token


def test_snooping_bot_can_neither_read_the_organisers_files_nor_write_outside(
        tmp_path: Path, organiser: tuple[Path, str], hostile_bot, live_processes_in) -> None:
    folder, token = organiser
    bot = hostile_bot(tmp_path / "snoop", "snoop", "--read", str(folder / "secret.txt"),
                     str(ROOT / "pyproject.toml"), "/etc/shadow", "--write", str(folder / "pwned"),
                     str(ROOT / "tests" / "pwned"))
    record = play(bot)
    assert_contained(record, forfeited=False)
    report = record.moves[0].comment
    assert "read secret.txt: FileNotFoundError" in report
    assert "read pyproject.toml: FileNotFoundError" in report
    assert "read shadow: PermissionError" in report
    assert "write pwned: " in report and "wrote" not in report
    assert token not in record.dumps()
    assert not (folder / "pwned").exists() and not (ROOT / "tests" / "pwned").exists()
    assert not (tmp_path / "snoop" / "pwned").exists()
    assert not wait_until_gone(live_processes_in, tmp_path, RANDOM_BOT)


def test_without_the_sandbox_the_snooping_bot_reads_and_writes(tmp_path: Path, organiser: tuple[Path, str],
                                                               hostile_bot) -> None:
    folder, token = organiser
    bot = hostile_bot(tmp_path / "snoop", "snoop", "--read", str(folder / "secret.txt"),
                       "--write", str(folder / "pwned"))
    record = play(bot, UNSANDBOXED)
    assert token in record.moves[0].comment
    assert (folder / "pwned").read_text() == "pwned" and (tmp_path / "snoop" / "pwned").exists()




def test_bot_cannot_open_a_network_connection(tmp_path: Path, listener: socket.socket, hostile_bot,
                                              live_processes_in) -> None:
    address = "127.0.0.1:%d" % listener.getsockname()[1]
    record = play(hostile_bot(tmp_path / "net", "network", address))
    assert_contained(record, forfeited=False)
    assert record.moves[0].comment.startswith(f"no connection to {address}")
    assert connections_to(listener) == 0
    assert not wait_until_gone(live_processes_in, tmp_path, RANDOM_BOT)


def test_without_the_sandbox_the_network_bot_connects(tmp_path: Path, listener: socket.socket, hostile_bot) -> None:
    address = "127.0.0.1:%d" % listener.getsockname()[1]
    record = play(hostile_bot(tmp_path / "net", "network", address), UNSANDBOXED)
    assert record.moves[0].comment == f"connected to {address}"
    assert connections_to(listener) == 1


def test_bot_cannot_make_the_referee_quote_a_file_through_its_log(tmp_path: Path, organiser: tuple[Path, str],
                                                                  hostile_bot) -> None:
    folder, token = organiser
    (folder / "secret.txt").chmod(0o600)  # only the (root) referee could read it
    record = play(hostile_bot(tmp_path / "swap", "swap-log", str(folder / "secret.txt")))
    assert_contained(record)
    assert [fault.kind for fault in record.faults] == [FaultKind.PROCESS_EXIT]
    assert "exited with status 3" in record.faults[0].detail
    assert token not in record.dumps()
