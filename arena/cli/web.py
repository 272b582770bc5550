"""``arena serve``: the read-only web leaderboard and replay viewer (arena.web), with
``--play`` the Play area where visitors play against bots, and with ``--accounts`` sign-in
and API tokens."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import db_option, uploads_folder
from arena.league.storage import StorageError


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (loopback by default; 0.0.0.0 shows it to the network).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="TCP port.")
@db_option
@click.option("--play", is_flag=True, help="Offer Play: visitors play a seat against the bots (docs/play.md).")
@click.option("--play-db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where matches with people are stored (created if missing; never DB itself) "
                   "[default: DB's name + '.play.db'].")
@click.option("--play-max-open-per-visitor", type=click.IntRange(min=1), default=1, show_default=True,
              help="Matches one visitor may have open at once.")
@click.option("--play-max-running", type=click.IntRange(min=1), default=2, show_default=True,
              help="Matches with people running at once on this server.")
@click.option("--play-move-timeout", type=click.FloatRange(min=1), default=120.0, show_default=True,
              help="A person's seconds per decision (bots keep 1 s); missed ones are faults, as for bots.")
@click.option("--sandbox", type=click.Choice(["auto", "bwrap", "none"]), default="auto", show_default=True,
              help="How the bots of matches with people are confined (as for `arena play`; docs/security.md).")
@click.option("--accounts", is_flag=True,
              help="Offer sign-in and API tokens for the users of `arena user` (writes DB's accounts tables, and "
                   "ladder entrants' states that an admin changes).")
@click.option("--open-registration", is_flag=True, help="With --accounts: anyone may create an account at /register.")
@click.option("--uploads", is_flag=True,
              help="With --accounts: authors upload bots at /submit and /api/submissions (docs/submitting.md).")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where uploads are stored, never served [default: DB's name + '.data', beside it].")
@click.option("--max-upload-mb", type=click.IntRange(min=1), default=50, show_default=True,
              help="Largest upload, in MiB (the archive); also the most its files may unpack to.")
@click.option("--max-uploads-per-hour", type=click.IntRange(min=1), default=10, show_default=True,
              help="New submissions one author may make in an hour (then 429).")
@click.option("--max-refused-uploads-per-hour", type=click.IntRange(min=1), default=30, show_default=True,
              help="Refused and repeated uploads one author may make in an hour (then 429, for any upload).")
@click.option("--forwarded-allow-ips", "proxies", default="127.0.0.1,::1", show_default=True, metavar="ADDRESSES",
              help="Reverse proxies (IP addresses or networks, comma-separated; 'none': no one) whose "
                   "X-Forwarded-For and X-Forwarded-Proto are believed: the client address the limits "
                   "count and https for Secure cookies (docs/hosting.md).")
@click.option("--hide-replays", is_flag=True,
              help="Match records, replays and move lists only for admins and the authors of a bot that sat in "
                   "the match (404 for others; without --accounts, for everyone); match lists and results stay public.")
@click.option("--export-max-matches", type=click.IntRange(min=1), default=200, show_default=True,
              help="Most matches one dataset download (a game's or a ladder's decisions) may hold; larger ones are "
                   "refused with how to narrow them (docs/web.md, \"Datasets\").")
def serve(host: str, port: int, db_path: Path, play: bool, play_db: Path | None, play_max_open_per_visitor: int,
          play_max_running: int, play_move_timeout: float, sandbox: str, accounts: bool,
          open_registration: bool, uploads: bool, data_dir: Path | None, max_upload_mb: int,
          max_uploads_per_hour: int, max_refused_uploads_per_hour: int, proxies: str, hide_replays: bool,
          export_max_matches: int) -> None:
    """Serve leaderboards, head-to-head, tournaments, matches and replays of a database, read-only.

    Opens the file read-only (it can be served while a tournament writes to it); see
    docs/web.md for the pages and the JSON API. With --play, visitors also play against the
    bots (the sample bots and the database's bots that can be started here); those matches
    are stored in --play-db, never in DB, so they cannot change the bots' ratings.
    With --accounts, people sign in with their token and the API takes it as a Bearer token;
    sign-ins are its writes to DB (docs/security.md, "Accounts and tokens"), with admins'
    pausing, resuming and removing ladder entrants from the ladder pages (docs/ladder.md).
    With --uploads as well, signed-in authors upload bots (docs/submitting.md); those write
    DB's submissions tables and --data-dir, and the start removes staging folders an
    interrupted upload left there (an hour old or more).
    With --hide-replays, match records and replays are only for admins and the authors of
    the match's bots (docs/web.md, "Hidden replays").
    """
    from arena.submission.web_auth import AccountsConfig
    from arena.web.play import PlayConfig
    from arena.web.server import ListenError, trusted_proxies
    from arena.web.server import serve as run_server
    from referee.sandbox import SandboxConfig, SandboxError, SandboxMode

    from arena.submission.archive import MIB, ArchiveLimits
    from arena.submission.web_submit import UploadsConfig

    try:
        trusted = trusted_proxies(proxies)
    except ValueError as error:
        raise click.BadParameter(str(error), param_hint="--forwarded-allow-ips") from None
    if open_registration and not accounts:
        raise click.UsageError("--open-registration needs --accounts")
    if uploads and not accounts:
        raise click.UsageError("--uploads needs --accounts")
    upload_config = None
    if uploads:
        limit = max_upload_mb * MIB
        upload_config = UploadsConfig(data_dir=uploads_folder(db_path, data_dir),
                                      limits=ArchiveLimits(max_archive_bytes=limit, max_unpacked_bytes=limit),
                                      max_uploads=max_uploads_per_hour, max_refused=max_refused_uploads_per_hour)
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
                   accounts=AccountsConfig(open_registration=open_registration) if accounts else None,
                   uploads=upload_config, proxies=trusted, hide_replays=hide_replays,
                   export_max_matches=export_max_matches)
    except (StorageError, ListenError) as error:
        raise click.ClickException(str(error)) from None
