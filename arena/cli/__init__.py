"""The ``arena`` command line: :mod:`arena.cli.main` holds the group, one module per command group."""
