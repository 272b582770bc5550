"""Where matches run: the :class:`Executor` interface, the jobs it plays and what it returns.

The run loop (:func:`arena.runs.loop.run_loop`, for tournaments and ladders) hands each :class:`MatchJob` to an
executor and commits each :class:`JobResult` itself; executors never touch the database.
Every executor plays a job the same way, with :func:`play_job` and a
:class:`~arena.executors.keeper.BotKeeper` of its own.  Implementations:

- :mod:`arena.executors.local`: N worker processes on this machine;
- :mod:`arena.executors.dask`: tasks on a Dask distributed cluster (the ``distributed``
  extra; imported only when asked for).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from arena.executors.keeper import BotKeeper
from arena.league.storage import encode_record
from referee.bots import BotSpec
from referee.match import BotConnection, BotUnavailable, MatchConfig, run_match
from referee.luck import report_json
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig


class ExecutorError(RuntimeError):
    """An executor that cannot start (no cluster to reach, say), told in one line."""


@dataclass(frozen=True)
class MatchJob:
    """One match for a worker: the stored match id, what to play, and who sits where."""

    match_id: int
    config: MatchConfig
    bots: tuple[BotSpec, ...]
    files_hashes: tuple[str, ...] = ()
    """The bots' registered :func:`~referee.bots.bot_files_hash` by seat, checked where they start."""
    attempt: int = 1
    """How many times this match has been tried, this time included (names distributed tasks)."""
    requested_sandbox: SandboxConfig | None = None
    """The sandbox as the tournament asked for it (``auto`` unresolved), for workers on other
    machines, which resolve it themselves as a local run would; ``config.sandbox`` is it as
    resolved by the tournament process."""
    measure_luck: bool = True
    """Measure the played match's luck report on the worker (:attr:`JobResult.luck`); a caller
    that neither stores nor reads it (an SPRT on raw margins) saves the analysis."""


@dataclass(frozen=True)
class JobResult:
    """A worker's answer: the record, or why there is none, and where the time went."""

    match_id: int
    record: MatchRecord | None
    """The record, even of a match that did not finish (then with an ``error``)."""
    error: str | None = None
    """Why the match has no usable result; ``None`` when it can be stored."""
    startup_s: float = 0.0
    """Starting bot processes and waiting until they serve."""
    play_s: float = 0.0
    """Playing the match (run_match with ready bots)."""
    stop_s: float = 0.0
    """Stopping bot processes."""
    stored: bytes | None = None
    """The record of a played match as the database keeps it (:func:`~arena.league.storage.encode_record`
    with ``result_in_row``), made here: encoding replays the moves through the engine, which
    would otherwise be most of the single writer's work."""
    luck: str | None = None
    """The played match's luck report (:func:`referee.luck.report_json`), measured here for the
    same reason; ``None`` when the game has no estimator or the measure failed."""


class Executor(Protocol):
    """Where matches run. A distributed executor needs only these four methods."""

    slots: int
    """How many matches may run at once."""

    def submit(self, job: MatchJob) -> None:
        """Start ``job``; only called while fewer than :attr:`slots` jobs are running."""

    def running(self) -> int:
        """Jobs submitted and not yet returned by :meth:`poll`."""

    def poll(self, timeout: float) -> list[JobResult]:
        """Results that arrived, waiting up to ``timeout`` seconds for the first one."""

    def close(self, *, abandon: bool = False) -> None:
        """Stop the workers; with ``abandon``, also the matches they are playing."""



def play_job(job: MatchJob, keeper: BotKeeper, on_ready: Callable[[], None] | None = None,
             on_played: Callable[[Sequence[BotSpec | BotConnection | BotUnavailable]], None] | None = None
             ) -> JobResult:
    """Play one job with the worker's bots; exceptions become an error result.

    ``on_ready`` is called once the bots are ready, as the match begins (a local worker then
    starts its next match's bots); ``on_played`` with the seats' bots after the match, before
    they stop (the submission worker reads the submitted bot's output then)."""
    used: list[BotSpec | BotConnection | BotUnavailable] = []
    record: MatchRecord | None = None
    stored: bytes | None = None
    luck: str | None = None
    error: str | None = None
    startup = play = 0.0
    start = time.monotonic()
    try:
        used = keeper.acquire(job.bots, job.config.time_control.startup_timeout, job.config.sandbox,
                              job.files_hashes)
        startup = time.monotonic() - start
        if on_ready is not None:
            on_ready()
        record = run_match(job.config, used)
        play = time.monotonic() - start - startup
        if not record.finished:
            error = f"match not finished: {record.reason or record.termination}"
        else:
            stored = encode_record(record, result_in_row=True)
            luck = report_json(record) if job.measure_luck else None
    except Exception as exc:  # noqa: BLE001 - a referee or engine bug must not stop the tournament
        error = f"{type(exc).__name__}: {exc}"
    finally:  # also on SystemExit (SIGTERM): never leave bot processes behind
        if on_played is not None and used:
            on_played(used)
        stop_start = time.monotonic()
        keeper.release(used, record)
        stop = time.monotonic() - stop_start
    return JobResult(job.match_id, record, error, startup, play, stop, stored, luck)

