"""Accounts on the web (``arena serve --accounts``): API tokens, sign-in, sessions, CSRF.

* **API routes** authenticate with ``Authorization: Bearer <token>`` (:func:`bearer_user`):
  a missing, wrong, replaced or disabled user's token is a 401.
* **Pages** know a person by a session cookie (:func:`signed_in`), set by the sign-in form
  (name and token).  The cookie holds a random session id, stored server-side only as its
  hash (:mod:`.accounts`), so signing out, rotating the token or disabling the user ends
  the session at once.  It is ``HttpOnly`` (no script reads it), ``SameSite=Lax`` (a
  link from another site arrives signed in, but another site's POST carries no cookie;
  the CSRF token is the defence that does not rely on the browser) and ``Secure`` when the
  request came over https.
* **CSRF**: every form that changes something carries :func:`csrf_token` in a ``csrf``
  field, checked in constant time by :func:`check_csrf` (a 403 otherwise; :func:`read_form`
  calls it, and the upload form's handler for its multipart body).  A signed-in
  person's token belongs to their session; before signing in (the sign-in and
  registration forms) it is a random value in a ``SameSite=Strict`` cookie that the form
  must repeat, which another site can neither read nor send.
* **Limits**: failed sign-ins per client (:attr:`AccountsConfig.max_failed_sign_ins` in
  :attr:`~AccountsConfig.window_seconds`, then 429) and registrations per client.  The
  client is the connection's address (uvicorn takes ``X-Forwarded-For`` only from a proxy on
  127.0.0.1).

Accounts need writes, while the league views stay read-only (:class:`~arena.web.store.ReadOnlyStore`):
these routes borrow read-write connections of their own (:class:`AccountsDoor`), which touch
only the accounts tables.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
import urllib.parse
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from arena.league.storage import ConnectionPool, Database
from arena.submission import accounts

SESSION_COOKIE = "arena_session"
CSRF_COOKIE = "arena_csrf"
"""The CSRF token of a browser that is not signed in."""
CSRF_FIELD = "csrf"
MAX_FORM_BYTES = 4096
"""The account forms are a few short fields; starlette's own form parsing would need python-multipart."""
_MAX_COOKIE = 128


@dataclass(frozen=True)
class AccountsConfig:
    """What ``arena serve --accounts`` offers."""

    open_registration: bool = False
    """Whether anyone may create an account at ``/register`` (off: only ``arena user add``)."""
    max_failed_sign_ins: int = 5
    """Failed sign-ins a client may make in :attr:`window_seconds` before being refused (429)."""
    max_registrations: int = 3
    """Accounts a client may register in :attr:`window_seconds`."""
    window_seconds: float = 600.0


class RateLimiter:
    """At most ``limit`` events per client key in a sliding window of ``window`` seconds.

    Kept in memory (a restart forgets it) for at most ``max_keys`` clients, the least recent
    forgotten first, so a flood of addresses cannot fill the memory.
    """

    def __init__(self, limit: int, window: float, max_keys: int = 10_000) -> None:
        self.limit = limit
        self.window = window
        self.max_keys = max_keys
        self._events: OrderedDict[str, list[float]] = OrderedDict()
        self._lock = threading.Lock()

    def take(self, key: str) -> float:
        """Count an attempt of ``key`` if its limit allows one now (0 is returned), else the
        seconds until it will.  Checking and counting are one step, so a burst of
        simultaneous attempts cannot all pass the check before any is counted."""
        now = time.monotonic()
        with self._lock:
            recent = [t for t in self._events.pop(key, []) if t > now - self.window]
            wait = recent[0] + self.window - now if len(recent) >= self.limit else 0.0
            if not wait:
                recent.append(now)
            if recent:
                self._events[key] = recent  # (re)inserted last: the most recent client
            while len(self._events) > self.max_keys:
                self._events.popitem(last=False)
            return wait

    def give_back(self, key: str) -> None:
        """Uncount ``key``'s latest attempt (it did not count after all)."""
        with self._lock:
            events = self._events.get(key)
            if events:
                events.pop()


