"""Each part of the platform imports only the parts below it (issue 34; README.md, "Layers"),
so the referee and the league's store can be read, imported and tested alone.

The first test reads every module's imports, those inside functions and ``TYPE_CHECKING``
blocks included; the second imports each part in a fresh interpreter and looks at what came
with it."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS: tuple[tuple[str, ...], ...] = (
    ("arena",),
    ("arena.v1", "arena.resources", "arena.yahtzee_dp"),
    ("arena.sdk",),
    ("referee",),
    ("arena.league", "arena.authoring", "arena.envs"),
    ("arena.scheduling", "arena.executors"),
    ("arena.runs",),
    ("arena.submission",),
    ("arena.web",),
    ("arena.cli",),
)
"""Bottom first.  A part may import itself and the parts of lower layers; not a part of its own
layer, nor of a higher one.  ``arena`` is the package's ``__init__`` alone."""
LAYER = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def part(module: str) -> str | None:
    """The part a module of the platform belongs to (its longest listed prefix; ``arena`` is
    only ``arena`` itself), the module's own name if it belongs to none, ``None`` for any other
    module (the standard library, third-party packages)."""
    names = module.split(".")
    if names[0] not in ("arena", "referee"):
        return None
    for end in range(len(names), 0, -1):
        prefix = ".".join(names[:end])
        if prefix in LAYER and (prefix != "arena" or module == "arena"):
            return prefix
    return module


def may_import(importer: str, imported: str) -> bool:
    return imported == importer or (imported in LAYER and LAYER[imported] < LAYER[importer])


def module_name(path: Path) -> str:
    names = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(names[:-1] if names[-1] == "__init__" else names)


def platform_modules() -> list[Path]:
    """Every Python module of arena/ and referee/ but the generated protocol code."""
    return [path for top in ("arena", "referee") for path in sorted((ROOT / top).rglob("*.py"))
            if "v1" not in path.relative_to(ROOT).parts]


def imports(path: Path) -> list[tuple[int, str]]:
    """Each module ``path`` imports, with its line: every ``import`` statement anywhere in it,
    relative ones resolved; ``from package import name`` counts ``package.name`` too, as it may
    be a module."""
    module = module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            found.append((node.lineno, base))
            found += [(node.lineno, f"{base}.{alias.name}") for alias in node.names if alias.name != "*"]
    return found


def violations() -> list[str]:
    """``path:line: importer (layer) imports imported (layer)`` for each import of a part that is
    not below the importer's."""
    found = set()
    for path in platform_modules():
        importer = part(module_name(path))
        assert importer in LAYER, f"{path.relative_to(ROOT)} belongs to no layer: add its part to LAYERS"
        for line, name in imports(path):
            imported = part(name)
            if imported is not None and imported in LAYER and not may_import(importer, imported):
                found.add(f"{path.relative_to(ROOT)}:{line}: {importer} (layer {LAYER[importer]}) imports "
                          f"{imported} (layer {LAYER[imported]})")
    return sorted(found)


def test_every_module_imports_only_the_layers_below_its_own() -> None:
    assert len(platform_modules()) > 100
    assert violations() == []


def test_the_check_finds_an_import_from_above_inside_a_function(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself: a referee module that imports the league inside a function, relative
    imports resolved, is named with its line."""
    fake = tmp_path / "referee"
    (fake / "games").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "games" / "__init__.py").write_text("from .. import bots\n")
    (fake / "bots.py").write_text("import os\n\n\ndef build():\n    from arena.league import storage\n")
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    assert [m.name for m in platform_modules()] == ["__init__.py", "bots.py", "__init__.py"]
    assert violations() == ["referee/bots.py:5: referee (layer 3) imports arena.league (layer 4)"]
    assert imports(fake / "games" / "__init__.py") == [(1, "referee"), (1, "referee.bots")]


@pytest.mark.parametrize("imported", ["referee", "arena.league", "arena.submission"])
def test_importing_a_part_alone_brings_nothing_from_above(imported: str) -> None:
    """Every module of the part imported in a fresh interpreter: ``sys.modules`` then holds no
    module of a part of its layer or above: the referee and the league's store come alone, the
    submission without the web app (the three that imported upwards; the static check above
    covers every part, and importing each would cost seconds)."""
    top = ROOT.joinpath(*imported.split("."))
    modules = [module_name(p) for p in sorted(top.rglob("*.py"))] if top.is_dir() else [imported]
    script = ("import importlib, json, sys\n"
              f"for name in {modules!r}:\n    importlib.import_module(name)\n"
              "print(json.dumps(sorted(sys.modules)))\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    loaded = {part(name) for name in json.loads(done.stdout)} & LAYER.keys()  # not the shipped data packages
    assert sorted(p for p in loaded if not may_import(imported, p)) == []
