"""Seating across rounds: who sits directly before whom (issue 25).

In play order seat ``s`` is directly before seat ``s + 1`` (and the last before seat 0); in
Yaniv a player draws from the previous player's discards, so a bot that always follows the
same neighbour is rated against a fixed handicap.  These tests count, over a whole
schedule, how many matches each bot sits directly before each other bot.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

import pytest

from arena.scheduling.round_robin import (Pairing, ScheduleError, balanced_subsets, cycle_design, format_for, free_for_all,
                             rotations, schedule, team_matches)

from .helpers import write_bot

NO_DESIGN = (4, 6)
"""Table sizes for which no set of k - 1 cyclic orders gives every ordered pair once (Tillson 1980)."""


def before_counts(pairings: Sequence[Pairing[int]], bots: Sequence[int]) -> Counter[tuple[int, int]]:
    """Matches in which ``a`` sits directly before ``b``, for every ordered pair (zeros included)."""
    counts: Counter[tuple[int, int]] = Counter({(a, b): 0 for a, b in itertools.permutations(bots, 2)})
    for pairing in pairings:
        seats = pairing.seats
        for s, bot in enumerate(seats):
            following = seats[(s + 1) % len(seats)]
            if following != bot:
                counts[(bot, following)] += 1
    return counts


def spread(counts: Counter[tuple[int, int]]) -> int:
    return max(counts.values()) - min(counts.values())


def period(k: int) -> int:
    return 2 * (k - 1) if k in NO_DESIGN else k - 1


def assert_duplicate_deals_intact(pairings: Sequence[Pairing[int]], k: int) -> None:
    """Every deal is one seed played once per rotation of one seat order."""
    deals: dict[int, list[Pairing[int]]] = {}
    for pairing in pairings:
        deals.setdefault(pairing.deal, []).append(pairing)
    for group in deals.values():
        assert len({p.seed for p in group}) == 1
        assert [p.rotation for p in group] == list(range(k))
        assert [p.seats for p in group] == rotations(group[0].seats)


class TestExactlyKBots:
    @pytest.mark.parametrize("k", range(3, 9))
    def test_every_bot_sits_before_every_other_equally_often_after_each_period(self, k):
        bots = list(range(k))
        for rounds in (period(k), 2 * period(k)):
            pairings = free_for_all(bots, k, rounds=rounds, seed=k)
            counts = before_counts(pairings, bots)
            assert spread(counts) == 0, (rounds, counts)
            assert_duplicate_deals_intact(pairings, k)

    @pytest.mark.parametrize("k", range(3, 9))
    def test_in_between_the_counts_differ_by_at_most_one_table(self, k):
        """One table's rotations add ``k`` matches to each ordered pair of its cycle: within
        one table is the finest balance rotations allow.  At 4 and 6 seats, after ``k - 1``
        rounds (mod ``2(k - 1)``) it cannot be reached: it would be the design that does not exist."""
        bots = list(range(k))
        for rounds in range(1, 2 * period(k) + 1):
            counts = before_counts(free_for_all(bots, k, rounds=rounds, seed=1), bots)
            allowed = 2 * k if k in NO_DESIGN and rounds % period(k) == k - 1 else k
            assert spread(counts) <= allowed, (rounds, counts)

    def test_a_three_round_yaniv_tournament_of_six_bots_uses_three_seat_cycles_bug(self):
        fmt = format_for(min_players=2, max_players=8, teams=None, num_bots=6)
        pairings = schedule(fmt, list(range(6)), rounds=3, seed=25)
        cycles = {min(rotations(p.seats)) for p in pairings}
        assert len(pairings) == 18 and len(cycles) == 3

    def test_no_bot_always_plays_just_before_the_same_bot_bug(self):
        """The demo's Yoninkan: four bots, 16 matches; ``random`` always sat just before the heuristic."""
        pairings = free_for_all(list(range(4)), 4, rounds=4, seed=3)
        predecessors = {bot: {p.seats[s - 1] for p in pairings for s in range(4) if p.seats[s] == bot}
                        for bot in range(4)}
        assert all(len(others) == 3 for others in predecessors.values()), predecessors


SPREAD_BOUND = {
    (3, 4): 0, (3, 5): 1, (3, 6): 0,
    (4, 5): 2, (4, 6): 2, (4, 7): 2,
    (5, 6): 2, (5, 7): 2, (5, 8): 2,
    (6, 7): 2, (6, 8): 4, (6, 9): 4,
    (7, 8): 2, (7, 9): 3, (7, 10): 3,
    (8, 9): 3, (8, 10): 4, (8, 11): 4,
}
"""(table size, bots): the largest spread of ``before`` counts, in tables, after any round of a
period, measured for seeds 0 to 2 by ``benchmarks/seating_balance.py`` (docs/tournaments.md).
The greedy it replaced reached 2 to 7 (0 and 1 at 3 seats)."""


