"""Round-robin schedules: which bots sit where, with which seed, in every match.

Three formats cover every game, chosen from the engine's metadata by :func:`format_for`:

* **two-seat** (Gin Rummy): every pair of bots, both seat orders, ``rounds`` times.
* **free-for-all** with tables of ``k`` seats (Yahtzee, Yams, Yaniv, Yoninkan): with exactly
  ``k`` bots, one table per round, played once per rotation of its seat order; with more,
  every ``k``-subset is a table, or, when there are more subsets than ``max_tables``, a
  union of cyclic orbits of subsets that still gives every pair of bots the same number of
  meetings and every bot the same number of tables.
* **teams** (Jass): for every group of ``teams x team_size`` bots, every way to split them
  into partnerships, each partnership seating played once per rotation of which team sits
  on which side.  With fewer bots than seats (2 or 3 for Jass), every pair of bots meets
  with each bot taking all the seats of its team (it partners itself), on both sides.

**Who sits directly before whom.**  Seat ``s`` plays directly before seat ``s + 1`` (the last
before seat 0): in Yaniv a player draws from the discards of the player before.  The
rotations of one seat order all keep the same cyclic order, so a free-for-all table gives
the same neighbours in all its matches; the cyclic order therefore changes from round to
round, following a *design* (:func:`cycle_design`): ``P`` cyclic orders of ``k`` seats in
which every ordered pair of seats is adjacent equally often (``lambda`` times).  For every
``k`` but 4 and 6 it has ``P = k - 1`` orders and ``lambda = 1`` (a decomposition of the
complete directed graph into Hamiltonian cycles: Walecki's for odd ``k``, found by a small
exact search for even ``k``, which succeeds within its budget up to 18 seats; no game seats
more than 8); for 4 and 6 none exists (Tillson, 1980), and the design has ``P = 2(k - 1)``
orders with ``lambda = 2`` (zig-zag cycles in both directions), as for even tables of 20
seats or more.

Counting ``before(a, b)``, the matches in which bot ``a`` sits directly before bot ``b``, a
tournament of ``R`` rounds (known when its schedule is built) is judged by the counts after
its last round.  Within one table (``k`` matches) of each other is the finest balance
rotations allow, and when the mean count is a whole number of tables within one means equal:

* **exactly k bots**: after every multiple of ``P`` rounds, ``before(a, b)`` is the same for
  every ordered pair (``k * lambda`` per period).  After any other number of rounds the
  counts differ by at most one table, except at 4 and 6 seats after ``k - 1`` rounds (mod
  ``P``), where they differ by two tables, the least possible: the mean is then whole, and
  the last ``k - 1`` rounds of the repeating period would have to be the design that does
  not exist (nor can any other order of the design's cycles, or any schedule at all after
  ``k - 1`` rounds, do it; at 4 seats not even after ``P + k - 1 = 9`` freely chosen rounds:
  tests/tournament/test_seating.py checks both exhaustively).
* **more bots than seats**: each table follows its own copy of the design and uses every
  order of it once per period, so after every multiple of ``P`` rounds
  ``before(a, b) = k * lambda * meetings(a, b)``, the same for every ordered pair since the
  tables are pair-balanced.  Otherwise the tournament ends ``R mod P`` rounds into a period;
  which bot of each table takes which seat of the design and in which round the table uses
  which order are free.  When ``n`` is a prime power, the tables that form a whole orbit
  under the ``n (n - 1)`` maps ``z -> a z + b`` of the field of ``n`` elements are seated
  as one table carried by each map, which is exact after every round (the maps take each
  arc to every ordered pair once): all 56 tables of 5 from 8 bots, 72 of the 84 of 6 from
  9.  For the other tables a seeded local search (:func:`_balance_period`) makes the counts
  after the last round even first, then (as a tie-break) those after the earlier rounds
  the tournament passes through, and, only while the last round is still more than one
  table apart, up to :data:`BALANCE_RESTARTS` more searches from seeds derived from the
  schedule's.  It is a heuristic with measured, not proven, results
  (``benchmarks/seating_balance.py``, tables in ``docs/tournaments.md``): for 3 to 8 seats
  with ``k + 1`` to ``k + 3`` bots and seed 0, within one table after every ``R``, except
  two tables in some cases whose mean is whole: 8 bots at 6 seats after 2, 4, 6 and 7
  rounds, 9 at 6 seats and 10 at 8 seats after every ``R`` measured, and 8 at 7 seats
  after 1, 5 and 7 (measured for ``R`` up to ``P + 1``).  Whether exact is possible there
  is not known (``benchmarks/seating_exact.py`` searches exhaustively; it is undecided
  after 20 million nodes even for 6 bots at 4 seats, which the restarts now make exact).
  (With 6 bots at 5 seats it shows that no schedule is exact after all of rounds 1, 2 and 3
  at once, but each one alone can be, and is.)
* **teams** (partners opposite, as in Jass): a bot's neighbours are always opponents, and the
  two sides of a deal reverse the cyclic order, so each deal puts every bot once directly
  before each of its two opponents and once after: ``before(a, b)`` is the same for every
  ordered pair after every round (and ``0`` for partners of a split, never neighbours).
* **two seats**: every ordered pair, every round.

**Duplicate deals.**  With ``duplicate=True`` a table draws one seed and plays it once per
seat rotation, so every bot is dealt every hand (or rolls every dice sequence) of that deal;
the luck of the deal cancels out of the comparison.  Without it, every match has its own
seed.  Changing the cyclic order between rounds keeps this: a deal is still one cyclic
order, played in all its rotations.

**Size limit.**  :func:`schedule` refuses, before building anything, a tournament of more
than :data:`MAX_MATCHES` matches (every one is stored as a row before play starts).

Everything here is a pure function of the bot ids, the options and a seed: no engine, no
database, so the formats are tested on their own, and a stored tournament's schedule can
be recomputed from its seed.
"""
from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from referee.games.base import player_count_text

