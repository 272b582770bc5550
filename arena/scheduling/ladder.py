"""The ladder's scheduler: which duplicate set to play next, from the ratings and the clock.

A round robin spends most of its matches on pairs whose order is already clear (the best
bot against the worst).  A ladder plays for ever, so it can do better: each call of
:func:`next_set` looks at the entrants' TrueSkill ratings and recent matches and returns one
**duplicate set** (one seed, played once per seat rotation, so the luck of the deal cancels),
chosen in this order of priority:

1. **Fairness floor.**  Every entrant must play at least ``policy.floor`` (one half) of the
   mean match rate over any window of ``policy.window`` time units.  Entrants whose rate
   over the last window (or since they last became active, if later) has fallen below
   ``policy.guard`` times the mean (0.8, a margin above the floor, since a set takes time to
   come round) are seated first, the furthest behind first, as many as the table holds.
2. **New entrants first**: otherwise the entrant with the largest sigma above
   ``policy.new_sigma`` is seated first, until its rating has settled.
3. **What tells the most**: the rest of the table (or the whole table, with nobody seated first)
   is the one whose players' order is least known: the sum over its pairs of
   :func:`ambiguity`, the probability (doubled) that their rating order is wrong.  In team
   games the partnerships are then split for the best TrueSkill match quality (the most
   even teams, whose result is least predictable).  With probability ``policy.explore`` the
   table is drawn at random instead (still around the anchor), so that everyone meets
   everyone over time.

Seating: two seats play both orders.  Tables of three or more play one cyclic order in all
its rotations; between sets the cyclic order changes, taking the one whose "directly before"
pairs the caller's ``before`` counts (:func:`count_before`) have seen least.  Team games
reuse :func:`arena.scheduling.round_robin.team_matches` (partners opposite, both sides of the deal).

Everything is a pure function of its arguments: ``seed`` and the set's ``number`` seed all
its randomness, so the same ladder state always yields the same set.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from arena.league.ratings import SIGMA, environment, stronger_probability
from arena.scheduling.round_robin import SEED_LIMIT, Format, ScheduleError, rotations, team_matches

BotId = TypeVar("BotId", bound=Hashable)

MAX_CYCLIC_ORDERS = 720
"""Above this many cyclic orders of a table (8 seats or more), a random sample is compared."""


@dataclass(frozen=True)
class Entrant(Generic[BotId]):
    """One active entrant as the scheduler sees it."""

    bot: BotId
    mu: float
    sigma: float
    joined: float = 0.0
    """When it last became active (added or resumed): its rate is measured from then, or over
    the last window if that is shorter."""
    times: tuple[float, ...] = ()
    """Start times of its matches (one per match, so a set of 4 matches adds 4); times older
    than the window, or than ``joined`` (before a pause), are ignored."""


@dataclass(frozen=True)
class Policy:
    """The ladder's knobs; the defaults are those the benchmark measures."""

    window: float = 600.0
    """The fairness window (seconds in a live ladder; matches in the benchmark)."""
    floor: float = 0.5
    """The promised share of the mean match rate (reported by :func:`rate_shares`)."""
    guard: float = 0.8
    """Below this share of the mean rate over the window, an entrant anchors the next set."""
    new_sigma: float = SIGMA / 2
    """An entrant counts as new while its sigma is above this."""
    explore: float = 0.1
    """The share of sets whose table is drawn at random."""
    samples: int = 48
    """Random tables compared besides the greedy ones (tables of three or more)."""


SCORE_NEW_SIGMA = 1.0
"""``Policy.new_sigma`` under the score model, whose entrants the caller gives in units of the
game's noise (a seat's noise sd): one duplicate set of two heads-up matches brings a new
entrant below it.  On the convergence benchmark's pool (Gin Rummy, 10 entrants, 30 seeds) the
median was 70 matches with 0.6, 63 to 64 with 0.8, 1.0 or 1.5, 78 with 0.35 (docs/ladder.md)."""

Stronger = Callable[[BotId, BotId], float]
"""``stronger(a, b)``: the probability that ``a`` is stronger than ``b`` (the score model's LOS)."""


@dataclass(frozen=True)
class DuplicateSet(Generic[BotId]):
    """The next thing to play: every seating with the same engine seed."""

    seatings: tuple[tuple[BotId, ...], ...]
    seed: int
    reason: str
    """``"floor"``, ``"new"``, ``"informative"`` or ``"explore"``: why these bots."""
    bots: frozenset[BotId] = field(default=frozenset())

    def __post_init__(self) -> None:
        object.__setattr__(self, "bots", frozenset(b for seats in self.seatings for b in seats))


