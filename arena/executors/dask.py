"""The Dask executor: matches as tasks on a Dask distributed cluster (the ``distributed`` extra).

Each :class:`~arena.executors.MatchJob` becomes one task, submitted with ``pure=False`` under
a key naming the match, its attempt and this run (``arena-match-17-attempt-1-3f9c0a1e``: a
task left running on the cluster by an earlier, killed run never stands in for this run's).
The task runs :func:`~arena.executors.play_job` on a worker and returns the
:class:`~arena.executors.JobResult`; finished tasks are collected with ``as_completed`` and
the run loop commits each result as it arrives.  At most :attr:`DaskExecutor.slots` tasks
are in flight, one per worker thread, so the cluster is never handed the whole schedule.

**Faults.**  When a worker dies, the scheduler reruns its tasks elsewhere (after three
deaths a task is given up, and its match is stored as failed for ``resume`` to retry).  A
match that was half played on the dead worker was never returned, so it is stored once;
``Database.store_results`` refuses a match that is already done in any case.

**Bots on workers.**  A bot given by manifest is started on the worker that plays the match,
from the same path: the bot folders must be at the same place on every worker (on one
machine they are; on many, a shared file system or an identical copy).  Each job carries the
registered hash of every bot's folder, and the worker checks it before starting the bot; a
missing or different folder is a start-up forfeit with that reason.  A bot given by address
is called from the worker.  The sandbox settings travel with the job, as the tournament asked
for them, and each worker resolves them as a local run there would (``auto`` without
bubblewrap: resource limits only, with a warning in the worker's log; ``bwrap`` without it:
the match fails with the reason and stays to be played).

**Kept-alive bots** live in a :class:`~arena.executors.keeper.BotKeeper` per worker thread
and per run.  They are stopped when the run closes, and on any worker by a sweeper after
:data:`KEEP_IDLE_S` seconds unused (so a killed tournament process leaves none behind).
"""

from __future__ import annotations

import dataclasses
import importlib.util
import shutil
import signal
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.executors import ExecutorError, JobResult, MatchJob, play_job
from arena.executors.keeper import BotKeeper
from referee.bots import scratch_folder

INSTALL_HINT = "pip install 'arena[distributed]'"
try:
    import dask
    from distributed import Client, Future, LocalCluster, WorkerPlugin, as_completed
except ImportError as _error:  # the optional extra is missing
    raise ImportError(f"--executor dask needs Dask distributed: {INSTALL_HINT}") from _error

KEEP_IDLE_S = 10.0
"""A worker stops kept-alive bots unused for this long (their run may be gone)."""
CONNECT_TIMEOUT_S = 10.0


# --- on the workers --------------------------------------------------------------------------------
@dataclass
class _Kept:
    keeper: BotKeeper
    busy: bool = False
    last_used: float = 0.0


_lock = threading.Lock()
_keepers: dict[tuple[str, int], _Kept] = {}
"""By (run id, worker thread id): a bot process is never shared by two matches at once."""
_sweeper: list[threading.Thread] = []


def play_task(job: MatchJob, keep_alive: bool, run_id: str) -> JobResult:
    """The task a worker runs: play ``job`` with this thread's bots of run ``run_id``.

    The worker resolves the tournament's sandbox request itself (``auto``: bwrap if it works
    here, else the limits with a warning), exactly as a local run on this machine would.
    """
    if job.requested_sandbox is not None:
        job = dataclasses.replace(job, config=dataclasses.replace(job.config,
                                                                  sandbox=job.requested_sandbox.resolved()))
    key = (run_id, threading.get_ident())
    with _lock:
        if not _sweeper:
            _sweeper.append(threading.Thread(target=_sweep, name="arena-keeper-sweeper", daemon=True))
            _sweeper[0].start()
        kept = _keepers.get(key)
        if kept is None:
            kept = _keepers[key] = _Kept(BotKeeper(keep_alive))
        kept.busy = True
    try:
        return play_job(job, kept.keeper)
    finally:
        with _lock:
            kept.busy = False
            kept.last_used = time.monotonic()


def _take(idle_before: float | None, run_id: str | None) -> list[_Kept]:
    """Remove and return the idle keepers of ``run_id`` (any run if ``None``) unused since ``idle_before``."""
    with _lock:
        keys = [key for key, kept in _keepers.items() if not kept.busy and (run_id is None or key[0] == run_id)
                and (idle_before is None or kept.last_used < idle_before)]
        return [_keepers.pop(key) for key in keys]


def close_run(run_id: str) -> int:
    """Stop this worker's kept bots of run ``run_id``; returns how many keepers were closed.

    A keeper still playing an abandoned match is left to the sweeper.
    """
    taken = _take(None, run_id)
    for kept in taken:
        kept.keeper.close()
    return len(taken)


def _sweep() -> None:
    while True:
        time.sleep(KEEP_IDLE_S / 4)
        for kept in _take(time.monotonic() - KEEP_IDLE_S, None):
            kept.keeper.close()


class IgnoreCtrlC(WorkerPlugin):
    """Workers of our own local cluster share the terminal: Ctrl-C is for the run loop to handle."""

    name = "arena-ignore-ctrl-c"

    def setup(self, worker: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGINT, signal.SIG_IGN)


