"""`arena play` and `arena replay` as a user runs them: real processes, real bots."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from arena.sdk import BoundServer, random_decide, serve
from referee.bots import BotSpec
from referee.match import BotConnection

ROOT = Path(__file__).resolve().parents[2]
RANDOM_BOT = str(ROOT / "sample_bots" / "python" / "random_bot")
HEURISTIC = str(ROOT / "sample_bots" / "python" / "yahtzee_heuristic")


def arena(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], capture_output=True, text=True,
                          timeout=timeout, cwd=ROOT)


def assert_one_line_error(result: subprocess.CompletedProcess[str], *fragments: str) -> None:
    assert result.returncode != 0
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for fragment in fragments:
        assert fragment in lines[0]


def test_play_prints_the_log_and_result_and_the_record_replays(tmp_path: Path) -> None:
    log = tmp_path / "match.json"
    result = arena("play", "--game", "yahtzee", "--bot", HEURISTIC, "--bot", RANDOM_BOT, "--seed", "42",
                   "--log-out", str(log))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("seats: 0 yahtzee-heuristic@1.0, 1 random@1.0\n")
    assert "scores" in result.stdout and "rolled" not in result.stdout  # a line per scored box, no rolls
    assert len(result.stdout.splitlines()) < 60
    verbose = arena("play", "--game", "yahtzee", "--bot", HEURISTIC, "--bot", RANDOM_BOT, "--seed", "42", "-v")
    assert "rolled" in verbose.stdout and "rerolls" in verbose.stdout
    as_json = arena("play", "--game", "yahtzee", "--bot", HEURISTIC, "--bot", RANDOM_BOT, "--seed", "42",
                    "--format", "json")
    rows = json.loads(as_json.stdout)
    assert [row["bot"] for row in rows] == ["yahtzee-heuristic@1.0", "random@1.0"]
    assert all(isinstance(row["score"], float) and isinstance(row["rank"], int) for row in rows)
    record = json.loads(log.read_text())
    assert record["game"] == "yahtzee" and record["seed"] == 42 and record["faults"] == []
    replayed = arena("replay", str(log))
    assert replayed.returncode == 0 and "replay OK" in replayed.stdout
    ranks = ", ".join(str(rank + 1) for rank in record["ranking"])  # 1 is the winner, as in every table
    assert replayed.stdout.rstrip().endswith(f"; ranks {ranks})") and ranks in ("1, 2", "2, 1")
    record["moves"][3]["index"] += 1
    log.write_text(json.dumps(record))
    tampered = arena("replay", str(log))
    assert tampered.returncode == 1 and "MISMATCH" in tampered.stdout


def test_a_fixed_seat_count_is_said_once() -> None:
    """Issue 25: "yoninkan is played by 4 to 4 players"; likewise `arena games` said "4-4 players"."""
    assert_one_line_error(arena("play", "--game", "yoninkan", *["--bot", RANDOM_BOT] * 3),
                          "yoninkan is played by 4 players, not 3")
    listed = arena("games")
    assert "yoninkan: variants standard; 4 players (default 4)" in listed.stdout
    assert "yaniv: variants standard; 2 to 8 players (default" in listed.stdout
    markdown = arena("games", "--format", "markdown").stdout
    assert "| jass | schieber | 4 players |" in markdown and "| yahtzee | yahtzee, yams | 1 to 8 players |" in markdown


@pytest.mark.parametrize(("fields", "error"), [
    ('command = 5', "'command' must be a list of strings, e.g. command = [\"{python}\", \"bot.py\"], not an integer"),
    ('command = "touch started"', "'command' must be a list of strings, e.g. command = [\"{python}\", \"bot.py\"], "
                                  "not a string"),
    ('command = ["touch", "started"]\ngames = "yaniv"', "'games' must be a list of strings, e.g. games = [\"yaniv\"] "
                                                          "or [\"*\"], not a string"),
    ('command = ["touch", "started"]\ngames = ["yaniv", 7]', "'games' must be a list of strings, e.g. games = "
                                                              "[\"yaniv\"] or [\"*\"], not a list holding an integer"),
    ('command = ["touch", "started"]\nversion = 1.0', "'version' must be a string, not a number"),
])
@pytest.mark.parametrize("command", [["play", "--game", "yaniv", "--bot", "BOT", "--bot", RANDOM_BOT],
                                     ["check-bot", "BOT"],
                                     ["tournament", "run", "--game", "yaniv", "--bot", "BOT", "--bot", RANDOM_BOT]])
def test_a_manifest_field_of_the_wrong_type_is_a_manifest_error_before_any_bot_starts(
        tmp_path: Path, fields: str, error: str, command: list[str]) -> None:
    """Issue 25: `command = 5` was an internal error, `games = "yaniv"` was taken as ["yaniv"]."""
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.toml").write_text(f'name = "typo"\n{fields}\n')
    db = tmp_path / "t.db"
    args = [str(bot) if arg == "BOT" else arg for arg in command] + ["--sandbox", "none"]
    result = arena(*args, *(["--db", str(db)] if command[0] == "tournament" else []))
    assert_one_line_error(result, f"Error: bot manifest {bot / 'bot.toml'}: {error}")
    assert result.returncode == 1 and result.stdout == ""
    assert not (bot / "started").exists() and not db.exists()


def test_unknown_game_is_a_one_line_error() -> None:
    assert_one_line_error(arena("play", "--game", "chess", "--bot", RANDOM_BOT), "unknown game 'chess'")


def test_missing_manifest_is_a_one_line_error(tmp_path: Path) -> None:
    assert_one_line_error(arena("play", "--game", "yahtzee", "--bot", str(tmp_path)), "no bot manifest")


def test_bad_setting_and_seat_count_are_one_line_errors() -> None:
    assert_one_line_error(arena("play", "--game", "yahtzee", "--variant", "poker", "--bot", RANDOM_BOT),
                          "no variant 'poker'")
    assert_one_line_error(arena("play", "--game", "yahtzee", *["--bot", RANDOM_BOT] * 9), "1 to 8 players")


def test_command_that_does_not_start_is_a_one_line_error(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # readable by the sandbox's unprivileged user
    (tmp_path / "bot.toml").write_text('name = "ghost"\ncommand = ["./no-such-program"]\n')
    assert_one_line_error(arena("play", "--game", "yahtzee", "--bot", str(tmp_path)), "ghost", "no-such-program")


def test_address_with_no_bot_behind_it_is_a_one_line_error() -> None:
    with socket.socket() as listener:  # a port in use by something that is not a bot
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        result = arena("play", "--game", "yahtzee", "--startup-timeout", "1", "--bot", f"127.0.0.1:{port}")
    assert_one_line_error(result, "not SERVING within 1 s")


def test_sdk_reports_a_port_in_use_in_one_line() -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1]
        result = subprocess.run([sys.executable, "bot.py"], cwd=RANDOM_BOT, capture_output=True, text=True,
                                timeout=30, env={"ARENA_BOT_ADDRESS": f"127.0.0.1:{port}", "PATH": "/usr/bin"})
    assert_one_line_error(result, f"cannot listen on 127.0.0.1:{port}")


@pytest.mark.parametrize("args", [["--help"], ["play", "--help"], ["replay", "--help"], ["games"]])
def test_help_and_listing_work(args: list[str]) -> None:
    result = arena(*args)
    assert result.returncode == 0 and result.stdout.strip()


@pytest.fixture
def path_without_bwrap(tmp_path: Path) -> dict[str, str]:
    """An environment whose PATH has util-linux's setpriv and prlimit but no bwrap."""
    import os
    import shutil

    folder = tmp_path / "bin"
    folder.mkdir()
    for tool in ("setpriv", "prlimit"):
        found = shutil.which(tool)
        assert found is not None
        (folder / tool).symlink_to(found)
    return dict(os.environ, PATH=str(folder))


