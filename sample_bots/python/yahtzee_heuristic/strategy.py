"""A heuristic Yahtzee/Yams strategy that reads only the protocol messages.

Each open box gets a *utility* for a final roll: its points, minus what the box is worth on
average if kept for later, plus a nudge toward the upper bonus.  Before scoring, the
strategy looks ahead over the remaining rerolls exactly (every keep, every roll of the
rerolled dice) and takes the reroll, or the score, with the best expected utility.

Everything a bot in another language would need is here: its own scoring of hypothetical
dice, the keep/roll tables, and the choice among ``legal_actions`` by index.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations_with_replacement, product
from math import factorial

from arena.v1 import bot_pb2

UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

# What a box is worth on average when kept open for later (rough figures from play).
_YAHTZEE_PAR = {"ones": 2, "twos": 5, "threes": 8, "fours": 12, "fives": 15, "sixes": 19,
                "three_kind": 20, "four_kind": 12, "full_house": 20, "small_straight": 27,
                "large_straight": 28, "yahtzee": 14, "chance": 22}
_YAMS_PAR = {"ones": 2, "twos": 5, "threes": 8, "fours": 12, "fives": 15, "sixes": 19,
             "plus": 25, "minus": -11, "four_kind": 28, "full_house": 38, "small_straight": 38,
             "large_straight": 32, "yahtzee": 22, "rigole": 10}
_BONUS_WEIGHT = 0.6
"""Extra utility per upper-box point above (or below) three of that face."""

# --- dice tables, built once ---------------------------------------------------------------
_ALL_DICE: tuple[tuple[int, ...], ...] = tuple(combinations_with_replacement(range(1, 7), 5))
_INDEX = {dice: i for i, dice in enumerate(_ALL_DICE)}
_KEEPS: tuple[tuple[int, ...], ...] = tuple(k for n in range(6) for k in combinations_with_replacement(range(1, 7), n))


def _roll_distribution(count: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sorted result of rolling ``count`` dice with its probability."""
    result = []
    for faces in combinations_with_replacement(range(1, 7), count):
        ways = factorial(count)
        for n in Counter(faces).values():
            ways //= factorial(n)
        result.append((faces, ways / 6 ** count))
    return result


_ROLLS = {n: _roll_distribution(n) for n in range(6)}
# For each keep: (index of the final dice, probability) over the rolls of the other dice.
_OUTCOMES = {keep: [(_INDEX[tuple(sorted(keep + faces))], p) for faces, p in _ROLLS[5 - len(keep)]]
             for keep in _KEEPS}


def _sub_keeps(dice: tuple[int, ...]) -> list[tuple[int, ...]]:
    counts = sorted(Counter(dice).items())
    return [tuple(f for (f, _), k in zip(counts, taken) for _ in range(k))
            for taken in product(*(range(n + 1) for _, n in counts))]


_SUBKEEPS = [_sub_keeps(dice) for dice in _ALL_DICE]


def _points(variant: str, box: str, dice: tuple[int, ...]) -> int:
    """Points ``box`` scores with ``dice`` (no joker rule: the actions carry the real value)."""
    counts = sorted(Counter(dice).values())
    faces = set(dice)
    total = sum(dice)
    if box in UPPER:
        face = UPPER.index(box) + 1
        return face * dice.count(face)
    small = any(set(run) <= faces for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)))
    large = faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})
    if variant == "yahtzee":
        return {"three_kind": total if counts[-1] >= 3 else 0, "four_kind": total if counts[-1] >= 4 else 0,
                "full_house": 25 if counts == [2, 3] else 0, "small_straight": 30 if small else 0,
                "large_straight": 40 if large else 0, "yahtzee": 50 if counts == [5] else 0,
                "chance": total}[box]
    four = [f for f, n in Counter(dice).items() if n == 4]
    return {"plus": total, "minus": total, "four_kind": 40 + total if counts[-1] >= 4 else 0,
            "full_house": 30 + total if counts == [2, 3] else 0, "small_straight": 45 if small else 0,
            "large_straight": 50 if large else 0, "yahtzee": 50 + total if counts == [5] else 0,
            "rigole": 50 if four and four[0] + sum(f for f in dice if f != four[0]) == 7 else 0,
            }[box]


def _utility(variant: str, box: str, points: int, upper_open: bool) -> float:
    """How good it is to write ``points`` in ``box`` now, compared with keeping it open."""
    par = (_YAHTZEE_PAR if variant == "yahtzee" else _YAMS_PAR)[box]
    value = -points if box == "minus" else points
    if box in UPPER and upper_open:
        value += _BONUS_WEIGHT * (points - 3 * (UPPER.index(box) + 1))
    return value - par


@lru_cache(maxsize=64)
def _tables(variant: str, open_boxes: tuple[str, ...], upper_open: bool, joker_bonus: bool) \
        -> tuple[dict[tuple[int, ...], float], dict[tuple[int, ...], float]]:
    """Expected utility of each keep with one reroll left (``ek1``) and with two (``ek2``)."""
    v0 = []
    for dice in _ALL_DICE:
        best = max(_utility(variant, box, _points(variant, box, dice), upper_open) for box in open_boxes)
        if joker_bonus and len(set(dice)) == 1:
            best += 100
        v0.append(best)
    ek1 = {keep: sum(p * v0[i] for i, p in outs) for keep, outs in _OUTCOMES.items()}
    v1 = [max(ek1[k] for k in subs) for subs in _SUBKEEPS]
    ek2 = {keep: sum(p * v1[i] for i, p in outs) for keep, outs in _OUTCOMES.items()}
    return ek1, ek2


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action in ``legal_actions``."""
    obs = observation.yahtzee
    variant = obs.variant
    card = obs.cards[obs.current_player]
    filled = {box.name: box.score for box in card.boxes if box.filled}
    open_boxes = tuple(box.name for box in card.boxes if not box.filled)
    upper_open = any(box in open_boxes for box in UPPER) and (variant == "yams" or card.upper_bonus == 0)
    joker_bonus = variant == "yahtzee" and filled.get("yahtzee") == 50
    dice = tuple(sorted(obs.dice))
    ek1, ek2 = _tables(variant, open_boxes, upper_open, joker_bonus)
    best_index, best_value = 0, float("-inf")
    for index, action in enumerate(legal_actions):
        move = action.yahtzee
        if move.WhichOneof("kind") == "score":
            value = _utility(variant, move.score.box, move.score.points, upper_open) + move.score.bonus
        else:
            kept = list(dice)
            for face in move.reroll.dice:
                kept.remove(face)
            value = (ek2 if obs.rerolls_left == 2 else ek1)[tuple(kept)] - 1e-9
        if value > best_value:
            best_index, best_value = index, value
    return best_index
