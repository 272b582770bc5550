"""A bot folder's tree: the files that are packed, unpacked, hashed and built from.

:func:`content_hash` names a bot by its files: the submission server stores an upload under
it (:mod:`arena.submission.archive`) and the build store keeps a build's outputs under it
(:mod:`referee.build`), so both see the same tree, :data:`SKIPPED` names left out.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from referee.untrusted import clean

SKIPPED = frozenset({".git", ".hg", ".svn", "__pycache__", ".venv", ".mypy_cache", ".pytest_cache",
                     ".hypothesis", ".DS_Store"})
"""Names never packed, unpacked or hashed, wherever they are in the tree.  ``node_modules``,
``build`` and the like are kept: a submitted bot must bring its dependencies and binaries."""


class BotTreeError(ValueError):
    """A bot folder holding what no bot tree may: a link out of it, a device, FIFO or socket."""


def _show(name: str) -> str:
    """A name from a stranger's folder, fit for a one-line message."""
    return repr(clean(name, 200))


def bot_tree(folder: Path) -> list[tuple[str, Path | None, bool]]:
    """A bot folder's entries in pack order: (path in the archive, the file to read or None
    for a folder, executable).  A link to a file inside the folder counts as a copy of it;
    any other link, and anything but files and folders, is refused.

    :raises BotTreeError: for those, naming the file."""
    top = Path(folder).resolve()
    entries: list[tuple[str, Path | None, bool]] = []

    def visit(directory: Path, prefix: str) -> None:
        for entry in sorted(os.scandir(directory), key=lambda entry: entry.name):
            if entry.name in SKIPPED:
                continue
            name = prefix + entry.name
            path = Path(entry.path)
            if entry.is_symlink():
                target = path.resolve()
                if not target.is_relative_to(top):
                    raise BotTreeError(f"file {_show(name)} is a link to {clean(target, 200)}, "
                                       f"outside the bot's folder")
                if not target.is_file():
                    raise BotTreeError(f"file {_show(name)} is a link to a folder or to nothing (only links to "
                                       f"files inside the folder are packed, as copies)")
                entries.append((name, target, bool(target.stat().st_mode & 0o111)))
            elif entry.is_dir(follow_symlinks=False):
                entries.append((name, None, True))
                visit(path, name + "/")
            elif entry.is_file(follow_symlinks=False):
                entries.append((name, path, bool(entry.stat(follow_symlinks=False).st_mode & 0o111)))
            else:
                raise BotTreeError(f"file {_show(name)} is not a file or a folder (a device, FIFO or socket)")

    visit(top, "")
    return entries


def content_hash(folder: Path) -> str:
    """SHA-256 (hex) of a bot tree: each file's path, executable bit and contents, and each
    folder's path, in path order.  The same tree has the same hash whether it came from a zip,
    a tar.gz or is still a folder (mtimes, owners and the order of members do not count);
    :data:`SKIPPED` names are left out, as packing and unpacking leave them out.

    :raises BotTreeError: as :func:`bot_tree`."""
    digest = hashlib.sha256(b"arena bot tree 1\n")
    for name, source, executable in sorted(bot_tree(folder)):
        if source is None:
            digest.update(b"D " + name.encode() + b"\0")
            continue
        with source.open("rb") as stream:
            contents = hashlib.file_digest(stream, "sha256").digest()
        digest.update((b"X " if executable else b"F ") + name.encode() + b"\0" + contents)
    return digest.hexdigest()
