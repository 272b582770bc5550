"""The Play area's pages and JSON (mounted by :func:`arena.web.app.create_app` with ``play=``).

A visitor is a random id in a signed, HttpOnly, SameSite=Lax cookie; every POST carries a
CSRF token derived from that id (a form field, or the ``X-CSRF-Token`` header), so another
site can neither start matches nor move for a visitor.  Matches are reached by an
unguessable token and only by the visitor who opened them.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
import secrets
import urllib.parse
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from arena.league.storage import Database, NotFoundError
from arena.submission.web_auth import request_user
from arena.web.bot_output import check_visible
from arena.web import data
from arena.web.charts import match_luck_chart
from arena.web.data import BadRequest, NotFound, is_whole_number
from arena.web.deals import shown_seeds
from arena.web.play import PLAY_FORMAT, LimitReached, PlayManager, opponents, parse_choice
from arena.web.replay import match_replay
from referee.games import game_class, game_names

COOKIE = "arena_visitor"
MAX_SEATS = 8
LONG_POLL_SECONDS = 3.0
"""Short enough that an open long poll hardly delays the server's shutdown."""
MAX_FORM_BYTES = 16_384
"""The Play form is small; starlette's own form parsing would need python-multipart."""


def _sign(secret: bytes, text: str) -> str:
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()


def visitor(request: Request) -> tuple[str, bool]:
    """The visitor's id from the signed cookie, or a new one: ``(id, is_new)``."""
    secret: bytes = request.app.state.play_secret
    value = request.cookies.get(COOKIE, "")
    ident, _, signature = value.partition(".")
    if ident and hmac.compare_digest(signature, _sign(secret, "visitor:" + ident)):
        return ident, False
    return secrets.token_urlsafe(16), True


def _remember(response: Response, request: Request, ident: str, new: bool) -> Response:
    if new:
        response.set_cookie(COOKIE, f"{ident}.{_sign(request.app.state.play_secret, 'visitor:' + ident)}",
                            httponly=True, samesite="lax", path="/")
    return response


def csrf_token(request: Request, ident: str) -> str:
    return _sign(request.app.state.play_secret, "csrf:" + ident)


def _check_csrf(request: Request, ident: str, sent: str | None) -> None:
    if not sent or not hmac.compare_digest(sent, csrf_token(request, ident)):
        raise BadRequest("missing or wrong CSRF token (reload the page)")


def _manager(request: Request) -> PlayManager:
    return request.app.state.play  # type: ignore[no-any-return]


def play_form(request: Request) -> Response:
    """``/play?game=``: choose a game, variant, settings, opponents and your seat."""
    ident, new = visitor(request)
    game = request.query_params.get("game") or game_names()[0]
    if game not in game_names():
        raise BadRequest(f"unknown game {game!r}")
    return _remember(_form_page(request, ident, game), request, ident, new)


def _form_page(request: Request, ident: str, game: str, chosen: dict[str, Any] | None = None,
               error: str | None = None) -> Response:
    """The Play form for ``game``; after a refused choice, with its message and the person's
    own choices filled in again (``chosen``: variant, settings, opponents, seat), as a 400."""
    manager = _manager(request)
    cls = game_class(game)
    seats = min(MAX_SEATS, cls.max_players)
    default = [""] * (seats - 1)
    offered = opponents(manager.config, game)
    for slot in range(max(1, cls.default_players - 1)):
        default[slot] = offered[0].key if offered else ""
    chosen = chosen or {"variant": cls.variants[0], "settings": "", "opponents": default, "seat": "0"}
    picked = (list(chosen["opponents"]) + [""] * seats)[:seats - 1]
    context = {"games": game_names(), "game": game, "variants": cls.variants, "seats": range(seats),
               "min_players": cls.min_players, "opponent_slots": range(seats - 1), "picked": picked,
               "chosen": chosen, "error": error, "opponents": offered, "csrf": csrf_token(request, ident),
               "under_way": manager.open_sessions(ident), "move_timeout": manager.config.move_timeout,
               "time_bank": manager.config.time_control.time_bank, "absent_timeout": manager.config.absent_timeout,
               "settings": cls.settings_spec}
    return request.app.state.templates.TemplateResponse(request, "play.html", context,
                                                        status_code=400 if error else 200)


