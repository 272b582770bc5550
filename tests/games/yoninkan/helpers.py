"""Stacked deals and scripted play for the Yoninkan tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from referee.games.yoninkan import TEXTS, Declare, Play, YoninkanGame, YoninkanState, card_id, parse_action

DECK = [text for text in TEXTS if text != "5S"]


def deal(*hands: str) -> list[str]:
    """Four hands by seat; cards not given are added in deck order to the seats short of 10."""
    given = [hand.split() for hand in hands] + [[] for _ in range(4 - len(hands))]
    used = {card for hand in given for card in hand}
    rest = iter(card for card in sorted(DECK, key=card_id) if card not in used)
    return [" ".join(hand + [next(rest) for _ in range(10 - len(hand))]) for hand in given]


def new_match(*deals: list[str], games: int = 3, seed: int = 0) -> YoninkanState:
    return YoninkanGame(settings={"games": games}).new_initial_state(seed, deals=deals)


def play(state: YoninkanState, *texts: str) -> YoninkanState:
    """Apply actions given in their text form, each validated by the engine."""
    for text in texts:
        state.apply(parse_action(text))
    return state


def texts(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]


def first_plain(state: YoninkanState) -> object:
    """The first legal action that declares nothing (the lowest card; ``pass`` after a skunk)."""
    return next(a for a in state.legal_actions()
                if not (isinstance(a, Play) and a.declaration or isinstance(a, Declare)))


def run(state: YoninkanState, until: Callable[[YoninkanState], bool],
        policy: Callable[[YoninkanState], object] = first_plain) -> YoninkanState:
    """Apply ``policy`` until ``until(state)`` holds (or the match ends)."""
    while not state.is_terminal() and not until(state):
        state.apply(policy(state))
    return state


# Seat 0: the joker and nine honours; seat 2 (partner, opposite): all clubs.  Trump clubs:
# kan wins every trick, mukan never captures an honour.
STRONG_OPPOSITE = deal("X1 AS KS QS JS AH KH QH JH AD", "", "AC KC QC JC TC 9C 8C 7C 6C 5C")
# The same hands with the partner beside seat 0 (seat 1): a seat change before battle 2.
STRONG_ADJACENT = deal("X1 AS KS QS JS AH KH QH JH AD", "AC KC QC JC TC 9C 8C 7C 6C 5C")
