"""How much of the variance of match results the luck adjustment removes (issue 35).

    nice -n 10 .venv/bin/python benchmarks/luck_variance.py [--matches 1000] [--seed 0] [--game yahtzee] [--lineup NAME]

For each game, fixed line-ups of sample strategies play ``--matches`` matches in process
(benchmarks/inprocess.py: the engines and the bots' ``decide``, real match records), seeds
``seed``, ``seed + 1``, ...; :func:`referee.luck.analyse` adjusts each.  Printed per line-up,
for seat 0's result (its score relative to the table, or its score at one seat): the mean
raw and adjusted results (with the standard error of their paired difference), the
variance of each, their ratio with a 95% bootstrap interval (2,000 resamples of the
matches, numpy seed 1), and the analysis's CPU time per match.

Goal of the issue: a ratio of at least 20 for Yahtzee.  Another game joins by adding its
line-ups to :data:`LINEUPS`.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import inprocess  # noqa: E402
from referee.luck import analyse  # noqa: E402


@dataclass(frozen=True)
class Lineup:
    """Who plays: ``policies()`` gives one policy per seat (built lazily: loading a bot costs)."""

    name: str
    game: str
    policies: Callable[[], Sequence[inprocess.Policy]]
    variant: str | None = None


LINEUPS: dict[str, list[Lineup]] = {
    "yahtzee": [
        Lineup("heuristic solitaire", "yahtzee", lambda: [inprocess.heuristic("yahtzee")]),
        Lineup("heuristic solitaire, Yams", "yahtzee", lambda: [inprocess.heuristic("yahtzee")], "yams"),
        Lineup("heuristic vs heuristic 10% random", "yahtzee",
               lambda: [inprocess.heuristic("yahtzee"), inprocess.noisy(inprocess.heuristic("yahtzee"), 0.1)]),
        Lineup("heuristic vs random", "yahtzee", lambda: [inprocess.heuristic("yahtzee"), inprocess.RANDOM]),
    ],
}
"""Per game, its line-ups; seat 0's result is measured."""


@dataclass(frozen=True)
class Measured:
    raw: np.ndarray
    adjusted: np.ndarray
    analysis_seconds: float


def measure(lineup: Lineup, matches: int, seed: int) -> Measured:
    policies = lineup.policies()
    raw, adjusted, spent = [], [], 0.0
    for number in range(matches):
        record = inprocess.play(lineup.game, seed + number, policies, variant=lineup.variant)
        started = time.process_time()
        report = analyse(record)
        spent += time.process_time() - started
        raw.append(report.result[0])
        adjusted.append(report.adjusted[0])
    return Measured(np.array(raw), np.array(adjusted), spent / matches)


def ratio_interval(raw: np.ndarray, adjusted: np.ndarray, resamples: int = 2000) -> tuple[float, float]:
    """95% percentile bootstrap interval of var(raw) / var(adjusted), matches resampled."""
    rng = np.random.default_rng(1)
    picks = rng.integers(0, len(raw), size=(resamples, len(raw)))
    ratios = raw[picks].var(axis=1, ddof=1) / adjusted[picks].var(axis=1, ddof=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(low), float(high)


def report(lineup: Lineup, measured: Measured, seed: int, wall: float) -> None:
    raw, adjusted = measured.raw, measured.adjusted
    n = len(raw)
    luck = raw - adjusted
    var_raw, var_adj = raw.var(ddof=1), adjusted.var(ddof=1)
    low, high = ratio_interval(raw, adjusted)
    print(f"\n== {lineup.game}{'/' + lineup.variant if lineup.variant else ''}: {lineup.name} "
          f"({n} matches, seeds {seed}..{seed + n - 1}, {wall:.0f} s wall)")
    print(f"mean raw {raw.mean():.3f}, mean adjusted {adjusted.mean():.3f}; mean luck {luck.mean():+.3f} "
          f"= {luck.mean() / (statistics.stdev(luck) / n ** 0.5):+.2f} standard errors")
    print(f"variance raw {var_raw:.2f} (sd {var_raw ** 0.5:.2f}), adjusted {var_adj:.2f} (sd {var_adj ** 0.5:.2f}); "
          f"ratio {var_raw / var_adj:.1f} (95% bootstrap {low:.1f} to {high:.1f})")
    print(f"analysis: {measured.analysis_seconds * 1000:.1f} ms of CPU per match")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", action="append", help="only these games (default: every game listed)")
    parser.add_argument("--lineup", action="append", help="only the line-ups of these names")
    args = parser.parse_args()
    for game in args.game or list(LINEUPS):
        for lineup in LINEUPS[game]:
            if args.lineup and lineup.name not in args.lineup:
                continue
            started = time.perf_counter()
            measured = measure(lineup, args.matches, args.seed)
            report(lineup, measured, args.seed, time.perf_counter() - started)


if __name__ == "__main__":
    main()
