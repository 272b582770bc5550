"""An author's own pages and the bot's own words (issue 27): a real worker, a real tournament
and a real server on one league file, with two authors and an admin.

ann submits two bots that print a secret to stderr and crash: ``late-leaky`` passes
check-bot and forfeits its validation match in seat 0 (its record and output are kept), and
``leaky`` is entered and plays a real tournament, where it crashes in every match.  The
secret must reach ann and the admin, and nobody else, on any route that shows a match."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from arena.submission.archive import pack
from arena.submission.pipeline import work_once
from arena.submission.submissions import receive
from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig
from arena.web.bot_output import HIDDEN

from tests.submission.test_upload import RANDOM_BOT, bot_named
from .conftest import ROOT, XSS_VERSION, Server
from .test_sign_in import Client

SECRET = "SECRET-5eed-f00d"
HTML_OUTPUT = "<script>alert(7)</script>"


def leaky_source(name: str, crash_after: int, first_line: str = "") -> str:
    """A random Yaniv bot that prints ``first_line`` (if any) as it starts, then the secret to
    stderr and dies at its decision ``crash_after + 1``."""
    greeting = f"print({first_line!r}, flush=True)\n" if first_line else ""
    return f'''
import os, sys
from arena.sdk import random_decide, run_bot

{greeting}decisions = 0

def decide(observation, legal_actions):
    global decisions
    decisions += 1
    if decisions > {crash_after}:
        print("RuntimeError: {SECRET}", file=sys.stderr, flush=True)
        os._exit(3)
    return random_decide(observation, legal_actions)

run_bot(decide, name="{name}", version="1.0", games=["yaniv"])
'''


LATE_LEAKY = leaky_source("late-leaky", 400, HTML_OUTPUT)
"""check-bot plays two short Yaniv matches (341 decisions of the checked bot); the ladder's
full match in seat 0 (ladder seed 9, so validation seed 1925347908 for submission 1)
takes the random policy 755 decisions, so the bot crashes there only
(as in tests/submission/test_pipeline.py)."""
LEAKY = leaky_source("leaky", 3)


@dataclass
class League:
    server: Server
    tokens: dict[str, str]
    data_dir: Path
    failed: int
    """ann's submission that failed validation in seat 0."""
    entered: int
    """ann's entered submission, whose bot crashed in the tournament."""
    matches: list[int]
    tournament: int
    ladder: int
    leaky_bot: int


def bot(folder: Path, name: str, code: str, version: str = "1.0") -> Path:
    made = bot_named(folder, name, version)
    (made / "bot.py").write_text(code, encoding="utf-8")
    (made / "bot.toml").write_text((made / "bot.toml").read_text().replace('games = ["*"]', 'games = ["yaniv"]'))
    return made


@pytest.fixture(scope="module")
def league(tmp_path_factory: pytest.TempPathFactory) -> Iterator[League]:
    folder = tmp_path_factory.mktemp("authors")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ARENA_BUILDS", str(folder / "builds"))
        config_path = folder / "ladder.toml"
        config_path.write_text(f'db = "ladder.db"\n[[ladder]]\nname = "cards"\ngame = "yaniv"\nseats = 2\nseed = 9\n'
                               f'bots = ["{RANDOM_BOT}"]\n', encoding="utf-8")
        config = load_config(config_path)
        data_dir = folder / "data"
        with Database(config.db) as db:
            open_ladder(db, config.ladders[0], config)
            tokens = {name: accounts.add_user(db, name, admin=name == "root")[1] for name in ("ann", "ben", "root")}
            ann = accounts.user(db, "ann")
            failed, _ = receive(db, data_dir, ann, pack(bot(folder / "late", "late-leaky", LATE_LEAKY, XSS_VERSION)),
                                ladder="cards")
            [outcome] = work_once(db, data_dir)
            assert outcome.state == "failed" and "validation match in seat 0: forfeited" in outcome.message
            entered, _ = receive(db, data_dir, ann, pack(bot(folder / "leaky", "leaky", LEAKY)), ladder="cards")
            with db.transaction():  # leaky would fail check-bot: enter it as the worker's last step leaves it
                db.conn.execute("UPDATE submissions SET state = 'active' WHERE id = ?", (entered.id,))
            stored = data_dir / "bots" / "ann" / "leaky" / entered.content_hash
            ladder = db.conn.execute("SELECT id FROM tournaments").fetchone()[0]
        run = subprocess.run([sys.executable, "-m", "arena.cli", "tournament", "run", "--game", "yaniv", "--bot",
                              str(stored), "--bot", str(RANDOM_BOT), "--seed", "3", "--workers", "1",
                              "--db", str(config.db)], cwd=ROOT, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stdout + run.stderr
        with Database(config.db) as db:
            tournament = db.conn.execute("SELECT MAX(id) FROM tournaments").fetchone()[0]
            matches = [row[0] for row in db.conn.execute("SELECT id FROM matches WHERE tournament_id = ?",
                                                         (tournament,))]
            leaky_bot = db.conn.execute("SELECT id FROM bots WHERE name = 'leaky'").fetchone()[0]
            details = [f.detail for m in matches for f in db.match_record(m).faults]  # type: ignore[union-attr]
        assert matches and any(SECRET in detail for detail in details)  # the referee quotes the bot
        with Server(config.db, accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=data_dir)) as server:
            yield League(server, tokens, data_dir, failed.id, entered.id, matches, tournament, ladder, leaky_bot)


