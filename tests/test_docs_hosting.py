"""docs/hosting.md and docs/security.md name only what exists (issue 27, hosting): every
``arena ...`` command they show resolves to a real command and every ``--option`` given to it
is in that command's ``--help``; every section they point to is a heading of its page."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from arena.cli import main

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
SEPARATORS = {";", "&&", "||", "|"}


def code_spans(text: str) -> list[str]:
    """The page's code: each fenced block's lines (continuations joined) and each inline span."""
    blocks = re.findall(r"^```[a-z]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    prose = re.sub(r"^```[a-z]*\n.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    lines = [line for block in blocks for line in block.replace("\\\n", " ").splitlines()]
    return lines + re.findall(r"`([^`\n]+)`", prose)


def arena_commands(text: str) -> list[list[str]]:
    """Each ``arena`` invocation in the page's code, as the words after ``arena``."""
    found = []
    for span in code_spans(text):
        try:
            words = shlex.split(span, comments=True)
        except ValueError:  # an unbalanced quote in prose code: plain words will do
            words = span.split()
        for start, word in enumerate(words):
            if word == "arena" or word.endswith("/bin/arena"):
                rest = []
                for following in words[start + 1:]:
                    if following in SEPARATORS or following == "arena" or following.endswith("/bin/arena"):
                        break
                    rest.append(following)
                if rest and re.fullmatch(r"[a-z][a-z-]*", rest[0]):  # else the user or folder "arena"
                    found.append(rest)
    return found


def resolve(words: list[str]) -> tuple[list[str], list[str]]:
    """``(command path, the words after it)``; the path is empty if the first word is no command."""
    command: click.Command = main
    path: list[str] = []
    for index, word in enumerate(words):
        if not isinstance(command, click.Group) or word not in command.commands:
            return path, words[index:]
        command = command.commands[word]
        path.append(word)
    return path, []


def help_text(path: tuple[str, ...], cache: dict[tuple[str, ...], str] = {}) -> str:
    if path not in cache:
        result = CliRunner().invoke(main, [*path, "--help"], terminal_width=200)
        assert result.exit_code == 0, result.output
        cache[path] = result.output
    return cache[path]


@pytest.mark.parametrize("page", ["hosting.md", "security.md"])
def test_every_command_and_option_the_page_names_exists(page: str) -> None:
    commands = arena_commands((DOCS / page).read_text(encoding="utf-8"))
    problems = []
    checked = set()
    for words in commands:
        path, rest = resolve(words)
        if not path:
            problems.append(f"arena {' '.join(words)}: no such command")
            continue
        if isinstance(main.commands[path[0]], click.Group) and len(path) == 1:
            problems.append(f"arena {' '.join(words)}: a group, not a command")
            continue
        shown = help_text(tuple(path))
        for word in rest:
            if word.startswith("--"):
                option = word.split("=", 1)[0]
                checked.add((" ".join(path), option))
                if not re.search(rf"(?<![\w-]){re.escape(option)}(?![\w-])", shown):
                    problems.append(f"arena {' '.join(path)}: no option {option}")
    assert problems == []
    if page == "hosting.md":  # the page really was read: its commands and options were found
        assert ("serve", "--forwarded-allow-ips") in checked and ("db backup", "--to") in checked
        assert len(checked) >= 15


def anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def headings(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    text = re.sub(r"^```.*?^```", "", text, flags=re.MULTILINE | re.DOTALL)
    return [line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")]


@pytest.mark.parametrize("page", ["hosting.md", "security.md"])
def test_every_section_the_page_points_to_exists(page: str) -> None:
    text = (DOCS / page).read_text(encoding="utf-8")
    references = re.findall(r"`docs/([a-z-]+\.md)`,\s+\"([^\"]+)\"", " ".join(text.split()))
    links = re.findall(r"\]\(([a-z-]*\.md)?#([a-z0-9-]+)\)", text)
    assert len(references) + len(links) >= 2
    missing = [f"{name}: {section}" for name, section in references
               if not (DOCS / name).exists() or section not in headings(name)]
    missing += [f"{name or page}#{target}" for name, target in links
                if target not in {anchor(h) for h in headings(name or page)}]
    assert missing == []
