"""The ``arena`` command line (the ``arena`` script runs :func:`main`).

:mod:`arena.cli.main` holds the group and ``arena games``; each command group has a module
of its own (play, tournament, results, db, kits, web), with the helpers they share in
:mod:`arena.cli.common`, :mod:`arena.cli.hints` and :mod:`arena.cli.output` (the progress
display runs draw is :mod:`arena.runs.progress`).
"""

from arena.cli.main import main

__all__ = ["main"]
