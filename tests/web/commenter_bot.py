"""A random bot whose every decision carries a comment made of HTML (tests of untrusted text).

Its manifest (written by the tests) gives it a name, version and author that are HTML too.
"""

from __future__ import annotations

import sys

from arena.sdk import random_decide, run_bot
from arena.v1 import bot_pb2

COMMENT = '<img src=x onerror="alert(2)"><b class="injected">bold</b> <!-- hidden -->'


def decide(observation, legal_actions):  # type: ignore[no-untyped-def]
    return bot_pb2.DecideResponse(action_index=random_decide(observation, legal_actions), comment=COMMENT)


if __name__ == "__main__":
    run_bot(decide, name=sys.argv[1] if len(sys.argv) > 1 else "commenter", version="1", games=["*"])
