"""The replay viewer's JSON: ``/api/matches/{id}/replay?view=table|SEAT``.

A played match never changes, so its encoded replay is kept (a few, least recently used):
re-simulating and drawing 200 steps takes longer than serving them again.  It is kept per set
of seats whose fault texts the reader may read (:mod:`.bot_output`), so an author's answer
never reaches anyone else.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.submission.web_auth import request_user
from arena.web.bot_output import check_visible, match_readable
from arena.web.data import BadRequest, is_whole_number
from arena.web.replay import match_replay
from arena.web.store import ReadOnlyStore


def _whole_number(request: Request, name: str, default: int | None) -> int | None:
    text = request.query_params.get(name)
    if text is None or text == "":
        return default
    if not is_whole_number(text):
        raise BadRequest(f"{name} must be a whole number")
    return int(text)


def replay_json(request: Request) -> Response:
    """``?view=table|SEAT&from=N&count=K``: steps N to N+K (default: all of them)."""
    store: ReadOnlyStore = request.app.state.store
    match_id: int = request.path_params["match_id"]
    view = request.query_params.get("view") or "table"
    start = _whole_number(request, "from", 0) or 0
    count = _whole_number(request, "count", None)
    user = request_user(request)
    readable: frozenset[int] = frozenset()
    if user is not None:  # an anonymous reader borrows no connection
        with store.connect() as db:
            readable = match_readable(db, user, match_id)
    check_visible(request, match_id, readable)  # before the cache: a kept replay is no less hidden
    key = (match_id, view, start, count, readable)  # who reads which faults' details is part of the answer
    body: bytes | None = store.replays.get(key)
    if body is None:
        with store.connect() as db:
            data = match_replay(db, match_id, view, start=start, count=count, readable=readable)
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if data["status"] == "done":
            store.replays.put(key, body)
    return Response(body, media_type="application/json")


routes = [Route("/matches/{match_id:int}/replay", replay_json)]
