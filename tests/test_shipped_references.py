"""Shipped files cite only what ships: no "RULES.md" (the team's rules contract, which the
product does not have: docs/rules/*.md is its rule text) and no path into ../shared.

Shipped means what a user gets: the protocol (copied into every kit and by `arena proto`), the
sample bots (the kits' sources), the packages and the docs."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHIPPED = ("proto", "sample_bots", "arena", "referee", "docs")
BUILD_OUTPUT = {"node_modules", "build", "__pycache__"}


def shipped_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "pyproject.toml"]
    for top in SHIPPED:
        files += [path for path in (ROOT / top).rglob("*")
                  if path.is_file() and not BUILD_OUTPUT & set(path.relative_to(ROOT).parts)]
    return files


def test_no_shipped_file_cites_rules_md_or_the_shared_folder() -> None:
    files = shipped_files()
    assert len(files) > 100 and ROOT / "proto" / "arena" / "v1" / "jass.proto" in files
    citing = [str(path.relative_to(ROOT)) for path in files
              if b"RULES.md" in (data := path.read_bytes()) or b"../shared" in data or b"/work/shared" in data]
    assert citing == []
