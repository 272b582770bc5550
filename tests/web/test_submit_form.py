"""The upload form at ``/submit``: a zip uploaded from headless Chromium (Playwright), the
person's submissions with their states, and CSRF on the form."""

from __future__ import annotations

import contextlib
import html
import http.client
import io
import re
import shutil
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from arena.submission.archive import content_hash
from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig
from tests.ladder.helpers import write_config

from .conftest import SAMPLE_BOTS, XSS_VERSION, Server
from .test_sign_in import Client


@pytest.fixture
def uploads(tmp_path: Path) -> Iterator[tuple[Server, dict[str, str], Path]]:
    path = tmp_path / "league.db"
    with Database(path) as db:
        tokens = {name: accounts.add_user(db, name)[1] for name in ("alice", "bob")}
    data_dir = tmp_path / "data"
    with Server(path, accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=data_dir)) as server:
        yield server, tokens, data_dir


def zipped_bot(folder: Path) -> Path:
    """The random sample bot as a zip of its folder (as "compress this folder" makes it), named
    "zipped", with an HTML version label."""
    bot = folder / "zipped"
    shutil.copytree(SAMPLE_BOTS / "random_bot", bot, ignore=shutil.ignore_patterns("__pycache__"))
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text().replace('name = "random"', 'name = "zipped"')
                                  .replace('version = "1.0"', f'version = "{XSS_VERSION}"'))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for file in sorted(bot.iterdir()):
            archive.write(file, f"zipped/{file.name}")
    target = folder / "zipped.zip"
    target.write_bytes(buffer.getvalue())
    return target


def raw_post(client: Client, body: bytes, content_type: str) -> int:
    """POST ``body`` to /submit with ``client``'s cookies: the status."""
    return posted(client, body, content_type)[0]


def posted(client: Client, body: bytes, content_type: str) -> tuple[int, str]:
    """POST ``body`` to /submit with ``client``'s cookies: the status and the page."""
    conn = http.client.HTTPConnection("127.0.0.1", client.server.port, timeout=30)
    headers = {"Content-Type": content_type}
    if client.cookies:
        headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
    try:
        conn.request("POST", "/submit", body, headers)
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    return response.status, text


def test_a_zip_uploaded_through_the_form_is_received(uploads, page, tmp_path: Path) -> None:
    server, tokens, data_dir = uploads
    archive = zipped_bot(tmp_path)
    page.goto(f"{server.url}/submit")  # not signed in: to the sign-in form first, then back
    page.wait_for_url(f"{server.url}/sign-in?next=%2Fsubmit")
    page.get_by_label("name").fill("alice")
    page.get_by_label("token").fill(tokens["alice"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.url}/submit")
    assert page.get_by_label("ladder").locator("option").all_inner_texts() == ["no ladder (validated only)"]
    assert page.locator("main").inner_text().count("None yet.") == 1
    page.get_by_label("bot (tar.gz or zip").set_input_files(str(archive))
    page.get_by_role("button", name="Upload").click()
    page.wait_for_selector("p.message")
    assert page.locator("p.message").inner_text() == f"received zipped {XSS_VERSION} as submission 1"  # as text
    row = page.locator("table.submissions tbody tr")
    assert row.count() == 1 and row.locator(".bot-name").inner_text() == "zipped"
    assert row.locator(".state").inner_text() == "received"
    assert row.locator("td").nth(2).inner_text() == XSS_VERSION and page.locator("main i").count() == 0
    digest = content_hash(tmp_path / "zipped")
    assert content_hash(data_dir / "bots" / "alice" / "zipped" / digest) == digest
    assert page.dialogs == [] and page.errors == []
    row.get_by_role("link", name="log").click()  # the signed-in session reads its own log
    page.wait_for_url(f"{server.url}/api/submissions/1/log")
    assert page.locator("body").inner_text().startswith(
        f"submission 1: zipped {XSS_VERSION}, state received: \n\n(no log yet")  # plain text, never HTML
    assert page.locator("body i").count() == 0 and page.dialogs == [] and page.errors == []


def test_a_form_post_without_the_sessions_csrf_token_is_refused(uploads, tmp_path: Path) -> None:
    server, tokens, data_dir = uploads
    archive = zipped_bot(tmp_path).read_bytes()
    client = Client(server)
    assert client.sign_in("bob", tokens["bob"])[0] == 303

    def post(csrf: str | None) -> int:
        boundary = "----arena-test-boundary"
        parts = [] if csrf is None else [
            f'--{boundary}\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n{csrf}\r\n'.encode()]
        parts.append(f'--{boundary}\r\nContent-Disposition: form-data; name="archive"; filename="b.zip"\r\n'
                     f"Content-Type: application/zip\r\n\r\n".encode() + archive + b"\r\n")
        body = b"".join(parts) + f"--{boundary}--\r\n".encode()
        return raw_post(client, body, f"multipart/form-data; boundary={boundary}")

    assert post(None) == 403 and post("forged") == 403
    assert raw_post(client, b"archive=x", "application/x-www-form-urlencoded") == 403  # no token in any form
    assert not (data_dir / "bots").exists()
    assert post(client.csrf("/submit")) == 200  # the real token: received
    assert (data_dir / "bots" / "bob" / "zipped").is_dir()
    stranger = Client(server)  # another site's post: no session cookie at all
    assert raw_post(stranger, b"--x--\r\n", "multipart/form-data; boundary=x") == 403


def multipart(fields: dict[str, bytes]) -> tuple[bytes, str]:
    """A multipart/form-data body of ``fields`` (``archive`` as a file) and its content type."""
    boundary = "----arena-test-boundary"
    file = '; filename="b.zip"'
    parts = [f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"{file if name == "archive" else ""}'
             f'\r\n\r\n'.encode() + value + b"\r\n" for name, value in fields.items()]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@contextlib.contextmanager
def uploader(config_path: Path, name: str) -> Iterator[tuple[Client, Path]]:
    """A server of the ladders in ``config_path`` with uploads, and a client signed in as the
    new account ``name``; with the league's file."""
    loaded = load_config(config_path)
    with Database(loaded.db) as db:
        for ladder in loaded.ladders:
            open_ladder(db, ladder, loaded)
        token = accounts.add_user(db, name)[1]
    data_dir = config_path.parent / "data"
    with Server(loaded.db, accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=data_dir)) as server:
        client = Client(server)
        assert client.sign_in(name, token)[0] == 303
        yield client, loaded.db


