"""``python -m arena.cli``: the ``arena`` command, run as a module (tests and hints use it)."""

from arena.cli.main import main

main()
