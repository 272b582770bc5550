"""Ladders as the web app shows them: the list, one ladder's status and leaderboard, and what
changed since a match id (what the ladder page polls for).

The numbers are :func:`arena.runs.ladder_store.overview`'s, the ones ``arena ladder status``
prints; the ratings are the web's own up-to-date table (:meth:`.store.ReadOnlyStore.table`).
Every read is a running total, an index lookup or the last minute's matches: no request reads
the whole ladder, however long it has played.
"""

from __future__ import annotations

import time
from typing import Any

from arena.league.ratings import separations, stored_priors
from arena.league.storage import Database, NotFoundError, TournamentRow
from arena.runs import ladder_store
from arena.web.data import BadRequest, NotFound, is_whole_number, iso_time, match_json
from arena.web.deals import shown_luck, shown_seeds
from arena.web.store import ReadOnlyStore

LATEST = 10
"""The ladder page lists this many of the latest played matches."""


def ladders(db: Database) -> list[dict[str, Any]]:
    """Every ladder, newest first: its status and its entrants counted by state."""
    now = time.time()
    return [dict(ladder_store.head(db, t, now=now), entrants_by_state=ladder_store.state_counts(db, t.id))
            for t in reversed(ladder_store.ladders(db))]


def parse_since(params: Any) -> int | None:
    """The ``since`` query parameter: a match id, or ``None`` when absent.

    :raises BadRequest: if it is not a whole number.
    """
    text = params.get("since") or ""
    if not text:
        return None
    if not is_whole_number(text):
        raise BadRequest("since must be a whole number (a match id)")
    return int(text)


def ladder_row(db: Database, tid: int) -> TournamentRow:
    """Ladder ``tid``'s tournament row.

    :raises NotFound: if there is no tournament ``tid`` or it is not a ladder.
    """
    try:
        t = db.tournament(tid)
    except NotFoundError:
        raise NotFound(f"no ladder {tid}") from None
    if not ladder_store.is_ladder(t):
        raise NotFound(f"tournament {tid} is not a ladder")
    return t


def ladder(store: ReadOnlyStore, db: Database, tid: int, since: int | None = None) -> dict[str, Any]:
    """One ladder: status, counts, the leaderboard of its entrants and the latest played matches.

    The leaderboard is sorted as the game's rating table (conservative rating, then mu);
    ``rank``, ``best_rank``/``worst_rank`` and ``tied_with`` are within the ladder's rated
    entrants (``arena ratings``' "ranks" and "tied with", docs/ladder.md); entrants not yet
    rated follow, without a rank (with their prior's mu and sigma, if they have one: a new
    version's start).  ``latest`` holds the :data:`LATEST` played matches with the largest ids,
    or with ``since`` only those above it; ``next_since`` is the id to pass next time: below
    every match still to be played, so one that finishes late is not missed.

    :raises NotFound: if there is no ladder ``tid``.
    """
    t = ladder_row(db, tid)
    now = time.time()
    table = {r.bot_id: r for r in store.table(db, t.game, t.variant)}
    priors = {bot: (r.mu, r.sigma) for bot, r in stored_priors(db, t.game, t.variant).items()}
    data = ladder_store.overview(db, t, now=now, ratings=priors)  # mu and sigma: the table's, set below
    rated = sorted((e for e in data["entrants"] if e["bot_id"] in table), key=lambda e: table[e["bot_id"]].rank)
    unrated = [e for e in data["entrants"] if e["bot_id"] not in table]
    for rank, (entrant, sep) in enumerate(zip(rated, separations([table[e["bot_id"]] for e in rated])), 1):
        row = table[entrant["bot_id"]]
        entrant.update(rank=rank, best_rank=sep.best, worst_rank=sep.worst, tied_with=list(sep.tied_with),
                       mu=round(row.mu, 4), sigma=round(row.sigma, 4), conservative=round(row.conservative, 4))
    for entrant in unrated:
        entrant.update(rank=None, best_rank=None, worst_rank=None, tied_with=[], conservative=None)
    for entrant in data["entrants"]:
        stamp = entrant.pop("last_match_at")
        entrant["last_match"] = iso_time(stamp)
        entrant["last_match_age_s"] = None if stamp is None else round(max(0.0, now - stamp), 1)
    data["entrants"] = rated + unrated
    labels = {e["bot_id"]: e["bot"] for e in data["entrants"]}  # every seat of a ladder's match is an entrant
    played = db.matches(tournament_id=tid, status="done", limit=LATEST, newest_first=True, after_id=since)
    seeds = shown_seeds(db, played)
    luck = shown_luck(db, seeds)
    data["latest"] = [match_json(m, labels, seeds, luck) for m in played]
    data["next_since"] = _next_since(db, tid, since)
    return data


def _next_since(db: Database, tid: int, since: int | None) -> int:
    """Below the ladder's lowest match still pending (it may finish after higher ones), else
    its highest played match: two index lookups."""
    pending, played = db.conn.execute(
        "SELECT (SELECT MIN(id) FROM matches WHERE tournament_id = ? AND status = 'pending'),"
        " (SELECT MAX(id) FROM matches WHERE tournament_id = ? AND status = 'done')", (tid, tid)).fetchone()
    if pending is not None:
        return int(pending) - 1
    return max(int(played or 0), since or 0)
