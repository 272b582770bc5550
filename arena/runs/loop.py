"""The run loop shared by tournaments and ladders: dispatch, collect, store, stop cleanly.

The loop pulls jobs from a :class:`JobSource` as executor slots free up: a tournament's
source is the fixed queue of its unplayed matches, a ladder's asks its scheduler for the
next duplicate set.  Executors never touch the database: this process, the single writer,
commits every batch of results that arrived in one transaction (:meth:`Database.store_results`,
at most once per match), and only then tells the source and the progress display.

``Ctrl-C`` (or SIGTERM) stops dispatching and lets the running matches finish and be stored;
a second signal, or ``grace`` seconds after the first, abandons them (their bots are
stopped; their rows stay pending for the caller to replay or drop).  Signals only set a flag
that the loop reads between polls, so an interrupt never lands in the middle of a commit.
"""

from __future__ import annotations

import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from arena.runs.progress import NoProgress, Progress
from arena.executors import Executor, JobResult, MatchJob
from arena.league.storage import Database, StorageError
from referee.result import StartupForfeitError, require_no_startup_forfeits

POLL_S = 0.25
"""The longest the loop waits for a result before it looks at signals and its source again."""


@dataclass
class RunSummary:
    """What one run (a :func:`run_loop` call and its set-up) did."""

    tournament_id: int
    total: int
    done_before: int
    played: int = 0
    failed: int = 0
    interrupted: bool = False
    elapsed_s: float = 0.0
    startup_s: float = 0.0
    play_s: float = 0.0
    stop_s: float = 0.0
    errors: list[str] = field(default_factory=list)
    faults: int = 0
    """Bot faults in this run's matches (start-up forfeits, timeouts, errors, invalid answers)."""
    startup_forfeits: list[str] = field(default_factory=list)
    """One line per seat of a stored match that forfeited at start-up (its bot never got ready)."""
    abandoned: int = 0
    """Matches running when the loop gave up waiting for them (not stored)."""

    @property
    def done(self) -> int:
        return self.done_before + self.played

    @property
    def per_minute(self) -> float:
        return 60.0 * self.played / self.elapsed_s if self.elapsed_s > 0 else 0.0

    @property
    def startup_share(self) -> float:
        """The share of the workers' busy time spent starting bots (0 when nothing ran)."""
        busy = self.startup_s + self.play_s + self.stop_s
        return self.startup_s / busy if busy > 0 else 0.0

    def require_real(self) -> None:
        """For benchmarks and tests that count matches: every match of the run was played and
        stored, and no seat forfeited at start-up (such matches end, count as done, and measure
        nothing).

        :raises StartupForfeitError: (an ``AssertionError``) saying what was wrong.
        """
        if self.failed or self.played != self.total - self.done_before:
            raise StartupForfeitError(f"{self.played} of {self.total - self.done_before} matches stored, "
                                      f"{self.failed} failed: {self.errors[:3]}")
        require_no_startup_forfeits(self.startup_forfeits)


class JobSource(Protocol):
    """Where the loop's jobs come from, and who hears about their results."""

    def take(self, free: int) -> list[MatchJob]:
        """Up to ``free`` jobs to start now (fewer, or none, is fine)."""

    def exhausted(self) -> bool:
        """``True`` once no job will ever come again (the loop ends when the running ones are in)."""

    def stop(self) -> None:
        """Stopping: drop whatever is queued and not started."""

    def after_poll(self, results: Sequence[JobResult], stored: Sequence[int]) -> None:
        """Called after every poll (about every :data:`POLL_S`, results or not) once the
        results are committed; ``stored`` are the match ids committed now."""


class QueueSource:
    """A fixed queue of jobs (a tournament's unplayed matches)."""

    def __init__(self, jobs: Sequence[MatchJob]) -> None:
        self.jobs = deque(jobs)

    def take(self, free: int) -> list[MatchJob]:
        return [self.jobs.popleft() for _ in range(min(free, len(self.jobs)))]

    def exhausted(self) -> bool:
        return not self.jobs

    def stop(self) -> None:
        self.jobs.clear()

    def after_poll(self, results: Sequence[JobResult], stored: Sequence[int]) -> None:
        pass


