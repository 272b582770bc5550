"""What a deal still in play keeps secret: its seed, and the records of the matches that dealt it.

A match's seed gives every card of its deal: every hand, the stock's order, every later deal,
Yahtzee's future dice.  A record gives them too (its replay's table view shows every hand).  So
while some match may still play a deal, no answer of the server names its seed or shows a
record of it, to anyone, on any route.  A match may still play its deal while it is pending
(waiting or under way), or failed in a tournament that ``arena tournament resume`` may still
take up (it plays failed matches again); a played match shares its deal with the other
seatings of a duplicate deal, which may not be played yet.

A tournament's seed gives the seeds of all its matches (its schedule, or a ladder's sets, is a
pure function of it), so it is shown only once every match of the tournament is played.

A match's luck (:mod:`referee.luck`) is measured on the full state: a step's text and move
tell when a card was drawn and what it was worth, and even a seat's total says how good its
deal was.  So luck is shown exactly where the seed is (:func:`shown_luck`), and its steps only
with the record (docs/luck.md, "What a viewer sees").

Every route takes a match's seed from :func:`shown_seeds`, its luck from :func:`shown_luck`, a
tournament's seed from :func:`tournament_seed`, and asks :func:`deal_settled` before it serves a
record.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from arena.league.luck import LuckSummary, summaries
from arena.league.queries import seeds_to_play
from arena.league.storage import Database, MatchRow, TournamentRow
from arena.runs.ladder_store import is_ladder

OPEN_DEALS_READ = 1000
"""A tournament with more matches left to play than this (a large round robin under way) shows
none of its seeds until fewer are left: reading them all for every page would cost too much."""

HELD_BACK = ("its deal may still be played (a seating of the same duplicate deal, or a failed match that "
             "`arena tournament resume` plays again), so its record and seed are shown once that is over")
"""Why a played match shows neither its record nor its seed yet (pages and 404s say it)."""


FINAL_STATUSES = ("finished", "failed", "abandoned")
"""Tournament statuses after which nothing plays its failed matches again (a round robin that
stopped early is ``interrupted`` or ``incomplete``, and resumable; a match with a person that
could not be played leaves its tournament ``failed``)."""


def _seeds_to_play(db: Database, tid: int) -> frozenset[int] | None:
    """The seeds tournament ``tid`` may still play (``None``: too many to read)."""
    tournament = db.tournament(tid)
    replays_failed = tournament.status not in FINAL_STATUSES and not is_ladder(tournament)
    return seeds_to_play(db, tid, OPEN_DEALS_READ, failed=replays_failed)


def shown_seeds(db: Database, matches: Iterable[MatchRow]) -> dict[int, int]:
    """The seeds of those ``matches`` that may be shown, by match id: matches over (played, or
    failed for good) whose deal no match of their tournament may still play."""
    to_play: dict[int | None, frozenset[int] | None] = {}
    shown: dict[int, int] = {}
    for match in matches:
        if match.status == "pending":
            continue
        tid = match.tournament_id
        if tid not in to_play:
            to_play[tid] = frozenset() if tid is None else _seeds_to_play(db, tid)
        unplayed = to_play[tid]
        if unplayed is not None and match.seed not in unplayed:
            shown[match.id] = match.seed
    return shown


def shown_luck(db: Database, seeds: Mapping[int, int]) -> dict[int, LuckSummary]:
    """The stored luck of the matches whose ``seeds`` are shown (:func:`shown_seeds`), by match
    id; a match without a report is absent (shown as ``null``, never as zeros)."""
    return summaries(db, seeds.keys())


def deal_settled(db: Database, match: MatchRow) -> bool:
    """Whether ``match``'s record and seed may be shown: nothing will play its deal again."""
    return match.id in shown_seeds(db, [match])


def tournament_seed(db: Database, tournament: TournamentRow) -> int | None:
    """The tournament's seed once it is finished with every match played; else ``None``.  A
    ladder's never: it keeps scheduling sets from it."""
    counts = db.match_counts(tournament.id)
    if tournament.status != "finished" or is_ladder(tournament) or counts["pending"] or counts["failed"]:
        return None
    return tournament.seed
