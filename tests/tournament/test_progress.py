"""The progress bar's counts, rate and ETA: this run's matches over this run's wall time."""

from __future__ import annotations

import io

from rich.console import Console

from arena.progress import RichProgress, RunRate


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_rate_counts_only_this_runs_matches_over_the_time_since_it_started() -> None:
    clock = FakeClock()
    rate = RunRate(total=100, done_before=40, clock=clock)  # a resumed run: 40 done before
    assert rate.per_minute() is None and rate.eta_s() is None
    assert rate.text() == "40/100 · 0 faults · -/min · ETA -"
    clock.now += 30
    for _ in range(5):  # five matches ending together must not look like a burst of speed
        rate.record(True)
    rate.record(False, faults=3)
    assert rate.per_minute() == 12.0  # 6 matches in 30 s, not 46
    assert rate.eta_s() == 54 * 5.0  # 54 left at 12/min
    assert rate.text() == "46/100 · 1 failed · 3 faults · 12.0/min · ETA 4:30"
    clock.now += 3600
    assert rate.text().endswith("0.1/min · ETA 9:04:30")  # 6 in 3630 s: 54 left take 32,670 s


def test_the_bar_shows_done_of_total_faults_rate_and_eta() -> None:
    out = io.StringIO()
    bar = RichProgress("yahtzee", console=Console(file=out, width=160, force_terminal=False))
    clock = FakeClock()
    bar.start(total=10, done=2)
    assert bar.rate is not None
    bar.rate.clock, bar.rate.started = clock, clock.now
    clock.now += 60
    bar.advance(True, faults=1)
    bar.advance(True)
    bar.stop()
    assert "4/10 · 1 fault · 2.0/min · ETA 3:00" in out.getvalue()
