"""Solitaire-optimal Yahtzee and Yams: a dynamic programme over scorecard states.

The policy maximises the expected final score of one card (docs/rules/yahtzee.md).  It needs
only numpy and the arrays of a :class:`Rules` (every box's points for each of the 252 sorted
dice, the joker rule's fillable boxes, the upper bonus).  It is the one solver of the
repository, and it imports nothing of arena or the referee, so whoever holds the arrays can
use it: the platform's luck estimator (:mod:`referee.luck.yahtzee_tables` derives the arrays
from the engine's scoring functions and caches the solved tables), and a bot that writes
the arrays from the rules text and solves in its own build step (bots import ``arena``
already, for its SDK).

**State** between turns: ``(filled, upper, flag)``.

- ``filled``: the bit mask of filled boxes (bit ``i`` is box ``i`` in card order; the six
  upper boxes are bits 0-5 in both variants).
- ``upper``: the upper total capped at :attr:`Rules.cap`, beyond which the upper bonus
  grows linearly (slope 0 or 1), so the exact total no longer changes any future reward.
  Yahtzee: cap 63 (35 once the total reaches 63, never more).  Yams: cap 60, because the
  bonus is ``30 + (upper - 60)`` from 60 on, i.e. every upper point past 60 simply counts
  twice; the doubled part is paid as an immediate reward, so 61 values suffice.
- ``flag`` (Yahtzee only): whether the Yahtzee box holds 50, which switches on the joker
  rule and the +100 bonus.  A filled Yahtzee box holding 0 is ``flag = 0``.

Yams Plus, Minus and Delta need no extra state: Delta = Plus - Minus counts once both are
filled, and at the end of a game every box is filled, so the final score gains exactly
``+Plus - Minus`` whatever the order (docs/rules/yahtzee.md sets no "Plus above Minus" condition).  Filling
Plus is paid as ``+sum`` and Minus as ``-sum`` (:attr:`Rules.sign`).

**Rewards** are paid when a box is filled: its points times its sign, the change of the upper
bonus, and the Yahtzee bonus; the value of a state is the expected sum of the rewards still
to come.  Over the reachable states (an upper total is reachable only from the filled upper
boxes) that is about 0.5 million states per variant, each solved by one *turn table*:
every final dice's best box (:func:`final_values`), then two levels of "best keep, expected
over the rerolled dice" as two matrix products over the 462 keeps, vectorised over a batch
of states.
"""

from __future__ import annotations

from collections import Counter
import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass, fields
from itertools import combinations_with_replacement
from math import factorial
from pathlib import Path
from typing import Final

import numpy as np
from numpy.typing import NDArray

FORMAT: Final = 1
"""Bumped whenever the table layout or the meaning of a state changes."""
NUM_DICE: Final = 5
DICE: Final = tuple(combinations_with_replacement(range(1, 7), NUM_DICE))
"""The 252 sorted results of five dice; a dice index is a position in this tuple."""
KEEPS: Final = tuple(k for n in range(NUM_DICE + 1) for k in combinations_with_replacement(range(1, 7), n))
"""The 462 sorted multisets of 0 to 5 kept dice, fewest first (the last 252 are :data:`DICE`)."""
KEEP_INDEX: Final = {keep: i for i, keep in enumerate(KEEPS)}
DICE_INDEX: Final = {dice: i for i, dice in enumerate(DICE)}
YAHTZEE_DICE: Final = np.array([DICE_INDEX[(f,) * NUM_DICE] for f in range(1, 7)])
"""Dice index of five equal faces 1..6."""
BATCH: Final = 2048
"""States solved together: bounds the working memory to a few hundred MB."""


def _ways(faces: tuple[int, ...]) -> int:
    ways = factorial(len(faces))
    for n in Counter(faces).values():
        ways //= factorial(n)
    return ways


