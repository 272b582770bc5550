"""Round-robin schedules: which bots sit where, with which seed, in every match.

Three formats cover every game, chosen from the engine's metadata by :func:`format_for`:

* **two-seat** (Gin Rummy): every pair of bots, both seat orders, ``rounds`` times.
* **free-for-all** with tables of ``k`` seats (Yahtzee, Yams, Yaniv, Yoninkan): with exactly
  ``k`` bots, each round seats all of them once per rotation of the seat order; with more,
  every ``k``-subset is a table, or, when there are more subsets than ``max_tables``, a
  union of cyclic orbits of subsets that still gives every pair of bots the same number of
  meetings and every bot the same number of tables.
* **teams** (Jass): for every group of ``teams x team_size`` bots, every way to split them
  into partnerships, each partnership seating played once per rotation of which team sits
  on which side.  With fewer bots than seats (2 or 3 for Jass), every pair of bots meets
  with each bot taking all the seats of its team (it partners itself), on both sides.

**Duplicate deals.**  With ``duplicate=True`` a table draws one seed and plays it once per
seat rotation, so every bot is dealt every hand (or rolls every dice sequence) of that deal;
the luck of the deal cancels out of the comparison.  Without it, every match has its own
seed.

Everything here is a pure function of the bot ids, the options and a seed: no engine, no
database, so the formats are tested on their own.
"""

from __future__ import annotations

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
             max_tables: int = MAX_TABLES_DEFAULT) -> list[Pairing[BotId]]:
    """The full schedule of a round-robin in format ``fmt``, in play order (round by round).

    :raises ScheduleError: on duplicate bot ids, ``rounds < 1`` or an impossible format.
    """
    if len(set(bots)) != len(bots):
        raise ScheduleError("the same bot is entered twice")
    if rounds < 1:
        raise ScheduleError(f"rounds must be at least 1, got {rounds}")
    if fmt.kind == "two_seat":
        return two_seat(bots, rounds=rounds, duplicate=duplicate, seed=seed)
    if fmt.kind == "free_for_all":
        return free_for_all(bots, fmt.table_size, rounds=rounds, duplicate=duplicate, seed=seed,
                            max_tables=max_tables)
    if fmt.kind == "teams":
        assert fmt.teams is not None
        return team_matches(bots, fmt.teams, rounds=rounds, duplicate=duplicate, seed=seed, max_tables=max_tables)
    raise ScheduleError(f"unknown format {fmt.kind!r}")


def _expand(tables: Sequence[Sequence[Sequence[BotId]]], *, rounds: int, duplicate: bool,
            rng: random.Random) -> list[Pairing[BotId]]:
    """Turn, per round, a list of tables (each a list of seatings) into pairings with seeds."""
    out: list[Pairing[BotId]] = []
    deal = 0
    for round_ in range(rounds):
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
    return _expand(tables, rounds=rounds, duplicate=duplicate, rng=random.Random(seed))


def free_for_all(bots: Sequence[BotId], table_size: int, *, rounds: int = 1, duplicate: bool = True,
                 seed: int = 0, max_tables: int = MAX_TABLES_DEFAULT) -> list[Pairing[BotId]]:
    """Tables of ``table_size``, each played once per seat rotation, ``rounds`` times.

    The seat order of each table is shuffled (from ``seed``) before rotating, so no pair of
    bots always sits in the same order across tables.
    """
    rng = random.Random(seed)
    tables = []
    for subset in balanced_subsets(len(bots), table_size, max_tables=max_tables, seed=seed):
        order = [bots[i] for i in subset]
        if len(bots) > table_size:
            rng.shuffle(order)
        tables.append(rotations(order))
    return _expand(tables, rounds=rounds, duplicate=duplicate, rng=rng)


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
        return _expand(tables, rounds=rounds, duplicate=duplicate, rng=rng)
    for subset in balanced_subsets(len(bots), table, max_tables=max_tables, seed=seed):
        group = [bots[i] for i in subset]
        rng.shuffle(group)  # which seat of its side a bot takes varies from table to table
        for split in partitions(group, team_size):
            tables.append([_seat_teams(teams, split, side) for side in range(len(teams))])
    return _expand(tables, rounds=rounds, duplicate=duplicate, rng=rng)


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
    if not 1 <= k <= n:
        raise ScheduleError(f"cannot seat tables of {k} from {n} bots")
    if math.comb(n, k) <= max_tables:
        return list(itertools.combinations(range(n), k))
    found = _orbit_design(n, k, max_tables=max_tables, seed=seed)
    if found is None:
        raise ScheduleError(f"no pair-balanced sample of tables of {k} from {n} bots within {max_tables} tables "
                            f"(all {math.comb(n, k)} would be needed); use fewer bots, another table size "
                            f"or a larger --max-tables")
    return found


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
