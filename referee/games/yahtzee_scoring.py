"""Pure scoring helpers for Yahtzee and Yams (docs/rules/yahtzee.md).

Everything here is a function of ``(variant, dice, card)``: no state, no randomness.
The engine (:mod:`referee.games.yahtzee`) re-exports the public functions; its module
docstring lists the rule decisions these functions implement.

Glossary:

*dice*
    Five ints 1..6 in any order (results are the same for every order).
*card*
    A mapping ``box name -> score or None``; a missing box or ``None`` means empty.
*upper boxes*
    ``ones`` .. ``sixes``; every other box is a *lower* box.

>>> score_box("yahtzee", "threes", (1, 3, 3, 3, 6))
9
>>> score_box("yams", "full_house", (2, 2, 5, 5, 5))
49
>>> card_total("yahtzee", {"sixes": 30, "fives": 25, "fours": 8, "chance": 20})
118
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import cache
from itertools import product
from typing import Final

Dice = tuple[int, ...]
"""Five die faces, sorted ascending once they went through :func:`check_dice`."""
Card = Mapping[str, "int | None"]
"""A scorecard: box name -> score, ``None`` (or a missing key) for an empty box."""

VARIANTS: Final = ("yahtzee", "yams")
UPPER_BOXES: Final = ("ones", "twos", "threes", "fours", "fives", "sixes")
"""Box ``UPPER_BOXES[f - 1]`` counts the dice showing face ``f``."""
YAHTZEE_BOXES: Final = (*UPPER_BOXES, "three_kind", "four_kind", "full_house", "small_straight",
                        "large_straight", "yahtzee", "chance")
YAMS_BOXES: Final = (*UPPER_BOXES, "plus", "minus", "four_kind", "full_house", "small_straight",
                     "large_straight", "yahtzee", "rigole")
ALL_BOXES: Final = frozenset(YAHTZEE_BOXES) | frozenset(YAMS_BOXES)

NUM_DICE: Final = 5
YAHTZEE_BONUS: Final = 100
"""Added for each further Yahtzee once the Yahtzee box holds 50 (Yahtzee variant only)."""

_SMALL_RUNS: Final = (frozenset({1, 2, 3, 4}), frozenset({2, 3, 4, 5}), frozenset({3, 4, 5, 6}))
_LARGE_RUNS: Final = (frozenset({1, 2, 3, 4, 5}), frozenset({2, 3, 4, 5, 6}))


def boxes(variant: str) -> tuple[str, ...]:
    """The boxes of ``variant`` in card order.

    :raises ValueError: for an unknown variant.
    """
    if variant == "yahtzee":
        return YAHTZEE_BOXES
    if variant == "yams":
        return YAMS_BOXES
    raise ValueError(f"unknown variant {variant!r} (variants: {', '.join(VARIANTS)})")


def check_dice(dice: Iterable[int]) -> Dice:
    """``dice`` as a sorted tuple of five faces.

    :raises ValueError: unless ``dice`` is exactly five ints from 1 to 6.
    """
    try:
        faces = tuple(dice)
    except TypeError:
        raise ValueError(f"dice must be a sequence of {NUM_DICE} ints, got {dice!r}") from None
    if len(faces) != NUM_DICE:
        raise ValueError(f"expected {NUM_DICE} dice, got {len(faces)}: {faces!r}")
    for face in faces:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= 6:
            raise ValueError(f"a die shows an int from 1 to 6, got {face!r} in {faces!r}")
    return tuple(sorted(faces))


def check_card(variant: str, card: Card | None) -> dict[str, int | None]:
    """``card`` completed with every box of ``variant`` (empty ones as ``None``).

    :raises ValueError: for a box ``variant`` does not have, or a score that is not an int
        (scores are never negative).
    """
    names = boxes(variant)
    full: dict[str, int | None] = dict.fromkeys(names)
    for box, score in (card or {}).items():
        if box not in full:
            raise ValueError(f"{variant} has no box {box!r} (boxes: {', '.join(names)})")
        if score is not None and (isinstance(score, bool) or not isinstance(score, int) or score < 0):
            raise ValueError(f"box {box!r} must hold None or an int >= 0, got {score!r}")
        full[box] = score
    return full


def is_yahtzee(dice: Sequence[int]) -> bool:
    """Five equal dice."""
    return len(set(dice)) == 1


def joker_applies(variant: str, dice: Iterable[int], card: Card | None = None) -> bool:
    """Whether the joker rule is in force: Yahtzee variant, five equal dice and 50 in the
    Yahtzee box (a 0 there switches it off; Yams has no joker rule).

    :raises ValueError: for an unknown variant, malformed dice or card.
    """
    faces = check_dice(dice)
    filled = check_card(variant, card)
    return variant == "yahtzee" and is_yahtzee(faces) and filled["yahtzee"] == 50


def score_box(variant: str, box: str, dice: Iterable[int], card: Card | None = None) -> int:
    """What filling ``box`` with ``dice`` writes in it.

    ``card`` matters only for the joker rule (Yahtzee variant, five equal dice, 50 in the
    Yahtzee box): then full house, small and large straight score their full value.  The
    joker's constraint on *which* box may be filled is not checked here (see
    :func:`fillable_boxes`), and the +100 bonus is separate (:func:`yahtzee_bonus`).

    >>> score_box("yahtzee", "four_kind", (5, 5, 5, 4, 5))
    24
    >>> score_box("yahtzee", "full_house", (4, 4, 4, 4, 4), {"yahtzee": 50})
    25
    >>> score_box("yams", "rigole", (5, 5, 5, 5, 2))
    50

    :raises ValueError: for an unknown variant or box, malformed dice or card.
    """
    names = boxes(variant)
    if box not in names:
        raise ValueError(f"{variant} has no box {box!r} (boxes: {', '.join(names)})")
    faces = check_dice(dice)
    joker = joker_applies(variant, faces, card)
    total = sum(faces)
    counts = sorted(Counter(faces).values())
    present = set(faces)
    if box in UPPER_BOXES:
        face = UPPER_BOXES.index(box) + 1
        return face * faces.count(face)
    kind3, kind4, five = counts[-1] >= 3, counts[-1] >= 4, counts[-1] == 5
    full = counts == [2, 3]
    small = any(run <= present for run in _SMALL_RUNS)
    large = any(run == present for run in _LARGE_RUNS)
    if variant == "yahtzee":
        values = {
            "three_kind": total if kind3 else 0,
            "four_kind": total if kind4 else 0,
            "full_house": 25 if full or joker else 0,
            "small_straight": 30 if small or joker else 0,
            "large_straight": 40 if large or joker else 0,
            "yahtzee": 50 if five else 0,
            "chance": total,
        }
    else:
        four_face = next((f for f, n in Counter(faces).items() if n == 4), None)
        rigole = four_face is not None and four_face + sum(f for f in faces if f != four_face) == 7
        values = {
            "plus": total,
            "minus": total,
            "four_kind": 40 + total if kind4 else 0,
            "full_house": 30 + total if full else 0,
            "small_straight": 45 if small else 0,
            "large_straight": 50 if large else 0,
            "yahtzee": 50 + total if five else 0,
            "rigole": 50 if rigole else 0,
        }
    return values[box]


def yahtzee_bonus(variant: str, dice: Iterable[int], card: Card | None = None) -> int:
    """The bonus a roll earns on top of its box: 100 for five equal dice when the Yahtzee box
    already holds 50 (Yahtzee variant only), else 0.

    >>> yahtzee_bonus("yahtzee", (5, 5, 5, 5, 5), {"yahtzee": 50})
    100
    >>> yahtzee_bonus("yahtzee", (5, 5, 5, 5, 5), {"yahtzee": 0})
    0

    :raises ValueError: for an unknown variant, malformed dice or card.
    """
    return YAHTZEE_BONUS if joker_applies(variant, dice, card) else 0


def fillable_boxes(variant: str, dice: Iterable[int], card: Card | None = None) -> tuple[str, ...]:
    """The boxes that may be filled with ``dice`` now, in card order.

    Normally every empty box.  Under the joker rule: the upper box of the dice's face if it
    is empty; else every empty lower box; else every empty upper box (scoring 0).

    :raises ValueError: for an unknown variant, malformed dice or card.
    """
    faces = check_dice(dice)
    filled = check_card(variant, card)
    empty = tuple(box for box in boxes(variant) if filled[box] is None)
    if not joker_applies(variant, faces, filled):
        return empty
    own = UPPER_BOXES[faces[0] - 1]
    if own in empty:
        return (own,)
    lower = tuple(box for box in empty if box not in UPPER_BOXES)
    return lower or empty


def upper_total(card: Card) -> int:
    """The sum of the filled upper boxes."""
    return sum(card.get(box) or 0 for box in UPPER_BOXES)


def upper_bonus(variant: str, card: Card) -> int:
    """Yahtzee: 35 once the upper boxes total 63 or more.  Yams: 30 + (total - 60) once they
    total 60 or more.  Computed from the boxes filled so far.

    >>> upper_bonus("yahtzee", {"sixes": 30, "fives": 25, "fours": 8})
    35
    >>> upper_bonus("yams", {"sixes": 30, "fives": 25, "fours": 8})
    33

    :raises ValueError: for an unknown variant or malformed card.
    """
    upper = upper_total(check_card(variant, card))
    if variant == "yahtzee":
        return 35 if upper >= 63 else 0
    return 30 + (upper - 60) if upper >= 60 else 0


def delta(variant: str, card: Card) -> int:
    """Yams Delta: Plus - Minus (may be negative), once both are filled; 0 before that and
    always 0 in Yahtzee.

    :raises ValueError: for an unknown variant or malformed card.
    """
    filled = check_card(variant, card)
    if variant != "yams" or filled["plus"] is None or filled["minus"] is None:
        return 0
    return filled["plus"] - filled["minus"]


def card_total(variant: str, card: Card, *, yahtzee_bonus: int = 0) -> int:
    """A card's total: every counted box, the upper bonus, Yams Delta and the Yahtzee bonus
    points ``yahtzee_bonus`` (a multiple of 100; always 0 in Yams).

    Yams Plus and Minus count only through Delta.  Empty boxes count 0, so this is also the
    running total of a card being filled.

    :raises ValueError: for an unknown variant, malformed card or bonus.
    """
    filled = check_card(variant, card)
    if yahtzee_bonus < 0 or yahtzee_bonus % YAHTZEE_BONUS or (variant == "yams" and yahtzee_bonus):
        raise ValueError(f"a {variant} card cannot carry a Yahtzee bonus of {yahtzee_bonus}")
    return checked_card_total(variant, filled, yahtzee_bonus)


def checked_card_total(variant: str, filled: Mapping[str, int | None], yahtzee_bonus: int = 0) -> int:
    """:func:`card_total` of a card known to be well formed (every box of ``variant``, as the
    engine keeps them): the engine's per-decision path, without re-checking its own card."""
    upper = 0
    counted = 0
    for box, score in filled.items():
        if score is None:
            continue
        if box in _UPPER_SET:
            upper += score
        if box not in ("plus", "minus"):
            counted += score
    if variant == "yahtzee":
        bonus = 35 if upper >= 63 else 0
        spread = 0
    else:
        bonus = 30 + (upper - 60) if upper >= 60 else 0
        plus, minus = filled["plus"], filled["minus"]
        spread = 0 if plus is None or minus is None else plus - minus
    return counted + bonus + spread + yahtzee_bonus


