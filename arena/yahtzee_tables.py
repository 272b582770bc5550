"""The optimal Yahtzee and Yams tables: built from the engine's scoring, cached, loaded.

:func:`engine_rules` turns the engine's scoring functions (:mod:`referee.games.yahtzee_scoring`)
into the arrays :mod:`arena.yahtzee_dp` solves, so the solver and the referee cannot disagree.
Each saved file records a digest of those arrays: a rule change in the engine makes the old
file stale and :func:`ensure` rebuilds it.  Where the files live: :mod:`arena.tables`.
"""

from __future__ import annotations

import fcntl
import functools
import hashlib
import time
from pathlib import Path
from typing import Final

import numpy as np

from arena.tables import table_path, tables_folder
from arena.yahtzee_dp import DICE, Rules, Table, count_states, solve
from referee.games import yahtzee_scoring as scoring

YAHTZEE_CAPS: Final = {"yahtzee": 63, "yams": 60}
"""Upper totals from here on need no distinction (the engine's bonus is linear beyond:
checked by :func:`engine_rules`)."""
MAX_UPPER: Final = 5 * sum(range(1, 7))
"""The largest upper total (five of each face)."""


@functools.lru_cache(maxsize=None)
def engine_rules(variant: str) -> Rules:
    """``variant``'s scoring as arrays, every number from the engine's scoring functions.

    :raises ValueError: for an unknown variant, or an engine whose upper bonus is not linear
        beyond the cap this solver assumes.
    """
    names = scoring.boxes(variant)
    count = len(names)
    score = np.array([[scoring.score_box(variant, box, dice) for box in names] for dice in DICE])
    sign = np.array([-1 if box == "minus" else 1 for box in names])
    upper_face = np.array([scoring.UPPER_BOXES.index(b) + 1 if b in scoring.UPPER_BOXES else 0 for b in names])
    cap = YAHTZEE_CAPS[variant]
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


def rules_digest(rules: Rules) -> str:
    """A digest of everything the solver reads from ``rules``."""
    digest = hashlib.sha256(f"{rules.variant} {rules.boxes} {rules.cap} {rules.joker} {rules.yahtzee_box} "
                            f"{rules.joker_bonus} {rules.joker_when_scratched}".encode())
    for array in (rules.score, rules.sign, rules.upper_face, rules.bonus, rules.joker_score, rules.joker_fillable):
        digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return digest.hexdigest()[:16]


def build(variant: str, *, quiet: bool = False) -> Table:
    """Solve ``variant`` from scratch, with a progress bar on stderr unless ``quiet``."""
    rules = engine_rules(variant)
    if quiet:
        return Table(rules, rules_digest(rules), solve(rules))
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=False) as bar:
        task = bar.add_task(f"optimal {variant} table (once)", total=count_states(rules))
        values = solve(rules, progress=lambda n: bar.advance(task, n))
    return Table(rules, rules_digest(rules), values)


def ensure(variant: str, folder: Path | None = None, *, quiet: bool = False) -> Path:
    """The path of ``variant``'s table, built first if it is missing or stale.

    Concurrent callers (parallel matches) wait on a lock file instead of building twice.
    """
    folder = folder or tables_folder()
    path = table_path(variant, folder)
    digest = rules_digest(engine_rules(variant))
    if _current(path, digest):
        return path
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f".{variant}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _current(path, digest):
            build(variant, quiet=quiet).save(path)
    return path


def _current(path: Path, digest: str) -> bool:
    try:
        with np.load(path, allow_pickle=False) as data:
            return str(data["digest"]) == digest
    except (OSError, ValueError, KeyError, EOFError):
        return False


def load(variant: str, folder: Path | None = None) -> Table:
    """``variant``'s table, built first if needed."""
    return Table.load(ensure(variant, folder))


def timed_build(variant: str) -> tuple[Table, float]:
    """A fresh build and its wall-clock seconds (for benchmarks)."""
    started = time.perf_counter()
    table = build(variant, quiet=True)
    return table, time.perf_counter() - started
