"""Stacked decks and scripted play for the Yaniv tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from referee.games.yaniv import YanivGame, YanivState, parse_action


def deck(hands: Mapping[int, str], upcard: str, stock: str = "", *, starter: int = 0, players: int | None = None,
         out: Iterable[int] = ()) -> list[str]:
    """A stacked deck prefix: each seat's 5 cards in dealing order (from ``starter``, in play
    order, skipping seats ``out``), then the face-up card, then the stock in drawing order."""
    n = players if players is not None else len(hands)
    gone = set(out)
    order = [(starter + k) % n for k in range(n) if (starter + k) % n not in gone]
    cards: list[str] = []
    for seat in order:
        assert len(hands[seat].split()) == 5, f"seat {seat} needs 5 cards"
        cards += hands[seat].split()
    return [*cards, upcard, *stock.split()]


def new_match(*decks: Sequence[str], players: int, first_player: int = 0, totals: Sequence[int] | None = None,
              seed: int = 0, **settings: object) -> YanivState:
    game = YanivGame(num_players=players, settings=settings)
    return game.new_initial_state(seed, decks=decks, first_player=first_player, totals=totals)


def play(state: YanivState, *texts: str) -> YanivState:
    """Apply actions given in their text form, each validated by the engine."""
    for text in texts:
        state.apply(parse_action(text))
    return state


def texts(actions: Iterable[object]) -> list[str]:
    return [str(a) for a in actions]
