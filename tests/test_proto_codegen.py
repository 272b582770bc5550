"""The committed generated code in arena/v1/ matches proto/ (run scripts/gen_proto.py if not)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_code_is_up_to_date(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("gen_proto", ROOT / "scripts" / "gen_proto.py")
    assert spec is not None and spec.loader is not None
    gen_proto = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_proto)
    fresh = gen_proto.generate(tmp_path)
    assert fresh, "protoc generated nothing"
    committed = ROOT / "arena" / "v1"
    names = sorted(p.name for p in fresh)
    assert names == sorted(p.name for p in committed.glob("*_pb2*.py*")), "files added or removed: regenerate"
    stale = [p.name for p in fresh if p.read_bytes() != (committed / p.name).read_bytes()]
    assert not stale, f"stale generated code {stale}: run .venv/bin/python scripts/gen_proto.py"
