"""The Yaniv search bot; the search is in strategy.py, the rules it simulates in yaniv_sim.py.

``python bot.py [DEALS [SECONDS]]``: DEALS sampled deals per decision, at most SECONDS of
thinking per decision (defaults: strategy.DEFAULT_DEALS, strategy.DEFAULT_SECONDS).
"""

from __future__ import annotations

import sys

from arena.sdk import run_bot
from strategy import DEFAULT_DEALS, DEFAULT_SECONDS, make_decide

if __name__ == "__main__":
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DEALS
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_SECONDS
    run_bot(make_decide(deals, seconds), name="yaniv-search", version="1.0", author="arena", games=["yaniv"])