def roll_matrix() -> NDArray[np.float64]:
    """``[k, d]``: probability of dice ``d`` after keeping ``k`` and rolling the others (the
    definition :func:`keep_expectations` computes faster)."""
    matrix = np.zeros((len(KEEPS), len(DICE)))
    for k, keep in enumerate(KEEPS):
        rolled = NUM_DICE - len(keep)
        for faces in combinations_with_replacement(range(1, 7), rolled):
            matrix[k, DICE_INDEX[tuple(sorted(keep + faces))]] += _ways(faces) / 6 ** rolled
    return matrix


@functools.cache
def _dense_roll_matrix() -> NDArray[np.float64]:
    return roll_matrix()


def _children() -> NDArray[np.intp]:
    """``CHILDREN[k]``: the keeps one die larger than ``k``, one per face (``k`` for 5 dice)."""
    return np.array([[KEEP_INDEX[tuple(sorted(keep + (f,)))] if len(keep) < NUM_DICE else k for f in range(1, 7)]
                     for k, keep in enumerate(KEEPS)], dtype=np.intp)


def _parents() -> NDArray[np.intp]:
    """``PARENTS[k]``: the keeps one die smaller than ``k`` (padded by repeating the first)."""
    table = np.zeros((len(KEEPS), NUM_DICE), dtype=np.intp)
    for k, keep in enumerate(KEEPS):
        smaller = [KEEP_INDEX[keep[:i] + keep[i + 1:]] for i in range(len(keep)) if i == 0 or keep[i] != keep[i - 1]]
        smaller = smaller or [k]
        table[k] = smaller + [smaller[0]] * (NUM_DICE - len(smaller))
    return table


def _sub_keeps() -> NDArray[np.intp]:
    """``SUB_KEEPS[d]``: every keep inside dice ``d`` (padded with ``d`` itself, kept whole)."""
    table = np.zeros((len(DICE), 32), dtype=np.intp)
    for d, dice in enumerate(DICE):
        subs = sorted({tuple(sorted(dice[i] for i in range(NUM_DICE) if m >> i & 1)) for m in range(32)},
                      key=lambda keep: (-len(keep), keep))
        row = [KEEP_INDEX[keep] for keep in subs]
        table[d] = row + [row[0]] * (32 - len(row))
    return table


CHILDREN: Final = _children()
PARENTS: Final = _parents()
SUB_KEEPS: Final = _sub_keeps()
"""First column: the whole dice (no reroll), so that ties go to not rerolling."""
KEEP_SIZE: Final = np.array([len(k) for k in KEEPS])
KEEP_FACES: Final = np.array([k + (0,) * (NUM_DICE - len(k)) for k in KEEPS])
_SIZE_BOUNDS: Final = np.searchsorted(KEEP_SIZE, np.arange(NUM_DICE + 2))
_CODE: Final = np.zeros(7 ** NUM_DICE, dtype=np.intp)
for _d, _dice in enumerate(DICE):
    _CODE[sum(f * 7 ** i for i, f in enumerate(_dice))] = _d


def dice_index(rolls: NDArray[np.int64]) -> NDArray[np.intp]:
    """The dice index of each row of ``rolls`` (shape ``(n, 5)``, faces 1..6, any order)."""
    ordered = np.sort(rolls, axis=1)
    return _CODE[ordered @ (7 ** np.arange(NUM_DICE))]