def test_sandbox_bwrap_without_bubblewrap_is_a_one_line_error(path_without_bwrap: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, "-m", "arena.cli", "play", "--game", "yahtzee", "--sandbox", "bwrap",
                             "--bot", RANDOM_BOT, "--bot", RANDOM_BOT], capture_output=True, text=True, timeout=60,
                            cwd=ROOT, env=path_without_bwrap)
    assert_one_line_error(result, "--sandbox bwrap: bubblewrap (bwrap) is not installed", "apt-get install bubblewrap")


def test_sandbox_auto_without_bubblewrap_warns_once_and_plays(path_without_bwrap: dict[str, str]) -> None:
    result = subprocess.run([sys.executable, "-m", "arena.cli", "play", "--game", "yahtzee", "--quiet",
                             "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--log-out", "/dev/stdout"],
                            capture_output=True, text=True, timeout=60, cwd=ROOT, env=path_without_bwrap)
    assert result.returncode == 0, result.stderr
    assert result.stderr.count("WITHOUT a sandbox") == 1
    record = json.loads(result.stdout[:result.stdout.index("\n}\n") + 2])
    assert record["sandbox"]["mode"] == "limits" and record["faults"] == []


# --- issue 11: output paths, bots given by address, bots that never become ready ---------------

def test_log_out_into_a_missing_folder_is_refused_before_the_match() -> None:
    result = arena("play", "--game", "yahtzee", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT,
                   "--log-out", "/nonexistent/dir/m.json")
    assert_one_line_error(result, "--log-out /nonexistent/dir/m.json", "folder /nonexistent/dir does not exist")
    assert result.stdout == "", "no match may be played"


