"""How even is "who sits directly before whom" after a tournament's rounds, with more bots than seats?

For each table size ``k`` and number of bots ``n``, builds the free-for-all schedule
(:func:`arena.scheduling.round_robin.free_for_all`) of ``R`` rounds, for every ``R`` from 1 to ``P - 1``
and for ``P + 1`` (``P`` the design's period; after a multiple of ``P`` the counts are equal
by construction), for a few seeds, and prints the spread ``max - min`` of ``before(a, b)``
over ordered pairs after the ``R`` rounds, in tables (one table adds ``k`` matches to each
pair of its cycle), the worst over the seeds; the CPU seconds of the slowest build and of all
of the row's builds.  Marked ``=`` are the ``R`` whose mean count is a whole number of
tables, where "within one" means exact (spread 0); the last lines count the builds that
reach that target (within one table) and their CPU time.

    python benchmarks/seating_balance.py --seeds 3
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

from arena.scheduling.round_robin import balanced_subsets, cycle_design, free_for_all

CASES = [(k, n, 2000) for k in range(3, 9) for n in range(k + 1, k + 4)] + [
    (4, 20, 2000), (6, 20, 2000), (8, 20, 2000), (5, 12, 300)]
"""(table size, bots, max_tables); the last four sample a pair-balanced subset of the tables."""


def final_spread(n: int, k: int, rounds: int, seed: int, max_tables: int) -> tuple[int, float]:
    """The spread after a tournament of ``rounds`` rounds, and the CPU seconds its schedule took."""
    balanced_subsets(n, k, max_tables=max_tables, seed=seed)  # cached: time the seating only
    start = time.process_time()
    pairings = free_for_all(list(range(n)), k, rounds=rounds, seed=seed, max_tables=max_tables)
    cpu = time.process_time() - start
    counts = Counter({pair: 0 for pair in itertools.permutations(range(n), 2)})
    for pairing in pairings:
        if pairing.rotation == 0:  # one match per table: count tables
            seats = pairing.seats
            counts.update((bot, seats[(s + 1) % k]) for s, bot in enumerate(seats))
    return max(counts.values()) - min(counts.values()), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0 .. SEEDS-1 per case")
    args = parser.parse_args()
    print(f"{'k':>2} {'n':>3} {'tables':>6}  spread after R = 1 .. P-1, P+1 rounds (worst of {args.seeds} seeds)"
          f"   cpu (s): max, row")
    met = builds = 0
    total = slowest_build = 0.0
    for k, n, max_tables in CASES:
        tables = len(balanced_subsets(n, k, max_tables=max_tables, seed=0))
        period = len(cycle_design(k))
        cells = []
        slowest = row = 0.0
        for rounds in (*range(1, period), period + 1):
            results = [final_spread(n, k, rounds, seed, max_tables) for seed in range(args.seeds)]
            slowest = max(slowest, *(cpu for _, cpu in results))
            row += sum(cpu for _, cpu in results)
            builds += len(results)
            met += sum(spread <= 1 for spread, _ in results)
            whole = rounds * tables * k % (n * (n - 1)) == 0
            cells.append(f"{max(spread for spread, _ in results)}{'=' if whole else ' '}")
        print(f"{k:>2} {n:>3} {tables:>6}  {' '.join(cells):<40} {slowest:6.2f} {row:6.2f}", flush=True)
        total += row
        slowest_build = max(slowest_build, slowest)
    print(f"within one table (0 where the mean is whole): {met} of {builds} builds")
    print(f"cpu: {total:.1f} s in all, {slowest_build:.2f} s for the slowest build")


if __name__ == "__main__":
    main()
