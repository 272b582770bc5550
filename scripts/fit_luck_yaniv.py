"""Fit Yaniv's luck value model and freeze it in referee/luck/models/yaniv-<version>.json.

Plays in-process matches of the sample strategies (heuristic, heuristic with 20% random moves,
random) at 2 to 6 seats, replays each, and at every state the estimator values (after each deal
and each draw from the stock) records each seat still in: :func:`referee.luck.yaniv.features`
and what the seat went on to add to its total by the end of the match.  One ridge least-squares
fit per number of players still in; then, per table size, the scale of the fitted part that
best predicts the seats' results from their luck over the same matches (least squares of
result on luck: a value that swings more at chance events than the results do would otherwise
add variance).  Seeds 9_100_000 and up: tests and benchmarks use others.

    PYTHONPATH=. python scripts/fit_luck_yaniv.py --matches 300
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
from referee.luck import analyse
from referee.luck import yaniv as model
from referee.result import MatchRecord

SEED_BASE = 9_100_000
OUT = Path(__file__).resolve().parent.parent / "referee" / "luck" / "models" / model.MODEL_FILE
RIDGE = 1e-3


def lineup(k: int) -> list:
    """The k-th match's policies: 2 to 6 seats, a mix of the three sample strategies."""
    seats = (2, 4, 3, 2, 4, 5, 6)[k % 7]
    best = heuristic("yaniv")
    kinds = [best, noisy(best, 0.2, k), RANDOM]
    return [kinds[(k // 7 + seat * (1 + k % 3)) % 3] for seat in range(seats)]


def samples(record: MatchRecord) -> list[tuple[int, list[float], float]]:
    """(players still in, features, what the seat still adds) at each state the estimator values."""
    game = make_game("yaniv", num_players=record.num_players, settings=record.settings)
    state = game.new_initial_state(record.seed)
    final = record.scores
    found = []

    def take() -> None:
        if state.is_terminal():
            return
        order = model.turn_order(state)
        summaries = [model.hand_summary(h) for h in state.hands]
        for seat, inputs in model.features(state, summaries, order).items():
            found.append((len(order), inputs, final[seat] - state.totals[seat]))

    take()
    for move in record.moves:
        action = state.legal_actions()[move.index]
        rounds = state.round_number
        state.apply(action)
        if isinstance(action, model.DrawStock) or state.round_number != rounds:
            take()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    start = time.perf_counter()
    rows: dict[str, list[tuple[list[float], float]]] = defaultdict(list)
    finals = []
    records = []
    for k in range(args.matches):
        record = play("yaniv", SEED_BASE + k, lineup(k))
        records.append(record)
        finals.extend(record.scores)
        for active, inputs, target in samples(record):
            rows[model.model_group(active)].append((inputs, target))
    coefficients = {}
    for group, data in sorted(rows.items()):
        x = np.array([inputs for inputs, _ in data])
        y = np.array([target for _, target in data])
        scale = np.where(x.std(axis=0) > 1e-9, x.std(axis=0), 1.0)
        scale[0] = 1.0
        z = x / scale
        w = np.linalg.solve(z.T @ z + RIDGE * len(y) * np.eye(len(model.FEATURES)), z.T @ y) / scale
        r2 = 1 - np.mean((y - x @ w) ** 2) / np.var(y)
        coefficients[group] = [round(float(v), 6) for v in w]
        print(f"players in {group}: {len(y)} states, R^2 {r2:.3f}")
    data = {"game": "yaniv", "version": model.VERSION, "features": list(model.FEATURES),
            "coefficients": coefficients, "scale": {str(n): 1.0 for n in range(2, 6)},
            "mean_final": round(sum(finals) / len(finals), 3),
            "fitted_on": {"matches": args.matches, "seeds": f"{SEED_BASE}..{SEED_BASE + args.matches - 1}",
                          "script": "scripts/fit_luck_yaniv.py"}}
    products: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    estimator = model.YanivEstimator(data)
    for record in records:
        report = analyse(record, estimator)
        sums = products[str(min(record.num_players, 5))]
        for result, luck in zip(report.result, report.luck):
            sums[0] += result * luck
            sums[1] += luck * luck
    for table, (cross, square) in sorted(products.items()):
        data["scale"][table] = round(cross / square, 4)
        print(f"tables of {table}: scale {cross / square:.3f}")
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {OUT} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
