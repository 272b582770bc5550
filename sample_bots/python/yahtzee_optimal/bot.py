"""The solitaire-optimal Yahtzee/Yams bot; the policy is in strategy.py.

The tables (its build step's outputs, in ``$ARENA_BUILD``) are loaded before the bot serves (well under a second each), so no decision
pays for them.
"""

from __future__ import annotations

from arena.sdk import run_bot
from strategy import Strategy

if __name__ == "__main__":
    run_bot(Strategy.from_build().decide, name="yahtzee-optimal", version="1.0", author="arena", games=["yahtzee"])
