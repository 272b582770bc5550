"""``/rules/{game}``: each game's rules page, with links to the other games' rules.  The text is
the docs page ``rules/GAME`` as :mod:`arena.web.docs` renders it from the package's own copy,
so a wheel-installed arena without a checkout has it.  The play page and the replay viewer
link here."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.web import docs
from arena.web.data import NotFound
from referee.games import game_names


def rules_page(request: Request) -> Response:
    """One game's rules; an unknown game is a 404 that lists the games."""
    game = request.path_params["game"]
    if game not in game_names():
        raise NotFound(f"no rules for {game!r}; games: {', '.join(game_names())}")
    _, html = docs.render(f"rules/{game}")
    return request.app.state.templates.TemplateResponse(
        request, "rules.html", {"game": game, "games": game_names(), "rules": html})


routes = [Route("/rules/{game}", rules_page)]
