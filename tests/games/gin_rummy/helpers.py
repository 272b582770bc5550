"""Stacked decks and scripted play for the Gin Rummy tests."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations

from referee.games.gin_rummy import GinRummyGame, GinRummyState, parse_action


def deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[str]:
    """A stacked deck prefix: the non-dealer's 10 cards, the dealer's 10, the upcard, then the
    first stock cards in drawing order (the rest is shuffled by the seed)."""
    cards = [*non_dealer.split(), *dealer.split(), upcard, *stock.split()]
    assert len(non_dealer.split()) == 10 and len(dealer.split()) == 10, "10 cards each"
    return cards


def new_match(*decks: list[str], variant: str = "standard", first_dealer: int = 1, seed: int = 0,
              **settings: object) -> GinRummyState:
    """A match whose first hands use ``decks``; seat 0 is the first non-dealer by default."""
    game = GinRummyGame(variant=variant, settings=settings)
    return game.new_initial_state(seed, decks=decks, first_dealer=first_dealer)


def play(state: GinRummyState, *texts: str) -> GinRummyState:
    """Apply actions given in their text form, each validated by the engine."""
    for text in texts:
        state.apply(parse_action(text))
    return state


def texts(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]


def cards(text: str) -> set[str]:
    return set(text.split())


# --- an exhaustive, deliberately simple reference for the meld search -------------------------

RANKS = "A23456789TJQK"
ALL_CARDS = [r + s for r in RANKS for s in "SHDC"]


def rank(card: str) -> int:
    return RANKS.index(card[0]) + 1


def value(cards: tuple[str, ...]) -> int:
    return sum(min(rank(c), 10) for c in cards)


def is_meld(cards: tuple[str, ...]) -> bool:
    if len(cards) < 3:
        return False
    ranks = sorted(rank(c) for c in cards)
    if len(set(ranks)) == 1:
        return True
    return len({c[1] for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def brute_deadwood(cards: list[str]) -> int:
    """Every subset of 3+ cards that is a meld, then every combination of disjoint ones.

    Independent of the engine's bit tricks and of its dynamic programming.
    """
    hand = tuple(cards)
    melds = [frozenset(group) for size in range(3, len(hand) + 1) for group in combinations(hand, size)
             if is_meld(group)]
    best = 0

    def search(start: int, used: frozenset[str], melded: int) -> None:
        nonlocal best
        best = max(best, melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                search(i + 1, used | melds[i], melded + value(tuple(melds[i])))

    search(0, frozenset(), 0)
    return value(hand) - best