@dataclass(frozen=True, eq=False)
class Rules:
    """A variant's scoring as arrays (:func:`referee.luck.yahtzee_tables.engine_rules`
    derives them from the engine).  Box ``b`` is the ``b``-th box in card order."""

    variant: str
    boxes: tuple[str, ...]
    score: NDArray[np.int64]
    """``score[d, b]``: the points box ``b`` takes with dice ``d`` (no joker rule)."""
    sign: NDArray[np.int64]
    """+1 for a box that counts, -1 for Yams Minus (it counts only through Delta)."""
    upper_face: NDArray[np.int64]
    """The face an upper box counts (1..6), 0 for a lower box."""
    cap: int
    """Upper totals from ``cap`` on are one state (the bonus is linear beyond it)."""
    bonus: NDArray[np.int64]
    """``bonus[t]``: the upper bonus for an upper total ``t`` (every total, 0 to 105)."""
    joker: bool
    """Whether the joker rule exists (Yahtzee): then a state carries the 50-in-Yahtzee flag."""
    yahtzee_box: int
    joker_score: NDArray[np.int64]
    """``joker_score[f - 1, b]``: what box ``b`` takes with five ``f`` under the joker rule."""
    joker_fillable: NDArray[np.int64]
    """``joker_fillable[f - 1, filled]``: bit mask of the boxes five ``f`` may fill under the
    joker rule when ``filled`` are filled (shape ``(6, 0)`` without the rule)."""
    joker_bonus: int
    """Added to a roll that meets the joker rule with 50 in the Yahtzee box (100)."""
    joker_when_scratched: bool = False
    """The official Hasbro rule, *not* arena's (docs/rules/yahtzee.md): the joker rule (without the +100) also
    applies once the Yahtzee box holds 0.  Only for checking the solver against published
    figures; the engine and the luck estimator never set it."""

    @property
    def flags(self) -> int:
        return 2 if self.joker else 1

    @property
    def num_states(self) -> int:
        return (1 << len(self.boxes)) * (self.cap + 1) * self.flags

    def index(self, filled: NDArray[np.int64] | int, upper: NDArray[np.int64] | int,
              flag: NDArray[np.int64] | int) -> NDArray[np.int64] | int:
        """The position of a state in :attr:`Table.values` (``upper`` already capped)."""
        return (filled * (self.cap + 1) + upper) * self.flags + flag

    def states_with_open(self, open_boxes: int) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        """Every reachable state with ``open_boxes`` boxes still empty, as three arrays."""
        count = len(self.boxes)
        reach = self.reachable_upper()
        masks, uppers, flags = [], [], []
        for filled in range(1 << count):
            if count - filled.bit_count() != open_boxes:
                continue
            totals = np.flatnonzero(reach[filled & 63])
            choices = (0, 1) if self.joker and filled >> self.yahtzee_box & 1 else (0,)
            for flag in choices:
                masks.append(np.full(len(totals), filled))
                uppers.append(totals)
                flags.append(np.full(len(totals), flag))
        if not masks:
            return (np.zeros(0, np.int64),) * 3  # type: ignore[return-value]
        return np.concatenate(masks), np.concatenate(uppers), np.concatenate(flags)

    def reachable_upper(self) -> NDArray[np.bool_]:
        """``reach[upper_filled, t]``: whether capped total ``t`` can follow from those boxes."""
        reach = np.zeros((64, self.cap + 1), dtype=bool)
        for mask in range(64):
            totals = {0}
            for face in range(1, 7):
                if mask >> (face - 1) & 1:
                    totals = {min(self.cap, t + face * n) for t in totals for n in range(NUM_DICE + 1)}
            reach[mask, sorted(totals)] = True
        return reach


def rules_digest(rules: Rules) -> str:
    """A digest of everything the solver reads from ``rules`` and of :data:`FORMAT`: two
    tables with the same digest hold the same values, laid out the same way."""
    digest = hashlib.sha256(f"format {FORMAT} {rules.variant} {rules.boxes} {rules.cap} {rules.joker} "
                            f"{rules.yahtzee_box} {rules.joker_bonus} {rules.joker_when_scratched}".encode())
    for array in (rules.score, rules.sign, rules.upper_face, rules.bonus, rules.joker_score, rules.joker_fillable):
        digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return digest.hexdigest()[:16]


