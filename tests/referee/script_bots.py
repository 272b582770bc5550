"""Bots that are a few lines of Python written by the test: a folder with ``bot.py`` and a
manifest that runs it, and a wait for the file a script writes when it has got somewhere."""

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


def wait_for_file(path: Path, seconds: float = 10.0) -> bool:
    """Whether ``path`` exists within ``seconds``."""
    deadline = time.monotonic() + seconds
    while not path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return path.exists()
