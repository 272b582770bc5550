"""Regenerate the Python protobuf and gRPC code in arena/v1/ from proto/arena/v1/*.proto.

Run after editing a .proto: ``python scripts/gen_proto.py``. The generated files are
committed so that installing arena needs no code generator; tests/test_proto_codegen.py
fails when they are stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROTO_ROOT = ROOT / "proto"


def generate(out_dir: Path) -> list[Path]:
    """Write the generated modules under ``out_dir`` (``out_dir/arena/v1/...``)."""
    from grpc_tools import protoc  # a development dependency only

    protos = sorted(str(p.relative_to(PROTO_ROOT)) for p in (PROTO_ROOT / "arena" / "v1").glob("*.proto"))
    include = Path(protoc.__file__).parent / "_proto"
    args = ["protoc", f"-I{PROTO_ROOT}", f"-I{include}", f"--python_out={out_dir}", f"--pyi_out={out_dir}",
            f"--grpc_python_out={out_dir}", *protos]
    if protoc.main(args) != 0:
        raise SystemExit("protoc failed")
    return sorted((out_dir / "arena" / "v1").glob("*_pb2*.py*"))


if __name__ == "__main__":
    written = generate(ROOT)
    print("\n".join(str(p.relative_to(ROOT)) for p in written))
    sys.exit(0)
