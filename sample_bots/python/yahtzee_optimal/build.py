"""The bot's build step (its manifest's ``[build] command``): solve both variants' tables
into the outputs folder, ``$ARENA_BUILD``.

The referee runs it in the sandbox once per content hash of this folder (about a minute of
CPU and 150 MB for both variants) and shows the folder to the bot read-only at match time.
By hand: ``ARENA_BUILD=/some/folder python build.py``.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from strategy import VARIANTS, table_path
from yahtzee_rules import rules

from arena.yahtzee_dp import Table, count_states, rules_digest, solve


def build(variant: str, folder: Path) -> None:
    """Solve ``variant`` and save its table, printing progress every tenth of the states."""
    variant_rules = rules(variant)
    total, done, shown = count_states(variant_rules), 0, 0
    started = time.perf_counter()

    def progress(count: int) -> None:
        nonlocal done, shown
        done += count
        if done * 10 // total > shown:
            shown = done * 10 // total
            print(f"{variant}: {shown * 10}% of {total:,} states, {time.perf_counter() - started:.0f} s", flush=True)

    values = solve(variant_rules, progress=progress)
    Table(variant_rules, rules_digest(variant_rules), values).save(table_path(variant, folder))


if __name__ == "__main__":
    if not os.environ.get("ARENA_BUILD"):
        sys.exit("build.py: set ARENA_BUILD to the folder the tables go to")
    for name in VARIANTS:
        build(name, Path(os.environ["ARENA_BUILD"]))
