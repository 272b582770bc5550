"""Running the web app with uvicorn (``arena serve``, ``arena demo --serve``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import uvicorn

from arena.web.app import create_app
from arena.web.play import PlayConfig

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(db_path: str | Path, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          announce: Callable[[str], None] = print, play: PlayConfig | None = None) -> None:
    """Serve the database read-only until Ctrl-C (with ``play``, the Play area too).

    :raises StorageError: before serving, if a file is missing or not an arena database.
    """
    app = create_app(db_path, play)
    shown = f"[{host}]" if ":" in host else host
    announce(f"serving {db_path} read-only at http://{shown}:{port}/ (Ctrl-C stops)")
    if play is not None:
        announce(f"Play at http://{shown}:{port}/play stores its matches in {play.db_path}")
    uvicorn.run(app, host=host, port=port, log_level="warning")
