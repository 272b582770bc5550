"""Precomputed tables in the user's cache folder, and how bots ask for them.

Some sample bots play from tables too costly to compute at start-up (the optimal Yahtzee
policy: :mod:`arena.yahtzee_tables`).  A table is built on first use (minutes, with a
progress bar), then loaded in well under a second.  It lives in ``$ARENA_TABLES`` if set,
else ``$XDG_CACHE_HOME/arena/tables``, else ``~/.cache/arena/tables``: never in the
repository.

A sandboxed bot sees neither the home folder nor the referee package, so its manifest asks
for tables by set name (``[sandbox] tables = ["yahtzee_optimal"]``): the referee builds the
missing ones with arena's own code before starting the bot (:func:`prepare_tables`), shows
the tables folder read-only and passes its path in ``ARENA_TABLES``.

This module is light (no numpy): the referee imports it for every bot, and bots import
:func:`tables_folder` inside the sandbox.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final

TABLES_VARIABLE: Final = "ARENA_TABLES"
TABLE_SETS: Final[Mapping[str, tuple[str, ...]]] = {"yahtzee_optimal": ("yahtzee", "yams")}
"""Set names a bot manifest may ask for -> the Yahtzee variants whose tables they stand for."""


def tables_folder(environ: Mapping[str, str] | None = None) -> Path:
    """Where tables live (see the module docstring); not created here."""
    env = os.environ if environ is None else environ
    if env.get(TABLES_VARIABLE):
        return Path(env[TABLES_VARIABLE])
    cache = env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "arena" / "tables"


def table_path(variant: str, folder: Path | None = None) -> Path:
    """The file of the optimal ``variant`` table (:mod:`arena.yahtzee_tables`)."""
    return (folder or tables_folder()) / f"optimal-{variant}.npz"


def prepare_tables(names: Iterable[str]) -> Path | None:
    """Build every table of the sets ``names`` that is missing or stale; the tables folder,
    or ``None`` when no set is asked for.

    :raises KeyError: for an unknown set name (manifests are checked before this).
    """
    names = list(names)
    if not names:
        return None
    from arena.yahtzee_tables import ensure  # numpy and the engine, only for bots that ask

    folder = tables_folder()
    for name in names:
        for variant in TABLE_SETS[name]:
            ensure(variant, folder)
    return folder
