"""``arena serve``: the read-only web leaderboard and replay viewer (arena.web)."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli_tournament import db_option
from arena.storage import StorageError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; 0.0.0.0 shows it to the network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port.")
@db_option
def serve(host: str, port: int, db_path: Path) -> None:
    """Serve leaderboards, head-to-head, tournaments, matches and replays of a database, read-only.

    Opens the file read-only (it can be served while a tournament writes to it); see
    docs/web.md for the pages and the JSON API.
    """
    from arena.web.server import ListenError
    from arena.web.server import serve as run_server

    try:
        run_server(db_path, host=host, port=port, announce=click.echo)
    except (StorageError, ListenError) as error:
        raise click.ClickException(str(error)) from None
