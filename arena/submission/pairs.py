"""Duplicate pairs of a new version (NEW) against the previous one (OLD): who sits where in
each game, and the loop that plays pairs until the SPRT answers.

A pair is one deal (one seed) played twice with the sides swapped, so that the deal's luck
falls on both bots alike:

* two seats (Gin Rummy, Yahtzee, Yaniv; Yahtzee and Yaniv seat 2 of their 2 to 8): NEW in
  seat 0 then seat 1;
* two teams (Jass): NEW fills one team (both its seats), OLD the other, then the teams
  swap: the same NEW-team-against-OLD-team matches a tournament of two Jass bots plays;
* Yoninkan is refused: it seats exactly four, and the cards choose the (secret) partnerships
  anew every game, so NEW would always have an OLD partner; at best its matches measure NEW
  and OLD together against two OLDs, a diluted effect on another scale than the other games'
  head-to-head Elo, and its duplicate set is four seat rotations, not a pair.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from arena.scheduling.round_robin import SEED_LIMIT
from arena.submission.normalized_sprt import PairTest
from arena.submission.sprt import match_points
from referee.games import game_class
from referee.luck import LuckError, LuckReport, analyse

B = TypeVar("B")

FAILED_IN_A_ROW = 5
"""Pairs in a row whose matches did not finish before the run gives up (a broken set-up)."""


class PairingError(ValueError):
    """A game or a run that cannot be tested on duplicate pairs, told in one line."""


@dataclass(frozen=True)
class PairLayout:
    """Where NEW sits in a game's two matches of a pair; OLD takes every other seat."""

    num_players: int
    new_seats: tuple[tuple[int, ...], tuple[int, ...]]
    """NEW's seats in the first and in the second match."""

    def seats(self, match: int, new: B, old: B) -> tuple[B, ...]:
        """Who sits where in match 0 or 1 of a pair."""
        return tuple(new if seat in self.new_seats[match] else old for seat in range(self.num_players))

    def points(self, rankings: Sequence[Sequence[int]]) -> float:
        """NEW's points in the pair (0 to 2 by halves) from its two matches' rankings by seat."""
        return sum(match_points(ranking, seats) for ranking, seats in zip(rankings, self.new_seats))

    def margin(self, results: Sequence[Sequence[float]]) -> float:
        """NEW's mean result over its seats in the pair minus OLD's, from each match's results
        by seat (adjusted or plain: :class:`referee.luck.LuckReport`)."""
        new: list[float] = []
        old: list[float] = []
        for values, seats in zip(results, self.new_seats):
            for seat, value in enumerate(values):
                (new if seat in seats else old).append(value)
        return sum(new) / len(new) - sum(old) / len(old)


def pair_layout(game: str) -> PairLayout:
    """The layout of ``game`` (see the module docstring).

    :raises PairingError: for a game two bots cannot play head to head (Yoninkan).
    :raises UnknownGameError: for an unknown game.
    """
    cls = game_class(game)
    if cls.teams:
        if len(cls.teams) != 2:
            raise PairingError(f"{game} has {len(cls.teams)} teams; a pair needs two sides")
        first, second = (tuple(sorted(team)) for team in cls.teams)
        return PairLayout(cls.max_players, (first, second))
    if cls.min_players <= 2 <= cls.max_players:
        return PairLayout(2, ((0,), (1,)))
    raise PairingError(f"{game} cannot be tested on duplicate pairs: it seats exactly {cls.min_players} players "
                       f"in partnerships the cards choose each game, so NEW would always partner OLD "
                       f"(docs/sprt.md)")


def pair_seeds(seed: int) -> Callable[[], int]:
    """The deal seed of each next pair, a pure function of the run's ``seed`` (``arena sprt``)."""
    rng = random.Random(seed)
    return lambda: rng.randrange(SEED_LIMIT)


def run_pair_seed(run_id: int, index: int) -> int:
    """The deal seed of pair ``index`` of the server's run ``run_id``: a pure function of the
    two, so a worker that takes a run up again plays each pair's deal as the first would have."""
    return random.Random(f"sprt-run:{run_id}:{index}").randrange(SEED_LIMIT)


@dataclass(frozen=True)
class PairResult:
    """One pair as it was played."""

    index: int
    seed: int
    points: float | None
    """NEW's points, ``None`` when a match did not finish (the pair is not counted)."""
    errors: tuple[str, ...] = ()
    faults: int = 0
    """Bot faults in the pair's matches (timeouts, errors, invalid answers, forfeits)."""
    adjusted: float | None = None
    """NEW's mean luck-adjusted result minus OLD's, when the test uses luck (else ``None``)."""
    raw: float | None = None
    """The same with the plain results."""


