"""Random junk to every ``arena`` command: always one ``Error:`` line, a non-zero exit, no traceback.

The commands and their options are read from the click tree, so a new command is fuzzed
as soon as it is registered.  The junk never names a working bot or an arena database, so
no invocation can be valid; ``demo`` (which needs neither) gets only values of the wrong
type or range.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from arena.cli import main

TEXT_JUNK = ["", " ", "-1", "0", "99999999999999999999", "-99999999999999999999", "1e309", "nan", "inf", "abc",
             "{", "[1,2]", "yahtzee", "gin_rummy", "x=y", "=", "name=", "../../etc/passwd",
             "/nonexistent/dir/file.json", ".", "é\u202eevil", "<script>alert(1)</script>", "a\nb", "%s%n",
             "unix:///nonexistent/sock", "bot.toml", "\x00", "127.0.0.1:99999", "nosuchhost.invalid:5000",
             "127.0.0.1:1"]
"""Values of every kind, addresses that fail fast included."""
FILES = {
    "bad.json": b"{not json",
    "list.json": b"[1, 2]",
    "string-index.json": json.dumps({"format": 1, "game": "yahtzee", "moves": [{"seat": 0, "index": "two"}]}).encode(),
    "empty.file": b"",
    "binary.bin": bytes(range(256)) * 4,
    "huge-numbers.json": json.dumps({"format": 1, "game": "yahtzee", "num_players": 10**30, "seed": 10**40,
                                     "moves": [], "players": []}).encode(),
    "bot.toml": b'name = "x"\ncommand = ["/nonexistent/binary"]\n',
    "broken-manifest.toml": b"name = [unclosed",
}


def _leaf_commands(group: click.Group, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            yield from _leaf_commands(command, prefix + (name,))
        else:
            yield prefix + (name,), command


WRITERS = {("demo",), ("proto",), ("new-bot",), ("user", "add")}
"""Commands that succeed with almost any folder name (they create it): they get junk of
their own below, so that the fuzz never writes outside its temporary folder."""
READERS = {("docs",)}
"""Commands that succeed without arguments (`arena docs` lists the pages): junk of their own below."""
COMMANDS = [(path, command) for path, command in _leaf_commands(main) if path not in WRITERS | READERS]


@pytest.fixture(scope="module")
def junk_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("junk")
    for name, data in FILES.items():
        (folder / name).write_bytes(data)
    (folder / "a-folder").mkdir()
    other = sqlite3.connect(folder / "other.sqlite")
    other.execute("CREATE TABLE notes (text)")
    other.commit()
    other.close()
    return folder


def _values(folder: Path) -> list[str]:
    return TEXT_JUNK + [str(folder / name) for name in (*FILES, "a-folder", "other.sqlite")]


def _run(args: list[str], folder: Path) -> Any:
    """Run in ``folder/cwd``, an empty working folder (no arena.db to find by default)."""
    cwd = folder / "cwd"
    cwd.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(cwd)
        return CliRunner(env={"ARENA_DB": None, "ARENA_DEBUG": None}).invoke(main, args)


def assert_one_line_error(result: Any, args: list[str]) -> None:
    shown = f"arena {' '.join(map(repr, args))}\n{result.output}"
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        f"{shown}\nraised {result.exception!r}"
    assert result.exit_code not in (0, None), shown
    assert "Traceback" not in result.output, shown
    lines = result.output.splitlines()
    if args[0] == "check-bot" and lines and lines[-1] == "check-bot: FAILED":
        return  # a bot that was found and failed its checks: the report says why, line by line
    errors = [line for line in lines if line.startswith("Error")]
    assert len(errors) == 1, shown
    assert "internal error" not in errors[0], shown  # the last-resort guard caught something unforeseen


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_junk_to_every_command_is_a_one_line_error(junk_folder: Path, data: st.DataObject) -> None:
    path, command = data.draw(st.sampled_from(COMMANDS), label="command")
    values = _values(junk_folder)
    options = [p for p in command.params if isinstance(p, click.Option) and p.name != "help"]
    arguments = [p for p in command.params if isinstance(p, click.Argument)]
    args = list(path)
    # Required options mostly present, so that most junk gets past click to arena's own checks.
    required = [o for o in options if o.required and data.draw(st.integers(0, 9), label="keep required") > 0]
    chosen = data.draw(st.lists(st.sampled_from(options), max_size=4), label="options") if options else []
    for option in required + chosen:
        args.append(option.opts[0])
        if not option.is_flag:
            args.append(data.draw(st.sampled_from(values)))
    for _ in arguments:
        if data.draw(st.integers(0, 9), label="give argument") > 0:
            args.append(data.draw(st.sampled_from(values)))
    if len(args) == len(path) and not arguments:
        args.append(data.draw(st.sampled_from(["--no-such-option", "extra"])))
    assert_one_line_error(_run(args, junk_folder), args)


@pytest.mark.parametrize("args", [
    ["demo", "--rounds", "0"], ["demo", "--rounds", "abc"], ["demo", "--workers", "0"],
    ["demo", "--seed", "1e309"], ["demo", "--db", "/nonexistent/dir/demo.db"], ["demo", "--db", "."],
    ["demo", "--no-such-option"],
])
def test_junk_to_demo(junk_folder: Path, args: list[str]) -> None:
    assert_one_line_error(_run(args, junk_folder), args)


@pytest.mark.parametrize("args", [
    ["proto", "--out", ""], ["proto", "--out", "FILE:empty.file"], ["proto"], ["proto", "--out", "/proc/1/x"],
    ["new-bot", "", "--language", "python"], ["new-bot", "x", "--language", "cobol"],
    ["new-bot", "x", "--language", "python", "--game", "chess"], ["new-bot", "FILE:a-folder", "--language", "go"],
    ["new-bot", "FILE:empty.file", "--language", "node"], ["new-bot", "/proc/1/x", "--language", "cpp"],
    ["user", "add", ""], ["user", "add", "<script>alert(1)</script>"], ["user", "add", "a\nb", "--admin"],
    ["user", "add", "alice", "--db", "FILE:a-folder"], ["user", "add", "alice", "--db", "FILE:other.sqlite"],
    ["user", "add", "alice", "--db", "FILE:binary.bin"], ["user", "add", "alice", "--db", "/nonexistent/dir/x.db"],
    ["user", "add", "alice", "--no-such-option"],
])
def test_junk_to_the_commands_that_write(junk_folder: Path, args: list[str]) -> None:
    args = [str(junk_folder / arg[5:]) if arg.startswith("FILE:") else arg for arg in args]
    (junk_folder / "a-folder" / "keep.txt").write_text("not empty")
    assert_one_line_error(_run(args, junk_folder), args)


@pytest.mark.parametrize("args", [
    ["docs", "nope"], ["docs", "../../etc/passwd"], ["docs", "/etc/passwd"], ["docs", "\x00"], ["docs", ""],
    ["docs", "rules/"], ["docs", "protocol", "extra"], ["docs", "--no-such-option"], ["docs", "FILE:bad.json", "--path"],
])
def test_junk_to_docs(junk_folder: Path, args: list[str]) -> None:
    args = [str(junk_folder / arg[5:]) if arg.startswith("FILE:") else arg for arg in args]
    assert_one_line_error(_run(args, junk_folder), args)