def box_values(rules: Rules, values: NDArray[np.float64], filled: NDArray[np.int64], upper: NDArray[np.int64],
               flag: NDArray[np.int64], box: int, points: NDArray[np.int64]) -> NDArray[np.float64]:
    """Reward plus the next state's value for filling ``box`` with ``points``.

    ``filled``, ``upper``, ``flag`` have shape ``(S,)``; ``points`` is ``(D, 1)`` (``D``
    dice, the same for every state) or ``(1, S)`` (one dice per state); the result is
    ``(D, S)`` (or ``(1, S)``), ``-inf`` where ``box`` is filled.  Arrays are dice-major so
    that the keep tables below gather whole rows.  The joker rule is :func:`joker_values`'.
    """
    if points.shape[1] == 1 and points.shape[0] > 1:  # few distinct points: solve those only
        distinct, inverse = np.unique(points[:, 0], return_inverse=True)
        return _box_values(rules, values, filled, upper, flag, box, distinct[:, None])[inverse]
    return _box_values(rules, values, filled, upper, flag, box, points)


def _box_values(rules: Rules, values: NDArray[np.float64], filled: NDArray[np.int64], upper: NDArray[np.int64],
                flag: NDArray[np.int64], box: int, points: NDArray[np.int64]) -> NDArray[np.float64]:
    filled_next = filled | (1 << box)
    if rules.upper_face[box]:
        total = upper + points
        reward = points + rules.bonus[total] - rules.bonus[upper]
        following = rules.index(filled_next, np.minimum(total, rules.cap), flag)
    else:
        reward = rules.sign[box] * points
        next_flag = (points == 50).astype(np.int64) if rules.joker and box == rules.yahtzee_box else flag
        following = rules.index(filled_next, upper, next_flag)
    result = np.array(np.broadcast_to(reward + values[following], (points.shape[0], len(filled))), dtype=np.float64)
    result[:, (filled >> box & 1).astype(bool)] = -np.inf
    return result


def joker_values(rules: Rules, values: NDArray[np.float64], filled: NDArray[np.int64], upper: NDArray[np.int64],
                 flag: NDArray[np.int64], faces: NDArray[np.int64]) -> NDArray[np.float64]:
    """``(boxes, len(faces), S)``: each box's value for five of ``faces + 1`` under the joker
    rule (for states where it applies), ``-inf`` where the rule forbids the box."""
    result = np.empty((len(rules.boxes), len(faces), len(filled)))
    allowed = rules.joker_fillable[faces[:, None], filled[None, :]]
    for box in range(len(rules.boxes)):
        value = box_values(rules, values, filled, upper, flag, box, rules.joker_score[faces, box][:, None])
        result[box] = np.where(allowed >> box & 1, value + rules.joker_bonus * flag, -np.inf)
    return result


def final_values(rules: Rules, values: NDArray[np.float64], filled: NDArray[np.int64], upper: NDArray[np.int64],
                 flag: NDArray[np.int64]) -> NDArray[np.float64]:
    """``(252, S)``: each final dice's value when the best fillable box is filled."""
    if len(filled) == 1:
        return _final_values_one(rules, values, int(filled[0]), int(upper[0]), int(flag[0]))[:, None]
    best = np.full((len(DICE), len(filled)), -np.inf)
    for box in range(len(rules.boxes)):
        np.maximum(best, box_values(rules, values, filled, upper, flag, box, rules.score[:, box, None]), out=best)
    jokers = np.flatnonzero(joker_applies(rules, filled, flag))
    if len(jokers):
        best[np.ix_(YAHTZEE_DICE, jokers)] = joker_values(rules, values, filled[jokers], upper[jokers], flag[jokers],
                                                         np.arange(6)).max(axis=0)
    return best


