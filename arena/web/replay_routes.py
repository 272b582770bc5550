"""The replay viewer's JSON: ``/api/matches/{id}/replay?view=table|SEAT``."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from arena.web.replay import match_replay
from arena.web.store import ReadOnlyStore


def replay_json(request: Request) -> JSONResponse:
    store: ReadOnlyStore = request.app.state.store
    with store.connect() as db:
        data = match_replay(db, request.path_params["match_id"], request.query_params.get("view"))
    return JSONResponse(data)


routes = [Route("/matches/{match_id:int}/replay", replay_json)]
