"""What a wheel-installed arena holds: every Python package, the sample bots' sources and the
protocol, and no build output (node_modules, CMake and Go builds, caches).

The wheel is built for real (pip, setuptools) from a copy of the source tree in which build
output and a new sample bot have been planted. .ci/run goes further: it installs the wheel
into a fresh environment and runs the demo and check-bot from there.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.resources import HEALTH_PROTO, proto_dir, proto_files, sample_bots_dir

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NOT_SOURCE = shutil.ignore_patterns(".git", ".venv", "build", "dist", "*.egg-info", "node_modules", "__pycache__",
                                    ".pytest_cache", ".hypothesis", "*.db", "match.json")
PLANTED_BUILD_OUTPUT = [
    "sample_bots/node/node_modules/@grpc/grpc-js/index.js",
    "sample_bots/node/node_modules/.package-lock.json",
    "sample_bots/cpp/build/random_bot",
    "sample_bots/cpp/build/sdk/generated/arena/v1/bot.pb.cc",
    "sample_bots/go/build/random_bot",
    "sample_bots/go/build/gopath/src/arena/v1/bot.pb.go",
    "sample_bots/python/random_bot/__pycache__/bot.cpython-311.pyc",
]


def test_every_python_package_folder_is_listed_in_pyproject() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {".".join(init.parent.relative_to(ROOT).parts)
             for top in ("arena", "referee") for init in (ROOT / top).rglob("__init__.py")}
    assert found - listed == set(), "add these packages to [tool.setuptools] packages in pyproject.toml"
    assert {"arena.sample_bots", "arena.proto"} <= listed


def test_resources_are_the_checkouts_folders_in_an_editable_install() -> None:
    assert sample_bots_dir() == ROOT / "sample_bots"
    assert proto_dir() == ROOT / "proto"
    files = proto_files()
    assert {path.name for path in files.values()} >= {"bot.proto", "yahtzee.proto", "gin_rummy.proto", "health.proto"}
    assert all(path.is_file() for path in files.values())
    assert files[HEALTH_PROTO].read_text(encoding="utf-8").count("package grpc.health.v1;") == 1


def test_arena_proto_writes_the_protocol_and_grpc_health(tmp_path: Path) -> None:
    out = tmp_path / "protos"
    result = CliRunner().invoke(main, ["proto", "--out", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    written = sorted(path.relative_to(out) for path in out.rglob("*") if path.is_file())
    lines = result.output.splitlines()  # issue 25: say what it wrote
    assert lines[0] == f"wrote {len(written)} .proto files to {out}:"
    assert sorted(Path(line.strip()).relative_to(out) for line in lines[1:]) == written
    assert written == sorted(proto_files())
    assert Path("arena/v1/bot.proto") in written and HEALTH_PROTO in written
    for relative, source in proto_files().items():
        assert (out / relative).read_bytes() == source.read_bytes()


def wheel_of(source: Path, out: Path) -> set[str]:
    """Build a wheel of ``source`` (no dependencies, this environment's setuptools) and list it."""
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                    "--wheel-dir", str(out), str(source)], check=True, capture_output=True, timeout=300)
    [wheel] = out.glob("arena-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


@dataclass(frozen=True)
class BuiltWheel:
    source: Path
    """The copy of the source tree it was built from, with planted build output and a new bot."""
    wheel: Path
    names: set[str]
    samples: list[str]
    """The sample bots' source files, relative to sample_bots/."""


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> BuiltWheel:
    """One wheel for this module's tests, built from a source copy with build output planted."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    source = tmp_path / "src"
    shutil.copytree(ROOT, source, ignore=NOT_SOURCE)
    new_bot = source / "sample_bots" / "python" / "planted_heuristic"  # a sample bot added later
    new_bot.mkdir()
    for name, text in (("bot.py", "print('hello')\n"), ("bot.toml", 'name = "planted"\n'), ("table.json", "[]\n")):
        (new_bot / name).write_text(text, encoding="utf-8")
    samples = sorted(str(path.relative_to(source / "sample_bots")) for path in (source / "sample_bots").rglob("*")
                     if path.is_file() and path.name not in (".gitignore", "build.sh"))
    for relative in PLANTED_BUILD_OUTPUT:
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_text("build output\n", encoding="utf-8")

    names = wheel_of(source, tmp_path / "dist")
    [wheel] = (tmp_path / "dist").glob("arena-*.whl")
    return BuiltWheel(source, wheel, names, samples)


@pytest.mark.slow
def test_wheel_ships_sources_new_sample_bots_protos_and_docs_but_no_build_output(built: BuiltWheel) -> None:
    source, names, samples = built.source, built.names, built.samples
    shipped = sorted(name.removeprefix("arena/sample_bots/") for name in names
                     if name.startswith("arena/sample_bots/") and not name.endswith("/build.sh"))
    assert shipped == samples
    assert "arena/sample_bots/python/planted_heuristic/table.json" in names
    assert "arena/sample_bots/go/build.sh" in names  # the Go kits' build script
    assert not any(part in name for name in names for part in ("node_modules", "/build/", "__pycache__", ".pyc"))
    protos = {f"arena/proto/{path.relative_to(source / 'proto')}" for path in (source / "proto").rglob("*.proto")}
    assert protos and protos <= names
    docs = {f"arena/docs/{path.relative_to(source / 'docs')}" for path in (source / "docs").rglob("*.md")}
    assert {"arena/docs/protocol.md", "arena/docs/rules/jass.md"} <= docs <= names
    examples = {f"arena/docs/{path.relative_to(source / 'docs')}" for path in (source / "docs").rglob("*.py")}
    assert "arena/docs/examples/fit_gin_policy.py" in examples <= names  # the scripts docs/learning.md runs
    modules = {f"{path.relative_to(source)}" for top in ("arena", "referee") for path in (source / top).rglob("*.py")}
    assert modules <= names
    web = {f"arena/web/{path.relative_to(source / 'arena' / 'web')}" for folder in ("static", "templates")
           for path in (source / "arena" / "web" / folder).iterdir()}
    assert web - names == set(), "add these to the arena.web package data in pyproject.toml"  # the favicon
    assert not any(name.startswith(("tests/", "benchmarks/", "scripts/", ".venv/")) for name in names)


@pytest.mark.slow
def test_a_wheel_installed_arena_prints_the_docs_its_kits_and_protos_cite(built: BuiltWheel, tmp_path: Path) -> None:
    """Installed from the wheel alone (no checkout on the path), `arena docs` reads the pages
    that kit READMEs and .proto headers name, from inside the installed package."""
    target = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-compile", "--target",
                    str(target), str(built.wheel)], check=True, capture_output=True, timeout=300)
    run_arena = ("import sys, arena; from arena.cli import main; sys.argv[0] = 'arena'; "
                 "assert arena.__file__.startswith(sys.argv.pop(1)), arena.__file__; main()")

    def arena(*args: str) -> str:
        result = subprocess.run([sys.executable, "-c", run_arena, str(target), *args], cwd=tmp_path,
                                env={**os.environ, "PYTHONPATH": str(target)}, capture_output=True, text=True,
                                timeout=120)
        assert result.returncode == 0, result.stderr
        return result.stdout

    listing = arena("docs")
    assert str(target / "arena" / "docs") in listing and "rules/jass" in listing
    for page in ("protocol", "writing-a-bot", "rules/jass", "rules/yahtzee"):
        assert arena("docs", page) == (ROOT / "docs" / f"{page}.md").read_text(encoding="utf-8")
    assert arena("docs", "docs/protocol.md", "--path").strip() == str(target / "arena" / "docs" / "protocol.md")


def test_arena_docs_lists_prints_and_locates_the_pages() -> None:
    runner = CliRunner()
    listing = runner.invoke(main, ["docs"], catch_exceptions=False)
    lines = listing.output.splitlines()
    assert listing.exit_code == 0 and lines[0].startswith(f"arena's documentation, in {ROOT / 'docs'} ")
    assert [line.split()[:2] for line in lines[1:] if "Yoninkan" in line] == [["rules/yoninkan", "Yoninkan,"]]
    page = runner.invoke(main, ["docs", "rules/yaniv"], catch_exceptions=False)
    assert page.output == (ROOT / "docs" / "rules" / "yaniv.md").read_text(encoding="utf-8")
    located = runner.invoke(main, ["docs", "docs/protocol.md", "--path"], catch_exceptions=False)
    assert located.output == f"{ROOT / 'docs' / 'protocol.md'}\n"
    assert runner.invoke(main, ["docs", "--path"], catch_exceptions=False).output == f"{ROOT / 'docs'}\n"
    missing = runner.invoke(main, ["docs", "RULES.md"])
    assert missing.exit_code == 2 and "Error: Invalid value for NAME: no page 'RULES.md' (choose from bots, cli," \
        in missing.output
