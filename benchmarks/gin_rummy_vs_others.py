"""Random Gin Rummy games per second: arena's engine beside RLCard's and OpenSpiel's.

All three run in one process, one after the other, in interleaved rounds (the best round of
each counts), on the same machine, each playing uniformly random legal actions:

- **arena**: ``referee.games.gin_rummy`` with ``max_hands=1``, so a game is one hand as in
  the two others (validated ``apply``, events and all); whole matches to 100 are also timed.
- **RLCard** (``rlcard``, pure Python): ``rlcard.games.gin_rummy.game.GinRummyGame``
  driven through its game API (``init_game``, ``judge.get_legal_actions``, ``step``), the
  cheapest way in; no feature encoding of the RL environment.
- **OpenSpiel** (``open_spiel``, C++ engine): ``pyspiel.load_game("gin_rummy")`` driven from
  Python, chance nodes (the deal, each stock draw) sampled uniformly from
  ``chance_outcomes()``.

RLCard and OpenSpiel are never project dependencies: they live in the benchmark's own
virtual environment, ``benchmarks/.venv-gin`` (not committed).  Create it with::

    .venv/bin/python benchmarks/gin_rummy_vs_others.py --setup

(which runs ``python -m venv benchmarks/.venv-gin``, writes a ``.gitignore`` of ``*`` inside it so git
never sees it, and runs ``pip install rlcard open_spiel``), then::

    .venv/bin/python benchmarks/gin_rummy_vs_others.py [--seconds 3] [--rounds 3]

The script re-runs itself with that environment's interpreter when it exists; a library
that cannot be imported is reported as such and left out of the ratios.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "benchmarks" / ".venv-gin"
VENV_PYTHON = VENV / "bin" / "python"
sys.path.insert(0, str(ROOT))

Runner = Callable[[int], int]
"""Plays one random game from a seed and returns the number of decisions taken."""


def arena_runner(*, whole_match: bool = False) -> Runner:
    from referee.games.gin_rummy import GinRummyGame

    game = GinRummyGame() if whole_match else GinRummyGame(settings={"max_hands": 1})

    def play(seed: int) -> int:
        state = game.new_initial_state(seed)
        choose = random.Random(seed).randrange
        steps = 0
        while not state.is_terminal():
            actions = state.legal_actions()
            state.apply(actions[choose(len(actions))])
            steps += 1
        state.outcome()
        return steps

    return play


def rlcard_runner() -> Runner:
    import numpy as np
    from rlcard.games.gin_rummy.game import GinRummyGame as RLCardGame

    game = RLCardGame()

    def play(seed: int) -> int:
        game.np_random = np.random.RandomState(seed)
        choose = random.Random(seed).randrange
        game.init_game()
        steps = 0
        while not game.is_over():
            actions = game.judge.get_legal_actions()
            game.step(actions[choose(len(actions))])
            steps += 1
        return steps

    return play


def openspiel_runner() -> Runner:
    import pyspiel

    game = pyspiel.load_game("gin_rummy")

    def play(seed: int) -> int:
        choose = random.Random(seed).randrange
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[choose(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[choose(len(actions))])
                steps += 1
        state.returns()
        return steps

    return play


def measure(play: Runner, seconds: float, first_seed: int) -> tuple[float, float]:
    """Games per second and decisions per game over about ``seconds``."""
    games = steps = 0
    start = time.perf_counter()
    while True:
        steps += play(first_seed + games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed, steps / games


def setup() -> None:
    if not VENV_PYTHON.exists():
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    # Keep the environment out of git without touching the project's .gitignore.
    (VENV / ".gitignore").write_text("# created by benchmarks/gin_rummy_vs_others.py --setup\n*\n")
    subprocess.run([str(VENV_PYTHON), "-m", "pip", "install", "--quiet", "rlcard", "open_spiel"], check=True)
    print(f"installed rlcard and open_spiel in {VENV}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per engine per round")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds; the best counts")
    parser.add_argument("--setup", action="store_true", help=f"create {VENV.relative_to(ROOT)} and install")
    parser.add_argument("--no-reexec", action="store_true", help="stay on this interpreter")
    args = parser.parse_args()
    if args.setup:
        setup()
        return
    if not args.no_reexec and VENV_PYTHON.exists() and Path(sys.prefix).resolve() != VENV.resolve():
        os.execv(str(VENV_PYTHON), [str(VENV_PYTHON), __file__, *sys.argv[1:], "--no-reexec"])

    engines: dict[str, Runner] = {
        "arena (one hand)": arena_runner(),
        "arena (match to 100)": arena_runner(whole_match=True),
    }
    missing: dict[str, str] = {}
    for name, factory in (("RLCard", rlcard_runner), ("OpenSpiel", openspiel_runner)):
        try:
            engines[name] = factory()
        except ImportError as error:
            missing[name] = (f"not installed here ({error}); run `.venv/bin/python {Path(__file__).relative_to(ROOT)} "
                             f"--setup` to create {VENV.relative_to(ROOT)}")

    import platform
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.rounds} rounds x {args.seconds:g} s per engine, random legal actions")
    for name, reason in missing.items():
        print(f"{name}: {reason}")
    best: dict[str, tuple[float, float]] = {}
    for round_number in range(args.rounds):
        for name, play in engines.items():
            rate, steps = measure(play, args.seconds, 1_000_000 * round_number)
            if name not in best or rate > best[name][0]:
                best[name] = (rate, steps)
    print()
    print(f"{'engine':<22} {'games/s':>10} {'decisions/game':>15}")
    for name, (rate, steps) in best.items():
        print(f"{name:<22} {rate:>10.1f} {steps:>15.1f}")
    ours = best["arena (one hand)"][0]
    print()
    for name in ("RLCard", "OpenSpiel"):
        if name in best:
            print(f"arena / {name}: {ours / best[name][0]:.2f}x (one hand per game in both)")
        else:
            print(f"arena / {name}: not measured ({name} is not installed)")


if __name__ == "__main__":
    main()
