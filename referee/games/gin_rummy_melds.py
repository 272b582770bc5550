"""Gin Rummy meld search, deadwood and knock settlement, as pure functions on bitmasks.

Glossary
--------
*card index*
    ``(rank - 1) * 4 + suit`` with suits in the order ``S H D C``: ``AS`` is 0, ``AH`` 1,
    ``2S`` 4, ``KC`` 51.  Rank-major order puts a rank's four cards in one 4-bit *nibble*,
    and the next card of the same suit exactly 4 bits higher.
*mask*
    A set of cards as an ``int`` with bit ``i`` set for card index ``i``.
*meld*
    A *set* (3 or 4 cards of one rank) or a *run* (3 or more consecutive ranks of one suit,
    ace low only), as a mask.
*packing*
    Disjoint melds chosen from a hand; its *cover* is their union.
*deadwood*
    The value of a hand's cards outside its melds (A 1, 2-10 face value, J Q K 10); a hand's
    deadwood is the smallest over all its packings.
*lay-off*
    A defender's card added to one of the knocker's melds: the fourth card of a set of
    three, or a card extending a run at either end, repeatedly.

The engine's hot path is :func:`discard_deadwoods` (cached): the deadwood left by every
possible discard of an 11-card hand, from one enumeration of the hand's packings.
:func:`settle` arranges both hands after a knock per docs/rules/gin_rummy.md.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, Literal

from referee.games.cards import RANKS, SUITS, Card

NUM_CARDS: Final = 52
FULL_DECK: Final = (1 << NUM_CARDS) - 1
_NIBBLES: Final = 0x1111111111111
"""Bit 0 of every rank nibble."""
_FOURS: Final = _NIBBLES << 2
_FIVES: Final = 0x5555555555555
_THREES: Final = 0x3333333333333

CARDS: Final[tuple[Card, ...]] = tuple(Card(i // 4 + 1, SUITS[i % 4]) for i in range(NUM_CARDS))
"""The :class:`Card` of each card index."""
TEXTS: Final[tuple[str, ...]] = tuple(str(card) for card in CARDS)
VALUES: Final[tuple[int, ...]] = tuple(min(i // 4 + 1, 10) for i in range(NUM_CARDS))
"""Deadwood value of each card index."""
_INDEX_OF_TEXT: Final[dict[str, int]] = {text: i for i, text in enumerate(TEXTS)}

# Value of the cards of one byte (two rank nibbles) at each of the 7 byte positions.
_BYTE_VALUES: Final = tuple(
    tuple(sum(VALUES[8 * pos + b] for b in range(8) if byte >> b & 1 and 8 * pos + b < NUM_CARDS)
          for byte in range(256))
    for pos in range(7))


def _all_melds() -> dict[int, int]:
    melds: dict[int, int] = {}
    for rank in range(13):
        nibble = 0b1111 << (4 * rank)
        melds[nibble] = 4 * VALUES[4 * rank]
        for suit in range(4):
            melds[nibble ^ (1 << (4 * rank + suit))] = 3 * VALUES[4 * rank]
    for suit in range(4):
        for low in range(11):
            for high in range(low + 2, 13):
                mask = sum(1 << (4 * r + suit) for r in range(low, high + 1))
                melds[mask] = sum(VALUES[4 * r] for r in range(low, high + 1))
    return melds


MELD_VALUES: Final[dict[int, int]] = _all_melds()
"""Every meld of the deck (65 sets, 264 runs) and its card value."""


def card_index(card: Card | str) -> int:
    """The card index of a :class:`Card` or its text form.

    :raises ValueError: for a joker or anything that is not a card.
    """
    text = card if isinstance(card, str) else str(card)
    try:
        return _INDEX_OF_TEXT[text]
    except KeyError:
        raise ValueError(f"not a Gin Rummy card: {text!r} (expected rank A23456789TJQK then suit SHDC)") from None


def to_mask(cards: Iterable[Card | str] | str) -> int:
    """The mask of some cards (texts, :class:`Card` objects, or one space-separated string).

    :raises ValueError: for a bad card or a card given twice.
    """
    if isinstance(cards, str):
        cards = cards.split()
    mask = 0
    for card in cards:
        bit = 1 << card_index(card)
        if mask & bit:
            raise ValueError(f"card {card} is given twice")
        mask |= bit
    return mask


_BYTE_BITS: Final = tuple(tuple(tuple(8 * pos + b for b in range(8) if byte >> b & 1) for byte in range(256))
                         for pos in range(7))


def indices(mask: int) -> list[int]:
    """The card indices in ``mask``, ascending."""
    b = _BYTE_BITS
    return [*b[0][mask & 255], *b[1][mask >> 8 & 255], *b[2][mask >> 16 & 255], *b[3][mask >> 24 & 255],
            *b[4][mask >> 32 & 255], *b[5][mask >> 40 & 255], *b[6][mask >> 48 & 255]]


def to_cards(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask`` in card-index order (rank, then S H D C)."""
    return tuple(map(CARDS.__getitem__, indices(mask)))


