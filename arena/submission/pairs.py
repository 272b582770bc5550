"""Duplicate pairs of a new version (NEW) against the previous one (OLD): who sits where in
each game, and the loop that plays pairs until the SPRT answers.

A pair is one deal (one seed) played twice, so that the deal's luck falls on both bots alike,
and every seat NEW takes in one match is OLD's in the other:

* two seats (Gin Rummy, Yahtzee, Yaniv; Yahtzee and Yaniv seat 2 of their 2 to 8): NEW in
  seat 0 then seat 1;
* two teams (Jass): NEW fills one team (both its seats), OLD the other, then the teams
  swap: the same NEW-team-against-OLD-team matches a tournament of two Jass bots plays;
* a replay (Yoninkan): NEW in one seat and OLD in the other three, then OLD in all four;
  NEW's seat turns with the pair (pair ``i``: seat ``i % 4``).  Yoninkan seats exactly four
  and the cards choose the (secret) partnerships anew every game, so NEW cannot play OLD
  head to head; the replay asks instead how NEW does in OLD's place, among OLDs.

A pair's **margin** is, for every seat NEW took, its result there minus OLD's in the same
seat of the other match, averaged: NEW's mean result minus OLD's for the two head-to-head
layouts, NEW's result in its seat minus OLD's in that seat of the replay for Yoninkan.  Its
**points** (0 to 2 by halves) compare ranks the same way: in each match, NEW's best rank over
its seats against OLD's best over those seats in the other match (1, 1/2 or 0), summed over
the two matches, or doubled for a replay's single comparison.  In a two-sided game this is
exactly "1 if NEW ranks above OLD in the match, 1/2 if they tie", summed over the two.

The logistic test refuses replays (:meth:`PairLayout.check`): its hypotheses are the logistic
Elo of NEW's head-to-head score against OLD; a replay's points compare NEW's rank with OLD's
in the same seat against other players, a quantity on another scale with no Elo of NEW
against OLD.  The normalised test needs only a pair score of mean 0 when NEW plays as OLD
does, which a replay's margin is: its two matches are then the same deal played by the same
bots, alike in distribution.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from arena.scheduling.round_robin import SEED_LIMIT
from arena.submission.normalized_sprt import PairTest
from arena.submission.sprt import NAME as LOGISTIC
from referee.games import game_class
from referee.luck import LuckError, LuckReport, analyse, results_of

B = TypeVar("B")

FAILED_IN_A_ROW = 5
"""Pairs in a row whose matches did not finish before the run gives up (a broken set-up)."""


class PairingError(ValueError):
    """A game or a run that cannot be tested on duplicate pairs, told in one line."""


def _compare(new: int, old: int) -> float:
    """1 if NEW's rank is better (lower) than OLD's, 1/2 if equal, else 0."""
    return 1.0 if new < old else 0.5 if new == old else 0.0


@dataclass(frozen=True)
class PairLayout:
    """Where NEW sits in the two matches of a pair; OLD takes every other seat (see the
    module docstring).  A game's layout is its pair 0's; :meth:`at` gives pair ``i``'s."""

    num_players: int
    new_seats: tuple[tuple[int, ...], tuple[int, ...]]
    """NEW's seats in the first and in the second match (none in a replay's second)."""
    replay: bool = False
    """The second match is OLD alone, replaying the deal, and NEW's seat turns with the pair."""

    def at(self, pair: int) -> PairLayout:
        """The layout of pair ``pair``: a replay's NEW seat moves on by one seat a pair."""
        if not self.replay:
            return self
        turned = tuple(tuple((seat + pair) % self.num_players for seat in seats) for seats in self.new_seats)
        return PairLayout(self.num_players, (turned[0], turned[1]), replay=True)

    def check(self, test: PairTest) -> None:
        """:raises PairingError: if ``test`` has no meaning on these pairs (the logistic test
        on a replay: see the module docstring)."""
        if self.replay and test.name == LOGISTIC:
            raise PairingError("the logistic test needs NEW and OLD head to head, and a Yoninkan pair is a replay "
                               "(NEW in one seat, then OLD in it): use the normalized test (docs/sprt.md)")

    def seats(self, match: int, new: B, old: B) -> tuple[B, ...]:
        """Who sits where in match 0 or 1 of a pair."""
        return tuple(new if seat in self.new_seats[match] else old for seat in range(self.num_players))

    def points(self, rankings: Sequence[Sequence[int]]) -> float:
        """NEW's points in the pair (0 to 2 by halves) from its two matches' rankings by seat
        (0 = first, ties share a rank): see the module docstring."""
        compared = [_compare(min(rankings[match][seat] for seat in seats),
                             min(rankings[1 - match][seat] for seat in seats))
                    for match, seats in enumerate(self.new_seats) if seats]
        return 2.0 * sum(compared) / len(compared)

    def margin(self, results: Sequence[Sequence[float]]) -> float:
        """The mean, over NEW's seats in the pair, of its result there minus OLD's in the same
        seat of the other match, from each match's results by seat (adjusted or plain:
        :class:`referee.luck.LuckReport`)."""
        diffs = [results[match][seat] - results[1 - match][seat]
                 for match, seats in enumerate(self.new_seats) for seat in seats]
        return sum(diffs) / len(diffs)