def ambiguity(a: Entrant[BotId], b: Entrant[BotId], stronger: Stronger[BotId] | None = None) -> float:
    """How unsure the ratings are of the order of ``a`` and ``b``: 1 when their means are equal,
    towards 0 when they are many standard deviations of the difference apart.

    Twice the probability that the one with the lower mean is the stronger: from ``stronger``
    (the score model's LOS, covariances included) if given, else taking both ratings as
    independent normals (:func:`arena.league.ratings.stronger_probability`).
    """
    p = stronger(a.bot, b.bot) if stronger is not None else stronger_probability(a, b)
    return 2 * min(p, 1 - p)


def window_counts(entrants: Sequence[Entrant[BotId]], now: float, window: float) -> dict[BotId, tuple[int, float]]:
    """``bot -> (matches started in the last window since it became active, time active within it)``.

    Both over the same stretch: a resumed entrant's matches from before its pause are not
    counted against its time since the resume (they would make it look ahead, and starve it)."""
    start = now - window
    return {e.bot: (sum(start < t <= now and t >= e.joined for t in e.times), max(0.0, now - max(start, e.joined)))
            for e in entrants}


def rate_shares(entrants: Sequence[Entrant[BotId]], now: float, window: float) -> dict[BotId, float]:
    """Each entrant's match rate over the last window as a share of the mean rate (1 = average).

    The mean rate is all matches seated in the window over all active time in it, so an
    entrant that joined half a window ago is expected to have played half as much.  Empty
    when nothing was played (no rate to compare with).
    """
    counts = window_counts(entrants, now, window)
    total = sum(c for c, _ in counts.values())
    active = sum(s for _, s in counts.values())
    if total == 0 or active <= 0:
        return {}
    mean = total / active
    return {bot: (c / (mean * s) if s > 0 else 1.0) for bot, (c, s) in counts.items()}


def count_before(seatings: Sequence[Sequence[BotId]], counts: Counter[tuple[BotId, BotId]] | None = None) \
        -> Counter[tuple[BotId, BotId]]:
    """Add to ``counts`` (a new counter if ``None``) how often each bot sat directly before
    another (seat ``s`` before ``s + 1``, the last before seat 0), and return it."""
    counts = Counter() if counts is None else counts
    for seats in seatings:
        for i, bot in enumerate(seats):
            nxt = seats[(i + 1) % len(seats)]
            if nxt != bot:
                counts[(bot, nxt)] += 1
    return counts


def next_set(entrants: Sequence[Entrant[BotId]], fmt: Format, *, now: float, seed: int, number: int,
             policy: Policy = Policy(), before: Mapping[tuple[BotId, BotId], int] | None = None,
             stronger: Stronger[BotId] | None = None) -> DuplicateSet[BotId]:
    """The duplicate set to play next; see the module docstring for how it is chosen.

    ``number`` counts the sets scheduled so far (with ``seed``, it seeds this set's choices).
    ``stronger`` (the score model's LOS) replaces the independent-normals probability in the
    ambiguity of pairs, and TrueSkill's match quality in team splits.

    :raises ScheduleError: with too few entrants for one table, or the same bot twice.
    """
    bots = [e.bot for e in entrants]
    if len(set(bots)) != len(bots):
        raise ScheduleError("the same bot is entered twice")
    by_bot = {e.bot: e for e in entrants}
    size = _group_size(fmt, len(entrants))
    rng = random.Random(f"ladder:{seed}:{number}")
    first, reason = _seated_first(entrants, now, policy, rng)
    first = first[:size]
    if rng.random() < policy.explore:
        group = first + rng.sample([b for b in bots if b not in first], size - len(first))
        reason = "explore" if reason == "informative" else reason
    else:
        group = _most_ambiguous(by_bot, size, first, policy.samples, rng, stronger)
    return DuplicateSet(_seatings(fmt, [by_bot[b] for b in group], rng, before or {}, stronger),
                        rng.randrange(SEED_LIMIT), reason)


def _group_size(fmt: Format, n: int) -> int:
    """How many distinct bots sit at one table (team games with fewer bots than seats: one per team)."""
    if fmt.kind == "teams":
        assert fmt.teams is not None
        size = fmt.table_size if n >= fmt.table_size else len(fmt.teams)
    else:
        size = fmt.table_size
    if n < size or size < 2:
        raise ScheduleError(f"a {fmt.describe()} ladder needs at least {max(size, 2)} entrants, got {n}")
    return size


def _seated_first(entrants: Sequence[Entrant[BotId]], now: float, policy: Policy,
                  rng: random.Random) -> tuple[list[BotId], str]:
    """The bots that must sit at the next table, and why: those below the guard (furthest
    behind first), else the newest (largest sigma above ``new_sigma``), else none."""
    shares = rate_shares(entrants, now, policy.window)
    behind = sorted((share, rng.random(), bot) for bot, share in shares.items() if share < policy.guard)
    if behind:
        return [bot for _, _, bot in behind], "floor"
    new = [(-e.sigma, rng.random(), e.bot) for e in entrants if e.sigma > policy.new_sigma]
    if new:
        return [min(new)[2]], "new"
    return [], "informative"