class AccountsDoor:
    """The web's writable door to the accounts tables: pooled read-write connections, as
    :class:`~arena.web.store.ReadOnlyStore` pools read-only ones (opening one per request
    would cost its schema check every time).

    Opening it migrates an older league file to the accounts schema (as any writer does).

    :raises StorageError: if the file is missing or not an arena database.
    """

    def __init__(self, db_path: str | Path, config: AccountsConfig) -> None:
        self.path = Path(db_path)
        self.config = config
        self._pool = ConnectionPool(lambda: Database(self.path, create=False, pooled=True))
        self.sign_in_failures = RateLimiter(config.max_failed_sign_ins, config.window_seconds)
        self.registrations = RateLimiter(config.max_registrations, config.window_seconds)

    @contextmanager
    def connect(self) -> Iterator[Database]:
        """A read-write connection for one request (short transactions, each rolled back if it
        fails, so a connection goes back idle; WAL lets a tournament write meanwhile)."""
        with self._pool.borrow() as db:
            yield db

    def close(self) -> None:
        self._pool.close()


def _door(request: Request) -> AccountsDoor:
    door: AccountsDoor | None = request.app.state.accounts
    if door is None:
        raise HTTPException(404, "accounts are not enabled on this server")
    return door


def _client(request: Request) -> str:
    return request.client.host if request.client else "unknown"


def too_many(seconds: float, what: str) -> HTTPException:
    """The 429 for a limit hit (``what``: whose attempts, "uploads from your account"), with
    the whole seconds to wait in its text and its ``Retry-After``."""
    wait = max(1, int(seconds + 0.999))
    return HTTPException(429, f"too many {what}; try again in {wait} s", headers={"Retry-After": str(wait)})


# --- API: bearer tokens ------------------------------------------------------------------------
def bearer_user(request: Request) -> accounts.User:
    """The user whose token the request carries (for API routes; call it from a thread, as
    starlette runs plain ``def`` handlers).

    :raises HTTPException: 401 with ``WWW-Authenticate: Bearer`` if the token is missing,
        wrong, replaced or its user disabled (one message: which, is nobody's business).
    """
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "this needs a token: Authorization: Bearer <token>",
                            headers={"WWW-Authenticate": 'Bearer realm="arena"'})
    with _door(request).connect() as db:
        user = accounts.authenticate(db, token.strip())
    if user is None:
        raise HTTPException(401, "invalid token", headers={"WWW-Authenticate": 'Bearer realm="arena", '
                                                                                'error="invalid_token"'})
    return user


def request_user(request: Request) -> accounts.User | None:
    """Who asks, for routes that anyone may ask but some see more: the Bearer token's user if
    the request carries an ``Authorization`` header (a bad token is still a 401, not a stranger),
    else the signed-in session's, else ``None`` (also without ``--accounts``).  From a thread."""
    if request.app.state.accounts is None:
        return None
    if "authorization" in request.headers:
        return bearer_user(request)
    session = signed_in(request)
    return None if session is None else session.user


def me(request: Request) -> Response:
    """``/api/me``: who the token belongs to."""
    user = bearer_user(request)
    return JSONResponse({"name": user.name, "admin": user.admin})


# --- pages: sessions and CSRF ------------------------------------------------------------------
def signed_in(request: Request) -> accounts.Session | None:
    """The request's live session, if its cookie holds one (looked up once per request)."""
    if "session" not in request.scope.setdefault("state", {}):
        door: AccountsDoor | None = request.app.state.accounts
        cookie = request.cookies.get(SESSION_COOKIE, "")
        found = None
        if door is not None and cookie and len(cookie) <= _MAX_COOKIE:
            with door.connect() as db:
                found = accounts.session(db, cookie)
        request.state.session = found
    return request.state.session  # type: ignore[no-any-return]



