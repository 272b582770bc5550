"""The local executor: N referee worker processes on this machine.

Workers are spawned (a clean interpreter each) and talk to the parent over a pipe: jobs in,
one :class:`~arena.executors.JobResult` out per job, in order.  Each worker is sent its next
job while it plays one, and starts that job's bots meanwhile.  A worker whose parent
disappears (``kill -9``) notices within half a second, stops its bots and exits.  A worker
that dies mid-match is reported as an error result for that match and replaced; the
replacement gets the job that was waiting.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from collections import deque
from typing import Any

from arena.executors import JobResult, MatchJob, play_job
from arena.executors.keeper import BotKeeper

JOBS_PER_WORKER = 2
"""The match a worker plays and the next one, whose bots it starts meanwhile."""


def _worker_main(conn: multiprocessing.connection.Connection, parent_pid: int, keep_alive: bool,
                 cpu: int | None = None, early_cpus: frozenset[int] | None = None) -> None:
    """A worker process: play jobs from ``conn`` until it closes, the parent dies, or SIGTERM.

    With ``cpu``, the worker and the bots of its matches run on that one CPU (see
    :func:`worker_cpus`).  With ``early_cpus``, a job that arrives while a match plays (the
    executor sends each worker its next job ahead) has its bots started at once on those
    CPUs, so that they are ready when the match ends.
    """
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})  # before any thread or bot exists: they all inherit it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides what Ctrl-C means
    stopping = [False]

    def _terminate(signum: int, frame: Any) -> None:
        # Only the first SIGTERM interrupts; later ones must not cut short stopping the bots.
        if not stopping[0]:
            stopping[0] = True
            raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _terminate)

    def _watch_parent() -> None:
        while os.getppid() == parent_pid:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=_watch_parent, daemon=True).start()
    keeper = BotKeeper(keep_alive, cpu, set(early_cpus) if early_cpus else None)
    arrived = threading.Condition()
    waiting: deque[MatchJob | None] = deque()  # received, not yet taken; None: no more jobs
    playing = [False]
    started_early: list[int | None] = [None]  # the match id whose bots were started early

    def _start_next_early() -> None:
        """With ``arrived`` held: while a match plays, start the bots of the next one (once)."""
        job = waiting[0] if waiting else None
        if early_cpus and playing[0] and job is not None and started_early[0] != job.match_id:
            started_early[0] = job.match_id
            keeper.prestart(job.bots, job.config.time_control.startup_timeout, job.config.sandbox,
                            job.files_hashes)

    def _receive() -> None:
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                job = None
            with arrived:
                waiting.append(job)
                _start_next_early()
                arrived.notify()
            if job is None:
                return

    def _ready() -> None:
        with arrived:
            playing[0] = True
            _start_next_early()

    threading.Thread(target=_receive, daemon=True, name="arena-jobs").start()
    try:
        while True:
            with arrived:
                while not waiting:
                    arrived.wait()
                job = waiting.popleft()
            if job is None:
                return
            result = play_job(job, keeper, _ready)
            with arrived:
                playing[0] = False
            try:
                conn.send(result)
            except (BrokenPipeError, OSError):
                return
    finally:
        stopping[0] = True
        keeper.close()


def early_start_cpus(pinned: list[int | None]) -> frozenset[int] | None:
    """Where workers start their next match's bots while one plays: on the CPUs no worker is
    pinned to, so that booting bots (a Python bot needs ~175 ms of CPU) never slow a match
    that is playing or the time it charges; ``None`` (no early start) when every CPU has a
    worker.  Unpinned workers start them anywhere, as they play anywhere."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    spare = frozenset(os.sched_getaffinity(0)) - {cpu for cpu in pinned if cpu is not None}
    return spare or None


