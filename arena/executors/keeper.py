"""A worker's bots: started per match, or kept alive across the matches one worker plays,
and the next match's bots started early, while the current one plays."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor

from referee.bots import BotProcess, BotSpec, BotStartError, bot_files_hash
from referee.match import BotConnection, BotUnavailable, close_unwanted, start_bots
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig

_EARLY_THREADS = 8
MAX_ALIVE = 16
"""Bots one worker keeps alive at most; beyond it the least recently used is stopped (a ladder
of many entrants must not leave a process of each in every worker)."""
RECYCLE_SHARE = 0.5
"""A kept bot is stopped after a match (and started afresh for its next one) once its decisions
have taken this share of its process's CPU limit (``Limits.cpu_seconds``, over the process's
whole life): a bot that thinks hard, a search bot say, would otherwise reach the limit and be
killed in the middle of a match.  Decision time is wall-clock time, at least the CPU time of a
single-threaded bot; the other half leaves room for a second thread and the bot's own work."""


class BotKeeper:
    """A worker's bot connections: fresh per match, or kept alive across matches.

    Every open connection is tracked, so :meth:`close` stops them all even when a SIGTERM
    cut a :meth:`release` short.

    ``cpu``: the CPU the worker is pinned to (or None).  Bots started early boot on
    ``start_cpus`` (the worker's own CPU is busy with the current match); when their match
    takes them and some are still booting, they boot on ``cpu`` too (the worker waits for
    them, so no match plays there), and each moves to ``cpu`` alone once it is ready.
    """

    def __init__(self, keep_alive: bool, cpu: int | None = None, start_cpus: set[int] | None = None,
                 max_alive: int = MAX_ALIVE) -> None:
        self.keep_alive = keep_alive
        self.max_alive = max_alive
        self.cpu = cpu
        self.start_cpus = start_cpus
        self.alive: dict[BotSpec, BotConnection] = {}
        """Kept bots, least recently used first."""
        self.open: list[BotConnection] = []
        self._early: dict[BotSpec, list[Future[BotConnection]]] = {}
        self._early_lock = threading.Lock()
        self._early_pool: ThreadPoolExecutor | None = None
        self._launches: dict[Future[BotConnection], list[BotProcess]] = {}
        """Each early start's process, once launched (a one-item list), until a match takes it."""
        self._closed = False
        self._thought: dict[BotConnection, float] = {}
        """Seconds of decisions of each kept process so far (:data:`RECYCLE_SHARE`)."""

    # --- early start: the next match's bots while this one plays --------------------------------
    def prestart(self, bots: Sequence[BotSpec], startup_timeout: float, sandbox: SandboxConfig,
                 files_hashes: Sequence[str] = ()) -> int:
        """Start, in the background, the bots that :meth:`acquire` would start for these seats.

        Safe to call from another thread while a match plays; the next :meth:`acquire` takes
        them, and stops those it does not need.  Bots kept alive and bots whose folder differs
        from the registered one are not started.  Returns how many starts were begun.
        """
        with self._early_lock:
            if self._closed:
                return 0
            if self._early_pool is None:
                self._early_pool = ThreadPoolExecutor(_EARLY_THREADS, thread_name_prefix="arena-bot-early",
                                                      initializer=self._unpin_thread)
            begun = 0
            for seat, spec in enumerate(bots):
                kept = self.alive.get(spec)
                if kept is not None and kept.alive():
                    continue
                if seat < len(files_hashes) and files_problem(spec, files_hashes[seat]) is not None:
                    continue  # acquire says why, as a forfeit
                launched: list[BotProcess] = []
                future = self._early_pool.submit(BotConnection, spec, startup_timeout, sandbox, launched.append)
                self._early.setdefault(spec, []).append(future)
                self._launches[future] = launched
                begun += 1
            return begun

    def _widen_booting(self, futures: Iterable[Future[BotConnection]]) -> None:
        """Let the taken early starts that are still booting use the worker's CPU as well: the
        worker is about to wait for them, so no match plays there until they are ready."""
        if self.cpu is None or not self.start_cpus:
            return
        for future in futures:
            for process in self._launches.get(future, []):
                if not future.done() and process.alive():
                    process.pin(self.start_cpus | {self.cpu})

    def _unpin_thread(self) -> None:
        """Early starts boot on ``start_cpus``: the worker's own CPU is busy playing the current match."""
        if self.start_cpus:
            os.sched_setaffinity(0, self.start_cpus)

    def _take_early(self, spec: BotSpec) -> Future[BotConnection] | None:
        with self._early_lock:
            futures = self._early.get(spec)
            if not futures:
                return None
            future = futures.pop(0)
            if not futures:
                del self._early[spec]
            return future

    def _forget_launch(self, future: Future[BotConnection]) -> None:
        with self._early_lock:
            self._launches.pop(future, None)

    def _drop_early(self) -> None:
        """Stop early-started bots that no match took, as soon as they are up."""
        with self._early_lock:
            unwanted = [future for futures in self._early.values() for future in futures]
            self._early.clear()
            for future in unwanted:
                self._launches.pop(future, None)
        for future in unwanted:
            future.add_done_callback(close_unwanted)

    def _from_early(self, future: Future[BotConnection]) -> BotConnection | BotStartError:
        """The early-started bot, moved to the worker's CPU, or why it did not start."""
        try:
            connection = future.result()
        except BotStartError as error:
            return error
        finally:
            self._forget_launch(future)
        if self.cpu is not None and connection.process is not None:
            connection.process.pin({self.cpu})
        return connection

    def acquire(self, bots: Sequence[BotSpec], startup_timeout: float, sandbox: SandboxConfig,
                files_hashes: Sequence[str] = ()) -> list[BotSpec | BotConnection | BotUnavailable]:
        """Ready connections where a bot starts; a :class:`BotUnavailable` saying why where it does
        not (run_match records it as the seat's start-up fault).

        ``files_hashes`` (by seat, optional) are the registered :func:`bot_files_hash` values:
        a bot whose folder here differs is not started, and its seat forfeits with the reason.
        """
        ready: list[BotSpec | BotConnection | BotUnavailable] = []
        to_start: list[int] = []
        early: dict[int, Future[BotConnection]] = {}
        for seat, spec in enumerate(bots):
            kept = self.alive.pop(spec, None)
            if kept is not None and kept.alive():
                self.alive[spec] = kept
                ready.append(kept)
                continue
            if kept is not None:
                self._close(kept)
            problem = files_problem(spec, files_hashes[seat]) if seat < len(files_hashes) else None
            if problem is not None:
                ready.append(BotUnavailable(spec, problem))
                continue
            ready.append(spec)
            future = self._take_early(spec)
            if future is not None:
                early[seat] = future
            else:
                to_start.append(seat)
        self._drop_early()  # started for seats that a kept bot now serves
        self._widen_booting(early.values())
        # All at once (start_bots): a 6-seat table waits for its slowest bot, not for six in a row.
        results = dict(zip(to_start, start_bots([bots[seat] for seat in to_start], startup_timeout, sandbox),
                           strict=True))
        try:
            for seat in list(early):
                results[seat] = self._from_early(early.pop(seat))
        finally:
            for future in early.values():  # an early start failed unexpectedly: stop the others
                self._forget_launch(future)
                future.add_done_callback(close_unwanted)
            for item in results.values():  # tracked first, so that close() stops them whatever happens
                if isinstance(item, BotConnection):
                    self.open.append(item)
        for seat, item in sorted(results.items()):
            if isinstance(item, BotStartError):  # run_match records why, without a second start-up wait
                ready[seat] = BotUnavailable(bots[seat], str(item))
                continue
            if self.keep_alive:
                self.alive[bots[seat]] = item
            ready[seat] = item
        idle = [spec for spec in self.alive if spec not in bots]
        for spec in idle[:max(0, len(self.alive) - self.max_alive)]:
            self._close(self.alive[spec])
        return ready

    def _close(self, connection: BotConnection) -> None:
        if connection in self.open:
            self.open.remove(connection)
        if self.alive.get(connection.spec) is connection:
            del self.alive[connection.spec]
        self._thought.pop(connection, None)
        connection.close()

    def release(self, used: Sequence[BotSpec | BotConnection | BotUnavailable], record: MatchRecord | None) -> None:
        """Stop the bots of a finished match, except healthy ones kept alive that still have
        CPU time to spare (:data:`RECYCLE_SHARE`)."""
        for seat, item in enumerate(used):
            if not isinstance(item, BotConnection):
                continue
            healthy = record is not None and seat not in record.forfeited and item.alive()
            kept = self.alive.get(item.spec) is item  # one process per bot is kept, even if it sat twice
            if not (self.keep_alive and healthy and kept) or self._spent(item, seat, record):
                self._close(item)

    def _spent(self, connection: BotConnection, seat: int, record: MatchRecord | None) -> bool:
        """Add the seat's decision time in ``record`` to the process's; whether it has used
        :data:`RECYCLE_SHARE` of its CPU limit (a bot the referee did not start has none)."""
        if connection.process is None or record is None:
            return False
        thought = self._thought.get(connection, 0.0) + sum(m.elapsed_ms for m in record.moves if m.seat == seat) / 1000
        self._thought[connection] = thought
        return thought >= RECYCLE_SHARE * connection.process.sandbox.limits.cpu_seconds

    def close(self) -> None:
        """Stop every bot still running, and every early start as soon as it is up."""
        with self._early_lock:
            self._closed = True
        self._drop_early()
        if self._early_pool is not None:
            self._early_pool.shutdown(wait=False, cancel_futures=True)
        while self.open:
            try:
                self._close(self.open[-1])
            except Exception:  # noqa: BLE001 - keep stopping the others
                pass
        self.alive.clear()


def files_problem(spec: BotSpec, expected: str) -> str | None:
    """Why ``spec``'s folder on this machine is not the registered bot, or ``None`` if it is.

    A worker on another machine sees the bot folder through its own file system; this check
    makes a missing or different copy a clear start-up forfeit instead of another bot playing.
    A bot given by address has no files here to check.
    """
    if spec.directory is None:
        return None
    if spec.directory is not None and not spec.directory.is_dir():
        return f"bot {spec.label}: its folder {spec.directory} does not exist on this worker"
    actual = bot_files_hash(spec)
    if actual == expected:
        return None
    return (f"bot {spec.label}: its files in {spec.directory} on this worker differ from the registered ones "
            f"(hash {actual[:12]} here, {expected[:12]} registered); every worker must see the same bot folder")
