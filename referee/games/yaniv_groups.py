"""Yaniv's cards as small integers and the search for valid discards (pure helpers).

A card is an index ``0..53``: ``(rank - 1) * 4 + suit`` for the 52 (suits S H D C, so ``0`` is
the ace of spades and ``51`` the king of clubs), ``52`` for X1 and ``53`` for X2.  A hand is
a bit mask of indices.  Hands hold at most five cards, so the discard search enumerates
directly and caches per hand.

A discard *group* is a tuple of indices in the order the cards land on the pile.  The search
lists each group once per distinct meaning (docs/rules/yaniv.md):

- single cards (a joker alone once: X1 if held, jokers being interchangeable);
- sets of 2+ cards of one rank, jokers standing in, at least one natural card: only the
  first and last cards of a group can be taken, so orders that differ only in the middle
  are one discard (the middle is listed in index order, jokers first);
- runs of 3+ consecutive ranks of one suit, ace low only (no Q-K-A), lowest rank first, a
  joker at the rank it stands for, at least one natural card; a joker may stand for a card
  the player holds (the natural card is then kept);
- jokers are interchangeable: a group using one joker uses the lowest-numbered one held,
  and a group's jokers are assigned X1 then X2 from left to right.

A group that reads the same as a set and as a run (one natural card among jokers, e.g.
``X1 5H X2``) is the same discard and is listed once.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations
from typing import Final

from referee.games.cards import Card

NUM_CARDS: Final = 54
JOKERS: Final = (52, 53)
CARDS: Final = tuple([Card(i // 4 + 1, "SHDC"[i % 4]) for i in range(52)] + [Card(0, "X", 1), Card(0, "X", 2)])
TEXTS: Final = tuple(str(card) for card in CARDS)
INDEX: Final = {text: i for i, text in enumerate(TEXTS)}
VALUES: Final = tuple([min(i // 4 + 1, 10) for i in range(52)] + [0, 0])
"""A=1, 2-10 face value, J/Q/K=10, joker 0."""
FULL_DECK: Final = (1 << NUM_CARDS) - 1
_JOKER_MASK: Final = (1 << 52) | (1 << 53)
_TOKEN: Final = -1
"""A joker's place in a group before a concrete joker is assigned to it."""


def card_index(card: Card | str) -> int:
    """The index of a card given as text or :class:`Card`.

    :raises ValueError: for anything else.
    """
    text = card if isinstance(card, str) else str(card)
    try:
        return INDEX[text]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def to_mask(cards: Iterable[Card | str] | str) -> int:
    """A mask of cards given as texts, :class:`Card` objects or one space-separated string.

    :raises ValueError: for a bad or repeated card.
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


def indices(mask: int) -> list[int]:
    """The indices of a mask, lowest first (rank order, jokers last)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def to_cards(mask: int) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in indices(mask))


def mask_value(mask: int) -> int:
    """The points of a hand mask."""
    total = 0
    while mask:
        low = mask & -mask
        total += VALUES[low.bit_length() - 1]
        mask ^= low
    return total


def _with_jokers(tokens: Iterable[int], jokers: list[int]) -> tuple[int, ...]:
    """Replace joker tokens left to right by the held jokers, lowest-numbered first."""
    out = []
    used = 0
    for item in tokens:
        if item == _TOKEN:
            out.append(jokers[used])
            used += 1
        else:
            out.append(item)
    return tuple(out)


def _set_orders(items: list[int]) -> list[tuple[int, ...]]:
    """Distinct orders of a set's items that differ in their first or last card."""
    found: dict[tuple[int, ...], None] = {}
    n = len(items)
    for i in range(n):
        for j in range(n):
            if i == j:
                continue
            middle = sorted(items[k] for k in range(n) if k != i and k != j)
            found[(items[i], *middle, items[j])] = None
    return list(found)


