"""The ASGI application: one router per area, mounted together, over a read-only store.

Areas today: HTML pages (:mod:`.pages`), the JSON API (:mod:`.api`), the replay data
(:mod:`.replay_routes`), with ``play``, the Play area (:mod:`.play_routes`), which
writes to a database of its own, and with ``accounts``, sign-in and API tokens
(:mod:`arena.submission.web_auth`), which write to the accounts tables only, and with
``uploads`` bot submissions (:mod:`arena.submission.web_submit`), which write the
                *(ladder_admin.routes if accounts is not None else []),
                *(web_submit.routes + author_pages.routes + sprt_pages.routes if uploads is not None else []),
(bot submission, human play) is one more router here; one that needs to write gets its own
writable door beside :class:`~.store.ReadOnlyStore`.
"""

from __future__ import annotations

import contextlib
import secrets
import threading
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import jinja2
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from arena.league.queries import age_text, counted
from arena.submission import web_auth, web_submit
from arena.submission.submissions import remove_stale_staging
from arena.submission.web_auth import AccountsConfig, AccountsDoor
from arena.web import (api, author_pages, docs, export_routes, ladder_admin, pages, play_routes, replay_routes, rules,
                       sprt_pages)
from arena.web.charts import win_colour
from arena.web.data import BadRequest, NotFound, lower_scores_win
from arena.web.play import PlayConfig, PlayManager
from arena.web.renderers import teams_of
from arena.web.store import QUERY_SECONDS, QueryTooSlow, ReadOnlyStore

SECURITY_HEADERS = [
    (b"content-security-policy", b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
                                 b"img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
]
"""Defence in depth behind escaping: no inline or foreign scripts run even if text slipped through."""


PRIVATE = (b"cache-control", b"private")
"""Every response is for its reader alone: with accounts and ``--hide-replays`` a page depends
on who asks, so no shared cache (a proxy put in front) may keep one reader's page for another."""


class SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every response, and :data:`PRIVATE` to those that set
    no caching of their own."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + SECURITY_HEADERS
                if not any(name.lower() == PRIVATE[0] for name, _ in headers):
                    headers.append(PRIVATE)
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _templates() -> Jinja2Templates:
    env = jinja2.Environment(loader=jinja2.PackageLoader("arena.web", "templates"), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["win_colour"] = win_colour
    env.filters["num"] = lambda value, digits=2: "" if value is None else f"{value:.{digits}f}"
    env.filters["ago"] = lambda seconds: "" if seconds is None else age_text(seconds)
    env.filters["counted"] = counted
    env.globals["lower_scores_win"] = lower_scores_win
    env.globals["teams_of"] = teams_of
    env.globals["doc_url"] = docs.doc_url
    env.globals.update(web_auth.TEMPLATE_GLOBALS)
    return Jinja2Templates(env=env)


def _error(request: Request, status: int, message: str) -> Response:
    if request.url.path.startswith("/api/"):
        return JSONResponse({"error": message}, status_code=status)
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(request, "error.html", {"status": status, "message": message},
                                      status_code=status)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(request, 404, str(exc) or "not found")


async def _bad_request(request: Request, exc: Exception) -> Response:
    return _error(request, 400, str(exc))


async def _too_slow(request: Request, exc: Exception) -> Response:
    return _error(request, 503, str(exc))


async def _http_error(request: Request, exc: Any) -> Response:
    response = _error(request, exc.status_code, exc.detail)
    response.headers.update(exc.headers or {})  # WWW-Authenticate of a 401, Retry-After of a 429
    return response


def create_app(db_path: str | Path, play: PlayConfig | None = None, query_seconds: float = QUERY_SECONDS,
               accounts: AccountsConfig | None = None, uploads: web_submit.UploadsConfig | None = None,
               hide_replays: bool = False, export_max_matches: int = export_routes.EXPORT_MAX_MATCHES) -> Starlette:
    """The web app over the database at ``db_path``, opened read-only now; each request's
    queries may take ``query_seconds``.  With ``play``, also the Play area, where visitors
    play against bots (:mod:`.play_routes`); with ``accounts``, sign-in and API tokens, an
    admin's controls of ladder entrants (:mod:`.ladder_admin`), and with ``uploads`` too, bot
    uploads (:mod:`arena.submission.web_submit`), after removing the stale staging folders
    an interrupted upload left (``app.state.stale_staging`` lists them).  With
    ``hide_replays``, match records only for admins and their bots' authors (:mod:`.bot_output`).
    A dataset download holds at most ``export_max_matches`` matches (:mod:`.export_routes`).

    :raises StorageError: if a file is missing or not an arena database.
    """
    if uploads is not None and accounts is None:
        raise ValueError("uploads need accounts")
    door = AccountsDoor(db_path, accounts) if accounts is not None else None  # first: it may migrate the file
    store = ReadOnlyStore(db_path, query_seconds)
    manager = PlayManager(play) if play is not None else None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        if manager is not None:
            manager.close()
        if door is not None:
            door.close()
        store.close()

    app = Starlette(
        routes=[*(web_auth.routes(accounts) if accounts is not None else []),
                *(ladder_admin.routes if accounts is not None else []),
                *(web_submit.routes + author_pages.routes + sprt_pages.routes if uploads is not None else []),
                *(play_routes.routes if manager is not None else []),
                *pages.routes, *export_routes.routes, *rules.routes, *docs.routes, Mount("/api", routes=[*api.routes, *replay_routes.routes]),
                Mount("/static", app=StaticFiles(packages=[("arena.web", "static")]), name="static")],
        exception_handlers={NotFound: _not_found, BadRequest: _bad_request, QueryTooSlow: _too_slow,
                            HTTPException: _http_error},
        lifespan=lifespan)
    app.state.store = store
    app.state.play = manager
    app.state.accounts = door
    app.state.uploads = web_submit.Uploads(uploads) if uploads is not None else None
    app.state.stale_staging = remove_stale_staging(uploads.data_dir) if uploads is not None else []
    app.state.hide_replays = hide_replays
    app.state.export_max_matches = export_max_matches
    app.state.exporting = threading.Lock()  # one dataset download prepared at a time (.export_routes)
    app.state.play_secret = secrets.token_bytes(32)
    app.state.templates = _templates()
    app.add_middleware(SecurityHeaders)
    return app
