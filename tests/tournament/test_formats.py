"""Scheduling formats: counts and balance of each, checked without any engine."""

from __future__ import annotations

import itertools
import math
from collections import Counter

import pytest

from arena.scheduling.round_robin import (Format, ScheduleError, balanced_subsets, format_for, free_for_all, meetings,
                             partitions, rotations, schedule, team_matches, two_seat)

BOTS = ["a", "b", "c", "d", "e"]


def seat_counts(pairings):
    return Counter((bot, seat) for p in pairings for seat, bot in enumerate(p.seats))


class TestTwoSeat:
    def test_every_pair_both_orders_each_round(self):
        pairings = two_seat(BOTS, rounds=3)
        assert len(pairings) == 5 * 4 * 3
        orders = Counter(p.seats for p in pairings)
        assert set(orders) == set(itertools.permutations(BOTS, 2))
        assert set(orders.values()) == {3}

    def test_seats_are_balanced(self):
        assert set(seat_counts(two_seat(BOTS, rounds=2)).values()) == {8}

    def test_duplicate_deal_shares_one_seed_per_pair_and_round(self):
        pairings = two_seat(BOTS, rounds=2, duplicate=True, seed=5)
        by_deal = {}
        for p in pairings:
            by_deal.setdefault(p.deal, []).append(p)
        assert len(by_deal) == 10 * 2
        for group in by_deal.values():
            assert len(group) == 2
            assert group[0].seed == group[1].seed
            assert group[0].seats == tuple(reversed(group[1].seats))
        assert len({group[0].seed for group in by_deal.values()}) == len(by_deal)

    def test_without_duplicate_every_match_has_its_own_seed(self):
        pairings = two_seat(BOTS, rounds=2, duplicate=False, seed=5)
        assert len({p.seed for p in pairings}) == len(pairings)
        assert len({p.deal for p in pairings}) == len(pairings)

    def test_same_seed_same_schedule(self):
        assert two_seat(BOTS, seed=9) == two_seat(BOTS, seed=9)
        assert two_seat(BOTS, seed=9) != two_seat(BOTS, seed=10)


class TestFreeForAll:
    def test_exactly_k_bots_one_table_every_rotation(self):
        pairings = free_for_all(BOTS[:4], 4, rounds=2)
        assert len(pairings) == 4 * 2
        assert [p.seats for p in pairings[:4]] == rotations(("a", "b", "c", "d"))
        assert set(seat_counts(pairings).values()) == {2}

    def test_duplicate_deal_is_one_seed_per_table_round(self):
        pairings = free_for_all(BOTS[:4], 4, rounds=2, duplicate=True, seed=1)
        assert len({p.seed for p in pairings[:4]}) == 1
        assert len({p.seed for p in pairings}) == 2

    def test_more_bots_every_subset_with_rotations(self):
        pairings = free_for_all(BOTS, 3, rounds=1)
        assert len(pairings) == math.comb(5, 3) * 3
        assert Counter(frozenset(p.seats) for p in pairings) == {frozenset(s): 3
                                                                for s in itertools.combinations(BOTS, 3)}
        assert set(meetings(pairings).values()) == {3 * 3}
        assert set(seat_counts(pairings).values()) == {math.comb(4, 2)}

    @pytest.mark.parametrize(("n", "k"), [(10, 4), (12, 5), (9, 3), (13, 4)])
    def test_balanced_sample_gives_every_pair_the_same_meetings(self, n, k):
        max_tables = math.comb(n, k) - 1  # forces the sample
        subsets = balanced_subsets(n, k, max_tables=max_tables)
        assert len(subsets) < math.comb(n, k)
        pairings = free_for_all(list(range(n)), k, max_tables=max_tables)
        pair_counts = meetings(pairings)
        assert len(pair_counts) == math.comb(n, 2)
        assert len(set(pair_counts.values())) == 1
        assert len(set(Counter(b for p in pairings for b in p.seats).values())) == 1
        assert len(set(seat_counts(pairings).values())) == 1

    def test_no_balanced_sample_within_the_limit_is_an_error(self):
        with pytest.raises(ScheduleError, match="pair-balanced"):
            balanced_subsets(11, 5, max_tables=10)