def hand_value(mask: int) -> int:
    """The total deadwood value of every card in ``mask``."""
    b = _BYTE_VALUES
    return (b[0][mask & 255] + b[1][mask >> 8 & 255] + b[2][mask >> 16 & 255] + b[3][mask >> 24 & 255]
            + b[4][mask >> 32 & 255] + b[5][mask >> 40 & 255] + b[6][mask >> 48 & 255])


def find_melds(mask: int) -> list[int]:
    """Every meld contained in ``mask`` (sub-runs and 3-card subsets of a 4-set included)."""
    melds = []
    starts = mask & (mask >> 4) & (mask >> 8)
    while starts:
        low = starts & -starts
        starts ^= low
        meld = low | low << 4 | low << 8
        melds.append(meld)
        nxt = low << 12
        while mask & nxt:
            meld |= nxt
            melds.append(meld)
            nxt <<= 4
    counts = mask - ((mask >> 1) & _FIVES)
    counts = (counts & _THREES) + ((counts >> 2) & _THREES)
    ranks = (counts + _NIBBLES) & _FOURS  # bit 2 of each nibble holding 3 or 4 cards
    while ranks:
        low = ranks & -ranks
        ranks ^= low
        shift = low.bit_length() - 3
        nibble = mask & (0b1111 << shift)
        melds.append(nibble)
        if nibble == 0b1111 << shift:
            melds.extend(nibble ^ (1 << (shift + s)) for s in range(4))
    return melds


def packings(mask: int) -> list[tuple[int, ...]]:
    """Every packing of ``mask`` as a tuple of melds, the empty packing first."""
    melds = find_melds(mask)
    out: list[tuple[int, ...]] = []

    def extend(start: int, used: int, chosen: tuple[int, ...]) -> None:
        out.append(chosen)
        for i in range(start, len(melds)):
            meld = melds[i]
            if not meld & used:
                extend(i + 1, used | meld, (*chosen, meld))

    extend(0, 0, ())
    return out


def _covers(found: list[int]) -> list[tuple[int, int]]:
    """``(cover, value)`` of every packing of the melds ``found``, the empty packing first."""
    melds = [(m, MELD_VALUES[m]) for m in found]
    out = [(0, 0)]

    def extend(start: int, used: int, value: int) -> None:
        for i in range(start, len(melds)):
            meld, v = melds[i]
            if not meld & used:
                out.append((used | meld, value + v))
                extend(i + 1, used | meld, value + v)

    extend(0, 0, 0)
    return out


def discard_deadwoods(mask: int, limit: int = 10) -> tuple[int | None, list[tuple[int, int]] | None]:
    """For a hand about to discard: its own deadwood, and ``(card, deadwood after discarding
    it)`` for each card in card-index order.

    This is the engine's hot path, and most hands are far from knocking: when no discard can
    leave ``limit`` or less, it returns ``(None, None)`` without searching (the hand then has
    deadwood above ``limit + 10``, so no big gin either).
    """
    total = hand_value(mask)
    melds = find_melds(mask)
    if not melds:
        if total - 10 > limit:
            return None, None
        return total, [(c, total - VALUES[c]) for c in indices(mask)]
    union = 0
    for meld in melds:
        union |= meld
    if total - hand_value(union) - 10 > limit:
        return None, None
    covers = _covers(melds)
    own = total - max(v for _, v in covers)
    if own - 10 > limit:
        return None, None
    after = []
    for c in indices(mask):
        bit = 1 << c
        after.append((c, total - VALUES[c] - max(v for u, v in covers if not u & bit)))
    return own, after


