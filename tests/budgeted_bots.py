"""A search bot's folder copied with its budget set in the manifest's command, as an organiser
would set it (the Gin Rummy and Yaniv search bots take ``DEALS [SECONDS]`` after ``bot.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path


def budgeted_copy(bot: Path, tmp_path: Path, default_deals: str, deals: int, seconds: float) -> Path:
    """``bot``'s folder in ``tmp_path`` with ``DEALS SECONDS`` in place of its manifest's
    ``default_deals`` (which the manifest must hold: a changed default fails here, loudly)."""
    folder = tmp_path / bot.name
    shutil.copytree(bot, folder, ignore=shutil.ignore_patterns("__pycache__"))
    manifest = folder / "bot.toml"
    text = manifest.read_text()
    assert f'command = ["{{python}}", "bot.py", "{default_deals}"]' in text
    manifest.write_text(text.replace(f'"bot.py", "{default_deals}"]', f'"bot.py", "{deals}", "{seconds}"]'))
    return folder