# --- in the tournament process -------------------------------------------------------------------------
class DaskExecutor:
    """Matches as tasks on a Dask cluster; see the module docstring.

    ``cluster``, if given, is a cluster this executor started and closes with itself, and
    ``scratch`` its workers' folder, removed after it.
    """

    def __init__(self, client: Client, *, keep_alive: bool = False, slots: int | None = None,
                 cluster: LocalCluster | None = None, scratch: Path | None = None) -> None:
        self.client = client
        self.keep_alive = keep_alive
        self.cluster = cluster
        self.scratch = scratch
        self.run_id = uuid.uuid4().hex[:8]
        self.slots = max(1, slots if slots is not None else sum(client.nthreads().values()))
        self._jobs: dict[Future, MatchJob] = {}
        self._completed = as_completed(loop=client.loop, with_results=True, raise_errors=False)

    def key(self, job: MatchJob) -> str:
        return f"arena-match-{job.match_id}-attempt-{job.attempt}-{self.run_id}"

    def submit(self, job: MatchJob) -> None:
        future = self.client.submit(play_task, job, self.keep_alive, self.run_id, key=self.key(job), pure=False)
        self._jobs[future] = job
        self._completed.add(future)

    def running(self) -> int:
        return len(self._jobs)

    def poll(self, timeout: float) -> list[JobResult]:
        deadline = time.monotonic() + timeout
        while self._jobs and not self._completed.has_ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        results = []
        for future, value in self._completed.next_batch(block=False):
            job = self._jobs.pop(future, None)
            if job is None:
                continue
            if future.status == "finished" and isinstance(value, JobResult):
                results.append(value)
            else:  # erred (KilledWorker after repeated worker deaths, ...) or cancelled
                error = value[1] if isinstance(value, tuple) and len(value) == 3 else value
                results.append(JobResult(job.match_id, None, f"dask task {future.status}: "
                                                             f"{type(error).__name__}: {error}"))
        return results

    def close(self, *, abandon: bool = False) -> None:
        """Stop kept bots on every worker, then disconnect (and stop our own cluster).

        With ``abandon``, tasks are cancelled; a match already playing on a worker of a
        shared cluster still runs to its end there (its result is dropped).
        """
        try:
            if abandon and self._jobs:
                self.client.cancel(list(self._jobs), force=True)
            self._jobs.clear()
            self._completed.clear()
            self.client.run(close_run, self.run_id, on_error="ignore")
        except Exception:  # noqa: BLE001 - a vanished scheduler must not hide the run's outcome
            pass
        finally:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
            if self.scratch is not None:
                shutil.rmtree(self.scratch, ignore_errors=True)

    def describe(self) -> str:
        """One line for the user: where the matches run and the dashboard, if any."""
        workers = len(self.client.scheduler_info(n_workers=-1).get("workers", {}))
        link = _dashboard(self.client)
        where = "a local Dask cluster" if self.cluster is not None else f"Dask scheduler {self.client.scheduler.address}"
        return (f"matches run on {where}: {workers} worker(s), {self.slots} at once; "
                + (f"dashboard {link}" if link else "no dashboard (it needs bokeh)"))


def _dashboard(client: Client) -> str | None:
    try:
        return client.dashboard_link if importlib.util.find_spec("bokeh") else None
    except Exception:  # noqa: BLE001 - no dashboard on the scheduler
        return None


def start_local(workers: int, *, keep_alive: bool = False) -> DaskExecutor:
    """A :class:`LocalCluster` of ``workers`` processes (one thread each) on loopback, and its executor.

    The dashboard listens on a free loopback port, if bokeh is installed.  The workers' scratch
    space is a folder of this run (``arena-dask-<owner>-*``), not Dask's default
    ``dask-scratch-space`` in the temporary directory, which would outlive the run; a killed
    run's folder is swept by the next referee, as its bots' folders are.
    """
    previous = signal.getsignal(signal.SIGINT) if threading.current_thread() is threading.main_thread() else None
    if previous is not None:  # workers inherit an ignored SIGINT: Ctrl-C is the run loop's to handle
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    # The statistical profiler samples every worker thread 10 ms apart; matches need no profile.
    dask.config.set({"distributed.worker.profile.enabled": False})
    scratch = scratch_folder("dask")
    try:
        dashboard = "127.0.0.1:0" if importlib.util.find_spec("bokeh") else None
        with dask.config.set({"temporary-directory": str(scratch)}):  # the scheduler's scratch space too
            cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   scheduler_port=0, dashboard_address=dashboard, local_directory=str(scratch))
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    try:
        client = Client(cluster, timeout=CONNECT_TIMEOUT_S)
        client.register_plugin(IgnoreCtrlC())  # also for workers the nannies restart later
    except BaseException:
        cluster.close()
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return DaskExecutor(client, keep_alive=keep_alive, slots=workers, cluster=cluster, scratch=scratch)


def connect(address: str, *, keep_alive: bool = False) -> DaskExecutor:
    """An executor on the running cluster whose scheduler is at ``address``.

    :raises ExecutorError: if the scheduler cannot be reached or has no worker.
    """
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S)
    except (OSError, TimeoutError) as error:
        raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT_S)
    except TimeoutError:
        client.close()
        raise ExecutorError(f"the Dask scheduler at {address} has no worker") from None
    return DaskExecutor(client, keep_alive=keep_alive)


def executor_factory(scheduler: str | None,
                     announce: Callable[[str], None] | None = None) -> Callable[[int, bool], DaskExecutor]:
    """What a run (:func:`arena.runs.tournament.run_tournament`, a ladder) calls to get its executor: a new local
    cluster of as many workers as asked, or the cluster at ``scheduler`` as it is."""

    def factory(workers: int, keep_alive: bool) -> DaskExecutor:
        executor = start_local(workers, keep_alive=keep_alive) if scheduler is None else \
            connect(scheduler, keep_alive=keep_alive)
        if announce is not None:
            announce(executor.describe())
        return executor

    return factory
