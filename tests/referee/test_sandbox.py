"""The sandbox's pieces that need no bot: configuration, manifests' extra folders, and
which host folders a command may bring into the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.bots import SHARED_FOLDERS, BotSpec, BotSpecError, telling_line
from referee.sandbox import Limits, SandboxConfig, SandboxMode, executable_prefix

ROOT = Path(__file__).resolve().parents[2]


def test_config_round_trips_and_old_tournaments_get_the_defaults() -> None:
    config = SandboxConfig(SandboxMode.BWRAP, Limits(memory_mb=300, processes=20))
    assert SandboxConfig.from_dict(config.to_dict()) == config
    assert SandboxConfig.from_dict(None) == SandboxConfig()
    assert SandboxConfig.from_dict({"mode": "none"}) == SandboxConfig(SandboxMode.NONE)


@pytest.mark.parametrize("bad", [0, -5, 1.5, True])
def test_limits_must_be_positive_whole_numbers(bad: object) -> None:
    with pytest.raises(ValueError, match="memory_mb"):
        Limits(memory_mb=bad)  # type: ignore[arg-type]


def write_manifest(folder: Path, read_only: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.toml").write_text(f'name = "b"\ncommand = ["./bot"]\n\n[sandbox]\nread_only = {read_only}\n')
    return folder / "bot.toml"


def test_manifest_may_ask_for_arena_sample_bots_and_proto() -> None:
    spec = BotSpec.from_manifest(ROOT / "sample_bots" / "node" / "random_bot")
    assert spec.read_only == (ROOT / "sample_bots" / "node", ROOT / "proto")
    assert all(any(p.is_relative_to(shared) for shared in SHARED_FOLDERS) for p in spec.read_only)


@pytest.mark.parametrize("asked", ['["/"]', '["/etc"]', '["../.."]', '["~"]', '"proto"', '[1]'])
def test_manifest_asking_for_anything_else_is_refused(tmp_path: Path, asked: str) -> None:
    with pytest.raises(BotSpecError, match="read_only"):
        BotSpec.from_manifest(write_manifest(tmp_path / "bot", asked))


def test_manifest_cannot_climb_out_of_sample_bots_with_dots(tmp_path: Path) -> None:
    sneaky = str(ROOT / "sample_bots" / ".." / "tests")
    with pytest.raises(BotSpecError, match="outside the folders a bot may ask to read"):
        BotSpec.from_manifest(write_manifest(tmp_path / "bot", f'["{sneaky}"]'))


def tool(folder: Path) -> Path:
    folder.mkdir(parents=True)
    program = folder / "tool"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    return program


def test_a_command_brings_its_installation_folder(tmp_path: Path) -> None:
    tool(tmp_path / "opt" / "runtime" / "bin")
    assert executable_prefix("tool", {"PATH": str(tmp_path / "opt" / "runtime" / "bin")}) == \
        tmp_path / "opt" / "runtime"
    assert executable_prefix("./tool", {"PATH": str(tmp_path / "opt" / "runtime" / "bin")}) is None


def test_a_command_in_the_home_folder_brings_only_its_own_folder(tmp_path: Path, monkeypatch) -> None:
    home = tmp_path / "home"
    tool(home / "bin")
    monkeypatch.setenv("HOME", str(home))
    assert executable_prefix("tool", {"PATH": str(home / "bin")}) == home / "bin"


NODE_DEATH = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '@grpc/grpc-js'
Require stack:
- /arena/sample_bots/node/sdk.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [
    '/arena/sample_bots/node/sdk.js'
  ]
}

Node.js v20.20.2
"""
PYTHON_DEATH = """Traceback (most recent call last):
  File "bot.py", line 3, in <module>
    main()
ValueError: cannot listen on unix:///tmp/x.sock
"""
GO_DEATH = """panic: runtime error: index out of range [3] with length 3

goroutine 1 [running]:
main.main()
\t/src/main.go:9 +0x1d
exit status 2
"""


@pytest.mark.parametrize("output, line", [
    (NODE_DEATH, "Error: Cannot find module '@grpc/grpc-js'"),
    (PYTHON_DEATH, "ValueError: cannot listen on unix:///tmp/x.sock"),
    (GO_DEATH, "panic: runtime error: index out of range [3] with length 3"),
    ("starting\nlistening on 127.0.0.1:5000\n\n", "listening on 127.0.0.1:5000"),
    ("", ""),
])
def test_the_telling_line_of_a_dying_bot_skips_footers_and_stack_frames(output: str, line: str) -> None:
    assert telling_line(output) == line


@pytest.mark.parametrize("address", ["127.0.0.1:0", "127.0.0.1:65536", "[::1]:99999", "localhost:123456"])
def test_addresses_with_a_port_out_of_range_are_refused(address: str) -> None:
    with pytest.raises(BotSpecError, match="out of range"):
        BotSpec.from_address(address)
