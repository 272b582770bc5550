"""Is "exact after every round" possible at all?  An exhaustive search for small cases.

With every k-subset of ``n`` bots as a table, the mean of ``before(a, b)`` after ``r`` rounds
is ``r * C(n, k) * k / (n (n - 1))`` tables.  When it is a whole number after every round
(for instance ``n = k + 1``), "every count within one" means every count equal, so every
round must add the same count ``m`` to every ordered pair.  This searches, table by table
with backtracking, for an assignment of a relabelled copy of :func:`cycle_design` and an
order of its cycles to every table such that each round adds exactly ``m`` to every pair
(pruning as soon as a round's count of some pair exceeds ``m``).  Without a node budget,
"no" is a proof that no schedule of the kind :func:`arena.scheduling.round_robin.free_for_all` builds
can be exact after every round; "budget" means undecided.

    python benchmarks/seating_exact.py 5 6      # k n
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

from arena.scheduling.round_robin import cycle_design


def options(table: tuple[int, ...], n: int, relabel: bool = True) -> list[tuple[tuple[int, ...], ...]]:
    """Every distinct way a table can play one period: per round, its cycle's arcs (a * n + b).

    Without ``relabel``, only the design's own seat order (any order of its cycles)."""
    design = cycle_design(len(table))
    k = len(table)
    found = set()
    for seats in itertools.permutations(table) if relabel else [table]:
        cycles = [tuple(sorted(seats[c[s]] * n + seats[c[(s + 1) % k]] for s in range(k))) for c in design]
        for order in itertools.permutations(cycles):
            found.add(order)
    return sorted(found)


def search(k: int, n: int, budget: int, exact: set[int] | None = None) -> str:
    """Search for a schedule exact after each round in ``exact`` (default: every round)."""
    tables = list(itertools.combinations(range(n), k))
    period = len(cycle_design(k))
    per_round, rest = divmod(len(tables) * k, n * (n - 1))
    if rest:
        return f"the mean after one round is not whole ({len(tables) * k}/{n * (n - 1)}): nothing to decide"
    # Renaming the bots of the first table maps any of its relabellings to the design's own.
    # Renaming the bots of the first table maps any of its relabellings to the design's own.
    exact = set(range(1, period)) if exact is None else exact
    checked = [r for r in range(1, period) if r in exact]
    # Each option as what it adds to the count of the first r rounds, for each checked r.
    choices = [[[(r, arc, x) for r in checked
                 for arc, x in Counter(arc for cycle in option[:r] for arc in cycle).items()]
                for option in options(t, n, relabel=i > 0)] for i, t in enumerate(tables)]
    counts = {r: [0] * (n * n) for r in checked}
    nodes = [0]

    def place(i: int) -> bool | None:
        if i == len(tables):
            assert all(count == r * per_round for r in checked for a, count in enumerate(counts[r]) if a % (n + 1))
            return True
        for adds in choices[i]:
            nodes[0] += 1
            if nodes[0] > budget:
                return None
            if all(counts[r][arc] + x <= r * per_round for r, arc, x in adds):
                for r, arc, x in adds:
                    counts[r][arc] += x
                result = place(i + 1)
                for r, arc, x in adds:
                    counts[r][arc] -= x
                if result is not False:
                    return result
        return False

    result = place(0)
    rounds = ", ".join(map(str, sorted(exact)))
    verdict = {True: f"yes: a schedule exact after rounds {rounds} exists",
               False: f"no: none is exact after rounds {rounds} (exhaustive)", None: "budget: undecided"}[result]
    return f"{verdict} ({nodes[0]:,} nodes)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("k", type=int)
    parser.add_argument("n", type=int)
    parser.add_argument("--budget", type=int, default=50_000_000)
    parser.add_argument("--exact", help="comma-separated rounds that must be exact (default: all)")
    args = parser.parse_args()
    exact = {int(r) for r in args.exact.split(",")} if args.exact else None
    start = time.process_time()
    print(f"k={args.k} n={args.n}: {search(args.k, args.n, args.budget, exact)} "
          f"[{time.process_time() - start:.1f} s]")


if __name__ == "__main__":
    main()
