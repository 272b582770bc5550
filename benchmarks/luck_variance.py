"""How much of the results' variance the luck estimators remove (issue 35), alone and with duplicate deals.

For each game's line-ups of fixed bots, plays ``--pairs`` pairs of in-process matches
(benchmarks/inprocess.py): each seed twice, with the seats swapped.  Bot A is the line-up's
first bot; its figures:

- *single*: A's raw and adjusted result in each match (both seatings), the ratio
  var(raw) / var(adjusted), and the mean of both (the adjustment must not move it: the
  difference is shown in standard errors);
- *duplicate*: A's mean result over a pair, raw and adjusted, and var(raw duplicate) /
  var(adjusted duplicate): what adjustment adds on top of duplicate deals (goal ≥ 2× for
  card games), and var(raw single) / var(adjusted duplicate): both together.

Ratios carry a 95 % bootstrap interval (2,000 resamples of the pairs, seeded).  Seeds are
``--first-seed`` + i (default 20,000: the estimators are fitted on seeds from 1,000,000).
Also prints the mean time of :func:`referee.luck.analyse` per match.

    PYTHONPATH=. python benchmarks/luck_variance.py --game gin_rummy --pairs 200
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.inprocess import RANDOM, Policy, heuristic, noisy, play  # noqa: E402
from referee.luck import analyse  # noqa: E402


@dataclass(frozen=True)
class Lineup:
    """Bot A (seat 0 in the first match of a pair) against bot B."""

    name: str
    game: str
    variant: str | None
    bots: Callable[[], tuple[Policy, Policy]]


def _gin(variant: str) -> list[Lineup]:
    h = lambda: heuristic("gin_rummy")  # noqa: E731
    return [Lineup(f"{variant}: heuristic vs noisy 0.1", "gin_rummy", variant, lambda: (h(), noisy(h(), 0.1, 11))),
            Lineup(f"{variant}: heuristic vs random", "gin_rummy", variant, lambda: (h(), RANDOM))]


LINEUPS: dict[str, list[Lineup]] = {
    "gin_rummy": [*_gin("standard"), *_gin("oklahoma"), *_gin("straight")],
}
"""Per game, the line-ups measured (add a game's here)."""


def _ratio_interval(a: Sequence[float], b: Sequence[float], groups: int, rng: random.Random) -> tuple[float, float]:
    """95 % bootstrap interval of var(a) / var(b), resampling groups of ``len(a) // groups`` rows."""
    size = len(a) // groups
    ratios = []
    for _ in range(2000):
        picked = [rng.randrange(groups) for _ in range(groups)]
        xa = [a[g * size + k] for g in picked for k in range(size)]
        xb = [b[g * size + k] for g in picked for k in range(size)]
        vb = statistics.pvariance(xb)
        ratios.append(statistics.pvariance(xa) / vb if vb else float("inf"))
    ratios.sort()
    return ratios[int(0.025 * len(ratios))], ratios[int(0.975 * len(ratios)) - 1]


def _ratio(a: Sequence[float], b: Sequence[float], groups: int, rng: random.Random) -> str:
    low, high = _ratio_interval(a, b, groups, rng)
    return f"{statistics.variance(a) / statistics.variance(b):6.2f}x [{low:.2f}, {high:.2f}]"


def measure(lineup: Lineup, pairs: int, first_seed: int) -> None:
    a, b = lineup.bots()
    raw: list[float] = []
    adjusted: list[float] = []
    spent = 0.0
    for i in range(pairs):
        seed = first_seed + i
        for seat, bots in ((0, (a, b)), (1, (b, a))):
            record = play(lineup.game, seed, bots, variant=lineup.variant)
            started = time.perf_counter()
            report = analyse(record)
            spent += time.perf_counter() - started
            raw.append(report.result[seat])
            adjusted.append(report.adjusted[seat])
    dup_raw = [(raw[2 * i] + raw[2 * i + 1]) / 2 for i in range(pairs)]
    dup_adj = [(adjusted[2 * i] + adjusted[2 * i + 1]) / 2 for i in range(pairs)]
    rng = random.Random(f"luck_variance/{lineup.name}")
    gaps = [r - x for r, x in zip(raw, adjusted)]
    error = statistics.stdev(gaps) / len(gaps) ** 0.5 if len(gaps) > 1 else float("nan")
    gap = statistics.mean(gaps)
    print(f"{lineup.name}: {pairs} pairs, seeds {first_seed}..{first_seed + pairs - 1}, "
          f"analyse {1000 * spent / (2 * pairs):.1f} ms a match")
    print(f"  mean result raw {statistics.mean(raw):8.3f}  adjusted {statistics.mean(adjusted):8.3f}  "
          f"(difference {gap:.3f} = {gap / error if error else 0:.2f} standard errors)")
    print(f"  single:    var raw {statistics.variance(raw):10.2f}  adjusted {statistics.variance(adjusted):10.2f}  "
          f"ratio {_ratio(raw, adjusted, pairs, rng)}")
    print(f"  duplicate: var raw {statistics.variance(dup_raw):10.2f}  adjusted {statistics.variance(dup_adj):10.2f}  "
          f"ratio {_ratio(dup_raw, dup_adj, pairs, rng)}")
    print(f"  raw single / adjusted duplicate: {_ratio(raw[::2], dup_adj, pairs, rng)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(LINEUPS), action="append", help="default: every game")
    parser.add_argument("--pairs", type=int, default=100, help="seeds per line-up, each played in both seatings")
    parser.add_argument("--first-seed", type=int, default=20_000)
    parser.add_argument("--only", default="", help="only line-ups whose name contains this text")
    args = parser.parse_args()
    started = time.monotonic()
    for game in args.game or sorted(LINEUPS):
        for lineup in LINEUPS[game]:
            if args.only in lineup.name:
                measure(lineup, args.pairs, args.first_seed)
    print(f"took {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
