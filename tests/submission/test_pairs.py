"""Who sits where in a duplicate pair of NEW against OLD, game by game."""

from __future__ import annotations

import pytest

from arena.submission.pairs import PairingError, pair_layout, pair_seeds
from referee.games import UnknownGameError, make_game


@pytest.mark.parametrize("game", ["gin_rummy", "yahtzee", "yaniv"])
def test_two_seat_games_swap_the_seats(game: str) -> None:
    layout = pair_layout(game)
    assert layout.seats(0, "NEW", "OLD") == ("NEW", "OLD") and layout.seats(1, "NEW", "OLD") == ("OLD", "NEW")
    make_game(game, num_players=layout.num_players)  # the engine seats two


def test_jass_swaps_whole_teams() -> None:
    layout = pair_layout("jass")
    assert layout.seats(0, "N", "O") == ("N", "O", "N", "O") and layout.seats(1, "N", "O") == ("O", "N", "O", "N")
    # NEW's team first in the first match (ranks by seat: 0 = first), second in the other: 1 + 0.
    assert layout.points([[0, 1, 0, 1], [0, 1, 0, 1]]) == 1.0
    assert layout.points([[0, 1, 0, 1], [1, 0, 1, 0]]) == 2.0


def test_pair_points_add_both_matches() -> None:
    layout = pair_layout("gin_rummy")
    assert layout.points([[0, 1], [1, 0]]) == 2.0  # NEW first in seat 0, then first in seat 1
    assert layout.points([[0, 1], [0, 1]]) == 1.0  # seat 0 won both: NEW once, OLD once
    assert layout.points([[0, 0], [0, 1]]) == 0.5  # a tie, then a loss


def test_yoninkan_is_refused_with_the_reason() -> None:
    with pytest.raises(PairingError, match="partnerships the cards choose"):
        pair_layout("yoninkan")


def test_unknown_game() -> None:
    with pytest.raises(UnknownGameError):
        pair_layout("chess")


def test_pair_seeds_are_reproducible() -> None:
    first, again = pair_seeds(7), pair_seeds(7)
    seeds = [first() for _ in range(5)]
    assert seeds == [again() for _ in range(5)] and len(set(seeds)) == 5
