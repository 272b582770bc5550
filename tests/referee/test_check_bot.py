"""`arena check-bot` passes the sample bots and fails broken ones for the right reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots import TAIL_LINES
from tests.referee.script_bots import script_bot

ROOT = Path(__file__).resolve().parents[2]
PYTHON_BOTS = ROOT / "sample_bots" / "python"
SAMPLE_MANIFESTS = sorted(p.parent for p in (ROOT / "sample_bots").rglob("bot.toml") if "node_modules" not in p.parts)


def check_bot(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena.cli", "check-bot", *args, "--move-timeout", "0.5",
                           "--time-bank", "1", "--startup-timeout", "20"],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)


def test_every_sample_bot_is_checked() -> None:
    languages = {path.parent.name for path in SAMPLE_MANIFESTS}
    assert {"python", "node", "cpp", "go"} <= languages and len(SAMPLE_MANIFESTS) >= 7


@pytest.mark.parametrize("bot", SAMPLE_MANIFESTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_bot_passes(bot: Path) -> None:
    """Node, C++ and Go bots need ./dev build-bots first (./dev test runs it)."""
    result = check_bot(str(bot))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "all checks passed" in result.stdout and "median ms" in result.stdout


def test_bot_answering_out_of_range_fails_as_invalid() -> None:
    result = check_bot(str(ROOT / "tests" / "bots" / "bad-index.toml"), "--game", "yahtzee")
    assert result.returncode == 1
    assert "FAIL: yahtzee: invalid at decision 0: index" in result.stdout
    assert "check-bot: FAILED" in result.stdout


def test_bot_that_exits_fails_with_process_exit() -> None:
    result = check_bot(str(ROOT / "tests" / "bots" / "crash.toml"), "--game", "yahtzee")
    assert result.returncode == 1
    assert "process_exit" in result.stdout and "exited with status 3" in result.stdout


def test_bot_that_cannot_start_fails_with_the_reason(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # readable by the sandbox's unprivileged user
    (tmp_path / "bot.toml").write_text('name = "mute"\ncommand = ["{python}", "-c", "import time; time.sleep(60)"]\n')
    result = subprocess.run([sys.executable, "-m", "arena.cli", "check-bot", str(tmp_path), "--startup-timeout", "1"],
                            capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert result.returncode == 1
    assert "FAIL: bot mute: not SERVING within 1 s" in result.stdout


def test_check_bot_leaves_no_folder_behind(private_tmp: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "arena.cli", "check-bot", str(PYTHON_BOTS / "random_bot"),
                             "--game", "yahtzee", "--matches", "1"], capture_output=True, text=True, timeout=120,
                            cwd=ROOT, env=dict(os.environ, TMPDIR=str(private_tmp)))
    assert result.returncode == 0, result.stdout + result.stderr
    assert list(private_tmp.iterdir()) == []


def test_check_bot_json_report_is_typed() -> None:
    from click.testing import CliRunner

    from arena.cli import main

    result = CliRunner().invoke(main, ["check-bot", str(ROOT / "sample_bots" / "python" / "random_bot"), "--game",
                                       "yahtzee", "--format", "json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True and report["problems"] == []
    (game,) = report["games"]
    assert game["game"] == "yahtzee" and game["matches"] == 2 and isinstance(game["median_ms"], float)


def test_a_bot_with_a_syntax_error_is_told_the_file_line_and_traceback(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)  # readable by the sandbox's unprivileged user
    script_bot(tmp_path / "typo", "typo", "import sys\n\ndef decide(observation, legal)\n    return 0\n")
    result = check_bot(str(tmp_path / "typo"))
    assert result.returncode == 1
    assert "exited with status 1: SyntaxError: expected ':' (bot.py, line 3)" in result.stdout, result.stdout
    tail = result.stdout.split("after its first failure:\n", 1)[1]
    assert "  |     def decide(observation, legal)\n" in tail and "  | SyntaxError: expected ':'\n" in tail


def test_a_bot_that_raises_mid_match_is_shown_its_traceback_and_what_it_printed(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    script_bot(tmp_path / "boom", "boom", BOOM_BOT)
    result = check_bot(str(tmp_path / "boom"), "--game", "yahtzee", "--matches", "1")
    assert result.returncode == 1
    assert "FAIL: yahtzee: error at decision 0: UNKNOWN: decide raised RuntimeError: boom (bot.py, line 6)" \
        in result.stdout, result.stdout
    tail = result.stdout.split("after its first failure:\n", 1)[1]
    assert "  | thinking about " in tail and '  |     raise RuntimeError("boom")\n' in tail
    assert len(tail.splitlines()) <= TAIL_LINES + 1  # bounded: the lines, then "check-bot: FAILED"


BOOM_BOT = """import sys
from arena.sdk import run_bot

def decide(observation, legal_actions):
    print("thinking about", len(legal_actions), "actions", file=sys.stderr)
    raise RuntimeError("boom")

run_bot(decide, name="boom", version="1", games=["yahtzee"])
"""
"""A bot that prints a line, then raises in every decision."""
