"""Bots run below the platform: every process of a bot's session BOT_NICE nice steps below the
referee, and, where Linux shares the CPU between sessions first (autogroups), the session's
group too, so that a web page or a referee's deadline never waits behind the bots
(docs/ladder.md, "Soak")."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from referee.bots import BotProcess
from referee.sandbox import BOT_NICE, SandboxConfig, SandboxMode, autogroup_nice, bot_nice, bwrap_problem
from tests.referee.script_bots import script_bot

FORKING_BOT = """\
import subprocess, sys, time
time.sleep(0.3)  # after the referee has set the priority: the child must inherit it
subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
time.sleep(600)
"""


def session(leader: int) -> dict[int, int]:
    """The nice value of every process of the session that ``leader`` leads."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after "pid (comm) "; comm may hold spaces
        if int(fields[3]) == leader:
            found[int(entry.name)] = int(fields[16])
    return found


@pytest.mark.parametrize("mode", [SandboxMode.NONE, SandboxMode.BWRAP])
def test_every_process_of_a_bot_runs_at_the_bots_nice_value(private_tmp: Path, mode: SandboxMode) -> None:
    if mode is SandboxMode.BWRAP and bwrap_problem() is not None:
        pytest.skip(f"no working bubblewrap: {bwrap_problem()}")
    bot = BotProcess(script_bot(private_tmp / "forking", "forking", FORKING_BOT), SandboxConfig(mode))
    try:
        # none: the bot and its child; bwrap: setpriv's bwrap, its namespace's bwrap, those two
        wanted = 2 if mode is SandboxMode.NONE else 4
        deadline = time.monotonic() + 60  # generous: a nice bot starts slowly on a busy machine
        while len(processes := session(bot.process.pid)) < wanted and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(processes) >= wanted, processes
        assert set(processes.values()) == {bot_nice(os.getpriority(os.PRIO_PROCESS, 0))}, processes
        mine = autogroup_nice(os.getpid())
        if mine is not None:  # a kernel with autogroups (this machine's and CI's)
            assert autogroup_nice(bot.process.pid) == bot_nice(mine)
    finally:
        bot.stop(grace=0.3)


def test_the_platform_itself_keeps_its_own_priority(private_tmp: Path) -> None:
    """What the bots give up goes to the referee (this process) and its session's other processes."""
    before, group = os.getpriority(os.PRIO_PROCESS, 0), autogroup_nice(os.getpid())
    bot = BotProcess(script_bot(private_tmp / "forking", "forking", FORKING_BOT), SandboxConfig(SandboxMode.NONE))
    try:
        assert (os.getpriority(os.PRIO_PROCESS, 0), autogroup_nice(os.getpid())) == (before, group)
    finally:
        bot.stop(grace=0.3)


def test_bots_stay_below_a_referee_that_is_itself_nice() -> None:
    """An organiser who runs the referee at nice 15 must not find its bots above it (at 10)."""
    assert bot_nice(0) == BOT_NICE
    assert bot_nice(15) == 19  # the lowest priority there is: equal to the referee at best
    assert all(bot_nice(n) >= n for n in range(-20, 20))
