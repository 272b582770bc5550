"""What an author sees of a new version's SPRT run: ``GET /api/submissions/ID/sprt`` and the
page ``/submissions/ID/sprt`` on the real app (uvicorn on loopback), with runs played by the
real worker functions on real bots, and the page following its run in headless Chromium."""

from __future__ import annotations

import http.client
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.league.storage import Database
from arena.runs.ladder import load_config, open_ladder
from arena.submission import accounts
from arena.submission.archive import pack
from arena.submission.pipeline import work_once
from arena.submission.sprt_play import play_batch
from arena.submission.sprt_runs import SprtSettings, oldest_open, run_of
from arena.submission.submissions import receive
from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig
from referee.sandbox import SandboxConfig, SandboxMode
from tests.ladder.helpers import write_config
from tests.submission.test_sprt_runs import new_version
from tests.submission.test_upload import RANDOM_BOT

from .conftest import Server
from .test_sign_in import Client

HTML_VERSION = "2.0<script>alert(2)</script>"


@dataclass
class Runs:
    server: Server
    db: Database
    tokens: dict[str, str]
    first: int
    """ann's first version of "anns-bot": no run."""
    tested: int
    """Its second version (an HTML version label): its run has one batch of two pairs stored."""
    followed: int
    """The second version of "anns-dice": its run is open, nothing stored yet."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Runs]:
    folder = tmp_path_factory.mktemp("sprt")
    config = load_config(write_config(folder, [RANDOM_BOT], extra="keep_alive = true"))
    data_dir = folder / "ladder.db.data"
    with pytest.MonkeyPatch.context() as env, Database(config.db) as db:
        env.setenv("ARENA_BUILDS", str(folder / "builds"))
        open_ladder(db, config.ladders[0], config)
        tokens = {name: accounts.add_user(db, name, admin=name == "root")[1] for name in ("ann", "ben", "root")}
        ann = accounts.user(db, "ann")
        ids = [receive(db, data_dir, ann, pack(new_version(folder / f"{name}-{version}", name, version)),
                       ladder="dice")[0].id
               for name, version in (("anns-bot", "1.0"), ("anns-bot", HTML_VERSION), ("anns-dice", "1.0"),
                                     ("anns-dice", "2.0"))]
        outcomes = work_once(db, data_dir, sandbox=SandboxConfig(SandboxMode.NONE), sprt=SprtSettings(max_pairs=4))
        assert [o.state for o in outcomes] == ["active"] * 4, outcomes
        first_run = oldest_open(db)
        assert first_run is not None and first_run.submission_id == ids[1]
        assert play_batch(db, first_run, pairs=2).pairs == 2
        with Server(config.db, accounts=AccountsConfig(), uploads=UploadsConfig(data_dir=data_dir)) as server:
            yield Runs(server, db, tokens, ids[0], ids[1], ids[3])


def get(runs: Runs, path: str, token: str | None = None) -> tuple[int, dict | str]:
    conn = http.client.HTTPConnection("127.0.0.1", runs.server.port, timeout=30)
    try:
        conn.request("GET", path, headers={"Authorization": f"Bearer {token}"} if token else {})
        response = conn.getresponse()
        text = response.read().decode()
    finally:
        conn.close()
    return response.status, json.loads(text) if response.getheader("content-type") == "application/json" else text


def test_the_author_reads_the_run_as_json(runs: Runs) -> None:
    status, run = get(runs, f"/api/submissions/{runs.tested}/sprt", runs.tokens["ann"])
    assert status == 200 and isinstance(run, dict)
    assert (run["submission"], run["old_submission"], run["game"], run["ladder"]) == (
        runs.tested, runs.first, "yahtzee", "dice")
    assert run["new"]["bot"] == f"anns-bot@{HTML_VERSION}" and run["old"]["bot"] == "anns-bot@1.0"
    assert (run["elo0"], run["elo1"], run["alpha"], run["beta"], run["max_pairs"]) == (0.0, 10.0, 0.05, 0.05, 4)
    assert (run["test"], run["elo_unit"]) == ("normalized", "normalized") and run["describe"].startswith("normalized")
    assert run["lower"] == pytest.approx(-2.944, abs=1e-3) and run["upper"] == pytest.approx(2.944, abs=1e-3)
    assert run["pairs"] == run["played"] == sum(run["pentanomial"]) == 2 and len(run["pentanomial"]) == 5
    assert run["history"] == [{"pairs": 2, "llr": run["llr"]}]
    assert run["verdict"] is None and run["running"] is True and run["finished_at"] is None
    assert 0 <= run["score"] <= 1
    assert run["created_at"].endswith("+00:00") and run["changed_at"].endswith("+00:00")  # ISO 8601 UTC (issue 34)


def test_only_the_author_and_an_admin_see_a_run(runs: Runs) -> None:
    path = f"/api/submissions/{runs.tested}/sprt"
    assert get(runs, path, runs.tokens["root"])[0] == 200
    assert get(runs, path, runs.tokens["ben"]) == (404, {"error": "no such submission"})
    assert get(runs, f"/api/submissions/{runs.tested + 100}/sprt", runs.tokens["ann"]) == (
        404, {"error": "no such submission"})
    assert get(runs, path)[0] == 401
    status, answer = get(runs, f"/api/submissions/{runs.first}/sprt", runs.tokens["ann"])
    assert status == 404 and "first version of its bot" in str(answer)
    ben = Client(runs.server)
    assert ben.sign_in("ben", runs.tokens["ben"])[0] == 303
    assert ben.request("GET", f"/submissions/{runs.tested}/sprt")[0] == 404
    assert ben.request("GET", f"/api/submissions/{runs.tested}/sprt")[0] == 404
    anonymous = Client(runs.server)
    status, headers, _ = anonymous.request("GET", f"/submissions/{runs.tested}/sprt")
    assert status == 303 and headers["location"] == f"/sign-in?next=%2Fsubmissions%2F{runs.tested}%2Fsprt"


def test_the_page_draws_the_llr_and_escapes_the_bot_names(runs: Runs) -> None:
    ann = Client(runs.server)
    assert ann.sign_in("ann", runs.tokens["ann"])[0] == 303
    status, _, page = ann.request("GET", f"/submissions/{runs.tested}/sprt")
    assert status == 200
    assert "<script>alert" not in page and page.count("anns-bot@2.0&lt;script&gt;alert(2)&lt;/script&gt;") >= 3
    assert '<svg class="chart llr"' in page and "<polyline" in page and "2 pairs</text>" in page
    assert "stronger at 2.94" in page and "not stronger at -2.94" in page
    assert "2 counted of 2 played (at most 4)" in page and "<strong>Running</strong>" in page
    run = run_of(runs.db, runs.tested)
    assert run is not None and f'<td id="test">{run.test.describe()}</td>' in page  # the page says which test
    assert "(normalized), alpha 0.05" in page
    status, _, page = ann.request("GET", f"/submissions/{runs.tested}")  # the submission's page links its run
    assert status == 200 and f'href="/submissions/{runs.tested}/sprt">SPRT against the previous version: running' in page


def test_the_page_follows_its_run_until_the_verdict(runs: Runs, page) -> None:
    url = runs.server.url
    page.goto(f"{url}/sign-in")
    page.get_by_label("name").fill("ann")
    page.get_by_label("token").fill(runs.tokens["ann"])
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(f"{url}/")
    page.goto(f"{url}/submissions/{runs.followed}/sprt")
    assert "0 counted of 0 played" in page.locator("#pairs").inner_text()
    page.wait_for_selector("#live:has-text('(live)')")
    run = run_of(runs.db, runs.followed)
    assert run is not None
    play_batch(runs.db, run, pairs=2)  # the worker stores a batch: the page reloads and shows it
    page.wait_for_selector("#pairs:has-text('2 counted of 2 played')", timeout=15000)
    run = run_of(runs.db, runs.followed)
    assert run is not None
    assert play_batch(runs.db, run, pairs=2).verdict == "undecided"
    page.wait_for_selector("#verdict:has-text('undecided')", timeout=15000)
    assert "the pair limit (4) was reached" in page.locator("#verdict").inner_text()
    assert page.locator("svg.chart.llr polyline").count() == 1
    assert page.dialogs == [] and page.errors == []
