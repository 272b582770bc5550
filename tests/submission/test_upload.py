"""Uploads over the network: a real ``arena serve --accounts --uploads`` in a subprocess,
``arena submit`` as a real subprocess, and plain HTTP for what a client could send instead."""

from __future__ import annotations

import http.client
import io
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tarfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import SCHEMA_VERSION, Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from arena.submission.archive import ArchiveError, content_hash, pack
from arena.submission.submissions import receive
from tests.ladder.helpers import write_config

from .test_archive import tar_entry, tar_gz

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
LIMIT_MIB = 1
"""The served upload limit (``--max-upload-mb``)."""
FLOOD = 10
"""The served per-author limit of new submissions (``--max-uploads-per-hour``)."""
REFUSED_FLOOD = 12
"""The served per-author limit of refused and repeated uploads (``--max-refused-uploads-per-hour``)."""
USERS = ("alice", "bob", "carol", "dave", "erin", "frank", "gina", "henry", "iris")


@dataclass
class Served:
    """A running ``arena serve --accounts --uploads`` and what it was given."""

    url: str
    port: int
    db: Path
    data_dir: Path
    tokens: dict[str, str]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """alice is an admin; carol is disabled; dave's token was rotated (his first is ``dave-old``)."""
    folder = tmp_path_factory.mktemp("uploads")
    db_path = folder / "league.db"
    tokens = {}
    with Database(db_path) as db:
        for name in USERS:
            tokens[name] = accounts.add_user(db, name, admin=name == "alice")[1]
        accounts.disable_user(db, "carol")
        tokens["dave-old"] = tokens["dave"]
        tokens["dave"] = accounts.rotate_token(db, "dave")[1]
    port = free_port()
    process = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(db_path), "--port", str(port),
                                "--accounts", "--uploads", "--max-upload-mb", str(LIMIT_MIB),
                                "--max-uploads-per-hour", str(FLOOD),
                                "--max-refused-uploads-per-hour", str(REFUSED_FLOOD)],
                               cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline() for _ in range(3)]
        data_dir = folder / "league.db.data"
        assert lines[2].strip() == f"uploads: at http://127.0.0.1:{port}/submit and /api/submissions, " \
                                   f"stored in {data_dir}", lines
        yield Served(f"http://127.0.0.1:{port}", port, db_path, data_dir, tokens)
    finally:
        process.send_signal(signal.SIGINT)
        process.communicate(timeout=30)


def request(served: Served, method: str, path: str, body: bytes | None = None,
            token: str | None = None) -> tuple[int, dict[str, object] | str]:
    conn = http.client.HTTPConnection("127.0.0.1", served.port, timeout=60)
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    try:
        conn.request(method, path, body, headers)
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    try:
        return response.status, json.loads(text)
    except ValueError:
        return response.status, text


def submit(*args: str, check: bool = False) -> subprocess.CompletedProcess[str]:
    """``arena submit`` in a subprocess (the token from the environment is not inherited);
    without its start check unless ``check`` (the tests of the check ask for it)."""
    env = {k: v for k, v in os.environ.items() if k != "ARENA_TOKEN"}
    return subprocess.run([sys.executable, "-m", "arena.cli", "submit", *args, *([] if check else ["--no-check"])],
                          capture_output=True, text=True, cwd=ROOT, timeout=900, env=env)


