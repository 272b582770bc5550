"""Does the SPRT of ``arena sprt`` keep its promises?  Two measurements, in process.

1. **Identical bots** (``--identical-runs``, default 200): how often is a bot "accepted as
   stronger" than itself?  The promise is alpha = 5 % at most.  The bot is the random
   sample bot at Yahtzee, its moves drawn independently in each match, so a pair's two
   matches differ.  Such a test runs for about a thousand pairs or more (H0 and H1 are 10 Elo
   apart and the truth, 0, is on H0's border), too many to play 200 times, so a pool of
   ``--pool`` real pairs is played once and each run draws its pairs from it at random.
   Which of two identical bots is called NEW is arbitrary, so every pair in the pool also
   counts from the other side (``2 - points``): the pool's mean is exactly 1 point per pair,
   as the truth is.  A run that reaches ``--max-pairs`` counts as undecided.
2. **Synthetic pentanomial distributions** (``--synthetic-runs``, default 1,000 each: at 200,
   a rate of 5 % is measured +-1.5 points, too coarse to tell 5 % from 8 %): the same
   question for pair scores drawn from fixed distributions with mean 1 (Elo 0), from
   nearly-all-equal pairs to all-or-nothing ones, with the test's minimum of
   :data:`~arena.submission.sprt.MIN_PAIRS` pairs before a verdict and without it (1 pair):
   why the minimum is there.
3. **The Gin heuristic against the random bot** (``--strong-runs``, default 20): pairs played
   for real, one run after another with its own seed, until the verdict: the pairs it needed
   (median, p90).

The matches run as ``duplicate_deals.py`` plays them (the engines, the sample bots' policies,
observations through :mod:`referee.wire`); pairs are seated and scored by
:mod:`arena.submission.pairs` and tested by :mod:`arena.submission.sprt`, as ``arena sprt``
does.  Every match must have ended with decisions made by both seats, or the benchmark stops.

    python benchmarks/sprt.py
    python benchmarks/sprt.py --identical-runs 50 --pool 500 --strong-runs 5   # quick
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from duplicate_deals import load_strategy, play  # noqa: E402 - benchmarks/ is on the path when run as a script

from arena.submission.pairs import pair_layout, pair_seeds  # noqa: E402
from arena.submission.sprt import MIN_PAIRS, SPRT, Verdict  # noqa: E402

Policy = Callable[[Any, Sequence[Any]], int]


def random_policy(seed: int, counter: list[int]) -> Policy:
    """Random legal moves from a generator of its own; counts its decisions in ``counter``."""
    rng = random.Random(seed)

    def policy(observation: Any, legal: Sequence[Any]) -> int:
        counter[0] += 1
        return rng.randrange(len(legal))
    return policy


def counted(decide: Policy, counter: list[int]) -> Policy:
    def policy(observation: Any, legal: Sequence[Any]) -> int:
        counter[0] += 1
        return decide(observation, legal)
    return policy


def play_pair(game: str, deal: int, new: Callable[[list[int]], Policy], old: Callable[[list[int]], Policy]) -> float:
    """One duplicate pair; NEW's points.  Fails loudly if a seat made no decision (no real game)."""
    layout = pair_layout(game)
    rankings = []
    for match in (0, 1):
        counters = [[0] for _ in range(layout.num_players)]
        makers = layout.seats(match, new, old)
        ranking = play(game, deal, [maker(counters[seat]) for seat, maker in enumerate(makers)])
        if any(c[0] == 0 for c in counters):
            raise SystemExit(f"{game} seed {deal}: a seat made no decision; the matches did not really play")
        rankings.append(ranking)
    return layout.points(rankings)


def identical_pool(job: tuple[int, int]) -> list[float]:
    """``count`` pairs of the random bot against itself at Yahtzee, from ``start``."""
    start, count = job
    seeds = pair_seeds(start)
    points = []
    for index in range(count):
        deal = seeds()
        draw = random.Random(f"{start}-{index}")  # each seat of each match its own moves
        points.append(play_pair("yahtzee", deal, lambda c: random_policy(draw.randrange(2**62), c),
                                lambda c: random_policy(draw.randrange(2**62), c)))
    return points


def resampled_run(pool: Sequence[float], seed: int, max_pairs: int) -> tuple[Verdict | None, int]:
    rng = random.Random(seed)
    test = SPRT()
    while test.verdict is None and test.pairs < max_pairs:
        test.record(rng.choice(pool))
    return test.verdict, test.pairs


SYNTHETIC = {"nearly all equal": (0.02, 0.08, 0.8, 0.08, 0.02), "bell": (0.1, 0.2, 0.4, 0.2, 0.1),
             "wide": (0.2, 0.15, 0.3, 0.15, 0.2), "all or nothing": (0.25, 0.0, 0.5, 0.0, 0.25)}
"""Shares of pair scores 0, 1/2, 1, 3/2, 2; each symmetric, so NEW and OLD are equally strong."""


