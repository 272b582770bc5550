"""The sample bots, shipped inside arena as the package data ``arena.sample_bots``.

pyproject.toml maps this folder to ``arena.sample_bots`` so that a wheel-installed arena has
the Python sample bots (for ``arena demo``) and the other languages' SDKs (for ``arena
new-bot``); :mod:`arena.resources` finds it. Nothing here is imported as code.
"""
