"""The Gin Rummy search bot; the search is in strategy.py, the rules it simulates in gin_sim.py.

``python bot.py [DEALS]``: DEALS sampled deals per decision (default strategy.DEFAULT_DEALS).
"""

from __future__ import annotations

import sys

from arena.sdk import run_bot
from strategy import DEFAULT_DEALS, make_decide

if __name__ == "__main__":
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DEALS
    run_bot(make_decide(deals), name="gin-search", version="1.0", author="arena", games=["gin_rummy"])