def bot_named(folder: Path, name: str, version: str = "1.0") -> Path:
    """The random sample bot, under another name."""
    shutil.copytree(RANDOM_BOT, folder, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = (folder / "bot.toml").read_text(encoding="utf-8")
    (folder / "bot.toml").write_text(manifest.replace('name = "random"', f'name = "{name}"')
                                     .replace('version = "1.0"', f'version = "{version}"'), encoding="utf-8")
    return folder


def everything_below(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*")} if folder.exists() else set()


def test_arena_submit_stores_the_bot_by_hash_as_a_version_of_its_authors_bot(served: Served, tmp_path: Path) -> None:
    bot = bot_named(tmp_path / "mine", "bobs-bot")
    result = submit(str(bot), "--server", served.url, "--token", served.tokens["bob"])
    assert result.returncode == 0, result.stderr
    digest = content_hash(bot)
    (line,) = result.stdout.splitlines()
    assert line.startswith("submitted: submission ") and line.endswith(
        f", bobs-bot 1.0, content hash {digest}, state received")
    number = int(line.split()[2].rstrip(","))
    stored = served.data_dir / "bots" / "bob" / "bobs-bot" / digest
    assert content_hash(stored) == digest
    assert sorted(p.name for p in stored.iterdir()) == ["bot.py", "bot.toml"]
    assert all(not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
               for path in [stored, *stored.rglob("*")])  # read only once stored

    status, body = request(served, "GET", "/api/submissions", token=served.tokens["bob"])
    assert status == 200 and isinstance(body, dict)
    (listed,) = body["submissions"]
    assert listed["id"] == number and listed["bot"] == "bobs-bot" and listed["version"] == "1.0"
    assert listed["content_hash"] == digest and listed["state"] == "received" and listed["author"] == "bob"

    again = submit(str(bot), "--server", served.url, "--token", served.tokens["bob"])  # same content: same version
    assert again.returncode == 0 and again.stdout.startswith(f"already submitted, the same files: submission {number},")
    assert len(request(served, "GET", "/api/submissions", token=served.tokens["bob"])[1]["submissions"]) == 1  # type: ignore[index]

    (bot / "bot.py").write_text((bot / "bot.py").read_text() + "\n# better\n")
    newer = submit(str(bot), "--server", served.url, "--token", served.tokens["bob"])
    assert newer.returncode == 0 and f"content hash {content_hash(bot)}" in newer.stdout
    assert len(list(stored.parent.iterdir())) == 2  # two versions, each by its hash


def test_another_author_cannot_submit_under_a_name_someone_owns(served: Served, tmp_path: Path) -> None:
    assert submit(str(bot_named(tmp_path / "a", "franks-bot")), "--server", served.url, "--token",
                  served.tokens["frank"]).returncode == 0
    before = everything_below(served.data_dir)
    result = submit(str(bot_named(tmp_path / "b", "FRANKS-bot")), "--server", served.url, "--token",
                    served.tokens["gina"])
    assert result.returncode == 1 and result.stderr.strip() == (
        "Error: the server refused the upload (409): the bot name 'FRANKS-bot' belongs to another author; "
        "rename the bot in bot.toml")
    assert everything_below(served.data_dir) == before


@pytest.mark.parametrize("token", ["wrong", "revoked", "disabled"])
def test_arena_submit_with_a_bad_token_is_refused(served: Served, tmp_path: Path, token: str) -> None:
    sent = {"wrong": served.tokens["bob"][:-3] + "xyz", "revoked": served.tokens["dave-old"],
            "disabled": served.tokens["carol"]}[token]
    result = submit(str(bot_named(tmp_path / "b", "anybot")), "--server", served.url, "--token", sent)
    assert result.returncode == 1 and result.stderr.strip() == "Error: the server refused the token: invalid token"


def test_missing_wrong_and_revoked_tokens_get_401_from_the_api(served: Served) -> None:
    data = pack(RANDOM_BOT)
    for token in (None, "arena_nonsense", served.tokens["dave-old"], served.tokens["carol"]):
        for method, path, body in (("POST", "/api/submissions", data), ("GET", "/api/submissions", None),
                                   ("GET", "/api/submissions/1", None)):
            status, answer = request(served, method, path, body, token)
            assert status == 401 and isinstance(answer, dict) and "token" in str(answer["error"]), (token, path)


def test_an_author_cannot_read_another_authors_submission(served: Served, tmp_path: Path) -> None:
    status, mine = request(served, "POST", "/api/submissions", pack(bot_named(tmp_path / "e", "erins-bot")),
                           served.tokens["erin"])
    assert status == 201 and isinstance(mine, dict)
    for reader in ("bob", "frank"):
        assert request(served, "GET", f"/api/submissions/{mine['id']}", token=served.tokens[reader]) == \
            (404, {"error": "no such submission"})  # the same as an id nobody has
        listed = request(served, "GET", "/api/submissions", token=served.tokens[reader])[1]
        assert mine["id"] not in [s["id"] for s in listed["submissions"]]  # type: ignore[index]
    assert request(served, "GET", "/api/submissions/99999", token=served.tokens["bob"]) == \
        (404, {"error": "no such submission"})
    status, seen = request(served, "GET", f"/api/submissions/{mine['id']}", token=served.tokens["erin"])
    assert status == 200 and seen["bot"] == "erins-bot"  # type: ignore[index]
    status, seen = request(served, "GET", f"/api/submissions/{mine['id']}", token=served.tokens["alice"])  # admin
    assert status == 200 and seen["author"] == "erin"  # type: ignore[index]
    everyone = request(served, "GET", "/api/submissions", token=served.tokens["alice"])[1]
    assert mine["id"] in [s["id"] for s in everyone["submissions"]]  # type: ignore[index]


def test_a_dot_dot_archive_is_refused_with_nothing_left_on_disk(served: Served) -> None:
    before = everything_below(served.data_dir)
    status, answer = request(served, "POST", "/api/submissions", tar_gz(tar_entry("../../escaped.py", b"x")),
                             served.tokens["alice"])
    assert status == 400 and answer == {
        "error": "archive member '../../escaped.py': a '..' component would leave the bot's folder"}
    assert everything_below(served.data_dir) == before
    assert not list(served.data_dir.parent.rglob("escaped.py"))


def test_a_language_the_server_cannot_build_and_an_unknown_ladder_are_refused(served: Served, tmp_path: Path) -> None:
    bot = bot_named(tmp_path / "r", "rusty")
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text().replace('"python"', '"rust"'))
    status, answer = request(served, "POST", "/api/submissions", pack(bot), served.tokens["bob"])
    assert status == 400 and answer == {"error": "bot.toml names language 'rust'; this server builds cpp, go, node, python"}
    result = submit(str(bot), "--server", served.url, "--token", served.tokens["bob"])  # said before uploading
    assert result.returncode == 1 and result.stderr.strip() == (
        f"Error: {bot} cannot be submitted: bot.toml names language 'rust'; this server builds cpp, go, node, python")
    result = submit(str(RANDOM_BOT), "--server", served.url, "--token", served.tokens["bob"], "--ladder", "nope")
    assert result.returncode == 1 and result.stderr.strip() == (
        "Error: the server refused the upload (400): this server has no ladder named 'nope'; its ladders: none yet")


def test_a_body_over_the_limit_is_cut_off_before_it_is_all_sent(served: Served) -> None:
    """A declared 2 GB body is refused on its headers; an undeclared (chunked) one as soon as
    it passes the limit: the client is stopped long before it could send everything."""
    before = everything_below(served.data_dir)
    head = f"POST /api/submissions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {served.tokens['gina']}\r\n"
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(f"{head}Content-Length: {2 * 1024 ** 3}\r\n\r\n".encode())
        answer = ""
        while "bytes" not in answer and (part := sock.recv(65536).decode()):
            answer += part  # the headers and the body may come in two pieces
    assert answer.startswith("HTTP/1.1 413 ") and "larger than this server's limit of 1,048,576 bytes" in answer

    sent, answer, chunk = 0, "", b"\0" * 65536
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(f"{head}Transfer-Encoding: chunked\r\n\r\n".encode())
        try:
            while sent < 2 * 1024 ** 3 and not answer:
                sock.sendall(b"%x\r\n" % len(chunk) + chunk + b"\r\n")
                sent += len(chunk)
                sock.settimeout(0.001)
                try:
                    answer = sock.recv(65536).decode()
                except TimeoutError:
                    pass
                sock.settimeout(30)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server closed the connection: it read no more
    # The 413 may be lost to the reset that the server's close sends back for the bytes still
    # arriving; when it arrived, it says why.
    assert not answer or answer.startswith("HTTP/1.1 413 "), answer
    assert sent < 16 * LIMIT_MIB * 1024 * 1024  # stopped near the limit, not after 2 GB
    assert everything_below(served.data_dir) == before


def test_a_flood_of_refused_uploads_from_one_author_is_limited(served: Served, tmp_path: Path) -> None:
    junk = b"not an archive"
    answers = [request(served, "POST", "/api/submissions", junk, served.tokens["dave"]) for _ in range(REFUSED_FLOOD)]
    assert all(status == 400 for status, _ in answers)
    for body in (junk, pack(bot_named(tmp_path / "b", "daves-bot"))):  # then nothing passes, not even a good one
        status, answer = request(served, "POST", "/api/submissions", body, served.tokens["dave"])
        assert status == 429 and "too many refused or repeated uploads from your account" in str(answer), answer
    assert request(served, "POST", "/api/submissions", junk, served.tokens["alice"])[0] == 400  # others go on


def test_only_new_submissions_count_against_the_uploads_limit(served: Served, tmp_path: Path) -> None:
    token = served.tokens["iris"]
    bots = [pack(bot_named(tmp_path / str(number), "iris-bot", str(number))) for number in range(FLOOD + 1)]
    for number, bot in enumerate(bots[:FLOOD]):
        # A refused upload and the same files again count as refused, not as new submissions
        # (counted together, the 19 uploads would have met the limit of 10 at the sixth bot).
        again = request(served, "POST", "/api/submissions", bots[0] if number % 2 == 0 else b"not an archive", token)
        assert again[0] == (400 if number % 2 else 200 if number else 201), again
        if number:
            status, answer = request(served, "POST", "/api/submissions", bot, token)
            assert status == 201, answer
    status, answer = request(served, "POST", "/api/submissions", bots[FLOOD], token)
    assert status == 429 and f"uploads from your account (limit {FLOOD} new submissions per 1 h)" in str(answer)


def test_stored_bots_are_not_served_by_any_url(served: Served, tmp_path: Path) -> None:
    bot = bot_named(tmp_path / "s", "secret-bot")
    (bot / "bot.py").write_text((bot / "bot.py").read_text() + "\nSECRET = 'do-not-serve-me'\n")
    status, answer = request(served, "POST", "/api/submissions", pack(bot), served.tokens["frank"])
    assert status == 201 and isinstance(answer, dict)
    digest = answer["content_hash"]
    assert (served.data_dir / "bots" / "frank" / "secret-bot" / str(digest) / "bot.py").is_file()
    for path in (f"/bots/frank/secret-bot/{digest}/bot.py", f"/league.db.data/bots/frank/secret-bot/{digest}/bot.py",
                 f"/data/bots/frank/secret-bot/{digest}/bot.py", f"/static/../league.db.data/bots/frank/secret-bot/"
                 f"{digest}/bot.py", f"/static/%2e%2e/%2e%2e/bots/frank/secret-bot/{digest}/bot.py",
                 f"/api/submissions/{answer['id']}/bot.py", f"/api/submissions/{answer['id']}/files",
                 f"/submit/{digest}/bot.py", "/league.db"):
        for token in (None, served.tokens["frank"], served.tokens["alice"]):
            status, body = request(served, "GET", path, token=token)
            assert status == 404 and "do-not-serve-me" not in str(body), (path, status)


def test_arena_submit_says_what_is_wrong_before_and_instead_of_uploading(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    result = submit(str(empty), "--server", "http://127.0.0.1:9", "--token", "t")
    assert result.returncode == 1 and result.stderr.strip() == \
        f"Error: {empty} cannot be submitted: no bot.toml in {empty}: a bot folder holds its manifest"
    result = submit(str(RANDOM_BOT), "--server", f"http://127.0.0.1:{free_port()}", "--token", "t")
    assert result.returncode == 1 and result.stderr.startswith("Error: cannot reach http://127.0.0.1:")
    assert "Connection refused" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    result = submit(str(RANDOM_BOT), "--server", "ftp://example.org", "--token", "t")
    assert result.returncode == 2 and "give the server as http://HOST[:PORT]" in result.stderr


def test_uploads_need_accounts(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", "--uploads", "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "Error: --uploads needs --accounts" in result.output


def test_a_schema_7_league_gains_the_submissions_tables(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Database(path) as db, db.transaction() as conn:
        conn.execute("DROP TABLE submissions")
        conn.execute("DROP TABLE bot_names")
        conn.execute("UPDATE schema_version SET version = 7")
    with Database(path) as db:
        assert db.schema_version() == SCHEMA_VERSION
        tables = {row[0] for row in db.conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert {"submissions", "bot_names"} <= tables


def test_a_bot_for_a_ladder_must_claim_the_ladders_game(tmp_path: Path) -> None:
    """``receive`` on a real league file holding the Yahtzee ladder "dice"."""
    config = load_config(write_config(tmp_path, [RANDOM_BOT]))
    data_dir = tmp_path / "data"
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        author, _ = accounts.add_user(db, "henry")
        gin = bot_named(tmp_path / "gin", "gin-only")
        (gin / "bot.toml").write_text((gin / "bot.toml").read_text().replace('games = ["*"]', 'games = ["gin_rummy"]'))
        with pytest.raises(ArchiveError) as refused:
            receive(db, data_dir, author, pack(gin), ladder="dice")
        assert str(refused.value) == "bot.toml claims games 'gin_rummy'; this ladder plays yahtzee"
        assert everything_below(data_dir) == {"incoming"}  # nothing but the empty staging folder
        found, new = receive(db, data_dir, author, pack(RANDOM_BOT), ladder="dice")
        assert new and found.ladder == "dice" and found.bot_name == "random" and found.state == "received"


def test_arena_submit_of_a_bot_over_the_servers_limit_says_so_before_sending_it(served: Served,
                                                                              tmp_path: Path) -> None:
    """``Expect: 100-continue``: the server refuses on the headers, and its reason arrives (when
    the body was sent regardless, the server's close would reset the connection midway)."""
    bot = bot_named(tmp_path / "big", "big-bot")
    (bot / "data.bin").write_bytes(os.urandom(40 * LIMIT_MIB * 1024 * 1024))  # incompressible, under pack's 50 MiB
    result = submit(str(bot), "--server", served.url, "--token", served.tokens["henry"])
    assert result.returncode == 1 and result.stderr.strip() == (
        "Error: the server refused the upload (413): the upload is larger than this server's limit of 1,048,576 "
        "bytes (1 MiB)")


def test_arena_pack_writes_the_archive_the_server_takes_and_refuses_what_it_would_refuse(
        served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bot = bot_named(tmp_path / "packed", "packed-bot", "2.0")
    for junk in ("__pycache__/bot.cpython-311.pyc", ".venv/bin/python", ".git/HEAD"):
        (bot / junk).parent.mkdir(parents=True, exist_ok=True)
        (bot / junk).write_text("junk")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["pack", str(bot)])
    assert result.exit_code == 0, result.output
    digest = content_hash(bot)
    assert result.output.startswith("wrote packed-bot-2.0.tar.gz: packed-bot@2.0, ") and digest in result.output
    data = (tmp_path / "packed-bot-2.0.tar.gz").read_bytes()
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        assert sorted(tar.getnames()) == ["bot.py", "bot.toml"]  # no cache, venv or .git
    status, answer = request(served, "POST", "/api/submissions", data, served.tokens["erin"])
    assert status == 201 and isinstance(answer, dict) and answer["content_hash"] == digest, answer

    sample = ROOT / "sample_bots" / "cpp" / "random_bot"  # reads ../build, outside its folder
    unnamed = bot_named(tmp_path / "unnamed", "x")  # a name too short to be stored
    bad_language = bot_named(tmp_path / "rusty", "rusty")
    (bad_language / "bot.toml").write_text((bad_language / "bot.toml").read_text().replace('"python"', '"rust"'))
    for folder, reason in ((sample, "[sandbox] read_only '../build' is <the server's uploads>/build, outside"),
                           (unnamed, "bot.toml's name 'x' is not a submitted bot's name (2 to 32 characters"),
                           (bad_language, "bot.toml names language 'rust'; this server builds cpp, go, node, python"),
                           (tmp_path, "no bot.toml in")):
        result = CliRunner().invoke(main, ["pack", str(folder), "-o", str(tmp_path / "refused.tar.gz")])
        assert result.exit_code == 1 and f"Error: {folder} cannot be submitted: " in result.output, result.output
        assert reason in result.output and "Traceback" not in result.output, result.output
    assert not (tmp_path / "refused.tar.gz").exists()


def test_arena_submit_starts_the_bot_first_and_does_not_upload_one_that_fails(served: Served, tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # readable by the sandbox's unprivileged user
    bot = bot_named(tmp_path / "typo", "typo-bot")
    (bot / "bot.py").write_text("import sys\n\ndef decide(observation, legal)\n    return 0\n")
    token = served.tokens["gina"]
    result = submit(str(bot), "--server", served.url, "--token", token, check=True)
    assert result.returncode == 1 and result.stdout == ""
    *output, error = result.stderr.strip().splitlines()
    assert error.startswith(f"Error: {bot} does not pass the start check, not uploaded: bot typo-bot: process exited "
                            "before serving; exited with status 1: SyntaxError: expected ':' (bot.py, line 3)"), error
    assert error.endswith(f"(`arena check-bot {bot}` says more; --no-check uploads it anyway)")
    assert "  |     def decide(observation, legal)" in output and "  | SyntaxError: expected ':'" in output
    assert not (served.data_dir / "bots" / "gina" / "typo-bot").exists()
    result = submit(str(bot), "--server", served.url, "--token", token)  # --no-check: uploaded as it is
    assert result.returncode == 0 and result.stdout.startswith("submitted: submission "), result.stderr
    fixed = bot_named(tmp_path / "fixed", "typo-bot", "1.1")
    result = submit(str(fixed), "--server", served.url, "--token", token, check=True)
    assert result.returncode == 0 and result.stdout.startswith("submitted: submission "), result.stderr
