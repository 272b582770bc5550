"""The submission pipeline (issue 27) on a real league file: real sandboxed builds, real
check-bot and validation matches, a real ``arena submissions work`` process and a real server."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import trueskill
from click.testing import CliRunner
from starlette.testclient import TestClient

from arena.cli import main
from arena.league.ratings import SIGMA, current_ratings, environment, stored_priors, update_ratings
from arena.league.storage import Database, ScheduledMatch
from arena.runs.ladder import load_config, open_ladder
from arena.runs.ladder_store import append_matches, entrants, ladders, set_boss
from arena.web.app import create_app
from arena.submission import accounts
from arena.submission.archive import content_hash, pack
from arena.submission.pipeline import validation_seed, work_once
from arena.submission.submissions import bot_folder, receive
from arena.submission.web_auth import AccountsConfig
from arena.submission.web_submit import UploadsConfig
from tests.web.conftest import Server
from tests.web.test_sign_in import Client
from tests.ladder.helpers import write_config
from tests.tournament.helpers import record

from .test_upload import RANDOM_BOT, ROOT, Served, bot_named, free_port, request, submit

CRASH_ON_FIRST_DECISION = '''
import os
from arena.sdk import run_bot

def decide(observation, legal_actions):
    os._exit(3)

run_bot(decide, name="crasher", version="1.0", games=["*"])
'''


@pytest.fixture()
def league(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Database, Path]]:
    """A league file with the Yahtzee ladder "dice" (tables of 2) and the users ann and ben;
    builds go to a store of the test's own.  The ladder rates with TrueSkill, whose ratings a
    new version's prior carries (the score model refits from every match and takes no prior:
    docs/ratings.md)."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config = load_config(write_config(tmp_path, [RANDOM_BOT], ladder='rating = "trueskill"'))
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        accounts.add_user(db, "ann")
        accounts.add_user(db, "ben")
        yield db, tmp_path / "ladder.db.data"


@contextmanager
def serving(db: Database, db_path: Path, data_dir: Path) -> Iterator[Served]:
    """``arena serve --accounts --uploads`` on the league, with new tokens for ann and ben."""
    tokens = {name: accounts.rotate_token(db, name)[1] for name in ("ann", "ben")}
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(db_path),
                               "--port", str(port), "--accounts", "--uploads"],
                              cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdout is not None
        [server.stdout.readline() for _ in range(3)]
        yield Served(f"http://127.0.0.1:{port}", port, db_path, data_dir, tokens)
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


def dice_entrants(db: Database) -> dict[str, str]:
    return {e.label: e.state for e in entrants(db, ladders(db)[0].id)}


def test_a_python_bot_goes_to_active_and_plays_in_its_ladder_and_work_once_exits(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "anns-bot", "1.0")
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    done = subprocess.run([sys.executable, "-m", "arena.cli", "submissions", "work", "--once", "--db",
                           str(tmp_path / "ladder.db")], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, ARENA_BUILDS=str(tmp_path / "builds")))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"submission {sub.id}: active: active on ladder dice as anns-bot@1.0 (added)")
    assert "left half done" not in done.stdout
    row = db.conn.execute("SELECT state, log_path FROM submissions WHERE id = ?", (sub.id,)).fetchone()
    assert row[0] == "active"
    log = (data_dir / row[1]).read_text()
    assert "== check-bot" in log and "seat 0: finished" in log and "seat 1: finished" in log
    assert dice_entrants(db)["anns-bot@1.0"] == "active"


def test_a_failing_build_fails_with_its_build_log(league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "broken-build")
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text() + "\n[build]\ncommand = [\"{python}\", \"-c\", "
                                  "\"import sys; print('compiler says <no>'); sys.exit(3)\"]\n")
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "failed"
    assert outcome.message.startswith("build failed: bot broken-build: its build exited with status 3")
    log_path = db.conn.execute("SELECT log_path FROM submissions WHERE id = ?", (sub.id,)).fetchone()[0]
    assert "compiler says <no>" in (data_dir / log_path).read_text()
    assert "broken-build@1.0" not in dice_entrants(db)


