"""Issue 25: the commands the CLI suggests ("next: ...", "resume with ...") work where the user is.

Each test runs arena the way a user does (``./dev arena`` in a checkout, ``arena`` from an
installed environment on ``PATH``), then runs the printed hint in a shell from the same folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent


def shell(line: str, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def hint_line(output: str, words: str) -> str:
    """The printed line that runs ``words`` (e.g. ``check-bot``)."""
    return next(line.strip() for line in output.splitlines() if f" {words} " in line)


def test_new_bot_through_dev_suggests_dev_arena_and_the_suggestion_runs(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "ARENA_DEV"}
    env["PATH"] = "/usr/bin:/bin"  # arena is not on PATH in a checkout
    made = shell(f"{ROOT / 'dev'} arena new-bot mybot --language python --game yahtzee", tmp_path, env)
    assert made.returncode == 0, made.stderr
    hint = hint_line(made.stdout, "check-bot")
    assert hint == f"{ROOT / 'dev'} arena check-bot mybot"
    checked = shell(hint + " --matches 1 --sandbox none", tmp_path, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "check-bot: all checks passed" in checked.stdout


def test_dev_run_by_a_relative_path_is_suggested_by_that_path(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "ARENA_DEV"}
    made = shell("./dev arena new-bot " + str(tmp_path / "mybot") + " --language cpp", ROOT, env)
    assert made.returncode == 0, made.stderr
    assert "arena runs the [build] step of bot.toml itself" in made.stdout  # nothing to build by hand first
    assert hint_line(made.stdout, "check-bot") == f"./dev arena check-bot {tmp_path / 'mybot'}"


def test_installed_arena_on_path_is_suggested_as_arena(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "ARENA_DEV"}
    env["PATH"] = f"{VENV_BIN}:/usr/bin:/bin"
    made = shell("arena new-bot 'my bot' --name mybot --language python --game yahtzee", tmp_path, env)
    assert made.returncode == 0, made.stderr
    hint = hint_line(made.stdout, "check-bot")
    assert hint == "arena check-bot 'my bot'"
    checked = shell(hint + " --matches 1 --sandbox none", tmp_path, env)
    assert checked.returncode == 0, checked.stdout + checked.stderr
