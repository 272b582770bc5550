"""Who sits where in a duplicate pair of NEW against OLD, game by game."""

from __future__ import annotations

import itertools

import pytest

from arena.submission.normalized_sprt import new_test
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


@pytest.mark.parametrize("game", ["gin_rummy", "jass"])
def test_two_sided_points_are_one_per_match_won(game: str) -> None:
    """The seat-by-seat comparison gives what "1 if NEW ranks above OLD in the match, 1/2 if
    they tie" gives, summed over the two matches, for every outcome of a two-sided game."""
    layout = pair_layout(game)
    outcomes = {"first wins": (0, 1), "second wins": (1, 0), "tie": (0, 0)}  # ranks of sides 0 and 1
    side = [0, 1] * (layout.num_players // 2)  # seat -> side: Gin 0 1, Jass 0 1 0 1

    def ranking(outcome: tuple[int, int]) -> list[int]:
        return [outcome[s] for s in side]

    for first, second in itertools.product(outcomes.values(), repeat=2):
        # NEW is side 0 in the first match and side 1 in the second.
        expected = sum(1.0 if new < old else 0.5 if new == old else 0.0
                       for new, old in ((first[0], first[1]), (second[1], second[0])))
        assert layout.points([ranking(first), ranking(second)]) == expected


def test_yoninkan_replays_the_deal_with_old_in_news_seat_turning_with_the_pair() -> None:
    layout = pair_layout("yoninkan")
    assert layout.replay and layout.num_players == 4
    for pair in range(8):
        seat = pair % 4
        seating = layout.at(pair)
        assert seating.seats(0, "N", "O") == tuple("N" if s == seat else "O" for s in range(4))
        assert seating.seats(1, "N", "O") == ("O", "O", "O", "O")
    make_game("yoninkan", num_players=layout.num_players)


def test_a_yoninkan_pair_compares_news_seat_with_olds_in_the_replay() -> None:
    seating = pair_layout("yoninkan").at(6)  # NEW in seat 2
    results = [[5.0, -1.0, 7.0, -11.0], [9.0, 3.0, -2.0, -10.0]]
    assert seating.margin(results) == 9.0  # 7 - (-2): the other seats do not count
    # Ranks by seat (0 = first): NEW third in seat 2, OLD second there in the replay: 0 points.
    assert seating.points([[0, 1, 2, 3], [2, 0, 1, 3]]) == 0.0
    assert seating.points([[1, 0, 0, 3], [3, 2, 1, 0]]) == 2.0
    assert seating.points([[3, 2, 1, 0], [0, 0, 1, 2]]) == 1.0


def test_head_to_head_margins_are_news_mean_minus_olds() -> None:
    # NEW: seat 0 of the first match, seat 1 of the second; OLD the others: (10 - 4) / 2 - (-10 + 4) / 2.
    assert pair_layout("gin_rummy").margin([[10.0, -10.0], [4.0, -4.0]]) == 6.0
    # NEW: seats 0 and 2, then 1 and 3: (1 + 3 + 7 + 5) / 4 - (2 + 4 + 8 + 6) / 4.
    assert pair_layout("jass").margin([[1.0, 2.0, 3.0, 4.0], [8.0, 7.0, 6.0, 5.0]]) == -1.0


def test_the_logistic_test_refuses_yoninkan_replays() -> None:
    with pytest.raises(PairingError, match="use the normalized test"):
        pair_layout("yoninkan").check(new_test("yoninkan", "logistic"))
    pair_layout("yoninkan").check(new_test("yoninkan"))
    pair_layout("gin_rummy").check(new_test("gin_rummy", "logistic"))


def test_unknown_game() -> None:
    with pytest.raises(UnknownGameError):
        pair_layout("chess")


def test_pair_seeds_are_reproducible() -> None:
    first, again = pair_seeds(7), pair_seeds(7)
    seeds = [first() for _ in range(5)]
    assert seeds == [again() for _ in range(5)] and len(set(seeds)) == 5