def synthetic_run(job: tuple[tuple[float, ...], int, int, int]) -> Verdict | None:
    shares, min_pairs, seed, max_pairs = job
    rng = random.Random(seed)
    test = SPRT(min_pairs=min_pairs)
    while test.verdict is None and test.pairs < max_pairs:
        test.record(rng.choices((0.0, 0.5, 1.0, 1.5, 2.0), shares)[0])
    return test.verdict


def strong_run(job: tuple[int, int]) -> tuple[Verdict | None, int, float]:
    """The Gin heuristic (NEW) against the random bot (OLD) until the verdict; seconds taken."""
    seed, max_pairs = job
    started = time.monotonic()
    heuristic = load_strategy("gin_rummy").decide
    draw = random.Random(seed)
    seeds = pair_seeds(seed)
    test = SPRT()
    while test.verdict is None and test.pairs < max_pairs:
        test.record(play_pair("gin_rummy", seeds(), lambda c: counted(heuristic, c),
                              lambda c: random_policy(draw.randrange(2**62), c)))
    return test.verdict, test.pairs, time.monotonic() - started


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--identical-runs", type=int, default=200)
    parser.add_argument("--pool", type=int, default=2000, help="real pairs of identical bots to draw from")
    parser.add_argument("--max-pairs", type=int, default=100_000, help="a resampled run stops undecided here")
    parser.add_argument("--synthetic-runs", type=int, default=1000)
    parser.add_argument("--strong-runs", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    options = parser.parse_args()
    with ProcessPoolExecutor(options.workers) as pool:
        started = time.monotonic()
        chunk = 50
        jobs = [(1000 + start, min(chunk, options.pool - start)) for start in range(0, options.pool, chunk)]
        played = [points for part in pool.map(identical_pool, jobs) for points in part]
        pairs = played + [2.0 - points for points in played]
        print(f"identical bots (the random bot against itself, Yahtzee): {len(played)} real pairs in "
              f"{time.monotonic() - started:.0f} s; NEW's points per pair as played: mean "
              f"{statistics.fmean(played):.3f}, sd {statistics.pstdev(played):.3f}; "
              f"shares 0/0.5/1/1.5/2: {' '.join(f'{played.count(s) / len(played):.3f}' for s in (0, .5, 1, 1.5, 2))}")
        runs = [resampled_run(pairs, run, options.max_pairs) for run in range(options.identical_runs)]
        accepted = sum(verdict is Verdict.STRONGER for verdict, _ in runs)
        rejected = sum(verdict is Verdict.NOT_STRONGER for verdict, _ in runs)
        decided = [n for verdict, n in runs if verdict is not None]
        share = accepted / len(runs)
        print(f"  {len(runs)} runs drawn from them: accepted as stronger {accepted} ({share:.1%}; promise <= 5%: "
              f"{'met' if share <= 0.05 else 'MISSED'}), not stronger {rejected}, undecided "
              f"{len(runs) - len(decided)} (at {options.max_pairs} pairs)")
        if decided:
            print(f"  pairs to decide: mean {statistics.fmean(decided):.0f}, median {statistics.median(decided):.0f}, "
                  f"p90 {percentile(decided, 0.9):.0f}")
        started = time.monotonic()
        error = (0.05 * 0.95 / options.synthetic_runs) ** 0.5
        print(f"synthetic pair scores at Elo 0, {options.synthetic_runs} runs each (a true 5% is measured "
              f"+-{error:.1%}): accepted as stronger")
        for name, shares in SYNTHETIC.items():
            shown = []
            for min_pairs in (MIN_PAIRS, 1):
                jobs2 = [(shares, min_pairs, run, options.max_pairs) for run in range(options.synthetic_runs)]
                verdicts = list(pool.map(synthetic_run, jobs2, chunksize=10))
                how = f"the minimum of {min_pairs} pairs" if min_pairs > 1 else "1 pair"
                shown.append(f"{sum(v is Verdict.STRONGER for v in verdicts) / len(verdicts):.1%} with {how}")
            print(f"  {name:16s} ({' '.join(f'{s:g}' for s in shares)}): {'; '.join(shown)}")
        print(f"  ({time.monotonic() - started:.0f} s)")
        started = time.monotonic()
        strong = list(pool.map(strong_run, [(2000 + run, 2000) for run in range(options.strong_runs)]))
        needed = [n for _, n, _ in strong]
        verdicts = [verdict.value if verdict else "undecided" for verdict, _, _ in strong]
        print(f"gin heuristic against the random bot, Gin Rummy: {len(strong)} runs in "
              f"{time.monotonic() - started:.0f} s; verdicts: "
              f"{', '.join(f'{v} {verdicts.count(v)}' for v in sorted(set(verdicts)))}")
        print(f"  pairs to decide: median {statistics.median(needed):.0f}, p90 {percentile(needed, 0.9):.0f} "
              f"(matches: twice that); the test stops no earlier than {SPRT().min_pairs} pairs")
    if share > 0.05:
        sys.exit(1)


if __name__ == "__main__":
    main()