def _final_values_one(rules: Rules, values: NDArray[np.float64], filled: int, upper: int,
                      flag: int) -> NDArray[np.float64]:
    """:func:`final_values` of one state, every box at once (the same sums, 20 times faster
    than box by box for one state)."""
    best = _all_box_values(rules, values, filled, upper, flag, rules.score).max(axis=1)
    if joker_applies(rules, np.array([filled]), np.array([flag]))[0]:
        jokers = _all_box_values(rules, values, filled, upper, flag, rules.joker_score) + rules.joker_bonus * flag
        allowed = rules.joker_fillable[:, filled, None] >> np.arange(len(rules.boxes)) & 1
        best[YAHTZEE_DICE] = np.where(allowed.astype(bool), jokers, -np.inf).max(axis=1)
    return best


def _all_box_values(rules: Rules, values: NDArray[np.float64], filled: int, upper: int, flag: int,
                    points: NDArray[np.int64]) -> NDArray[np.float64]:
    """``(D, boxes)``: reward plus next value of each box for each row of ``points``, ``-inf``
    for the filled boxes (:func:`box_values` of one state, for every box)."""
    is_upper = rules.upper_face > 0
    boxes = np.arange(len(rules.boxes))
    total = upper + points * is_upper
    reward = np.where(is_upper, points + rules.bonus[total] - rules.bonus[upper], rules.sign * points)
    next_upper = np.where(is_upper, np.minimum(total, rules.cap), upper)
    next_flag = np.full(points.shape, flag)
    if rules.joker:
        next_flag[:, rules.yahtzee_box] = points[:, rules.yahtzee_box] == 50
    result = reward + values[rules.index(filled | (1 << boxes), next_upper, next_flag)]
    result[:, (filled >> boxes & 1).astype(bool)] = -np.inf
    return result


