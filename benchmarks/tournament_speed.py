"""Tournament throughput: matches per minute with 1 and 2 workers, and where the time goes.

A round-robin of 6 sample bots in Yahtzee (three random, three heuristic, each under its own
name; one table of 6 with every seat rotation per round) is run for real: a fresh SQLite
file, worker processes, bot processes over gRPC.  It is run with a fresh bot process per
match and with bots kept alive per worker (``--keep-alive``), each with 1 and 2 workers.

Reported per run: matches per minute (wall clock, worker start-up included), the scaling
ratio 2 workers / 1 worker, and the time the workers spent starting bots (until they
serve), playing, and stopping bots (summed over workers).

    python benchmarks/tournament_speed.py --rounds 2 --keep-alive-rounds 10
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from arena.storage import Database
from arena.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots" / "python"


def write_bots(folder: Path) -> list[str]:
    """Six entrants: three random and three heuristic Yahtzee bots under distinct names."""
    bots = []
    for i in range(6):
        sample = "random_bot" if i % 2 == 0 else "yahtzee_heuristic"
        name = f"{'random' if i % 2 == 0 else 'heuristic'}-{i // 2}"
        path = folder / name
        path.mkdir(parents=True)
        (path / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\ncommand = ["{{python}}", '
                                       f'"{SAMPLES / sample / "bot.py"}"]\ngames = ["yahtzee"]\n', encoding="utf-8")
        bots.append(str(path))
    return bots


def measure(workers: int, keep_alive: bool, rounds: int, folder: Path) -> dict[str, float]:
    db_path = folder / f"speed-{workers}-{int(keep_alive)}.db"
    specs, _ = expand_bots(write_bots(folder / f"bots-{workers}-{int(keep_alive)}"), "yahtzee")
    with Database(db_path) as db:
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs), rounds=rounds, seed=4,
                                                   keep_alive=keep_alive))
        start = time.monotonic()
        summary = run_tournament(db, tid, workers=workers)
        wall = time.monotonic() - start
    assert summary.failed == 0, summary.errors
    busy = summary.startup_s + summary.play_s + summary.stop_s
    return {"workers": workers, "keep_alive": keep_alive, "matches": summary.played, "wall_s": wall,
            "per_minute": 60 * summary.played / wall, "startup_s": summary.startup_s, "play_s": summary.play_s,
            "stop_s": summary.stop_s, "startup_share": summary.startup_s / busy if busy else 0.0}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds with a fresh bot process per match (a round is 6 matches)")
    parser.add_argument("--keep-alive-rounds", type=int, default=10,
                        help="rounds with bots kept alive (more, so start-up is amortised as in a real tournament)")
    parser.add_argument("--modes", nargs="+", choices=["fresh", "keep-alive"], default=["fresh", "keep-alive"])
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory(prefix="arena-speed-") as folder:
        for keep_alive in [mode == "keep-alive" for mode in options.modes]:
            rounds = options.keep_alive_rounds if keep_alive else options.rounds
            for workers in (1, 2):
                row = measure(workers, keep_alive, rounds, Path(folder))
                rows.append(row)
                print(f"keep-alive {'on ' if keep_alive else 'off'}  {workers} worker(s): {row['matches']} matches "
                      f"in {row['wall_s']:.1f} s = {row['per_minute']:.1f}/min; worker time: starting bots "
                      f"{row['startup_s']:.1f} s ({row['startup_share']:.0%}), playing {row['play_s']:.1f} s, "
                      f"stopping {row['stop_s']:.1f} s", flush=True)
    for keep_alive in [mode == "keep-alive" for mode in options.modes]:
        one, two = (r for r in rows if r["keep_alive"] == keep_alive)
        print(f"scaling, keep-alive {'on' if keep_alive else 'off'}: 2 workers / 1 worker = "
              f"{two['per_minute'] / one['per_minute']:.2f}")
    if options.json:
        options.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
