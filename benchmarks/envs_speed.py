"""Random play in arena's PettingZoo environments, steps per second, beside PettingZoo 1.24's
``gin_rummy_v4`` (RLCard's Gin Rummy) in the same run (issue 37: goal >= 3x its rate).

Both run the usual PettingZoo loop: ``env.last()`` (the observation vector and the action
mask) at every step, a uniformly random legal action from the mask, ``env.step``; a finished
match is followed by ``reset`` with the next seed.  PettingZoo 1.24 and RLCard live in their
own interpreter (later PettingZoo versions dropped ``gin_rummy_v4``, and arena uses a later
one), given by ``--pz124`` (default /tmp/pz124/venv/bin/python; make it with
``python3 -m venv /tmp/pz124/venv && /tmp/pz124/venv/bin/pip install 'pettingzoo[classic]==1.24.3'``).

    python benchmarks/envs_speed.py [--steps 20000] [--seed 0] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from arena import envs
from referee.games import game_class

_LOOP = """
def play(table, steps, seed):
    import time
    import numpy as np
    rng = np.random.default_rng(seed)
    table.reset(seed=seed)
    done = 0
    matches = 1
    start = time.perf_counter()
    while done < steps:
        agent = table.agent_selection
        observation, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            table.step(None)
            if not table.agents:
                table.reset(seed=seed + matches)
                matches += 1
            continue
        legal = np.flatnonzero(observation["action_mask"])
        table.step(int(legal[rng.integers(len(legal))]))
        done += 1
    return done / (time.perf_counter() - start), matches
"""
exec(_LOOP)  # the one loop, run here and in PettingZoo 1.24's interpreter alike

_PZ124 = _LOOP + """
import json, sys
from pettingzoo.classic import gin_rummy_v4
steps, seed = int(sys.argv[1]), int(sys.argv[2])
rate, matches = play(gin_rummy_v4.env(), steps, seed)
print(json.dumps({"rate": rate, "matches": matches}))
"""

GAMES = [("gin_rummy", None), ("yahtzee", 2), ("yaniv", 4), ("jass", 4), ("yoninkan", 4)]


def pettingzoo_gin(python: Path, steps: int, seed: int) -> dict[str, float] | None:
    if not python.exists():
        return None
    done = subprocess.run([str(python), "-c", _PZ124, str(steps), str(seed)], capture_output=True, text=True,
                          timeout=600)
    if done.returncode != 0:
        print(f"PettingZoo 1.24 run failed: {done.stderr.strip().splitlines()[-1:]}")
        return None
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", type=int, default=20_000, help="random-play steps per game and repeat")
    parser.add_argument("--seed", type=int, default=0, help="first match seed (then +1 per match)")
    parser.add_argument("--repeats", type=int, default=3, help="runs per game, alternating with PettingZoo's")
    parser.add_argument("--pz124", type=Path, default=Path("/tmp/pz124/venv/bin/python"))
    args = parser.parse_args()
    print(f"random play, {args.steps} steps per run, {args.repeats} runs, seeds from {args.seed}")
    print(f"{'environment':34} {'steps/s (median)':>16} {'runs':>28} {'matches':>8}")
    ours: dict[str, float] = {}
    pz_rates: list[float] = []
    for name, players in GAMES:
        rates = []
        matches = 0
        for repeat in range(args.repeats):
            table = envs.env(name, num_players=players)
            rate, played = play(table, args.steps, args.seed + 1000 * repeat)  # noqa: F821 - defined by exec
            rates.append(rate)
            matches += played
            if name == "gin_rummy":  # PettingZoo's Gin Rummy right after ours, under the same load
                other = pettingzoo_gin(args.pz124, args.steps, args.seed + 1000 * repeat)
                if other is not None:
                    pz_rates.append(other["rate"])
        ours[name] = statistics.median(rates)
        label = f"arena {name} ({game_class(name).default_players if players is None else players} seats)"
        print(f"{label:34} {ours[name]:16,.0f} {' '.join(f'{r:,.0f}' for r in rates):>28} {matches:8}")
    if pz_rates:
        pz = statistics.median(pz_rates)
        print(f"{'pettingzoo 1.24 gin_rummy_v4':34} {pz:16,.0f} {' '.join(f'{r:,.0f}' for r in pz_rates):>28}")
        print(f"arena gin_rummy / gin_rummy_v4: {ours['gin_rummy'] / pz:.2f}x (goal >= 3x)")
    else:
        print(f"PettingZoo 1.24 is not installed at {args.pz124}: no comparison (see this file's docstring)")


if __name__ == "__main__":
    main()
