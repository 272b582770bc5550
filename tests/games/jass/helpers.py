"""Stacked deals and scripted play for the Jass tests."""

from __future__ import annotations

from referee.games.jass import JassGame, JassState, parse_action

# A deal used by several tests (hand 1: seat 0 holds the 7C, so it is the forehand).  In
# Obenabe seat 0 takes every trick; every seat holds weis.
RICH_DEAL = (
    "AS AH AD AC KS KH KD KC 7C",
    "6S 7S 8S 9S TS JS 9H TH JH",
    "QS QH QD 6C 8C 9C TC JC QC",
    "6H 7H 8H 6D 7D 8D 9D TD JD",
)
SEAT0_OBENABE = ["AS", "AH", "AD", "AC", "KS", "KH", "KD", "KC", "7C"]
"""Seat 0's cards of RICH_DEAL in the order that takes every trick in Obenabe."""


def new_match(*deals: tuple[str, str, str, str], seed: int = 0, **settings: object) -> JassState:
    return JassGame(settings=settings).new_initial_state(seed, deals=deals)


def play(state: JassState, *texts: str) -> JassState:
    """Apply actions given in their text form, each validated by the engine."""
    for text in texts:
        state.apply(parse_action(text))
    return state


def play_first_legal_except(state: JassState, seat: int, cards: list[str]) -> JassState:
    """Play a hand: ``seat`` plays ``cards`` in order, every other seat its first legal card."""
    queue = list(cards)
    hand = state.hand_number
    while not state.is_terminal() and state.hand_number == hand:
        if state.current_player() == seat:
            play(state, f"play {queue.pop(0)}")
        else:
            state.apply(state.legal_actions()[0])
    return state
