"""A bot that picks a uniformly random legal action, in every game.

Its choices are seeded by the observation itself, so the same match replays identically
(tournament resume and the replay tests rely on deterministic sample bots).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from arena.sdk import run_bot
from arena.v1 import bot_pb2


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    rng = random.Random(observation.SerializeToString(deterministic=True))
    return rng.randrange(len(legal_actions))


if __name__ == "__main__":
    run_bot(decide, name="random", version="1.0", author="arena", games=["*"])
