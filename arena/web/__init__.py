"""The read-only web side of arena: leaderboards, head-to-head, tournaments, matches and a
replay viewer over the tournament database (``arena serve``; docs/web.md).

Layout, so that later areas (bot submission, humans playing bots) add modules rather than
rewrite these:

* :mod:`arena.web.app` builds the ASGI app from one router per area;
* :mod:`arena.web.store` is the only door to the database, read-only;
* :mod:`arena.web.data` turns database rows into the plain dicts that both the HTML pages
  (:mod:`arena.web.pages`) and the JSON API (:mod:`arena.web.api`) serve;
* :mod:`arena.web.replay` re-simulates a match through the engine for the viewer, drawn by
  one renderer module per game (:mod:`arena.web.renderers`).
"""

from __future__ import annotations

from arena.web.app import create_app

__all__ = ["create_app"]