def adjusted_score(layout: PairLayout, played: Sequence[Any], estimator: str) -> tuple[float, float]:
    """The pair's luck-adjusted and raw scores from its two matches' job results, by
    ``estimator`` (the run's): each match's luck report as its worker measured it
    (:attr:`~arena.executors.JobResult.luck`), else analysed here from its record.

    :raises LuckError: when a record cannot be analysed.
    :raises PairingError: when the game's current estimator is not the run's (a change of
        estimator is a new version: a run never mixes two).
    """
    reports = [LuckReport.from_json(result.luck) if result.luck else analyse(result.record) for result in played]
    for report in reports:
        if report.estimator != estimator:
            raise PairingError(f"the luck estimator is now {report.estimator}; this run uses {estimator}")
    return layout.margin([r.adjusted for r in reports]), layout.margin([r.result for r in reports])


def play_pairs(test: PairTest, layout: PairLayout, make_job: Callable[[int, int, int], Any], *, max_pairs: int,
               executor: Any, on_pair: Callable[[PairResult], None],
               stopping: Callable[[], bool] = lambda: False, seed: int = 0, first: int = 0,
               seed_of: Callable[[int], int] | None = None) -> str:
    """Play pairs ``first``, ``first + 1``, ... below ``max_pairs`` through ``executor`` and feed
    ``test``, in pair order, until it has a verdict.

    A test that uses luck (:attr:`needs_luck`) gets each pair's adjusted score from
    :func:`adjusted_score`; a pair whose records cannot be analysed is not counted.

    ``make_job(match_id, match, deal_seed)`` builds the :class:`~arena.executors.MatchJob` of
    match 0 or 1 of a pair (match ids are ``2 * pair + match``).  Each pair's deal seed is
    ``seed_of(pair)``, or by default the next of :func:`pair_seeds` (``seed``).  Matches are
    submitted ahead as the executor has slots; results are counted in pair order, so a run is
    reproducible from its seeds whatever order the matches end in.  The caller closes the
    executor (abandoning the matches still running when the answer came).

    :returns: why it ended: ``"verdict"``, ``"max-pairs"`` or ``"interrupted"`` (``stopping()``).
    :raises PairingError: after :data:`FAILED_IN_A_ROW` pairs in a row did not finish.
    """
    next_seed = pair_seeds(seed)
    seeds: dict[int, int] = {}
    results: dict[int, Any] = {}
    submitted, counted, failed_in_a_row = 2 * first, first, 0
    while True:
        if test.verdict is not None:
            return "verdict"
        if counted >= max_pairs:
            return "max-pairs"
        if stopping():
            return "interrupted"
        while submitted < 2 * max_pairs and executor.running() < executor.slots:
            pair, match = divmod(submitted, 2)
            if match == 0:
                seeds[pair] = seed_of(pair) if seed_of is not None else next_seed()
            executor.submit(make_job(submitted, match, seeds[pair]))
            submitted += 1
        for result in executor.poll(0.25):
            results[result.match_id] = result
        while test.verdict is None and 2 * counted in results and 2 * counted + 1 in results:
            played = (results.pop(2 * counted), results.pop(2 * counted + 1))
            errors = tuple(f"match {m}: {r.error}" for m, r in enumerate(played) if r.error or r.record is None)
            faults = sum(len(r.record.faults) for r in played if r.record is not None)
            points = None if errors else layout.points([r.record.ranking for r in played])
            adjusted = raw = None
            if points is not None and test.needs_luck:
                try:
                    adjusted, raw = adjusted_score(layout, played, test.estimator)
                except PairingError:
                    raise
                except (LuckError, ValueError) as error:  # a report that does not analyse or read
                    points, errors = None, (f"luck analysis: {error}",)
            if points is not None:
                test.record(points, adjusted, raw)
            on_pair(PairResult(counted, seeds.pop(counted), points, errors, faults, adjusted, raw))
            counted += 1
            failed_in_a_row = failed_in_a_row + 1 if errors else 0
            if failed_in_a_row >= FAILED_IN_A_ROW:
                raise PairingError(f"{FAILED_IN_A_ROW} pairs in a row did not finish (last: {'; '.join(errors)})")
