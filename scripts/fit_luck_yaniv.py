"""Fit Yaniv's luck model and freeze it in referee/luck/models/yaniv-<version>.json.

Plays in-process matches of the sample strategies at tables of 2 and 4 (the heuristic against
itself, against the heuristic with 10 % and 30 % random moves, and against random), and from
their replays fits the three parts of :mod:`referee.luck.yaniv`'s value:

- the *call model*: a logistic regression of whether the seat to move calls Yaniv when it may
  (from its points and the lowest other hand);
- the *round model*: a conditional logit of which seat still in ends the round lowest, from the
  hand summaries at every position the estimator values (one for 2 seats in, one for 3+), and
  a least-squares prediction of the points the other seats then add, with residual quantiles;
- the *table* of expected final totals at a round start: for 2 seats in, exact value iteration
  over all totals 0..100 of the empirical round process (the rounds observed with 2 seats in,
  as score pairs from the starter and who starts next); for 3+ seats in, a regression
  (:func:`referee.luck.yaniv.table_terms`) on matches simulated from that process, seeded;
- the *weights* per table size of the table's value and of the plain expected totals after
  the round (:func:`choose_scales`), chosen on held-out matches of every line-up (the model
  never saw them) so that no line-up's variance grows.

Seeds 9_100_000 and up (2 seats) and 9_110_000 and up (4 seats): tests and benchmarks use
others.  About 25 minutes on a busy 2-core machine; ``--cache`` keeps the matches played.

    PYTHONPATH=. python scripts/fit_luck_yaniv.py --cache /tmp/yaniv-fit.pickle
"""

from __future__ import annotations

import argparse
import json
import pickle
import random
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.inprocess import RANDOM, Policy, heuristic, noisy, play
from referee.games import make_game
from referee.games.yaniv import ASSAF_PENALTY, YANIV_LIMIT, DrawStock, Yaniv
from referee.luck import analyse
from referee.luck import yaniv as model
from referee.result import MatchRecord

SEED_BASE = 9_100_000
OUT = Path(__file__).resolve().parent.parent / "referee" / "luck" / "models" / model.MODEL_FILE
SIMULATED = 40_000
"""Matches of the round process simulated for the 3+ seat table."""


def lineups() -> dict[str, list[Policy]]:
    """The fitting line-ups: the heuristic against four opponents, at tables of 2 and of 4."""
    best = heuristic("yaniv")
    found: dict[str, list[Policy]] = {}
    for name, epsilon in (("noisy 0.1", 0.1), ("noisy 0.3", 0.3)):
        found[f"{name}, 2 seats"] = [best, noisy(best, epsilon, 7)]
        found[f"{name}, 4 seats"] = [best, noisy(best, epsilon, 7), best, noisy(best, epsilon, 8)]
    found["random, 2 seats"], found["random, 4 seats"] = [best, RANDOM], [best, RANDOM, best, RANDOM]
    found["self, 2 seats"], found["self, 4 seats"] = [best, best], [best] * 4
    return found


def seeds(lineup: str, model_matches: int, scale_matches: int) -> tuple[range, range]:
    """The seeds of a line-up's matches for the model, and the held-out ones for the scales."""
    base = SEED_BASE + (0 if lineup.endswith("2 seats") else 10_000)
    return range(base, base + model_matches), range(base + model_matches, base + model_matches + scale_matches)


def matches(lineup: str, policies: list[Policy], numbers: range,
            stored: dict[tuple[str, int], MatchRecord]) -> list[MatchRecord]:
    """The line-up's matches on seeds ``numbers``, taken from ``stored`` (earlier runs: a record
    depends only on its seed and policies) when there, and added to it."""
    found = [stored.get((lineup, seed)) or play("yaniv", seed, policies) for seed in numbers]
    stored.update({(lineup, r.seed): r for r in found})
    return found


