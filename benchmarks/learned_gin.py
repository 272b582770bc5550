"""docs/learning.md's worked example, whole, timed: from a league of heuristic Gin Rummy matches
to a learned bot on the ladder's terms (issue 37: goal <= 15 minutes of CPU, and the learned
bot beats the random bot in >= 90% of matches).

Runs the page's commands as a user would (``arena`` as ``python -m arena.cli``, the fit script
from the docs folder), each in a fresh process, and prints each step's wall and CPU time (the
CPU of every process it started, bots included: ``RUSAGE_CHILDREN``), then the learned bot's
wins against the random bot in real matches (``arena tournament``, duplicate deals, both
seat orders) with the sample size, the seeds and a 95% Wilson interval.

Bots run with ``--sandbox none`` by default: the referee stops a sandboxed bot by killing its
PID namespace, so no process waits for the bot's own processes and their CPU never reaches
``RUSAGE_CHILDREN`` (the total would leave the bots out).  ``--sandbox bwrap`` runs the
example as a server would (the wall times are then the figure; the bots' CPU is missing).

    python benchmarks/learned_gin.py [--rounds 100] [--epochs 30] [--eval-rounds 100]
                                     [--seed 1] [--sandbox none|bwrap|auto] [--keep DIR]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from arena.league.storage import Database  # noqa: E402
from arena.resources import docs_dir, sample_bots_dir  # noqa: E402
from benchmarks.inprocess import wilson  # noqa: E402


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def step(name: str, argv: list[str], times: list[tuple[str, float, float]]) -> str:
    """Run one command; keep its wall and CPU time; fail loudly with its output."""
    wall, used = time.perf_counter(), cpu()
    done = subprocess.run(argv, capture_output=True, text=True)
    times.append((name, time.perf_counter() - wall, cpu() - used))
    if done.returncode != 0:
        raise SystemExit(f"{name} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
    return done.stdout


def wins(db: Path, bot: str) -> tuple[int, int, int]:
    """(wins, ties, matches) of ``bot`` over the played matches of ``db``."""
    won = tied = played = 0
    with Database(db, readonly=True) as conn:
        names = {b.id: b.name for b in conn.bots()}
        for match in conn.matches(status="done", limit=1_000_000):
            seats = [names[b] for b in match.bot_ids]
            if bot not in seats or match.ranking is None:
                continue
            mine = match.ranking[seats.index(bot)]
            played += 1
            won += mine == 0 and list(match.ranking).count(0) == 1
            tied += mine == 0 and list(match.ranking).count(0) > 1
    return won, tied, played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100, help="rounds of heuristic vs random to learn from")
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--eval-rounds", type=int, default=100, help="rounds of learned vs random (2 matches each)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sandbox", choices=("none", "bwrap", "auto"), default="none",
                        help="how bots are confined (none: their CPU is counted)")
    parser.add_argument("--keep", type=Path, default=None, help="work in this folder and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="learned-gin-"))
    folder.mkdir(parents=True, exist_ok=True)
    arena = [sys.executable, "-m", "arena.cli"]
    samples = sample_bots_dir() / "python"
    league, data, kit, ladder = folder / "league.db", folder / "heuristic.jsonl", folder / "mybot", folder / "eval.db"
    times: list[tuple[str, float, float]] = []
    step("1. tournament (data)", [*arena, "tournament", "run", "--game", "gin_rummy", "--bot",
                                  str(samples / "gin_heuristic"), "--bot", str(samples / "random_bot"),
                                  "--rounds", str(args.rounds), "--seed", str(args.seed), "--keep-alive",
                                  "--sandbox", args.sandbox, "--quiet", "--db", str(league)], times)
    step("2. export", [*arena, "export", "--db", str(league), "--game", "gin_rummy", "--out", str(data)], times)
    step("3. new-bot", [*arena, "new-bot", str(kit), "--template", "learned"], times)
    fitted = step("4. fit", [sys.executable, str(docs_dir() / "examples" / "fit_gin_policy.py"), str(data),
                             "--bot", "gin-heuristic", "--out", str(kit / "model.npz"), "--epochs", str(args.epochs),
                             "--seed", str(args.seed)], times)
    step("5. check-bot", [*arena, "check-bot", str(kit), "--sandbox", args.sandbox], times)
    step("6. pack", [*arena, "pack", str(kit), "--output", str(folder / "mybot.tar.gz")], times)
    step("7. tournament (learned vs random)", [*arena, "tournament", "run", "--game", "gin_rummy", "--bot", str(kit),
                                               "--bot", str(samples / "random_bot"), "--rounds",
                                               str(args.eval_rounds), "--seed", str(args.seed + 1), "--keep-alive",
                                               "--sandbox", args.sandbox, "--quiet", "--db", str(ladder)], times)
    print(fitted.strip())
    print(f"{'step':<36} {'wall s':>8} {'CPU s':>8}")
    for name, wall, used in times:
        print(f"{name:<36} {wall:8.1f} {used:8.1f}")
    total_wall, total_cpu = sum(t[1] for t in times), sum(t[2] for t in times)
    print(f"{'total':<36} {total_wall:8.1f} {total_cpu:8.1f}   (goal: <= 900 s CPU; bots' sandbox: {args.sandbox})")
    won, tied, played = wins(ladder, kit.name)
    low, high = wilson(won, played)
    print(f"learned bot vs random: won {won} of {played} matches ({won / played:.1%}; 95% Wilson interval "
          f"{low:.1%} to {high:.1%}), {tied} tied; tournament seed {args.seed + 1}, duplicate deals, both seat "
          f"orders; data: {2 * args.rounds} matches, tournament seed {args.seed}; fit seed {args.seed}")
    print(f"files in {folder}")


if __name__ == "__main__":
    main()
