"""The protocol's .proto files, shipped inside arena as the package data ``arena.proto``.

pyproject.toml maps this folder to ``arena.proto`` so that a wheel-installed arena can
write them out (``arena proto --out DIR``); :mod:`arena.resources` finds it.
"""
