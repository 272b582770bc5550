"""Fit the Gin Rummy luck estimator's coefficients (referee/luck/gin_rummy.py) and write its model file.

Per variant, plays pairs of matches (each seed in both seatings) of several line-ups of the
sample strategies in process (benchmarks/inprocess.py) on seeds from ``--first-seed``
(default 1,000,000: tests and benchmarks use seeds below 100,000), then fits two stages on
the positions right after each chance event (the deals and the stock draws, where the
estimator reads its value):

1. *the hand*: the hand's margin (seat 0's points in the hand minus seat 1's, Oklahoma
   doubling taken out; Straight: +1/-1 for the hand's winner) on the hand features, least
   squares;
2. *the match*: the final margin minus the realised one on the match features (stage 1's
   margin and the race), ridge regression on standardised features.

Stage 2's ridge strength (and whether it keeps only the hand's margin, the per-hand form) is
chosen by 5-fold cross-validation over the pairs: each fold's held-out matches are adjusted
with the model fitted on the other folds, and the choice is the one with the best geometric
mean over line-ups of var(raw) / var(adjusted) on top of duplicate deals among those that
make no line-up's variance worse, single or duplicate.  The luck of a match is linear in
stage 2's weights (the sum over chance events of the features after the event minus their
expectation before it), so each candidate costs one matrix product.

Rerun with the same arguments for the same file.  A new fit is a new estimator version:
write it to a new ``gin_rummy-N.json`` and pin its digest in ``MODEL_DIGESTS``.

    PYTHONPATH=. python scripts/fit_luck_gin_rummy.py --variant standard --pairs 24 --out /tmp/standard.json
    PYTHONPATH=. python scripts/fit_luck_gin_rummy.py --merge /tmp/standard.json /tmp/oklahoma.json \\
        /tmp/straight.json --out referee/luck/models/gin_rummy-1.json
"""

from __future__ import annotations

import argparse
import json
import math
import pickle
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.inprocess import RANDOM, Policy, heuristic, noisy, play  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.games.gin_rummy import DrawStock, GinRummyState  # noqa: E402
from referee.luck import gin_rummy as luck  # noqa: E402
from referee.result import MatchRecord  # noqa: E402

VARIANTS = ("standard", "oklahoma", "straight")
RIDGES = (0.0, 0.01, 0.03, 0.1, 0.3, 1.0, 3.0, 10.0, 30.0)
FOLDS = 5


def lineups() -> list[tuple[str, Callable[[], list[Policy]]]]:
    """Bot A (seat 0 in the first match of a pair) against bot B: equal and unequal bots, so
    the value cannot lean on one pairing's habits."""
    h = lambda: heuristic("gin_rummy")  # noqa: E731
    return [("h-n10", lambda: [h(), noisy(h(), 0.1, 11)]), ("h-n30", lambda: [h(), noisy(h(), 0.3, 11)]),
            ("h-random", lambda: [h(), RANDOM]), ("n30-random", lambda: [noisy(h(), 0.3, 11), RANDOM]),
            ("h-h", lambda: [h(), h()])]


def hand_margins(state: GinRummyState, variant: str) -> dict[int, float]:
    out = {}
    for result in state.results:
        sign = 0 if result.winner is None else 1 if result.winner == 0 else -1
        out[result.hand_number] = float(sign) if variant == "straight" else sign * result.points / (
            2 if result.doubled else 1)
    return out


def events(record: MatchRecord, weights: dict[str, Any] | None) -> tuple[list[tuple[int, luck.Position]], list[Any],
                                                                          GinRummyState]:
    """Replay ``record``: every position right after a chance event (the first deal included)
    with its hand's number, and with ``weights`` each event's expected features (the first
    deal's are zero: ``initial`` gives both seats the same)."""
    game = make_game("gin_rummy", variant=record.variant)
    state = game.new_initial_state(record.seed)
    assert isinstance(state, GinRummyState)
    found = [(state.hand_number, luck.position(state))]
    expected: list[Any] = [None]
    for move in record.moves:
        action = state.legal_actions()[move.index]
        hand = state.hand_number
        draw = isinstance(action, DrawStock)
        before = luck.draw_features(weights, state) if draw and weights else None
        state.apply(action)
        if state.is_terminal() or not draw and state.hand_number == hand:
            continue
        found.append((state.hand_number, luck.position(state)))
        expected.append(before if draw else luck.deal_features(weights, state) if weights else None)
    return found, expected, state


