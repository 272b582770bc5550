"""Fit Yoninkan's luck value model and freeze it in referee/luck/models/yoninkan-<version>.json.

Plays in-process matches of the sample strategies (heuristic, heuristic with 20% random moves,
random) four to a table, replays each, and after every deal records
:func:`referee.luck.yoninkan.features` and the points the game then gave each kan player.  One
ridge least-squares fit per battle (1, 2, 3).  Seeds 9_200_000 and up: tests and benchmarks use
others.

    PYTHONPATH=. python scripts/fit_luck_yoninkan.py --matches 300
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from benchmarks.inprocess import RANDOM, heuristic, noisy, play
from referee.games import make_game
from referee.luck import yoninkan as model
from referee.result import MatchRecord

SEED_BASE = 9_200_000
OUT = Path(__file__).resolve().parent.parent / "referee" / "luck" / "models" / model.MODEL_FILE
RIDGE = 1e-3


def lineup(k: int) -> list:
    """The k-th match's four policies, a mix of the three sample strategies."""
    best = heuristic("yoninkan")
    kinds = [best, noisy(best, 0.2, k), RANDOM]
    return [kinds[(k + seat * (1 + k % 2)) % 3 if k % 4 else seat % 2] for seat in range(4)]


def samples(record: MatchRecord) -> list[tuple[int, list[float], float]]:
    """(battle, features, the game's points per kan player) after each deal of the match."""
    game = make_game("yoninkan", settings=record.settings)
    state = game.new_initial_state(record.seed)
    found: list[tuple[int, list[float], float]] = []
    pending: list[tuple[int, list[float], int]] = []
    dealt = 0
    for move in [None, *record.moves]:
        if move is not None:
            state.apply(state.legal_actions()[move.index])
        while pending and len(state.history) >= pending[0][2]:
            battle, inputs, number = pending.pop(0)
            found.append((battle, inputs, state.history[number - 1].points))
        if state._dealt != dealt and not state.is_terminal():
            dealt = state._dealt
            pending.append((state.battle, model.features(state, state.hands), state.game_number))
    while pending:
        battle, inputs, number = pending.pop(0)
        found.append((battle, inputs, state.history[number - 1].points))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    start = time.perf_counter()
    rows: dict[int, list[tuple[list[float], float]]] = defaultdict(list)
    for k in range(args.matches):
        for battle, inputs, points in samples(play("yoninkan", SEED_BASE + k, lineup(k))):
            rows[battle].append((inputs, points))
    coefficients = {}
    for battle, data in sorted(rows.items()):
        x = np.array([inputs for inputs, _ in data])
        y = np.array([target for _, target in data])
        scale = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
        scale[0] = 1.0
        z = x / scale
        w = np.linalg.solve(z.T @ z + RIDGE * len(y) * np.eye(len(model.FEATURES)), z.T @ y) / scale
        r2 = 1 - np.mean((y - x @ w) ** 2) / np.var(y)
        coefficients[str(battle)] = [round(float(v), 6) for v in w]
        print(f"battle {battle}: {len(y)} deals, R^2 {r2:.3f}")
    data = {"game": "yoninkan", "version": model.VERSION, "features": list(model.FEATURES),
            "coefficients": coefficients,
            "fitted_on": {"matches": args.matches, "seeds": f"{SEED_BASE}..{SEED_BASE + args.matches - 1}",
                          "script": "scripts/fit_luck_yoninkan.py"}}
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
