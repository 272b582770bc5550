"""Playing cards and their one text form, used in the protocol, logs, replays and tests.

A card is its rank then its suit: ranks ``A 2 3 4 5 6 7 8 9 T J Q K``, suits ``S H D C``
(``TD`` is the ten of diamonds).  Jokers are ``X1`` and ``X2``.

>>> Card.parse("TD")
Card.parse('TD')
>>> str(Card(10, "D")), Card.parse("X2").is_joker
('TD', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from referee.games.base import InvalidActionError

RANKS: Final = "A23456789TJQK"
"""Rank characters; a card's ``rank`` is its 1-based position (A=1 .. K=13)."""
SUITS: Final = "SHDC"
JOKER: Final = "X"


@dataclass(frozen=True, order=True)
class Card:
    """One card. Jokers have rank 0 and suit ``"X"`` and are told apart by ``number``."""

    rank: int
    """1 (ace) .. 13 (king); 0 for a joker."""
    suit: str
    """One of ``S H D C``, or ``X`` for a joker."""
    number: int = 0
    """Which joker (1 or 2); 0 for other cards."""

    def __post_init__(self) -> None:
        if self.suit == JOKER:
            if self.rank != 0 or self.number not in (1, 2):
                raise InvalidActionError(f"bad joker: rank {self.rank}, number {self.number}")
        elif self.suit not in SUITS or not 1 <= self.rank <= 13 or self.number != 0:
            raise InvalidActionError(f"bad card: rank {self.rank}, suit {self.suit!r}")
        # The text is written into every observation the referee sends: work it out once.
        object.__setattr__(self, "_text", f"{JOKER}{self.number}" if self.suit == JOKER
                           else RANKS[self.rank - 1] + self.suit)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read the text form (``"TD"``, ``"AS"``, ``"X1"``).

        :raises InvalidActionError: for anything else.
        """
        if len(text) == 2:
            if text[0] == JOKER and text[1] in "12":
                return cls(0, JOKER, int(text[1]))
            if text[0] in RANKS and text[1] in SUITS:
                return cls(RANKS.index(text[0]) + 1, text[1])
        raise InvalidActionError(f"not a card: {text!r} (expected rank A23456789TJQK then suit SHDC, or X1/X2)")

    @property
    def is_joker(self) -> bool:
        return self.suit == JOKER

    def __str__(self) -> str:
        return self._text  # type: ignore[attr-defined, no-any-return]

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


def parse_cards(texts: Iterable[str] | str) -> list[Card]:
    """Cards from a list of texts or one space-separated string.

    >>> parse_cards("AS 2S X1")
    [Card.parse('AS'), Card.parse('2S'), Card.parse('X1')]
    """
    if isinstance(texts, str):
        texts = texts.split()
    return [Card.parse(text) for text in texts]


def cards_text(cards: Iterable[Card]) -> str:
    """The space-separated text form of some cards."""
    return " ".join(map(str, cards))


def standard_deck(jokers: int = 0) -> list[Card]:
    """The 52 cards (suit by suit, ace to king) plus ``jokers`` jokers, unshuffled."""
    deck = [Card(rank, suit) for suit in SUITS for rank in range(1, 14)]
    deck.extend(Card(0, JOKER, number) for number in range(1, jokers + 1))
    return deck
