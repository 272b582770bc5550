"""Uploads on the web (``arena serve --accounts --uploads``): the submissions API and the
``/submit`` form.

* ``POST /api/submissions`` (Bearer token): the body is the archive; ``?ladder=NAME`` names
  the ladder it is for.  201 with the submission, 200 if the same content was submitted
  before, 400 for a refused archive, 409 for a bot name another author owns, 413 for a body
  over the size limit, 429 past the author's upload limit.
* ``GET /api/submissions``: the caller's submissions (an admin's: everyone's);
  ``GET /api/submissions/{id}``: one of them.  Another author's is a 404, exactly as an id
  that does not exist, so ids do not tell what others submit.
* ``/submit``: for a signed-in person, the upload form (tar.gz or zip, multipart, with the
  session's CSRF token) and their submissions with their states.

The body is read in chunks and cut off as soon as it passes the limit (a ``Content-Length``
over it is refused before reading anything), so a huge upload costs the server only the
limit.  Two limits per author (:func:`_counted`): new submissions (``--max-uploads-per-hour``,
what costs the worker a build and validation), and refused or repeated uploads
(``--max-refused-uploads-per-hour``, larger: a mistake costs an author little, while each
attempt still costs the server an unpacking, so a flood stays bounded).
"""

from __future__ import annotations

import email.parser
import email.policy
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from arena.league.queries import iso_time
from arena.submission import accounts
from arena.submission.archive import MIB, ArchiveError, ArchiveLimits
from arena.submission.submissions import (NameOwnedError, Submission, SubmissionError, read_log, receive,
                                          submission, submissions)
from arena.submission.web_auth import (CSRF_FIELD, AccountsDoor, RateLimiter, _page, bearer_user, check_csrf,
                                       page_or_token_user, sign_in_redirect, signed_in, too_many)

FORM_ALLOWANCE = 64 * 1024
"""Bytes a multipart form may add to the archive (its boundaries, headers and fields)."""


@dataclass(frozen=True)
class UploadsConfig:
    """What ``arena serve --uploads`` accepts."""

    data_dir: Path
    """Where uploads are stored (``bots/<author>/<name>/<hash>/``); never served."""
    limits: ArchiveLimits = ArchiveLimits()
    """The archive limits; ``max_archive_bytes`` is also the request body's."""
    max_uploads: int = 10
    """New submissions one author may make in :attr:`window_seconds` (then 429)."""
    max_refused: int = 30
    """Refused and repeated (same files) uploads one author may make in :attr:`window_seconds`
    (then 429 for every upload)."""
    window_seconds: float = 3600.0


class Uploads:
    """The server's uploads: its configuration and each author's recent attempts."""

    def __init__(self, config: UploadsConfig) -> None:
        self.config = config
        self.limiter = RateLimiter(config.max_uploads, config.window_seconds)
        self.refused = RateLimiter(config.max_refused, config.window_seconds)


def _uploads(request: Request) -> tuple[Uploads, AccountsDoor]:
    uploads: Uploads | None = request.app.state.uploads
    if uploads is None or request.app.state.accounts is None:
        raise HTTPException(404, "uploads are not enabled on this server")
    return uploads, request.app.state.accounts


def readable_submission(request: Request, user: accounts.User) -> tuple[Submission, str]:
    """The path's submission ``{submission_id}`` and its log path, if ``user`` may read it (its
    author, or an admin).

    :raises HTTPException: 404 without uploads, and for anyone else, as for an id that does not
        exist (a 403 would tell that the id is taken).
    """
    _, door = _uploads(request)
    sid = request.path_params["submission_id"]
    with door.connect() as db:
        found = submission(db, sid, user)
        row = db.conn.execute("SELECT log_path FROM submissions WHERE id = ?", (sid,)).fetchone()
    if found is None:
        raise HTTPException(404, "no such submission")
    return found, str(row[0])


