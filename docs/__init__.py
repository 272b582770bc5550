"""The documentation, shipped inside arena as the package data ``arena.docs``.

pyproject.toml maps this folder to ``arena.docs`` so that a wheel-installed arena has the
pages its starter kits and .proto files point to (``arena docs NAME`` prints one);
:mod:`arena.resources` finds it. Nothing here is imported as code.
"""
