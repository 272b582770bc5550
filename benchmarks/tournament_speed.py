"""Tournament throughput: matches per minute, fresh bots against kept-alive ones, 1 and 2 workers.

Real tournaments: a fresh SQLite file, worker processes, bot processes over gRPC in the
default sandbox.  The bots are copies of the Python sample bots, each in its own folder
(:mod:`bench_bots`), and every run must be real: any failed match or any seat that forfeited
at start-up stops the benchmark (:meth:`~arena.runs.tournament.RunSummary.require_real`).

- ``--game yahtzee`` (default): 6 bots (three random, three heuristic) at one table of 6,
  every seat rotation per round (6 matches a round);
- ``--game gin_rummy``: 2 heuristic bots, 2-seat matches (2 matches a round, duplicate deals).

The four configurations (fresh / kept-alive x 1 / 2 workers) are run in turn, ``--repeats``
times, so that the load of a shared machine falls on all of them alike; each row shows the
load average when it ended.  Reported: matches per minute (wall clock, worker start-up
included), the workers' time starting bots (until they serve), playing and stopping bots,
and the medians of the ratios fresh / kept-alive and 2 workers / 1 worker.

    python benchmarks/tournament_speed.py --game yahtzee --rounds 2 --keep-alive-rounds 4 --repeats 2
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from arena.executors.local import LocalExecutor
from arena.league.storage import Database
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament

from bench_bots import write_bots  # noqa: E402 - benchmarks/ is on the path when run as a script

BOTS = {"yahtzee": (6, True), "gin_rummy": (2, False)}
"""Per game: entrants, and whether half of them are random bots."""


def measure(game: str, workers: int, keep_alive: bool, rounds: int, folder: Path,
            pin_cpus: bool = True) -> dict[str, float]:
    """One tournament; its figures.  Raises if any match failed or had a start-up forfeit."""
    run = folder / f"{game}-{workers}-{int(keep_alive)}-{time.monotonic_ns()}"
    count, random_share = BOTS[game]
    specs, _ = expand_bots(write_bots(run / "bots", game, count, random_share=random_share), game)
    with Database(run / "speed.db") as db:
        tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=rounds, seed=4,
                                                   keep_alive=keep_alive))
        start = time.monotonic()
        summary = run_tournament(db, tid, workers=workers,
                                 executor_factory=lambda n, keep: LocalExecutor(n, keep_alive=keep, pin_cpus=pin_cpus))
        wall = time.monotonic() - start
    summary.require_real()
    return {"game": game, "workers": workers, "keep_alive": keep_alive, "pin_cpus": pin_cpus, "matches": summary.played, "wall_s": wall,
            "per_minute": 60 * summary.played / wall, "startup_s": summary.startup_s, "play_s": summary.play_s,
            "stop_s": summary.stop_s, "startup_share": summary.startup_share, "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=sorted(BOTS), default="yahtzee")
    parser.add_argument("--rounds", type=int, default=2, help="rounds with a fresh bot process per match")
    parser.add_argument("--keep-alive-rounds", type=int, default=4,
                        help="rounds with bots kept alive (more, so start-up is amortised as in a real tournament)")
    parser.add_argument("--repeats", type=int, default=2, help="times each configuration runs, in turn")
    parser.add_argument("--modes", nargs="+", choices=["fresh", "keep-alive"], default=["fresh", "keep-alive"])
    parser.add_argument("--workers", nargs="+", type=int, default=[1, 2])
    parser.add_argument("--pin", choices=["on", "off", "both"], default="on",
                        help="pin each worker and its bots to one CPU (the default of arena), or not, or both in turn")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    options = parser.parse_args()
    pins = {"on": [True], "off": [False], "both": [True, False]}[options.pin]
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-speed-") as folder:
        for _ in range(options.repeats):
            for keep_alive, workers, pin in itertools.product([mode == "keep-alive" for mode in options.modes],
                                                              options.workers, pins):
                rounds = options.keep_alive_rounds if keep_alive else options.rounds
                row = measure(options.game, workers, keep_alive, rounds, Path(folder), pin)
                rows.append(row)
                print(f"{options.game} pinned {'yes' if pin else 'no '} keep-alive {'on ' if keep_alive else 'off'} "
                      f"{workers} worker(s): "
                      f"{row['matches']} matches in {row['wall_s']:.1f} s = {row['per_minute']:.1f}/min; "
                      f"worker time: starting bots {row['startup_s']:.1f} s ({row['startup_share']:.0%}), "
                      f"playing {row['play_s']:.1f} s, stopping {row['stop_s']:.1f} s; load {row['load']:.1f}",
                      flush=True)

    modes = [mode == "keep-alive" for mode in options.modes]
    ratios: dict[str, float] = {}
    for pin in pins:
        def rates(keep_alive: bool, workers: int) -> list[float]:
            return [r["per_minute"] for r in rows
                    if r["keep_alive"] == keep_alive and r["workers"] == workers and r["pin_cpus"] == pin]

        pinned = "pinned" if pin else "unpinned"
        if len(options.workers) == 2 and options.workers[0] != options.workers[1]:
            low, high = options.workers
            for keep_alive in modes:
                ratio = statistics.median(h / l for l, h in zip(rates(keep_alive, low), rates(keep_alive, high)))
                ratios[f"scaling_{'keep' if keep_alive else 'fresh'}_{pinned}"] = ratio
                print(f"{pinned}: scaling, keep-alive {'on' if keep_alive else 'off'}: {high} workers / {low} = "
                      f"{ratio:.2f} (median of {options.repeats} repeats)")
        if len(modes) == 2:
            for workers in options.workers:
                ratio = statistics.median(f / k for f, k in zip(rates(False, workers), rates(True, workers)))
                ratios[f"fresh_over_keep_{workers}_{pinned}"] = ratio
                print(f"{pinned}: fresh / kept-alive, {workers} worker(s): {ratio:.2f} "
                      f"(median of {options.repeats} repeats)")
    if options.json:
        options.json.write_text(json.dumps({"runs": rows, "ratios": ratios}, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