def replay(record: MatchRecord) -> tuple[list[dict[str, Any]], list[tuple[Any, ...]]]:
    """The match's rounds (order from the starter, totals before, round scores, hand values, how
    it ended) and the positions the estimator values (round, turn order, hand summaries, the
    number of the next move)."""
    state = make_game("yaniv", num_players=record.num_players, settings=record.settings).new_initial_state(record.seed)
    starts = [(model.turn_order(state), list(state.totals))]
    positions = [(1, model.turn_order(state), [model.hand_summary(h) for h in state.hands], 0)]
    for number, move in enumerate(record.moves):
        action = state.legal_actions()[move.index]
        round_number = state.round_number
        state.apply(action)
        if state.is_terminal():
            break
        if state.round_number != round_number:
            starts.append((model.turn_order(state), list(state.totals)))
        if isinstance(action, DrawStock) or state.round_number != round_number:
            positions.append((state.round_number, model.turn_order(state), [model.hand_summary(h) for h in state.hands],
                              number + 1))
    rounds = [{"order": order, "totals": totals, "scores": list(r.round_scores), "values": list(r.hand_values),
               "kind": r.kind, "declarer": r.declarer, "after": list(r.totals)}
              for (order, totals), r in zip(starts, state.results)]
    return rounds, positions


def lowest(round_: dict[str, Any]) -> int:
    """The place (from the starter) of the seat that ended the round lowest: least score, then
    least hand."""
    order = round_["order"]
    return min(range(len(order)), key=lambda p: (round_["scores"][order[p]], round_["values"][order[p]]))


def fit_logistic(rows: Sequence[tuple[Sequence[float], bool]], ridge: float = 1e-3) -> list[float]:
    """Logistic regression by Newton's method."""
    x = np.array([inputs for inputs, _ in rows], float)
    y = np.array([label for _, label in rows], float)
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w)))
        step = np.linalg.solve((x * (p * (1 - p))[:, None]).T @ x + ridge * len(y) * np.eye(len(w)),
                               x.T @ (y - p) - ridge * len(y) * w)
        w += step
        if np.abs(step).max() < 1e-9:
            break
    return [round(float(v), 6) for v in w]


def fit_caller(rows: Sequence[tuple[np.ndarray, int]], ridge: float = 1e-3) -> list[float]:
    """Conditional logit by Newton's method: rows of (features per seat, index of the lowest)."""
    size = len(model.CALLER_FEATURES)
    beta = np.zeros(size)
    for _ in range(50):
        gradient = -ridge * len(rows) * beta
        hessian = ridge * len(rows) * np.eye(size)
        for x, chosen in rows:
            u = x @ beta
            p = np.exp(u - u.max())
            p /= p.sum()
            mean = p @ x
            gradient += x[chosen] - mean
            hessian += (x * p[:, None]).T @ x - np.outer(mean, mean)
        step = np.linalg.solve(hessian, gradient)
        beta += step
        if np.abs(step).max() < 1e-9:
            break
    return [round(float(b), 6) for b in beta]


def fit_loser(rows: Sequence[tuple[tuple[int, int, int, int], int]]) -> dict[str, list[float]]:
    """Points a seat adds when another ends the round lowest, from its summary at a position."""
    x = np.array([[1.0, rest, points, cards, jokers] for (points, rest, cards, jokers), _ in rows])
    y = np.array([score for _, score in rows], float)
    w = np.linalg.lstsq(x, y, rcond=None)[0]
    residual = y - x @ w
    print(f"loser's points: {len(y)} rows, R^2 {1 - residual.var() / y.var():.3f}")
    return {"coefficients": [round(float(v), 6) for v in w],
            "quantiles": [round(float(np.quantile(residual, q)), 4) for q in (0.1, 0.3, 0.5, 0.7, 0.9)]}


def round_process(rounds: Sequence[dict[str, Any]]) -> dict[int, list[tuple[int, ...]]]:
    """Per number of seats in, the observed rounds: scores from the starter, then the place of
    the next starter (the lowest hand still in; ties: the declarer, then the first after it)."""
    found: dict[int, list[tuple[int, ...]]] = defaultdict(list)
    for r in rounds:
        if r["kind"] == "cap":
            continue
        order = r["order"]
        still = [p for p in range(len(order)) if r["after"][order[p]] <= 100]
        values = [r["values"][s] for s in order]
        declarer = order.index(r["declarer"])
        low = min((values[p] for p in still), default=0)
        after = next((p for p in ((declarer + j) % len(order) for j in range(len(order)))
                      if p in still and values[p] == low), 0)
        found[len(order)].append(tuple(r["scores"][s] for s in order) + (after,))
    return found