async def play_start(request: Request) -> Response:
    """``POST /play``: check the choice, open the match, go to its table; a choice that cannot
    be played gets the form back with the message and the person's choices."""
    ident, new = visitor(request)
    body = await request.body()
    if len(body) > MAX_FORM_BYTES:
        raise BadRequest("the form is too large")
    pairs = urllib.parse.parse_qsl(body.decode("utf-8", "replace"), keep_blank_values=True)
    fields = {key: value for key, value in pairs if key != "opponent"}
    keys = [value for key, value in pairs if key == "opponent"]
    _check_csrf(request, ident, fields.get("csrf"))
    try:
        choice = parse_choice(_manager(request).config, fields, keys)
    except BadRequest as error:
        game = fields.get("game", "")
        if game not in game_names():
            raise
        chosen = {"variant": fields.get("variant", ""), "settings": fields.get("settings", ""), "opponents": keys,
                  "seat": fields.get("seat", "0")}
        return _remember(_form_page(request, ident, game, chosen, str(error)), request, ident, new)
    account = await asyncio.to_thread(_account, request)
    return _to_the_table(request, ident, new, lambda: _manager(request).open(ident, choice, account))


def _account(request: Request) -> str:
    """The signed-in account's name (``--accounts``), else empty: an invitation is refused to
    its opener's account as well as to the opener's cookie."""
    user = request_user(request)
    return "" if user is None else user.name


def _to_the_table(request: Request, ident: str, new: bool, take: Callable[[], Any]) -> Response:
    """Take a seat (``take`` opens a match or joins one) and go to it, or a 429 page saying
    which limit stands in the way."""
    try:
        session = take()
    except LimitReached as error:
        response = request.app.state.templates.TemplateResponse(
            request, "error.html", {"status": 429, "message": str(error)}, status_code=429)
        return _remember(response, request, ident, new)
    return _remember(RedirectResponse(f"/play/{session.token}", status_code=303), request, ident, new)


def play_table(request: Request) -> Response:
    """``/play/{token}``: the person's seat; play.js draws it from the API."""
    ident, _ = visitor(request)
    session = _manager(request).session(request.path_params["token"], ident)
    if session is None:
        raise NotFound("no such match of yours")
    context = {"s": session, "csrf": csrf_token(request, ident)}
    return request.app.state.templates.TemplateResponse(request, "play_table.html", context)


async def play_state(request: Request) -> Response:
    """``/api/play/{token}?after=VERSION``: the seat's view, waiting up to 3 s for a newer one."""
    ident, _ = visitor(request)
    session = _manager(request).session(request.path_params["token"], ident)
    if session is None:
        raise NotFound("no such match of yours")
    after = request.query_params.get("after", "")
    if after and not is_whole_number(after):
        raise BadRequest("after must be a whole number")
    session.seen()  # the page is open: its seat does not leave (PlaySession.absent)
    if after:  # (not seen again at the end: a poll that outlives its closing page is no sign of it)
        waited = 0.0
        while session.stamp <= int(after) and session.open and waited < LONG_POLL_SECONDS:
            await asyncio.sleep(0.05)
            waited += 0.05
    return JSONResponse(session.snapshot())


async def play_move(request: Request) -> Response:
    """``POST /api/play/{token}/move`` with ``{"number": N, "index": I}``: the person's choice."""
    ident, _ = visitor(request)
    _check_csrf(request, ident, request.headers.get("x-csrf-token"))
    session = _manager(request).session(request.path_params["token"], ident)
    if session is None or session.seat is None:
        raise NotFound("no such match of yours")
    try:
        body = json.loads(await request.body())
        number, index = body["number"], body["index"]
    except (ValueError, KeyError, TypeError):
        raise BadRequest('send {"number": decision number, "index": action index}') from None
    if type(number) is not int or type(index) is not int:
        raise BadRequest("number and index must be whole numbers")
    session.seen()
    problem = session.seat.answer(number, index)
    if problem is not None:
        return JSONResponse({"error": problem}, status_code=409)
    return JSONResponse({"ok": True})


async def play_leave(request: Request) -> Response:
    """``POST /api/play/{token}/leave``: the person stops answering, so the referee faults the
    seat at once until it forfeits (its ordinary fault logic) and the match plays out."""
    ident, _ = visitor(request)
    _check_csrf(request, ident, request.headers.get("x-csrf-token"))
    session = _manager(request).session(request.path_params["token"], ident)
    if session is None or session.seat is None:
        raise NotFound("no such match of yours")
    await asyncio.to_thread(session.seat.close)
    return JSONResponse({"ok": True})


async def play_closing(request: Request) -> Response:
    """``POST /api/play/{token}/closing`` (the page's ``sendBeacon`` on ``pagehide``, with the
    CSRF token as a form field): the tab is closing or reloading; unless a page asks again
    within :data:`~arena.web.play.GONE_GRACE` seconds, the seat leaves as Leave does (once a
    decision of its is open)."""
    ident, _ = visitor(request)
    body = await request.body()
    fields = dict(urllib.parse.parse_qsl(body[:MAX_FORM_BYTES].decode("utf-8", "replace")))
    _check_csrf(request, ident, fields.get("csrf"))
    session = _manager(request).session(request.path_params["token"], ident)
    if session is None:
        raise NotFound("no such match of yours")
    session.seen(closing=True)
    return JSONResponse({"ok": True})


