"""Docs that show what the code has: every sample bot, as its manifest says (issue 25: the bot
table and the Python samples in writing-a-bot.md had fallen behind), and protocol.md's real
exchanges as scripts/protocol_example.py prints them."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

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



def test_where_things_are_names_every_arena_package_and_cli_module() -> None:
    """README's map of arena/ (issue 26) lists each package, and each module of the CLI by the
    commands it holds, so a new one cannot land unmapped."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Where things are", 1)[1].split("\n## ", 1)[0]
    packages = {init.parent.relative_to(ROOT).as_posix() + "/" for init in (ROOT / "arena").glob("*/__init__.py")}
    assert len(packages) >= 7 and "arena/league/" in packages
    assert sorted(packages - set(re.findall(r"^\| `(arena/[a-z0-9_]+/)` \|", section, flags=re.MULTILINE))) == []
    modules = [path.name for path in (ROOT / "arena" / "cli").glob("*.py") if not path.name.startswith("__")]
    assert len(modules) >= 10
    assert [name for name in sorted(modules) if f"`{name}`" not in section] == []

def example(*args: str) -> str:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "protocol_example.py"), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300, check=True)
    return done.stdout


@pytest.mark.slow
def test_protocol_md_shows_the_exchanges_the_example_script_prints() -> None:
    """The real exchanges of docs/protocol.md (a Yahtzee and a Gin Rummy match, played now)."""
    page = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert f"```text\n{example()}```" in page
    gin = example("--game", "gin_rummy", "--seed", "3", "--decides", "0,2", "--show", "StartMatch,EndMatch")
    assert f"```text\n{gin}```" in page
    late = example("--decides", "30", "--show", "none").splitlines()
    excerpt = [next(line.strip() for line in late if line.startswith("  text: ")),
               next(line for line in late if line.startswith("# the whole list"))]
    assert "```text\n" + "\n".join(excerpt) + "\n```" in page


OUTPUT_OPTIONS = {"--db", "--to", "--log-out", "--out", "--config", "--play-db"}
"""The options by which a command the docs show writes (or, for --config, reads a file the reader writes)."""


def files_the_docs_write() -> set[str]:
    """Every relative path the README's and docs' ``arena`` commands write: databases,
    records, configs, starter kits, folders of .proto files (placeholders left out)."""
    from test_docs_hosting import arena_commands

    found = set()
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for words in arena_commands(page.read_text(encoding="utf-8")):
            named = [after for option, after in zip(words, words[1:]) if option in OUTPUT_OPTIONS]
            if words[0] == "new-bot" and len(words) > 1:
                named.append(words[1])
            found.update(path for path in named if re.fullmatch(r"[a-z0-9_][a-z0-9_.-]*", path))
    return found


def test_gitignore_covers_every_file_the_docs_write() -> None:
    """Issue 34: following the README in a checkout left SQLite's -wal and -shm files, the
    uploads' .data folders and the examples' outputs as untracked files."""
    files = files_the_docs_write()
    assert {"league.db", "ladder.db", "match.json", "mybot", "protos", "ladder.toml"} <= files, files
    paths = []
    for name in sorted(files):
        if name.endswith(".db"):
            paths += [name, f"{name}-wal", f"{name}-shm", f"{name}.data/uploads/x.tar.gz"]
        elif "." in name:
            paths.append(name)
        else:  # a folder: a kit, the .proto files
            paths.append(f"{name}/bot.py")
    result = subprocess.run(["git", "check-ignore", "--no-index", "--verbose", "--non-matching", *paths],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode in (0, 1), result.stderr
    assert [line.split("\t")[1] for line in result.stdout.splitlines() if line.startswith("::")] == []