@contextmanager
def counting_signals() -> Iterator[list[int]]:
    """Count Ctrl-C and SIGTERM in the yielded ``[count]`` instead of dying of them, so a run
    can stop between matches; the previous handlers come back on leaving.  Only the main
    thread may set handlers: elsewhere nothing is counted."""
    count = [0]

    def _on_signal(signum: int, frame: Any) -> None:
        count[0] += 1

    handlers = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, _on_signal)
    try:
        yield count
    finally:
        for sig, handler in handlers.items():
            signal.signal(sig, handler)


def run_loop(db: Database, source: JobSource, summary: RunSummary, make_executor: Callable[[], Executor], *,
             progress: Progress | None = None, grace: float | None = None,
             on_stopping: Callable[[int], None] | None = None) -> None:
    """Play the source's jobs until it is exhausted or a signal stops the run.

    ``grace``: after the first Ctrl-C/SIGTERM, how long to wait for the running matches
    before abandoning them (``None``: until a second signal).  ``on_stopping`` is told how
    many matches are still running when the first signal arrives.
    """
    progress = progress or NoProgress()
    with counting_signals() as signals:
        executor: Executor | None = None
        abandon = False
        stopped_at: float | None = None
        progress.start(summary.total, summary.done_before)
        def begin_stop(running: int) -> float:
            summary.interrupted = True
            source.stop()
            if on_stopping is not None:
                on_stopping(running)
            return time.monotonic()

        try:
            executor = make_executor()
            while not source.exhausted() or executor.running():
                if signals[0] and stopped_at is None:
                    stopped_at = begin_stop(executor.running())
                if stopped_at is not None and (signals[0] >= 2 or (grace is not None
                                                                   and time.monotonic() - stopped_at > grace)):
                    abandon = True
                    summary.abandoned = executor.running()
                    progress.note(f"abandoning the {summary.abandoned} running match(es) (not stored)")
                    break
                if stopped_at is None:
                    free = executor.slots - executor.running()
                    for job in source.take(free) if free > 0 else []:
                        executor.submit(job)
                results = executor.poll(POLL_S)
                if signals[0] and stopped_at is None:
                    # A signal during the poll: the source learns of the stop before it hears of these
                    # results (a SIGTERM to the process group kills the workers too; their matches are
                    # casualties of the stop, not failures).
                    stopped_at = begin_stop(executor.running() + len(results))
                stored = store_batch(db, results, summary)  # one transaction; reported after its commit
                for result in results:
                    progress.advance(result.error is None, len(result.record.faults) if result.record else 0)
                source.after_poll(results, stored)
        finally:
            progress.stop()
            if executor is not None:
                executor.close(abandon=abandon)
            summary.interrupted = summary.interrupted or signals[0] > 0


def store_batch(db: Database, results: Sequence[JobResult], summary: RunSummary) -> list[int]:
    """Commit the played results in one batch (:meth:`Database.store_results`), then note the
    failed ones; the summary counts a result only once its transaction is committed.

    Returns the ids of the matches stored now.
    """
    played = [r for r in results if r.error is None and r.record is not None]
    outcomes = db.store_results([(r.match_id, r.record, r.stored, r.luck) for r in played if r.record is not None])
    errors: dict[int, str] = {r.match_id: str(outcome) for r, outcome in zip(played, outcomes)
                              if isinstance(outcome, StorageError)}
    stored: list[int] = []
    for result, outcome in zip(played, outcomes):
        if outcome is True and result.record is not None:
            summary.played += 1
            stored.append(result.match_id)
            summary.startup_forfeits.extend(result.record.startup_forfeits())
    for result in results:
        summary.startup_s += result.startup_s
        summary.play_s += result.play_s
        summary.stop_s += result.stop_s
        summary.faults += len(result.record.faults) if result.record is not None else 0
        if result.error is None and result.record is not None and result.match_id not in errors:
            continue  # stored now, or by an earlier run already
        error = errors.get(result.match_id, result.error)
        summary.failed += 1
        summary.errors.append(f"match {result.match_id}: {error}")
        db.mark_failed(result.match_id, error or "no record", result.record)
    return stored