def table2(process: Sequence[tuple[int, ...]]) -> tuple[np.ndarray, np.ndarray]:
    """Expected final totals (starter's, other's) at a 2-seat round start, for totals 0..100, by
    value iteration over the empirical round process."""
    a, b = np.meshgrid(np.arange(101), np.arange(101), indexing="ij")
    halve = np.vectorize(model.halve)
    counts: dict[tuple[int, ...], int] = defaultdict(int)
    for outcome in process:
        counts[outcome] += 1
    steps = []
    for (sa, sb, after), count in counts.items():
        na, nb = halve(a + sa), halve(b + sb)
        steps.append((count / len(process), na.clip(0, 100), nb.clip(0, 100), na, nb, (na > 100) | (nb > 100), after))
    starter = np.full((101, 101), 105.0)
    other = np.full((101, 101), 105.0)
    for _ in range(2000):
        new_s, new_o = np.zeros_like(starter), np.zeros_like(other)
        for weight, ia, ib, na, nb, over, after in steps:
            cs, co = (other[ib, ia], starter[ib, ia]) if after else (starter[ia, ib], other[ia, ib])
            new_s += weight * np.where(over, na, cs)
            new_o += weight * np.where(over, nb, co)
        change = max(np.abs(new_s - starter).max(), np.abs(new_o - other).max())
        starter, other = new_s, new_o
        if change < 1e-9:
            break
    return starter, other


def table3(process: dict[int, list[tuple[int, ...]]], starter: np.ndarray, other: np.ndarray,
           seed: int) -> dict[str, list[float]]:
    """Per number of seats in (3 and up, as observed), the regression of a seat's expected final
    total at a round start on :func:`referee.luck.yaniv.table_terms`, from matches of the round
    process simulated from random totals until two seats are left (then the exact table)."""
    rng = random.Random(seed)
    rows: dict[int, list[tuple[list[tuple[int, float]], float]]] = defaultdict(list)
    top = max(process)
    for _ in range(SIMULATED if top > 2 else 0):
        k0 = rng.randint(3, top)
        totals = [rng.randrange(101) if rng.random() < 0.8 else 0 for _ in range(k0)]
        seats, first, visited = list(range(k0)), 0, []
        while len(seats) > 2:
            order = seats[first:] + seats[:first]
            visited.append((order, [totals[s] for s in order]))
            outcome = rng.choice(process[len(order)])
            for place, seat in enumerate(order):
                totals[seat] = model.halve(totals[seat] + outcome[place])
            after = order[outcome[-1]]
            seats = [s for s in seats if totals[s] <= 100]
            first = seats.index(after) if after in seats else 0
        final = [float(t) for t in totals]
        if len(seats) == 2:
            s0, s1 = seats[first], seats[1 - first]
            final[s0], final[s1] = starter[totals[s0], totals[s1]], other[totals[s0], totals[s1]]
        for order, at in visited:
            for place, seat in enumerate(order):
                terms = model.table_terms(at[place], at[:place] + at[place + 1:], place / (len(order) - 1))
                rows[len(order)].append((terms, final[seat]))
    found = {}
    for k, data in sorted(rows.items()):
        x = np.zeros((len(data), model.TABLE_INPUTS))
        for row, (terms, _) in enumerate(data):
            for index, value in terms:
                x[row, index] += value
        y = np.array([target for _, target in data])
        w = np.linalg.solve(x.T @ x + 1e-2 * np.eye(model.TABLE_INPUTS), x.T @ y)
        r2 = 1 - np.mean((y - x @ w) ** 2) / y.var()
        print(f"table for {k} seats in: {len(y)} simulated round starts, R^2 {r2:.3f}")
        found[str(k)] = [round(float(v), 5) for v in w]
    return found


def fit(records: Sequence[MatchRecord], seed: int) -> dict[str, Any]:
    """The model's content (weights: the table's value alone) from the fitting matches."""
    rounds, callers, losers, calls = [], defaultdict(list), [], []
    for record in records:
        match_rounds, positions = replay(record)
        rounds += match_rounds
        for number, order, summaries, following in positions:
            r = match_rounds[number - 1]
            mover = summaries[order[0]][0]
            if mover <= YANIV_LIMIT and following < len(record.moves):
                others = min(summaries[s][0] for s in order[1:])
                calls.append(([1.0, mover, float(others <= mover), min(others, 20) / 10],
                              record.moves[following].action == str(Yaniv())))
            if r["kind"] == "cap":
                continue
            k = len(order)
            low = r["order"][lowest(r)]
            x = np.array([model.caller_features(summaries[s], place, k) for place, s in enumerate(order)])
            callers["2" if k == 2 else "3+"].append((x, order.index(low)))
            losers += [(summaries[s], r["scores"][s]) for s in order if s != low and r["scores"][s] < ASSAF_PENALTY]
    caller = {}
    for group, rows in sorted(callers.items()):
        caller[group] = fit_caller(rows)
        print(f"caller model, {group} seats in: {len(rows)} positions")
    print(f"call model: {len(calls)} positions where the seat to move may call, {sum(c for _, c in calls)} calls")
    process = round_process(rounds)
    starter, other = table2(process[2])
    return {"game": "yaniv", "version": model.VERSION, "caller_features": list(model.CALLER_FEATURES),
            "loser_features": list(model.LOSER_FEATURES), "call": fit_logistic(calls), "caller": caller,
            "loser": fit_loser(losers),
            "table2": {"starter": np.round(starter, 3).tolist(), "other": np.round(other, 3).tolist()},
            "table3": table3(process, starter, other, seed), "scale": {},
            "mean_final": round(float(np.mean([s for r in records for s in r.scores])), 3)}