BotId = TypeVar("BotId", bound=Hashable)

MAX_TABLES_DEFAULT = 2000
"""Above this many ``k``-subsets per round, a pair-balanced sample replaces the full set."""

SEED_LIMIT = 2**31
"""Match and deal seeds are drawn below this (the duplicate pairs of `arena sprt` too)."""

MAX_MATCHES = 1_000_000
"""The most matches one tournament may schedule.  Each is a database row written before play
starts (a few hundred bytes with its seats); a million take about a minute to store and a few
hundred MB, and more than a laptop plays in weeks."""

DESIGN_SEARCH_NODES = 200_000
"""Work allowed to the exact search for an even table size's design (12 seats take 8,546
steps, 18 seats 132,878); beyond it, the two-fold design is used."""


class ScheduleError(ValueError):
    """Options that no schedule satisfies (too few bots, table size out of range...)."""


@dataclass(frozen=True)
class Pairing(Generic[BotId]):
    """One scheduled match."""

    seats: tuple[BotId, ...]
    """Bot by seat, in play order."""
    seed: int
    """The engine seed: equal for the rotations of one duplicate deal."""
    round: int
    """0-based round of the round-robin."""
    deal: int
    """0-based index of the deal (the seed group) in the whole schedule."""
    rotation: int
    """Which seat rotation of the deal this is (0 for the first)."""


@dataclass(frozen=True)
class Format:
    """How a game is scheduled; see the module docstring."""

    kind: str
    """``"two_seat"``, ``"free_for_all"`` or ``"teams"``."""
    table_size: int
    teams: tuple[tuple[int, ...], ...] | None = None
    """Seats of each team, for ``kind == "teams"``."""

    def describe(self) -> str:
        if self.kind == "teams":
            assert self.teams is not None
            return f"teams ({' vs '.join('+'.join(map(str, t)) for t in self.teams)})"
        if self.kind == "two_seat":
            return "two-seat"
        return f"free-for-all, tables of {self.table_size}"


def format_for(*, min_players: int, max_players: int, teams: tuple[tuple[int, ...], ...] | None,
               num_bots: int, table_size: int | None = None) -> Format:
    """The format for a game with this metadata and ``num_bots`` entrants.

    ``table_size`` defaults to as many bots as the game seats (at most ``num_bots``).

    :raises ScheduleError: if the table size is outside the game's range, or there are too
        few bots for one table.
    """
    if teams is not None:
        size = sum(len(team) for team in teams)
        if table_size not in (None, size):
            raise ScheduleError(f"a team game is played at tables of {size}, not {table_size}")
        if num_bots < len(teams):
            raise ScheduleError(f"a team game needs at least {len(teams)} bots, got {num_bots}")
        return Format("teams", size, tuple(tuple(team) for team in teams))
    if max_players == 2 and min_players == 2:
        if table_size not in (None, 2):
            raise ScheduleError(f"a two-player game is played at tables of 2, not {table_size}")
        if num_bots < 2:
            raise ScheduleError(f"a two-player game needs at least 2 bots, got {num_bots}")
        return Format("two_seat", 2)
    size = table_size if table_size is not None else max(min_players, min(num_bots, max_players))
    if not min_players <= size <= max_players:
        raise ScheduleError(f"table size {size} is outside what the game seats "
                            f"({player_count_text(min_players, max_players)})")
    if num_bots < size:
        raise ScheduleError(f"tables of {size} need at least {size} bots, got {num_bots}")
    return Format("free_for_all", size)


def schedule(fmt: Format, bots: Sequence[BotId], *, rounds: int = 1, duplicate: bool = True, seed: int = 0,
             max_tables: int = MAX_TABLES_DEFAULT, max_matches: int = MAX_MATCHES) -> list[Pairing[BotId]]:
    """The full schedule of a round-robin in format ``fmt``, in play order (round by round).

    :raises ScheduleError: on duplicate bot ids, ``rounds < 1``, an impossible format, or more
        than ``max_matches`` matches (refused before any of them is built).
    """
    if len(set(bots)) != len(bots):
        raise ScheduleError("the same bot is entered twice")
    if rounds < 1:
        raise ScheduleError(f"rounds must be at least 1, got {rounds}")
    per_round = matches_per_round(fmt, len(bots), max_tables=max_tables, seed=seed)
    if per_round * rounds > max_matches:
        raise ScheduleError(f"{rounds:,} round(s) of {per_round:,} matches would schedule {per_round * rounds:,} "
                            f"matches; a tournament holds at most {max_matches:,} (at most "
                            f"{max(1, max_matches // per_round):,} round(s) here)")
    if fmt.kind == "two_seat":
        return two_seat(bots, rounds=rounds, duplicate=duplicate, seed=seed)
    if fmt.kind == "free_for_all":
        return free_for_all(bots, fmt.table_size, rounds=rounds, duplicate=duplicate, seed=seed,
                            max_tables=max_tables)
    if fmt.kind == "teams":
        assert fmt.teams is not None
        return team_matches(bots, fmt.teams, rounds=rounds, duplicate=duplicate, seed=seed, max_tables=max_tables)
    raise ScheduleError(f"unknown format {fmt.kind!r}")


