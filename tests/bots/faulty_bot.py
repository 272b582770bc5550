"""A bot that misbehaves on purpose, for the referee's fault tests.

Usage: ``faulty_bot.py BEHAVIOUR`` with BEHAVIOUR one of:

- ``sleep``: every decision sleeps far past any deadline;
- ``sleep-once``: the first decision sleeps 0.6 s, the rest answer at once;
- ``exit``: answers three decisions, then the process exits in the middle of the fourth;
- ``bad-index``: answers an index past the end of the legal actions;
- ``negative-index``: answers -1.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence

from arena.sdk import run_bot
from arena.v1 import bot_pb2

BEHAVIOUR = sys.argv[1]
_decisions = 0


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    global _decisions
    _decisions += 1
    if BEHAVIOUR == "sleep":
        time.sleep(30)
    elif BEHAVIOUR == "sleep-once" and _decisions == 1:
        time.sleep(0.6)
    elif BEHAVIOUR == "exit" and _decisions > 3:
        os._exit(3)
    elif BEHAVIOUR == "bad-index":
        return len(legal_actions) + 5
    elif BEHAVIOUR == "negative-index":
        return -1
    return 0


if __name__ == "__main__":
    run_bot(decide, name=f"faulty-{BEHAVIOUR}", version="1.0", author="tests", games=["*"])
