"""Fit the Jass luck estimator's frozen model (referee/luck/models/jass-<version>.json).

Plays in-process matches of the sample strategies (benchmarks/inprocess.py: the heuristic,
noisy heuristics and random, in several team line-ups) on seeds from ``FIT_SEED`` up, far from
the seeds the tests and benchmarks use (0 to 100 000), and fits, by least squares (numpy):

1. per kind of mode (trump suit, Obenabe, Undenufe), the hand's card-point margin (forehand's
   team minus the other, last trick and match included, before the multiplier) from the
   forehand's team's :data:`referee.luck.jass_features.FEATURES` in the mode played;
2. the deal's value: the hand's whole margin (multiplier, weis and Stöck included) from the
   best and the mean of the six modes' predicted margins, known before anyone chooses;
3. the deal's expected value for the forehand's team over uniformly random deals, from
   ``--deals`` fresh shuffles (the frozen per-role constant of docs/luck.md, "Swiss Jass").

Rerunnable: the same arguments write the same file.  A new fit is a new version: bump
``VERSION`` in referee/luck/jass.py and ``MODEL_DIGEST`` with it.

    PYTHONPATH=. python scripts/fit_luck_jass.py --matches 40 --deals 200000
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.inprocess import RANDOM, heuristic, noisy, play  # noqa: E402
from referee.games import jass_cards as jc  # noqa: E402
from referee.games import make_game  # noqa: E402
from referee.luck import jass_features as jf  # noqa: E402

FIT_SEED = 10_000_000
"""First match seed of the fit (the deal constant's shuffles use ``FIT_SEED - 1``)."""
KINDS = ("trump", "obenabe", "undenufe")


def kind_of(mode: int) -> int:
    return 0 if jc.TRUMP_SUIT[mode] >= 0 else (1 if mode == jc.OBENABE else 2)


def lineups() -> dict[str, tuple[Any, Any]]:
    """Team line-ups (team 0+2, team 1+3) the fit plays, each in both seatings."""
    h = heuristic("jass")
    return {"heuristic-heuristic": (h, h), "heuristic-noisy0.1": (h, noisy(h, 0.1, 1)),
            "noisy0.1-heuristic": (noisy(h, 0.1, 2), h), "heuristic-random": (h, RANDOM),
            "random-heuristic": (RANDOM, h), "noisy0.3-noisy0.3": (noisy(h, 0.3, 3), noisy(h, 0.3, 4)),
            "random-random": (RANDOM, RANDOM), "noisy0.1-random": (noisy(h, 0.1, 5), RANDOM)}


def hands_of(seed: int, moves: list[Any]) -> list[dict[str, Any]]:
    """Replay a match and return each completed hand: deal, forehand, mode and margins."""
    state = make_game("jass").new_initial_state(seed)
    rows: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for move in moves:
        if state.hand_number != current.get("hand"):
            current = {"hand": state.hand_number, "hands": list(state.hands), "forehand": state.forehand}
        state.apply(state.legal_actions()[move.index])
        if state.mode >= 0:
            current["mode"] = state.mode
        if len(state.results) > len(rows):
            result = state.results[-1]
            team = current["forehand"] % 2
            sign = 1 if team == 0 else -1
            cards = result.card_points[0] - result.card_points[1] + 100 * ((result.match == 0) - (result.match == 1))
            current.update(card_margin=sign * cards, bonus=sign * (result.bonus[0] - result.bonus[1]),
                           margin=sign * (result.total[0] - result.total[1]), total=sum(result.total))
            rows.append(current)
    return rows


def collect(matches: int) -> list[dict[str, Any]]:
    rows = []
    seed = FIT_SEED
    for name, (a, b) in lineups().items():
        for _ in range(matches):
            record = play("jass", seed, [a, b, a, b])
            for row in hands_of(seed, record.moves):
                row["lineup"] = name
                rows.append(row)
            seed += 1
    return rows


def mode_predictions(model: dict[str, Any], hands: list[int], forehand: int) -> list[float]:
    """Predicted whole margins of the six modes (the estimator's own formula)."""
    return jf.predicted_margins(model, hands, forehand)


def fit(rows: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    for row in rows:  # the exact part, checked against the engine's own scoring
        exact = jf.bonus_margins(row["hands"], row["forehand"])[row["mode"]]
        assert exact == row["bonus"], (row, exact)
    model: dict[str, Any] = {"game": "jass", "features": list(jf.FEATURES), "kinds": {}}
    for kind, name in enumerate(KINDS):
        chosen = [row for row in rows if kind_of(row["mode"]) == kind]
        x = np.array([[1.0, *jf.team_features(r["hands"], r["forehand"] % 2, r["mode"])] for r in chosen])
        y = np.array([float(r["card_margin"]) for r in chosen])
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        residual = y - x @ coef
        model["kinds"][name] = {"intercept": round(float(coef[0]), 6),
                                "weights": [round(float(c), 6) for c in coef[1:]], "hands": len(chosen), "r2": round(1 - float(residual.var() / y.var()), 4)}
    x = np.array([_deal_inputs(model, r["hands"], r["forehand"]) for r in rows])
    y = np.array([float(r["margin"]) for r in rows])
    coef, *_ = np.linalg.lstsq(x, y, rcond=None)
    residual = y - x @ coef
    model["deal"] = {"inputs": ["1", "best", "mean"], "weights": [round(float(c), 6) for c in coef],
                     "hands": len(rows), "r2": round(1 - float(residual.var() / y.var()), 4)}
    model["hand_total"] = round(statistics.fmean(r["total"] for r in rows), 3)
    model["expected_deal"] = _expected_deal(model, deals)
    return model


def _deal_inputs(model: dict[str, Any], hands: list[int], forehand: int) -> list[float]:
    predicted = mode_predictions(model, hands, forehand)
    return [1.0, max(predicted), sum(predicted) / len(predicted)]


def _expected_deal(model: dict[str, Any], deals: int) -> dict[str, float]:
    """The deal value's mean over uniformly random deals, forehand seat 0 (every seat is the
    same by symmetry), with its standard error."""
    rng = random.Random(FIT_SEED - 1)
    deck = list(range(jc.NUM_CARDS))
    values = []
    for _ in range(deals):
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        for i, card in enumerate(deck):
            hands[i // 9] |= 1 << card
        values.append(jf.deal_margin(model, hands, 0))
    return {"mean": round(statistics.fmean(values), 4), "stderr": round(statistics.stdev(values) / deals ** 0.5, 4),
            "deals": deals, "seed": FIT_SEED - 1}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per line-up")
    parser.add_argument("--deals", type=int, default=200_000, help="random deals for the per-role constant")
    parser.add_argument("--version", type=int, default=1)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    started = time.perf_counter()
    rows = collect(args.matches)
    print(f"{len(rows)} hands from {args.matches} matches x {len(lineups())} line-ups, seeds from {FIT_SEED}, "
          f"{time.perf_counter() - started:.0f} s")
    model = fit(rows, args.deals)
    model = {"version": args.version, **model,
             "fit": {"matches_per_lineup": args.matches, "lineups": list(lineups()), "first_seed": FIT_SEED,
                     "script": "scripts/fit_luck_jass.py"}}
    out = args.out or ROOT / "referee" / "luck" / "models" / f"jass-{args.version}.json"
    out.write_text(json.dumps(model, indent=1) + "\n")
    print(json.dumps({k: model[k] for k in ("kinds", "deal", "hand_total", "expected_deal")}, indent=1))
    print(f"wrote {out} in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