class TestTeams:
    TEAMS = ((0, 2), (1, 3))

    def test_four_bots_three_partnerships_both_sides(self):
        pairings = team_matches(BOTS[:4], self.TEAMS, rounds=1)
        assert len(pairings) == 3 * 2
        splits = Counter(frozenset({frozenset((p.seats[0], p.seats[2])), frozenset((p.seats[1], p.seats[3]))})
                         for p in pairings)
        assert len(splits) == 3 and set(splits.values()) == {2}
        # each partnership sits once on each side
        sides = Counter((frozenset((p.seats[0], p.seats[2])), "even") for p in pairings)
        sides.update((frozenset((p.seats[1], p.seats[3])), "odd") for p in pairings)
        assert set(sides.values()) == {1} and len(sides) == 12

    def test_duplicate_deal_both_sides_play_one_seed(self):
        pairings = team_matches(BOTS[:4], self.TEAMS, duplicate=True, seed=3)
        for first, second in zip(pairings[::2], pairings[1::2]):
            assert first.seed == second.seed and first.deal == second.deal
            assert {first.seats[0], first.seats[2]} == {second.seats[1], second.seats[3]}

    def test_more_bots_partners_and_opponents_balanced(self):
        bots = list(range(6))
        pairings = team_matches(bots, self.TEAMS, rounds=1)
        assert len(pairings) == math.comb(6, 4) * 3 * 2
        partners = Counter(frozenset((p.seats[a], p.seats[b])) for p in pairings for a, b in self.TEAMS)
        assert len(partners) == math.comb(6, 2) and len(set(partners.values())) == 1
        assert len(set(meetings(pairings).values())) == 1
        assert len(set(Counter(b for p in pairings for b in p.seats).values())) == 1
        sides = Counter((bot, seat % 2) for p in pairings for seat, bot in enumerate(p.seats))
        assert len(set(sides.values())) == 1

    def test_partitions(self):
        assert partitions("abcd", 2) == [(("a", "b"), ("c", "d")), (("a", "c"), ("b", "d")), (("a", "d"), ("b", "c"))]
        assert len(partitions("abcdef", 2)) == 15
        assert len(partitions("abcdef", 3)) == 10


class TestFormatFor:
    def test_two_player_game(self):
        assert format_for(min_players=2, max_players=2, teams=None, num_bots=5) == Format("two_seat", 2)

    def test_free_for_all_defaults_to_all_bots_up_to_the_maximum(self):
        assert format_for(min_players=1, max_players=8, teams=None, num_bots=3).table_size == 3
        assert format_for(min_players=1, max_players=8, teams=None, num_bots=12).table_size == 8
        assert format_for(min_players=4, max_players=4, teams=None, num_bots=6).table_size == 4

    def test_team_game(self):
        fmt = format_for(min_players=4, max_players=4, teams=((0, 2), (1, 3)), num_bots=4)
        assert fmt.kind == "teams" and fmt.table_size == 4

    @pytest.mark.parametrize(("kwargs", "message"), [
        ({"min_players": 2, "max_players": 2, "teams": None, "num_bots": 1}, "at least 2 bots"),
        ({"min_players": 1, "max_players": 8, "teams": None, "num_bots": 3, "table_size": 9}, "outside"),
        ({"min_players": 1, "max_players": 8, "teams": None, "num_bots": 3, "table_size": 4}, "at least 4 bots"),
        ({"min_players": 4, "max_players": 4, "teams": ((0, 2), (1, 3)), "num_bots": 1}, "at least 2 bots"),
        ({"min_players": 2, "max_players": 2, "teams": None, "num_bots": 3, "table_size": 3}, "tables of 2"),
    ])
    def test_impossible_options_are_errors(self, kwargs, message):
        with pytest.raises(ScheduleError, match=message):
            format_for(**kwargs)

    def test_a_bot_entered_twice_is_an_error(self):
        with pytest.raises(ScheduleError, match="twice"):
            schedule(Format("two_seat", 2), ["a", "b", "a"])
