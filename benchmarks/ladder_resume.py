"""A paused, then resumed entrant of a live ladder: how soon it plays again, and its share of matches.

    .venv/bin/python benchmarks/ladder_resume.py [--runs 6] [--before 75] [--paused 10] [--after 75]

Issue 34's scenario, on the real ``arena ladder run``: a Yahtzee ladder at tables of 2 of
``yahtzee_heuristic``, a copy of it under another name and ``random_bot`` (unsandboxed, two
workers, bots kept alive).  After ``--before`` seconds of play, ``arena ladder pause random``;
``--paused`` seconds later ``arena ladder resume random``; ``--after`` seconds later the ladder
is stopped.  Per run it prints, from the stored matches (a match started at its
``finished_at - duration_s``):

* ``first``: seconds from the resume to the start of the random bot's first match;
* ``share``: the random bot's matches started after the resume over the mean of the three
  entrants' (1 = an even share; the fairness floor promises 0.5, docs/ladder.md).

The clock is the machine's: the figures depend on its load, so compare runs made together.
"""

from __future__ import annotations

import argparse
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.resources import random_bot_dir, renamed_copies, sample_bots_dir

BOTS = ("yahtzee-heuristic", "yahtzee-heuristic-2", "random")


def write_config(folder: Path) -> Path:
    bots = [*renamed_copies(sample_bots_dir() / "python" / "yahtzee_heuristic", folder, BOTS[:2]), random_bot_dir()]
    entries = ", ".join(f'"{bot}"' for bot in bots)
    config = folder / "ladder.toml"
    config.write_text('db = "ladder.db"\nworkers = 2\nstop_grace = 5\n[sandbox]\nmode = "none"\n'
                      '[[ladder]]\nname = "dice"\ngame = "yahtzee"\nseats = 2\nseed = 5\n'
                      f'bots = [{entries}]\n',
                      encoding="utf-8")
    return config


def arena(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "arena.cli", *args], check=True, capture_output=True, text=True)


def starts(db: Path, since: float) -> dict[str, list[float]]:
    """Per bot name, the start times of its matches that started after ``since``."""
    found: dict[str, list[float]] = {name: [] for name in BOTS}
    with sqlite3.connect(db) as conn:
        for name, _, started in conn.execute(
                "SELECT DISTINCT b.name, m.id, m.finished_at - m.duration_s FROM matches m JOIN match_seats s"
                " ON s.match_id = m.id JOIN bots b ON b.id = s.bot_id WHERE m.status = 'done'"
                " AND m.finished_at - m.duration_s >= ?", (since,)):
            found[name].append(started)
    return found


def one_run(before: float, paused: float, after: float) -> tuple[float, float, int]:
    """``(first, share, matches after the resume)`` of one run."""
    with tempfile.TemporaryDirectory(prefix="ladder-resume-") as tmp:
        folder = Path(tmp)
        config = write_config(folder)
        db = folder / "ladder.db"
        process = subprocess.Popen([sys.executable, "-m", "arena.cli", "ladder", "run", "--config", str(config)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            time.sleep(before)
            arena("ladder", "pause", "random", "--db", str(db))
            time.sleep(paused)
            arena("ladder", "resume", "random", "--db", str(db))
            resumed = time.time()
            time.sleep(after)
        finally:
            process.send_signal(signal.SIGINT)
            _, err = process.communicate(timeout=60)
        if process.returncode != 0:
            raise SystemExit(f"the ladder failed: {err[-2000:]}")
        found = starts(db, resumed)
    counts = {name: len(times) for name, times in found.items()}
    mean = statistics.mean(counts.values())
    first = min(found["random"], default=float("inf")) - resumed
    return first, counts["random"] / mean if mean else 0.0, sum(counts.values()) // 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--before", type=float, default=75.0, help="seconds of play before the pause")
    parser.add_argument("--paused", type=float, default=10.0, help="seconds paused")
    parser.add_argument("--after", type=float, default=75.0, help="seconds measured after the resume")
    args = parser.parse_args()
    firsts, shares = [], []
    for run in range(args.runs):
        first, share, played = one_run(args.before, args.paused, args.after)
        firsts.append(first)
        shares.append(share)
        print(f"run {run + 1}: first match {_seconds(first)} after the resume, share {share:.2f} of the mean rate"
              f" ({played} matches after the resume)", flush=True)
    print(f"first match: {_seconds(min(firsts))} .. {_seconds(max(firsts))} (median"
          f" {_seconds(statistics.median(firsts))}); share: {min(shares):.2f} .. {max(shares):.2f} (median"
          f" {statistics.median(shares):.2f})")


def _seconds(value: float) -> str:
    return "none" if value == float("inf") else f"{value:.1f} s"


if __name__ == "__main__":
    main()