def lucks(records: Sequence[MatchRecord], data: dict[str, Any]) -> np.ndarray:
    """Per match: seat 0's result, its luck from the table's value alone and from the expected
    totals after the round alone."""
    rows = []
    parts = []
    for weights in ((1.0, 0.0), (0.0, 1.0)):
        estimator = model.YanivEstimator({**data, "scale": {str(n): weights for n in range(2, 9)}})
        parts.append([analyse(record, estimator) for record in records])
    for by_table, by_points in zip(*parts):
        rows.append((by_table.result[0], by_table.luck[0], by_points.luck[0]))
    return np.array(rows)


def choose_scales(held_out: dict[str, np.ndarray]) -> dict[str, list[float]]:
    """Per table size, the weights (table, points) on a grid of tenths that maximise the mean log
    variance ratio over the held-out line-ups while no line-up's variance grows (zero weights,
    the raw result, when none does)."""
    grid = [(a / 10, b / 10) for a in range(11) for b in range(11)]
    found = {}
    for seats in ("2", "4"):
        rows = {name: data for name, data in held_out.items() if name.endswith(f"{seats} seats")}
        best, best_score = (0.0, 0.0), 0.0
        for a, b in grid:
            ratios = [np.var(r[:, 0]) / np.var(r[:, 0] - a * r[:, 1] - b * r[:, 2]) for r in rows.values()]
            if min(ratios) >= 1 and np.mean(np.log(ratios)) > best_score:
                best, best_score = (a, b), float(np.mean(np.log(ratios)))
        for name, r in rows.items():
            raw = np.var(r[:, 0])
            print(f"  {name}: n={len(r)}, var raw {raw:.0f}, ratio at {best} "
                  f"{raw / np.var(r[:, 0] - best[0] * r[:, 1] - best[1] * r[:, 2]):.2f}")
        print(f"tables of {seats}: weights {best}")
        found[seats] = list(best)
    found["3"] = found["4"]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model-matches", type=int, nargs=2, default=(100, 70),
                        help="matches per line-up for the model, at tables of 2 and of 4")
    parser.add_argument("--scale-matches", type=int, nargs=2, default=(50, 30),
                        help="held-out matches per line-up for the scales, at tables of 2 and of 4")
    parser.add_argument("--cache", type=Path, help="a pickle of played matches to reuse and extend")
    args = parser.parse_args()
    start = time.perf_counter()
    stored = pickle.loads(args.cache.read_bytes()) if args.cache is not None and args.cache.exists() else {}
    fitting, held_out = [], {}
    for name, policies in lineups().items():
        table = 0 if name.endswith("2 seats") else 1
        model_seeds, scale_seeds = seeds(name, args.model_matches[table], args.scale_matches[table])
        fitting += matches(name, policies, model_seeds, stored)
        held_out[name] = matches(name, policies, scale_seeds, stored)
    if args.cache is not None:
        args.cache.write_bytes(pickle.dumps(stored))
    print(f"{len(fitting)} + {sum(map(len, held_out.values()))} matches ready in {time.perf_counter() - start:.0f} s")
    data = fit(fitting, SEED_BASE)
    data["scale"] = choose_scales({name: lucks(records, data) for name, records in held_out.items()})
    data["fitted_on"] = {"lineups": list(lineups()), "model_matches": list(args.model_matches),
                         "scale_matches": list(args.scale_matches), "seeds": "scripts/fit_luck_yaniv.py:seeds",
                         "simulated": SIMULATED, "script": "scripts/fit_luck_yaniv.py"}
    OUT.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"wrote {OUT} in {time.perf_counter() - start:.0f} s")

if __name__ == "__main__":
    main()
