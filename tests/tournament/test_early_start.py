"""A worker starts the bots of its next match while the current one plays (BotKeeper.prestart):
the next acquire takes them ready, unused ones are stopped, and they end on the worker's CPU."""

from __future__ import annotations

import contextlib
import os
import threading
import time

import pytest

from arena.executors.keeper import BotKeeper
from referee.bots import BotProcess, BotSpec
from referee.sandbox import SandboxConfig

from .helpers import record, write_bot

SANDBOX = SandboxConfig()
TIMEOUT = 20.0


@pytest.fixture
def specs(tmp_path) -> list[BotSpec]:
    return [BotSpec.from_manifest(write_bot(tmp_path / name, name)) for name in ("a", "b", "c")]


def wait_until(condition, seconds: float = 60.0) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_next_matchs_bots_start_while_one_plays_and_are_taken_ready(specs):
    keeper = BotKeeper(keep_alive=False)
    try:
        playing = keeper.acquire(specs[:2], TIMEOUT, SANDBOX)
        assert keeper.prestart([specs[2], specs[0]], TIMEOUT, SANDBOX) == 2
        early = [future for futures in keeper._early.values() for future in futures]
        assert wait_until(lambda: all(future.done() for future in early))
        keeper.release(playing, None)
        taken = keeper.acquire([specs[2], specs[0]], TIMEOUT, SANDBOX)
        started_early = {future.result() for future in early}
        assert set(taken) == started_early and all(c.alive() for c in started_early)  # none started anew
        keeper.release(taken, None)
        assert not any(c.alive() for c in started_early)
    finally:
        keeper.close()


def test_early_bots_no_match_takes_are_stopped(specs):
    keeper = BotKeeper(keep_alive=False)
    try:
        playing = keeper.acquire(specs[:1], TIMEOUT, SANDBOX)
        assert keeper.prestart(specs[1:], TIMEOUT, SANDBOX) == 2
        futures = [f for futures in keeper._early.values() for f in futures]
    finally:
        keeper.close()  # as on SIGTERM or the end of a tournament, while the early starts may be booting
    connections = [f.result(timeout=TIMEOUT) for f in futures]
    assert wait_until(lambda: not any(c.alive() for c in connections)), "early-started bots left running"
    assert not any(c.alive() for c in playing)


def test_a_kept_bot_is_not_started_again_and_a_spare_one_is_stopped(specs):
    keeper = BotKeeper(keep_alive=True)
    try:
        playing = keeper.acquire(specs[:2], TIMEOUT, SANDBOX)
        assert keeper.prestart(specs[:2], TIMEOUT, SANDBOX) == 0  # both are kept alive
        assert keeper.prestart(specs[1:], TIMEOUT, SANDBOX) == 1  # only c needs a process
        spare = keeper._early[specs[2]][0]
        keeper.release(playing, None)  # no record: nothing is healthy, so nothing stays kept
        taken = keeper.acquire(specs[1:], TIMEOUT, SANDBOX)
        assert spare.result() in taken
        keeper.release(taken, None)
    finally:
        keeper.close()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="CPU affinity needs Linux and at least 2 CPUs")
def test_early_bots_boot_anywhere_and_play_on_the_workers_cpu(specs):
    everywhere = os.sched_getaffinity(0)
    cpu = max(everywhere)
    keeper = BotKeeper(keep_alive=False, cpu=cpu, start_cpus=everywhere)
    try:
        playing = keeper.acquire(specs[:1], TIMEOUT, SANDBOX)
        keeper.prestart(specs[1:2], TIMEOUT, SANDBOX)
        (future,) = keeper._early[specs[1]]
        booting = future.result(timeout=TIMEOUT)
        assert os.sched_getaffinity(booting.process.process.pid) == everywhere
        keeper.release(playing, None)
        (taken,) = keeper.acquire(specs[1:2], TIMEOUT, SANDBOX)
        assert taken is booting
        pids = [booting.process.process.pid]
        init = booting.process.sandbox_init()
        pids += [init] if init is not None else []
        for pid in pids:
            for task in os.listdir(f"/proc/{pid}/task"):
                assert os.sched_getaffinity(int(task)) == {cpu}
    finally:
        keeper.close()


