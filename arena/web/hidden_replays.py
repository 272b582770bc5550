"""``arena serve --hide-replays``: who may see a match's record (docs/web.md, docs/security.md).

A replay shows every decision a bot took, which is much of what its code knows; a league may
want to keep that from the other authors.  With the option on, every route that serves a
record or its moves (the match page with its viewer, ``/api/matches/{id}``, the replay JSON,
and the Play area's replays) answers 404 unless the asker is an admin or the author of a bot
that sat in the match; match lists and results stay public.

An author is linked to a league bot by their entered submissions (state ``active`` or
``retired``: :mod:`arena.submission.submissions`) of that bot's name and version, never by
the manifest's ``author`` field, which anyone may write.
"""

from __future__ import annotations

from starlette.requests import Request

from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.web_auth import request_user
from arena.web.data import NotFound

ENTERED = ("active", "retired")
"""The states of a submission whose bot was entered in a ladder (so plays league matches)."""


def seat_bots(db: Database, match_id: int) -> list[tuple[str, str]]:
    """The name and version of each bot seated in the match (of ``db``: the league, or Play's)."""
    return [(str(r[0]), str(r[1])) for r in db.conn.execute(
        "SELECT DISTINCT b.name, b.version FROM match_seats s JOIN bots b ON b.id = s.bot_id WHERE s.match_id = ?",
        (match_id,))]


def authored(league: Database, user: accounts.User, bots: list[tuple[str, str]]) -> bool:
    """Whether ``user`` submitted one of ``bots`` (name and version) and it was entered."""
    states = ",".join("?" * len(ENTERED))
    return any(league.conn.execute(
        f"SELECT 1 FROM submissions WHERE author_id = ? AND bot_name = ? COLLATE NOCASE AND version = ?"
        f" AND state IN ({states}) LIMIT 1", (user.id, name, version, *ENTERED)).fetchone() is not None
        for name, version in bots)


def check_visible(request: Request, league: Database, match_id: int, seats: Database | None = None) -> None:
    """Let the request see match ``match_id``'s record, or raise the 404 a hidden one answers.

    ``league`` is the served database (it holds the submissions); ``seats`` the one holding the
    match, if another (the Play area's).  Call it from a thread (it may look the user up).

    :raises NotFound: with ``--hide-replays``, for anyone but an admin or an author of a seated bot.
    """
    if not request.app.state.hide_replays:
        return
    user = request_user(request)
    if user is not None and (user.admin or authored(league, user, seat_bots(seats or league, match_id))):
        return
    raise NotFound(f"match {match_id}'s record is hidden on this server: only admins and the authors of its bots "
                   f"see it (sign in)")
