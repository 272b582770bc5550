"""The platform knows no particular bot (issue 27): no module under arena/ or referee/ names a
sample bot, by folder or by manifest name.  A bot that needs something prepared brings a
build step ([build] in its manifest) instead of the platform preparing it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORM = (ROOT / "arena", ROOT / "referee")
TEXT = {".py", ".pyi", ".html", ".js", ".css", ".toml", ".md", ".txt"}
KIT = ROOT / "arena" / "authoring" / "starter_kit.py"
TEMPLATES = {"random_bot": {KIT, ROOT / "arena" / "resources.py"}, "random-node": {KIT}, "random-cpp": {KIT},
             "random-go": {KIT}}
"""The one allowed exception: the random bots are the templates of `arena new-bot`'s starter
kits (which name their folders and rewrite their identity lines) and the demo's filler
copies (arena/resources.py names the Python one's folder)."""


def sample_bot_names() -> set[str]:
    """Every sample bot's folder name and manifest name, except names that are plain words
    ("random") and so appear in any Python file for other reasons."""
    names = set()
    for manifest in (ROOT / "sample_bots").glob("*/*/bot.toml"):
        names.add(manifest.parent.name)
        names.add(tomllib.loads(manifest.read_text())["name"])
    return {name for name in names if not re.fullmatch(r"[a-z]+", name)}


def test_the_sample_bots_are_found() -> None:
    names = sample_bot_names()
    assert {"yahtzee_optimal", "yahtzee-optimal", "yahtzee_heuristic", "random_bot", "random-go"} <= names


def test_no_platform_module_names_a_sample_bot() -> None:
    names = sample_bot_names()
    found = []
    for top in PLATFORM:
        for path in sorted(top.rglob("*")):
            if path.suffix not in TEXT or "v1" in path.relative_to(ROOT).parts or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            for name in names:
                if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", text) and path not in TEMPLATES.get(name, ()):
                    found.append(f"{path.relative_to(ROOT)}: {name}")
    assert not found, found
