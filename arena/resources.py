"""Where arena's shipped files are: the sample bots, the protocol's .proto files and the docs.

pyproject.toml maps the repository's ``sample_bots/``, ``proto/`` and ``docs/`` folders into
the package as ``arena.sample_bots``, ``arena.proto`` and ``arena.docs``, so the same lookup finds them in a
checkout (an editable install points there) and in a wheel (they sit inside
``site-packages/arena``). Both keep their relative layout, so the Node.js and C++ SDKs'
``../../proto`` still reaches the protocol.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
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


def docs_dir() -> Path:
    """The documentation: ``protocol.md``, ``rules/jass.md``, ..."""
    return _folder("arena.docs")


def doc_pages() -> dict[str, Path]:
    """Every documentation page by name, its path below the docs folder without ``.md``
    (``protocol``, ``rules/jass``): the names ``arena docs`` takes."""
    root = docs_dir()
    return dict(sorted((path.relative_to(root).with_suffix("").as_posix(), path) for path in root.rglob("*.md")))


def proto_files() -> dict[Path, Path]:
    """Every .proto file a bot in another language compiles: relative path -> file.

    The arena protocol, and the gRPC health service, kept with the Node.js SDK (which loads it
    at run time; the other languages' gRPC libraries carry their own).
    """
    root = proto_dir()
    found = {path.relative_to(root): path for path in sorted((root / "arena" / "v1").glob("*.proto"))}
    found[HEALTH_PROTO] = sample_bots_dir() / "node" / "proto" / HEALTH_PROTO
    return found


def random_bot_dir() -> Path:
    """The Python random bot: the demo's filler and the opponent of a submission's validation matches."""
    return sample_bots_dir() / "python" / "random_bot"


def random_bot_copies(folder: Path, count: int, *, first: int = 2) -> list[Path]:
    """``count`` copies of the Python random bot in ``folder``, named ``random-2``, ``random-3``...

    For tables that seat more players than there are sample bots (Yoninkan seats four): each
    copy is an entrant of its own.
    """
    return renamed_copies(random_bot_dir(), folder, [f"random-{number}" for number in range(first, first + count)])


def renamed_copies(source: Path, folder: Path, names: Sequence[str]) -> list[Path]:
    """Copies of the bot folder ``source`` in ``folder``, one per name, each renamed in its
    manifest (its first ``name = "..."`` line), so that each is an entrant of its own.  The
    folders are readable by others, since the sandbox runs bots as another user."""
    copies = []
    for name in names:
        copy = folder / name
        shutil.copytree(source, copy, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
        manifest = copy / "bot.toml"
        manifest.write_text(re.sub(r'^name = ".*"$', f'name = "{name}"', manifest.read_text(encoding="utf-8"),
                                   count=1, flags=re.M), encoding="utf-8")
        for path in (folder, copy):
            path.chmod(0o755)
        copies.append(copy)
    return copies
