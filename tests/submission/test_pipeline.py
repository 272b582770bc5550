"""The submission pipeline (issue 27) on a real league file: real sandboxed builds, real
check-bot and validation matches, a real ``arena submissions work`` process and a real server."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.league.storage import Database
from arena.runs.ladder import load_config, open_ladder
from arena.runs.ladder_store import entrants, ladders
from arena.submission import accounts
from arena.submission.archive import pack
from arena.submission.pipeline import work_once
from arena.submission.submissions import receive
from tests.ladder.helpers import write_config

from .test_upload import RANDOM_BOT, ROOT, Served, bot_named, free_port, request

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
    builds go to a store of the test's own."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config = load_config(write_config(tmp_path, [RANDOM_BOT]))
    with Database(config.db) as db:
        open_ladder(db, config.ladders[0], config)
        accounts.add_user(db, "ann")
        accounts.add_user(db, "ben")
        yield db, tmp_path / "ladder.db.data"


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


def test_a_bot_that_crashes_in_validation_fails_and_only_its_author_reads_why(
        league: tuple[Database, Path], tmp_path: Path) -> None:
    db, data_dir = league
    bot = bot_named(tmp_path / "b", "crasher")
    (bot / "bot.py").write_text(CRASH_ON_FIRST_DECISION)
    sub, _ = receive(db, data_dir, accounts.user(db, "ann"), pack(bot), ladder="dice")
    [outcome] = work_once(db, data_dir)
    assert outcome.state == "failed" and outcome.message.startswith("validation failed: check-bot: yahtzee: ")
    assert "crasher@1.0" not in dice_entrants(db)
    tokens = {name: accounts.rotate_token(db, name)[1] for name in ("ann", "ben")}
    port = free_port()
    server = subprocess.Popen([sys.executable, "-m", "arena.cli", "serve", "--db", str(tmp_path / "ladder.db"),
                               "--port", str(port), "--accounts", "--uploads"],
                              cwd=ROOT, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert server.stdout is not None
        [server.stdout.readline() for _ in range(3)]
        served = Served(f"http://127.0.0.1:{port}", port, tmp_path / "ladder.db", data_dir, tokens)
        status, text = request(served, "GET", f"/api/submissions/{sub.id}/log", token=tokens["ann"])
        assert status == 200 and isinstance(text, str)
        assert text.startswith(f"submission {sub.id}: crasher 1.0, state failed: validation failed: check-bot")
        assert "== check-bot" in text and "FAIL: yahtzee" in text
        assert request(served, "GET", f"/api/submissions/{sub.id}/log", token=tokens["ben"])[0] == 404
        assert request(served, "GET", f"/api/submissions/{sub.id + 100}/log", token=tokens["ann"])[0] == 404
    finally:
        server.send_signal(signal.SIGINT)
        server.communicate(timeout=30)


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
    full match in seat 0 with seed 6 takes the random policy 733, so the bot crashes there only."""
    monkeypatch.setenv("ARENA_BUILDS", str(tmp_path / "builds"))
    config_path = tmp_path / "ladder.toml"
    config_path.write_text(f'db = "ladder.db"\n[[ladder]]\nname = "cards"\ngame = "yaniv"\nseats = 2\nseed = 6\n'
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
