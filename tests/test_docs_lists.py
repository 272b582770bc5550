"""The docs that list the sample bots list every one of them, as its manifest says (issue 25:
the bot table and the Python samples in writing-a-bot.md had fallen behind)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots"


def manifests() -> dict[str, dict[str, object]]:
    """Every sample bot's manifest by its folder below sample_bots/ (build output aside)."""
    return {path.parent.relative_to(SAMPLES).as_posix(): tomllib.loads(path.read_text(encoding="utf-8"))
            for path in sorted(SAMPLES.glob("*/*/bot.toml"))}


def test_the_bots_table_has_a_row_per_sample_bot_with_its_name_and_folder() -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([^`]+)` \| `([^`]+)` \|", text, flags=re.MULTILINE))  # name -> folder
    found = {manifest["name"]: folder for folder, manifest in manifests().items()}
    assert len(found) >= 11 and "jass-heuristic" in found
    assert rows == found


def test_writing_a_bot_names_every_python_sample() -> None:
    text = (ROOT / "docs" / "writing-a-bot.md").read_text(encoding="utf-8")
    python = [folder.removeprefix("python/") for folder in manifests() if folder.startswith("python/")]
    assert len(python) >= 7
    assert [name for name in python if f"`{name}`" not in text] == []
