"""The ladder's scheduler on its own: fairness floor, new entrants, determinism, coverage, seating."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from arena.league.ratings import SIGMA
from arena.scheduling.ladder import (DuplicateSet, Entrant, Policy, ambiguity, count_before, next_set,
                                    rate_shares)
from arena.scheduling.round_robin import Format, ScheduleError

TWO = Format("two_seat", 2)
FOUR = Format("free_for_all", 4)
JASS = Format("teams", 4, ((0, 2), (1, 3)))


def settled(mus: list[float], sigma: float = 1.0) -> list[Entrant[int]]:
    """Entrants with known, settled ratings (no new entrant), bot ``i`` at ``mus[i]``."""
    return [Entrant(i, mu, sigma) for i, mu in enumerate(mus)]


def simulate(entrants: list[Entrant[int]], fmt: Format, sets: int, policy: Policy,
             seed: int = 7) -> tuple[list[DuplicateSet[int]], list[frozenset[int]]]:
    """Run the scheduler ``sets`` times with fixed ratings, the clock counting matches as the
    benchmark does; the sets and, per match, who played it."""
    times: dict[int, list[float]] = {e.bot: [] for e in entrants}
    before: Counter[tuple[int, int]] = Counter()
    chosen, seated = [], []
    for number in range(sets):
        recent = len(seated) - policy.window
        current = [Entrant(e.bot, e.mu, e.sigma, e.joined, tuple(t for t in times[e.bot] if t > recent))
                   for e in entrants]
        dup = next_set(current, fmt, now=len(seated), seed=seed, number=number, policy=policy, before=before)
        count_before(dup.seatings, before)
        chosen.append(dup)
        for seats in dup.seatings:
            seated.append(frozenset(seats))
            for bot in set(seats):
                times[bot].append(len(seated))
    return chosen, seated


def min_share(seated: list[frozenset[int]], bots: range, window: int) -> float:
    """The smallest matches-in-window / mean over every entrant and every full sliding window."""
    worst = float("inf")
    for end in range(window, len(seated) + 1):
        counts = [sum(bot in match for match in seated[end - window:end]) for bot in bots]
        worst = min(worst, min(counts) / (sum(counts) / len(counts)))
    return worst


# Two close pairs in the middle, the rest far apart: informativeness alone would play only them.
SPREAD = [10.0, 18.0, 24.0, 24.3, 26.0, 26.2, 32.0, 40.0]


@pytest.mark.parametrize("fmt", [TWO, FOUR, JASS], ids=["two-seat", "tables-of-4", "teams"])
def test_every_entrant_keeps_half_the_mean_rate_over_every_window(fmt: Format) -> None:
    window = 20 * len(SPREAD) // fmt.table_size * 2
    policy = Policy(window=window)
    _, seated = simulate(settled(SPREAD), fmt, 300, policy)
    assert min_share(seated, range(len(SPREAD)), window) >= policy.floor


def test_without_the_guard_the_far_entrants_starve() -> None:
    """The floor is the guard's doing: without it the same ladder leaves the extremes behind."""
    window = 80
    _, seated = simulate(settled(SPREAD), TWO, 300, Policy(window=window, guard=0.0))
    assert min_share(seated, range(len(SPREAD)), window) < 0.5


def test_most_sets_go_to_the_entrants_whose_order_is_unknown() -> None:
    chosen, _ = simulate(settled(SPREAD), TWO, 300, Policy(window=80))
    close = sum(dup.bots in ({2, 3}, {4, 5}) for dup in chosen)
    assert close > len(chosen) / 3  # 2 of the 28 pairs; a round robin would give them 1/14


def test_a_new_entrant_plays_first_until_its_sigma_comes_down() -> None:
    entrants = settled(SPREAD) + [Entrant(99, 25.0, SIGMA, joined=500.0)]
    times = {e.bot: tuple(float(t) for t in range(400, 500, 2)) for e in entrants[:-1]}
    current = [Entrant(e.bot, e.mu, e.sigma, e.joined, times.get(e.bot, ())) for e in entrants]
    for number in range(5):
        dup = next_set(current, TWO, now=500.0, seed=3, number=number, policy=Policy(window=100))
        assert 99 in dup.bots and dup.reason == "new"
    current[-1] = Entrant(99, 25.0, SIGMA / 3, joined=400.0, times=tuple(float(t) for t in range(400, 500, 2)))
    reasons = {next_set(current, TWO, now=500.0, seed=3, number=n, policy=Policy(window=100)).reason
               for n in range(20)}
    assert "new" not in reasons


