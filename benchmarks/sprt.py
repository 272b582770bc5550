"""How many pairs does a verdict take, with today's logistic SPRT and with the normalised SPRT on
luck-adjusted pair scores (issue 35)?  And how often are identical bots called stronger?

For each game, in process (:mod:`inprocess`: the engines, the sample bots' strategies, the
records a real match stores):

1. **A 10 % weaker version.**  NEW is the game's heuristic sample bot, OLD the same bot playing
   a random legal move 10 % of the time (``noisy``, epsilon 0.1, its own draws in each pair).
   ``--pool`` real duplicate pairs are played once; each pair gives NEW's plain points, its raw
   margin (NEW's mean result minus OLD's) and, when the game has a luck estimator
   (:func:`referee.luck.estimator_for`), its luck-adjusted margin.  Then ``--runs`` runs each
   draw pairs from the pool at random (run ``r`` from seed ``r``) and feed the *same* sequence
   to every test until each has its verdict: today's test (logistic Elo [0, 10] on points),
   and the normalised test (normalised Elo [0, 10]) on plain points, on raw margins (luck not
   taken out: what the margin alone gives) and on adjusted margins (the new default).  Printed:
   the median (p10, p90) pairs to a verdict of each, and the ratio today / new.
2. **Identical bots.**  NEW and OLD are the same noisy bot (each with its own random draws):
   ``--pool`` real pairs, each also counted from the other side so that the pool's mean is
   exactly even (the truth, on H0's border), and ``--runs`` resampled runs per test: the share
   called stronger (the promise: alpha = 5 % at most).  A run stopped at ``--max-pairs`` is
   undecided.

Resampling from a pool of real pairs is a bootstrap: the pool's pairs stand for the game's,
so a pool of a few hundred pairs limits how finely a median is known (printed with the pool's
size).  Yoninkan's pairs are replays (NEW in one seat among OLDs, then OLD alone: docs/sprt.md),
which the logistic test refuses, so its rows leave that test out.
A game without an estimator is measured on points and raw margins, and says so: its adjusted
column waits for the estimator, and the script runs unchanged once it is there.

    python benchmarks/sprt.py                       # every game
    python benchmarks/sprt.py --games gin_rummy --pool 100 --runs 100   # quick
    python benchmarks/sprt.py --cache /tmp/sprt-pools --runs 1000     # again, without playing
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from inprocess import heuristic, noisy, play  # noqa: E402 - benchmarks/ is on the path when run as a script

from arena.submission.normalized_sprt import NormalizedSPRT  # noqa: E402
from arena.submission.pairs import PairingError, pair_layout, pair_seeds  # noqa: E402
from arena.submission.sprt import SPRT, Verdict  # noqa: E402
from referee.games import game_names, make_game  # noqa: E402
from referee.luck import LuckError, analyse, estimator_for, results_of  # noqa: E402

EPSILON = 0.1
Pair = tuple[float, float, float | None]
"""NEW's points, raw margin and adjusted margin (``None`` without an estimator)."""


def estimator_name(game: str) -> str | None:
    try:
        return estimator_for(game).name
    except (LuckError, ImportError):
        return None


def play_pool(job: tuple[str, str, int, int]) -> list[Pair]:
    """``count`` pairs of ``kind`` ("weaker": heuristic against noisy; "identical": noisy
    against noisy) from deal seed stream ``start``."""
    game, kind, start, count = job
    layout = pair_layout(game)
    engine = make_game(game, num_players=layout.num_players)
    decide = heuristic(game)
    has_luck = estimator_name(game) is not None
    seeds = pair_seeds(start)
    pairs: list[Pair] = []
    for index in range(count):
        deal, salt = seeds(), 2 * (start * 100_000 + index)
        new = noisy(decide, EPSILON, salt) if kind == "identical" else decide
        old = noisy(decide, EPSILON, salt + 1)
        seating = layout.at(index)  # Yoninkan's NEW seat turns with the pair
        records = [play(game, deal, list(seating.seats(match, new, old))) for match in (0, 1)]
        points = seating.points([record.ranking for record in records])
        raw = seating.margin([results_of(engine, record.scores) for record in records])
        adjusted = seating.margin([analyse(record).adjusted for record in records]) if has_luck else None
        pairs.append((points, raw, adjusted))
    return pairs


TESTS: dict[str, Callable[[], SPRT | NormalizedSPRT]] = {
    "today (logistic, points)": SPRT,
    "normalized, points": lambda: NormalizedSPRT(measure="points"),
    "normalized, raw margin": lambda: NormalizedSPRT(measure="adjusted", estimator="none/0"),
    "normalized, adjusted": lambda: NormalizedSPRT(measure="adjusted", estimator="pool/0"),
}
"""The tests fed the same pairs; the raw-margin one counts the raw margin as its "adjusted" score
(an estimator that sees no luck)."""


def feed(name: str, test: SPRT | NormalizedSPRT, pair: Pair) -> None:
    points, raw, adjusted = pair
    if name.endswith("raw margin"):
        test.record(points, raw, raw)
    elif name.endswith("adjusted"):
        test.record(points, adjusted, raw)
    else:
        test.record(points)


