"""The live ladder: a league that never stops (issue 26).

:mod:`arena.ladder.scheduler` chooses the next duplicate set to play from the current
ratings and recent match times; it is pure, so it is tested and benchmarked on its own.
"""