def page_or_token_user(request: Request) -> accounts.User:
    """The signed-in person, else the user of the request's Bearer token: for the routes an
    author reads both in a browser and by script (a missing or bad token is the usual 401)."""
    session = signed_in(request)
    return session.user if session is not None else bearer_user(request)

def csrf_token(request: Request) -> str:
    """The token a form must send back: the session's, or before signing in the browser's
    :data:`CSRF_COOKIE` (a new one, which :func:`_with_csrf_cookie` sets, if it has none)."""
    session = signed_in(request)
    if session is not None:
        return session.csrf
    cookie = request.cookies.get(CSRF_COOKIE, "")
    if cookie and len(cookie) <= _MAX_COOKIE:
        return cookie
    if "new_csrf" not in request.scope["state"]:
        request.state.new_csrf = secrets.token_urlsafe(32)
    return request.state.new_csrf  # type: ignore[no-any-return]


def _with_csrf_cookie(request: Request, response: Response) -> Response:
    new = request.scope.get("state", {}).get("new_csrf")
    if new:
        response.set_cookie(CSRF_COOKIE, new, httponly=True, samesite="strict", path="/",
                            secure=request.url.scheme == "https")
    return response


async def read_form(request: Request) -> dict[str, str]:
    """The POSTed form's fields, once its CSRF token is checked.

    :raises HTTPException: 403 if the ``csrf`` field is missing or wrong; 400 if the form is
        too large.
    """
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise HTTPException(400, "the form is too large")
    fields = dict(urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True))
    expected = await run_in_threadpool(csrf_token, request)
    # A token made for this very request (no cookie yet): no form can carry it.
    check_csrf(fields.get(CSRF_FIELD, "").encode(), None if "new_csrf" in request.scope["state"] else expected)
    return fields


def check_csrf(sent: bytes, expected: str | None) -> None:
    """Refuse a form whose CSRF field is not ``expected`` (``None``: the client has no token
    yet, so nothing it sends matches), compared in constant time.

    :raises HTTPException: 403.
    """
    if expected is None or not sent or not hmac.compare_digest(sent, expected.encode()):
        raise HTTPException(403, "missing or wrong CSRF token: reload the page and send the form again")


def _page(request: Request, template: str, context: dict[str, Any], status: int = 200,
          headers: dict[str, str] | None = None) -> Response:
    context = {"csrf": csrf_token(request), **context}
    response = request.app.state.templates.TemplateResponse(request, template, context, status_code=status,
                                                            headers=headers)
    return _with_csrf_cookie(request, response)


MAX_NEXT = 2000
"""Characters of a ``next`` path kept; a longer one goes home."""


def same_site_path(value: str) -> str:
    """``value`` if it is a path on this site (``/matches?x=1``), else ``/``: never another
    site, so that a link to ``/sign-in?next=...`` cannot send a person elsewhere once signed
    in.  ``//evil.example``, ``/\\evil.example`` (browsers read both as another host),
    ``https://...`` and anything with a control character or a space are refused."""
    if (not value.startswith("/") or value.startswith("//") or "\\" in value or len(value) > MAX_NEXT
            or not value.isprintable() or " " in value):
        return "/"
    parts = urllib.parse.urlsplit(value)
    return value if not parts.scheme and not parts.netloc else "/"


def sign_in_redirect(request: Request) -> RedirectResponse:
    """To the sign-in form, which sends the person back to this page once signed in."""
    here = request.url.path + (f"?{request.url.query}" if request.url.query else "")
    return RedirectResponse(f"/sign-in?{urllib.parse.urlencode({'next': here})}", status_code=303)


def sign_in_form(request: Request) -> Response:
    """``GET /sign-in?next=PATH``: the form, which returns to ``PATH`` (this site's only)."""
    _door(request)
    return _page(request, "sign_in.html", {"error": "", "name": "",
                                           "next": same_site_path(request.query_params.get("next", "/"))})