def pair_layout(game: str) -> PairLayout:
    """The layout of ``game`` (see the module docstring): of pair 0, :meth:`PairLayout.at`
    gives the others'.

    :raises PairingError: for a game of more than two teams (none today).
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
    return PairLayout(cls.min_players, ((0,), ()), replay=True)


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
    fault_notes: tuple[str, ...] = ()
    """Each of them in a few words: ``"match 1 seat 0 (NEW) timeout"``."""


def adjusted_score(layout: PairLayout, played: Sequence[Any], estimator: str) -> tuple[float, float]:
    """The pair's luck-adjusted and raw margins from its two matches' job results, by
    ``estimator`` (the run's), on the pair's ``layout`` (:meth:`PairLayout.at`): each match's
    luck report as its worker measured it
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


def raw_score(layout: PairLayout, played: Sequence[Any]) -> float:
    """The pair's raw margin from its two matches' job results (their recorded scores, as
    results relative to the table: :func:`referee.luck.results_of`)."""
    game = game_class(played[0].record.game)
    return layout.margin([results_of(game, result.record.scores) for result in played])


def play_pairs(test: PairTest, layout: PairLayout, make_job: Callable[[int, PairLayout, int, int], Any], *,
               max_pairs: int,
               executor: Any, on_pair: Callable[[PairResult], None],
               stopping: Callable[[], bool] = lambda: False, seed: int = 0, first: int = 0,
               seed_of: Callable[[int], int] | None = None) -> str:
    """Play pairs ``first``, ``first + 1``, ... below ``max_pairs`` through ``executor`` and feed
    ``test``, in pair order, until it has a verdict.

    A test that uses luck (:attr:`needs_luck`) gets each pair's adjusted score from
    :func:`adjusted_score`; a pair whose records cannot be analysed is not counted.

    ``make_job(match_id, seating, match, deal_seed)`` builds the :class:`~arena.executors.MatchJob`
    of match 0 or 1 of a pair (match ids are ``2 * pair + match``) whose layout is ``seating``
    (``layout.at(pair)``: who sits where, :meth:`PairLayout.seats`).  Each pair's deal seed is
    ``seed_of(pair)``, or by default the next of :func:`pair_seeds` (``seed``).  Matches are
    submitted ahead as the executor has slots; results are counted in pair order, so a run is
    reproducible from its seeds whatever order the matches end in.  The caller closes the
    executor (abandoning the matches still running when the answer came).

    :returns: why it ended: ``"verdict"``, ``"max-pairs"`` or ``"interrupted"`` (``stopping()``).
    :raises PairingError: after :data:`FAILED_IN_A_ROW` pairs in a row did not finish, or
        for a test the layout refuses (:meth:`PairLayout.check`).
    """
    layout.check(test)
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
            job = make_job(submitted, layout.at(pair), match, seeds[pair])
            executor.submit(job if test.needs_luck else replace(job, measure_luck=False))
            submitted += 1
        for result in executor.poll(0.25):
            results[result.match_id] = result
        while test.verdict is None and 2 * counted in results and 2 * counted + 1 in results:
            played = (results.pop(2 * counted), results.pop(2 * counted + 1))
            errors = tuple(f"match {m}: {r.error}" for m, r in enumerate(played) if r.error or r.record is None)
            seating = layout.at(counted)
            notes = tuple(f"match {m} seat {f.seat} ({seating.seats(m, 'NEW', 'OLD')[f.seat]}) {f.kind.value}"
                          for m, r in enumerate(played) if r.record is not None for f in r.record.faults)
            points = None if errors else seating.points([r.record.ranking for r in played])
            adjusted = raw = None
            if points is not None and test.needs_luck:
                try:
                    adjusted, raw = adjusted_score(seating, played, test.estimator)
                except PairingError:
                    raise
                except (LuckError, ValueError) as error:  # a report that does not analyse or read
                    points, errors = None, (f"luck analysis: {error}",)
            elif points is not None and test.needs_margin:
                raw = raw_score(seating, played)
            if points is not None:
                test.record(points, adjusted, raw)
            on_pair(PairResult(counted, seeds.pop(counted), points, errors, len(notes), adjusted, raw, notes))
            counted += 1
            failed_in_a_row = failed_in_a_row + 1 if errors else 0
            if failed_in_a_row >= FAILED_IN_A_ROW:
                raise PairingError(f"{FAILED_IN_A_ROW} pairs in a row did not finish (last: {'; '.join(errors)})")