def min_deadwood(mask: int) -> int:
    """The smallest deadwood of any number of cards.

    A hand (11 cards or fewer) has few enough meld packings to try them all, which on real
    hands is 1.7-5x faster than the general method, and the referee computes it for every
    observation; for more cards, dynamic programming on the lowest card.
    """
    if mask.bit_count() <= 11:
        return hand_value(mask) - max(value for _, value in _covers(find_melds(mask)))
    memo: dict[int, int] = {0: 0}

    def best_melded(m: int) -> int:
        """The largest value ``m`` can put into melds."""
        if m in memo:
            return memo[m]
        low = m & -m
        c = low.bit_length() - 1
        result = best_melded(m ^ low)
        rank_base = c & ~3
        others = [1 << i for i in range(c + 1, rank_base + 4) if m >> i & 1]
        options = []
        if len(others) >= 2:
            for i in range(len(others)):
                for j in range(i + 1, len(others)):
                    options.append(low | others[i] | others[j])
            if len(others) == 3:
                options.append(low | others[0] | others[1] | others[2])
        run = low
        nxt = low << 4
        while m & nxt:
            run |= nxt
            nxt <<= 4
            if run & (low << 8):
                options.append(run)
        for meld in options:
            value = MELD_VALUES[meld] + best_melded(m ^ meld)
            if value > result:
                result = value
        memo[m] = result
        return result

    return hand_value(mask) - best_melded(mask)


def is_run(meld: int) -> bool:
    """Whether a meld is a run (rather than a set)."""
    return bool(meld & (meld >> 4))


def layoffs(knocker_melds: Iterable[int], cards: int) -> int:
    """The cards of ``cards`` that lay off onto ``knocker_melds`` (the largest such mask).

    Runs are extended at both ends as far as the cards allow (a card laid off makes room for
    the next); then each set of three takes its fourth card.  Extending runs first is never
    worse: a card that fits both a run and a set may open the run to further cards.
    """
    melds = list(knocker_melds)
    laid = 0
    for meld in melds:
        if not is_run(meld):
            continue
        low = (meld & -meld).bit_length() - 1
        down = low - 4
        while down >= 0 and cards >> down & 1:
            laid |= 1 << down
            cards ^= 1 << down
            down -= 4
        up = meld.bit_length() - 1 + 4
        while up < NUM_CARDS and cards >> up & 1:
            laid |= 1 << up
            cards ^= 1 << up
            up += 4
    for meld in melds:
        if not is_run(meld) and meld.bit_count() == 3:
            shift = ((meld & -meld).bit_length() - 1) & ~3
            missing = (0b1111 << shift) ^ meld
            if cards & missing:
                laid |= missing
                cards ^= missing
    return laid


Kind = Literal["knock", "undercut", "gin", "big_gin"]
Winner = Literal["knocker", "defender"]

GIN_BONUS: Final = 25
BIG_GIN_BONUS: Final = 31
UNDERCUT_BONUS: Final = 25


@dataclass(frozen=True)
class KnockScore:
    """How a knock is settled: who scores how much, and the hands as laid out.

    Returned by :func:`settle` and ``referee.games.gin_rummy.score_knock``.  Cards are in
    card-index order (rank, then S H D C); melds are listed in the order they were found.
    """

    points: int
    """What the winner scores for the hand, bonuses included (before any Oklahoma doubling)."""
    winner: Winner
    """``"knocker"`` or ``"defender"`` (after an undercut)."""
    kind: Kind
    """``"knock"``, ``"undercut"``, ``"gin"`` or ``"big_gin"``."""
    knocker_deadwood: int
    defender_deadwood: int
    """The defender's deadwood after lay-offs."""
    knocker_melds: tuple[tuple[Card, ...], ...]
    knocker_unmatched: tuple[Card, ...]
    """The knocker's deadwood cards."""
    defender_melds: tuple[tuple[Card, ...], ...]
    layoffs: tuple[Card, ...]
    """The defender's cards laid off onto the knocker's melds (none after gin or big gin)."""
    defender_unmatched: tuple[Card, ...]
    """The defender's deadwood cards after lay-offs."""


