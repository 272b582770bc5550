"""An author's own pages (``arena serve --accounts --uploads``): their submissions, each
one's build log, check output, validation results, the bot's output in each validation
match, and the replay of a validation match from its kept record.

* ``/submissions``: the signed-in author's submissions (an admin's: everyone's), and how each
  of their bots on a ladder fares against that ladder's reference bots ("bosses").
* ``/submissions/{id}``: one of them, with its log, its bot's output per validation match
  and a link to each kept validation record's replay, and to its SPRT runs.
* ``/submissions/{id}/validation/{seat}``: the replay viewer over that record, whose data is
  ``/api/submissions/{id}/validation/{seat}/replay`` (signed in, or by token).  A validation
  match is never stored in the league, so the viewer reads the record file itself.

Everything here is its author's or an admin's: anyone else gets a 404 for every route, as
for an id that does not exist (``/api/submissions/{id}`` does the same), so ids do not tell
what others submit.  The files under the data dir are read, never served as they are: the
uploaded bot's files lie elsewhere there and no route reaches them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from arena.league.storage import Database
from arena.runs import ladder_store
from arena.submission import accounts
from arena.submission.sprt_runs import run_of
from arena.submission.submissions import Submission, read_log, registered_bot, submissions
from arena.submission.web_auth import _page, page_or_token_user, sign_in_redirect, signed_in
from arena.submission.web_submit import _uploads, readable_submission
from arena.web.data import BadRequest, iso_time, is_whole_number
from arena.web.replay import parse_view, replay_steps
from referee.result import MatchRecord

_SEAT_FILE = re.compile(r"(\d+)-seat(\d+)\.(json|out)")


@dataclass(frozen=True)
class ValidationMatch:
    """What the worker kept of one validation match (``pipeline._validate``)."""

    seat: int
    """The seat the submitted bot played."""
    has_record: bool
    """Its record was kept (the match failed, or the bot faulted): it can be replayed."""
    output: str
    """The submitted bot's output (stdout and stderr, the last 64 KiB), or ``""``."""


def _data_dir(request: Request) -> Path:
    """The uploads' data dir (a 404 on a server without uploads, as every uploads route)."""
    return Path(_uploads(request)[0].config.data_dir)


def validation_matches(data_dir: Path, submission_id: int) -> list[ValidationMatch]:
    """The validation matches the worker kept files of, by seat."""
    seats: dict[int, set[str]] = {}
    logs = data_dir / "logs"
    for path in logs.glob(f"{submission_id}-seat*.*") if logs.is_dir() else ():
        matched = _SEAT_FILE.fullmatch(path.name)
        if matched and int(matched[1]) == submission_id:
            seats.setdefault(int(matched[2]), set()).add(matched[3])
    return [ValidationMatch(seat, "json" in kinds, (logs / f"{submission_id}-seat{seat}.out").read_text(
                encoding="utf-8", errors="replace") if "out" in kinds else "")
            for seat, kinds in sorted(seats.items())]


@dataclass(frozen=True)
class BossRow:
    """One of the author's ladder bots against one boss of that ladder."""

    ladder: str
    bot: str
    boss: str
    record: ladder_store.HeadToHead


def against_bosses(db: Database, found: list[Submission]) -> list[BossRow]:
    """Each submitted bot entered in a ladder (active or retired since) against each of that
    ladder's bosses, in their head-to-head matches: a boss never faces itself."""
    ladders = {t.name: t for t in ladder_store.ladders(db)}
    rows = []
    for s in found:
        ladder = ladders.get(s.ladder)
        bot_id = registered_bot(db, s.bot_name, s.version) if ladder and s.state in ("active", "retired") else None
        if ladder is None or bot_id is None:
            continue
        for boss in ladder_store.entrants(db, ladder.id):
            if boss.boss and boss.bot_id != bot_id:
                rows.append(BossRow(ladder.name, f"{s.bot_name}@{s.version}", boss.label,
                                    ladder_store.head_to_head(db, ladder.id, bot_id, boss.bot_id)))
    return rows


def listing_page(request: Request) -> Response:
    """``GET /submissions``."""
    _data_dir(request)
    session = signed_in(request)
    if session is None:
        return sign_in_redirect(request)
    with request.app.state.accounts.connect() as db:
        found = submissions(db, None if session.user.admin else session.user)
        bosses = against_bosses(db, found)
    return _page(request, "submissions.html", {"submissions": found, "when": iso_time, "bosses": bosses})


def detail_page(request: Request) -> Response:
    """``GET /submissions/{id}``."""
    data_dir = _data_dir(request)
    session = signed_in(request)
    if session is None:
        return sign_in_redirect(request)
    found, log_path = readable_submission(request, session.user)
    with request.app.state.accounts.connect() as db:
        run = run_of(db, found.id)
    return _page(request, "submission.html", {
        "s": found, "when": iso_time, "log": read_log(data_dir, log_path),
        "matches": validation_matches(data_dir, found.id), "sprt": run})


def _record(request: Request, user: accounts.User) -> tuple[Submission, int, MatchRecord]:
    """The kept record of validation match ``{seat}`` of a submission ``user`` may see; else a 404."""
    data_dir = _data_dir(request)
    found, _ = readable_submission(request, user)
    seat = request.path_params["seat"]
    path = data_dir / "logs" / f"{found.id}-seat{seat}.json"
    if not path.is_file():
        raise HTTPException(404, f"no kept record of submission {found.id}'s validation match in seat {seat}")
    return found, seat, MatchRecord.from_json(json.loads(path.read_text(encoding="utf-8")))


def replay_page(request: Request) -> Response:
    """``GET /submissions/{id}/validation/{seat}``: the replay viewer over a kept record."""
    session = signed_in(request)
    if session is None:
        _data_dir(request)
        return sign_in_redirect(request)
    found, seat, record = _record(request, session.user)
    return _page(request, "submission_replay.html", {"s": found, "seat": seat, "record": record})


def _whole_number(request: Request, name: str) -> int | None:
    text = request.query_params.get(name) or ""
    if text and not is_whole_number(text):
        raise BadRequest(f"{name} must be a whole number")
    return int(text) if text else None


def replay_json(request: Request) -> Response:
    """``GET /api/submissions/{id}/validation/{seat}/replay?view=&from=&count=``: as
    ``/api/matches/{id}/replay`` answers, from the kept record.  The submitted bot's fault
    details show to its author; the sample bots' to admins only (:mod:`arena.web.bot_output`)."""
    user = page_or_token_user(request)
    found, seat, record = _record(request, user)
    data: dict[str, Any] = replay_steps(record, parse_view(request.query_params.get("view"), record.num_players),
                                        start=_whole_number(request, "from") or 0,
                                        count=_whole_number(request, "count"),
                                        readable=None if user.admin else {seat})
    data.update(submission=found.id, status="done" if record.finished else "failed")
    return JSONResponse(data)


routes: list[BaseRoute] = [
    Route("/submissions", listing_page, methods=["GET"]),
    Route("/submissions/{submission_id:int}", detail_page, methods=["GET"]),
    Route("/submissions/{submission_id:int}/validation/{seat:int}", replay_page, methods=["GET"]),
    Route("/api/submissions/{submission_id:int}/validation/{seat:int}/replay", replay_json, methods=["GET"]),
]
