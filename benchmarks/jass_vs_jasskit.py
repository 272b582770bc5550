"""Random one-hand Jass games per second: arena's engine beside jass-kit's.

Both run in one process, one after the other, in many short interleaved rounds, on the same
machine, each playing one hand with uniformly random legal actions: deal, choose a mode (or
push, then the partner chooses), 36 cards.  The rates printed are each engine's best round;
the ratio is the median of the per-round ratios (both engines measured back to back), which
holds up better than the best rounds when other processes share the CPU.

- **arena**: ``referee.games.jass`` with ``max_hands=1`` and a target no hand can reach, so
  a game is exactly one hand: validated ``apply``, weis, Stöck, events and all.
- **jass-kit** (PyPI ``jass-kit``, the HSLU Python engine, numpy): ``GameSim`` with
  ``RuleSchieber``: ``deal_random_hand``, ``init_from_cards``, a random trump action from
  ``get_valid_actions_from_state`` (push included), then per card a random choice among
  ``get_valid_cards_from_state``.  ``GameSim`` itself does not validate moves and has no weis.

jass-kit is never a project dependency: install it in a throwaway virtual environment
outside the repository, then point this script at it::

    python3 -m venv /tmp/jasskit-venv && /tmp/jasskit-venv/bin/pip install jass-kit
    .venv/bin/python benchmarks/jass_vs_jasskit.py [--venv /tmp/jasskit-venv] [--seconds 3] [--rounds 3]

The script re-runs itself with that environment's interpreter (arena's engine is pure Python
and is imported from this checkout); without jass-kit it times arena alone and says so.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VENV = Path(os.environ.get("JASSKIT_VENV", "/tmp/jasskit-venv"))
sys.path.insert(0, str(ROOT))

Runner = Callable[[int], int]
"""Plays one random hand from a seed and returns the number of decisions taken."""


def arena_runner() -> Runner:
    from referee.games.jass import JassGame

    game = JassGame(settings={"max_hands": 1, "target": 1_000_000})

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


def jasskit_runner() -> Runner:
    import numpy as np
    from jass.game.const import TRUMP_FULL_OFFSET
    from jass.game.game_sim import GameSim
    from jass.game.game_util import deal_random_hand
    from jass.game.rule_schieber import RuleSchieber

    rule = RuleSchieber()

    def play(seed: int) -> int:
        np.random.seed(seed % 2**32)  # deal_random_hand draws from numpy's global generator
        choose = random.Random(seed).randrange
        sim = GameSim(rule=rule)
        sim.init_from_cards(hands=deal_random_hand(), dealer=seed % 4)
        steps = 0
        while sim.state.trump == -1:
            trumps = np.flatnonzero(rule.get_valid_actions_from_state(sim.state))
            sim.action(int(trumps[choose(len(trumps))]))
            steps += 1
        assert all(a >= TRUMP_FULL_OFFSET for a in trumps)
        while not sim.is_done():
            cards = np.flatnonzero(rule.get_valid_cards_from_state(sim.state))
            sim.action_play_card(int(cards[choose(len(cards))]))
            steps += 1
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per engine per round")
    parser.add_argument("--rounds", type=int, default=10, help="interleaved rounds")
    parser.add_argument("--venv", type=Path, default=DEFAULT_VENV, help="virtual environment holding jass-kit")
    parser.add_argument("--no-reexec", action="store_true", help="stay on this interpreter")
    args = parser.parse_args()
    venv_python = args.venv / "bin" / "python"
    if not args.no_reexec and venv_python.exists() and Path(sys.prefix).resolve() != args.venv.resolve():
        os.execv(str(venv_python), [str(venv_python), __file__, *sys.argv[1:], "--no-reexec"])

    engines: dict[str, Runner] = {"arena": arena_runner()}
    try:
        engines["jass-kit"] = jasskit_runner()
    except ImportError as error:
        print(f"jass-kit: not installed here ({error}); see this script's docstring to create {args.venv}")

    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
          f"{args.rounds} rounds x {args.seconds:g} s per engine, one hand per game, random legal actions")
    best: dict[str, tuple[float, float]] = {}
    ratios = []
    for round_number in range(args.rounds):
        rates = {}
        for name, play in engines.items():
            rate, steps = measure(play, args.seconds, 1_000_000 * round_number)
            rates[name] = rate
            if name not in best or rate > best[name][0]:
                best[name] = (rate, steps)
        if "jass-kit" in rates:
            ratios.append(rates["arena"] / rates["jass-kit"])
    print()
    print(f"{'engine':<10} {'hands/s':>10} {'decisions/hand':>15} {'decisions/s':>12}")
    for name, (rate, steps) in best.items():
        print(f"{name:<10} {rate:>10.1f} {steps:>15.1f} {rate * steps:>12.0f}")
    if ratios:
        print(f"\narena / jass-kit: {statistics.median(ratios):.2f}x median of {len(ratios)} rounds "
              f"(range {min(ratios):.2f}-{max(ratios):.2f}); best rounds {best['arena'][0] / best['jass-kit'][0]:.2f}x")


if __name__ == "__main__":
    main()
