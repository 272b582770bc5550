"""The bot's own reading of the Yahtzee and Yams scoring rules, as the arrays its solver reads.

Written from docs/rules/yahtzee.md, not from the engine: a bot plays away from the referee
(only arena's SDK side, with the solver :mod:`arena.yahtzee_dp`, is importable in the
sandbox), and this one reads the rules as any author would.  The platform's tests check that
these arrays equal the ones derived from the engine's scoring functions for every variant
(tests/games/yahtzee/test_yahtzee_optimal.py), so the solver and the referee cannot disagree
without a failing test.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

import numpy as np

from arena.yahtzee_dp import DICE, Rules

UPPER: Final = ("ones", "twos", "threes", "fours", "fives", "sixes")
BOXES: Final = {
    "yahtzee": (*UPPER, "three_kind", "four_kind", "full_house", "small_straight", "large_straight", "yahtzee",
                "chance"),
    "yams": (*UPPER, "plus", "minus", "four_kind", "full_house", "small_straight", "large_straight", "yahtzee",
             "rigole"),
}
CAPS: Final = {"yahtzee": 63, "yams": 60}
"""Upper totals from here on need no distinction: the bonus no longer changes (Yahtzee) or
grows by one per point (Yams), which the solver pays at once."""
MAX_UPPER: Final = 5 * 21
JOKER_BONUS: Final = 100


def _points(variant: str, box: str, dice: tuple[int, ...], joker: bool = False) -> int:
    """What ``box`` takes with ``dice``; ``joker``: five equal dice with 50 in the Yahtzee box."""
    counts = Counter(dice)
    most = max(counts.values())
    total = sum(dice)
    faces = set(dice)
    full = sorted(counts.values()) == [2, 3]
    small = any({start, start + 1, start + 2, start + 3} <= faces for start in (1, 2, 3))
    large = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * counts[face]
    if variant == "yahtzee":
        return {"three_kind": total if most >= 3 else 0, "four_kind": total if most >= 4 else 0,
                "full_house": 25 if full or joker else 0, "small_straight": 30 if small or joker else 0,
                "large_straight": 40 if large or joker else 0, "yahtzee": 50 if most == 5 else 0,
                "chance": total}[box]
    four = [face for face, n in counts.items() if n == 4]
    rigole = bool(four) and 4 * four[0] + (7 - four[0]) == total
    return {"plus": total, "minus": total, "four_kind": 40 + total if most >= 4 else 0,
            "full_house": 30 + total if full else 0, "small_straight": 45 if small else 0,
            "large_straight": 50 if large else 0, "yahtzee": 50 + total if most == 5 else 0,
            "rigole": 50 if rigole else 0}[box]


def _upper_bonus(variant: str, total: int) -> int:
    if variant == "yahtzee":
        return 35 if total >= 63 else 0
    return 30 + total - 60 if total >= 60 else 0


def rules(variant: str) -> Rules:
    """``variant``'s scoring as :class:`~arena.yahtzee_dp.Rules` arrays.

    :raises KeyError: for a variant this bot does not know.
    """
    names = BOXES[variant]
    count = len(names)
    joker = variant == "yahtzee"
    fives = [(face,) * 5 for face in range(1, 7)]
    yahtzee_box = names.index("yahtzee")
    fillable = np.zeros((6, (1 << count) if joker else 0), dtype=np.int64)
    for filled in range(fillable.shape[1]):
        if not filled >> yahtzee_box & 1:
            continue  # the joker rule needs 50 in the Yahtzee box
        empty = [i for i in range(count) if not filled >> i & 1]
        lower = [i for i in empty if names[i] not in UPPER]
        for face in range(1, 7):
            own = face - 1  # the upper boxes are the first six
            chosen = [own] if own in empty else lower or empty
            fillable[face - 1, filled] = sum(1 << i for i in chosen)
    return Rules(
        variant=variant, boxes=names,
        score=np.array([[_points(variant, box, dice) for box in names] for dice in DICE], dtype=np.int64),
        sign=np.array([-1 if box == "minus" else 1 for box in names], dtype=np.int64),
        upper_face=np.array([UPPER.index(box) + 1 if box in UPPER else 0 for box in names], dtype=np.int64),
        cap=CAPS[variant],
        bonus=np.array([_upper_bonus(variant, total) for total in range(MAX_UPPER + 1)], dtype=np.int64),
        joker=joker, yahtzee_box=yahtzee_box,
        joker_score=np.array([[_points(variant, box, dice, joker) for box in names] for dice in fives],
                             dtype=np.int64),
        joker_fillable=fillable, joker_bonus=JOKER_BONUS if joker else 0)

