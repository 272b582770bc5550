"""Who may read what a bot wrote about itself.

A fault's detail often quotes the bot: the last line of its stderr when its process ends,
the text of its gRPC errors, what it says when it fails to start.  On the web that text is
shown only to the bot's author and to admins; everyone else gets the fault's seat, kind and
decision with :data:`HIDDEN` as its detail.  The CLI, the organiser's own tool, shows it all.

A league bot's author is the author of the submission that entered it in a ladder
(:func:`arena.submission.submissions.authored_bots`); bots the organiser entered have none,
so only admins read theirs.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from starlette.requests import Request

from arena.league.storage import Database
from arena.submission import accounts
from arena.submission.submissions import authored_bots
from arena.submission.web_auth import bearer_user, signed_in

HIDDEN = "(its text is shown to the bot's author only)"
"""A hidden fault's detail: the fault is there, what the bot wrote is not."""


def reader(request: Request) -> accounts.User | None:
    """Who is asking: the signed-in person, else the user of the request's API token (a wrong
    token is a 401 as on every API route); ``None`` for an anonymous visitor, and on a server
    without accounts.  Call it from a thread (it may read the accounts tables)."""
    if request.app.state.accounts is None:
        return None
    session = signed_in(request)
    if session is not None:
        return session.user
    if request.headers.get("authorization"):
        return bearer_user(request)
    return None


def readable_seats(db: Database, user: accounts.User | None, bot_ids: Sequence[int]) -> frozenset[int]:
    """The seats of a match (its bots by seat) whose bots' own words ``user`` may read."""
    if user is None:
        return frozenset()
    if user.admin:
        return frozenset(range(len(bot_ids)))
    mine = authored_bots(db, user, bot_ids)
    return frozenset(seat for seat, bot in enumerate(bot_ids) if bot in mine)


def shown_faults(faults: Sequence[dict[str, Any]], readable: Collection[int] | None) -> list[dict[str, Any]]:
    """Faults (as :meth:`referee.result.Fault.to_json`) with the detail of each seat outside
    ``readable`` hidden (``None``: every seat readable)."""
    if readable is None:
        return list(faults)
    return [fault if fault["seat"] in readable else {**fault, "detail": HIDDEN} for fault in faults]