def keep_expectations(final: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(462, S)`` from ``(252, S)``: each keep's expected value when the other dice are
    rolled and then worth ``final``.  A keep of ``n`` dice is the mean of its six keeps of
    ``n + 1`` dice (one more die, each face alike): 6 row sums per keep instead of a dense
    462 x 252 product.  For one state (a bot's decision, the luck estimator) the dense product
    is faster: the same sums in another order."""
    if final.shape[1] == 1:
        return _dense_roll_matrix() @ final
    expected = np.empty((len(KEEPS), final.shape[1]))
    expected[-len(DICE):] = final
    for size in range(NUM_DICE - 1, -1, -1):
        lo, hi = _SIZE_BOUNDS[size], _SIZE_BOUNDS[size + 1]
        total = expected[CHILDREN[lo:hi, 0]]
        for face in range(1, 6):
            total += expected[CHILDREN[lo:hi, face]]
        expected[lo:hi] = total / 6
    return expected


def joker_applies(rules: Rules, filled: NDArray[np.int64], flag: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Per state, whether five equal dice would meet the joker rule."""
    if not rules.joker:
        return np.zeros(len(filled), dtype=bool)
    if rules.joker_when_scratched:
        return (filled >> rules.yahtzee_box & 1).astype(bool)
    return flag.astype(bool)


def best_keep_values(expected: NDArray[np.float64]) -> NDArray[np.float64]:
    """``(252, S)`` from ``(462, S)``: for each dice, the best of the keeps inside it
    (computed for every keep from the keeps one die smaller; for one state, the maximum over
    :data:`SUB_KEEPS` directly)."""
    if expected.shape[1] == 1:
        return expected[SUB_KEEPS].max(axis=1)
    best = expected.copy()
    for size in range(1, NUM_DICE + 1):
        lo, hi = _SIZE_BOUNDS[size], _SIZE_BOUNDS[size + 1]
        for parent in range(size):  # a keep of n dice has at most n distinct smaller ones
            np.maximum(best[lo:hi], best[PARENTS[lo:hi, parent]], out=best[lo:hi])
    return best[-len(DICE):]


@dataclass
class TurnTable:
    """A batch of ``S`` states' turns: ``final`` (252, S) as :func:`final_values`; ``keep1``
    and ``keep2`` (462, S) the expected value of each keep with one or two rerolls left
    (rerolling the other dice); ``expected`` (S,) the turn's value before its first roll."""

    final: NDArray[np.float64]
    keep1: NDArray[np.float64]
    keep2: NDArray[np.float64]
    expected: NDArray[np.float64]


def turn_table(rules: Rules, values: NDArray[np.float64], filled: NDArray[np.int64], upper: NDArray[np.int64],
               flag: NDArray[np.int64]) -> TurnTable:
    final = final_values(rules, values, filled, upper, flag)
    keep1 = keep_expectations(final)
    keep2 = keep_expectations(best_keep_values(keep1))
    return TurnTable(final, keep1, keep2, keep_expectations(best_keep_values(keep2))[0])


Progress = Callable[[int], None]
"""Told how many more states are solved."""


def solve(rules: Rules, *, open_boxes: int | None = None, progress: Progress | None = None) -> NDArray[np.float64]:
    """The value of every reachable state with at most ``open_boxes`` empty boxes (default:
    all); other entries are 0.  States are solved from the fullest cards back."""
    values = np.zeros(rules.num_states)
    for level in range(1, (len(rules.boxes) if open_boxes is None else open_boxes) + 1):
        filled, upper, flag = rules.states_with_open(level)
        for start in range(0, len(filled), BATCH):
            part = slice(start, start + BATCH)
            table = turn_table(rules, values, filled[part], upper[part], flag[part])
            values[rules.index(filled[part], upper[part], flag[part])] = table.expected
            if progress:
                progress(len(table.expected))
    return values


def count_states(rules: Rules) -> int:
    """Reachable states with at least one open box (the work :func:`solve` does)."""
    return sum(len(rules.states_with_open(level)[0]) for level in range(1, len(rules.boxes) + 1))


# --- the saved table ------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Table:
    """The rules of a variant, the digest of those rules, and the value of every
    state; enough to play (:func:`choose`) without the referee."""

    rules: Rules
    digest: str
    values: NDArray[np.float64]

    @property
    def expected_score(self) -> float:
        """The optimal expected final score of a fresh card."""
        return float(self.values[self.rules.index(0, 0, 0)])

    def save(self, path: Path) -> None:
        """Write to ``path`` atomically (a uniquely named sibling, then a rename)."""
        arrays = {f.name: getattr(self.rules, f.name) for f in fields(Rules)}
        arrays["boxes"] = np.array(self.rules.boxes)
        temporary = path.with_name(f".{path.name}.{np.random.default_rng().integers(1 << 62):x}.tmp")
        with open(temporary, "wb") as handle:
            np.savez(handle, format=FORMAT, digest=self.digest, values=self.values, **arrays)
        temporary.replace(path)

    @classmethod
    def load(cls, path: Path) -> Table:
        """Read a table :meth:`save` wrote.

        :raises ValueError: if the file is not such a table (or of another format).
        :raises OSError: if it cannot be read.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                if int(data["format"]) != FORMAT:
                    raise ValueError(f"{path}: table format {int(data['format'])}, expected {FORMAT}")
                kwargs: dict[str, object] = {}
                for f in fields(Rules):
                    value = data[f.name]
                    kwargs[f.name] = value.item() if value.ndim == 0 else value
                kwargs["boxes"] = tuple(str(b) for b in data["boxes"])
                kwargs["cap"], kwargs["yahtzee_box"], kwargs["joker_bonus"] = (
                    int(kwargs["cap"]), int(kwargs["yahtzee_box"]), int(kwargs["joker_bonus"]))  # type: ignore[call-overload]
                kwargs["joker"], kwargs["variant"] = bool(kwargs["joker"]), str(kwargs["variant"])
                return cls(Rules(**kwargs), str(data["digest"]), data["values"])  # type: ignore[arg-type]
        except (KeyError, EOFError) as error:
            raise ValueError(f"{path} is not a Yahtzee table ({error})") from None


# --- playing ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Position:
    """One card between rolls, as the policy sees it."""

    filled: int
    upper: int
    """Capped upper total."""
    flag: int
    dice: tuple[int, ...]
    rerolls_left: int

    def arrays(self) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
        return np.array([self.filled]), np.array([self.upper]), np.array([self.flag])


def score_values(table: Table, position: Position) -> NDArray[np.float64]:
    """Per box, the value of filling it now with ``position.dice`` (``-inf`` if not allowed)."""
    rules, state = table.rules, position.arrays()
    if joker_applies(rules, state[0], state[2])[0] and len(set(position.dice)) == 1:
        return joker_values(rules, table.values, *state, np.array([position.dice[0] - 1]))[:, 0, 0]
    d = DICE_INDEX[tuple(sorted(position.dice))]
    return np.array([box_values(rules, table.values, *state, box, rules.score[[d], box, None])[0, 0]
                     for box in range(len(rules.boxes))])


@dataclass
class Cards:
    """Finished solitaire cards: ``points[g, b]`` in box ``b`` of game ``g``, and each game's
    Yahtzee bonus points."""

    points: NDArray[np.int64]
    yahtzee_bonus: NDArray[np.int64]

    def totals(self, rules: Rules) -> NDArray[np.int64]:
        """Each card's final score: signed boxes, upper bonus, Yahtzee bonus."""
        upper = self.points[:, rules.upper_face > 0].sum(axis=1)
        return self.points @ rules.sign + rules.bonus[upper] + self.yahtzee_bonus


def simulate(table: Table, games: int, seed: int, *, batch: int = BATCH) -> Cards:
    """``games`` solitaire games played by the table's policy, all of a batch in step (one
    turn table per game and turn), with dice from ``numpy.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    parts = [_play(table, min(batch, games - start), rng) for start in range(0, games, batch)]
    return Cards(np.concatenate([p.points for p in parts]), np.concatenate([p.yahtzee_bonus for p in parts]))


def _play(table: Table, count: int, rng: np.random.Generator) -> Cards:
    rules, values = table.rules, table.values
    games, boxes = np.arange(count), len(rules.boxes)
    filled, upper, flag = (np.zeros(count, np.int64) for _ in range(3))
    points, bonus = np.zeros((count, boxes), np.int64), np.zeros(count, np.int64)
    for _ in range(boxes):
        turn = turn_table(rules, values, filled, upper, flag)
        dice = dice_index(rng.integers(1, 7, (count, NUM_DICE)))
        for keeps in (turn.keep2, turn.keep1):
            options = SUB_KEEPS[dice]
            kept = options[games, np.argmax(keeps[options, games[:, None]], axis=1)]
            fresh = rng.integers(1, 7, (count, NUM_DICE))
            dice = dice_index(np.where(np.arange(NUM_DICE) < KEEP_SIZE[kept][:, None], KEEP_FACES[kept], fresh))
        choices = np.stack([box_values(rules, values, filled, upper, flag, box, rules.score[None, dice, box])[0]
                            for box in range(boxes)])
        written = rules.score[dice]
        jokers = np.flatnonzero(joker_applies(rules, filled, flag) & np.isin(dice, YAHTZEE_DICE))
        faces = np.array(DICE)[dice[jokers], 0] - 1
        if len(jokers):
            choices[:, jokers] = joker_values(rules, values, filled[jokers], upper[jokers], flag[jokers],
                                              np.arange(6))[:, faces, np.arange(len(jokers))]
            written[jokers] = rules.joker_score[faces]
            bonus[jokers] += rules.joker_bonus * flag[jokers]
        box = np.argmax(choices, axis=0)
        scored = written[games, box]
        points[games, box] = scored
        upper = np.where(rules.upper_face[box] > 0, np.minimum(upper + scored, rules.cap), upper)
        if rules.joker:
            flag = np.where(box == rules.yahtzee_box, (scored == 50).astype(np.int64), flag)
        filled |= 1 << box
    return Cards(points, bonus)
