"""``arena submit``: pack a bot folder and upload it to a server's ``/api/submissions``
(docs/submitting.md).  The archive is checked here first, so an author learns of a refusal
before uploading; the upload asks ``Expect: 100-continue``, so a server that refuses it on
its headers (a bad token, a size over its limit) says so before the body is sent, instead
of closing the connection in the middle of it."""

from __future__ import annotations

import json
import urllib.parse
from pathlib import Path

import click

from referee.untrusted import clean


CONTINUE_SECONDS = 5.0
"""How long to wait for the server's ``100 Continue`` before sending the body anyway (a
proxy on the way may not pass it on)."""


def _post(url: str, data: bytes, token: str, timeout: float) -> tuple[int, bytes]:
    """POST ``data`` to ``url``: the answer's status and body, the server's early answer if
    it gives one instead of ``100 Continue``.

    :raises OSError: if the server cannot be reached.
    :raises http.client.HTTPException, ValueError: for an answer that is not HTTP.
    """
    import http.client  # here and in submit: the rest of the command line starts without them
    import select

    parts = urllib.parse.urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    conn = kind(parts.netloc, timeout=timeout)
    try:
        conn.putrequest("POST", f"{parts.path}?{parts.query}" if parts.query else parts.path)
        for name, value in (("Authorization", f"Bearer {token}"), ("Content-Type", "application/octet-stream"),
                            ("Content-Length", str(len(data))), ("Expect", "100-continue")):
            conn.putheader(name, value)
        conn.endheaders()
        assert conn.sock is not None
        if select.select([conn.sock], [], [], CONTINUE_SECONDS)[0]:
            early = conn.sock.makefile("rb")
            status = int(early.readline(65537).split()[1])
            headers = http.client.parse_headers(early)
            if status != 100:  # refused on its headers: the body is never sent
                return status, early.read(min(int(headers.get("content-length") or 0), 64 * 1024))
        conn.send(data)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def _message(body: bytes) -> str:
    """The ``error`` of a refusal's JSON body, fit for one line."""
    try:
        answer = json.loads(body.decode("utf-8", "replace"))
        text = answer.get("error", "") if isinstance(answer, dict) else ""
    except ValueError:
        text = ""
    return clean(str(text or "no reason given"), 500)


def _start_check(folder: Path) -> None:
    """Refuse to upload a bot that does not start and play here, with the reason and its last output.

    :raises click.ClickException: if it fails.
    """
    from arena.authoring.check_bot import start_check
    from referee.bots import BotSpecError, resolve_bot

    try:
        report = start_check(resolve_bot(str(folder)))
    except BotSpecError as error:
        raise click.ClickException(f"{folder} cannot be submitted: {error}") from None
    if report.ok:
        return
    if report.output:
        click.echo("the bot's last output (stdout and stderr), after its first failure:", err=True)
    for line in report.output:
        click.echo(f"  | {line}", err=True)
    raise click.ClickException(f"{folder} does not pass the start check, not uploaded: {report.first_failure()} "
                               f"(`arena check-bot {folder}` says more; --no-check uploads it anyway)")


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--server", required=True, metavar="URL", help="The arena server, e.g. https://arena.example.org.")
@click.option("--token", required=True, envvar="ARENA_TOKEN", show_envvar=True,
              help="Your API token (from `arena user add` or registering).")
@click.option("--ladder", default="", metavar="NAME", help="The ladder this bot is for.")
@click.option("--timeout", type=click.FloatRange(min=1), default=300.0, show_default=True,
              help="Seconds to wait for the server.")
@click.option("--no-check", is_flag=True,
              help="Upload without the start check (the bot started here first: health, identity, one short match).")
def submit(folder: Path, server: str, token: str, ladder: str, timeout: float, no_check: bool) -> None:
    """Upload the bot in FOLDER (its bot.toml and files) to a server as a new version.

    First packs and checks it as the server will, then starts it here (in the sandbox, built
    first if its manifest has a build step) for a quick check: it must answer health and
    identity and play one short match without a fault, or nothing is uploaded (--no-check
    skips this). Prints the submission's id, content hash and state. The server stores it by
    content hash: the same files again are the same version. Files submitted for no ladder and
    submitted again with --ladder are entered on that ladder (validated for it first).
    """
    import http.client

    from arena.cli.pack import packed_bot

    parsed = urllib.parse.urlsplit(server)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise click.BadParameter("give the server as http://HOST[:PORT] or https://HOST[:PORT]", param_hint="--server")
    data, _, _ = packed_bot(folder)
    if not no_check:
        _start_check(folder)
    url = server.rstrip("/") + "/api/submissions" + (f"?{urllib.parse.urlencode({'ladder': ladder})}" if ladder else "")
    try:
        status, body = _post(url, data, token.strip(), timeout)
    except OSError as error:
        raise click.ClickException(f"cannot reach {server}: {clean(str(error), 200)}") from None
    except (http.client.HTTPException, ValueError, IndexError):
        raise click.ClickException(f"{server} answered something that is not an arena server's answer") from None
    if status == 401:
        raise click.ClickException(f"the server refused the token: {_message(body)}")
    if status not in (200, 201):
        raise click.ClickException(f"the server refused the upload ({status}): {_message(body)}")
    try:
        answer = json.loads(body)
        said = "submitted" if answer.get("new") else "already submitted, the same files"
        line = (f"{said}: submission {answer['id']}, {clean(answer['bot'], 64)} {clean(answer['version'], 64)}, "
                f"content hash {clean(answer['content_hash'], 64)}, state {clean(answer['state'], 32)}"
                + (f": {clean(answer['message'], 300)}" if answer.get("message") else ""))
    except (ValueError, TypeError, KeyError, AttributeError):
        raise click.ClickException(f"{server} answered something that is not an arena server's answer") from None
    click.echo(line)
