"""``arena serve``: the read-only web leaderboard and replay viewer (arena.web), with
``--play`` the Play area where visitors play against bots, and with ``--accounts`` sign-in
and API tokens."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import db_option
from arena.league.storage import StorageError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; 0.0.0.0 shows it to the network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port.")
@db_option
@click.option("--play", is_flag=True, help="Offer Play: visitors play a seat against the bots (docs/play.md).")
@click.option("--play-db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where matches with people are stored (created if missing) [default: DB's name + '.play.db'].")
@click.option("--play-max-open-per-visitor", type=click.IntRange(min=1), default=1, show_default=True,
              help="Matches one visitor may have open at once.")
@click.option("--play-max-running", type=click.IntRange(min=1), default=2, show_default=True,
              help="Matches with people running at once on this server.")
@click.option("--play-move-timeout", type=click.FloatRange(min=1), default=120.0, show_default=True,
              help="A person's seconds per decision (bots keep 1 s); missed ones are faults, as for bots.")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "none"]), default="auto", show_default=True,
              help="How the bots of matches with people are confined (as for `arena play`; docs/security.md).")
@click.option("--accounts", is_flag=True,
              help="Offer sign-in and API tokens for the users of `arena user` (writes DB's accounts tables only).")
@click.option("--open-registration", is_flag=True, help="With --accounts: anyone may create an account at /register.")
def serve(host: str, port: int, db_path: Path, play: bool, play_db: Path | None, play_max_open_per_visitor: int,
          play_max_running: int, play_move_timeout: float, sandbox: str, accounts: bool,
          open_registration: bool) -> None:
    """Serve leaderboards, head-to-head, tournaments, matches and replays of a database, read-only.

    Opens the file read-only (it can be served while a tournament writes to it); see
    docs/web.md for the pages and the JSON API. With --play, visitors also play against the
    bots (the sample bots and the database's bots that can be started here); those matches
    are stored in --play-db, never in DB, so they cannot change the bots' ratings.
    With --accounts, people sign in with their token and the API takes it as a Bearer token;
    sign-ins are the only writes to DB (docs/security.md, "Accounts and tokens").
    """
    from arena.submission.web_auth import AccountsConfig
    from arena.web.play import PlayConfig
    from arena.web.server import ListenError
    from arena.web.server import serve as run_server
    from referee.sandbox import SandboxConfig, SandboxError, SandboxMode

    if open_registration and not accounts:
        raise click.UsageError("--open-registration needs --accounts")
    config = None
    if play:
        try:
            box = SandboxConfig(SandboxMode(sandbox)).resolved()
        except SandboxError as error:
            raise click.ClickException(str(error)) from None
        config = PlayConfig(db_path=play_db or db_path.with_name(db_path.name + ".play.db"), ladder=db_path,
                            max_open_per_visitor=play_max_open_per_visitor, max_running=play_max_running,
                            move_timeout=play_move_timeout, sandbox=box)
    try:
        run_server(db_path, host=host, port=port, announce=click.echo, play=config,
                   accounts=AccountsConfig(open_registration=open_registration) if accounts else None)
    except (StorageError, ListenError) as error:
        raise click.ClickException(str(error)) from None
