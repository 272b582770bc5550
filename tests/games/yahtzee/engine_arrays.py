"""The engine's scoring as the optimal Yahtzee bot's solver arrays, and that bot's folder on
``sys.path``.

:func:`engine_rules` turns the engine's scoring functions (:mod:`referee.games.yahtzee_scoring`)
into :class:`yahtzee_dp.Rules`.  The bot writes its own arrays (its ``yahtzee_rules.py``, as it
plays sandboxed, away from the referee); the tests check them equal to these and check the
solver over these, so the solver and the referee cannot disagree.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Final

import numpy as np

from referee.games import yahtzee_scoring as scoring

BOT: Final = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yahtzee_optimal"
"""The bot's folder; its modules (``yahtzee_dp``, ``yahtzee_rules``, ``strategy``) import each
other by plain names, as they do when the bot runs there."""
if str(BOT) not in sys.path:
    sys.path.insert(0, str(BOT))

import yahtzee_dp as dp  # noqa: E402
import yahtzee_rules  # noqa: E402
from yahtzee_dp import DICE, Rules  # noqa: E402

__all__ = ["BOT", "dp", "engine_rules", "yahtzee_rules"]

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
