"""`arena play` and `arena replay` as a user runs them: real processes, real bots."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import pytest

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
    assert "rolled" in result.stdout and "yahtzee-heuristic" in result.stdout
    record = json.loads(log.read_text())
    assert record["game"] == "yahtzee" and record["seed"] == 42 and record["faults"] == []
    replayed = arena("replay", str(log))
    assert replayed.returncode == 0 and "replay OK" in replayed.stdout
    record["moves"][3]["index"] += 1
    log.write_text(json.dumps(record))
    tampered = arena("replay", str(log))
    assert tampered.returncode == 1 and "MISMATCH" in tampered.stdout


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
