"""A fair clock? What the referee charges a bot beyond the bot's own think time, quiet and loaded.

A bot that sleeps 5 ms per decision reports its own think time (from entering its Decide
handler to returning, measured by itself) in the answer's comment.  A real tournament (two
workers busy, bots kept alive, the default sandbox) plays at least ``--min-decisions``
decisions; for each, the record holds what the referee charged (``elapsed_ms``).  Charged
minus own is the referee's and the transport's share: it should be small and, above all,
not grow when the machine is loaded.

Run twice in one go: as the machine is, then with ``--hogs`` extra busy-looping processes
(this benchmark starts and stops them itself).  Prints median, p99 and max of charged minus
own, and the load average.

    python benchmarks/fair_clock.py --rounds 8 --hogs 2
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.executors.local import LocalExecutor
from arena.league.storage import Database
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament
from referee.match import TimeControl

SLEEPING_BOT = '''
import random, time
from arena.v1 import bot_pb2
from arena.sdk import run_bot

def decide(observation, legal_actions):
    begin = time.perf_counter()
    time.sleep(0.005)
    index = random.Random(observation.SerializeToString(deterministic=True)).randrange(len(legal_actions))
    own = (time.perf_counter() - begin) * 1000
    return bot_pb2.DecideResponse(action_index=index, comment=f"{own:.3f}")

if __name__ == "__main__":
    run_bot(decide, name="sleeper", version="1")
'''


def write_sleepers(folder: Path, count: int, game: str) -> list[str]:
    bots = []
    for i in range(count):
        path = folder / f"sleeper-{i}"
        path.mkdir(parents=True)
        path.chmod(0o755)
        (path / "bot.py").write_text(SLEEPING_BOT, encoding="utf-8")
        (path / "bot.toml").write_text(f'name = "sleeper-{i}"\nversion = "1"\ncommand = ["{{python}}", "bot.py"]\n'
                                       f'games = ["{game}"]\n', encoding="utf-8")
        bots.append(str(path))
    return bots


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(game: str, rounds: int, folder: Path, pin_cpus: bool = True) -> dict[str, float]:
    specs, _ = expand_bots(write_sleepers(folder / "bots", 4, game), game)
    extra: list[float] = []
    with Database(folder / "clock.db") as db:
        tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=rounds, table_size=2, seed=9,
                                                   keep_alive=True, time_control=TimeControl(move_timeout=1.0)))
        begin = time.monotonic()
        summary = run_tournament(db, tid, workers=2,
                                 executor_factory=lambda n, keep: LocalExecutor(n, keep_alive=keep, pin_cpus=pin_cpus))
        wall = time.monotonic() - begin
        summary.require_real()
        for match in db.matches(tournament_id=tid):
            record = db.match_record(match.id)
            assert record is not None
            for move in record.moves:
                if move.comment:
                    extra.append(move.elapsed_ms - float(move.comment))
    return {"decisions": len(extra), "median": statistics.median(extra), "p99": percentile(extra, 0.99),
            "max": max(extra), "min": min(extra), "wall_s": wall, "load": os.getloadavg()[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="yahtzee")
    parser.add_argument("--rounds", type=int, default=8, help="rounds of the 4-bot, 2-seat tournament")
    parser.add_argument("--hogs", type=int, default=2, help="busy-looping processes for the loaded run")
    parser.add_argument("--min-decisions", type=int, default=5000)
    parser.add_argument("--pin", choices=["on", "off", "both"], default="both",
                        help="pin each worker and its bots to one CPU (arena's default), or not, or both in turn")
    options = parser.parse_args()
    pins = {"on": [True], "off": [False], "both": [True, False]}[options.pin]
    for (label, hogs), pin in itertools.product((("as is", 0), (f"+{options.hogs} busy processes", options.hogs)),
                                                pins):
        started = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
        try:
            with tempfile.TemporaryDirectory(prefix="arena-clock-") as tmp:
                row = measure(options.game, options.rounds, Path(tmp), pin)
        finally:
            for hog in started:
                hog.kill()
                hog.wait()
        print(f"{label:20s} {'pinned  ' if pin else 'unpinned'} {row['decisions']} decisions in {row['wall_s']:.0f} s; charged minus own think time: "
              f"median {row['median']:.2f} ms, p99 {row['p99']:.2f} ms, max {row['max']:.1f} ms "
              f"(min {row['min']:.2f}); load {row['load']:.1f}", flush=True)
        if row["decisions"] < options.min_decisions:
            raise SystemExit(f"only {row['decisions']} decisions; raise --rounds")


if __name__ == "__main__":
    main()
