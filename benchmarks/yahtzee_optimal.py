"""The optimal Yahtzee/Yams bot: table figures, simulated means, decision times.

    .venv/bin/python benchmarks/yahtzee_optimal.py [--games 100000] [--engine-games 1000] [--build]

The tables come from the bot's build step, run by arena in the sandbox as before a match
(:func:`referee.build.ensure_built`: once per content hash of the bot's folder).
For each variant it prints the table's size and load time, the DP's expected score at the
start, and (``--build``) a fresh in-process solve's wall time; then the mean final score of
``--games`` solitaire games played in process by the table's policy (numpy, all games of a
batch in step) with its standard error and its distance to the DP's expectation in
standard errors; then ``--engine-games`` games through the real engine, the bot's
``decide`` reading the protobuf observation as it does over gRPC, with the mean score and
the decision time's median and p99.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "sample_bots" / "python" / "yahtzee_optimal"))

from referee.bots import BotSpec  # noqa: E402
from referee.build import ensure_built  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.wire import actions_to_proto, observation_to_proto  # noqa: E402
from strategy import Strategy, table_path  # noqa: E402
from yahtzee_rules import rules  # noqa: E402

from arena.yahtzee_dp import Table, simulate, solve  # noqa: E402


def engine_games(strategy: Strategy, variant: str, games: int, seed: int) \
        -> tuple[list[int], list[float], list[float]]:
    """Final scores of solitaire engine games, and every decision's wall and CPU time in ms
    (on a loaded machine the wall time's tail is mostly waiting for a core)."""
    scores, times, cpu = [], [], []
    for number in range(games):
        state = make_game("yahtzee", variant=variant, num_players=1).new_initial_state(seed + number)
        while not state.is_terminal():
            legal = state.legal_actions()
            observation = observation_to_proto("yahtzee", state.observe(0))
            messages = actions_to_proto("yahtzee", legal)
            started, started_cpu = time.perf_counter(), time.thread_time()
            index = strategy.decide(observation, messages)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - started_cpu) * 1000)
            state.apply(legal[index])
        scores.append(state.totals()[0])
    return scores, times, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--engine-games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--build", action="store_true", help="also time a fresh build of each table")
    args = parser.parse_args()
    outputs = ensure_built(BotSpec.from_manifest(ROOT / "sample_bots" / "python" / "yahtzee_optimal"))
    os.environ["ARENA_BUILD"] = str(outputs)
    started = time.perf_counter()
    strategy = Strategy.from_build()
    print(f"both tables loaded by the bot in {time.perf_counter() - started:.2f} s")
    for variant in ("yahtzee", "yams"):
        path = table_path(variant, outputs)
        started = time.perf_counter()
        table = Table.load(path)
        load_s = time.perf_counter() - started
        print(f"\n== {variant}: {path.stat().st_size / 1e6:.1f} MB, loaded in {load_s:.3f} s, "
              f"{np.count_nonzero(table.values):,} solved states")
        print(f"DP expected score at the start: {table.expected_score:.4f}")
        if args.build:
            started = time.perf_counter()
            solve(rules(variant))
            print(f"fresh solve: {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        totals = simulate(table, args.games, args.seed).totals(table.rules)
        mean, error = totals.mean(), totals.std(ddof=1) / np.sqrt(len(totals))
        print(f"{args.games:,} simulated games ({time.perf_counter() - started:.0f} s): mean {mean:.4f}, "
              f"standard error {error:.4f}, sd {totals.std(ddof=1):.2f}; "
              f"(mean - DP) / SE = {(mean - table.expected_score) / error:+.2f}")
        if args.engine_games:
            scores, times, cpu = engine_games(strategy, variant, args.engine_games, args.seed)
            engine_error = statistics.stdev(scores) / len(scores) ** 0.5
            ordered, ordered_cpu = sorted(times), sorted(cpu)
            print(f"{args.engine_games:,} engine games: mean {statistics.fmean(scores):.2f}, standard error "
                  f"{engine_error:.2f}, (mean - DP) / SE = {(statistics.fmean(scores) - table.expected_score) / engine_error:+.2f}; "
                  f"{len(times):,} decisions: median {statistics.median(times):.2f} ms, "
                  f"p99 {ordered[int(0.99 * len(ordered))]:.2f} ms; CPU time median "
                  f"{statistics.median(cpu):.2f} ms, p99 {ordered_cpu[int(0.99 * len(ordered_cpu))]:.2f} ms")


if __name__ == "__main__":
    main()
