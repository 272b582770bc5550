"""Who may read what a bot wrote about itself.

A fault's detail often quotes the bot: the last line of its stderr when its process ends,
the text of its gRPC errors, what it says when it fails to start (:data:`QUOTING`).  On the
web that text is shown only to the bot's author and to admins; everyone else gets the fault's
seat, kind and decision with :data:`HIDDEN` as its detail.  The CLI, the organiser's own tool, shows it all.

A league bot's author is the author of the submission that entered it in a ladder
(:func:`arena.submission.submissions.authored_bots`), never the manifest's ``author`` field,
which anyone may write; bots the organiser entered have none, so only admins read theirs.

The same people see a match's record when ``arena serve --hide-replays`` hides it from the
rest (:func:`check_visible`): a replay shows every decision a bot took, which is much of
what its code knows.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from starlette.requests import Request

from arena.league.storage import Database, NotFoundError
from arena.submission import accounts
from arena.submission.submissions import authored_bots

HIDDEN = "(its text is shown to the bot's author only)"
"""A hidden fault's detail: the fault is there, what the bot wrote is not."""


def readable_seats(db: Database, user: accounts.User | None, bot_ids: Sequence[int]) -> frozenset[int]:
    """The seats of a match (its bots by seat) whose bots' own words ``user`` may read."""
    if user is None:
        return frozenset()
    if user.admin:
        return frozenset(range(len(bot_ids)))
    mine = authored_bots(db, user, bot_ids)
    return frozenset(seat for seat, bot in enumerate(bot_ids) if bot in mine)


QUOTING = frozenset({"error", "process_exit", "startup"})
"""The fault kinds whose detail may quote the bot (its gRPC error text, its output when its
process ends, what it said or claimed when it failed to start).  A ``timeout`` or an
``invalid`` answer is described by the referee alone ("no answer within 1.000 s", "index 7 is
not in 0..2"), so everyone reads it."""


def shown_faults(faults: Sequence[dict[str, Any]], readable: Collection[int] | None) -> list[dict[str, Any]]:
    """Faults (as :meth:`referee.result.Fault.to_json`) with the detail of each :data:`QUOTING`
    fault of a seat outside ``readable`` hidden (``None``: every seat readable)."""
    if readable is None:
        return list(faults)
    return [{**fault, "detail": HIDDEN} if fault["kind"] in QUOTING and fault["seat"] not in readable else fault
            for fault in faults]


def match_readable(db: Database, user: accounts.User | None, match_id: int) -> frozenset[int]:
    """:func:`readable_seats` of match ``match_id`` of ``db``.

    :raises NotFound: for a match ``db`` does not have.
    """
    from arena.web.data import NotFound  # here: arena.web.data imports this module

    if user is None:
        return frozenset()
    try:
        bot_ids = db.match(match_id).bot_ids
    except NotFoundError:
        raise NotFound(f"no match {match_id}") from None
    return readable_seats(db, user, bot_ids)


def check_visible(request: Request, match_id: int, readable: Collection[int] | None) -> None:
    """Let the request see match ``match_id``'s record, or raise the 404 a hidden one answers.

    ``readable``: the seats whose bots' words the reader may read (:func:`readable_seats`;
    ``None``: all): with ``--hide-replays`` a record shows only to those who may read one of
    its seats, that is admins and the authors of a seated bot.

    :raises NotFound: with ``--hide-replays``, for anyone else.
    """
    from arena.web.data import NotFound  # here: arena.web.data imports this module

    if request.app.state.hide_replays and readable is not None and not readable:
        raise NotFound(f"match {match_id}'s record is hidden on this server: only admins and the authors of its bots "
                       f"see it (sign in)")
