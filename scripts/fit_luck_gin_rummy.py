"""Fit the Gin Rummy luck estimator's coefficients (referee/luck/gin_rummy.py) and write its model file.

Plays matches of the sample strategies in process (benchmarks/inprocess.py) on seeds from
``--first-seed`` (default 1,000,000: the tests and benchmarks use seeds below 100,000), then,
per variant, fits two least-squares stages on every position of those matches:

1. the hand margin (seat 0's points in the hand minus seat 1's, Oklahoma doubling taken out;
   Straight: +1/-1 for the hand's winner) on the hand features;
2. the final margin minus the realised one on the match features, with stage 1's margin.

Rerun with the same arguments for the same file.  A new fit is a new estimator version:
write it to a new ``gin_rummy-N.json`` and pin its digest in ``MODEL_DIGESTS``.

    PYTHONPATH=. python scripts/fit_luck_gin_rummy.py --matches 30 --out referee/luck/models/gin_rummy-1.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.inprocess import heuristic, noisy, play  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.games.gin_rummy import GinRummyState  # noqa: E402
from referee.luck import gin_rummy as luck  # noqa: E402
from referee.result import MatchRecord  # noqa: E402

VARIANTS = ("standard", "oklahoma", "straight")
RIDGE = 0.01


def lineups() -> list[tuple[str, list]]:
    """Bots against themselves only: with unequal bots a seat's good hands would also say
    which bot holds them, and the fit would credit the deal with the better bot's skill."""
    h = heuristic("gin_rummy")
    return [("h-h", [h, h]), ("n10-n10", [noisy(h, 0.1, 1), noisy(h, 0.1, 2)]),
            ("n30-n30", [noisy(h, 0.3, 3), noisy(h, 0.3, 4)])]


def rows(record: MatchRecord) -> tuple[list[luck.Position], list[float], list[float]]:
    """Every position of a match with its hand's margin and the match's final margin."""
    game = make_game("gin_rummy", variant=record.variant)
    state = game.new_initial_state(record.seed)
    assert isinstance(state, GinRummyState)
    found: list[tuple[int, luck.Position]] = []
    for move in record.moves:
        found.append((state.hand_number, luck.position(state)))
        state.apply(state.legal_actions()[move.index])
    margins = {}
    for result in state.results:
        sign = 0 if result.winner is None else 1 if result.winner == 0 else -1
        if record.variant == "straight":
            margins[result.hand_number] = float(sign)
        else:
            margins[result.hand_number] = sign * result.points / (2 if result.doubled else 1)
    final = record.scores[0] - record.scores[1]
    return [p for _, p in found], [margins[h] for h, _ in found], [final] * len(found)


def ridge(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares with a small ridge (``RIDGE`` times the row count): collinear features
    share their weight instead of cancelling with large opposite coefficients."""
    return np.linalg.solve(x.T @ x + RIDGE * len(x) * np.eye(x.shape[1]), x.T @ y)


def fit(variant: str, records: list[MatchRecord]) -> dict[str, list[float]]:
    positions, hands, finals = [], [], []
    for record in records:
        p, h, f = rows(record)
        positions += p
        hands += h
        finals += f
    x = np.array([luck.hand_features(p) for p in positions])
    w_hand = ridge(x, np.array(hands))
    predicted = x @ w_hand * np.array([2.0 if p.doubled else 1.0 for p in positions])
    m = np.array([luck.match_features(p, float(h)) for p, h in zip(positions, predicted)])
    rest = np.array(finals) - np.array([luck.realised(p) for p in positions])
    w_match = ridge(m, rest)
    explained = 1 - np.var(rest - m @ w_match) / np.var(rest)
    print(f"{variant}: {len(records)} matches, {len(positions)} positions, match-stage R^2 {explained:.3f}")
    return {"hand": [round(float(w), 6) for w in w_hand], "match": [round(float(w), 6) for w in w_match]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=30, help="matches per line-up and variant")
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    started = time.monotonic()
    variants = {}
    for v, variant in enumerate(VARIANTS):
        records = []
        for k, (_, policies) in enumerate(lineups()):
            for i in range(args.matches):
                seed = args.first_seed + 100_000 * v + 1_000 * k + i
                records.append(play("gin_rummy", seed, policies, variant=variant))
        variants[variant] = fit(variant, records)
    model = {"game": "gin_rummy", "version": luck.VERSION, "hand_features": list(luck.HAND_FEATURES),
             "match_features": list(luck.MATCH_FEATURES),
             "fitted_on": {"script": "scripts/fit_luck_gin_rummy.py", "matches_per_lineup": args.matches,
                           "lineups": [name for name, _ in lineups()], "first_seed": args.first_seed,
                           "seeds": "first_seed + 100000 * variant index + 1000 * line-up index + i"},
             "variants": variants}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {args.out} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
