"""``arena submit``: pack a bot folder and upload it to a server's ``/api/submissions``
(docs/submitting.md).  The archive is checked here first, so an author learns of a refusal
before uploading."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import click

from arena.submission.archive import ArchiveError, pack
from referee.untrusted import clean


def _server_message(error: urllib.error.HTTPError) -> str:
    """The ``error`` text of a refusal's JSON body, or its status line."""
    try:
        body = json.loads(error.read(64 * 1024).decode("utf-8", "replace"))
        text = body["error"] if isinstance(body, dict) else ""
    except (ValueError, KeyError, OSError):
        text = ""
    return clean(str(text or error.reason), 500)


@click.command()
@click.argument("folder", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--server", required=True, metavar="URL", help="The arena server, e.g. https://arena.example.org.")
@click.option("--token", required=True, envvar="ARENA_TOKEN", show_envvar=True,
              help="Your API token (from `arena user add` or registering).")
@click.option("--ladder", default="", metavar="NAME", help="The ladder this bot is for.")
@click.option("--timeout", type=click.FloatRange(min=1), default=300.0, show_default=True,
              help="Seconds to wait for the server.")
def submit(folder: Path, server: str, token: str, ladder: str, timeout: float) -> None:
    """Upload the bot in FOLDER (its bot.toml and files) to a server as a new version.

    Prints the submission's id, content hash and state. The server stores it by content
    hash: the same files again are the same version.
    """
    parsed = urllib.parse.urlsplit(server)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise click.BadParameter("give the server as http://HOST[:PORT] or https://HOST[:PORT]", param_hint="--server")
    try:
        data = pack(folder)
    except ArchiveError as error:
        raise click.ClickException(f"{folder} cannot be submitted: {error}") from None
    url = server.rstrip("/") + "/api/submissions" + (f"?{urllib.parse.urlencode({'ladder': ladder})}" if ladder else "")
    request = urllib.request.Request(url, data=data, method="POST", headers={
        "Authorization": f"Bearer {token.strip()}", "Content-Type": "application/octet-stream"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 - http(s) checked above
            answer = json.loads(response.read().decode())
    except urllib.error.HTTPError as error:
        message = _server_message(error)
        if error.code == 401:
            raise click.ClickException(f"the server refused the token: {message}") from None
        raise click.ClickException(f"the server refused the upload ({error.code}): {message}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = error.reason if isinstance(error, urllib.error.URLError) else error
        raise click.ClickException(f"cannot reach {server}: {clean(str(reason), 200)}") from None
    except ValueError:
        raise click.ClickException(f"{server} answered something that is not an arena server's JSON") from None
    said = "submitted" if answer.get("new") else "already submitted, the same files"
    click.echo(f"{said}: submission {answer['id']}, {clean(answer['bot'], 64)} {clean(answer['version'], 64)}, "
               f"content hash {answer['content_hash']}, state {answer['state']}")
