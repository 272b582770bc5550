"""The JSON API under ``/api`` (documented in docs/web.md): the same data as the pages."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from arena.web import data, ladders as ladder_data
from arena.submission.web_auth import request_user
from arena.web.bot_output import check_visible, match_readable
from arena.web.store import ReadOnlyStore


def _store(request: Request) -> ReadOnlyStore:
    store: ReadOnlyStore = request.app.state.store
    return store


def games(request: Request) -> JSONResponse:
    with _store(request).connect() as db:
        return JSONResponse(data.games(db))


def ratings(request: Request) -> JSONResponse:
    p = request.path_params
    store = _store(request)
    with store.connect() as db:
        return JSONResponse(data.ratings(store, db, p["game"], p["variant"]))


def h2h(request: Request) -> JSONResponse:
    p = request.path_params
    with _store(request).connect() as db:
        return JSONResponse(data.head_to_head(_store(request), db, p["game"], p["variant"]))


def los(request: Request) -> JSONResponse:
    p = request.path_params
    store = _store(request)
    with store.connect() as db:
        return JSONResponse(data.los(store, db, p["game"], p["variant"]))


def bot(request: Request) -> JSONResponse:
    store = _store(request)
    with store.connect() as db:
        return JSONResponse(data.bot(store, db, request.path_params["bot_id"]))


def tournaments(request: Request) -> JSONResponse:
    with _store(request).connect() as db:
        return JSONResponse(data.tournaments(db))


def tournament(request: Request) -> JSONResponse:
    with _store(request).connect() as db:
        return JSONResponse(data.tournament(db, request.path_params["tid"]))


def ladders(request: Request) -> JSONResponse:
    with _store(request).connect() as db:
        return JSONResponse(ladder_data.ladders(db))


def ladder(request: Request) -> JSONResponse:
    """With ``?since=ID`` (what the ladder page polls), only the played matches above it."""
    since = ladder_data.parse_since(request.query_params)
    store = _store(request)
    with store.connect() as db:
        return JSONResponse(ladder_data.ladder(store, db, request.path_params["tid"], since))


def matches(request: Request) -> JSONResponse:
    where = data.MatchFilter.parse(request.query_params)
    with _store(request).connect() as db:
        result: dict[str, Any] = data.matches(db, where)
    return JSONResponse(result)


def match(request: Request) -> JSONResponse:
    """A match with its record: fault texts for their authors, hidden as its replay is (:mod:`.bot_output`)."""
    match_id = request.path_params["match_id"]
    user = request_user(request)
    with _store(request).connect() as db:
        readable = match_readable(db, user, match_id)
        found = data.match(db, match_id, readable)  # first: a match that does not exist is "no match N"
        check_visible(request, match_id, readable)
        return JSONResponse(found)


routes = [
    Route("/games", games),
    Route("/games/{game}/{variant}/ratings", ratings),
    Route("/games/{game}/{variant}/h2h", h2h),
    Route("/games/{game}/{variant}/los", los),
    Route("/bots/{bot_id:int}", bot),
    Route("/tournaments", tournaments),
    Route("/tournaments/{tid:int}", tournament),
    Route("/ladders", ladders),
    Route("/ladders/{tid:int}", ladder),
    Route("/matches", matches),
    Route("/matches/{match_id:int}", match),
]
