"""How much of a result's variance the luck adjustment removes, alone and on top of duplicate deals.

For each game's line-ups of fixed sample strategies (in process, benchmarks/inprocess.py),
plays ``--matches`` matches on seeds ``--first-seed`` up and reads each with
:func:`referee.luck.analyse`.  The first entrant (the policy of seat 0; in Jass its team, seats
0+2) gives per match its raw result and its adjusted one.  Printed: both means with standard
errors (the adjustment must not move the mean), both variances and their ratio with a 95 %
bootstrap interval (``--boot`` resamples of the matches, seeded).

Duplicate deals: every seed is played again with the seats rotated, ``Lineup.seatings`` times
in all (two: rotated by one, so in Jass the teams swap cards; four at a Yaniv or Yoninkan table
of four: every rotation; one for solitaire); an entrant's duplicate result is the mean of its
results, raw or adjusted, and the ratio var(raw duplicate) / var(adjusted duplicate) says what the
adjustment adds on top of the duplicate deals.

    PYTHONPATH=. python benchmarks/luck_variance.py --game yahtzee --matches 1000
    PYTHONPATH=. python benchmarks/luck_variance.py --game jass --matches 200
    PYTHONPATH=. python benchmarks/luck_variance.py --game gin_rummy --variant oklahoma --matches 60
    PYTHONPATH=. python benchmarks/luck_variance.py --game jass --matches 400 --short
    PYTHONPATH=. python benchmarks/luck_variance.py --game yaniv --matches 50 --lineup "2 seats"

Also prints the mean time of :func:`referee.luck.analyse` per match.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import inprocess  # noqa: E402
from benchmarks.inprocess import RANDOM, Policy, heuristic, noisy, play  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.luck import analyse  # noqa: E402


@dataclass(frozen=True)
class Lineup:
    """Seat ``i`` plays ``seats()[i]``; the measured entrant is the policy of seat 0."""

    name: str
    seats: Callable[[], Sequence[Policy]]
    variant: str | None = None
    seatings: int = 2
    """Rotations of the seats each seed is played in (the first is the line-up as given)."""


def _jass_teams(a: Callable[[], Policy], b: Callable[[], Policy]) -> Callable[[], Sequence[Policy]]:
    def seats() -> Sequence[Policy]:
        first, second = a(), b()
        return [first, second, first, second]
    return seats


def _optimal() -> Policy:
    """The solitaire-optimal Yahtzee bot's policy, from tables its build step solves (about 20 s
    once; cached in a temporary folder for this run)."""
    import os
    import subprocess
    import tempfile

    folder = inprocess.SAMPLES / "yahtzee_optimal"
    build = Path(tempfile.gettempdir()) / "arena-luck-variance-optimal"
    if not any(build.glob("*.npz")):
        build.mkdir(parents=True, exist_ok=True)
        subprocess.run([sys.executable, "build.py"], cwd=folder, check=True,
                       env={**os.environ, "ARENA_BUILD": str(build)})
    os.environ["ARENA_BUILD"] = str(build)
    return inprocess.load_strategy("yahtzee_optimal").Strategy.from_build().decide  # type: ignore[no-any-return]


def _pair(a: Callable[[], Policy], b: Callable[[], Policy]) -> Callable[[], Sequence[Policy]]:
    return lambda: [a(), b()]


def _gin(epsilon: float) -> Callable[[], Policy]:
    return lambda: noisy(heuristic("gin_rummy"), epsilon, 11)


_YANIV_OTHERS: dict[str, Callable[[], Policy]] = {
    "noisy heuristic (epsilon 0.1)": lambda: noisy(heuristic("yaniv"), 0.1, 7),
    "noisy heuristic (epsilon 0.3)": lambda: noisy(heuristic("yaniv"), 0.3, 7),
    "random": lambda: RANDOM,
    "heuristic": lambda: heuristic("yaniv"),
}
"""Yaniv's opponents of the heuristic (at a table of 4: two heuristics and two of these, alternating)."""


LINEUPS: dict[str, list[Lineup]] = {
    "yahtzee": [
        Lineup("heuristic, solitaire", lambda: [heuristic("yahtzee")], seatings=1),
        Lineup("heuristic, solitaire Yams", lambda: [heuristic("yahtzee")], "yams", seatings=1),
        Lineup("heuristic vs heuristic", lambda: [heuristic("yahtzee"), heuristic("yahtzee")]),
        Lineup("heuristic vs optimal", lambda: [heuristic("yahtzee"), _optimal()]),
        Lineup("heuristic vs noisy heuristic (epsilon 0.1)",
               lambda: [heuristic("yahtzee"), noisy(heuristic("yahtzee"), 0.1, 7)]),
        Lineup("heuristic vs random", lambda: [heuristic("yahtzee"), RANDOM]),
    ],
    "gin_rummy": [
        Lineup("heuristic vs noisy heuristic (epsilon 0.1)", _pair(lambda: heuristic("gin_rummy"), _gin(0.1))),
        Lineup("heuristic vs noisy heuristic (epsilon 0.3)", _pair(lambda: heuristic("gin_rummy"), _gin(0.3))),
        Lineup("heuristic vs random", _pair(lambda: heuristic("gin_rummy"), lambda: RANDOM)),
        Lineup("noisy heuristic (epsilon 0.3) vs random", _pair(_gin(0.3), lambda: RANDOM)),
        Lineup("heuristic vs heuristic", _pair(lambda: heuristic("gin_rummy"), lambda: heuristic("gin_rummy"))),
    ],
    "jass": [
        Lineup("heuristic team vs noisy heuristic team (epsilon 0.1)",
               _jass_teams(lambda: heuristic("jass"), lambda: noisy(heuristic("jass"), 0.1, 7))),
        Lineup("heuristic team vs random team", _jass_teams(lambda: heuristic("jass"), lambda: RANDOM)),
    ],
    "yaniv": [
        *(Lineup(f"heuristic vs {name}, 2 seats", lambda other=other: [heuristic("yaniv"), other()])
          for name, other in _YANIV_OTHERS.items()),
        *(Lineup(f"heuristic vs {name}, 4 seats", lambda other=other: [heuristic("yaniv"), other(), heuristic("yaniv"),
                                                                       other()], seatings=4)
          for name, other in _YANIV_OTHERS.items()),
    ],
    "yoninkan": [
        Lineup("two heuristics vs two noisy heuristics (epsilon 0.2)",
               lambda: [heuristic("yoninkan"), noisy(heuristic("yoninkan"), 0.2, 7), heuristic("yoninkan"),
                        noisy(heuristic("yoninkan"), 0.2, 8)], seatings=4),
    ],
}
"""Per game, the line-ups measured (other games add theirs here)."""