def spreads_by_round(pairings: Sequence[Pairing[int]], bots: Sequence[int], k: int) -> list[int]:
    """The spread, in tables (``k`` matches), after each round of ``pairings``."""
    counts = before_counts([], bots)
    out = []
    for round_ in range(max(p.round for p in pairings) + 1):
        counts.update(before_counts([p for p in pairings if p.round == round_], bots))
        assert all(count % k == 0 for count in counts.values())
        out.append(spread(counts) // k)
    return out


class TestMoreBotsThanSeats:
    @pytest.mark.parametrize(("k", "n"), sorted(SPREAD_BOUND))
    def test_counts_stay_close_after_every_round_and_exact_after_each_period(self, k, n):
        bots = list(range(n))
        pairings = free_for_all(bots, k, rounds=2 * period(k), seed=0)
        spreads = spreads_by_round(pairings, bots, k)
        assert max(spreads) <= SPREAD_BOUND[(k, n)], spreads
        assert spreads[period(k) - 1] == spreads[-1] == 0, spreads
        assert spreads[:period(k)] == spreads[period(k):]  # the period repeats
        assert_duplicate_deals_intact(pairings, k)

    def test_twenty_bots_at_sampled_tables_of_six_stay_within_three_tables(self):
        """1140 of the 38,760 tables (a union of cyclic orbits); the greedy reached 8 here."""
        bots = list(range(20))
        pairings = free_for_all(bots, 6, rounds=period(6), seed=0)
        assert len(pairings) == 1140 * 6 * period(6)
        spreads = spreads_by_round(pairings, bots, 6)
        assert max(spreads) <= 3 and spreads[-1] == 0, spreads

    def test_the_seating_is_a_function_of_the_seed(self):
        bots = list(range(7))
        first = free_for_all(bots, 4, rounds=3, seed=5)
        assert free_for_all(bots, 4, rounds=3, seed=5) == first
        assert free_for_all(bots, 4, rounds=3, seed=6) != first

    @pytest.mark.parametrize(("n", "k"), [(n, k) for k in range(3, 9) for n in (k + 1, k + 2)])
    def test_exact_after_each_period(self, n, k):
        bots = list(range(n))
        pairings = free_for_all(bots, k, rounds=period(k), seed=n)
        assert spread(before_counts(pairings, bots)) == 0
        assert_duplicate_deals_intact(pairings, k)

    def test_exact_with_a_pair_balanced_sample_of_tables(self):
        bots = list(range(10))
        pairings = free_for_all(bots, 4, rounds=period(4), seed=2, max_tables=100)  # 30 of the 210 tables
        assert len(pairings) == 30 * 4 * period(4)
        assert spread(before_counts(pairings, bots)) == 0

    def test_the_same_table_changes_its_seat_cycle_from_round_to_round(self):
        pairings = free_for_all(list(range(6)), 4, rounds=2, seed=0)
        first = {frozenset(p.seats): min(rotations(p.seats)) for p in pairings if p.round == 0}
        second = {frozenset(p.seats): min(rotations(p.seats)) for p in pairings if p.round == 1}
        assert all(first[table] != second[table] for table in first)


def directed_cycle_covers(k: int, cycles: int) -> int:
    """How many multisets of ``cycles`` cyclic orders of ``k`` seats put every seat directly
    before every other seat equally often (exhaustive; for small ``k`` and ``cycles``)."""
    orders = [(0, *rest) for rest in itertools.permutations(range(1, k))]
    arcs = [Counter((c[i], c[(i + 1) % k]) for i in range(k)) for c in orders]
    found = 0
    for chosen in itertools.combinations_with_replacement(range(len(orders)), cycles):
        counts = sum((arcs[i] for i in chosen), Counter())
        found += len(counts) == k * (k - 1) and len(set(counts.values())) == 1
    return found


def hamiltonian_decomposition_exists(k: int) -> bool:
    """Whether ``k - 1`` cyclic orders of ``k`` seats put every seat directly before every
    other exactly once: an exhaustive exact cover, the order leaving seat 0 for seat ``j``
    chosen for ``j = 1, 2, ...`` in turn (each such arc is in exactly one order)."""
    by_first = {j: [frozenset((c[i], c[(i + 1) % k]) for i in range(k))
                    for c in ((0, j, *rest) for rest in itertools.permutations(set(range(1, k)) - {j}))]
                for j in range(1, k)}

    def cover(j: int, used: frozenset[tuple[int, int]]) -> bool:
        return j == k or any(cover(j + 1, used | arcs) for arcs in by_first[j] if not used & arcs)

    return cover(1, frozenset())


class TestTheTournamentsRounds:
    """Issue 25: what counts is ``before(a, b)`` after the tournament's ``R`` rounds.

    Within one table of each other is the finest balance rotations allow; when the mean count
    is a whole number of tables, within one means equal.  The exceptions below are the
    counts the schedule misses, each with its reason."""

    PROVEN = {(4, 4): 2, (6, 6): 2}
    """Exactly ``k`` bots at 4 and 6 seats, after ``k - 1`` rounds (mod ``P``): the mean is a
    whole number of tables (``R / (k - 1)``, odd), so within one would mean exact, and the
    last ``k - 1`` rounds of the repeating period would have to be ``k - 1`` cyclic orders
    with every ordered pair once, which do not exist (Tillson, 1980; reproduced below)."""

    MISSED = {
        **{(6, 8, r): 2 for r in (2, 4, 6, 7)}, **{(6, 9, r): 2 for r in (*range(1, 10), 11)},
        (7, 8, 1): 2, (7, 8, 5): 2, (7, 8, 7): 2,
        **{(8, 10, r): 2 for r in (*range(1, 7), 8)},
    }
    """(seats, bots, rounds): spreads the seeded search (seed 0, with its restarts) leaves at
    two tables where the mean is whole, measured, not proven impossible
    (``benchmarks/seating_balance.py``).  Before the restarts and the field's orbits it also
    left (4, 6, 5) and 8 bots at 5 seats after 1, 3 and 5 rounds, and more of 6 and 7 seats."""

    @pytest.mark.parametrize(("k", "n"), [(k, n) for k in range(3, 9) for n in range(k, k + 4)])
    def test_after_the_last_round_the_counts_are_within_one_table(self, k, n):
        bots = list(range(n))
        tables = len(balanced_subsets(n, k))
        # One round, k - 1 rounds, the last before a period ends and one past it: the shapes a short
        # tournament takes (benchmarks/seating_balance.py prints every R).
        for rounds in sorted({1, k - 1, period(k) - 1, period(k) + 1}):
            pairings = free_for_all(bots, k, rounds=rounds, seed=0)
            final = spreads_by_round(pairings, bots, k)[-1]
            whole = rounds * tables * k % (n * (n - 1)) == 0
            if (k, n) in self.PROVEN and rounds % period(k) == k - 1:
                assert final == self.PROVEN[(k, n)], rounds
            else:
                assert final <= self.MISSED.get((k, n, rounds), 0 if whole else 1), rounds
            assert_duplicate_deals_intact(pairings, k)

    @pytest.mark.parametrize("k", NO_DESIGN)
    def test_no_k_minus_one_cyclic_orders_give_every_ordered_pair_once_at_4_and_6_seats(self, k):
        """The proof behind :attr:`PROVEN` for the first ``k - 1`` rounds, by exhaustive search
        (every other size has such orders: :func:`cycle_design`)."""
        assert not hamiltonian_decomposition_exists(k)
        assert hamiltonian_decomposition_exists(k - 1)  # the search finds one where it exists

    def test_not_even_nine_freely_chosen_cyclic_orders_of_4_seats_are_exact(self):
        """After ``P + k - 1 = 9`` rounds at 4 seats no schedule at all, repeating its period
        or not, is exact (nor after 3)."""
        assert directed_cycle_covers(4, 3) == directed_cycle_covers(4, 9) == 0
        assert directed_cycle_covers(4, 6) > 0

    @pytest.mark.parametrize("seed", [0, 3])
    def test_eight_bots_at_five_seats_are_exact_after_every_round(self, seed):
        """All 56 tables of 5 from 8 bots are one orbit of the 56 maps ``z -> a z + b`` of the
        field of 8 elements, seated as one table carried by each map: every ordered pair gets
        each arc once, after every round (the search alone left two tables after 1 and 3)."""
        bots = list(range(8))
        for rounds in (1, 2, 3, 5):
            pairings = free_for_all(bots, 5, rounds=rounds, seed=seed)
            assert spreads_by_round(pairings, bots, 5) == [0] * rounds
            assert_duplicate_deals_intact(pairings, 5)

    def test_the_seating_depends_on_the_number_of_rounds_and_nothing_random(self):
        bots = list(range(5))
        three = free_for_all(bots, 4, rounds=3, seed=5)
        assert free_for_all(bots, 4, rounds=3, seed=5) == three
        assert free_for_all(bots, 4, rounds=1, seed=5) != three[:len(three) // 3]


class TestDesign:
    @pytest.mark.parametrize("k", range(2, 13))
    def test_every_ordered_pair_is_adjacent_equally_often(self, k):
        design = cycle_design(k)
        counts = Counter((c[i], c[(i + 1) % k]) for c in design for i in range(k))
        assert set(counts) == set(itertools.permutations(range(k), 2))
        assert set(counts.values()) == {2 if k in NO_DESIGN else 1}
        assert all(sorted(c) == list(range(k)) for c in design)


class TestTeams:
    TEAMS = ((0, 2), (1, 3))

    @pytest.mark.parametrize("n", [4, 5, 6])
    def test_every_bot_sits_before_each_opponent_equally_often_every_round(self, n):
        """In Jass partners sit opposite, so a bot's neighbours are always opponents: every
        ordered pair of bots is opponents equally often, and each time the two sides of a deal
        put each before the other once."""
        bots = list(range(n))
        for rounds in (1, 2):
            pairings = team_matches(bots, self.TEAMS, rounds=rounds, seed=n)
            assert spread(before_counts(pairings, bots)) == 0
            for p in pairings:  # partners are never neighbours
                assert {p.seats[1], p.seats[3]}.isdisjoint({p.seats[0], p.seats[2]})

    @pytest.mark.parametrize("n", [2, 3])
    def test_self_partnerships_too(self, n):
        bots = list(range(n))
        assert spread(before_counts(team_matches(bots, self.TEAMS, rounds=2, seed=1), bots)) == 0


def test_a_stored_tournament_keeps_the_varying_seats_for_resume(tmp_path):
    """The schedule is stored whole at creation and resume plays the stored rows; they are
    the seed's schedule, with the cyclic order changing between rounds."""
    from arena.league.storage import Database
    from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, plan_tournament


    folders = [str(write_bot(tmp_path / f"b{i}", f"b{i}")) for i in range(4)]
    spec = TournamentSpec(game="yoninkan", bots=tuple(expand_bots(folders, "yoninkan")[0]), rounds=6, seed=11)
    with Database(tmp_path / "league.db") as db:
        tid = create_tournament(db, spec)
        rows = {row.id: position for position, row in enumerate(db.tournament_bots(tid))}
        stored = [(tuple(rows[b] for b in m.bot_ids), m.seed) for m in db.unfinished_matches(tid)]
    planned = [(p.seats, p.seed) for p in plan_tournament(spec).pairings]
    assert stored == planned
    assert len({min(rotations(seats)) for seats, _ in stored}) == 6
    assert spread(before_counts([Pairing(seats, 0, 0, 0, 0) for seats, _ in stored], range(4))) == 0


@pytest.mark.parametrize("rounds", ["10000000000000", "166667"])
def test_a_tournament_of_too_many_matches_is_refused_at_once_bug(tmp_path, sample_bots, rounds):
    """A real ``arena tournament run`` subprocess: one ``Error:`` line naming the limit, no
    database file.  (Before the limit, 10**13 rounds sat building the schedule; the timeout
    only stops a hang, it measures nothing.)  6 Yaniv bots: one table of 6 rotations a round,
    so 166,667 rounds are just over the limit."""
    import subprocess
    import sys

    db = tmp_path / "league.db"
    bots = [arg for i in range(6) for arg in ("--bot", str(write_bot(tmp_path / f"b{i}", f"b{i}")))]
    result = subprocess.run([sys.executable, "-m", "arena.cli", "tournament", "run", "--game", "yaniv", *bots,
                             "--rounds", rounds, "--db", str(db)], capture_output=True, text=True, timeout=120)
    assert result.returncode == 1, result.stdout + result.stderr
    lines = (result.stdout + result.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), lines
    assert "1,000,000" in lines[0] and "at most 166,666 round(s)" in lines[0], lines[0]
    assert not db.exists()


def test_the_limit_counts_matches_exactly() -> None:
    fmt = format_for(min_players=2, max_players=8, teams=None, num_bots=6)
    assert len(schedule(fmt, list(range(6)), rounds=10, max_matches=60)) == 60
    with pytest.raises(ScheduleError, match="66 matches; a tournament holds at most 60"):
        schedule(fmt, list(range(6)), rounds=11, max_matches=60)