def matches_per_round(fmt: Format, num_bots: int, *, max_tables: int = MAX_TABLES_DEFAULT, seed: int = 0) -> int:
    """How many matches one round of ``fmt`` has, counted without listing them.

    :raises ScheduleError: as :func:`balanced_subsets`.
    """
    if fmt.kind == "two_seat":
        return num_bots * (num_bots - 1)
    if fmt.kind == "teams":
        assert fmt.teams is not None
        sides = len(fmt.teams)
        if num_bots < fmt.table_size:
            return _table_count(num_bots, sides, max_tables, seed) * sides
        splits = len(partitions(range(fmt.table_size), fmt.table_size // sides))
        return _table_count(num_bots, fmt.table_size, max_tables, seed) * splits * sides
    return _table_count(num_bots, fmt.table_size, max_tables, seed) * fmt.table_size


def _table_count(n: int, k: int, max_tables: int, seed: int) -> int:
    """``len(balanced_subsets(n, k, ...))``, without listing all ``C(n, k)`` subsets."""
    if 1 <= k <= n and math.comb(n, k) <= max_tables:
        return math.comb(n, k)
    return len(balanced_subsets(n, k, max_tables=max_tables, seed=seed))


def _expand(rounds: Sequence[Sequence[Sequence[Sequence[BotId]]]], *, duplicate: bool,
            rng: random.Random) -> list[Pairing[BotId]]:
    """Turn each round's tables (each a list of seatings) into pairings with seeds."""
    out: list[Pairing[BotId]] = []
    deal = 0
    for round_, tables in enumerate(rounds):
        for seatings in tables:
            table_seed = rng.randrange(SEED_LIMIT)
            for rotation, seats in enumerate(seatings):
                if duplicate:
                    match_seed = table_seed
                else:
                    match_seed = table_seed if rotation == 0 else rng.randrange(SEED_LIMIT)
                out.append(Pairing(tuple(seats), match_seed, round_, deal if duplicate else len(out), rotation))
            deal += 1
    if not duplicate:  # every match is its own deal
        out = [Pairing(p.seats, p.seed, p.round, i, 0) for i, p in enumerate(out)]
    return out


def rotations(seats: Sequence[BotId]) -> list[tuple[BotId, ...]]:
    """Every cyclic rotation of a seat order, starting with the order itself.

    >>> rotations("abc")
    [('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]
    """
    return [tuple(seats[i:]) + tuple(seats[:i]) for i in range(len(seats))]


def two_seat(bots: Sequence[BotId], *, rounds: int = 1, duplicate: bool = True,
             seed: int = 0) -> list[Pairing[BotId]]:
    """Every pair, both seat orders, ``rounds`` times; a duplicate deal is one seed per pair."""
    tables = [rotations(pair) for pair in itertools.combinations(bots, 2)]
    return _expand([tables] * rounds, duplicate=duplicate, rng=random.Random(seed))


def free_for_all(bots: Sequence[BotId], table_size: int, *, rounds: int = 1, duplicate: bool = True,
                 seed: int = 0, max_tables: int = MAX_TABLES_DEFAULT) -> list[Pairing[BotId]]:
    """Tables of ``table_size``, each played once per seat rotation, every round in another
    cyclic order (see "who sits directly before whom" above).

    With more bots than seats, which seat of the design each bot of a table takes, and in
    which round each table uses which order, are searched (from ``seed``) so that the counts
    stay even after every round.
    """
    rng = random.Random(seed)
    subsets = balanced_subsets(len(bots), table_size, max_tables=max_tables, seed=seed)
    return _expand(_cycles_by_round(bots, subsets, rounds, seed), duplicate=duplicate, rng=rng)


def _cycles_by_round(bots: Sequence[BotId], tables: Sequence[Sequence[int]], rounds: int,
                     seed: int = 0) -> list[list[list[tuple[BotId, ...]]]]:
    """Every round's seatings of ``tables`` (subsets of positions in ``bots``): one order of
    the design per table, in rotation.

    Each table uses every order of :func:`cycle_design` once per period, so after a period
    every count has grown by the same amount and the next period repeats the first: only one
    period is computed.  A single table takes the orders in the design's order (its balance
    in between is then the design's); several are balanced by :func:`_balance_period` for
    this tournament's ``rounds``: the counts after the last round matter most.
    """
    design = cycle_design(len(tables[0])) if tables else ((),)
    if len(tables) <= 1 or len(design) == 1:
        seated = [list(table) for table in tables]
        orders = [list(range(len(design))) for _ in tables]
    else:
        seated, orders = _balance_period(tables, len(bots), design, seed, _prefix_weights(len(design), rounds))
    period = [[rotations([bots[table[i]] for i in design[order[r]]]) for table, order in zip(seated, orders)]
              for r in range(len(design))]
    return [period[r % len(period)] for r in range(rounds)]


FINAL_WEIGHT = 1000
"""How much more the counts after the tournament's last round weigh in the search than those
after any earlier round: enough that the final balance comes first, the others break ties."""


def _prefix_weights(period: int, rounds: int) -> list[int]:
    """The weight, in the balancing search, of the counts after ``r`` rounds of a period
    (``r = 0 .. period - 1``), for a tournament of ``rounds`` rounds.

    After a whole number of periods the counts are exact whatever the search does; what is
    left is the last, partial period (``rounds % period`` rounds), weighted
    :data:`FINAL_WEIGHT`, and the earlier prefixes the tournament passes through, weighted 1
    (all of them once it plays a whole period; none beyond its last round otherwise, so a
    one-round tournament balances its one round only).
    """
    final = rounds % period
    played = period if rounds >= period else rounds
    return [0 if r == 0 or r > played else FINAL_WEIGHT if r == final else 1 for r in range(period)]


BALANCE_MOVES = 25_000
"""Moves of each of the two seeded local searches that balance a period's partial counts
(together 0.2 to 2.8 s of CPU with the fallback search, before any restart; see
``benchmarks/seating_balance.py``)."""


BALANCE_RESTARTS = 4
"""Extra seeded searches, at most, when the counts after the tournament's last round are
still more than one table apart (each as long as one of the first searches; the first that
reaches within one ends them).  Measured for 3 to 8 seats with k + 1 to k + 3 bots: at most
5.6 s of CPU per schedule, where all four run and still miss (9 bots at 6 seats); 8
restarts also fixed 8 bots at 6 seats after 2, 4 and 6 rounds, for up to 8.4 s."""


def _balance_period(tables: Sequence[Sequence[int]], n: int, design: Sequence[Sequence[int]],
                    seed: int, weights: list[int]) -> tuple[list[list[int]], list[list[int]]]:
    """Which bot of each table takes which seat of the design, and in which round each table
    uses which design order, so that ``before(a, b)`` is as even as possible after the rounds
    with a non-zero weight (:func:`_prefix_weights`): the heaviest first.

    When ``n`` is a prime power, the tables that form a full orbit under the maps
    ``z -> a z + b`` of the field of ``n`` elements (:func:`_affine_maps`: one table per map)
    are seated as one table's seating carried by each map; every ordered pair of bots is then
    the image of each arc exactly once, so such an orbit adds the same count to every pair
    after every round, and only the other tables are searched (:func:`_search_period`).  If
    the counts after the last round still miss within one table, up to
    :data:`BALANCE_RESTARTS` more searches of that round alone, each from its own seed
    derived from ``seed``, try to reach it; the best is kept.
    """
    seated: list[list[int]] = [[] for _ in tables]
    orders: list[list[int]] = [[] for _ in tables]
    rng = random.Random(f"orbits {seed}")
    for members in _free_orbits(tables, n):
        base = list(tables[members[0][0]])
        rng.shuffle(base)
        order = rng.sample(range(len(design)), len(design))
        for index, image in members:
            seated[index], orders[index] = [image[x] for x in base], order
    rest = [i for i, seating in enumerate(seated) if not seating]
    if len(rest) == 1:
        seated[rest[0]], orders[rest[0]] = list(tables[rest[0]]), list(range(len(design)))
    elif rest:
        part = [tables[i] for i in rest]
        def key(found: tuple[list[list[int]], list[list[int]]]) -> tuple[int, int, int]:
            return _spread_key(found, n, design, weights)

        found = _search_period(part, n, design, seed, weights)
        final = [1 if w == max(weights) else 0 for w in weights]
        for restart in range(BALANCE_RESTARTS if FINAL_WEIGHT in weights else 0):
            if key(found)[0] <= 1:
                break
            hot, cold = (3.0, 0.3) if restart % 4 < 2 else (1.5, 0.5)
            again = _anneal(part, n, design, random.Random(f"seats {seed} restart {restart}"), BALANCE_MOVES,
                            final, by_orbit=restart % 2 == 0, hot=hot, cold=cold)
            found = min(found, again, key=key)
        for i, seating, order in zip(rest, *found):
            seated[i], orders[i] = seating, order
    return seated, orders


@functools.cache
def _affine_maps(n: int) -> tuple[tuple[int, ...], ...] | None:
    """The ``n (n - 1)`` maps ``z -> a z + b`` (``a != 0``) of the field of ``n`` elements, as
    permutations of ``range(n)``, or ``None`` if ``n`` is not a prime power.  They map any
    ordered pair of distinct elements to any other by exactly one map (sharply 2-transitive).

    >>> len(_affine_maps(8)), _affine_maps(6)
    (56, None)
    """
    p = next((d for d in range(2, n + 1) if n % d == 0), None)
    if p is None:
        return None
    m, rest = 0, n
    while rest % p == 0:
        rest, m = rest // p, m + 1
    if rest != 1:
        return None

    def digits(x: int) -> list[int]:  # the coefficients of a polynomial over Z_p, lowest first
        return [x // p**i % p for i in range(m)]

    def number(coefficients: Sequence[int]) -> int:
        return sum(c % p * p**i for i, c in enumerate(coefficients))

    def product(a: int, b: int, modulus: Sequence[int]) -> int:
        """``a * b`` modulo the monic polynomial ``x^m + modulus``."""
        out = [0] * (2 * m - 1)
        for i, x in enumerate(digits(a)):
            for j, y in enumerate(digits(b)):
                out[i + j] += x * y
        for i in range(2 * m - 2, m - 1, -1):
            for j, c in enumerate(modulus):
                out[i - m + j] -= out[i] * c
            out[i] = 0
        return number(out[:m])

    for candidate in range(n):  # the first irreducible modulus: no zero divisors
        modulus = digits(candidate)
        times = [[product(a, b, modulus) for b in range(n)] for a in range(n)]
        if all(times[a][b] for a in range(1, n) for b in range(1, n)):
            break

    def plus(a: int, b: int) -> int:
        return number([x + y for x, y in zip(digits(a), digits(b))])

    return tuple(tuple(plus(times[a][z], b) for z in range(n)) for a in range(1, n) for b in range(n))


def _free_orbits(tables: Sequence[Sequence[int]], n: int) -> list[list[tuple[int, tuple[int, ...]]]]:
    """Groups of ``tables`` (by index, with the map of :func:`_affine_maps` taking the group's
    first table to each) that are whole orbits of distinct tables under those maps."""
    maps = _affine_maps(n) if n * (n - 1) <= len(tables) else None
    if maps is None:
        return []
    free: dict[tuple[int, ...], list[int]] = {}
    for i, table in enumerate(tables):
        free.setdefault(tuple(sorted(table)), []).append(i)
    out = []
    for base in list(free):
        if not free[base]:
            continue
        images = [tuple(sorted(g[x] for x in base)) for g in maps]
        if len(set(images)) == len(maps) and all(free.get(image) for image in images):
            out.append([(free[image].pop(), g) for image, g in zip(images, maps)])
    return out


def _search_period(tables: Sequence[Sequence[int]], n: int, design: Sequence[Sequence[int]],
                   seed: int, weights: list[int],
                   moves: int = BALANCE_MOVES) -> tuple[list[list[int]], list[list[int]]]:
    """The seeded search of :func:`_balance_period` for ``tables``.

    Two searches (:func:`_anneal`): orbit by orbit, then table by table, and the one with the
    smaller spreads, compared heaviest round first (then the largest, then the total), is
    kept.  The second is skipped when the first keeps every weighed count within one, or
    with more than ``15 n`` tables, where it was never measured to win
    (``benchmarks/seating_balance.py``): it would only double the time.  If the heaviest
    round is still more than one table apart, an easier target gets its chance: after
    ``R = mP + f`` rounds, the search of an ``f``-round tournament (so the counts end at
    least as even as there); after ``f < P`` rounds, round ``f`` alone (one count instead of
    several, with half the moves to bound the time).  Seeded by ``seed`` alone.
    """
    rng = random.Random(f"seats {seed}")

    def key(found: tuple[list[list[int]], list[list[int]]]) -> tuple[int, int, int]:
        return _spread_key(found, n, design, weights)

    by_orbit = _anneal(tables, n, design, rng, moves, weights, by_orbit=True)
    if key(by_orbit)[1] <= 1:
        return by_orbit
    found = by_orbit
    if len(tables) <= 15 * n:
        found = min(by_orbit, _anneal(tables, n, design, rng, moves, weights, by_orbit=False), key=key)
    heaviest = max(weights)
    if key(found)[0] > 1 and weights.count(heaviest) == 1 and sum(1 for w in weights if w) > 1:
        shorter = _prefix_weights(len(design), weights.index(heaviest))  # the last period's rounds alone
        if shorter != list(weights):
            found = min(found, _search_period(tables, n, design, seed, shorter, moves), key=key)
        else:
            final = [w if w == heaviest else 0 for w in weights]
            found = min(found, _search_period(tables, n, design, seed, final, moves // 2), key=key)
    return found


def _spread_key(found: tuple[Sequence[Sequence[int]], Sequence[Sequence[int]]], n: int,
                design: Sequence[Sequence[int]], weights: Sequence[int]) -> tuple[int, int, int]:
    """How a search's result ranks (smaller is better): the spread after the heaviest round,
    then the largest spread, then their total."""
    spreads = _spreads(*found, n, design, weights)
    heaviest = max(spreads, key=lambda r: weights[r])
    return spreads[heaviest], max(spreads.values()), sum(spreads.values())


def _spreads(seated: Sequence[Sequence[int]], orders: Sequence[Sequence[int]], n: int,
             design: Sequence[Sequence[int]], weights: Sequence[int]) -> dict[int, int]:
    """Max minus min of ``before(a, b)`` (in tables) after each round ``r`` of the period
    with ``weights[r] > 0``."""
    counts = [0] * (n * n)
    out = {}
    for r in range(len(design) - 1):
        for table, order in zip(seated, orders):
            for arc in _neighbours([table[i] for i in design[order[r]]]):
                counts[arc[0] * n + arc[1]] += 1
        if weights[r + 1]:
            pairs = [counts[a * n + b] for a in range(n) for b in range(n) if a != b]
            out[r + 1] = max(pairs) - min(pairs)
    return out


def _anneal(tables: Sequence[Sequence[int]], n: int, design: Sequence[Sequence[int]], rng: random.Random,
            moves: int, weights: Sequence[int], by_orbit: bool, hot: float = 2.0, cold: float = 0.1) -> tuple[list[list[int]], list[list[int]]]:
    """One search for :func:`_balance_period`: each table's seats and order of design cycles.

    ``tables`` are subsets of the bots ``0 .. n-1``.  Any relabelling of a table's bots and
    any order of its design's cycles keep the period exact; they only move counts between
    the partial sums.  Simulated annealing (seeded, so the schedule is a function of the
    seed) minimises the squared distance of every partial count from its mean, times the
    weight of its round (rounds of weight 0 are not even counted), by two moves: swap the
    rounds of two of a table's orders, or swap the seats of two of its bots.  It stops once
    every weighed partial count is within one of the others, or after ``moves`` moves.

    With ``by_orbit``, the tables of each full cyclic orbit ``{B + t mod n}`` move together
    (``B + t`` is seated as ``B`` shifted by ``t``), so they add the same count to every pair
    ``(a, a + d)``: the search then balances ``n - 1`` differences instead of ``n(n-1)``
    pairs, with ``n`` times fewer tables to place.
    """
    k, period = len(design[0]), len(design)
    remaining = Counter(tuple(sorted(table)) for table in tables)
    units: list[list[int]] = []  # each unit's representative table (then shuffled: its seats)
    full: list[bool] = []  # whether the unit stands for the n tables of a full orbit
    unit_of: dict[tuple[int, ...], list[tuple[int, int]]] = {}  # table -> (unit, shift) for each copy
    for table in tables:
        base = tuple(sorted(table))
        if not remaining[base]:
            continue
        orbit = [tuple(sorted((x + t) % n for x in base)) for t in range(n)]
        whole = by_orbit and len(set(orbit)) == n and all(remaining[b] for b in orbit)
        for t, member in enumerate(orbit if whole else [base]):
            remaining[member] -= 1
            unit_of.setdefault(member, []).append((len(units), t))
        units.append(list(base))
        full.append(whole)
    for unit in units:
        rng.shuffle(unit)
    orders = [rng.sample(range(period), period) for _ in units]

    # Partial counts for r = 1 .. period - 1 rounds: a before b is
    # diffs[r][(b - a) % n] (full orbits) + pairs[r][a * n + b] (single tables).
    diffs = [[0] * n for _ in range(period)]
    pairs = [[0] * (n * n) for _ in range(period)]
    pair_sums = [[0] * n for _ in range(period)]  # pairs[r] summed over each difference
    mean = [r * len(tables) * k / (n * (n - 1)) for r in range(period)]

    def arcs(unit: Sequence[int], cycle: int, whole: bool) -> list[int]:
        """The unit's arcs in this design order: differences for an orbit, pairs otherwise."""
        order = design[cycle]
        if whole:
            return [(unit[order[(s + 1) % k]] - unit[order[s]]) % n for s in range(k)]
        return [unit[order[s]] * n + unit[order[(s + 1) % k]] for s in range(k)]

    weighed = [r for r in range(1, period) if weights[r]]

    def cost(changes: Sequence[tuple[int, dict[int, int]]], whole: bool) -> float:
        """How much the weighted squared distances from the means grow by adding ``changes``
        (``(r, {arc: change})``) to the partial counts."""
        total = 0.0
        for r, change in changes:
            grow = 0.0
            for arc, x in change.items():
                if whole:  # the n pairs of difference ``arc`` all change by x
                    grow += x * (2 * (n * diffs[r][arc] + pair_sums[r][arc] - n * mean[r]) + n * x)
                else:
                    count = diffs[r][(arc % n - arc // n) % n] + pairs[r][arc]
                    grow += x * (2 * (count - mean[r]) + x)
            total += weights[r] * grow
        return total

    def apply(changes: Sequence[tuple[int, dict[int, int]]], whole: bool) -> None:
        for r, change in changes:
            for arc, x in change.items():
                if whole:
                    diffs[r][arc] += x
                else:
                    pairs[r][arc] += x
                    pair_sums[r][(arc % n - arc // n) % n] += x

    def balanced() -> bool:
        for r in weighed:
            counts = [diffs[r][(b - a) % n] + pairs[r][a * n + b] for a in range(n) for b in range(n) if a != b]
            if max(counts) - min(counts) > 1:
                return False
        return True

    for u, (unit, order) in enumerate(zip(units, orders)):
        for r in weighed:
            apply([(r, Counter(arc for c in range(r) for arc in arcs(unit, order[c], full[u])))], full[u])

    # In units of the squared cost: hot enough for the heaviest round, cooling down until
    # even the lightest no longer gets worse.
    temperature, coldest = hot * max(weights), cold
    cooling = (coldest / temperature) ** (1 / moves)
    for move in range(moves):
        if move % 1000 == 0 and balanced():
            break
        temperature *= cooling
        u = rng.randrange(len(units))
        unit, order, whole = units[u], orders[u], full[u]
        changes: list[tuple[int, dict[int, int]]] = []
        if rng.random() < 0.5:  # swap the rounds r1 < r2 of two orders: partial counts r1 + 1 .. r2 change
            r1, r2 = sorted(rng.sample(range(period), 2))
            change = Counter(arcs(unit, order[r2], whole))
            change.subtract(arcs(unit, order[r1], whole))
            changes = [(r, change) for r in range(r1 + 1, r2 + 1) if weights[r]]
            new_unit, new_order = unit, order[:r1] + [order[r2]] + order[r1 + 1:r2] + [order[r1]] + order[r2 + 1:]
        else:  # swap the seats of two bots: every round's cycle changes
            x, y = rng.sample(range(k), 2)
            new_unit = list(unit)
            new_unit[x], new_unit[y] = unit[y], unit[x]
            new_order = order
            running: Counter[int] = Counter()
            for r in range(weighed[-1]):
                running.update(arcs(new_unit, order[r], whole))
                running.subtract(arcs(unit, order[r], whole))
                if weights[r + 1]:
                    changes.append((r + 1, dict(running)))
        delta = cost(changes, whole)
        if delta <= 0 or rng.random() < math.exp(-delta / temperature):
            apply(changes, whole)
            units[u], orders[u] = new_unit, new_order
    seated, table_orders = [], []
    for table in tables:
        u, shift = unit_of[tuple(sorted(table))].pop()
        seated.append([(x + shift) % n for x in units[u]])
        table_orders.append(orders[u])
    return seated, table_orders


def _neighbours(seats: Sequence[BotId]) -> list[tuple[BotId, BotId]]:
    """Each seat's bot with the bot directly after it, around the table."""
    return [(bot, seats[(s + 1) % len(seats)]) for s, bot in enumerate(seats)]


@functools.cache
def cycle_design(k: int) -> tuple[tuple[int, ...], ...]:
    """Cyclic orders of the seats ``0 .. k-1`` in which every seat is directly before every
    other seat equally often: once each in ``k - 1`` orders, or, at 4 and 6 seats where that
    is impossible (and at even sizes from 20 up, beyond the search's budget), twice each in
    ``2(k - 1)`` orders.  The first order is ``0 .. k-1``.

    >>> cycle_design(3)
    ((0, 1, 2), (0, 2, 1))
    """
    if k <= 2:
        return (tuple(range(k)),)
    if k % 2 == 1:
        design = tuple(_with_infinity(k, _zigzag(k - 1), t) for t in range(k - 1))
    else:
        design = None if k in (4, 6) else _hamiltonian_decomposition(k)
    if design is None:
        cycles = []
        for t in range(k - 1):  # each zig-zag cycle in both directions: every arc twice
            forward = _with_infinity(k, _zigzag(k - 1), t)
            cycles += [forward, (forward[0], *reversed(forward[1:]))]
        design = tuple(cycles)
    rename = {seat: i for i, seat in enumerate(design[0])}  # renaming seats keeps every count
    return tuple(tuple(rename[seat] for seat in cycle) for cycle in design)


def _zigzag(m: int) -> list[int]:
    """``0, 1, -1, 2, -2, ...`` mod ``m``: all of ``Z_m``, consecutive differences ``1, -2, 3, ...``."""
    return [0] + [(i + 1) // 2 if i % 2 else (m - i // 2) % m for i in range(1, m)]


def _with_infinity(k: int, path: Sequence[int], shift: int) -> tuple[int, ...]:
    """Seat ``k - 1`` (the fixed point) followed by ``path`` shifted by ``shift`` mod ``k - 1``.

    For odd ``k`` the ``k - 1`` shifts of the zig-zag are Walecki's decomposition: the
    differences ``1, -2, 3, ..., k - 2`` are every non-zero residue once.
    """
    return (k - 1, *((p + shift) % (k - 1) for p in path))


def _hamiltonian_decomposition(k: int) -> tuple[tuple[int, ...], ...] | None:
    """``k - 1`` directed Hamiltonian cycles using every arc of the complete digraph once, by
    depth-first search (cycle ``i`` leaves seat 0 for seat ``i + 1``); ``None`` if none is
    found within :data:`DESIGN_SEARCH_NODES` steps."""
    used = [[False] * k for _ in range(k)]
    cycles: list[tuple[int, ...]] = []
    steps = [0]

    def extend(path: list[int], on_path: list[bool]) -> bool:
        steps[0] += 1
        if steps[0] > DESIGN_SEARCH_NODES:
            return False
        last = path[-1]
        if len(path) == k:
            if used[last][0]:
                return False
            used[last][0] = True
            cycles.append(tuple(path))
            if next_cycle():
                return True
            cycles.pop()
            used[last][0] = False
            return False
        for seat in range(1, k):
            if not on_path[seat] and not used[last][seat]:
                used[last][seat] = on_path[seat] = True
                path.append(seat)
                if extend(path, on_path):
                    return True
                path.pop()
                used[last][seat] = on_path[seat] = False
        return False

    def next_cycle() -> bool:
        i = len(cycles)
        if i == k - 1:
            return True
        used[0][i + 1] = True
        on_path = [False] * k
        on_path[0] = on_path[i + 1] = True
        if extend([0, i + 1], on_path):
            return True
        used[0][i + 1] = False
        return False

    return tuple(cycles) if next_cycle() else None


def team_matches(bots: Sequence[BotId], teams: Sequence[Sequence[int]], *, rounds: int = 1, duplicate: bool = True,
                 seed: int = 0, max_tables: int = MAX_TABLES_DEFAULT) -> list[Pairing[BotId]]:
    """For every group of bots, every split into partnerships, each seated on every side.

    ``teams`` gives the seats of each team (Jass: ``((0, 2), (1, 3))``).  "Sides" rotate
    which partnership takes which team's seats; with a duplicate deal all sides play one seed.
    Partners, opponents and sides are exactly balanced; the seat a bot takes within its side
    is shuffled per table (a table's 3 x 2 matches cannot balance 4 seats exactly).

    With fewer bots than seats, each bot fills its whole team (self-partnership): every
    group of ``len(teams)`` bots, each on every side.
    """
    sizes = {len(team) for team in teams}
    if len(sizes) != 1:
        raise ScheduleError("teams of unequal size are not supported")
    team_size = sizes.pop()
    table = team_size * len(teams)
    rng = random.Random(seed)
    tables = []
    if len(bots) < table:
        for subset in balanced_subsets(len(bots), len(teams), max_tables=max_tables, seed=seed):
            solo = tuple((bots[i],) * team_size for i in subset)
            tables.append([_seat_teams(teams, solo, side) for side in range(len(teams))])
        return _expand([tables] * rounds, duplicate=duplicate, rng=rng)
    for subset in balanced_subsets(len(bots), table, max_tables=max_tables, seed=seed):
        group = [bots[i] for i in subset]
        rng.shuffle(group)  # which seat of its side a bot takes varies from table to table
        for split in partitions(group, team_size):
            tables.append([_seat_teams(teams, split, side) for side in range(len(teams))])
    return _expand([tables] * rounds, duplicate=duplicate, rng=rng)


def _seat_teams(teams: Sequence[Sequence[int]], split: Sequence[Sequence[BotId]], side: int) -> tuple[BotId, ...]:
    """Seat partnership ``(t + side) % len(split)`` on team ``t``'s seats."""
    seats: list[BotId | None] = [None] * sum(len(team) for team in teams)
    for t, team_seats in enumerate(teams):
        for seat, bot in zip(team_seats, split[(t + side) % len(split)]):
            seats[seat] = bot
    return tuple(seats)  # type: ignore[arg-type]


def partitions(group: Sequence[BotId], size: int) -> list[tuple[tuple[BotId, ...], ...]]:
    """Every way to split ``group`` into unordered teams of ``size``.

    >>> len(partitions("abcd", 2))
    3
    """
    if not group:
        return [()]
    first, rest = group[0], group[1:]
    out = []
    for mates in itertools.combinations(rest, size - 1):
        remaining = [b for b in rest if b not in mates]
        for tail in partitions(remaining, size):
            out.append(((first, *mates), *tail))
    return out


def balanced_subsets(n: int, k: int, *, max_tables: int = MAX_TABLES_DEFAULT,
                     seed: int = 0) -> list[tuple[int, ...]]:
    """Subsets of ``range(n)`` of size ``k`` in which every pair meets equally often.

    All ``C(n, k)`` subsets when there are at most ``max_tables``; otherwise a union of
    cyclic orbits ``{B + t mod n}`` chosen so that every pair's count is the same (each
    orbit seats every bot equally, so bots stay balanced too).

    :raises ScheduleError: if no balanced sample within ``max_tables`` is found.
    """
    return list(_balanced_subsets(n, k, max_tables, seed))


@functools.lru_cache(maxsize=16)
def _balanced_subsets(n: int, k: int, max_tables: int, seed: int) -> tuple[tuple[int, ...], ...]:
    """:func:`balanced_subsets`, kept: counting a schedule's matches and building it (twice in
    ``tournament run``, before and after the pre-flight check) search the same sample."""
    if not 1 <= k <= n:
        raise ScheduleError(f"cannot seat tables of {k} from {n} bots")
    if math.comb(n, k) <= max_tables:
        return tuple(itertools.combinations(range(n), k))
    found = _orbit_design(n, k, max_tables=max_tables, seed=seed)
    if found is None:
        raise ScheduleError(f"no pair-balanced sample of tables of {k} from {n} bots within {max_tables} tables "
                            f"(all {math.comb(n, k)} would be needed); use fewer bots, another table size "
                            f"or a larger --max-tables")
    return tuple(found)


def _orbit(base: tuple[int, ...], n: int) -> tuple[tuple[int, ...], ...]:
    """The distinct translates of ``base`` mod ``n``, each sorted."""
    return tuple(sorted({tuple(sorted((b + t) % n for b in base)) for t in range(n)}))


def _pair_vector(orbit: Sequence[tuple[int, ...]], n: int) -> tuple[int, ...]:
    """How often the pair ``{0, d}`` meets in the orbit, for ``d = 1 .. n // 2``.

    By the cyclic symmetry every pair at distance ``d`` meets as often as ``{0, d}``.
    """
    counts: Counter[int] = Counter()
    for block in orbit:
        if 0 in block:
            for d in range(1, n // 2 + 1):
                counts[d] += d in block
    return tuple(counts[d] for d in range(1, n // 2 + 1))


def _orbit_design(n: int, k: int, *, max_tables: int, seed: int, restarts: int = 200,
                  pool_size: int = 400) -> list[tuple[int, ...]] | None:
    """A greedy randomised search for a union of full cyclic orbits with constant pair counts."""
    rng = random.Random(seed)
    pool: dict[tuple[tuple[int, ...], ...], tuple[int, ...]] = {}
    for _ in range(pool_size * 5):
        if len(pool) >= pool_size:
            break
        base = (0, *sorted(rng.sample(range(1, n), k - 1)))
        orbit = _orbit(base, n)
        if len(orbit) == n:  # full orbits only: each bot then sits at exactly k of the n tables
            pool.setdefault(orbit, _pair_vector(orbit, n))
    orbits = list(pool.items())
    if not orbits:
        return None
    best: list[tuple[tuple[int, ...], ...]] | None = None
    tries_after_found = 10  # a few more restarts look for a smaller design; deterministic per seed
    for _ in range(restarts):
        chosen = [rng.choice(orbits)]
        total = list(chosen[0][1])
        while len(chosen) * n <= max_tables:
            if max(total) == min(total):
                if best is None or len(chosen) < len(best):
                    best = [orbit for orbit, _ in chosen]
                break
            low = min(total)
            scored = []
            for orbit, vector in orbits:
                after = [a + b for a, b in zip(total, vector)]
                # Prefer raising the lowest counts; then the smallest spread.
                gain = sum(v for a, v in zip(total, vector) if a == low)
                scored.append((max(after) - min(after), -gain, rng.random(), orbit, vector))
            scored.sort(key=lambda item: item[:3])
            _, _, _, orbit, vector = scored[0]
            chosen.append((orbit, vector))
            total = [a + b for a, b in zip(total, vector)]
        if best is not None:
            tries_after_found -= 1
            if tries_after_found <= 0:
                break
    if best is None:
        return None
    return [block for orbit in best for block in orbit]


def meetings(pairings: Sequence[Pairing[BotId]]) -> Counter[frozenset[BotId]]:
    """How many matches each pair of bots shares (for tests and reports)."""
    counts: Counter[frozenset[BotId]] = Counter()
    for pairing in pairings:
        for a, b in itertools.combinations(pairing.seats, 2):
            counts[frozenset((a, b))] += 1
    return counts