def test_the_same_state_and_seed_give_the_same_set() -> None:
    entrants = settled(SPREAD, sigma=3.0)
    for fmt in (TWO, FOUR, JASS):
        first = [next_set(entrants, fmt, now=0, seed=11, number=n) for n in range(10)]
        again = [next_set(entrants, fmt, now=0, seed=11, number=n) for n in range(10)]
        other = [next_set(entrants, fmt, now=0, seed=12, number=n) for n in range(10)]
        assert first == again
        assert first != other
        assert len({dup.seed for dup in first}) == 10


@pytest.mark.parametrize("fmt", [TWO, FOUR, JASS], ids=["two-seat", "tables-of-4", "teams"])
def test_everyone_meets_everyone_over_time(fmt: Format) -> None:
    chosen, _ = simulate(settled(SPREAD), fmt, 1000, Policy(window=200))
    met = {frozenset(pair) for dup in chosen for pair in itertools.combinations(dup.bots, 2)}
    assert met == {frozenset(pair) for pair in itertools.combinations(range(len(SPREAD)), 2)}


def test_every_match_of_a_set_shares_its_seed_and_seats_every_bot_everywhere() -> None:
    dup = next_set(settled(SPREAD), FOUR, now=0, seed=1, number=0)
    assert len(dup.seatings) == 4 and len(dup.bots) == 4
    for seat in range(4):
        assert {seats[seat] for seats in dup.seatings} == dup.bots
    two = next_set(settled(SPREAD), TWO, now=0, seed=1, number=0)
    assert sorted(two.seatings) == sorted([two.seatings[0], two.seatings[0][::-1]])


def cyclic(seats: tuple[int, ...]) -> tuple[int, ...]:
    """The seat order rotated to start with its smallest bot (equal for all rotations)."""
    i = seats.index(min(seats))
    return seats[i:] + seats[:i]


def test_the_cyclic_order_changes_between_sets_of_the_same_table() -> None:
    entrants = settled([20.0, 21.0, 22.0, 23.0])  # exactly one table: only the seating can change
    chosen, _ = simulate(entrants, FOUR, 6, Policy(window=100))
    orders = [cyclic(dup.seatings[0]) for dup in chosen]
    assert all(len({cyclic(seats) for seats in dup.seatings}) == 1 for dup in chosen)  # one order per set
    assert all(a != b for a, b in zip(orders, orders[1:]))
    assert len(set(orders)) == 6  # all (4-1)! cyclic orders of four seats
    before = Counter()
    for dup in chosen:
        count_before(dup.seatings, before)
    assert set(before) == set(itertools.permutations(range(4), 2))
    assert max(before.values()) - min(before.values()) <= 4


def test_without_history_the_cyclic_order_repeats() -> None:
    """What ``before`` is for: passing no counts, sets of one table soon repeat their order."""
    entrants = settled([20.0, 21.0, 22.0, 23.0])
    orders = [cyclic(next_set(entrants, FOUR, now=0, seed=7, number=n).seatings[0]) for n in range(6)]
    assert len(set(orders)) < 6


def test_team_sets_pick_the_most_even_partnerships_on_both_sides() -> None:
    entrants = settled([35.0, 34.0, 16.0, 15.0], sigma=2.0)
    for number in range(10):
        dup = next_set(entrants, JASS, now=0, seed=5, number=number, policy=Policy(explore=0.0))
        assert len(dup.seatings) == 2
        first, second = dup.seatings
        partners = {frozenset((first[0], first[2])), frozenset((first[1], first[3]))}
        assert partners == {frozenset({0, 3}), frozenset({1, 2})}  # strong with weak, each side
        assert {first[0], first[2]} == {second[1], second[3]}  # the partnerships swap sides


