"""Bots for the benchmarks: copies of the Python sample bots, each in a folder of its own.

The default sandbox shows a bot only its own folder (and the SDK), so a manifest written in a
temporary folder that points at ``sample_bots/python/*/bot.py`` in the checkout cannot run:
every seat would forfeit at start-up, and a benchmark would time failed launches.  Copying
the sample's folder (script and strategy module) next to its manifest is what a real entrant
looks like.  Benchmarks that count matches also call
:meth:`arena.runs.tournament.RunSummary.require_real` or
:func:`referee.result.require_no_startup_forfeits`, so that such a mistake fails loudly.
"""

from __future__ import annotations

import shutil
from pathlib import Path

SAMPLES = Path(__file__).resolve().parent.parent / "sample_bots" / "python"
STRONG = {"yahtzee": "yahtzee_heuristic", "gin_rummy": "gin_heuristic", "jass": "jass_heuristic",
          "yoninkan": "yoninkan_heuristic"}
"""Each game's heuristic sample bot."""


def copy_sample(sample: str, folder: Path, name: str, game: str) -> Path:
    """A copy of ``sample_bots/python/<sample>`` in ``folder`` with a manifest naming it ``name``.

    The folder is readable by others: a root referee's sandbox runs bots as another user.
    """
    shutil.copytree(SAMPLES / sample, folder, ignore=shutil.ignore_patterns("__pycache__", "bot.toml"))
    folder.chmod(0o755)
    (folder / "bot.toml").write_text(f'name = "{name}"\nversion = "1"\nlanguage = "python"\n'
                                     f'command = ["{{python}}", "bot.py"]\ngames = ["{game}"]\n', encoding="utf-8")
    return folder


def write_bots(folder: Path, game: str = "yahtzee", count: int = 6, *, random_share: bool = True) -> list[str]:
    """``count`` entrants of ``game`` under distinct names: random and heuristic copies
    alternating (``random_share``), or heuristic copies only."""
    bots = []
    for i in range(count):
        heuristic = not random_share or i % 2 == 1
        sample = STRONG[game] if heuristic else "random_bot"
        name = f"{'heuristic' if heuristic else 'random'}-{i}"
        bots.append(str(copy_sample(sample, folder / name, name, game)))
    return bots
