"""Pure Jass card helpers: the 36-card deck as small ints and bitmasks, orders, points, weis.

A card is an index ``suit * 9 + rank``: suits ``S H D C`` (0..3), ranks ``6 7 8 9 T J Q K A``
(0..8).  A hand is a 36-bit mask.  Modes are numbered as :data:`MODES` lists them.  These
tables are the hot path of :mod:`referee.games.jass`; the text-level checking functions
(``legal_cards`` ...) live there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from referee.games.cards import Card

MODES: Final = ("hearts", "diamonds", "spades", "clubs", "obenabe", "undenufe")
"""Mode names; a mode number is its index here."""
OBENABE: Final = 4
UNDENUFE: Final = 5
TRUMP_SUIT: Final = (1, 2, 0, 3, -1, -1)
"""The trump suit index of each mode (-1: no trump)."""
MULTIPLIER: Final = (1, 1, 2, 2, 3, 4)

SUIT_CHARS: Final = "SHDC"
RANK_CHARS: Final = "6789TJQKA"
NUM_CARDS: Final = 36
SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(9)

CARDS: Final = tuple(Card({8: 1, 4: 10, 5: 11, 6: 12, 7: 13}.get(r, r + 6), SUIT_CHARS[s])
                     for s in range(4) for r in range(9))
"""Card objects by index."""
TEXTS: Final = tuple(str(card) for card in CARDS)
INDEX: Final = {text: i for i, text in enumerate(TEXTS)}
SUIT_MASK: Final = tuple(0x1FF << (9 * s) for s in range(4))
FULL: Final = (1 << NUM_CARDS) - 1

_TRUMP_ORDER: Final = (0, 1, 2, 7, 3, 8, 4, 5, 6)
"""Strength of each rank in the trump suit: J 9 A K Q T 8 7 6 (high to low)."""
_PLAIN_POINTS: Final = (0, 0, 0, 0, 10, 2, 3, 4, 11)


def card_index(card: Card | str) -> int:
    """The index of a card given as text or :class:`Card`.

    :raises ValueError: if it is not one of the 36 Jass cards.
    """
    text = card if isinstance(card, str) else str(card)
    try:
        return INDEX[text]
    except KeyError:
        raise ValueError(f"not a Jass card: {text!r} (ranks 6789TJQKA, suits SHDC)") from None


def to_mask(cards: object) -> int:
    """A mask from card texts, :class:`Card` objects or one space-separated string.

    :raises ValueError: for a bad or repeated card.
    """
    items = cards.split() if isinstance(cards, str) else list(cards)  # type: ignore[attr-defined]
    mask = 0
    for card in items:
        bit = 1 << card_index(card)
        if mask & bit:
            raise ValueError(f"card {card} given twice")
        mask |= bit
    return mask


_SUIT_INDICES: Final = tuple(tuple(tuple(9 * s + r for r in range(9) if p >> r & 1) for p in range(512))
                             for s in range(4))
"""``_SUIT_INDICES[suit][pattern]``: the card indices of a 9-bit pattern of one suit."""


def indices(mask: int) -> list[int]:
    """The card indices of a mask, ascending (suit by suit, 6 to A)."""
    return [*_SUIT_INDICES[0][mask & 0x1FF], *_SUIT_INDICES[1][mask >> 9 & 0x1FF],
            *_SUIT_INDICES[2][mask >> 18 & 0x1FF], *_SUIT_INDICES[3][mask >> 27 & 0x1FF]]


def by_suit_pattern(items: tuple[object, ...]) -> tuple[tuple[tuple[object, ...], ...], ...]:
    """Per suit and 9-bit pattern, the tuple of ``items[card]`` for the pattern's cards: a
    mask becomes a list of per-card objects with four lookups."""
    return tuple(tuple(tuple(items[c] for c in _SUIT_INDICES[s][p]) for p in range(512)) for s in range(4))


def strength_table(mode: int) -> tuple[int, ...]:
    """Per card, its strength in ``mode``: trumps 100 + trump order, others their suit order."""
    trump = TRUMP_SUIT[mode]
    table = []
    for card in range(NUM_CARDS):
        suit, rank = divmod(card, 9)
        if suit == trump:
            table.append(100 + _TRUMP_ORDER[rank])
        elif mode == UNDENUFE:
            table.append(8 - rank)
        else:
            table.append(rank)
    return tuple(table)


def points_table(mode: int) -> tuple[int, ...]:
    """Per card, its points in ``mode`` (before the multiplier)."""
    trump = TRUMP_SUIT[mode]
    table = []
    for card in range(NUM_CARDS):
        suit, rank = divmod(card, 9)
        points = _PLAIN_POINTS[rank]
        if suit == trump and rank == JACK:
            points = 20
        elif suit == trump and rank == NINE:
            points = 14
        elif trump < 0 and rank == EIGHT:
            points = 8
        table.append(points)
    return tuple(table)


STRENGTH: Final = tuple(strength_table(m) for m in range(len(MODES)))
POINTS: Final = tuple(points_table(m) for m in range(len(MODES)))
TRUMP_JACK: Final = tuple(1 << (t * 9 + JACK) if t >= 0 else 0 for t in TRUMP_SUIT)
ABOVE: Final = tuple(
    tuple(sum(1 << (t * 9 + r) for r in range(9) if _TRUMP_ORDER[r] > level) for level in range(-1, 9))
    if t >= 0 else () for t in TRUMP_SUIT)
"""``ABOVE[mode][level + 1]``: the trumps stronger than trump order ``level`` (-1: all trumps)."""


def legal_mask(hand: int, trick: list[int], mode: int) -> int:
    """The cards of ``hand`` that may be played on ``trick`` (docs/rules/jass.md, "Playing a card")."""
    if not trick:
        return hand
    lead = trick[0] // 9
    trump = TRUMP_SUIT[mode]
    if trump < 0:
        return hand & SUIT_MASK[lead] or hand
    trumps = hand & SUIT_MASK[trump]
    if lead == trump:  # follow trump, unless the trump J is the only trump held
        return trumps if trumps & ~TRUMP_JACK[mode] else hand
    best = -1
    strength = STRENGTH[mode]
    for card in trick:
        level = strength[card] - 100
        if level > best:
            best = level
    legal = trumps & ABOVE[mode][best + 1]
    led = hand & SUIT_MASK[lead]
    legal |= led if led else hand & ~SUIT_MASK[trump]
    return legal or hand


def winner_index(trick: list[int], mode: int) -> int:
    """Index into ``trick`` of the card that takes it: the highest trump, else the highest of
    the led suit."""
    strength = STRENGTH[mode]
    lead = trick[0] // 9
    trump = TRUMP_SUIT[mode]
    best, best_key = 0, -1
    for i, card in enumerate(trick):
        suit = card // 9
        key = strength[card] if suit == lead or suit == trump else -1
        if key > best_key:
            best, best_key = i, key
    return best


# --- weis ----------------------------------------------------------------------------------

_SEQUENCE_POINTS: Final = {3: 20, 4: 50}
_FOUR_POINTS: Final = {JACK: 200, NINE: 150, ACE: 100, KING: 100, QUEEN: 100}


def _runs(pattern: int) -> tuple[tuple[int, int], ...]:
    """The maximal runs of 3+ consecutive ranks in a 9-bit suit pattern: (lowest rank, length)."""
    runs = []
    rank = 0
    while rank < 9:
        if pattern >> rank & 1:
            start = rank
            while rank < 9 and pattern >> rank & 1:
                rank += 1
            if rank - start >= 3:
                runs.append((start, rank - start))
        else:
            rank += 1
    return tuple(runs)


_RUNS: Final = tuple(_runs(p) for p in range(512))


@dataclass(frozen=True)
class Weis:
    """One declaration: a sequence in a suit or four of a kind, and its points (unmultiplied)."""

    seat: int
    kind: str
    """``"sequence"`` or ``"four"``."""
    cards: tuple[Card, ...]
    points: int

    def __str__(self) -> str:
        return f"seat {self.seat} {self.kind} {' '.join(map(str, self.cards))} ({self.points})"


def find_weis(seat: int, hand: int) -> list[tuple[Weis, int, int]]:
    """Every weis in ``hand``, each with its top rank and suit (suit -1 for four of a kind).

    A sequence is a maximal run of 3 or more (5 or more scores 100); a card may be in one
    sequence and one four of a kind.
    """
    found = []
    for suit in range(4):
        for start, length in _RUNS[hand >> (9 * suit) & 0x1FF]:
            cards = tuple(CARDS[suit * 9 + r] for r in range(start, start + length))
            found.append((Weis(seat, "sequence", cards, _SEQUENCE_POINTS.get(length, 100)), start + length - 1, suit))
    for rank in (JACK, NINE, ACE, KING, QUEEN):
        if all(hand >> (s * 9 + rank) & 1 for s in range(4)):
            found.append((Weis(seat, "four", tuple(CARDS[s * 9 + rank] for s in range(4)), _FOUR_POINTS[rank]),
                          rank, -1))
    return found


def weis_key(weis: Weis, top: int, suit: int, mode: int) -> tuple[int, int, int, int]:
    """How good a weis is (larger is better) before the seat-order tie-break: points, number
    of cards, top card in the mode's order (plain order; reversed in Undenufe), trump suit."""
    if weis.kind == "sequence" and mode == UNDENUFE:
        top = top - len(weis.cards) + 1  # the sequence's lowest card is its top in Undenufe
    order = 8 - top if mode == UNDENUFE else top
    return (weis.points, len(weis.cards), order, int(suit >= 0 and suit == TRUMP_SUIT[mode]))
