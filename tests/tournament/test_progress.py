"""The progress bar's counts, rate and ETA: this run's matches over this run's wall time."""

from __future__ import annotations

import io

from rich.console import Console

from arena.runs.progress import PlainProgress, RichProgress, RunRate


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


def test_plain_progress_prints_a_line_at_the_start_then_at_most_one_per_interval_and_the_last() -> None:
    out = io.StringIO()
    clock = FakeClock()
    plain = PlainProgress("yaniv (standard)", interval=10, file=out, clock=clock)
    plain.start(total=4, done=0)
    plain.advance(True)  # within the interval: no line
    clock.now += 10
    plain.advance(True, faults=2)
    plain.advance(True)
    plain.note("stopping: finishing the 1 running match(es)")
    plain.advance(False)
    plain.stop()
    assert out.getvalue().splitlines() == [
        "yaniv (standard): 0/4 · 0 faults · -/min · ETA -",
        "yaniv (standard): 2/4 · 2 faults · 12.0/min · ETA 0:10",
        "stopping: finishing the 1 running match(es)",
        "yaniv (standard): 4/4 · 1 failed · 2 faults · 24.0/min · ETA 0:00",
    ]


def test_a_tournament_whose_stderr_is_not_a_terminal_prints_plain_progress_lines(tmp_path) -> None:
    """Issue 25: the rich bar, redrawn into a file or a pipe, wrapped into a mess."""
    import re
    import subprocess
    import sys

    from .helpers import ROOT, SAMPLE_BOTS

    result = subprocess.run([sys.executable, "-m", "arena.cli", "tournament", "run", "--game", "yahtzee", "--bot",
                             str(SAMPLE_BOTS / "random_bot"), "--bot", str(SAMPLE_BOTS / "yahtzee_heuristic"),
                             "--rounds", "2", "--workers", "1", "--seed", "3", "--db", str(tmp_path / "t.db")],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if not line.startswith("arena: warning:")]
    assert lines and all(re.fullmatch(r"yahtzee \(yahtzee\): \d+/4 · (\d+ failed · )?\d+ faults? · "
                                      r"(-|[\d.]+)/min · ETA (-|[\d:]+)", line) for line in lines), result.stderr
    assert lines[0].startswith("yahtzee (yahtzee): 0/4 ") and lines[-1].startswith("yahtzee (yahtzee): 4/4 ")
    assert "\x1b" not in result.stderr and "\r" not in result.stderr