async def sign_in(request: Request) -> Response:
    """``POST /sign-in``: name and token; a session cookie, or the form again with an error."""
    door = _door(request)
    client = _client(request)
    fields = await read_form(request)
    wait = door.sign_in_failures.take(client)  # counted as a failure unless it succeeds
    if wait > 0:
        raise too_many(wait, "failed sign-ins from your address")
    name, token = fields.get("name", "").strip(), fields.get("token", "").strip()
    target = same_site_path(fields.get("next", "/"))
    previous = request.cookies.get(SESSION_COOKIE, "")

    def check() -> tuple[str, accounts.Session] | None:
        with door.connect() as db:
            user = accounts.authenticate(db, token)
            if user is None or user.name.lower() != name.lower():
                return None
            if previous and len(previous) <= _MAX_COOKIE:
                accounts.end_session(db, previous)  # signing in again replaces the session
            return accounts.start_session(db, user)

    started = await run_in_threadpool(check)
    if started is None:
        return await run_in_threadpool(_page, request, "sign_in.html",
                                       {"error": "wrong name or token", "name": name, "next": target},
                                       401, {"WWW-Authenticate": 'Bearer realm="arena"'})
    # Only failures count, and a success uncounts itself alone: signing in to an account of
    # one's own must not reset the count of guesses at others'.
    door.sign_in_failures.give_back(client)
    session_id, session = started
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(SESSION_COOKIE, session_id, max_age=int(session.expires_at - time.time()), path="/",
                        httponly=True, samesite="lax", secure=request.url.scheme == "https")
    return response


async def sign_out(request: Request) -> Response:
    """``POST /sign-out``: the session ends here and in the database."""
    door = _door(request)
    await read_form(request)
    cookie = request.cookies.get(SESSION_COOKIE, "")

    def end() -> None:
        with door.connect() as db:
            accounts.end_session(db, cookie)

    if cookie and len(cookie) <= _MAX_COOKIE:
        await run_in_threadpool(end)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax",
                           secure=request.url.scheme == "https")
    return response


# --- open registration -------------------------------------------------------------------------
def register_form(request: Request) -> Response:
    """``GET /register`` (only with open registration)."""
    _door(request)
    return _page(request, "register.html", {"error": "", "name": ""})


async def register(request: Request) -> Response:
    """``POST /register``: a new (non-admin) user, whose token is shown on this page only."""
    door = _door(request)
    client = _client(request)
    fields = await read_form(request)
    wait = door.registrations.take(client)
    if wait > 0:
        raise too_many(wait, "registrations from your address")
    name = fields.get("name", "").strip()

    def add() -> tuple[accounts.User, str]:
        with door.connect() as db:
            return accounts.add_user(db, name)

    try:
        user, token = await run_in_threadpool(add)
    except accounts.AccountError as error:
        door.registrations.give_back(client)  # nothing was created
        return await run_in_threadpool(_page, request, "register.html", {"error": str(error), "name": name}, 400)
    return await run_in_threadpool(_page, request, "registered.html", {"user": user, "token": token}, 200,
                                   {"Cache-Control": "no-store"})


def routes(config: AccountsConfig) -> list[BaseRoute]:
    """The account routes (``/register`` only with open registration: otherwise a 404)."""
    found: list[BaseRoute] = [
        Route("/sign-in", sign_in_form, methods=["GET"]), Route("/sign-in", sign_in, methods=["POST"]),
        Route("/sign-out", sign_out, methods=["POST"]), Route("/api/me", me)]
    if config.open_registration:
        found += [Route("/register", register_form, methods=["GET"]), Route("/register", register, methods=["POST"])]
    return found


TEMPLATE_GLOBALS = {"signed_in": signed_in, "csrf_token": csrf_token}
"""For base.html's header: who is signed in, and the sign-out form's token."""
