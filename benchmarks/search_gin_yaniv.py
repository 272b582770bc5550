"""Search bots against their heuristics, in process, on duplicate deals: strength and decision time.

    .venv/bin/python benchmarks/search_gin_yaniv.py gin_rummy [--variant oklahoma] [--pairs 40] [--seed 1]
        [--deals 60] [--seconds 0.7]
    .venv/bin/python benchmarks/search_gin_yaniv.py yaniv [--players 4] ...

Each seed is played twice with the seats swapped (two-seat games), or, at a four-seat Yaniv
table of two search bots and two heuristics, in the seatings SHSH and HSHS. It prints the
search bot's share of matches won (two seats) or each side's mean rank (four seats), and the
search bot's decision time p50 / p99 / max. The engine and the bots' ``decide`` run in this
process (benchmarks/inprocess.py), without gRPC; ``--deals`` is the bot's budget (the bot's
command-line argument in its bot.toml).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from inprocess import heuristic, load_strategy, play  # noqa: E402

SEARCH = {"gin_rummy": "gin_search", "yaniv": "yaniv_search"}


def timed(decide: Callable[..., int], times: list[float]) -> Callable[..., int]:
    def policy(observation: Any, legal: Sequence[Any]) -> int:
        start = time.perf_counter()
        index = decide(observation, legal)
        times.append(time.perf_counter() - start)
        return index
    return policy


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SEARCH))
    parser.add_argument("--variant", default=None)
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--pairs", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--deals", type=int, default=None, help="the search bot's budget (default: its own)")
    parser.add_argument("--seconds", type=float, default=None, help="its time guard per decision")
    parser.add_argument("--progress", action="store_true", help="print the tally after each seed")
    args = parser.parse_args()
    strategy = load_strategy(SEARCH[args.game])
    budget = {"deals": args.deals or strategy.DEFAULT_DEALS, "seconds": args.seconds or strategy.DEFAULT_SECONDS}
    times: list[float] = []
    search, heur = timed(strategy.make_decide(**budget), times), heuristic(args.game)
    seatings = ([[search, heur], [heur, search]] if args.players == 2
                else [[search, heur, search, heur], [heur, search, heur, search]])
    wins = matches = 0
    ranks: dict[str, list[int]] = {"search": [], "heuristic": []}
    started = time.perf_counter()
    for seed in range(args.seed, args.seed + args.pairs):
        for seating in seatings:
            record = play(args.game, seed, seating, variant=args.variant)
            for seat, policy in enumerate(seating):
                ranks["search" if policy is search else "heuristic"].append(record.ranking[seat])
                if policy is search and args.players == 2:
                    matches += 1
                    wins += record.ranking[seat] < record.ranking[1 - seat]
        if args.progress:
            print(f"  seed {seed}: search won {wins} of {matches}; mean rank search "
                  f"{statistics.mean(ranks['search']):.3f}, heuristic {statistics.mean(ranks['heuristic']):.3f}",
                  flush=True)
    print(f"{args.game} {args.variant or 'default'}, {args.players} seats: {args.pairs} duplicate pairs, "
          f"seeds {args.seed}..{args.seed + args.pairs - 1}, budget {budget}, "
          f"{time.perf_counter() - started:.0f} s")
    if args.players == 2:
        print(f"search bot won {wins} of {matches} matches ({100 * wins / matches:.1f}%)")
    for side, got in ranks.items():
        print(f"{side}: mean rank {statistics.mean(got):.3f} over {len(got)} seats")
    print(f"decision time over {len(times)} decisions: p50 {1000 * percentile(times, 0.5):.1f} ms, "
          f"p99 {1000 * percentile(times, 0.99):.1f} ms, max {1000 * max(times):.1f} ms")


if __name__ == "__main__":
    main()
