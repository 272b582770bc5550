"""The replay viewer's JSON: ``/api/matches/{id}/replay?view=table|SEAT``.

A played match never changes, so its encoded replay is kept (a few, least recently used):
re-simulating and drawing 200 steps takes longer than serving them again.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.web.data import BadRequest, is_whole_number
from arena.web.hidden_replays import check_visible
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
    if request.app.state.hide_replays:  # before the cache: a kept replay is no less hidden
        with store.connect() as db:
            check_visible(request, db, match_id)
    key = (match_id, view, start, count)
    body: bytes | None = store.replays.get(key)
    if body is None:
        with store.connect() as db:
            data = match_replay(db, match_id, view, start=start, count=count)
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if data["status"] == "done":
            store.replays.put(key, body)
    return Response(body, media_type="application/json")


routes = [Route("/matches/{match_id:int}/replay", replay_json)]