def resampled(job: tuple[Sequence[Pair], Sequence[str], int, int]) -> dict[str, tuple[Verdict | None, int]]:
    """One run: pairs drawn from the pool with seed ``seed`` until every test has its verdict."""
    pool, names, seed, max_pairs = job
    rng = random.Random(seed)
    tests = {name: TESTS[name]() for name in names}
    ended: dict[str, tuple[Verdict | None, int]] = {}
    while len(ended) < len(tests):
        pair = rng.choice(pool)
        for name, test in tests.items():
            if name not in ended:
                feed(name, test, pair)
                if test.verdict is not None or test.pairs >= max_pairs:
                    ended[name] = (test.verdict, test.pairs)
    return ended


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def pool_of(executor: ProcessPoolExecutor, game: str, kind: str, size: int, base: int, workers: int,
            cache: Path | None) -> list[Pair]:
    """The pool's pairs, played (on ``workers`` processes) or read from ``cache`` where a run with
    the same game, kind, size, seeds and estimator stored them."""
    key = f"{game}-{kind}-{size}-{base}-{(estimator_name(game) or 'none').replace('/', '_')}.json"
    if cache is not None and (cache / key).exists():
        return [tuple(pair) for pair in json.loads((cache / key).read_text())]  # type: ignore[misc]
    chunk = max(1, -(-size // (2 * workers)))
    jobs = [(game, kind, base + start, min(chunk, size - start)) for start in range(0, size, chunk)]
    pool = [pair for part in executor.map(play_pool, jobs) for pair in part]
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        (cache / key).write_text(json.dumps(pool))
    return pool


def describe(pool: Sequence[Pair]) -> str:
    points = [p for p, _, _ in pool]
    raw = [r for _, r, _ in pool]
    text = (f"NEW's points per pair {statistics.fmean(points):.3f} of 2; raw margin mean {statistics.fmean(raw):+.2f}, "
            f"sd {statistics.pstdev(raw):.2f}")
    adjusted = [a for _, _, a in pool if a is not None]
    if adjusted:
        ratio = statistics.pvariance(raw) / statistics.pvariance(adjusted)
        text += (f"; adjusted margin mean {statistics.fmean(adjusted):+.2f}, sd {statistics.pstdev(adjusted):.2f} "
                 f"(variance ratio raw/adjusted {ratio:.1f})")
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=game_names())
    parser.add_argument("--pool", type=int, default=200, help="real pairs per game and kind")
    parser.add_argument("--runs", type=int, default=200, help="resampled runs per game and kind")
    parser.add_argument("--max-pairs", type=int, default=20_000, help="a resampled run stops undecided here")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--cache", type=Path, default=None,
                        help="keep the played pools here (keyed by game, kind, size, seeds and estimator version) to "
                             "resample them again without playing")
    options = parser.parse_args()
    print(f"alpha = beta = 0.05; H0/H1: Elo 0/10 (logistic for today's test, normalised for the new one); "
          f"OLD plays a random move with probability {EPSILON}; pools of {options.pool} real pairs; "
          f"{options.runs} resampled runs (seeds 0 to {options.runs - 1})")
    with ProcessPoolExecutor(options.workers) as executor:
        for game in options.games:
            try:
                layout = pair_layout(game)
            except PairingError as error:
                print(f"\n{game}: not measured: {error}")
                continue
            estimator = estimator_name(game)
            names = [name for name in TESTS if (estimator is not None or not name.endswith("adjusted"))
                     and not (layout.replay and name.startswith("today"))]  # the logistic test refuses replays
            print(f"\n{game}: luck estimator {estimator or 'none yet (adjusted column waits for it)'}")
            started = time.monotonic()
            base = 1000 * (game_names().index(game) + 1)  # a game's seeds whatever else runs
            weaker = pool_of(executor, game, "weaker", options.pool, base, options.workers, options.cache)
            print(f"  heuristic (NEW) against itself with 10% random moves (OLD): {len(weaker)} pairs, deal seeds "
                  f"from pair_seeds({base}...), {time.monotonic() - started:.0f} s; {describe(weaker)}")
            runs = list(executor.map(resampled, [(weaker, names, seed, options.max_pairs)
                                                 for seed in range(options.runs)], chunksize=10))
            medians = {}
            for name in names:
                needed = [run[name][1] for run in runs]
                verdicts = [run[name][0] for run in runs]
                medians[name] = statistics.median(needed)
                print(f"  {name:26s} pairs to a verdict: median {medians[name]:.0f} (p10 {percentile(needed, 0.1):.0f},"
                      f" p90 {percentile(needed, 0.9):.0f}); stronger {sum(v is Verdict.STRONGER for v in verdicts)},"
                      f" not stronger {sum(v is Verdict.NOT_STRONGER for v in verdicts)},"
                      f" undecided {sum(v is None for v in verdicts)}")
            best = "normalized, adjusted" if estimator is not None else "normalized, raw margin"
            if "today (logistic, points)" in medians:
                today = medians["today (logistic, points)"]
                print(f"  today / {best}: {today / medians[best]:.2f}x fewer pairs (goal >= 3x"
                      f"{'' if estimator is not None else '; with luck adjustment once the estimator exists'})")
            started = time.monotonic()
            identical = pool_of(executor, game, "identical", options.pool, base + 500, options.workers, options.cache)
            mirrored = identical + [(2.0 - p, -r, None if a is None else -a) for p, r, a in identical]
            runs = list(executor.map(resampled, [(mirrored, names, seed, options.max_pairs)
                                                 for seed in range(options.runs)], chunksize=10))
            error = (0.05 * 0.95 / options.runs) ** 0.5
            print(f"  identical bots (the noisy heuristic against itself): {len(identical)} pairs, deal seeds from "
                  f"pair_seeds({base + 500}...), {time.monotonic() - started:.0f} s, each also counted mirrored; "
                  f"called stronger in (a true 5% is measured +-{error:.1%}):")
            for name in names:
                share = sum(run[name][0] is Verdict.STRONGER for run in runs) / len(runs)
                needed = [run[name][1] for run in runs]
                print(f"    {name:26s} {share:5.1%} ({'met' if share <= 0.05 else 'MISSED'}); pairs: median "
                      f"{statistics.median(needed):.0f}, undecided {sum(run[name][0] is None for run in runs)}")


if __name__ == "__main__":
    main()
