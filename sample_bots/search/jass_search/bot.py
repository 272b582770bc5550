"""A Jass search bot (determinization with heuristic playouts); the strategy itself is in strategy.py."""

from __future__ import annotations

from arena.sdk import run_bot
from strategy import decide

if __name__ == "__main__":
    run_bot(decide, name="jass-search", version="1.0", author="arena", games=["jass"])
