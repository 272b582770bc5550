"""The tournament progress display: a rich bar, or nothing but notes on stderr."""

from __future__ import annotations

import sys
from typing import Any, Protocol


class Progress(Protocol):
    def start(self, total: int, done: int) -> None: ...
    def advance(self, ok: bool) -> None: ...
    def note(self, text: str) -> None: ...
    def stop(self) -> None: ...


class NoProgress:
    """No bar; notes (such as "stopping") still go to stderr."""

    def start(self, total: int, done: int) -> None:
        pass

    def advance(self, ok: bool) -> None:
        pass

    def note(self, text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    def stop(self) -> None:
        pass


class RichProgress:
    """A progress bar: matches done of total, matches per minute and ETA."""

    def __init__(self, label: str, console: Any = None) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)
        from rich.text import Text

        class RateColumn(ProgressColumn):
            def render(self, task: Any) -> Text:
                speed = task.finished_speed or task.speed
                return Text(f"{speed * 60:.1f}/min" if speed else "-/min")

        self.label = label
        self.progress = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                                 TextColumn("elapsed"), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                                 console=console or Console(stderr=True), transient=False)
        self.task: Any = None
        self.failed = 0

    def start(self, total: int, done: int) -> None:
        self.progress.start()
        self.task = self.progress.add_task(self.label, total=total, completed=done)

    def advance(self, ok: bool) -> None:
        if not ok:
            self.failed += 1
            self.progress.update(self.task, description=f"{self.label} ({self.failed} failed)")
        self.progress.advance(self.task)

    def note(self, text: str) -> None:
        self.progress.console.print(text)

    def stop(self) -> None:
        self.progress.stop()

