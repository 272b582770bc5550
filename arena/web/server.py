"""Running the web app with uvicorn (``arena serve``, ``arena demo --serve``)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import uvicorn

from arena.web.app import create_app

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def serve(db_path: str | Path, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          announce: Callable[[str], None] = print) -> None:
    """Serve the database read-only until Ctrl-C.

    :raises StorageError: before serving, if the file is missing or not an arena database.
    """
    app = create_app(db_path)
    shown = f"[{host}]" if ":" in host else host
    announce(f"serving {db_path} read-only at http://{shown}:{port}/ (Ctrl-C stops)")
    uvicorn.run(app, host=host, port=port, log_level="warning")