def results(game: str, lineup: Lineup, seeds: Sequence[int], settings: dict[str, Any] | None,
            variant: str | None = None) -> tuple[list[list[tuple[float, float]]], float]:
    """Per seed, the entrant's raw and adjusted result in each seating (seating ``k``: the seats
    rotated by ``k``, so the entrant sits at seat ``k``); and the seconds ``analyse`` took."""
    seats = list(lineup.seats())
    out = []
    spent = 0.0
    for seed in seeds:
        found = []
        for k in range(lineup.seatings):
            record = play(game, seed, seats[len(seats) - k:] + seats[:len(seats) - k], settings=settings,
                          variant=variant or lineup.variant)
            started = time.perf_counter()
            report = analyse(record)
            spent += time.perf_counter() - started
            found.append((report.result[k], report.adjusted[k]))
        out.append(found)
    return out, spent


def variance_ratio(pairs: Sequence[tuple[float, float]], boot: int, seed: int) -> tuple[float, float, float]:
    """var(raw) / var(adjusted) and its 95 % percentile bootstrap interval."""
    def ratio(sample: Sequence[tuple[float, float]]) -> float:
        raw, adjusted = statistics.variance([r for r, _ in sample]), statistics.variance([a for _, a in sample])
        return raw / adjusted if adjusted else (math.inf if raw else math.nan)
    rng = random.Random(seed)
    draws = sorted((ratio([pairs[rng.randrange(len(pairs))] for _ in pairs]) for _ in range(boot)), key=lambda x: (math.isnan(x), x))
    return ratio(pairs), draws[int(0.025 * boot)], draws[int(0.975 * boot) - 1]


def report(label: str, pairs: Sequence[tuple[float, float]], boot: int, seed: int) -> None:
    n = len(pairs)
    raw = [r for r, _ in pairs]
    adjusted = [a for _, a in pairs]
    ratio, low, high = variance_ratio(pairs, boot, seed)
    print(f"  {label}: n={n}  mean raw {statistics.fmean(raw):+.1f} ± {statistics.stdev(raw) / n ** 0.5:.1f}, "
          f"adjusted {statistics.fmean(adjusted):+.1f} ± {statistics.stdev(adjusted) / n ** 0.5:.1f} (1 s.e.)")
    print(f"    var raw {statistics.variance(raw):.0f}, var adjusted {statistics.variance(adjusted):.0f}, "
          f"ratio {ratio:.2f} [95% {low:.2f}, {high:.2f}]")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(LINEUPS), required=True)
    parser.add_argument("--lineup", action="append", help="only the line-ups whose name contains this")
    parser.add_argument("--matches", type=int, default=200, help="seeds per line-up (duplicate: two matches each)")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--variant", help="the game's variant (default: its default)")
    parser.add_argument("--short", action="store_true", help="the engine's settings for short matches")
    parser.add_argument("--boot", type=int, default=1000, help="bootstrap resamples (seeded by --first-seed)")
    args = parser.parse_args()
    game = make_game(args.game, variant=args.variant)
    settings = dict(game.short_match_settings) if args.short else None
    seeds = range(args.first_seed, args.first_seed + args.matches)
    print(f"{args.game} ({game.variant}): seeds {seeds.start}..{seeds.stop - 1}, settings {settings or 'default'}, "
          f"{args.boot} bootstrap resamples")
    for lineup in LINEUPS[args.game]:
        if args.lineup and not any(part in lineup.name for part in args.lineup):
            continue
        started = time.perf_counter()
        found, spent = results(args.game, lineup, seeds, settings, args.variant)
        played = lineup.seatings * len(found)
        shown_variant = args.variant or lineup.variant
        print(f"{lineup.name}{' (' + shown_variant + ')' if shown_variant else ''} "
              f"({played} matches, {time.perf_counter() - started:.0f} s; analyse {1000 * spent / played:.0f} ms a match)")
        report("single matches", [seatings[0] for seatings in found], args.boot, args.first_seed)
        if lineup.seatings > 1:
            report(f"duplicates ({lineup.seatings} seatings)",
                   [(statistics.fmean(r for r, _ in seatings), statistics.fmean(a for _, a in seatings))
                    for seatings in found], args.boot, args.first_seed)


if __name__ == "__main__":
    main()
