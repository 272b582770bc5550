"""Bots that are a few lines of Python written by the test: a folder with ``bot.py`` and a
manifest that runs it, and a wait for the file a script writes when it has got somewhere.

A script that tells the test something in a file writes it whole with :data:`WRITE_FILE`'s
``write_file`` (a temporary name, then a rename): a file that exists is complete, however
slowly a busy machine runs the script between creating it and writing it."""

from __future__ import annotations

import time
from pathlib import Path

from referee.bots import BotSpec, resolve_bot


def script_bot(folder: Path, name: str, source: str) -> BotSpec:
    """``source`` as the bot ``name`` in ``folder`` (made readable by the sandbox's own uid)."""
    folder.mkdir(mode=0o755, exist_ok=True)
    (folder / "bot.py").write_text(source)
    (folder / "bot.toml").write_text(f'name = "{name}"\ncommand = ["{{python}}", "bot.py"]\n')
    return resolve_bot(str(folder))


WRITE_FILE = """\
def write_file(path, text):
    import os
    with open(path + '.part', 'w') as part:
        part.write(text)
    os.replace(path + '.part', path)
"""
"""Source of ``write_file(path, text)`` for a script bot: the file appears only once complete."""


def wait_for_file(path: Path, seconds: float = 60.0) -> bool:
    """Whether ``path`` exists within ``seconds`` (generous: a loaded machine starts a bot slowly)."""
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return path.exists()


def read_file_when_written(path: Path, seconds: float = 60.0) -> str:
    """The text of ``path``, written by a script bot with ``write_file``, once it exists."""
    assert wait_for_file(path, seconds), f"{path.name} was not written within {seconds:g} s"
    return path.read_text()
