"""Admins pause, resume and remove a ladder's entrants from the web (``arena serve --accounts``).

The same store function as ``arena ladder pause|resume|remove`` (:func:`arena.runs.ladder_store.set_state`),
so a running ``arena ladder run`` picks the change up within a second, as it does the CLI's;
the reason names the admin, and shows in the ladder's status as an automatic pause's does.

* ``POST /ladders/{id}/entrants/{bot id}/{pause|resume|remove}``: the ladder page's buttons,
  shown to a signed-in admin only; the form's CSRF token is checked first (403), then that the
  session is an admin's (403); then a redirect (303) back to the ladder page.
* ``POST /api/ladders/{id}/entrants/{bot id}/{pause|resume|remove}``: the same with a Bearer
  token (401 without a good one, 403 for a non-admin); the entrant's new state as JSON.

Both write through the accounts' writable door (:class:`~arena.submission.web_auth.AccountsDoor`):
the league views stay read-only.
"""

from __future__ import annotations

from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from arena.league.storage import Database
from arena.runs import ladder_store
from arena.submission import accounts
from arena.submission.web_auth import AccountsDoor, bearer_user, read_form, signed_in
from arena.web.data import NotFound
from arena.web.ladders import ladder_row

ACTIONS = {"pause": "paused", "resume": "active", "remove": "removed"}
"""Each action's path word and the state it sets, as ``arena ladder pause|resume|remove``."""


def reason(action: str, admin: accounts.User) -> str:
    """What the ladder's status says of the change (resuming clears the reason, as the CLI's)."""
    return {"pause": f"paused by admin {admin.name}", "remove": f"removed by admin {admin.name}"}.get(action, "")


def buttons(state: str) -> list[tuple[str, str]]:
    """``(action, label)`` of the buttons beside an entrant in ``state``: the changes it may
    make (a removed entrant only comes back: no Pause)."""
    return [(action, action.capitalize()) for action, target in ACTIONS.items()
            if target in ladder_store.NEXT_STATES[state]]


def is_admin(request: Request) -> bool:
    """Whether the page's reader is a signed-in admin (who sees the buttons)."""
    session = signed_in(request)
    return session is not None and session.user.admin


def apply(db: Database, tid: int, bot_id: int, action: str, admin: accounts.User) -> dict[str, Any]:
    """Set the entrant's state; its new row, as the ladder's JSON shows entrants.

    :raises NotFound: for an unknown action, a tournament that is not a ladder, or a bot that
        is not its entrant.
    :raises HTTPException: 409 for pausing a removed entrant (``ladder_store.NEXT_STATES``).
    """
    if action not in ACTIONS:
        raise NotFound(f"no action {action!r}: pause, resume or remove")
    ladder_row(db, tid)
    try:
        changed = ladder_store.set_state(db, tid, bot_id, ACTIONS[action], reason(action, admin))
    except ladder_store.EntrantStateError as error:
        raise HTTPException(409, f"cannot {action} bot {bot_id}: {error}") from None
    if not changed:
        raise NotFound(f"bot {bot_id} is not an entrant of ladder {tid}")
    [row] = [e for e in ladder_store.entrants(db, tid) if e.bot_id == bot_id]
    return {"ladder": tid, "bot_id": bot_id, "bot": row.label, "state": row.state, "reason": row.reason}


def _admin_only(user: accounts.User | None) -> accounts.User:
    if user is None or not user.admin:
        raise HTTPException(403, "only an admin may pause, resume or remove a ladder's entrants")
    return user


def _write(request: Request, admin: accounts.User) -> dict[str, Any]:
    door: AccountsDoor = request.app.state.accounts
    p = request.path_params
    with door.connect() as db:
        return apply(db, p["tid"], p["bot_id"], p["action"], admin)


async def entrant_form(request: Request) -> Response:
    """The ladder page's Pause, Resume and Remove buttons."""
    await read_form(request)  # the CSRF token first: a forged form learns nothing more
    session = await run_in_threadpool(signed_in, request)
    admin = _admin_only(None if session is None else session.user)
    await run_in_threadpool(_write, request, admin)
    return RedirectResponse(f"/ladders/{request.path_params['tid']}", status_code=303)


def entrant_api(request: Request) -> Response:
    """The same for tools, with a Bearer token."""
    admin = _admin_only(bearer_user(request))
    return JSONResponse(_write(request, admin))


PATH = "/ladders/{tid:int}/entrants/{bot_id:int}/{action}"

routes: list[BaseRoute] = [Route(PATH, entrant_form, methods=["POST"]),
                           Route("/api" + PATH, entrant_api, methods=["POST"])]
"""Mounted with ``--accounts`` (before the ``/api`` mount, which would answer 404 for them)."""