def _score(group: Sequence[BotId], by_bot: Mapping[BotId, Entrant[BotId]], stronger: Stronger[BotId] | None) -> float:
    return sum(ambiguity(by_bot[a], by_bot[b], stronger) for a, b in itertools.combinations(group, 2))


def _most_ambiguous(by_bot: Mapping[BotId, Entrant[BotId]], size: int, first: list[BotId], samples: int,
                    rng: random.Random, stronger: Stronger[BotId] | None = None) -> list[BotId]:
    """The table of ``size`` bots (with those of ``first``) whose pairs' order is least known.

    A greedy table grown from ``first`` (from each single bot, if ``first`` is empty), adding
    the bot least separated from those seated; for more than two seats also ``samples``
    random tables.  The best wins, ties broken at random.
    """
    bots = list(by_bot)
    starts = [first] if first else [[b] for b in bots]
    candidates: list[list[BotId]] = []
    for start in starts:
        if size == 2 and len(start) == 1:
            candidates += [[start[0], other] for other in bots if other != start[0]]
            continue
        group = list(start)
        while len(group) < size:
            group.append(max((b for b in bots if b not in group),
                             key=lambda b: (sum(ambiguity(by_bot[b], by_bot[g], stronger) for g in group),
                                            rng.random())))
        candidates.append(group)
    if size > 2:
        for _ in range(samples):
            start = first or [rng.choice(bots)]
            candidates.append([*start, *rng.sample([b for b in bots if b not in start], size - len(start))])
    return max(candidates, key=lambda g: (_score(g, by_bot, stronger), rng.random()))


def _seatings(fmt: Format, group: Sequence[Entrant[BotId]], rng: random.Random,
              before: Mapping[tuple[BotId, BotId], int],
              stronger: Stronger[BotId] | None = None) -> tuple[tuple[BotId, ...], ...]:
    """Every seating of the set: both orders (two seats), the rotations of the least-used
    cyclic order (free-for-all), or the most even partnership split on every side (teams)."""
    bots = [e.bot for e in group]
    if fmt.kind == "teams":
        assert fmt.teams is not None
        deals: dict[int, list[tuple[BotId, ...]]] = {}
        for pairing in team_matches(bots, fmt.teams, rounds=1, duplicate=True, seed=rng.randrange(SEED_LIMIT)):
            deals.setdefault(pairing.deal, []).append(pairing.seats)
        ratings = {e.bot: e for e in group}
        quality = _split_quality if stronger is None else _split_evenness
        return tuple(max(deals.values(), key=lambda seats: (quality(seats[0], fmt.teams, ratings),
                                                              rng.random())))
    if len(bots) == 2:
        rng.shuffle(bots)
        return tuple(rotations(bots))
    first, rest = bots[0], bots[1:]
    orders = [[first, *perm] for perm in itertools.permutations(rest)] \
        if math.factorial(len(rest)) <= MAX_CYCLIC_ORDERS else \
        [[first, *rng.sample(rest, len(rest))] for _ in range(MAX_CYCLIC_ORDERS)]
    best = min(orders, key=lambda order: (sum(before.get((order[i], order[(i + 1) % len(order)]), 0)
                                               for i in range(len(order))), rng.random()))
    return tuple(rotations(best))


def _split_quality(seats: Sequence[BotId], teams: Sequence[Sequence[int]],
                   ratings: Mapping[BotId, Entrant[BotId]]) -> float:
    """TrueSkill match quality of the partnerships in ``seats`` (a bot filling two seats counts once)."""
    env = environment()
    sides = [{seats[s]: env.create_rating(ratings[seats[s]].mu, ratings[seats[s]].sigma) for s in team}
             for team in teams]
    return env.quality(sides)


def _split_evenness(seats: Sequence[BotId], teams: Sequence[Sequence[int]],
                    ratings: Mapping[BotId, Entrant[BotId]]) -> float:
    """The score model's counterpart of match quality: how close the partnerships' strengths
    (their members' mean, in noise units) are, as the ambiguity of their order."""
    sides = [sorted({seats[s] for s in team}) for team in teams]
    mus = [sum(ratings[b].mu for b in side) / len(side) for side in sides]
    spread = math.sqrt(sum(ratings[b].sigma ** 2 / len(side) ** 2 for side in sides for b in side))
    gap = abs(mus[0] - mus[1])
    return 1.0 if spread == 0 and gap == 0 else math.erfc(gap / (spread * math.sqrt(2))) if spread else 0.0
