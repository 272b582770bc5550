"""The tournament progress display on stderr: a rich bar on a terminal, plain lines
elsewhere (a log file, a CI job: a redrawn bar would wrap into a mess), or nothing but notes.

The rate shown is :class:`RunRate`'s: matches played *in this run* over the wall time since
the run started, the same figure the closing summary prints.  (rich's own speed is a
windowed estimate that jumps when several matches end together, and a resumed run would
count the matches done before it.)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, Protocol


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...
    def advance(self, ok: bool, faults: int = 0) -> None: ...
    def note(self, text: str) -> None: ...
    def stop(self) -> None: ...


class RunRate:
    """Counts of one run and the rate and ETA they give.

    :param clock: seconds, monotonic (a parameter so tests can drive it).
    """

    def __init__(self, total: int, done_before: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.total = total
        self.done_before = done_before
        self.played = 0
        """Matches that ended in this run (stored or failed)."""
        self.failed = 0
        self.faults = 0
        """Bot faults (timeouts, errors, invalid answers, start-up forfeits) in this run's matches."""
        self.clock = clock
        self.started = clock()

    def record(self, ok: bool, faults: int = 0) -> None:
        self.played += 1
        self.failed += 0 if ok else 1
        self.faults += faults

    @property
    def done(self) -> int:
        return self.done_before + self.played

    def per_minute(self) -> float | None:
        """Matches per minute in this run, ``None`` before the first one ends."""
        elapsed = self.clock() - self.started
        return 60.0 * self.played / elapsed if self.played and elapsed > 0 else None

    def eta_s(self) -> float | None:
        """Seconds left at this run's rate, ``None`` while there is no rate yet."""
        rate = self.per_minute()
        left = max(0, self.total - self.done)
        return None if rate is None else 60.0 * left / rate

    def text(self) -> str:
        """``12/40 · 1 failed · 3 faults · 5.8/min · ETA 4:50``."""
        rate, eta = self.per_minute(), self.eta_s()
        parts = [f"{self.done}/{self.total}"]
        if self.failed:
            parts.append(f"{self.failed} failed")
        parts.append(f"{self.faults} fault{'' if self.faults == 1 else 's'}")
        parts.append(f"{rate:.1f}/min" if rate is not None else "-/min")
        parts.append(f"ETA {_clock_text(eta)}" if eta is not None else "ETA -")
        return " · ".join(parts)


def _clock_text(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class NoProgress:
    """No bar; notes (such as "stopping") still go to stderr."""

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, ok: bool, faults: int = 0) -> None:
        pass

    def note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def stop(self) -> None:
        pass


class PlainProgress:
    """One line per ``interval`` seconds at most, and at the start and the end: ``label:
    12/40 · 0 faults · 5.8/min · ETA 4:50``, for a stderr that is not a terminal.

    :param clock: seconds, monotonic (a parameter so tests can drive it).
    """

    def __init__(self, label: str, *, interval: float = 10.0, file: Any = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.label = label
        self.interval = interval
        self.file = file
        self.clock = clock
        self.rate: RunRate | None = None
        self.shown_at = 0.0
        self.shown_played = 0
        """This run's matches at the last line: the closing line is printed only if it says more."""

    def _line(self) -> None:
        assert self.rate is not None
        self.shown_at, self.shown_played = self.clock(), self.rate.played
        print(f"{self.label}: {self.rate.text()}", file=self.file or sys.stderr, flush=True)

    def start(self, total: int, done: int) -> None:
        self.rate = RunRate(total, done, self.clock)
        self._line()

    def advance(self, ok: bool, faults: int = 0) -> None:
        assert self.rate is not None
        self.rate.record(ok, faults)
        if self.clock() - self.shown_at >= self.interval:
            self._line()

    def note(self, text: str) -> None:
        print(text, file=self.file or sys.stderr, flush=True)

    def stop(self) -> None:
        if self.rate is not None and self.rate.played != self.shown_played:
            self._line()


def progress_display(label: str) -> Progress:
    """A bar when stderr is a terminal, plain lines otherwise."""
    return RichProgress(label) if sys.stderr.isatty() else PlainProgress(label)


class RichProgress:
    """A progress bar: matches done of total, failures and faults, this run's rate and ETA."""

    def __init__(self, label: str, console: Any = None) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn
        from rich.text import Text

        outer = self

        class RunColumn(ProgressColumn):
            def render(self, task: Any) -> Text:
                return Text(outer.rate.text() if outer.rate is not None else "")

        self.label = label
        self.rate: RunRate | None = None
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), RunColumn(), TextColumn("elapsed"),
                                 TimeElapsedColumn(), console=console or Console(stderr=True), transient=False)
        self.task: Any = None

    def start(self, total: int, done: int) -> None:
        self.rate = RunRate(total, done)
        self.progress.start()
        self.task = self.progress.add_task(self.label, total=total, completed=done)

    def advance(self, ok: bool, faults: int = 0) -> None:
        assert self.rate is not None
        self.rate.record(ok, faults)
        self.progress.advance(self.task)

    def note(self, text: str) -> None:
        self.progress.console.print(text)

    def stop(self) -> None:
        self.progress.stop()
