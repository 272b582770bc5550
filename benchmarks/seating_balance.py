"""How even is "who sits directly before whom" after every round, with more bots than seats?

For each table size ``k`` and number of bots ``n``, builds one period of the free-for-all
schedule (:func:`arena.scheduler.free_for_all`) for a few seeds and prints, after each round
of the period, the largest spread ``max - min`` of ``before(a, b)`` over ordered pairs, in
tables (one table adds ``k`` matches to each pair of its cycle), the worst over the seeds;
and the CPU time of the slowest build.  Marked ``=`` are the rounds whose mean count is a
whole number of tables, where "within one" means exact (spread 0).

    python benchmarks/seating_balance.py --seeds 3
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

from arena.scheduler import balanced_subsets, cycle_design, free_for_all

CASES = [(k, n, 2000) for k in range(3, 9) for n in range(k + 1, k + 4)] + [
    (4, 20, 2000), (6, 20, 2000), (8, 20, 2000), (5, 12, 300)]
"""(table size, bots, max_tables); the last four sample a pair-balanced subset of the tables."""


def spreads_by_round(n: int, k: int, seed: int, max_tables: int) -> tuple[list[int], float]:
    """The spread after each round of one period, and the CPU seconds the schedule took."""
    balanced_subsets(n, k, max_tables=max_tables, seed=seed)  # cached: time the seating only
    start = time.process_time()
    pairings = free_for_all(list(range(n)), k, rounds=len(cycle_design(k)), seed=seed, max_tables=max_tables)
    cpu = time.process_time() - start
    counts = Counter({pair: 0 for pair in itertools.permutations(range(n), 2)})
    out = []
    for round_ in range(len(cycle_design(k))):
        for pairing in pairings:
            if pairing.round == round_ and pairing.rotation == 0:  # one match per table: count tables
                seats = pairing.seats
                counts.update((bot, seats[(s + 1) % k]) for s, bot in enumerate(seats))
        out.append(max(counts.values()) - min(counts.values()))
    return out, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0 .. SEEDS-1 per case")
    args = parser.parse_args()
    print(f"{'k':>2} {'n':>3} {'tables':>6}  spread after each round (worst of {args.seeds} seeds)   cpu (s)")
    for k, n, max_tables in CASES:
        tables = len(balanced_subsets(n, k, max_tables=max_tables, seed=0))
        worst: list[int] = []
        slowest = 0.0
        for seed in range(args.seeds):
            spreads, cpu = spreads_by_round(n, k, seed, max_tables)
            worst = [max(pair) for pair in zip(worst, spreads)] if worst else spreads
            slowest = max(slowest, cpu)
        whole = [r * tables * k % (n * (n - 1)) == 0 for r in range(1, len(worst) + 1)]
        cells = " ".join(f"{s}{'=' if w else ' '}" for s, w in zip(worst, whole))
        print(f"{k:>2} {n:>3} {tables:>6}  {cells:<40} {slowest:6.2f}", flush=True)


if __name__ == "__main__":
    main()