def worker_cpus(workers: int) -> list[int | None]:
    """The CPU each worker is pinned to, in turn over the CPUs this process may use; all
    ``None`` where CPU affinity is not available (not Linux).

    A referee and its bots take turns (one waits while the other works), so they lose
    nothing by sharing one CPU, and they gain a lot: on this project's 2-core machine an
    answer that crosses CPUs waits for the other CPU to wake up, and a Decide round trip took
    0.8-1.2 ms across CPUs against 0.42-0.53 ms on one (benchmarks/referee_speed.py).  Pinned
    workers also stop competing for each other's CPU, and a loaded machine delays a pinned
    bot's answer less (benchmarks/fair_clock.py).
    """
    if not hasattr(os, "sched_setaffinity"):
        return [None] * workers
    cpus = sorted(os.sched_getaffinity(0))
    return [cpus[index % len(cpus)] for index in range(workers)]


class _Worker:
    def __init__(self, context: Any, keep_alive: bool, cpu: int | None, early_cpus: frozenset[int] | None) -> None:
        self.cpu = cpu
        self.early_cpus = early_cpus
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_worker_main, args=(child, os.getpid(), keep_alive, cpu, early_cpus),
                                       daemon=True)
        self.process.start()
        child.close()
        self.jobs: deque[MatchJob] = deque()
        """Sent and not yet answered: the one playing, then the one whose bots start early."""


class LocalExecutor:
    """N worker processes on this machine (spawned, so each has a clean interpreter).

    Each worker holds up to :data:`JOBS_PER_WORKER` jobs: the match it plays and the next
    one, whose bots it starts while the first plays where a CPU is spare
    (:func:`early_start_cpus`).  So :attr:`slots` is twice the workers, while only as many
    matches as workers play at once.
    """

    def __init__(self, workers: int, *, keep_alive: bool = False, pin_cpus: bool = True) -> None:
        workers = max(1, workers)
        self.slots = JOBS_PER_WORKER * workers
        self.keep_alive = keep_alive
        self._context = multiprocessing.get_context("spawn")
        cpus = worker_cpus(workers) if pin_cpus else [None] * workers
        early = early_start_cpus(cpus)
        self._workers = [_Worker(self._context, keep_alive, cpu, early) for cpu in cpus]

    def submit(self, job: MatchJob) -> None:
        """To the worker with the fewest jobs: an idle one plays it at once."""
        index = min(range(len(self._workers)), key=lambda i: len(self._workers[i].jobs))
        worker = self._workers[index]
        if len(worker.jobs) >= JOBS_PER_WORKER:
            raise RuntimeError("no free worker")
        if not worker.jobs and not worker.process.is_alive():
            worker.conn.close()
            worker = self._workers[index] = _Worker(self._context, self.keep_alive, worker.cpu, worker.early_cpus)
        worker.jobs.append(job)
        worker.conn.send(job)

    def running(self) -> int:
        return sum(len(worker.jobs) for worker in self._workers)

    def poll(self, timeout: float) -> list[JobResult]:
        busy = [w for w in self._workers if w.jobs]
        if not busy:
            return []
        waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = multiprocessing.connection.wait(waitables, timeout)
        results = []
        for index, worker in enumerate(self._workers):
            if not worker.jobs or (worker.conn not in ready and worker.process.sentinel not in ready):
                continue
            try:
                result = worker.conn.recv() if worker.conn.poll() else None
            except (EOFError, OSError):
                result = None
            if result is None:  # the worker died mid-match: report it, replace the worker, resend the next job
                worker.process.join(1.0)
                code = worker.process.exitcode
                job = worker.jobs.popleft()
                results.append(JobResult(job.match_id, None, f"worker process died (exit code {code})"))
                worker.conn.close()
                replacement = self._workers[index] = _Worker(self._context, self.keep_alive, worker.cpu, worker.early_cpus)
                for waiting in worker.jobs:
                    replacement.jobs.append(waiting)
                    replacement.conn.send(waiting)
                continue
            job = worker.jobs.popleft()
            assert result.match_id == job.match_id, (result.match_id, job.match_id)
            results.append(result)
        return results

    def close(self, *, abandon: bool = False) -> None:
        for worker in self._workers:
            if abandon and worker.jobs and worker.process.is_alive():
                worker.process.terminate()  # SIGTERM: the worker stops its bots on the way out
            try:
                worker.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        deadline = time.monotonic() + 5.0
        for worker in self._workers:
            worker.process.join(max(0.1, deadline - time.monotonic()))
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()

