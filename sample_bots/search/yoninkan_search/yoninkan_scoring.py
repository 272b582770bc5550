"""Yoninkan's points and battle verdicts as pure functions (docs/rules/yoninkan.md).

Two things live here, apart from the engine so they can be checked on their own:

- :func:`game_points`: the points of one game from its battle results;
- :func:`judge`: after a trick, whether the battle goes on, stops for the 16 / reverse-16
  question, or ends with a winner and a bonus.

Vocabulary: the *kan* group (関係) holds the trump J and the joker in battle 1, the *mukan*
group (無関係) is the other two players.  A battle result is a pair ``(winner, bonus)``:
``winner`` ``"kan"`` or ``"mukan"``, ``bonus`` ``None`` or one of :data:`BONUSES`.

>>> game_points([("kan", "skunk"), ("kan", None), ("kan", None)])
10
>>> game_points([("kan", "skunk"), ("mukan", "reverse_skunk")])
-8
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

KAN: Final = "kan"
MUKAN: Final = "mukan"

KAN_NEEDS: Final = (9, 8, 9)
"""Honours the kan group needs to win battles 1, 2, 3."""
MUKAN_NEEDS: Final = (8, 9, 8)
"""Honours the mukan group needs to win battles 1, 2, 3 (always 17 minus kan's need)."""
HONOURS: Final = 16
"""A, K, Q, J of each suit."""

ADDED_BONUSES: Final[dict[str, int]] = {
    "skunk": 2,
    "declared_skunk": 8,
    "declared_reverse_skunk_failed": 32,
    "16": 16,
    "declared_16": 32,
    "reverse_16_failed": 64,
    "declared_reverse_16_failed": 128,
}
"""Bonuses of kan wins, per kan player: added to the game's other points (they accumulate)."""

FIXED_BONUSES: Final[dict[str, int]] = {
    "declared_skunk_failed": -16,
    "reverse_skunk": -8,
    "declared_reverse_skunk": -16,
    "16_failed": -32,
    "declared_16_failed": -64,
    "reverse_16": -32,
    "declared_reverse_16": -64,
}
"""Bonuses of mukan wins, per kan player: they end the game and *are* its points."""

BONUSES: Final = frozenset(ADDED_BONUSES) | frozenset(FIXED_BONUSES)

BATTLE_1_BONUSES: Final = frozenset({"skunk", "16", "16_failed", "declared_16", "declared_16_failed"})
"""The seed's rule 17: the only bonuses battle 1 can produce."""

BASE_KAN_LOST: Final = (-2, 0, 2)
"""Points per kan player when kan loses battle 1, 2 or 3 (no fixed bonus)."""
BASE_KAN_WON_ALL: Final = 8
"""Points per kan player when kan wins battle 3."""

DECLARATIONS: Final[dict[str, tuple[str, ...]]] = {
    KAN: ("skunk", "16"),
    MUKAN: ("reverse_skunk", "reverse_16"),
}
"""What each group may declare in trick 1 of battles 2 and 3 (battle 1: kan's ``16`` only)."""


def declarations_on_offer(group: str, battle: int) -> tuple[str, ...]:
    """The trick-1 declarations of ``group`` in ``battle`` (rule 17: battle 1 has only kan's 16)."""
    if battle == 1:
        return ("16",) if group == KAN else ()
    return DECLARATIONS[group]


def open_bonus(declaration: str, *, after_skunk: bool = False) -> str:
    """The bonus a declaration earns if it succeeds (its failure is that name + ``_failed``).

    ``after_skunk``: the 16 / reverse 16 declared by the right holder after a (reverse)
    skunk, as opposed to one declared in trick 1.
    """
    return declaration if after_skunk else f"declared_{declaration}"


def judge(battle: int, kan: int, mukan: int, *, capturer: str, captured: int, kan_open: str | None,
          mukan_open: str | None, kan_declared: bool, mukan_declared: bool) -> tuple[str, str | None] | str | None:
    """The state of a battle after a trick.

    :param kan, mukan: honours each group holds now.
    :param capturer: the group that won the trick; ``captured`` how many honours it took.
    :param kan_open, mukan_open: each group's open declaration, as the bonus it would earn
        (``"declared_skunk"``, ``"declared_16"``, ``"16"`` after a skunk; the mukan
        counterparts), or ``None``.
    :param kan_declared, mukan_declared: whether the group declared anything this battle.
    :returns: ``None`` (play on); ``"right"`` (the trick winner may declare 16 or reverse
        16: a skunk or reverse skunk stands); or ``(winner, bonus)``.
    """
    if captured:
        if capturer == MUKAN and kan_open:
            return MUKAN, kan_open + "_failed"
        if capturer == KAN and mukan_open:
            return KAN, mukan_open + "_failed"
    kan_need, mukan_need = KAN_NEEDS[battle - 1], MUKAN_NEEDS[battle - 1]
    if kan_open:
        if kan_open == "declared_skunk" and kan >= kan_need:
            return KAN, kan_open
        if kan == HONOURS:
            return KAN, kan_open
        return None
    if mukan_open:
        if mukan_open == "declared_reverse_skunk" and mukan >= mukan_need:
            return MUKAN, mukan_open
        if mukan == HONOURS:
            return MUKAN, mukan_open
        return None
    if kan >= kan_need:
        return "right" if mukan == 0 and not kan_declared else (KAN, None)
    if mukan >= mukan_need:
        return "right" if kan == 0 and battle > 1 and not mukan_declared else (MUKAN, None)
    return None


def game_points(results: Sequence[tuple[str, str | None]]) -> int:
    """The points of each kan player for one game; each mukan player gets the negative.

    ``results`` are the game's battle outcomes in order, each ``(winner, bonus)``.  Base
    points: kan lost battle 1 -2, battle 2 0, battle 3 +2; kan won battle 3 +8.  Bonuses of
    kan wins are added (they accumulate over the game); a bonus of a mukan win replaces
    everything.

    >>> game_points([("mukan", None)])
    -2
    >>> game_points([("kan", "16"), ("kan", None), ("mukan", None)])
    18

    :raises ValueError: for a sequence the rules cannot produce: no battle, more than three,
        a battle after a mukan win, a game ending on a kan win before battle 3, an unknown
        winner or bonus, a bonus of the other side, or one that rule 17 excludes from
        battle 1.
    """
    if not results:
        raise ValueError("a game has at least one battle")
    if len(results) > 3:
        raise ValueError(f"a game has at most 3 battles, not {len(results)}")
    added = 0
    for number, result in enumerate(results, start=1):
        try:
            winner, bonus = result
        except (TypeError, ValueError):
            raise ValueError(f"battle {number}: expected a pair (winner, bonus), got {result!r}") from None
        if winner not in (KAN, MUKAN):
            raise ValueError(f"battle {number}: the winner is 'kan' or 'mukan', not {winner!r}")
        if bonus is not None and bonus not in BONUSES:
            raise ValueError(f"battle {number}: unknown bonus {bonus!r}")
        if bonus is not None and (bonus in ADDED_BONUSES) != (winner == KAN):
            raise ValueError(f"battle {number}: {bonus} is a {'kan' if bonus in ADDED_BONUSES else 'mukan'} win, "
                             f"not a {winner} win")
        if number == 1 and bonus is not None and bonus not in BATTLE_1_BONUSES:
            raise ValueError(f"battle 1 cannot end with {bonus} (rule 17)")
        last = number == len(results)
        if winner == MUKAN:
            if not last:
                raise ValueError(f"battle {number + 1} follows a mukan win in battle {number}")
            if bonus is not None:
                return FIXED_BONUSES[bonus]
            return BASE_KAN_LOST[number - 1] + added
        if bonus is not None:
            added += ADDED_BONUSES[bonus]
        if last and number < 3:
            raise ValueError(f"the game cannot end on a kan win in battle {number}: battle {number + 1} follows")
    return BASE_KAN_WON_ALL + added