async def _read_body(request: Request, limit: int) -> bytes:
    """The request body, refused (413) as soon as it is known to pass ``limit`` bytes."""
    too_large = HTTPException(413, f"the upload is larger than this server's limit of {limit:,} bytes "
                                   f"({limit / MIB:.0f} MiB)")
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


@contextmanager
def _counted(uploads: Uploads, user: accounts.User) -> Iterator[list[bool]]:
    """Count an upload of ``user`` against one of the two limits, or refuse it (429) when
    either is reached.  The caller appends ``True`` to the list it is given for a new
    submission; anything else (a refusal, the same files again, an error) counts as refused.

    Both limits are taken at once, before the upload is read (a burst of simultaneous uploads
    cannot all pass the check before any is counted), and the one the outcome does not use
    is given back."""
    key, hours = str(user.id), uploads.config.window_seconds / 3600
    wait = uploads.refused.take(key)
    if wait > 0:
        raise too_many(wait, f"refused or repeated uploads from your account (limit {uploads.config.max_refused} "
                             f"per {hours:g} h)")
    wait = uploads.limiter.take(key)
    if wait > 0:
        raise too_many(wait, f"uploads from your account (limit {uploads.config.max_uploads} new submissions "
                             f"per {hours:g} h)")
    accepted: list[bool] = []
    try:
        yield accepted
    finally:
        (uploads.refused if accepted else uploads.limiter).give_back(key)


def _store(uploads: Uploads, door: AccountsDoor, user: accounts.User, data: bytes,
           ladder: str) -> tuple[Submission, bool]:
    with door.connect() as db:
        return receive(db, uploads.config.data_dir, user, data, ladder=ladder, limits=uploads.config.limits)


async def upload(request: Request) -> Response:
    """``POST /api/submissions``."""
    uploads, door = _uploads(request)
    user = await run_in_threadpool(bearer_user, request)
    with _counted(uploads, user) as accepted:
        data = await _read_body(request, uploads.config.limits.max_archive_bytes)
        try:
            found, new = await run_in_threadpool(_store, uploads, door, user, data,
                                                 request.query_params.get("ladder", ""))
        except NameOwnedError as error:
            raise HTTPException(409, str(error)) from None
        except (ArchiveError, SubmissionError) as error:
            raise HTTPException(400, str(error)) from None
        if new:
            accepted.append(True)
    return JSONResponse({**submission_json(found), "new": new}, status_code=201 if new else 200)


def submission_json(found: Submission) -> dict[str, Any]:
    """A submission as the API gives it: its times in ISO 8601 UTC, as the rest of the API's."""
    return {**found.as_json(), "created_at": iso_time(found.created_at), "changed_at": iso_time(found.changed_at)}


def listing(request: Request) -> Response:
    """``GET /api/submissions``."""
    _, door = _uploads(request)
    user = bearer_user(request)
    with door.connect() as db:
        found = submissions(db, None if user.admin else user)
    return JSONResponse({"submissions": [submission_json(s) for s in found]})


def one(request: Request) -> Response:
    """``GET /api/submissions/{id}``: 404 for another author's, as for a missing one."""
    _, door = _uploads(request)
    user = bearer_user(request)
    with door.connect() as db:
        found = submission(db, request.path_params["submission_id"], user)
    if found is None:
        raise HTTPException(404, "no such submission")
    return JSONResponse(submission_json(found))


def log(request: Request) -> Response:
    """``GET /api/submissions/{id}/log``: the build log, the check's report and the validation
    matches (:mod:`arena.submission.pipeline`), as plain text (never rendered as HTML) for its
    author (signed in, or by token) or an admin; 404 for anyone else, as for a missing id."""
    uploads, _ = _uploads(request)
    found, log_path = readable_submission(request, page_or_token_user(request))
    text = read_log(uploads.config.data_dir, log_path) or "(no log yet: the submission waits for the worker)\n"
    head = f"submission {found.id}: {found.bot_name} {found.version}, state {found.state}: {found.message}\n\n"
    return PlainTextResponse(head + text, headers={"X-Content-Type-Options": "nosniff"})