def test_team_games_with_two_entrants_let_each_fill_its_team() -> None:
    dup = next_set(settled([20.0, 30.0]), JASS, now=0, seed=1, number=0)
    assert sorted(dup.seatings) == [(0, 1, 0, 1), (1, 0, 1, 0)]


def test_too_few_entrants_or_the_same_bot_twice_are_refused() -> None:
    with pytest.raises(ScheduleError, match="at least 4 entrants"):
        next_set(settled([20.0, 21.0, 22.0]), FOUR, now=0, seed=1, number=0)
    with pytest.raises(ScheduleError, match="twice"):
        next_set([Entrant(1, 20.0, 1.0), Entrant(1, 21.0, 1.0)], TWO, now=0, seed=1, number=0)


def test_rate_shares_expect_less_from_an_entrant_that_joined_late() -> None:
    entrants = [Entrant(0, 25.0, 1.0, 0.0, tuple(range(1, 101, 2))),  # 50 matches in the window of 100
                Entrant(1, 25.0, 1.0, 50.0, tuple(range(51, 101, 2)))]  # 25 in the half window since it joined
    shares = rate_shares(entrants, 100.0, 100.0)
    assert shares == pytest.approx({0: 1.0, 1: 1.0})
    assert rate_shares(settled([1.0, 2.0]), 0.0, 100.0) == {}


def test_rate_shares_count_a_resumed_entrants_matches_since_its_resumption_only() -> None:
    """Issue 34: its 25 matches from before a pause were counted against its 10 time units
    since the resume, a share of 5 that kept it from the floor's seats."""
    entrants = [Entrant(0, 25.0, 1.0, 0.0, tuple(range(1, 101))),  # 100 matches in the window of 100
                Entrant(1, 25.0, 1.0, 90.0, tuple(range(1, 51, 2)))]  # paused at 50, resumed at 90: none since
    assert rate_shares(entrants, 100.0, 100.0) == pytest.approx({0: 1.1, 1: 0.0})  # the mean: 100 over 110


def test_a_resumed_entrant_is_seated_at_once_and_keeps_its_share() -> None:
    """Issue 34's ladder on a simulated clock (one unit a match, times kept across the pause as
    the live ladder keeps them): a heuristic, its copy and a random bot; the random bot paused
    after 150 matches and resumed 19 later.  The first set after the resume seats it, and over
    the next 120 matches it keeps its share (above the floor; it was 0.1 before the fix)."""
    policy = Policy(window=600)
    mus = {0: 30.0, 1: 30.1, 2: 15.0}  # the copies' order is open, the random bot's is not
    joined = dict.fromkeys(mus, 0.0)
    times: dict[int, list[float]] = {bot: [] for bot in mus}
    seated: list[frozenset[int]] = []
    chosen: list[DuplicateSet[int]] = []

    def play(active: list[int], until: int) -> None:
        while len(seated) < until:
            now = float(len(seated))
            current = [Entrant(b, mus[b], 1.0, joined[b], tuple(t for t in times[b] if t > now - policy.window))
                       for b in active]
            dup = next_set(current, TWO, now=now, seed=7, number=len(chosen), policy=policy)
            chosen.append(dup)
            for seats in dup.seatings:
                seated.append(frozenset(seats))
                for bot in seats:
                    times[bot].append(now)

    play([0, 1, 2], 150)
    play([0, 1], 170)
    joined[2] = 169.0  # resumed while the last set of the pause played
    resumed = len(chosen)
    play([0, 1, 2], 290)
    assert 2 in chosen[resumed].bots and chosen[resumed].reason == "floor"
    counts = [sum(bot in match for match in seated[170:]) for bot in mus]
    assert counts[2] / (sum(counts) / 3) >= policy.floor


def test_ambiguity_is_one_for_equal_ratings_and_falls_with_the_gap() -> None:
    a, b, c = Entrant(0, 25.0, 2.0), Entrant(1, 25.0, 2.0), Entrant(2, 35.0, 2.0)
    assert ambiguity(a, b) == pytest.approx(1.0)
    assert ambiguity(a, c) == pytest.approx(ambiguity(c, a)) and ambiguity(a, c) < 0.001
    assert ambiguity(a, Entrant(3, 35.0, 8.0)) > ambiguity(a, c)  # less sure when sigma is larger