def signed_in(league: League, name: str) -> Client:
    client = Client(league.server)
    assert client.sign_in(name, league.tokens[name])[0] == 303
    return client


def get(client: Client, path: str, token: str | None = None) -> tuple[int, str]:
    status, _, text = client.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else None)
    return status, text


def match_routes(league: League) -> list[str]:
    """Every route that shows a match, its faults or its bots."""
    routes = ["/", "/matches", "/api/matches", "/tournaments", "/api/tournaments", "/api/games",
              f"/tournaments/{league.tournament}",
              f"/api/tournaments/{league.tournament}", f"/bots/{league.leaky_bot}", f"/api/bots/{league.leaky_bot}",
              "/ladders", f"/ladders/{league.ladder}", f"/api/ladders/{league.ladder}", "/games/yaniv/standard",
              "/api/games/yaniv/standard/ratings", "/api/games/yaniv/standard/h2h",
              f"/matches?bot={league.leaky_bot}&faults=yes"]
    for match in league.matches:
        routes += [f"/matches/{match}", f"/api/matches/{match}",
                   *(f"/api/matches/{match}/replay?view={view}" for view in ("table", "0", "1")),
                   f"/api/matches/{match}/replay?view=table&from=0&count=40"]
    return routes


def test_the_bots_own_words_reach_its_author_and_admins_and_nobody_else(league: League) -> None:
    author, admin = signed_in(league, "ann"), signed_in(league, "root")
    # The author asks first: a cached replay page must not then reach the others.
    for match in league.matches:
        for reader in (author, admin):
            assert SECRET in get(reader, f"/api/matches/{match}")[1]
            assert SECRET in get(reader, f"/api/matches/{match}/replay?view=table")[1]
        assert SECRET in get(Client(league.server), f"/api/matches/{match}", league.tokens["ann"])[1]  # by token
    others = [(Client(league.server), None), (signed_in(league, "ben"), None), (Client(league.server),
                                                                               league.tokens["ben"])]
    routes = match_routes(league)
    for client, token in others:
        for route in routes:
            status, text = get(client, route, token)
            assert status == 200, (route, status, text[:300])
            assert SECRET not in text, (route, token)
    anonymous = Client(league.server)
    record = json.loads(get(anonymous, f"/api/matches/{league.matches[0]}")[1])["record"]
    crashes = [f for f in record["faults"] if f["kind"] == "process_exit"]
    assert crashes and all(f["detail"] == HIDDEN for f in crashes)  # the kind stays, the text goes
    assert "process_exit" in get(anonymous, f"/api/matches/{league.matches[0]}/replay?view=table")[1]


def test_a_wrong_token_on_a_match_is_a_401_not_a_quiet_anonymous_answer(league: League) -> None:
    status, text = get(Client(league.server), f"/api/matches/{league.matches[0]}", "arena_0123456789ab_wrong")
    assert status == 401 and SECRET not in text


