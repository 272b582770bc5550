"""Where arena's shipped files are: the sample bots and the protocol's .proto files.

pyproject.toml maps the repository's ``sample_bots/`` and ``proto/`` folders into the
package as ``arena.sample_bots`` and ``arena.proto``, so the same lookup finds them in a
checkout (an editable install points there) and in a wheel (they sit inside
``site-packages/arena``). Both keep their relative layout, so the Node.js and C++ SDKs'
``../../proto`` still reaches the protocol.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

HEALTH_PROTO = Path("grpc", "health", "v1", "health.proto")
"""The standard gRPC health service, relative to a proto root (bots serve it too)."""


def _folder(package: str) -> Path:
    found = files(package)
    if not isinstance(found, Path):  # a zip import: arena is always installed unpacked
        raise RuntimeError(f"{package} is not a folder on disk ({found}); install arena with pip")
    return found


def sample_bots_dir() -> Path:
    """The sample bots: ``python/``, ``node/``, ``cpp/``, ``go/``."""
    return _folder("arena.sample_bots")


def proto_dir() -> Path:
    """The proto root: ``arena/v1/*.proto`` below it."""
    return _folder("arena.proto")


def proto_files() -> dict[Path, Path]:
    """Every .proto file a bot in another language compiles: relative path -> file.

    The arena protocol, and the gRPC health service, kept with the Node.js SDK (which loads it
    at run time; the other languages' gRPC libraries carry their own).
    """
    root = proto_dir()
    found = {path.relative_to(root): path for path in sorted((root / "arena" / "v1").glob("*.proto"))}
    found[HEALTH_PROTO] = sample_bots_dir() / "node" / "proto" / HEALTH_PROTO
    return found
