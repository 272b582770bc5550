"""Each new version's SPRT run (:mod:`arena.submission.sprt_runs`) as its author sees it, on a
server with uploads (``arena serve --accounts --uploads``):

* ``GET /api/submissions/{id}/sprt``: the run that tests submission ``id`` against the
  author's previous version: its bounds, LLR and LLR history, pairs, pentanomial counts, Elo
  estimate and verdict, as JSON (signed in, or by token);
* ``/submissions/{id}/sprt``: the same as a page, the LLR drawn over the pairs between the two
  bounds (:func:`arena.web.charts.llr_svg`); while the run is open, ``sprt.js`` polls the API
  and reloads the page when a batch has been stored, so the chart is drawn in one place.

Only the author and an admin see a run: anyone else gets a 404, as for a submission that
does not exist (the submissions API's rule, :mod:`arena.submission.web_submit`).
"""

from __future__ import annotations

from typing import Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from arena.submission import accounts
from arena.submission.sprt_runs import run_json, run_of
from arena.submission.web_auth import _page, page_or_token_user, sign_in_redirect, signed_in
from arena.submission.web_submit import _uploads, readable_submission
from arena.web.charts import llr_svg
from arena.web.data import iso_time


def _run_for(request: Request, user: accounts.User) -> dict[str, Any]:
    """The run of the path's submission as :func:`run_json` gives it, its times in ISO 8601 UTC.

    :raises HTTPException: 404 if ``user`` may not see the submission, or it has no run."""
    _, door = _uploads(request)
    sid = readable_submission(request, user)[0].id
    with door.connect() as db:
        found = run_of(db, sid)
        if found is None:
            raise HTTPException(404, f"submission {sid} has no SPRT run: it is not active yet, or it is the first "
                                     "version of its bot on its ladder")
        run = run_json(db, found)
    return {**run, **{key: iso_time(run[key]) for key in ("created_at", "changed_at", "finished_at")}}


def sprt_json(request: Request) -> Response:
    """``GET /api/submissions/{id}/sprt``: for its author (signed in, or by token) or an admin."""
    _uploads(request)
    return JSONResponse(_run_for(request, page_or_token_user(request)))


def sprt_page(request: Request) -> Response:
    """``GET /submissions/{id}/sprt``: the chart and the verdict (sign in first)."""
    _uploads(request)
    session = signed_in(request)
    if session is None:
        return sign_in_redirect(request)
    run = _run_for(request, session.user)
    title = f"LLR of {run['new']['bot']} against {run['old']['bot']}"
    chart = llr_svg([(p["pairs"], p["llr"]) for p in run["history"]], run["lower"], run["upper"], title)
    return _page(request, "sprt.html", {"r": run, "chart": chart})


routes: list[BaseRoute] = [
    Route("/api/submissions/{submission_id:int}/sprt", sprt_json, methods=["GET"]),
    Route("/submissions/{submission_id:int}/sprt", sprt_page, methods=["GET"]),
]