def _best_defence(knocker_melds: tuple[int, ...], defender: int,
                  defender_packings: list[tuple[int, ...]], *, allow_layoffs: bool) -> tuple[int, tuple[int, ...], int]:
    """``(deadwood, melds, laid)`` minimising the defender's deadwood; ties keep fewer lay-offs."""
    best: tuple[int, tuple[int, ...], int] | None = None
    for packing in defender_packings:
        rest = defender
        for meld in packing:
            rest ^= meld
        laid = layoffs(knocker_melds, rest) if allow_layoffs else 0
        dw = hand_value(rest ^ laid)
        if best is None or dw < best[0] or (dw == best[0] and laid.bit_count() < best[2].bit_count()):
            best = (dw, packing, laid)
    assert best is not None
    return best


def settle(knocker: int, defender: int) -> KnockScore:
    """Settle a knock: ``knocker`` holds 10 cards after the discard, or 11 for big gin.

    Per the docs/rules/gin_rummy.md Decision, the knocker's melds minimise the knocker's deadwood, ties
    broken to leave the defender the fewest lay-off points (the defender's resulting deadwood
    is largest); the defender's melds and lay-offs minimise the defender's deadwood.  Gin and
    big gin allow no lay-off and cannot be undercut.  No limit is checked here.
    """
    k_total = hand_value(knocker)
    k_packings = packings(knocker)
    cover_values = [sum(MELD_VALUES[m] for m in p) for p in k_packings]
    best_cover = max(cover_values)
    k_deadwood = k_total - best_cover
    candidates = [p for p, v in zip(k_packings, cover_values) if v == best_cover]
    d_packings = packings(defender)
    gin = k_deadwood == 0
    chosen: tuple[int, ...] = candidates[0]
    defence = _best_defence(chosen, defender, d_packings, allow_layoffs=not gin)
    if not gin:
        for packing in candidates[1:]:
            other = _best_defence(packing, defender, d_packings, allow_layoffs=True)
            if other[0] > defence[0]:
                chosen, defence = packing, other
    d_deadwood, d_melds, laid = defence
    if gin and knocker.bit_count() == 11:
        kind: Kind = "big_gin"
        winner: Winner = "knocker"
        points = d_deadwood + BIG_GIN_BONUS
    elif gin:
        kind, winner, points = "gin", "knocker", d_deadwood + GIN_BONUS
    elif k_deadwood < d_deadwood:
        kind, winner, points = "knock", "knocker", d_deadwood - k_deadwood
    else:
        kind, winner, points = "undercut", "defender", k_deadwood - d_deadwood + UNDERCUT_BONUS
    k_rest = knocker
    for meld in chosen:
        k_rest ^= meld
    d_rest = defender ^ laid
    for meld in d_melds:
        d_rest ^= meld
    return KnockScore(points=points, winner=winner, kind=kind, knocker_deadwood=k_deadwood,
                      defender_deadwood=d_deadwood, knocker_melds=tuple(to_cards(m) for m in chosen),
                      knocker_unmatched=to_cards(k_rest), defender_melds=tuple(to_cards(m) for m in d_melds),
                      layoffs=to_cards(laid), defender_unmatched=to_cards(d_rest))


__all__ = ["CARDS", "GIN_BONUS", "BIG_GIN_BONUS", "UNDERCUT_BONUS", "KnockScore", "MELD_VALUES", "NUM_CARDS",
           "RANKS", "TEXTS", "VALUES", "card_index", "discard_deadwoods", "find_melds", "hand_value", "indices",
           "is_run", "layoffs", "min_deadwood", "packings", "settle", "to_cards", "to_mask"]