def test_log_out_where_no_file_can_be_made_is_refused_before_the_match() -> None:
    """Issue 25: /proc is a folder that root may "write", yet it takes no files: the match was
    played, then its record went to the temporary folder instead."""
    result = arena("play", "--game", "yahtzee", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--log-out", "/proc/m.json")
    assert_one_line_error(result, "--log-out /proc/m.json: cannot create files in /proc")
    assert result.stdout == ""  # no seats, no match


def test_log_out_naming_a_folder_is_refused(tmp_path: Path) -> None:
    result = arena("play", "--game", "yahtzee", "--bot", RANDOM_BOT, "--log-out", str(tmp_path))
    assert_one_line_error(result, f"--log-out {tmp_path}: is a folder")


def test_log_out_that_fails_at_the_end_keeps_the_result_and_the_record(private_tmp: Path) -> None:
    """/dev/full accepts the open and fails the write (ENOSPC), as a disk that fills up mid-match."""
    result = subprocess.run([sys.executable, "-m", "arena.cli", "play", "--game", "yahtzee", "--quiet", "--seed", "3",
                             "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--log-out", "/dev/full"],
                            capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env=dict(os.environ, TMPDIR=str(private_tmp)))
    assert_one_line_error(result, "could not write the match record to /dev/full (No space left on device)")
    assert "rank" in result.stdout and "random@1.0" in result.stdout, "the result must still be printed"
    saved = result.stderr.strip().split("it is in ")[1].removesuffix(" instead")
    assert Path(saved).parent == private_tmp
    assert json.loads(Path(saved).read_text())["seed"] == 3
    replayed = arena("replay", saved)
    assert replayed.returncode == 0 and "replay OK" in replayed.stdout


@pytest.mark.parametrize("address, reason", [
    ("127.0.0.1:1", "connection refused at 127.0.0.1:1"),
    ("nosuchhost.invalid:5000", "cannot resolve host 'nosuchhost.invalid'"),
    ("127.0.0.1:99999", "port 99999 is out of range (1 to 65535)"),
])
def test_bad_addresses_fail_fast_with_the_real_cause(address: str, reason: str) -> None:
    started = time.monotonic()
    result = arena("play", "--game", "yahtzee", "--startup-timeout", "30", "--bot", address)
    assert_one_line_error(result, reason)
    assert "not SERVING" not in result.stderr
    assert time.monotonic() - started < 15, "must not wait for the start-up timeout"


def test_a_bot_that_starts_listening_late_at_its_address_is_waited_for() -> None:
    """Refusals are only fatal when they last: a bot (re)starting at its address is waited for."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    servers: list[BoundServer] = []
    late = threading.Timer(0.5, lambda: servers.append(serve(random_decide, name="late", version="1",
                                                              address=f"127.0.0.1:{port}")))
    late.start()
    try:
        connection = BotConnection(BotSpec.from_address(f"127.0.0.1:{port}"), 10)
        assert connection.info.name == "late"
        connection.close()
    finally:
        late.join()
        for server in servers:
            server.stop(None)


def test_play_with_a_bot_that_never_becomes_ready_records_the_forfeit(tmp_path: Path, private_tmp: Path) -> None:
    bot = tmp_path / "broken"
    bot.mkdir()
    bot.chmod(0o755)
    (bot / "bot.toml").write_text('name = "broken"\ncommand = ["{python}", "-c", "import sys; '
                                  'print(\'cannot start\'); sys.exit(4)"]\n')
    log = tmp_path / "m.json"
    result = subprocess.run([sys.executable, "-m", "arena.cli", "play", "--game", "yahtzee", "--quiet",
                             "--bot", str(bot), "--bot", RANDOM_BOT, "--log-out", str(log)],
                            capture_output=True, text=True, timeout=120, cwd=ROOT,
                            env=dict(os.environ, TMPDIR=str(private_tmp)))
    assert_one_line_error(result, "seat 0 (broken) forfeited at start-up: bot broken: process exited before "
                                  "serving; exited with status 4: cannot start")
    assert "broken (forfeited)" in result.stdout and f"match record written to {log}" in result.stdout
    record = json.loads(log.read_text())
    assert record["forfeited"] == [0] and [f["kind"] for f in record["faults"]] == ["startup"]
    assert record["ranking"] == [1, 0]
    assert arena("replay", str(log)).returncode == 0
    assert list(private_tmp.iterdir()) == [], "the bots' folders must be removed"


HOSTILE = ROOT / "tests" / "bots"


def test_play_json_gives_the_winner_rank_1() -> None:
    """Issue 25: ``rank`` was 0-based in ``play --format json``, 1-based in tables and the API."""
    result = arena("play", "--game", "yahtzee", "--bot", HEURISTIC, "--bot", RANDOM_BOT, "--seed", "42",
                   "--format", "json")
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert sorted(row["rank"] for row in rows) == [1, 2]
    table = arena("play", "--game", "yahtzee", "--bot", HEURISTIC, "--bot", RANDOM_BOT, "--seed", "42", "-q")
    first = next(line for line in table.stdout.splitlines() if line.strip("│ ").startswith("1 "))
    winner = next(row for row in rows if row["rank"] == 1)
    assert f" {winner['seat']} " in first and winner["bot"] in first  # the table's rank 1 is the JSON's


def test_a_mid_match_forfeit_exits_1_and_the_summary_agrees_with_the_ranking(tmp_path: Path) -> None:
    """Issue 25: the crashing bot is ahead when it dies (seed 1), so the engine ranks it first;
    the summary said "seat 0 wins" beside a table ranking it second, and ``play`` exited 0."""
    log = tmp_path / "m.json"
    result = arena("play", "--game", "yaniv", "--bot", str(HOSTILE / "crash.toml"), "--bot", RANDOM_BOT, "--seed",
                   "1", "--sandbox", "none", "-q", "--log-out", str(log))
    assert_one_line_error(result, "seat 0 (hostile-crash@1.0) forfeited at move ", "process_exit")
    record = json.loads(log.read_text())
    assert record["engine_ranking"] == [0, 1] and record["ranking"] == [1, 0]
    summary = "yaniv (standard), seed 1: seat 1 (random@1.0) wins: seat 0 (hostile-crash@1.0) forfeited"
    assert summary in result.stdout
    as_json = arena("play", "--game", "yaniv", "--bot", str(HOSTILE / "crash.toml"), "--bot", RANDOM_BOT, "--seed",
                    "1", "--sandbox", "none", "--format", "json")
    assert as_json.returncode == 1 and "forfeited at move" in as_json.stderr
    assert [(row["rank"], row["forfeited"]) for row in json.loads(as_json.stdout)] == [(2, True), (1, False)]
    assert arena("replay", str(log)).returncode == 0
    # A record stored before the summary named the winner after forfeits still replays clean;
    # another reason does not.
    engine_says = record["reason"].split("(the engine's result before forfeits: ", 1)[1][:-1]
    for reason, code in ((f"{engine_says}; forfeited: seat 0 (hostile-crash@1.0)", 0), ("seat 0 wins", 1)):
        log.write_text(json.dumps(dict(record, reason=reason)))
        assert arena("replay", str(log)).returncode == code, reason


def test_a_start_up_forfeit_exits_1_like_a_mid_match_one() -> None:
    result = arena("play", "--game", "yahtzee", "--bot", str(HOSTILE / "never-healthy.toml"), "--bot", RANDOM_BOT,
                   "--sandbox", "none", "--startup-timeout", "1", "-q")
    assert_one_line_error(result, "seat 0 (hostile-never-healthy@1.0) forfeited at start-up")
    assert "hostile-never-healthy@1.0 (forfeited)" in result.stdout


def test_a_bot_that_is_not_built_gets_the_build_step(tmp_path: Path) -> None:
    """sample_bots/cpp/random_bot before `./dev build-bots`: its program is missing.  (A copy
    of its manifest, without the [sandbox] table, so that the test does not depend on whether
    the build has run.)"""
    bot = tmp_path / "cpp" / "random_bot"
    bot.mkdir(parents=True)
    tmp_path.chmod(0o755)
    manifest = (ROOT / "sample_bots" / "cpp" / "random_bot" / "bot.toml").read_text()
    (bot / "bot.toml").write_text(manifest.split("[sandbox]")[0])
    result = arena("play", "--game", "yahtzee", "--quiet", "--bot", str(bot))
    assert_one_line_error(result, "bot random-cpp: its program ../build/random_bot does not exist",
                          "build it first: ./dev build-bots cpp")


@pytest.mark.parametrize("folder", ["cpp/random_bot", "go/random_bot", "node/random_bot", "node/yahtzee_heuristic"])
def test_sample_bots_that_need_building_name_their_build_step_as_the_readme_does(folder: str) -> None:
    """Issue 34: the hint said `sample_bots/build.sh cpp` where the README says `./dev build-bots`."""
    language = folder.split("/")[0]
    spec = BotSpec.from_manifest(ROOT / "sample_bots" / folder)
    assert spec.build == f"./dev build-bots {language}"
    assert "./dev build-bots" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "[node|cpp|go ...]" in (ROOT / "dev").read_text(encoding="utf-8")


def test_a_dying_node_bot_is_quoted_by_its_error_not_the_node_version_footer(tmp_path: Path) -> None:
    bot = tmp_path / "node-bot"
    bot.mkdir(parents=True)
    tmp_path.chmod(0o755)
    bot.chmod(0o755)
    (bot / "bot.js").write_text("require('no-such-module-for-arena');\n")
    (bot / "bot.toml").write_text('name = "dies"\ncommand = ["node", "bot.js"]\n')
    result = arena("play", "--game", "yahtzee", "--quiet", "--bot", str(bot))
    assert_one_line_error(result, "exited with status 1: Error: Cannot find module 'no-such-module-for-arena'")
    assert "Node.js v" not in result.stderr


@pytest.fixture(scope="module")
def played_record(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    log = tmp_path_factory.mktemp("record") / "m.json"
    result = arena("play", "--game", "yahtzee", "--quiet", "--bot", RANDOM_BOT, "--bot", RANDOM_BOT, "--seed", "5",
                   "--log-out", str(log))
    assert result.returncode == 0, result.stderr
    return json.loads(log.read_text())


def test_replay_of_a_file_holding_a_list_is_a_one_line_error(tmp_path: Path) -> None:
    (tmp_path / "m.json").write_text("[1,2]")
    assert_one_line_error(arena("replay", str(tmp_path / "m.json")), "match record must be an object, not a list")


def test_replay_of_a_string_where_an_index_belongs_is_a_one_line_error(tmp_path: Path,
                                                                       played_record: dict[str, object]) -> None:
    record = json.loads(json.dumps(played_record))
    record["moves"][0]["index"] = "0"
    (tmp_path / "m.json").write_text(json.dumps(record))
    assert_one_line_error(arena("replay", str(tmp_path / "m.json")), "moves[0].index must be a whole number")


@pytest.mark.parametrize("junk", ["[" * 100_000, "\xff\xfe", "", '{"format": 1}'])
def test_replay_of_junk_is_a_one_line_error(tmp_path: Path, junk: str) -> None:
    (tmp_path / "m.json").write_bytes(junk.encode("latin-1"))
    assert_one_line_error(arena("replay", str(tmp_path / "m.json")), "cannot replay")


def test_replay_of_an_edited_status_or_a_lost_player_is_a_mismatch(tmp_path: Path,
                                                                    played_record: dict[str, object]) -> None:
    status = json.loads(json.dumps(played_record))
    status["moves"][2]["status"] = "timeout"
    (tmp_path / "status.json").write_text(json.dumps(status))
    result = arena("replay", str(tmp_path / "status.json"))
    assert result.returncode == 1 and "replay MISMATCH: move 2: status timeout needs a timeout fault" in result.stdout
    player = json.loads(json.dumps(played_record))
    player["players"].pop()
    (tmp_path / "player.json").write_text(json.dumps(player))
    result = arena("replay", str(tmp_path / "player.json"))
    assert result.returncode == 1 and "replay MISMATCH: the record lists 1 player for 2 seats" in result.stdout