def test_the_author_sees_their_submissions_and_another_author_gets_404_on_every_route(league: League) -> None:
    author, other, admin = signed_in(league, "ann"), signed_in(league, "ben"), signed_in(league, "root")
    status, listing = get(author, "/submissions")
    assert status == 200 and f'href="/submissions/{league.failed}"' in listing and "late-leaky" in listing
    assert "&lt;i&gt;1&lt;/i&gt;" in listing and "<i>1</i>" not in listing  # the version label, escaped
    status, theirs = get(other, "/submissions")
    assert status == 200 and "leaky" not in theirs and "None yet." in theirs
    assert "late-leaky" in get(admin, "/submissions")[1] and '<td class="user-name">ann</td>' in get(admin, "/submissions")[1]
    routes = [f"/submissions/{league.failed}", f"/submissions/{league.failed}/validation/0",
              f"/api/submissions/{league.failed}/validation/0/replay", f"/api/submissions/{league.failed}/log"]
    for route in routes:
        assert get(author, route)[0] == 200, route
        assert get(admin, route)[0] == 200, route
        status, text = get(other, route)
        assert status == 404 and SECRET not in text, route
        by_token = get(Client(league.server), route, league.tokens["ben"])[0]
        assert by_token == (404 if route.startswith("/api/") else 303), route  # pages go by session only
    missing = [f"/submissions/{league.failed + 99}", f"/submissions/{league.failed}/validation/1",
               f"/api/submissions/{league.failed}/validation/1/replay"]
    assert all(get(author, route)[0] == 404 for route in missing)
    # Not signed in: the pages send to the sign-in form, whatever the id; the API wants a token.
    for route in routes[:2]:
        status, _, _ = Client(league.server).request("GET", route)
        assert status == 303
    assert get(Client(league.server), routes[2])[0] == 401


def test_the_submission_page_shows_the_log_the_bots_output_and_links_the_replay_and_sprt(league: League) -> None:
    author = signed_in(league, "ann")
    status, page = get(author, f"/submissions/{league.failed}")
    assert status == 200
    assert "validation failed: validation match in seat 0: forfeited" in page
    assert "== check-bot" in page and f"record: {league.failed}-seat0.json" in page  # the log
    output = page.split('<pre class="bot-output">', 1)[1].split("</pre>", 1)[0]
    assert f"RuntimeError: {SECRET}" in output  # the bot's stderr, captured in the validation match
    assert "&lt;script&gt;alert(7)&lt;/script&gt;" in output and HTML_OUTPUT not in page  # its stdout, escaped
    assert f'href="/submissions/{league.failed}/validation/0"' in page
    assert f'href="/submissions/{league.failed}/sprt"' not in page  # a failed first version: no SPRT run
    status, header = get(author, "/submit")
    assert f'href="/submissions/{league.failed}"' in header and 'href="/submissions"' in header


def test_the_validation_replay_opens_in_the_viewer_for_its_author(league: League, page) -> None:
    server = league.server
    page.goto(f"{server.url}/sign-in")
    page.get_by_label("name").fill("ann")
    page.get_by_label("token").fill(league.tokens["ann"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{server.url}/")
    page.get_by_role("link", name="Submissions").click()
    page.wait_for_url(f"{server.url}/submissions")
    page.get_by_role("link", name="late-leaky").click()
    page.get_by_role("link", name="replay this match").click()
    page.wait_for_url(f"{server.url}/submissions/{league.failed}/validation/0")
    page.wait_for_selector("#replay[data-ready]")
    record = json.loads((league.data_dir / "logs" / f"{league.failed}-seat0.json").read_text())
    assert page.locator("#step-counter").inner_text() == f"step 0/{len(record['moves'])}"
    [crash] = [f for f in record["faults"] if f["kind"] == "process_exit"]
    page.goto(f"{server.url}/submissions/{league.failed}/validation/0?step={crash['decision'] + 1}")
    page.wait_for_selector("#replay[data-ready]")
    move = page.locator("#move").inner_text()
    assert re.search(r"fault: process_exit: exited with status 3: RuntimeError: " + SECRET, move), move
    assert page.locator("#board").inner_html() != ""
    assert page.dialogs == [] and page.errors == []


def test_only_the_kinds_that_quote_the_bot_are_hidden() -> None:
    """A timeout's or an invalid answer's detail is the referee's own words: everyone reads it."""
    from arena.web.bot_output import shown_faults

    faults = [{"seat": 0, "kind": kind, "detail": f"{kind} text", "decision": 1}
              for kind in ("timeout", "invalid", "error", "process_exit", "startup")]
    shown = {f["kind"]: f["detail"] for f in shown_faults(faults, frozenset())}
    assert shown == {"timeout": "timeout text", "invalid": "invalid text", "error": HIDDEN,
                     "process_exit": HIDDEN, "startup": HIDDEN}
    assert shown_faults(faults, frozenset({0})) == faults and shown_faults(faults, None) == faults
