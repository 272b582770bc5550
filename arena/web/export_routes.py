"""Datasets for download: ``/games/{game}/{variant}/export.{jsonl|parquet}`` and
``/ladders/{tid}/export.{jsonl|parquet}`` (docs/web.md, "Datasets").

The same rows as ``arena export`` (:func:`arena.league.export.export`), under the same rules
as every other route: only matches whose deal is settled (:func:`arena.web.deals.shown_seeds`),
and with ``--hide-replays`` only the seats whose bots' words the reader may read
(:func:`arena.web.bot_output.readable_seats`): an admin every seat, an author their bots'
seats, anyone else nothing.  A download holds at most ``export_max_matches`` played matches
(``arena serve --export-max-matches``): a larger one is refused with the count and how to
narrow it (``?since=`` and ``?until=``, dates in UTC), since replaying records costs the
server CPU; for the same reason one download is prepared at a time (the request threads are
every page's), and another asked meanwhile is a 503 with ``Retry-After``.  The file is written to a temporary file first (memory stays flat) and then
streamed from disk, and removed once sent.
"""

from __future__ import annotations

import datetime
import os
import tempfile
import threading
from pathlib import Path

from starlette.background import BackgroundTask
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

from arena.league.export import FORMATS, ExportError, MatchFilter, export, played_matches
from arena.league.storage import Database, MatchRow, NotFoundError
from arena.runs.ladder_store import is_ladder
from arena.submission.web_auth import request_user
from arena.web.bot_output import readable_seats
from arena.web.data import BadRequest, NotFound
from arena.web.deals import shown_seeds
from arena.web.store import ReadOnlyStore
from referee.games import game_class, game_names

EXPORT_MAX_MATCHES = 200
"""Default cap on the played matches of one download (a Gin Rummy match is ~80 rows, and
replaying 200 records takes a few seconds of one core)."""
MEDIA_TYPES = {"jsonl": "application/x-ndjson", "parquet": "application/vnd.apache.parquet"}
RETRY_SECONDS = 10
"""What a download asked while another is prepared is told to wait (``Retry-After``)."""


def _moment(request: Request, name: str) -> float | None:
    text = request.query_params.get(name)
    if not text:
        return None
    try:
        moment = datetime.datetime.fromisoformat(text)
    except ValueError:
        raise BadRequest(f"{name} must be a date like 2026-11-28 or 2026-11-28T10:00 (UTC)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment.timestamp()


def _download(request: Request, where: MatchFilter, fmt: str, filename: str) -> Response:
    """Check the cap, export what ``request``'s reader may see, and stream the file."""
    if fmt not in FORMATS:
        raise NotFound(f"no format {fmt!r} (formats: {', '.join(FORMATS)})")
    where = MatchFilter(game=where.game, variant=where.variant, tournament_id=where.tournament_id,
                        since=_moment(request, "since"), until=_moment(request, "until"))
    store: ReadOnlyStore = request.app.state.store
    cap: int = request.app.state.export_max_matches
    user = request_user(request)
    hidden: bool = request.app.state.hide_replays
    exporting: threading.Lock = request.app.state.exporting
    fd, name = tempfile.mkstemp(prefix="arena-export-", suffix=f".{fmt}")
    os.close(fd)
    target = Path(name)
    if not exporting.acquire(blocking=False):
        target.unlink()
        raise HTTPException(503, f"another download is being prepared: try again in {RETRY_SECONDS} seconds",
                            headers={"Retry-After": str(RETRY_SECONDS)})
    try:
        with store.connect() as db:
            count = _count(db, where, cap)  # under the request's time limit
            if count > cap:
                raise BadRequest(f"this download would hold {count:,} matches{' or more' * (count == cap + 1)}, "
                                 f"over this server's limit of {cap:,}: narrow it with ?since= and ?until= (dates, "
                                 f"UTC), or ask the organiser for `arena export`")

            def seats_for(match: MatchRow) -> frozenset[int] | None:
                return readable_seats(db, user, match.bot_ids) if hidden else None

            with db.time_limit(None):  # the cap bounds the work, not the request's query time
                export(db, where, target, fmt, shown=lambda batch: shown_seeds(db, batch).keys(), seats_for=seats_for)
    except ExportError as error:
        target.unlink(missing_ok=True)
        raise BadRequest(str(error)) from None
    except BaseException:
        target.unlink(missing_ok=True)
        raise
    finally:
        exporting.release()
    return FileResponse(target, media_type=MEDIA_TYPES[fmt], filename=filename,
                        background=BackgroundTask(target.unlink, missing_ok=True))


def _count(db: Database, where: MatchFilter, cap: int) -> int:
    """Played matches ``where`` admits, dates included, counted up to ``cap + 1`` (under the
    request's query time limit: a window that takes too long to find is a 503)."""
    if where.since is None and where.until is None:
        return db.count_matches(game=where.game, variant=where.variant, tournament_id=where.tournament_id,
                                status="done", cap=cap)
    found = 0
    for batch in played_matches(db, where):
        found += len(batch)
        if found > cap:
            return cap + 1
    return found


def game_export(request: Request) -> Response:
    """A game's (and variant's) decisions."""
    game, variant = request.path_params["game"], request.path_params["variant"]
    if game not in game_names() or variant not in game_class(game).variants:
        raise NotFound(f"no game {game} {variant}")
    fmt = request.path_params["fmt"]
    return _download(request, MatchFilter(game=game, variant=variant), fmt, f"arena-{game}-{variant}.{fmt}")


def ladder_export(request: Request) -> Response:
    """A ladder's decisions."""
    tid: int = request.path_params["tid"]
    store: ReadOnlyStore = request.app.state.store
    with store.connect() as db:
        try:
            tournament = db.tournament(tid)
        except NotFoundError:
            tournament = None
    if tournament is None or not is_ladder(tournament):
        raise NotFound(f"no ladder {tid}")
    fmt = request.path_params["fmt"]
    return _download(request, MatchFilter(tournament_id=tid), fmt, f"arena-ladder-{tid}.{fmt}")


routes = [Route("/games/{game}/{variant}/export.{fmt}", game_export, name="game_export"),
          Route("/ladders/{tid:int}/export.{fmt}", ladder_export, name="ladder_export")]