def test_the_form_offers_the_servers_ladders_and_takes_a_name_in_any_case(tmp_path: Path) -> None:
    config = tmp_path / "ladder.toml"
    config.write_text(f'db = "league.db"\n[[ladder]]\nname = "Dice"\ngame = "yahtzee"\nseats = 2\n'
                      f'bots = ["{SAMPLE_BOTS / "random_bot"}"]\n[[ladder]]\nname = "cards"\ngame = "yaniv"\n'
                      f'seats = 2\nbots = ["{SAMPLE_BOTS / "random_bot"}"]\n', encoding="utf-8")
    archive = zipped_bot(tmp_path).read_bytes()
    with uploader(config, "alice") as (client, db_path):
        status, _, form = client.request("GET", "/submit")
        options = re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', form)
        assert options == [("cards", "cards (yaniv)"), ("Dice", "Dice (yahtzee)"), ("", "no ladder (validated only)")]
        body, kind = multipart({"csrf": client.csrf("/submit").encode(), "ladder": b"nope", "archive": archive})
        status, page = posted(client, body, kind)
        assert status == 400 and "this server has no ladder named &#39;nope&#39;; its ladders: cards, Dice" in page, \
            re.findall(r'<p class="error">.*?</p>', page)
        body, kind = multipart({"csrf": client.csrf("/submit").encode(), "ladder": b"DICE", "archive": archive})
        status, page = posted(client, body, kind)
        assert status == 200 and "received zipped" in page, page
    with Database(db_path) as db:
        assert [tuple(row) for row in db.conn.execute("SELECT ladder FROM submissions")] == [("Dice",)]


def test_files_uploaded_for_no_ladder_enter_the_ladder_they_are_uploaded_again_for(tmp_path: Path) -> None:
    """Issue 34: the same files again with a ladder were "already submitted" and stayed for no
    ladder.  They go back to the worker for that ladder (once: again is the same answer); for
    a second ladder they are refused, with what to do."""
    config = write_config(tmp_path, [SAMPLE_BOTS / "random_bot"],
                          ladder='[[ladder]]\nname = "cards"\ngame = "yaniv"\nseats = 2\n'
                                 f'bots = ["{SAMPLE_BOTS / "random_bot"}"]\n')
    archive = zipped_bot(tmp_path).read_bytes()
    with uploader(config, "bob") as (client, db_path):

        def upload(ladder: str) -> tuple[int, str, list[tuple[str, str, str]]]:
            status, page = posted(client, *multipart({"csrf": client.csrf("/submit").encode(), "archive": archive,
                                                             "ladder": ladder.encode()}))
            message = page.split('<p class="message">', 1)[1].split("</p>", 1)[0] if 'class="message"' in page \
                else page.split('class="error">', 1)[1].split("</p>", 1)[0]
            with Database(db_path) as db:
                rows = [tuple(row) for row in db.conn.execute("SELECT ladder, state, message FROM submissions")]
            return status, html.unescape(message), rows

        assert upload("")[::2] == (200, [("", "received", "")])
        again = "submitted again for ladder dice (it was for no ladder): waiting for the worker"
        for _ in range(2):
            assert upload("dice") == (200, f"zipped with this content is submission 1 already: {again}",
                                      [("dice", "received", again)])
        assert upload("cards") == (400, "these files are submission 1, for ladder 'dice'; a submission enters one "
                                        "ladder: to enter 'cards' as well, give them a new version in bot.toml and "
                                        "submit again", [("dice", "received", again)])