_UPPER_SET: Final = frozenset(UPPER_BOXES)


@cache
def dice_table(variant: str, dice: Dice) -> tuple[dict[str, int], dict[str, int], tuple[Dice, ...]]:
    """Everything about one sorted roll that does not depend on the card, computed once by
    the checked functions above (there are only 252 rolls): each box's score, each box's score
    under the joker rule, and :func:`reroll_choices`.  The engine's legal actions read it."""
    names = boxes(variant)
    plain = {box: score_box(variant, box, dice) for box in names}
    joker = {box: score_box(variant, box, dice, {"yahtzee": 50}) for box in names}
    return plain, joker, tuple(reroll_choices(dice))


def reroll_choices(dice: Sequence[int]) -> list[Dice]:
    """Every distinct non-empty sub-multiset of ``dice`` (sorted tuples), fewest dice first,
    then in ascending order.

    >>> reroll_choices((2, 2, 6))
    [(2,), (6,), (2, 2), (2, 6), (2, 2, 6)]
    """
    counts = sorted(Counter(dice).items())
    choices = []
    for taken in product(*(range(n + 1) for _, n in counts)):
        subset = tuple(face for (face, _), k in zip(counts, taken, strict=True) for _ in range(k))
        if subset:
            choices.append(subset)
    return sorted(choices, key=lambda subset: (len(subset), subset))
