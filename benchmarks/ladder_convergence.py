"""How many matches until the leaderboard shows the true order: the ladder's scheduler against round robins.

Entrants of known strength order: the game's sample heuristic playing a random legal move
with probability ``p = 0, 0.1, 0.2, ...`` (``--entrants`` of them; lower p is stronger, so
the true order is by p).  Each run plays ``--matches`` matches with one of three schedulers,
rating every match with :mod:`arena.league.ratings` as a tournament does:

* ``plain``: the round robin of :func:`arena.scheduling.round_robin.schedule` with a seed per match;
* ``duplicate``: the same round robin with duplicate deals (one seed per table, every seat
  rotation);
* ``ladder``: :func:`arena.scheduling.ladder.next_set`, fed the current ratings and match
  times, the clock counting matches.

Within each round robin round the tables are played in a seeded random order, so that a run
cut off mid-round is not lopsided (``itertools.combinations`` order would seat bot 0 first).

**Converged at** the smallest match count ``m`` such that, at every checkpoint from ``m`` to
the end of the run, the leaderboard order (conservative rating ``mu - 3 sigma``, then mu, as
``arena ratings`` sorts) equals the true order.  Checkpoints are after every duplicate set
(after every match for ``plain``).  A run whose order is wrong at its last checkpoint has not
converged; it counts as infinitely many matches in the medians (so a median may be "not
reached").  The run length is what makes "stays" mean something: ``--matches`` should be
well above the figures it prints.

**Fairness**: with match counts standing in for time, a window is ``W`` consecutive matches
(``--window``, default ``20 * entrants / table size``: 20 matches per entrant on average).
For every window ending at a checkpoint at or after ``W``, each entrant's matches in it are
divided by the mean over entrants; the figure is the minimum over entrants and windows.
The ladder promises at least 0.5.

The matches run in-process with ``inprocess.py`` (engines, the sample bots' ``decide``
functions, observations through :mod:`referee.wire`), a process pool across runs.  With
``--pool FOLDER`` (two-seat games) every pair's seatings are played on ``--deals`` engine
seeds once, kept in FOLDER, and the runs draw their outcomes from there (:mod:`ladder_pool`):
seconds per run instead of minutes, so that 20+ seeds are affordable.

**By mu alone** is printed as a diagnostic: the same "converged at", for the order by mu
without the ``- 3 sigma``.  Its gap to the leaderboard's figure is the wait for the sigmas
to line up; the figure itself is the wait for the mus.

    python benchmarks/ladder_convergence.py --quick
    python benchmarks/ladder_convergence.py --games gin_rummy --seeds 20 --matches 3000
    python benchmarks/ladder_convergence.py --games gin_rummy --seeds 100 --matches 600 --pool /tmp/ladder-pool
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from inprocess import heuristic, noisy, play
from ladder_pool import Deals, deal_seed, luck_of, pool_path, two_seat_tables
from ladder_pool import build as build_pool
from ladder_pool import load as load_pool
from ladder_pool import stale as stale_pool

GAMES = {"gin_rummy": None, "yaniv": 4, "jass": None}
"""The benchmarked games and their table size (``None``: the game's own)."""
METHODS = ("plain", "duplicate", "ladder")


def game_format(game: str, entrants: int) -> Any:
    from arena.scheduling.round_robin import format_for
    from referee.games import game_class

    cls = game_class(game)
    return format_for(min_players=cls.min_players, max_players=cls.max_players, teams=cls.teams,
                      num_bots=entrants, table_size=GAMES[game])


def round_robin_sets(fmt: Any, bots: Sequence[int], *, duplicate: bool, seed: int,
                     matches: int) -> list[list[tuple[tuple[int, ...], int]]]:
    """The round robin's sets (``(seats, seed)`` lists: a deal's rotations, or single matches
    without duplicate deals), rounds in order and each round's sets shuffled, ``matches`` long."""
    from arena.scheduling.round_robin import schedule

    rng = random.Random(seed)
    out: list[list[tuple[tuple[int, ...], int]]] = []
    played = 0
    round_seed = seed
    while played < matches:
        round_seed += 1
        sets: dict[int, list[tuple[tuple[int, ...], int]]] = {}
        for p in schedule(fmt, bots, rounds=1, duplicate=duplicate, seed=round_seed):
            sets.setdefault(p.deal, []).append((p.seats, p.seed))
        order = list(sets.values())
        rng.shuffle(order)
        for s in order:
            out.append(s)
            played += len(s)
    return out


def leaderboard(ratings: dict[int, Any], bots: Sequence[int], rating: str = "trueskill") -> list[int]:
    """Bots as ``arena ratings`` orders them: TrueSkill by conservative rating, then mu; the
    score model by its rating; exact ties against the true order (so that bots never rated are
    not "in order" by accident)."""
    if rating == "score":
        return sorted(bots, key=lambda b: (-ratings[b].mu, -b))
    return sorted(bots, key=lambda b: (-(ratings[b].mu - 3 * ratings[b].sigma), -ratings[b].mu, -b))


class ScoreRater:
    """The score model (:mod:`arena.league.score_ratings`) as the benchmark feeds it: every
    match's luck-adjusted result (raw where the game has no estimator yet), refitted at each
    checkpoint over all the run's matches."""

    def __init__(self, game: str, bots: Sequence[int]) -> None:
        from arena.league import score_ratings
        from referee.games import game_class

        self.sr = score_ratings
        self.game = game
        self.bots = list(bots)
        self.teams = game_class(game).teams
        self.sign = -1.0 if game_class(game).lower_scores_win else 1.0
        self.acc = score_ratings.Accumulator()
        self.estimator = score_ratings.current_estimator(game)
        self.fitted: Any = None

    def add(self, seats: Sequence[int], record: Any, measured: Any = "analyse") -> bool:
        """Rate one match: with ``measured`` luck (a pool's, ``None`` for none), or analysed here."""
        import numpy as np

        from referee import luck

        if not self.sr.rateable(list(seats), self.teams):
            return False
        results = [self.sign * s for s in record.scores]
        adjusted = 0
        if measured == "analyse" and self.estimator is not None:
            try:
                measured = list(luck.analyse(record).luck)
            except luck.LuckError:
                measured = None
        if isinstance(measured, list):
            results = [r - x for r, x in zip(results, measured)]
            adjusted = 1
        self.acc.add(np.array([list(seats)]), np.array([results]), self.sr.design(len(seats), self.teams),
                     adjusted=adjusted)
        return True

    def ratings(self) -> dict[int, Any]:
        """Every bot's rating now (not rated yet: 0, with a sigma above any new-entrant mark)."""
        self.fitted = self.sr.fit(self.acc)
        found = self.fitted.ratings
        return {b: found.get(b, self.sr.ScoreRating(0.0, math.inf, 0)) for b in self.bots}

    def stronger(self, a: int, b: int) -> float:
        rated = self.fitted.bots if self.fitted is not None else ()
        return self.fitted.los(a, b) if a in rated and b in rated else 0.5


@dataclass(frozen=True)
class Job:
    """One run's parameters."""

    game: str
    method: str
    seed: int
    entrants: int
    matches: int
    window: float
    pool: str | None = None
    """A pool file (:mod:`ladder_pool`) to draw outcomes from, or ``None`` to play every match."""
    deals: int = 0
    """The pool's deals per table."""
    policy: tuple[tuple[str, Any], ...] = ()
    """Overrides of :class:`arena.scheduling.ladder.Policy` (experiments)."""
    rating: str = "trueskill"
    """The rating model: ``"trueskill"`` (rankings) or ``"score"`` (scores and luck)."""


_POOLS: dict[str, dict[Any, Any]] = {}
_LUCKS: dict[str, dict[Any, Any]] = {}


def run(job: Job) -> dict[str, Any]:
    """One run: play ``matches`` matches with ``method``; when the order converged (by the
    leaderboard, and by mu alone), fairness, and per checkpoint ``trace`` rows of (matches,
    leaderboard right, mu order right, mean sigma) for ``--json``."""
    from arena.league.ratings import apply_match, environment
    from arena.scheduling.ladder import SCORE_NEW_SIGMA, Entrant, count_before, next_set
    from referee.games import game_class

    game, method, seed, entrants, matches, window = job.game, job.method, job.seed, job.entrants, job.matches, \
        job.window
    started = time.monotonic()
    bots = list(range(entrants))
    decide = heuristic(game)
    policies = [noisy(decide, p / 10) for p in bots]
    if job.pool and job.pool not in _POOLS:  # once per worker (setdefault would read the file every run)
        _POOLS[job.pool] = load_pool(Path(job.pool))
    pool = _POOLS[job.pool] if job.pool else None
    deals = Deals(seed, job.deals) if pool is not None else None
    missing = 0
    fmt = game_format(game, entrants)
    teams = game_class(game).teams
    env = environment()
    ratings = {b: env.create_rating() for b in bots}
    scorer = ScoreRater(game, bots) if job.rating == "score" else None
    if job.pool and scorer is not None and job.pool not in _LUCKS:
        _LUCKS[job.pool] = luck_of(Path(job.pool), _POOLS[job.pool], game, 1)
    lucks = _LUCKS.get(job.pool, {}) if job.pool and scorer is not None else {}
    if scorer is not None:
        ratings = scorer.ratings()
    times: dict[int, list[int]] = {b: [] for b in bots}
    before: Any = None
    planned = iter(round_robin_sets(fmt, bots, duplicate=method == "duplicate", seed=seed, matches=matches)) \
        if method != "ladder" else None
    checkpoints: list[tuple[int, bool]] = []
    seated: list[frozenset[int]] = []
    decisive = 0
    number = 0
    sigmas_at: list[float] | None = None
    trace: list[tuple[int, int, int, float]] = []
    while len(seated) < matches:
        if planned is not None:
            current = next(planned)
        else:
            recent = len(seated) - window
            unit = scorer.fitted.noise if scorer is not None and scorer.fitted.bots else 1.0
            state = [Entrant(b, ratings[b].mu / unit, ratings[b].sigma / unit, 0.0,
                             tuple(t for t in times[b] if t > recent)) for b in bots]
            overrides = job.policy if scorer is None else (("new_sigma", SCORE_NEW_SIGMA), *job.policy)
            chosen = next_set(state, fmt, now=len(seated), seed=seed, number=number,
                              policy=_policy(window, overrides), before=before,
                              stronger=scorer.stronger if scorer is not None else None)
            before = count_before(chosen.seatings, before)
            current = [(seats, chosen.seed) for seats in chosen.seatings]
        number += 1
        deal = deals.next(frozenset(b for seats, _ in current for b in seats)) if deals is not None else None
        for seats, match_seed in current:
            if len(seated) == matches:
                break
            if scorer is not None:
                key = (tuple(seats), deal)
                if pool is None or deal is None:
                    record, measured = play(game, match_seed, [policies[b] for b in seats]), "analyse"
                else:
                    if key not in pool:
                        missing += 1
                        pool[key] = play(game, deal_seed(seats, deal), [policies[b] for b in seats])
                    record, measured = pool[key], lucks.get(key, "analyse" if lucks else None)
                ranking = tuple(record.ranking)
                if not scorer.add(seats, record, measured):
                    raise RuntimeError(f"{game}: match {seats} was not rated")
            elif pool is None or deal is None:  # played directly
                ranking = tuple(play(game, match_seed, [policies[b] for b in seats]).ranking)
            elif (tuple(seats), deal) in pool:
                ranking = pool[(tuple(seats), deal)]
                ranking = tuple(ranking.ranking) if hasattr(ranking, "ranking") else ranking  # a score pool
            else:
                missing += 1
                ranking = pool[(tuple(seats), deal)] = tuple(play(game, deal_seed(seats, deal),
                                                                  [policies[b] for b in seats]).ranking)
            if len(set(ranking)) > 1:
                decisive += 1
            if scorer is None and not apply_match(env, ratings, list(seats), ranking, teams):
                raise RuntimeError(f"{game}: match {seats} was not rated")
            seated.append(frozenset(seats))
            for b in set(seats):
                times[b].append(len(seated))
        if scorer is not None:
            ratings = scorer.ratings()
        checkpoints.append((len(seated), leaderboard(ratings, bots, job.rating) == bots,
                            sorted(bots, key=lambda b: (-ratings[b].mu, -b)) == bots))
        trace.append((len(seated), int(checkpoints[-1][1]), int(checkpoints[-1][2]),
                      round(statistics.mean(ratings[b].sigma for b in bots), 3)))
        if sigmas_at is None and checkpoints[-1][2]:
            sigmas_at = [round(ratings[b].sigma, 3) for b in bots]
    idle = [b for b in bots if not times[b]]
    if len(seated) != matches or decisive == 0 or idle:
        raise RuntimeError(f"{game} {method} seed {seed}: {len(seated)} matches of {matches}, {decisive} decisive, "
                           f"never seated: {idle}")
    return {"game": game, "method": method, "seed": seed, "matches": matches,
            "converged": _settled([(c, shown) for c, shown, _ in checkpoints]),
            "converged_mu": _settled([(c, by_mu) for c, _, by_mu in checkpoints]),
            "fairness": fairness(seated, bots, window, [c for c, _, _ in checkpoints]),
            "final_right": checkpoints[-1][1], "mu": [round(ratings[b].mu, 4) for b in bots],
            "sigma": [round(ratings[b].sigma, 4) for b in bots], "sigma_first_mu_right": sigmas_at,
            "rating": job.rating, "adjusted": scorer.acc.adjusted if scorer is not None else 0,
            "pool_misses": missing, "most_sets": max(deals.played.values()) if deals else None,
            "trace": trace, "seconds": time.monotonic() - started}


def _settled(checkpoints: Sequence[tuple[int, bool]]) -> int | None:
    """The first checkpoint from which every later one is right (``None``: wrong at the end)."""
    converged: int | None = None
    for count, right in checkpoints:
        if not right:
            converged = None
        elif converged is None:
            converged = count
    return converged


def _policy(window: float, overrides: Sequence[tuple[str, Any]] = ()) -> Any:
    from arena.scheduling.ladder import Policy

    return Policy(window=window, **dict(overrides))


def fairness(seated: Sequence[frozenset[int]], bots: Sequence[int], window: float, ends: Sequence[int]) -> float:
    """Min over entrants and windows of ``window`` matches ending at a checkpoint of its matches / the mean."""
    worst = math.inf
    width = int(window)
    for end in ends:
        if end < width:
            continue
        counts = {b: 0 for b in bots}
        for match in seated[end - width:end]:
            for b in match:
                counts[b] += 1
        mean = statistics.mean(counts.values())
        worst = min(worst, min(counts.values()) / mean)
    if math.isinf(worst):
        raise RuntimeError(f"no full fairness window of {width} matches in a run of {len(seated)}: use more --matches")
    return worst


def median(values: Sequence[int | None]) -> float:
    """The median, a run that did not converge counting as infinite."""
    return statistics.median(math.inf if v is None else v for v in values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--methods", nargs="+", default=list(METHODS), choices=METHODS)
    parser.add_argument("--seeds", type=int, default=20, help="runs per game and method")
    parser.add_argument("--first-seed", type=int, default=1000, help="seeds are this, this + 1, ...")
    parser.add_argument("--entrants", type=int, default=10, help="p = 0, 0.1, ... (at most 10)")
    parser.add_argument("--matches", type=int, default=3000, help="matches per run")
    parser.add_argument("--window", type=float, default=None, help="fairness window, in matches")
    parser.add_argument("--quick", action="store_true", help="4 entrants, 2 seeds, 200 matches: a smoke test")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", type=Path, default=None, help="also write every run's figures here")
    parser.add_argument("--pool", type=Path, default=None, metavar="FOLDER",
                        help="draw outcomes from a pool of played deals kept in FOLDER (two-seat games; "
                             "played first where missing)")
    parser.add_argument("--deals", type=int, default=48, help="the pool's deals per pair (with --pool)")
    parser.add_argument("--score-pool", action="store_true",
                        help="with --pool and TrueSkill: draw from the score model's pool (the same deals)")
    parser.add_argument("--rating", choices=("trueskill", "score"), default="trueskill",
                        help="the rating model of every run: TrueSkill (rankings) or the score model "
                             "(luck-adjusted scores; played directly, no --pool)")
    options = parser.parse_args()
    if options.quick:
        options.entrants, options.seeds, options.matches = 4, 2, 200
    if not 2 <= options.entrants <= 10:
        parser.error("--entrants must be 2..10")
    if options.pool and any(game_format(game, options.entrants).kind != "two_seat" for game in options.games):
        parser.error("--pool holds two-seat games only (gin_rummy): add --games gin_rummy")
    if options.deals < 1:
        parser.error("--deals must be at least 1")
    # The sample strategies break some ties in set order, which follows Python's string hashes:
    # fixing the hash seed of the (spawned) workers makes every run repeatable.
    os.environ.setdefault("PYTHONHASHSEED", "0")
    jobs = []
    for game in options.games:
        size = game_format(game, options.entrants).table_size
        window = options.window or 20 * options.entrants / min(size, options.entrants)
        pool = None
        if options.pool:
            scores = options.rating == "score" or options.score_pool
            pool = pool_path(options.pool, game, options.entrants, scores=scores)
            begun = time.monotonic()
            played = build_pool(pool, game, two_seat_tables(options.entrants), options.deals, options.workers,
                                scores=scores)
            print(f"{game} pool {pool}: {options.deals} deals x {len(two_seat_tables(options.entrants))} pairs x "
                  f"2 seatings, {played} matches played now ({time.monotonic() - begun:.0f} s)", flush=True)
            with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as checker:
                wrong = checker.submit(stale_pool, pool, game).result()
            if wrong:
                raise SystemExit(f"Error: the pool {pool} no longer matches the game (delete it): {wrong[0]}")
            if options.rating == "score":
                begun = time.monotonic()
                measured = luck_of(pool, load_pool(pool), game, options.workers)
                print(f"{game} pool luck: {sum(v is not None for v in measured.values())} of {len(measured)} "
                      f"matches measured ({time.monotonic() - begun:.0f} s)", flush=True)
        jobs += [Job(game, method, options.first_seed + s, options.entrants, options.matches, window,
                     str(pool) if pool else None, options.deals, rating=options.rating)
                 for method in options.methods for s in range(options.seeds)]
    started = time.monotonic()
    results = []
    with ProcessPoolExecutor(options.workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        for done in as_completed([pool.submit(run, job) for job in jobs]):
            r = done.result()
            results.append(r)
            if not options.pool:
                print(f"  [{len(results)}/{len(jobs)}] {r['game']} {r['method']} seed {r['seed']}: converged at "
                      f"{r['converged']} (by mu {r['converged_mu']}), fairness {r['fairness']:.2f}, "
                      f"{r['seconds']:.0f} s", flush=True)
    adjusted = sum(r["adjusted"] for r in results)
    print(f"rating model {options.rating}" + (f" ({adjusted} of {sum(r['matches'] for r in results)} matches "
                                              f"luck-adjusted, the rest raw)" if options.rating == "score" else ""))
    print(f"{options.entrants} entrants (p = 0 .. {(options.entrants - 1) / 10:.1f}), {options.seeds} seeds, "
          f"{options.matches} matches per run, {time.monotonic() - started:.0f} s"
          + (f", outcomes from the pool ({options.deals} deals per pair)" if options.pool else ""))
    for game in options.games:
        print(f"{game}:")
        medians = {}
        for method in options.methods:
            rows = [r for r in results if r["game"] == game and r["method"] == method]
            values = [r["converged"] for r in rows]
            medians[method] = median(values)
            done = sorted(v for v in values if v is not None)
            print(f"  {method:9s}  median {medians[method]:>7}  converged {len(done)}/{len(rows)}"
                  f"  (quartiles {_quartiles(values)})  min fairness {min(r['fairness'] for r in rows):.2f}"
                  f"  {statistics.mean(r['seconds'] for r in rows):.1f} s/run")
            by_mu = [r["converged_mu"] for r in rows]
            print(f"  {'':9s}  by mu alone (diagnostic): median {median(by_mu):>7}  (quartiles {_quartiles(by_mu)})"
                  + (f"  most sets of one pair {max(r['most_sets'] for r in rows)}" if options.pool else ""))
        if "ladder" in medians:
            for other in ("plain", "duplicate"):
                if other in medians:
                    print(f"  {other} / ladder: {_ratio(medians[other], medians['ladder'], options.matches)}")
    if options.json:
        options.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")


def _ratio(other: float, ladder: float, matches: int) -> str:
    """How many times fewer matches the ladder needed (medians), or a bound when a median is censored."""
    if math.isinf(ladder):
        return f"not measured: the ladder did not converge within {matches} matches in most runs"
    if math.isinf(other):
        return (f"more than {matches / ladder:.2f}x fewer matches (the round robin did not converge within "
                f"{matches} in most runs)")
    return f"{other / ladder:.2f}x fewer matches"


def _quartiles(values: Sequence[int | None]) -> str:
    data = sorted(math.inf if v is None else v for v in values)
    if len(data) < 2:
        return str(data)
    q = statistics.quantiles(data, n=4, method="inclusive")
    return f"{q[0]:g} .. {q[2]:g}"


if __name__ == "__main__":
    main()
