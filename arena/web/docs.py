"""The documentation pages the web app links to, served from the package (``arena.docs``,
:func:`arena.resources.doc_pages`): a wheel-installed arena has no checkout for a page to
point at, so "docs/sprt.md" on a page is a link to ``/docs/sprt.md`` here.

``GET /docs/{name}`` (``sprt``, ``ladder``, ``rules/jass``; a trailing ``.md`` is accepted,
so the links between the docs, relative to their own folder, work as they are) renders the
Markdown in the site's layout.  The pages are arena's own, but raw HTML in them is escaped
all the same: nothing but Markdown reaches the browser.
"""

from __future__ import annotations

import functools
import re

from markdown_it import MarkdownIt  # rich's Markdown parser: installed with rich, a dependency
from markupsafe import Markup
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from starlette.templating import Jinja2Templates

from arena.resources import doc_pages
from arena.web.data import NotFound


def doc_url(name: str) -> str:
    """Where the page ``name`` (``sprt``, ``rules/jass``) is served."""
    return f"/docs/{name}.md"


@functools.lru_cache(maxsize=64)
def render(name: str) -> tuple[str, Markup]:
    """Page ``name``'s title (its first heading) and its HTML.

    :raises NotFound: if no shipped page has that name.
    """
    path = doc_pages().get(name)
    if path is None:
        raise NotFound(f"no documentation page {name!r}")
    text = path.read_text(encoding="utf-8")
    heading = re.search(r"^#\s+(.+)$", text, flags=re.MULTILINE)
    html = MarkdownIt("commonmark", {"html": False}).enable("table").render(text)
    return (heading.group(1).strip() if heading else name), Markup(html)


def doc_page(request: Request) -> Response:
    """One page of the docs, rendered."""
    name = request.path_params["name"].removesuffix(".md")
    title, html = render(name)
    templates: Jinja2Templates = request.app.state.templates
    return templates.TemplateResponse(request, "doc.html", {"title": title, "name": name, "html": html})


routes = [Route("/docs/{name:path}", doc_page, name="doc")]
