"""Rerun the sample-bot ladder of every game in the engine registry and print it.

    .venv/bin/python benchmarks/ladder.py [--rounds 20] [--seed 19] [--db ladder.db]

For each registered game (and, for Yahtzee, each variant) it runs one ``arena tournament
run`` with the Python sample bots that play it (they need nothing but the project's own
set-up), bots kept alive, then prints the rating table and the head-to-head table.  The
database is a temporary file unless ``--db`` is given.  docs/bots.md quotes its output.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from arena.resources import random_bot_copies
from referee.games import game_class, game_names

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOTS = ROOT / "sample_bots" / "python"


def bots_for(game: str) -> list[Path]:
    """The Python sample bots that play ``game``, the catch-all ones (random) first.

    The search bots (``sample_bots/search``) are not among them: they think up to half a second
    a decision, which would turn this two-minute run into hours; benchmarks/search_gin_yaniv.py
    and search_jass_yoninkan.py measure them against their heuristics on duplicate deals instead."""
    found = []
    for manifest in sorted(PYTHON_BOTS.glob("*/bot.toml")):
        games = tomllib.loads(manifest.read_text())["games"]
        if "*" in games or game in games:
            found.append((0 if "*" in games else 1, manifest.parent))
    return [folder for _, folder in sorted(found)]


def arena(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "arena.cli", *args], check=True, cwd=ROOT)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-ladder-") as scratch:
        db = str(args.db or Path(scratch) / "ladder.db")
        for game in game_names():
            variants = game_class(game).variants if game == "yahtzee" else (game_class(game).variants[0],)
            bots = bots_for(game)
            cls = game_class(game)
            if cls.teams is None and len(bots) < cls.min_players:  # Yoninkan seats four
                bots += random_bot_copies(Path(scratch), cls.min_players - len(bots))
            if len(bots) < 2:
                print(f"{game}: fewer than two sample bots, no ladder")
                continue
            for variant in variants:
                bot_args = [part for bot in bots for part in ("--bot", str(bot))]
                arena("tournament", "run", "--game", game, "--variant", variant, *bot_args, "--rounds",
                      str(args.rounds), "--seed", str(args.seed), "--keep-alive", "--workers", str(args.workers),
                      "--name", f"ladder-{game}-{variant}", "-q", "--db", db)
                print()
                arena("ratings", "--game", game, "--variant", variant, "--format", "markdown", "--db", db)
                arena("h2h", "--game", game, "--variant", variant, "--format", "markdown", "--db", db)


if __name__ == "__main__":
    main()
