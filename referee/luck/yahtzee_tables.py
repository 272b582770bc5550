"""The platform's solitaire-optimal Yahtzee and Yams tables, solved once and cached.

:func:`engine_rules` turns the engine's scoring functions (:mod:`referee.games.yahtzee_scoring`)
into the arrays of :class:`arena.yahtzee_dp.Rules`, so the values are those of the rules the
referee plays, never a bot's reading of them.  :func:`table` solves a variant on first use
(10 to 20 seconds of CPU each) and keeps the result like a build output, in
``<cache>/yahtzee/<variant>-<digest>.npz``:

- ``<cache>`` is ``$ARENA_CACHE``, else ``$XDG_CACHE_HOME/arena``, else ``~/.cache/arena``;
- ``<digest>`` is :func:`arena.yahtzee_dp.rules_digest`, over every array the solver reads
  and the table format, so a changed engine or solver never reads a stale table (the file
  stores the digest too, and a file whose stored digest differs is solved again);
- the file is written to a unique temporary name and renamed, so a reader never sees half a
  file; an exclusive ``fcntl`` lock beside it makes concurrent processes (two pytest-xdist
  workers, a server and a benchmark) solve it once: the others wait and then read it.

``python -m referee.luck.yahtzee_tables`` solves both variants ahead of time (``./dev test``
does, before the suite).
"""

from __future__ import annotations

import fcntl
import functools
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import numpy as np

from arena.yahtzee_dp import DICE, Rules, Table, count_states, rules_digest, solve
from referee.games import yahtzee_scoring as scoring

CACHE_VARIABLE: Final = "ARENA_CACHE"
CAPS: Final = {"yahtzee": 63, "yams": 60}
"""Upper totals from here on need no distinction (the engine's bonus is linear beyond:
checked by :func:`engine_rules`)."""
MAX_UPPER: Final = 5 * sum(range(1, 7))
"""The largest upper total (five of each face)."""


def cache_root(environ: Mapping[str, str] | None = None) -> Path:
    """The platform's cache folder (see the module docstring); not created here."""
    env = os.environ if environ is None else environ
    if env.get(CACHE_VARIABLE):
        return Path(env[CACHE_VARIABLE])
    return Path(env.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "arena"


@functools.cache
def engine_rules(variant: str) -> Rules:
    """``variant``'s scoring as arrays, every number from the engine's scoring functions.

    :raises ValueError: for an unknown variant, or an engine whose upper bonus is not linear
        beyond the cap the solver assumes.
    """
    names = scoring.boxes(variant)
    count = len(names)
    score = np.array([[scoring.score_box(variant, box, dice) for box in names] for dice in DICE])
    sign = np.array([-1 if box == "minus" else 1 for box in names])
    upper_face = np.array([scoring.UPPER_BOXES.index(b) + 1 if b in scoring.UPPER_BOXES else 0 for b in names])
    cap = CAPS[variant]
    bonus = np.array([scoring.upper_bonus(variant, {"ones": total}) for total in range(MAX_UPPER + 1)])
    if len(set(np.diff(bonus[cap:]))) > 1:
        raise ValueError(f"{variant}: the upper bonus is not linear from {cap} on; the solver's cap is wrong")
    joker = variant == "yahtzee"
    yahtzee_box = names.index("yahtzee")
    fives = [(face,) * 5 for face in range(1, 7)]
    joker_card = {"yahtzee": 50} if joker else {}
    joker_score = np.array([[scoring.score_box(variant, box, dice, joker_card) for box in names] for dice in fives])
    fillable = np.zeros((6, (1 << count) if joker else 0), dtype=np.int64)
    for filled in range(fillable.shape[1]):
        if not filled >> yahtzee_box & 1:
            continue  # the rule needs 50 in the Yahtzee box: never used
        card = {box: 0 for i, box in enumerate(names) if filled >> i & 1} | {"yahtzee": 50}
        for f, dice in enumerate(fives):
            fillable[f, filled] = sum(1 << names.index(b) for b in scoring.fillable_boxes(variant, dice, card))
    joker_bonus = scoring.yahtzee_bonus(variant, fives[0], {"yahtzee": 50})
    return Rules(variant=variant, boxes=names, score=score, sign=sign, upper_face=upper_face, cap=cap, bonus=bonus,
                 joker=joker, yahtzee_box=yahtzee_box, joker_score=joker_score, joker_fillable=fillable,
                 joker_bonus=joker_bonus)


def table_path(rules: Rules, root: Path | None = None) -> Path:
    """Where the table of ``rules`` is cached (named by its digest)."""
    return (root or cache_root()) / "yahtzee" / f"{rules.variant}-{rules_digest(rules)}.npz"


def read_table(rules: Rules, path: Path) -> Table | None:
    """The table at ``path`` if it holds ``rules``' values (same digest), else ``None``."""
    try:
        found = Table.load(path)
    except (OSError, ValueError):
        return None
    return found if found.digest == rules_digest(rules) else None


def cached_table(rules: Rules, root: Path | None = None) -> Table:
    """The solved table of ``rules``: read from the cache, else solved (under the lock, which
    a concurrent solver of the same table holds until its file is in place) and saved."""
    path = table_path(rules, root)
    found = read_table(rules, path)
    if found is not None:
        return found
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = read_table(rules, path)  # solved by another process while this one waited
        if found is not None:
            return found
        solved = Table(rules, rules_digest(rules), _solve_telling(rules, path))
        solved.save(path)
        return solved


def _solve_telling(rules: Rules, path: Path) -> np.typing.NDArray[np.float64]:
    """:func:`~arena.yahtzee_dp.solve`, telling stderr why it waits and how far it is."""
    total, done, shown = count_states(rules), 0, 0
    started = time.perf_counter()
    print(f"arena: solving the optimal {rules.variant} table once for the luck estimates "
          f"({total:,} states, some seconds of CPU); it is cached in {path}", file=sys.stderr, flush=True)

    def progress(count: int) -> None:
        nonlocal done, shown
        done += count
        if done * 4 // total > shown:
            shown = done * 4 // total
            print(f"arena: {rules.variant} table {shown * 25}% solved, {time.perf_counter() - started:.0f} s",
                  file=sys.stderr, flush=True)

    return solve(rules, progress=progress)


@functools.cache
def table(variant: str) -> Table:
    """The optimal table of ``variant`` under the engine's rules (cached on disk and in memory)."""
    return cached_table(engine_rules(variant))


if __name__ == "__main__":
    for name in scoring.VARIANTS:
        began = time.perf_counter()
        solved = table(name)
        print(f"{name}: {table_path(solved.rules)} (expected score {solved.expected_score:.4f}, "
              f"{time.perf_counter() - began:.1f} s)")