def hand_rows(records: Sequence[MatchRecord]) -> tuple[np.ndarray, np.ndarray]:
    x, y = [], []
    for record in records:
        found, _, state = events(record, None)
        margins = hand_margins(state, record.variant)
        for hand, p in found:
            x.append(luck.hand_features(p))
            y.append(margins.get(hand, 0.0))
    return np.array(x), np.array(y)


def match_rows(records: Sequence[MatchRecord], weights: dict[str, Any]) -> tuple[list[np.ndarray], list[np.ndarray],
                                                                                   np.ndarray]:
    """Per match: the features after each event, the targets (final margin minus realised),
    and the match's luck features (sum over events of features after minus expected)."""
    xs, ys, lucks = [], [], []
    for record in records:
        found, expected, _ = events(record, weights)
        final = record.scores[0] - record.scores[1]
        x = np.array([luck.features(weights, p)[0] for _, p in found])
        e = np.array([np.zeros(x.shape[1]) if row is None else row for row in expected])
        xs.append(x)
        ys.append(np.array([final - luck.realised(p) for _, p in found], dtype=float))
        lucks.append((x - e).sum(axis=0))
    return xs, ys, np.array(lucks)


def ridge(x: np.ndarray, y: np.ndarray, strength: float) -> np.ndarray:
    """Ridge regression on standardised columns (``strength`` times the row count), no intercept
    (the features are antisymmetric in the seats)."""
    scale = x.std(axis=0)
    scale[scale == 0] = 1.0
    z = x / scale
    return np.linalg.solve(z.T @ z + (strength + 1e-9) * len(z) * np.eye(z.shape[1]), z.T @ y) / scale


def ratios(raw: np.ndarray, adjusted: np.ndarray, groups: np.ndarray) -> list[tuple[float, float]]:
    """Per line-up: var(raw) / var(adjusted) of bot A's result, single and duplicate (rows
    come in pairs: seat 0 then seat 1)."""
    out = []
    for g in np.unique(groups):
        r, a = raw[groups == g], adjusted[groups == g]
        out.append((float(r.var() / a.var()), float(((r[0::2] + r[1::2]) / 2).var() / ((a[0::2] + a[1::2]) / 2).var())))
    return out


