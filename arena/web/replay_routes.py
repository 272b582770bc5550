"""The replay viewer's JSON: ``/api/matches/{id}/replay?view=table|SEAT``.

A played match never changes, so its encoded replay is kept (a few, least recently used):
re-simulating and drawing 200 steps takes longer than serving them again.
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.web.replay import match_replay
from arena.web.store import ReadOnlyStore


def replay_json(request: Request) -> Response:
    store: ReadOnlyStore = request.app.state.store
    match_id: int = request.path_params["match_id"]
    view = request.query_params.get("view") or "table"
    body: bytes | None = store.replays.get((match_id, view))
    if body is None:
        with store.connect() as db:
            data = match_replay(db, match_id, view)
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode()
        if data["status"] == "done":
            store.replays.put((match_id, view), body)
    return Response(body, media_type="application/json")


routes = [Route("/matches/{match_id:int}/replay", replay_json)]
