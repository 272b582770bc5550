"""The HTML pages: games and their leaderboards, bots, head-to-head, tournaments, ladders,
matches and the replay viewer.  Every template autoescapes; bot-supplied text is never marked safe."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from arena.league.storage import Database
from arena.submission.web_auth import request_user
from arena.web import data, ladder_admin, ladders as ladder_data
from arena.web.bot_output import check_visible, match_readable
from arena.web.charts import match_luck_chart, rating_history_svg
from arena.web.store import ReadOnlyStore


def _render(request: Request, name: str, context: dict[str, Any]) -> Response:
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(request, name, context)


def _store(request: Request) -> ReadOnlyStore:
    store: ReadOnlyStore = request.app.state.store
    return store


def index(request: Request) -> Response:
    store = _store(request)
    with store.connect() as db:
        games = data.games(db)
        tables = [(g, data.ratings(store, db, g["game"], g["variant"])) for g in games if g["variant"]]
        unplayed = [g["game"] for g in games if not g["variant"]]
        tournaments = data.tournaments(db)[:5]
        ladders = ladder_data.ladders(db)
    return _render(request, "index.html", {"tables": tables, "unplayed": unplayed, "tournaments": tournaments,
                                           "ladders": ladders})


def game(request: Request) -> Response:
    store = _store(request)
    name, variant = request.path_params["game"], request.path_params["variant"]
    with store.connect() as db:
        rows = data.ratings(store, db, name, variant)
    if not rows:
        raise data.NotFound(f"no played {name} ({variant}) matches")
    return _render(request, "game.html", {"game": name, "variant": variant, "rows": rows})


def h2h(request: Request) -> Response:
    """The matrix's HTML (40 bots: 1,600 cells, about 20 ms to draw) is drawn once per game and
    variant and cached until a match of it is played, as its data is."""
    store = _store(request)
    name, variant = request.path_params["game"], request.path_params["variant"]
    with store.connect() as db:
        matrix = store.per_table(db, name, variant, "h2h.html", lambda: _h2h_matrix(request, store, db, name, variant))
    return _render(request, "h2h.html", {"game": name, "variant": variant, "matrix": matrix})


def _h2h_matrix(request: Request, store: ReadOnlyStore, db: Database, name: str, variant: str) -> Markup:
    """The head-to-head table, rendered by its (autoescaping) template.

    :raises data.NotFound: for an unknown game or variant, or one without a played match.
    """
    matrix = data.head_to_head(store, db, name, variant)
    if not matrix["bots"]:
        raise data.NotFound(f"no played {name} ({variant}) matches")
    cells = {(c["bot"], c["opponent"]): c for c in matrix["cells"]}
    templates: Jinja2Templates = request.app.state.templates
    return Markup(templates.get_template("h2h_matrix.html").render(bots=matrix["bots"], cells=cells))


def bot(request: Request) -> Response:
    store = _store(request)
    with store.connect() as db:
        info = data.bot(store, db, request.path_params["bot_id"])
    for entry in info["games"]:
        entry["chart"] = rating_history_svg(entry["history"], f"{entry['game']} ({entry['variant']}): "
                                                              f"{info['bot']['label']}", start=entry["start"])
    return _render(request, "bot.html", info)


def tournaments(request: Request) -> Response:
    with _store(request).connect() as db:
        return _render(request, "tournaments.html", {"tournaments": data.tournaments(db)})


def tournament(request: Request) -> Response:
    with _store(request).connect() as db:
        return _render(request, "tournament.html", {"t": data.tournament(db, request.path_params["tid"])})


def ladders(request: Request) -> Response:
    with _store(request).connect() as db:
        return _render(request, "ladders.html", {"ladders": ladder_data.ladders(db)})


def ladder(request: Request) -> Response:
    """Complete as served; ``static/ladder.js`` then refreshes its parts while the ladder runs.
    A signed-in admin also gets a table of buttons (:mod:`.ladder_admin`), apart from the
    leaderboard the script redraws."""
    store = _store(request)
    with store.connect() as db:
        info = ladder_data.ladder(store, db, request.path_params["tid"])
    admin = request.app.state.accounts is not None and ladder_admin.is_admin(request)
    return _render(request, "ladder.html", {"l": info, "admin": admin, "buttons": ladder_admin.buttons})


def matches(request: Request) -> Response:
    where = data.MatchFilter.parse(request.query_params)
    with _store(request).connect() as db:
        page = data.matches(db, where)
        bots = [data.bot_json(b) for b in db.bots()]
        games = sorted({g["game"] for g in data.games(db)})
    return _render(request, "matches.html", {"page": page, "where": where, "bots": bots, "games": games,
                                             "statuses": data.STATUSES})


def match(request: Request) -> Response:
    match_id = request.path_params["match_id"]
    user = request_user(request)
    with _store(request).connect() as db:
        readable = match_readable(db, user, match_id)
        info = data.match(db, match_id, readable)  # first: a match that does not exist is "no match N"
        check_visible(request, match_id, readable)
    return _render(request, "match.html", {"m": info, "luck_chart": match_luck_chart(info)})


def favicon(request: Request) -> Response:
    """Browsers ask for ``/favicon.ico`` on pages without an icon link (the JSON API's)."""
    return RedirectResponse("/static/favicon.svg", status_code=301)


routes = [
    Route("/", index, name="index"),
    Route("/games/{game}/{variant}", game, name="game"),
    Route("/games/{game}/{variant}/h2h", h2h, name="h2h"),
    Route("/bots/{bot_id:int}", bot, name="bot"),
    Route("/tournaments", tournaments, name="tournaments"),
    Route("/tournaments/{tid:int}", tournament, name="tournament"),
    Route("/ladders", ladders, name="ladders"),
    Route("/ladders/{tid:int}", ladder, name="ladder"),
    Route("/matches", matches, name="matches"),
    Route("/matches/{match_id:int}", match, name="match"),
    Route("/favicon.ico", favicon),
]