SLOW_BOOTING_BOT = '''
import time
time.sleep(2.0)  # a slow start-up: the early start must hide it behind the match before
from arena.v1 import bot_pb2
from arena.sdk import run_bot

def decide(observation, legal_actions):
    time.sleep(0.15)
    return 0

run_bot(decide, name="{name}", version="1")
'''


def write_slow_bot(parent, name: str) -> BotSpec:
    """A bot that takes 2 s to start (:data:`SLOW_BOOTING_BOT`), in a folder of its own."""
    folder = parent / name
    folder.mkdir()
    folder.chmod(0o755)
    (folder / "bot.py").write_text(SLOW_BOOTING_BOT.format(name=name), encoding="utf-8")
    (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = ["{{python}}", "bot.py"]\n', encoding="utf-8")
    return BotSpec.from_manifest(folder)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="early starts need a CPU that no worker is pinned to")
def test_a_worker_starts_the_next_matchs_bots_while_one_plays(tmp_path):
    """One worker, two queued matches of slow-booting bots (2 s) that play slowly (26 decisions
    of 0.15 s): the second match finds its bots ready, so its start-up wait is far below 2 s."""
    from arena.executors import MatchJob
    from arena.executors.local import LocalExecutor
    from referee.match import MatchConfig

    specs = [write_slow_bot(tmp_path, name) for name in ("slow-a", "slow-b")]
    executor = LocalExecutor(1)
    results = []
    try:
        for match_id in (1, 2):
            executor.submit(MatchJob(match_id, MatchConfig(game="yahtzee", seed=match_id, match_id=str(match_id)),
                                     tuple(specs)))
        end = time.monotonic() + 120
        while len(results) < 2 and time.monotonic() < end:
            results += executor.poll(1.0)
    finally:
        executor.close()
    assert [r.match_id for r in results] == [1, 2] and all(r.error is None for r in results), results
    assert all(not r.record.forfeited for r in results)
    first, second = results
    assert first.startup_s >= 2.0
    assert second.startup_s < 1.0, (first.startup_s, second.startup_s)


def tree_affinities(process: BotProcess) -> set[frozenset[int]]:
    """The CPU sets of every thread of the bot's process and of every process below it."""
    found: set[frozenset[int]] = set()
    for task in process.tasks():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            found.add(frozenset(os.sched_getaffinity(task)))
    return found


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="CPU affinity needs Linux and at least 2 CPUs")
def test_early_bots_still_booting_when_their_match_waits_boot_on_the_workers_cpu_too(tmp_path, specs):
    """The worker waits for them, so its CPU is free: they boot on it and on the spare CPUs,
    then play on the worker's CPU alone."""
    everywhere = os.sched_getaffinity(0)
    cpu = max(everywhere)
    spare = everywhere - {cpu}
    slow = write_slow_bot(tmp_path, "slow")
    keeper = BotKeeper(keep_alive=False, cpu=cpu, start_cpus=spare)
    try:
        playing = keeper.acquire(specs[:1], TIMEOUT, SANDBOX)
        keeper.prestart([slow], TIMEOUT, SANDBOX)
        (future,) = keeper._early[slow]
        assert wait_until(lambda: bool(keeper._launches[future]))
        (process,) = keeper._launches[future]
        assert wait_until(lambda: len(tree_affinities(process)) > 0)
        assert tree_affinities(process) == {frozenset(spare)}  # the match plays on cpu
        keeper.release(playing, None)
        taken: list = []
        waiting = threading.Thread(target=lambda: taken.extend(keeper.acquire([slow], TIMEOUT, SANDBOX)))
        waiting.start()
        assert wait_until(lambda: tree_affinities(process) == {frozenset(everywhere)})
        assert not future.done()  # still booting: the widening came while the worker waited
        waiting.join(TIMEOUT)
        assert taken == [future.result()]
        assert tree_affinities(process) == {frozenset({cpu})}
        keeper.release(taken, None)
        assert keeper._launches == {}
    finally:
        keeper.close()