def fit(variant: str, records: list[MatchRecord], names: list[str]) -> dict[str, Any]:
    x, y = hand_rows(records)
    w_hand = np.linalg.lstsq(x, y, rcond=None)[0]
    explained = 1 - np.var(y - x @ w_hand) / np.var(y)
    weights = {"hand": [float(w) for w in w_hand], "match": None}
    xs, ys, lucks = match_rows(records, weights)
    n = len(records)
    groups = np.array([i // (n // len(names)) for i in range(n)])
    seat_sign = np.array([1.0 if i % 2 == 0 else -1.0 for i in range(n)])
    raw = np.array([(r.scores[0] - r.scores[1]) / 2 for r in records]) * seat_sign
    folds = np.array([(i // 2) % FOLDS for i in range(n)])
    columns = {"full": list(range(len(luck.MATCH_FEATURES))), "hand only": [0]}
    within_x = [x - x.mean(axis=0) for x in xs]
    within_y = [y - y.mean() for y in ys]
    table = []
    for form, cols, within in [(f"{name}{' within' * within}", cols, within) for name, cols in columns.items()
                               for within in (False, True)]:
        fx, fy = (within_x, within_y) if within else (xs, ys)
        for strength in RIDGES:
            adjusted = np.empty(n)
            for f in range(FOLDS):
                train = [i for i in range(n) if folds[i] != f]
                w = ridge(np.vstack([fx[i][:, cols] for i in train]), np.concatenate([fy[i] for i in train]), strength)
                held = folds == f
                adjusted[held] = raw[held] - seat_sign[held] * (lucks[held][:, cols] @ w) / 2
            found = ratios(raw, adjusted, groups)
            table.append((form, strength, found))
    def score(row: tuple[str, float, list[tuple[float, float]]]) -> tuple[bool, float]:
        # a line-up of equal deterministic bots has a duplicate result of 0 in every pair (no ratio)
        found = [x for pair in row[2] for x in pair if not math.isnan(x)]
        duplicates = [d for _, d in row[2] if not math.isnan(d)]
        ok = min(found) >= 1.0
        return ok, math.exp(sum(math.log(d) for d in duplicates) / len(duplicates)) if ok else min(found)
    best = max(table, key=score)
    for form, strength, found in table:
        mark = "*" if (form, strength) == best[:2] else " "
        print(f"{mark} {variant} {form:16} ridge {strength:<5}: " + "  ".join(
            f"{name} {s:.2f}/{d:.2f}" for name, (s, d) in zip(names, found)))
    if not score(best)[0]:  # every candidate makes some line-up worse: no adjustment at all
        best = ("none", 0.0, [(1.0, 1.0)] * len(names))
        print(f"{variant}: no candidate keeps every line-up's variance: all match weights 0")
        return {"hand": [round(float(v), 6) for v in w_hand], "match": [0.0] * len(luck.MATCH_FEATURES),
                "chosen": {"form": "none", "ridge": None}, "cross_validated": None}
    cols = columns[best[0].removesuffix(" within")]
    fx, fy = (within_x, within_y) if best[0].endswith("within") else (xs, ys)
    w = ridge(np.vstack([fx[i][:, cols] for i in range(n)]), np.concatenate(fy), best[1])
    w_match = [0.0] * len(luck.MATCH_FEATURES)
    for c, value in zip(cols, w):
        w_match[c] = float(value)
    print(f"{variant}: {n} matches, hand-stage R^2 {explained:.3f}, chosen {best[0]} ridge {best[1]}, "
          f"match weights {[round(v, 3) for v in w_match]}")
    return {"hand": [round(float(v), 6) for v in w_hand], "match": [round(v, 6) for v in w_match],
            "chosen": {"form": best[0], "ridge": best[1]},
            "cross_validated": {name: {"single": round(s, 3), "duplicate": round(d, 3)}
                                for name, (s, d) in zip(names, best[2])}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=VARIANTS)
    parser.add_argument("--pairs", type=int, default=24, help="seeds per line-up, each played in both seatings")
    parser.add_argument("--first-seed", type=int, default=1_000_000)
    parser.add_argument("--cache", type=Path, help="a pickle of the played records: read if present, else written")
    parser.add_argument("--merge", nargs="+", type=Path, help="per-variant outputs to merge into the model file")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    started = time.monotonic()
    if args.merge:
        parts = [json.loads(path.read_text()) for path in args.merge]
        model = {"game": "gin_rummy", "version": luck.VERSION, "hand_features": list(luck.HAND_FEATURES),
                 "match_features": list(luck.MATCH_FEATURES), "fitted_on": parts[0]["fitted_on"],
                 "variants": {v: part["variants"][v] for v in VARIANTS for part in parts if v in part["variants"]}}
    else:
        v = VARIANTS.index(args.variant)
        names = [name for name, _ in lineups()]
        if args.cache and args.cache.exists():
            records = pickle.loads(args.cache.read_bytes())
        else:
            records = []
            for k, (_, policies) in enumerate(lineups()):
                bots = policies()
                for i in range(args.pairs):
                    seed = args.first_seed + 100_000 * v + 1_000 * k + i
                    records += [play("gin_rummy", seed, bots, variant=args.variant),
                                play("gin_rummy", seed, bots[::-1], variant=args.variant)]
            if args.cache:
                args.cache.write_bytes(pickle.dumps(records))
        print(f"{args.variant}: played {len(records)} matches in {time.monotonic() - started:.0f} s")
        model = {"fitted_on": {"script": "scripts/fit_luck_gin_rummy.py", "pairs_per_lineup": args.pairs,
                               "lineups": names, "first_seed": args.first_seed,
                               "seeds": "first_seed + 100000 * variant index + 1000 * line-up index + i, "
                                        "each in both seatings"},
                 "variants": {args.variant: fit(args.variant, records, names)}}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(model, indent=1) + "\n")
    print(f"wrote {args.out} in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