def play_join_page(request: Request) -> Response:
    """``/play/join/{invite}``: the invited seat, to take with a click (a POST, so that no other
    site can seat a visitor by linking here)."""
    ident, new = visitor(request)
    context = {"invite": request.path_params["invite"], "csrf": csrf_token(request, ident)}
    response = request.app.state.templates.TemplateResponse(request, "play_join.html", context)
    return _remember(response, request, ident, new)


async def play_join(request: Request) -> Response:
    """``POST /play/join/{invite}``: take the invited seat, then go to it."""
    ident, new = visitor(request)
    body = await request.body()
    fields = dict(urllib.parse.parse_qsl(body[:MAX_FORM_BYTES].decode("utf-8", "replace")))
    _check_csrf(request, ident, fields.get("csrf"))
    account = await asyncio.to_thread(_account, request)
    return _to_the_table(request, ident, new,
                         lambda: _manager(request).join(request.path_params["invite"], ident, account))


def _play_db(request: Request) -> Database:
    return Database(_manager(request).config.db_path, readonly=True)


def _readable(request: Request) -> frozenset[int] | None:
    """The seats whose bots' words the reader may read at Play, where the organiser's bots
    play: all for an admin, none for anyone else (:mod:`arena.web.bot_output`); who may see a
    record that ``--hide-replays`` hides follows (admins)."""
    user = request_user(request)
    return None if user is not None and user.admin else frozenset()


def played_list(request: Request) -> Response:
    """``/play/matches``: every stored match with a person, newest first."""
    with _play_db(request) as db:
        rows = [t for t in db.tournaments() if t.format == PLAY_FORMAT]
        matches = [m for t in rows for m in db.matches(tournament_id=t.id)]
        labels = {bot.id: bot.label for bot in db.bots()}
    matches.sort(key=lambda m: m.id, reverse=True)
    items = [{"id": m.id, "game": m.game, "variant": m.variant, "status": m.status,
              "players": [labels.get(b, str(b)) for b in m.bot_ids], "ranking": m.ranking} for m in matches]
    return request.app.state.templates.TemplateResponse(request, "play_matches.html", {"matches": items})


def played_match(request: Request) -> Response:
    """``/play/matches/{id}``: a stored match with a person, in the replay viewer."""
    match_id = request.path_params["match_id"]
    with _play_db(request) as db:
        try:
            match = db.match(match_id)
        except NotFoundError:
            raise NotFound(f"no match {match_id} with a person") from None
        check_visible(request, match_id, _readable(request))
        labels = {bot.id: bot.label for bot in db.bots()}
        seed = shown_seeds(db, [match]).get(match.id)
        info = data.match(db, match_id, _readable(request))  # its luck: none while the match is played
    players = [labels.get(b, str(b)) for b in match.bot_ids]
    return request.app.state.templates.TemplateResponse(
        request, "play_match.html", {"m": match, "seed": seed, "players": players, "info": info,
                                     "luck_chart": match_luck_chart(info)})


def played_replay(request: Request) -> Response:
    """``/api/play/matches/{id}/replay``: as ``/api/matches/{id}/replay``, over the play database."""
    start = request.query_params.get("from", "0")
    count = request.query_params.get("count", "")
    if not is_whole_number(start) or (count and not is_whole_number(count)):
        raise BadRequest("from and count must be whole numbers")
    match_id = request.path_params["match_id"]
    readable = _readable(request)
    check_visible(request, match_id, readable)
    with _play_db(request) as db:
        replayed = match_replay(db, match_id, request.query_params.get("view"),
                                start=int(start), count=int(count) if count else None, readable=readable)
    return JSONResponse(replayed)


routes = [Route("/play", play_form, methods=["GET"]), Route("/play", play_start, methods=["POST"]),
          Route("/play/matches", played_list), Route("/play/matches/{match_id:int}", played_match),
          Route("/play/join/{invite}", play_join_page, methods=["GET"]),
          Route("/play/join/{invite}", play_join, methods=["POST"]),
          Route("/play/{token}", play_table),
          Route("/api/play/matches/{match_id:int}/replay", played_replay),
          Route("/api/play/{token}", play_state), Route("/api/play/{token}/move", play_move, methods=["POST"]),
          Route("/api/play/{token}/leave", play_leave, methods=["POST"]),
          Route("/api/play/{token}/closing", play_closing, methods=["POST"])]