def groups_of(hand: int) -> tuple[tuple[int, ...], ...]:
    """Every distinct valid discard of a hand mask, in a fixed order: singles, sets by rank,
    runs by suit.  Sets and runs come from small caches keyed by one rank's or one suit's
    cards, so a new hand costs a few look-ups (this is the engine's hot path)."""
    wild = hand & _JOKER_MASK
    jokers = _JOKER_SETS[wild >> 52]
    natural = hand ^ wild
    naturals = indices(natural)
    found: list[tuple[int, ...]] = [_SINGLES[card] for card in naturals]
    if jokers:
        found.append(_SINGLES[jokers[0]])
        rank, same = -1, []
        for card in naturals:
            if card >> 2 != rank:
                if same:
                    found.extend(_set_groups(tuple(same), jokers))
                rank, same = card >> 2, []
            same.append(card)
        found.extend(_set_groups(tuple(same), jokers))
    else:
        for i in range(len(naturals) - 1):
            card = naturals[i]
            if naturals[i + 1] >> 2 == card >> 2 and (i == 0 or naturals[i - 1] >> 2 != card >> 2):
                found.extend(_set_groups(tuple(c for c in naturals if c >> 2 == card >> 2), jokers))
    size = len(naturals) + len(jokers)
    if size >= 3:
        wild = len(jokers)
        for suit in range(4):
            bits = (natural >> suit) & _SUIT_BITS
            # A run needs three held ranks in a row, or two within two ranks and a joker,
            # or any card and two jokers (ranks are 4 bits apart).
            if (bits & (bits >> 4) & (bits >> 8) if wild == 0 else
                    bits & ((bits >> 4) | (bits >> 8)) if wild == 1 else bits):
                found.extend(_run_groups(suit, bits, jokers, size))
    if len(jokers) == 2:  # one natural among two jokers reads as a set and as a run
        return tuple(dict.fromkeys(found))
    return tuple(found)


_SINGLES: Final = tuple((card,) for card in range(NUM_CARDS))
_JOKER_SETS: Final = ((), (52,), (53,), (52, 53))
"""The jokers of a hand, indexed by its mask shifted right by 52."""
_SUIT_BITS: Final = sum(1 << (4 * r) for r in range(13))
"""The bits of one suit's 13 cards, for a mask shifted right by the suit."""


@lru_cache(maxsize=1 << 12)
def _set_groups(same: tuple[int, ...], jokers: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The sets (2+ cards) made of some of ``same`` (natural cards of one rank) and jokers."""
    found: dict[tuple[int, ...], None] = {}
    for count in range(1, len(same) + 1):
        for subset in combinations(same, count):
            for k in range(len(jokers) + 1):
                if count + k >= 2:
                    for order in _set_orders([*[_TOKEN] * k, *subset]):
                        found[_with_jokers(order, list(jokers))] = None
    return tuple(found)


@lru_cache(maxsize=1 << 16)
def _run_groups(suit: int, bits: int, jokers: tuple[int, ...], size: int) -> tuple[tuple[int, ...], ...]:
    """The runs of ``suit`` from its held cards (``bits``: bit ``4 * rank0``) and jokers, at
    most ``size`` cards long."""
    held = [(bits >> (4 * r)) & 1 for r in range(13)]
    wild = len(jokers)
    found: list[tuple[int, ...]] = []
    for start in range(13):
        for length in range(3, min(size, 13 - start) + 1):
            have = sum(held[start:start + length])
            if have == 0 or length - have > wild:
                continue
            choices: list[tuple[int, ...]] = [()]
            for r in range(start, start + length):
                options = (r * 4 + suit, _TOKEN) if held[r] else (_TOKEN,)
                choices = [c + (o,) for c in choices for o in options]
            for tokens in choices:
                used = tokens.count(_TOKEN)
                if used <= wild and used < length:
                    found.append(_with_jokers(tokens, list(jokers)))
    return tuple(found)