def test_a_stored_folder_the_build_cannot_hash_fails_the_submission_not_the_worker(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    """A folder changed on disk after the upload (here a link out of it) fails its build step
    with the reason; the worker goes on to the next submission."""
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "tampered")
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text() + "\n[build]\ncommand = [\"{python}\", \"-c\", \"1\"]\n")
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    after, _ = receive(db, data_dir, accounts.user(db, "ben"), pack(bot_named(tmp_path / "c", "bens-bot")), ladder="dice")
    (bot_folder(data_dir, "ann", "tampered", sub.content_hash) / "out").symlink_to("/etc/passwd")
    first, second = work_once(db, data_dir)
    assert (first.id, first.state) == (sub.id, "failed")
    assert first.message.startswith("build failed: bot tampered: cannot hash its folder for the build")
    assert (second.id, second.state) == (after.id, "active")


def test_keeping_one_version_retires_the_older_one(league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    ann = accounts.user(db, "ann")
    first, _ = receive(db, data_dir, ann, pack(bot_named(tmp_path / "v1", "anns-bot", "1.0")), ladder="dice")
    assert [o.state for o in work_once(db, data_dir, keep=1)] == ["active"]
    second_bot = bot_named(tmp_path / "v2", "anns-bot", "2.0")
    (second_bot / "notes.txt").write_text("changed files")
    second, _ = receive(db, data_dir, ann, pack(second_bot), ladder="dice")
    [outcome] = work_once(db, data_dir, keep=1)
    assert outcome.state == "active" and outcome.message.endswith("; retired anns-bot 1.0")
    states = dict(db.conn.execute("SELECT id, state FROM submissions").fetchall())
    assert states == {first.id: "retired", second.id: "active"}
    assert dice_entrants(db) == {"random@1.0": "active", "anns-bot@1.0": "removed", "anns-bot@2.0": "active"}


def test_versions_whose_manifests_spell_the_name_in_another_case_are_one_bot(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    """A bot name is its author's whatever its case, and the submissions keep its first case; each
    version registers its manifest's.  The rating prior and the retirement find the older
    versions all the same."""
    db, data_dir = league
    ann = accounts.user(db, "ann")
    receive(db, data_dir, ann, pack(bot_named(tmp_path / "v1", "Anns-Bot", "1.0")), ladder="dice")
    assert [o.state for o in work_once(db, data_dir, keep=1)] == ["active"]
    bot_id = {f"{b.name}@{b.version}": b.id for b in db.bots()}
    play_on_the_dice_ladder(db, bot_id["Anns-Bot@1.0"], bot_id["random@1.0"], 6)
    for version in ("2.0", "3.0"):
        changed = bot_named(tmp_path / f"v{version}", "anns-bot", version)
        (changed / "notes.txt").write_text(f"changed files {version}")
        receive(db, data_dir, ann, pack(changed), ladder="dice")
        [outcome] = work_once(db, data_dir, keep=1)
        assert outcome.state == "active" and "; rated from mu " in outcome.message, outcome.message
    assert dice_entrants(db) == {"random@1.0": "active", "Anns-Bot@1.0": "removed", "anns-bot@2.0": "removed",
                                 "anns-bot@3.0": "active"}


def play_on_the_dice_ladder(db: Database, winner: int, loser: int, count: int) -> list[int]:
    """``count`` ladder matches (both seatings in turn) that ``winner`` wins, stored as a ladder
    stores them, then the stored table brought up to date as the running ladder does."""
    ladder = ladders(db)[0]
    ids = append_matches(db, ladder, [ScheduledMatch((winner, loser) if k % 2 == 0 else (loser, winner), k, k, k, 0)
                                      for k in range(count)])
    db.store_results([(match_id, record(match_id, [0, 1] if k % 2 == 0 else [1, 0])) for k, match_id in enumerate(ids)])
    update_ratings(db, ladder.game, ladder.variant)
    return ids


def test_a_new_version_starts_from_its_previous_versions_rating_widened(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    ann = accounts.user(db, "ann")
    receive(db, data_dir, ann, pack(bot_named(tmp_path / "v1", "anns-bot", "1.0")), ladder="dice")
    [first] = work_once(db, data_dir)
    assert first.state == "active" and "rated from" not in first.message
    bot_id = {f"{b.name}@{b.version}": b.id for b in db.bots()}
    v1, random_bot = bot_id["anns-bot@1.0"], bot_id["random@1.0"]
    assert stored_priors(db, "yahtzee", "yahtzee") == {}  # a first version starts at the default
    play_on_the_dice_ladder(db, v1, random_bot, 6)
    mu1, sigma1 = current_ratings(db, "yahtzee", "yahtzee")[v1]
    assert mu1 > 30

    second_bot = bot_named(tmp_path / "v2", "anns-bot", "2.0")
    (second_bot / "notes.txt").write_text("changed files")
    receive(db, data_dir, ann, pack(second_bot), ladder="dice")
    [second] = work_once(db, data_dir)
    v2 = {f"{b.name}@{b.version}": b.id for b in db.bots()}["anns-bot@2.0"]
    widened_sigma = min(SIGMA, math.sqrt(sigma1 ** 2 + (SIGMA / 2) ** 2))
    assert second.state == "active"
    assert f"(added); rated from mu {mu1:.2f}, sigma {widened_sigma:.2f} (anns-bot 1.0's rating, widened)" \
        in second.message
    [(prior_mu, prior_sigma)] = [(r.mu, r.sigma) for bot, r in stored_priors(db, "yahtzee", "yahtzee").items()
                                 if bot == v2]
    assert prior_mu == pytest.approx(mu1, abs=1e-9) and prior_sigma == pytest.approx(widened_sigma, abs=1e-9)
    assert SIGMA / 2 < prior_sigma < SIGMA  # the scheduler still seats it first (new_sigma = SIGMA / 2)
    assert current_ratings(db, "yahtzee", "yahtzee")[v2] == (prior_mu, prior_sigma)  # the scheduler's view
    db_path = tmp_path / "ladder.db"
    status = CliRunner().invoke(main, ["ladder", "status", "--format", "json", "--db", str(db_path)])
    assert status.exit_code == 0, status.output
    shown = {e["bot"]: e for e in json.loads(status.output)["entrants"]}
    assert (shown["anns-bot@2.0"]["mu"], shown["anns-bot@2.0"]["sigma"]) == (prior_mu, prior_sigma)
    with TestClient(create_app(db_path)) as client:
        [entrant] = [e for e in client.get(f"/api/ladders/{ladders(db)[0].id}").json()["entrants"]
                     if e["bot"] == "anns-bot@2.0"]
        assert (entrant["mu"], entrant["sigma"], entrant["rank"]) == (prior_mu, prior_sigma, None)

    random_before = trueskill.Rating(*current_ratings(db, "yahtzee", "yahtzee")[random_bot])
    [match_id] = play_on_the_dice_ladder(db, v2, random_bot, 1)  # its first match, won against the random bot
    [(expected,), _] = environment().rate([(trueskill.Rating(prior_mu, prior_sigma),), (random_before,)],
                                          ranks=[0, 1])  # the library, from the prior: the oracle
    for extra in ([], ["--recompute"]):
        table = CliRunner().invoke(main, ["ratings", "--game", "yahtzee", "--format", "json", "--db", str(db_path),
                                          *extra])
        assert table.exit_code == 0, table.output
        row = next(r for r in json.loads(table.output) if (r["bot"], r["version"]) == ("anns-bot", "2.0"))
        assert row["mu"] == pytest.approx(expected.mu, abs=1e-4)
        assert row["sigma"] == pytest.approx(expected.sigma, abs=1e-4)
    with TestClient(create_app(db_path)) as client:
        game = client.get(f"/api/bots/{v2}").json()["games"][0]
        assert game["start"] == {"mu": round(prior_mu, 4), "sigma": round(prior_sigma, 4)}
        [point] = game["history"]
        assert point["match"] == match_id and point["mu"] == pytest.approx(expected.mu, abs=1e-4)
        assert client.get(f"/bots/{v2}").status_code == 200


def test_a_bot_that_crashes_in_validation_fails_and_only_its_author_reads_why(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "crasher")
    (bot / "bot.py").write_text(CRASH_ON_FIRST_DECISION)
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "failed" and outcome.message.startswith("validation failed: check-bot: yahtzee: ")
    assert "crasher@1.0" not in dice_entrants(db)
    with serving(db, tmp_path / "ladder.db", data_dir) as served:
        tokens = served.tokens
        status, text = request(served, "GET", f"/api/submissions/{sub.id}/log", token=tokens["ann"])
        assert status == 200 and isinstance(text, str)
        assert text.startswith(f"submission {sub.id}: crasher 1.0, state failed: validation failed: check-bot")
        assert "== check-bot" in text and "FAIL: yahtzee" in text
        assert request(served, "GET", f"/api/submissions/{sub.id}/log", token=tokens["ben"])[0] == 404
        assert request(served, "GET", f"/api/submissions/{sub.id + 100}/log", token=tokens["ann"])[0] == 404


def test_a_bot_whose_build_succeeds_but_that_crashes_fails_validation_with_its_build_log(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "crasher")
    (bot / "bot.py").write_text(CRASH_ON_FIRST_DECISION)
    (bot / "build.py").write_text("print('built <fine>')\n")
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text() + '\n[build]\ncommand = ["{python}", "build.py"]\n')
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "failed" and outcome.message.startswith("validation failed: check-bot: yahtzee: ")
    log = (data_dir / "logs" / f"{sub.id}.log").read_text()
    assert "== build log\nbuilt <fine>" in log and "FAIL: yahtzee" in log
    assert [path.name for path in (tmp_path / "builds" / "crasher").iterdir() if not path.name.startswith(".")
            and not path.name.endswith(".log")]  # the build was kept: it succeeded
    assert "crasher@1.0" not in dice_entrants(db)


CRASH_AFTER_400_DECISIONS = '''
import os
from arena.sdk import random_decide, run_bot

decisions = 0

def decide(observation, legal_actions):
    global decisions
    decisions += 1
    if decisions > 400:
        os._exit(3)
    return random_decide(observation, legal_actions)

run_bot(decide, name="late-crasher", version="1.0", games=["yaniv"])
'''


def test_a_bot_that_passes_check_bot_but_forfeits_a_validation_match_fails_with_its_record(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """check-bot plays two short Yaniv matches (341 decisions of the checked bot); the ladder's
    full match in seat 0 (ladder seed 9, so validation seed 1925347908 for submission 1)
takes the random policy 755 decisions, so the bot crashes there only."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config_path = tmp_path / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\n[[ladder]]\nname = "cards"\ngame = "yaniv"\nseats = 2\nseed = 9\n'
                           f'bots = ["{RANDOM_BOT}"]\n', encoding="utf-8")
    config = load_config(config_path)
    data_dir = tmp_path / "data"
    bot = bot_named(tmp_path / "b", "late-crasher")
    (bot / "bot.py").write_text(CRASH_AFTER_400_DECISIONS)
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text().replace('games = ["*"]', 'games = ["yaniv"]'))
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        author, _ = accounts.add_user(db, "ann")
        sub, _ = receive(db, data_dir, author, pack(bot), ladder="cards")
        [outcome] = work_once(db, data_dir)
        assert outcome.state == "failed"
        assert outcome.message.startswith("validation failed: validation match in seat 0: forfeited: ")
        log = (data_dir / "logs" / f"{sub.id}.log").read_text()
        assert "check-bot" in log and "FAIL" not in log
        assert f"record: {sub.id}-seat0.json" in log
        # Its author reads this record: its seed is a hash of the ladder's, not the ladder's plus the seat.
        shown = json.loads((data_dir / "logs" / f"{sub.id}-seat0.json").read_text())["seed"]
        assert shown == validation_seed(9, sub.id, 0) and abs(shown - 9) > 2**20
        assert "late-crasher@1.0" not in {e.label for e in entrants(db, ladders(db)[0].id)}
    replayed = CliRunner().invoke(main, ["replay", str(data_dir / "logs" / f"{sub.id}-seat0.json")])
    assert replayed.exit_code == 0, replayed.output


NEEDS_ITS_BUILD = '''
import os
from pathlib import Path
from arena.sdk import random_decide, run_bot

assert Path(os.environ["ARENA_BUILD"], "table.txt").read_text() == "solved"  # no build: no bot
run_bot(random_decide, name="built", version="1.0", games=["*"])
'''


def test_a_bot_with_a_build_step_is_built_once_into_the_store_its_matches_read(
        league: tuple[Database, Path], tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "built")
    (bot / "bot.py").write_text(NEEDS_ITS_BUILD)
    (bot / "build.py").write_text("import os\nopen(os.path.join(os.environ['ARENA_BUILD'], 'table.txt'), 'w')"
                                  ".write('solved')\nprint('table solved')\n")
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text() + '\n[build]\ncommand = ["{python}", "build.py"]\n')
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "active", outcome.message
    assert "== build log\ntable solved" in (data_dir / "logs" / f"{sub.id}.log").read_text()
    assert capfd.readouterr().err.count("arena: building bot built@1.0") == 1
    stored = [path.name for path in (tmp_path / "builds" / "built").iterdir() if not path.name.startswith(".")]
    assert len(stored) == 2  # the outputs and their log
    assert dice_entrants(db)["built@1.0"] == "active"


def test_a_worker_takes_up_what_a_stopped_worker_left_half_done(league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "anns-bot")
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    with db.transaction():
        db.conn.execute("UPDATE submissions SET state = 'validating' WHERE id = ?", (sub.id,))  # its worker was killed
    done = subprocess.run([sys.executable, "-m", "arena.cli", "submissions", "work", "--once", "--db",
                           str(tmp_path / "ladder.db")], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, ARENA_BUILDS=str(tmp_path / "builds")))
    assert done.returncode == 0, done.stderr
    entered = f"submission {sub.id}: active: active on ladder dice as anns-bot@1.0 (added)"
    requeued = "1 submission(s) left half done by a stopped worker: taken up again"
    assert done.stdout.splitlines()[:2] == [requeued, entered]


def test_validation_at_a_table_of_three_seats_the_sample_random_bot_in_both_other_seats(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """One random bot spec fills every other seat (a process per seat): each match finishes."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config_path = tmp_path / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\n[[ladder]]\nname = "dice3"\ngame = "yahtzee"\nseats = 3\n'
                           f'bots = ["{RANDOM_BOT}"]\n', encoding="utf-8")
    config = load_config(config_path)
    data_dir = tmp_path / "data"
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        author, _ = accounts.add_user(db, "ann")
        sub, _ = receive(db, data_dir, author, pack(bot_named(tmp_path / "b", "anns-bot")), ladder="dice3")
        [outcome] = work_once(db, data_dir)
        assert outcome.state == "active", outcome.message
        log = (data_dir / "logs" / f"{sub.id}.log").read_text()
        assert all(f"seat {seat}: finished, 0 faults" in log for seat in range(3))
        assert "seat 3" not in log


def test_a_new_version_retires_older_versions_of_its_own_bot_only(league: tuple[Database, Path], tmp_path: Path) -> None:
    """Issue 34: with nc-webbot 0.1 and nc-mybot 0.2 active, nc-mybot 0.3 retired nc-webbot
    (the author's versions of every bot were counted).  Two versions of nc-mybot are within
    ``--keep`` 2, and nc-webbot is not a version of it: nothing retires.  (The name's case:
    test_versions_whose_manifests_spell_the_name_in_another_case_are_one_bot.)"""
    db, data_dir = league
    ann = accounts.user(db, "ann")
    for name, version in (("nc-webbot", "0.1"), ("nc-mybot", "0.2"), ("nc-mybot", "0.3")):
        bot = bot_named(tmp_path / f"{name}-{version}", name, version)
        (bot / "notes.txt").write_text(f"version {version}")
        receive(db, data_dir, ann, pack(bot), ladder="dice")
        [outcome] = work_once(db, data_dir)
        assert outcome.state == "active" and "retired" not in outcome.message, outcome.message
    assert [state for (state,) in db.conn.execute("SELECT state FROM submissions")] == ["active"] * 3
    assert dice_entrants(db) == {"random@1.0": "active", "nc-webbot@0.1": "active", "nc-mybot@0.2": "active",
                                 "nc-mybot@0.3": "active"}


def test_a_boss_is_never_retired_and_its_authors_page_shows_how_their_bots_fare_against_it(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    """Issue 36: the organiser marks ann's first version a reference bot; her second version
    (``--keep`` 1) retires no boss, and her page lists the second version's head-to-head
    record against it (and against the random bot, marked too), her name escaped."""
    db, data_dir = league
    ann = accounts.user(db, "ann")
    first = bot_named(tmp_path / "v1", "anns-bot", "1.0")
    receive(db, data_dir, ann, pack(first), ladder="dice")
    assert [o.state for o in work_once(db, data_dir, keep=1)] == ["active"]
    ladder = ladders(db)[0]
    ids = {e.label: e.bot_id for e in entrants(db, ladder.id)}
    set_boss(db, ladder.id, ids["anns-bot@1.0"])
    second = bot_named(tmp_path / "v2", "anns-bot", "2.0")
    (second / "notes.txt").write_text("changed files")
    receive(db, data_dir, ann, pack(second), ladder="dice")
    [outcome] = work_once(db, data_dir, keep=1)
    assert outcome.state == "active" and "retired" not in outcome.message, outcome.message
    assert {e.label: (e.state, e.boss) for e in entrants(db, ladder.id)} == {
        "random@1.0": ("active", False), "anns-bot@1.0": ("active", True), "anns-bot@2.0": ("active", False)}
    ids = {e.label: e.bot_id for e in entrants(db, ladder.id)}
    set_boss(db, ladder.id, ids["random@1.0"])
    play_on_the_dice_ladder(db, ids["anns-bot@2.0"], ids["random@1.0"], 3)
    play_on_the_dice_ladder(db, ids["anns-bot@1.0"], ids["anns-bot@2.0"], 2)
    token = accounts.rotate_token(db, "ann")[1]
    with Server(league_path(db), accounts=AccountsConfig(), uploads=UploadsConfig(data_dir)) as server:
        client = Client(server)
        client.sign_in("ann", token)
        status, _, page = client.request("GET", "/submissions")
    assert status == 200, page
    table = page.split("Against the bosses", 1)[1].split("</table>", 1)[0]
    rows = [re.sub(r"<[^>]+>", " ", row).split() for row in table.split("<tr>")[2:]]
    assert rows == [["dice", "anns-bot@2.0", "random@1.0", "3", "3", "0", "0", "1.000"],  # newest first
                    ["dice", "anns-bot@2.0", "anns-bot@1.0", "2", "0", "0", "2", "0.000"],
                    ["dice", "anns-bot@1.0", "random@1.0", "0", "0", "0", "0"]]


def league_path(db: Database) -> Path:
    return Path(db.path)


def test_files_submitted_for_no_ladder_enter_the_ladder_they_are_submitted_again_for(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    """Issue 34: ``arena submit`` of the same files again with ``--ladder`` said "already
    submitted" and left them for no ladder.  They go back to the worker, which validates and
    enters them as a fresh upload for the ladder, SPRT run against the previous version
    included; submitting them again before or after changes nothing."""
    db, data_dir = league
    receive(db, data_dir, accounts.user(db, "ann"), pack(bot_named(tmp_path / "v1", "anns-bot", "1.0")), ladder="dice")
    assert [o.state for o in work_once(db, data_dir)] == ["active"]
    bot = bot_named(tmp_path / "v2", "anns-bot", "2.0")  # for Yahtzee only: validated for no ladder on it alone
    (bot / "bot.toml").write_text((bot / "bot.toml").read_text().replace('games = ["*"]', 'games = ["yahtzee"]'))
    with serving(db, tmp_path / "ladder.db", data_dir) as served:
        args = [str(bot), "--server", served.url, "--token", served.tokens["ann"]]
        plain = submit(*args)
        assert plain.returncode == 0 and plain.stdout.startswith("submitted: submission 2, anns-bot 2.0,"), plain.stderr
        assert [(o.id, o.message) for o in work_once(db, data_dir)] == [(2, "validated; submitted for no ladder")]
        assert "anns-bot@2.0" not in dice_entrants(db)
        line = (f"already submitted, the same files: submission 2, anns-bot 2.0, content hash {content_hash(bot)}, "
                f"state received: submitted again for ladder dice (it was for no ladder): waiting for the worker")
        for _ in range(2):
            again = submit(*args, "--ladder", "dice")
            assert (again.returncode, again.stdout.strip()) == (0, line), again.stderr
        [entered] = work_once(db, data_dir)
        assert (entered.id, entered.state) == (2, "active")
        assert entered.message == "active on ladder dice as anns-bot@2.0 (added)"
        assert dice_entrants(db)["anns-bot@2.0"] == "active"
        assert "== SPRT run 1 against anns-bot@1.0: opened" in (data_dir / "logs" / "2.log").read_text()
        last = submit(*args, "--ladder", "dice")
        assert last.stdout.strip() == line.replace("state received: submitted again for ladder dice (it was for no "
                                                   "ladder): waiting for the worker", f"state active: {entered.message}")
    assert work_once(db, data_dir) == []


def test_a_bot_with_a_syntax_error_fails_with_its_file_line_and_traceback_in_its_log(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "typo")
    (bot / "bot.py").write_text('import sys\n\ndef decide(observation, legal)\n    return 0\n')
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "failed"
    assert "exited with status 1: SyntaxError: expected ':' (bot.py, line 3)" in outcome.message, outcome.message
    log_path = db.conn.execute("SELECT log_path FROM submissions WHERE id = ?", (sub.id,)).fetchone()[0]
    tail = (data_dir / log_path).read_text().split("after its first failure:\n", 1)[1]
    assert "  |     def decide(observation, legal)\n" in tail and "  | SyntaxError: expected ':'\n" in tail