def test_the_kept_bots_are_a_bounded_pool_that_stops_the_least_recently_used(specs):
    keeper = BotKeeper(keep_alive=True, max_alive=2)
    try:
        first = keeper.acquire(specs[:2], TIMEOUT, SANDBOX)
        keeper.release(first, record(1, [0, 1]))
        assert list(keeper.alive) == specs[:2] and all(c.alive() for c in first)
        second = keeper.acquire([specs[2], specs[0]], TIMEOUT, SANDBOX)  # a was used last, b is stopped
        assert second[1] is first[0] and list(keeper.alive) == [specs[0], specs[2]]
        assert wait_until(lambda: not first[1].alive())
        keeper.release(second, record(2, [1, 0]))
        assert all(c.alive() for c in second)
    finally:
        keeper.close()


def test_a_bot_that_does_not_start_is_started_once_per_match_and_forfeits_with_the_reason(tmp_path, specs):
    """A bot that never comes up costs a match one start-up wait, not two (the keeper's, then
    the referee's again)."""
    from arena.executors import MatchJob, play_job
    from referee.match import MatchConfig
    from referee.result import FaultKind
    from referee.sandbox import SandboxMode

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "bot.toml").write_text('name = "broken"\ncommand = ["{python}", "-c", "import sys; '
                                     "open('starts', 'a').write('start\\\\n'); sys.exit(4)\"]\n")
    config = MatchConfig(game="yahtzee", seed=1, sandbox=SandboxConfig(SandboxMode.NONE))
    keeper = BotKeeper(keep_alive=True)
    try:
        results = [play_job(MatchJob(n, config, (BotSpec.from_manifest(broken), specs[0])), keeper) for n in (1, 2)]
    finally:
        keeper.close()
    assert (broken / "starts").read_text() == "start\n" * 2
    for result in results:
        assert result.error is None and result.record.forfeited == [0]
        assert [(fault.seat, fault.kind) for fault in result.record.faults] == [(0, FaultKind.STARTUP)]
        assert "exited with status 4" in result.record.faults[0].detail


def test_a_kept_bot_is_started_afresh_once_its_decisions_took_half_its_cpu_limit(specs):
    """A bot that thinks hard is not left to reach its CPU limit (and be killed mid-match):
    after the match in which its decisions pass half the limit, its next match gets a new process."""
    import dataclasses

    from referee.result import Move, MoveStatus
    from referee.sandbox import Limits

    def played(thinking_ms: list[float]):
        done = record(1, [0, 1])
        return dataclasses.replace(done, moves=[Move(0, 0, "x", MoveStatus.OK, ms) for ms in thinking_ms]
                                   + [Move(1, 0, "x", MoveStatus.OK, 60_000.0)])  # seat 1: no process of ours

    sandbox = SandboxConfig(limits=Limits(cpu_seconds=4))  # recycled at 2 s of decisions
    keeper = BotKeeper(keep_alive=True)
    try:
        first = keeper.acquire(specs[:1], TIMEOUT, sandbox)
        keeper.release(first, played([700.0, 800.0]))  # 1.5 s: kept
        second = keeper.acquire(specs[:1], TIMEOUT, sandbox)
        assert second[0] is first[0] and first[0].alive()
        keeper.release(second, played([600.0]))  # 2.1 s: stopped after this match
        assert not first[0].alive()
        third = keeper.acquire(specs[:1], TIMEOUT, sandbox)
        assert third[0] is not first[0] and third[0].alive()
        keeper.release(third, played([100.0]))  # the new process counts from zero
        assert third[0].alive()
    finally:
        keeper.close()