def _form_page(request: Request, session: accounts.Session, message: str = "", error: str = "",
               status: int = 200, ladder: str | None = None) -> Response:
    """The form, with the server's ladders to choose from (``ladder`` chosen; ``None``: the
    first) and the person's submissions."""
    from arena.runs.ladder_store import ladders

    _, door = _uploads(request)
    with door.connect() as db:
        mine = submissions(db, session.user)
        offered = sorted(ladders(db), key=lambda t: t.name.lower())
    return _page(request, "submit.html", {"submissions": mine, "message": message, "error": error,
                                          "ladders": offered, "chosen": ladder,
                                          "limit_mib": request.app.state.uploads.config.limits.max_archive_bytes / MIB},
                 status)


def submit_form(request: Request) -> Response:
    """``GET /submit``: the form and the person's submissions (sign in first)."""
    _uploads(request)
    session = signed_in(request)
    if session is None:
        return sign_in_redirect(request)
    return _form_page(request, session)


def _multipart(body: bytes, content_type: str) -> dict[str, bytes]:
    """A multipart/form-data body's fields by name (the file field's bytes as they are); none
    for any other body (then the CSRF check refuses it).  Parsed with the standard library's
    MIME parser: starlette's own form parsing would need python-multipart."""
    fields: dict[str, bytes] = {}
    if not content_type.lower().startswith("multipart/form-data"):
        return fields
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode("latin-1", "replace") + b"\r\n\r\n" + body)
    if not message.is_multipart():
        return fields
    for part in message.iter_parts():
        name = part.get_param("name", header="content-disposition")
        if isinstance(name, str) and name not in fields:
            payload = part.get_payload(decode=True)
            fields[name] = payload if isinstance(payload, bytes) else b""
    return fields


async def submit(request: Request) -> Response:
    """``POST /submit``: the form's archive, as ``POST /api/submissions`` takes it."""
    uploads, door = _uploads(request)
    session = await run_in_threadpool(signed_in, request)
    if session is None:
        raise HTTPException(403, "sign in to upload a bot")
    body = await _read_body(request, uploads.config.limits.max_archive_bytes + FORM_ALLOWANCE)
    fields = await run_in_threadpool(_multipart, body, request.headers.get("content-type", ""))
    check_csrf(fields.get(CSRF_FIELD, b""), session.csrf)
    with _counted(uploads, session.user) as accepted:
        data = fields.get("archive", b"")
        if not data:
            return await run_in_threadpool(_form_page, request, session, "", "choose a tar.gz or zip file to upload",
                                           400)
        if len(data) > uploads.config.limits.max_archive_bytes:
            raise HTTPException(413, "the upload is larger than this server's limit")
        ladder = fields.get("ladder", b"").decode("utf-8", "replace").strip()
        try:
            found, new = await run_in_threadpool(_store, uploads, door, session.user, data, ladder)
        except (ArchiveError, SubmissionError) as error:
            status = 409 if isinstance(error, NameOwnedError) else 400
            return await run_in_threadpool(_form_page, request, session, "", str(error), status, ladder)
        if new:
            accepted.append(True)
    said = (f"received {found.bot_name} {found.version} as submission {found.id}" if new else
            f"{found.bot_name} with this content is submission {found.id} already"
            + (f": {found.message}" if found.message else ""))
    return await run_in_threadpool(_form_page, request, session, said)


routes: list[BaseRoute] = [
    Route("/api/submissions", upload, methods=["POST"]),
    Route("/api/submissions", listing, methods=["GET"]),
    Route("/api/submissions/{submission_id:int}", one, methods=["GET"]),
    Route("/api/submissions/{submission_id:int}/log", log, methods=["GET"]),
    Route("/submit", submit_form, methods=["GET"]),
    Route("/submit", submit, methods=["POST"]),
]
