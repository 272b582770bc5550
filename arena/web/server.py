"""Running the web app with uvicorn (``arena serve``, ``arena demo --serve``)."""

from __future__ import annotations

import ipaddress
import socket
from collections.abc import Callable
from pathlib import Path

import uvicorn

from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig
from arena.web.app import create_app
from arena.web.export_routes import EXPORT_MAX_MATCHES
from arena.web.play import PlayConfig

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_PROXIES = "127.0.0.1,::1"
"""Who may say, in ``X-Forwarded-For`` and ``X-Forwarded-Proto``, which client a request is from
and whether it came over https: a reverse proxy on this machine, nobody else."""


class ListenError(Exception):
    """The address cannot be listened on (in use, not ours, unknown host); said in one line."""


def trusted_proxies(value: str) -> list[str]:
    """The addresses and networks of ``--forwarded-allow-ips`` (comma-separated; ``none``: no one).

    Checked here because uvicorn takes a malformed entry as a literal name that never matches,
    and ``*`` would let any visitor who reaches the port name their own address in
    ``X-Forwarded-For`` and so escape the per-address limits (uvicorn then believes the header's
    first entry).

    :raises ValueError: for ``*``, an empty entry or one that is not an IP address or network.
    """
    if value.strip().lower() == "none":
        return []
    entries = [entry.strip() for entry in value.split(",")]
    for entry in entries:
        if entry == "*":
            raise ValueError("'*' would let any visitor choose the address the limits count; "
                             "name the proxy's addresses or networks (e.g. 10.0.0.5 or 10.0.0.0/24)")
        try:
            ipaddress.ip_network(entry) if "/" in entry else ipaddress.ip_address(entry)
        except ValueError:
            raise ValueError(f"{entry!r} is not an IP address or network (e.g. 10.0.0.5, 10.0.0.0/24, ::1)") from None
    return entries


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host:port`` and listening, so that "serving at ..." is only said once true.

    :raises ListenError: if the host does not resolve or the address cannot be bound.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise ListenError(f"cannot listen on {host}:{port}: unknown host ({error})") from None
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn does: not another listener's port
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        raise ListenError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def serve(db_path: str | Path, *, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT,
          announce: Callable[[str], None] = print, play: PlayConfig | None = None,
          accounts: AccountsConfig | None = None, uploads: UploadsConfig | None = None,
          proxies: list[str] | None = None, hide_replays: bool = False,
          export_max_matches: int = EXPORT_MAX_MATCHES) -> None:
    """Serve the database read-only until Ctrl-C (with ``play``, the Play area too; with
    ``accounts``, sign-in and API tokens, which write the database's accounts tables, and
    admins' changes to ladder entrants; with ``hide_replays``, match records only for admins
    and their bots' authors; ``export_max_matches``: the most matches one dataset download holds).

    ``proxies`` (default :data:`DEFAULT_PROXIES`) are the peers whose ``X-Forwarded-For`` and
    ``X-Forwarded-Proto`` are believed: the per-address limits then count the forwarded client,
    and the session cookie is Secure when the proxy says https.  Given explicitly, so uvicorn's
    ``FORWARDED_ALLOW_IPS`` environment variable cannot widen it unseen.

    :raises StorageError: before serving, if a file is missing or not an arena database.
    :raises ListenError: before serving, if ``host:port`` cannot be listened on.
    """
    app = create_app(db_path, play, accounts=accounts, uploads=uploads, hide_replays=hide_replays,
                     export_max_matches=export_max_matches)
    sock = listen(host, port)
    shown = f"[{host}]" if ":" in host else host
    announce(f"serving {db_path} read-only at http://{shown}:{port}/ (Ctrl-C stops)")
    if play is not None:
        announce(f"Play at http://{shown}:{port}/play stores its matches in {play.db_path}")
    if accounts is not None:
        opened = "open registration at /register" if accounts.open_registration else "accounts from `arena user add`"
        announce(f"accounts: sign in at http://{shown}:{port}/sign-in ({opened}); "
                 f"sign-ins write the accounts tables of {db_path}")
    if uploads is not None:
        announce(f"uploads: at http://{shown}:{port}/submit and /api/submissions, stored in {uploads.data_dir}")
        if app.state.stale_staging:
            announce(f"uploads: removed {len(app.state.stale_staging)} staging folder(s) an interrupted upload left "
                     f"in {uploads.data_dir / 'incoming'}")
    if hide_replays:
        announce("replays and match records: only for admins and the authors of a match's bots (--hide-replays)")
    trusted = trusted_proxies(DEFAULT_PROXIES) if proxies is None else proxies
    if trusted != trusted_proxies(DEFAULT_PROXIES):
        announce(f"forwarded headers believed from: {', '.join(trusted) or 'no one'}")
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", proxy_headers=bool(trusted),
                                           forwarded_allow_ips=trusted or None))
    with sock:
        server.run(sockets=[sock])
