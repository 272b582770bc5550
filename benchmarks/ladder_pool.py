"""A pool of real match outcomes, played once, that the convergence benchmark's runs draw deals from.

A match of the benchmark's bots is a pure function of (bots, seating, engine seed): the
bots are the game's heuristic with a seeded random move (:func:`inprocess.noisy`,
with ``PYTHONHASHSEED`` fixed).  So instead of playing every match of every run (half a
second a Gin Rummy match, minutes a run), the pool plays every seating of every table on
``deals`` engine seeds once and stores the rankings in a file; a run looks them up in
about a second, so 40 seeds of three schedulers take a minute and a scheduler change can
be measured as often as it takes.

How a run draws its deals (:class:`Deals`): the ``n``-th set a table plays in the run (a
duplicate set, or a single match of the plain round robin) takes deal ``(start + n) mod
deals``, ``start`` drawn per table from the run's seed.  A table meets no deal twice before
it has played all of them; past that it repeats deals, so the pool must be larger than the
meetings that matter.  The methods' own engine seeds are not used: a method's deals are the
pool's, drawn in the same way for every method.

A *score* pool (``scores=True``, for the score model) keeps each match's scores and its whole
record (:mod:`inprocess`), so that its luck can be measured by any estimator version later
(:func:`luck_of`, kept beside the pool in ``<pool>.luck-<game>-<version>.jsonl``).
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import os
import random
from collections.abc import Hashable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from inprocess import heuristic, noisy, play

Seats = tuple[int, ...]


def deal_seed(seats: Sequence[int], k: int) -> int:
    """The engine seed of deal ``k`` of the table of ``seats`` (in any seat order).

    Every table has deals of its own: with deals shared by all tables, a bot dealt a lucky
    hand in one seat of deal ``k`` would be dealt it again against every opponent, and its
    luck would not average out over single matches (the plain round robin's).
    """
    return random.Random(f"ladder-pool:{sorted(seats)}:{k}").randrange(2**31)


def pool_path(folder: Path, game: str, entrants: int, *, scores: bool = False) -> Path:
    return folder / (f"{game}-{entrants}-scores.jsonl" if scores else f"{game}-{entrants}.jsonl")


def _complete_lines(path: Path) -> list[str]:
    """The file's lines but an unfinished last one (a build stopped while writing it)."""
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    return text[:text.rfind("\n") + 1].splitlines()


def load(path: Path) -> dict[tuple[Seats, int], Any]:
    """``(seats, deal) -> ranking`` from a pool file (empty if there is none); from a score
    pool, ``(seats, deal) -> MatchRecord``."""
    from referee.result import MatchRecord

    pool: dict[tuple[Seats, int], Any] = {}
    for line in _complete_lines(path):
        row = json.loads(line)
        pool[(tuple(row["seats"]), row["deal"])] = MatchRecord.from_json(row["record"]) if "record" in row \
            else tuple(row["ranking"])
    return pool


def _play_table(job: tuple[str, Sequence[Seats], int, bool]) -> list[dict[str, object]]:
    """Play one deal at every given seating of a table (in a worker)."""
    game, seatings, k, scores = job
    decide = heuristic(game)
    if scores:
        rows: list[dict[str, object]] = []
        for seats in seatings:
            record = play(game, deal_seed(seats, k), [noisy(decide, b / 10) for b in seats])
            rows.append({"seats": list(seats), "deal": k, "ranking": list(record.ranking), "record": record.to_json()})
        return rows
    return [{"seats": list(seats), "deal": k,
             "ranking": list(play(game, deal_seed(seats, k), [noisy(decide, b / 10) for b in seats]).ranking)}
            for seats in seatings]


def luck_of(path: Path, pool: dict[tuple[Seats, int], Any], game: str, workers: int) -> dict[tuple[Seats, int], Any]:
    """``(seats, deal) -> per-seat luck`` of every record of a score pool under the game's current
    estimator (``None`` where it cannot be measured); empty if the game has none.  Measured once
    and kept beside the pool, per estimator version."""
    from arena.league.score_ratings import current_estimator

    estimator = current_estimator(game)
    if estimator is None:
        return {}
    side = path.with_name(path.name + f".luck-{estimator.replace('/', '-')}.jsonl")
    found: dict[tuple[Seats, int], Any] = {}
    for line in _complete_lines(side):
        row = json.loads(line)
        found[(tuple(row["seats"]), row["deal"])] = row["luck"]
    missing = [key for key in pool if key not in found]
    if missing:
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as executor, \
                side.open("a", encoding="utf-8") as out:
            for key, luck in zip(missing, executor.map(_luck, [pool[key] for key in missing], chunksize=8)):
                found[key] = luck
                out.write(json.dumps({"seats": list(key[0]), "deal": key[1], "luck": luck}) + "\n")
    return found


def _luck(record: Any) -> list[float] | None:
    from referee import luck

    try:
        return list(luck.analyse(record).luck)
    except luck.LuckError:
        return None


def two_seat_tables(entrants: int) -> list[list[Seats]]:
    """Every pair's two seatings."""
    return [[(a, b), (b, a)] for a, b in itertools.combinations(range(entrants), 2)]


def build(path: Path, game: str, tables: Iterable[Sequence[Seats]], deals: int, workers: int, *,
          scores: bool = False) -> int:
    """Play what the pool at ``path`` lacks of ``tables`` x ``deals``, appending as it goes;
    returns the number of matches played."""
    pool = load(path)
    jobs = [(game, [s for s in seatings if (s, k) not in pool], k, scores)
            for k in range(deals) for seatings in tables]
    jobs = [job for job in jobs if job[1]]
    os.environ.setdefault("PYTHONHASHSEED", "0")
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():  # drop an unfinished last line before appending
        path.write_text("".join(line + "\n" for line in _complete_lines(path)), encoding="utf-8")
    played = 0
    with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as executor, \
            path.open("a", encoding="utf-8") as out:
        for rows in executor.map(_play_table, jobs, chunksize=8):
            for row in rows:
                out.write(json.dumps(row) + "\n")
            out.flush()
            played += len(rows)
    return played


def stale(path: Path, game: str, samples: int = 4) -> list[str]:
    """Replay ``samples`` of the pool's matches (a fixed choice) and describe every one whose
    ranking differs: a pool kept in a temporary folder outlives changes to the engines or bots.
    Run it in a process started with the pool's ``PYTHONHASHSEED`` (a worker)."""
    decide = heuristic(game)
    pool = load(path)
    keys = random.Random(0).sample(sorted(pool), min(samples, len(pool)))
    stored = {key: tuple(value.ranking) if hasattr(value, "ranking") else value for key, value in pool.items()}
    return [f"{seats} deal {k}: pool {stored[(seats, k)]}, played {ranking}" for seats, k in keys
            if (ranking := tuple(play(game, deal_seed(seats, k), [noisy(decide, b / 10) for b in seats]).ranking))
            != stored[(seats, k)]]


class Deals:
    """Which pool deal each set of a run plays: a table's sets walk through the deals in
    order from a start drawn per table from the run's seed."""

    def __init__(self, seed: int, deals: int) -> None:
        self.seed = seed
        self.deals = deals
        self.played: dict[Hashable, int] = {}

    def next(self, table: frozenset[int]) -> int:
        key = tuple(sorted(table))
        n = self.played.get(key, 0)
        self.played[key] = n + 1
        start = random.Random(f"deals:{self.seed}:{key}").randrange(self.deals)
        return (start + n) % self.deals
