"""How to spell the ``arena`` command in hints ("resume with `arena tournament resume 1`").

A hint must work where the user is: ``./dev arena`` in a checkout run through ``./dev``
(which puts nothing on ``PATH``), ``arena`` when installed and on ``PATH``, the script's
full path when run by path, and ``python -m arena.cli`` when run as a module.  Every hint
the CLI prints goes through :func:`arena_command`.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from pathlib import Path

DEV_VARIABLE = "ARENA_DEV"
"""Set by ``./dev arena`` (and ``./dev demo``) to the path ``./dev`` was run as."""


def arena_command() -> str:
    """The words that run ``arena`` from the user's current folder, quoted for a POSIX shell."""
    dev = os.environ.get(DEV_VARIABLE)
    if dev:
        return f"{shlex.quote(dev)} arena"
    script = Path(sys.argv[0]) if sys.argv and sys.argv[0] else None
    if script is None or script.name != "arena":  # python -m arena.cli, or a test harness
        return f"{shlex.quote(sys.executable)} -m arena.cli"
    found = shutil.which("arena")
    if found is not None and Path(found).resolve() == script.resolve():
        return "arena"
    return shlex.quote(str(script.resolve()))


def arena_hint(*words: object) -> str:
    """``arena_command()`` followed by ``words`` (each quoted): a command line to print."""
    return " ".join([arena_command(), *(shlex.quote(str(word)) for word in words)])
