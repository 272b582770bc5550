"""How much do duplicate deals narrow the ratings' uncertainty, for the same number of matches?

Plays many short two-bot tournaments, each with and without duplicate deals, and compares
how much the final TrueSkill ratings scatter from one tournament to the next.  The bots are
the sample heuristic (A) and the same heuristic that plays a random legal move a fraction
``epsilon`` of the time (B): close enough in strength that luck matters.

The matches run in-process (the engines and the sample bots' ``decide`` functions, with
observations built through :mod:`referee.wire` exactly as the referee builds them), without
gRPC or bot processes: the question is about the games' luck, not the transport, and this
makes thousands of matches affordable.  Schedules come from :mod:`arena.scheduling.round_robin` and
ratings from :mod:`arena.league.ratings`, as in a real tournament.

    python benchmarks/duplicate_deals.py --tournaments 60 --matches 20
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from inprocess import heuristic, noisy, play  # noqa: E402 - benchmarks/ is on the path when run as a script

GAMES = ("gin_rummy", "yahtzee")
"""The two-seat games measured (a heuristic sample bot each)."""


def tournament(args: tuple[str, bool, int, int, float]) -> dict[str, float]:
    """One two-bot tournament of ``matches`` matches; A's rating edge and win rate at the end."""
    from arena.league.ratings import apply_match, environment
    from arena.scheduling.round_robin import two_seat

    game, duplicate, seed, matches, epsilon = args
    decide = heuristic(game)
    policies = {"A": decide, "B": noisy(decide, epsilon)}
    rounds = matches // 2
    pairings = two_seat(["A", "B"], rounds=rounds, duplicate=duplicate, seed=seed)
    env = environment()
    ratings: dict[Any, Any] = {}
    score = 0.0
    for pairing in pairings:
        ranking = tuple(play(game, pairing.seed, [policies[bot] for bot in pairing.seats]).ranking)
        apply_match(env, ratings, list(pairing.seats), ranking, None)
        a = pairing.seats.index("A")
        score += 1.0 if ranking[a] < ranking[1 - a] else 0.5 if ranking[a] == ranking[1 - a] else 0.0
    return {"edge": ratings["A"].mu - ratings["B"].mu, "sigma": ratings["A"].sigma,
            "win_rate": score / len(pairings)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=GAMES)
    parser.add_argument("--tournaments", type=int, default=60, help="tournaments per game and mode")
    parser.add_argument("--matches", type=int, default=20, help="matches per tournament (even)")
    parser.add_argument("--epsilon", type=float, default=0.2, help="B's share of random moves")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    options = parser.parse_args()
    report = {}
    with ProcessPoolExecutor(options.workers) as pool:
        for game in options.games:
            start = time.monotonic()
            row = {}
            for duplicate in (False, True):
                jobs = [(game, duplicate, 1000 + t, options.matches, options.epsilon)
                        for t in range(options.tournaments)]
                results = list(pool.map(tournament, jobs))
                edges = [r["edge"] for r in results]
                rates = [r["win_rate"] for r in results]
                row["duplicate" if duplicate else "independent"] = {
                    "edge_mean": statistics.mean(edges), "edge_sd": statistics.stdev(edges),
                    "win_rate_mean": statistics.mean(rates), "win_rate_sd": statistics.stdev(rates),
                    "a_first": sum(e > 0 for e in edges) / len(edges),
                    "sigma_mean": statistics.mean(r["sigma"] for r in results)}
            ratio = row["duplicate"]["edge_sd"] / row["independent"]["edge_sd"]
            row["sd_ratio"] = ratio
            row["equivalent_matches"] = 1 / ratio**2 if ratio else float("inf")
            row["seconds"] = time.monotonic() - start
            report[game] = row
            print(f"{game}: {options.tournaments} tournaments x {options.matches} matches per mode "
                  f"({row['seconds']:.0f} s)")
            for mode in ("independent", "duplicate"):
                m = row[mode]
                print(f"  {mode:11s}  A-B mu edge {m['edge_mean']:6.2f} +- {m['edge_sd']:5.2f} (sd across "
                      f"tournaments)  A win rate {m['win_rate_mean']:.3f} +- {m['win_rate_sd']:.3f}  "
                      f"A rated first {m['a_first']:.0%}  TrueSkill sigma {m['sigma_mean']:.2f}")
            print(f"  duplicate/independent sd of the edge: {ratio:.2f} "
                  f"(as informative as {row['equivalent_matches']:.1f}x as many independent matches)")
    if options.json:
        options.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
