"""The local executor: N referee worker processes on this machine.

Workers are spawned (a clean interpreter each) and talk to the parent over a pipe: a job in,
a :class:`~arena.executors.JobResult` out.  A worker whose parent disappears (``kill -9``)
notices within half a second, stops its bots and exits.  A worker that dies mid-match is
reported as an error result for that match and replaced.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import signal
import threading
import time
from typing import Any

from arena.executors import JobResult, MatchJob, play_job
from arena.executors.keeper import BotKeeper


def _worker_main(conn: multiprocessing.connection.Connection, parent_pid: int, keep_alive: bool,
                 cpu: int | None = None) -> None:
    """A worker process: play jobs from ``conn`` until it closes, the parent dies, or SIGTERM.

    With ``cpu``, the worker and every bot it starts run on that one CPU (see :func:`worker_cpus`).
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
    keeper = BotKeeper(keep_alive)
    try:
        while True:
            try:
                job = conn.recv()
            except (EOFError, OSError):
                return
            if job is None:
                return
            result = play_job(job, keeper)
            try:
                conn.send(result)
            except (BrokenPipeError, OSError):
                return
    finally:
        stopping[0] = True
        keeper.close()


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
    def __init__(self, context: Any, keep_alive: bool, cpu: int | None = None) -> None:
        self.cpu = cpu
        self.conn, child = context.Pipe(duplex=True)
        self.process = context.Process(target=_worker_main, args=(child, os.getpid(), keep_alive, cpu), daemon=True)
        self.process.start()
        child.close()
        self.job: MatchJob | None = None


class LocalExecutor:
    """N worker processes on this machine (spawned, so each has a clean interpreter)."""

    def __init__(self, workers: int, *, keep_alive: bool = False, pin_cpus: bool = True) -> None:
        self.slots = max(1, workers)
        self.keep_alive = keep_alive
        self._context = multiprocessing.get_context("spawn")
        cpus = worker_cpus(self.slots) if pin_cpus else [None] * self.slots
        self._workers = [_Worker(self._context, keep_alive, cpu) for cpu in cpus]

    def submit(self, job: MatchJob) -> None:
        for index, worker in enumerate(self._workers):
            if worker.job is None:
                if not worker.process.is_alive():
                    worker.conn.close()
                    worker = self._workers[index] = _Worker(self._context, self.keep_alive, worker.cpu)
                worker.job = job
                worker.conn.send(job)
                return
        raise RuntimeError("no free worker")

    def running(self) -> int:
        return sum(1 for worker in self._workers if worker.job is not None)

    def poll(self, timeout: float) -> list[JobResult]:
        busy = [w for w in self._workers if w.job is not None]
        if not busy:
            return []
        waitables: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = multiprocessing.connection.wait(waitables, timeout)
        results = []
        for index, worker in enumerate(self._workers):
            job = worker.job
            if job is None or (worker.conn not in ready and worker.process.sentinel not in ready):
                continue
            try:
                result = worker.conn.recv() if worker.conn.poll() else None
            except (EOFError, OSError):
                result = None
            if result is None:  # the worker died mid-match: report it and replace the worker
                worker.process.join(1.0)
                code = worker.process.exitcode
                results.append(JobResult(job.match_id, None, f"worker process died (exit code {code})"))
                worker.conn.close()
                self._workers[index] = _Worker(self._context, self.keep_alive, worker.cpu)
                continue
            worker.job = None
            results.append(result)
        return results

    def close(self, *, abandon: bool = False) -> None:
        for worker in self._workers:
            if abandon and worker.job is not None and worker.process.is_alive():
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

