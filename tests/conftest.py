"""Fixtures shared by the whole suite: looking for processes and temporary folders a test
must not leave behind."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.bots import BotSpec, owner_tag, resolve_bot

HOSTILE_BOTS = Path(__file__).resolve().parent / "bots"


def is_running(pid: int) -> bool:
    """True if ``pid`` exists and is not a zombie waiting to be reaped."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in status


def _parent(pid: int) -> int:
    """``pid``'s parent (0 when it is gone)."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return 0


def _another_workers(pid: int) -> bool:
    """Whether ``pid`` descends from another pytest-xdist worker than this one: the workers are
    the controller's children, so one up the ancestry that is this process's sibling."""
    me, controller = os.getpid(), os.getppid()
    while pid > 1 and pid != me:
        parent = _parent(pid)
        if parent == controller:
            return True
        pid = parent
    return False


def processes_in(*folders: Path) -> list[int]:
    """Live processes (this one excepted) whose working folder is inside one of ``folders``.

    Bots run in their manifests' folders, so this finds the bots started from there.  Under
    pytest-xdist the other worker's tests start bots from the same shared folders (the sample
    bots), so a process started under another worker is not counted (an orphan adopted by init
    is: nothing tells whose it was).
    """
    under_xdist = "PYTEST_XDIST_WORKER" in os.environ
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid() or not is_running(int(entry.name)):
            continue
        try:
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if any(cwd.is_relative_to(folder) for folder in folders):
            if not (under_xdist and _another_workers(int(entry.name))):
                found.append(int(entry.name))
    return found


def scratch_folders(folder: Path | None = None, *, mine: bool = False) -> list[Path]:
    """The referee's private folders (``arena-bot-*``, ``arena-check-*``) in ``folder`` (by
    default the temporary directory); with ``mine``, only those of this process's referee."""
    folder = folder or Path(tempfile.gettempdir())
    prefixes = [f"arena-{kind}-{owner_tag()}-" if mine else f"arena-{kind}-" for kind in ("bot", "check")]
    return sorted(path for path in folder.iterdir() if path.name.startswith(tuple(prefixes)))


@pytest.fixture
def private_tmp() -> Iterator[Path]:
    """An empty temporary directory for an ``arena`` subprocess (pass ``TMPDIR``), so that the
    test can see everything it leaves there.  Short, for Unix socket paths."""
    folder = Path(tempfile.mkdtemp(prefix="at-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def leftover_folders() -> Callable[..., list[Path]]:
    """:func:`scratch_folders`, for tests that check no bot's folder outlived its match."""
    return scratch_folders


@pytest.fixture
def running() -> Callable[[int], bool]:
    """:func:`is_running`, for tests that watch a process id."""
    return is_running


@pytest.fixture
def live_processes_in() -> Callable[..., list[int]]:
    """:func:`processes_in`, for tests that check no bot outlived its match."""
    return processes_in


def copy_hostile_bot(folder: Path, behaviour: str, *args: str) -> BotSpec:
    """A hostile bot (``tests/bots/hostile_bot.py``) with test-specific arguments, in a new
    folder of its own that the sandbox's unprivileged user can read."""
    folder.mkdir()
    folder.chmod(0o755)
    shutil.copy(HOSTILE_BOTS / "hostile_bot.py", folder)
    command = ", ".join(f'"{part}"' for part in ("{python}", "hostile_bot.py", behaviour, *args))
    (folder / "bot.toml").write_text(f'name = "hostile-{behaviour}"\ncommand = [{command}]\n', encoding="utf-8")
    return resolve_bot(str(folder))


@pytest.fixture
def hostile_bot() -> Callable[..., BotSpec]:
    """:func:`copy_hostile_bot`, for the sandbox tests."""
    return copy_hostile_bot


@pytest.fixture
def recorded_matches() -> Callable[..., Any]:
    """:func:`recorded_matches.play_recorded`: matches over gRPC with recording bots."""
    from recorded_matches import play_recorded

    return play_recorded
