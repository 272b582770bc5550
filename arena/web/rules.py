"""``/rules/{game}``: each game's rules page (docs/rules/GAME.md), served from the package's
own copy of the docs (``arena.docs``), so a wheel-installed arena without a checkout has them.
The play page and the replay viewer link here."""

from __future__ import annotations

import functools

from markdown_it import MarkdownIt
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from arena.resources import doc_pages
from arena.web.data import NotFound
from referee.games import game_names


@functools.cache
def rules_html(game: str) -> Markup:
    """The game's rules page as HTML (the docs are ours; raw HTML in them is not passed on)."""
    page = doc_pages().get(f"rules/{game}")
    if game not in game_names() or page is None:
        raise NotFound(f"no rules for {game!r}; games: {', '.join(game_names())}")
    markdown = MarkdownIt("commonmark", {"html": False}).enable("table")
    return Markup(markdown.render(page.read_text(encoding="utf-8")))


def rules_page(request: Request) -> Response:
    game = request.path_params["game"]
    return request.app.state.templates.TemplateResponse(
        request, "rules.html", {"game": game, "games": game_names(), "rules": rules_html(game)})


routes = [Route("/rules/{game}", rules_page)]
