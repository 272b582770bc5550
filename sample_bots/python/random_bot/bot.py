"""A bot that picks a uniformly random legal action, in every game.

The policy is :func:`arena.sdk.random_decide` (the same baseline `arena check-bot` plays
against): its choices are seeded by the observation, so a match replays identically.
"""

from __future__ import annotations

from arena.sdk import random_decide, run_bot

if __name__ == "__main__":
    run_bot(random_decide, name="random", version="1.0", author="arena", games=["*"])
