"""Rerun the sample-bot ladder of every game in the engine registry and print it.

    .venv/bin/python benchmarks/ladder.py [--rounds 20] [--seed 19] [--db ladder.db]
    .venv/bin/python benchmarks/ladder.py --search [--games gin_rummy ...] [--rounds 4] [--seed 36]

For each registered game (and, for Yahtzee, each variant) it runs one ``arena tournament
run`` with the Python sample bots that play it (they need nothing but the project's own
set-up), bots kept alive, then prints the rating table and the head-to-head table.  The
database is a temporary file unless ``--db`` is given.  docs/bots.md quotes its output.

``--search`` measures the card games' search bots (``sample_bots/search``) instead, each
against its heuristic through the referee at the default time control, on duplicate deals:
a tournament of the two (Yoninkan: the search bot and three copies of the heuristic, every
seat rotation of each deal), whose tables show the search bot's wins and its decision
times, then ``arena sprt`` of the search bot (NEW) against the heuristic (OLD) with the
bounds of :data:`SEARCH_SPRT`.  Hours at the default rounds on a 2-core machine.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from arena.resources import random_bot_copies, renamed_copies
from referee.games import game_class, game_names

ROOT = Path(__file__).resolve().parents[1]
PYTHON_BOTS = ROOT / "sample_bots" / "python"
SEARCH_BOTS = ROOT / "sample_bots" / "search"
SEARCH = {"gin_rummy": ("gin_search", "gin_heuristic"), "yaniv": ("yaniv_search", "yaniv_heuristic"),
          "jass": ("jass_search", "jass_heuristic"), "yoninkan": ("yoninkan_search", "yoninkan_heuristic")}
"""Each card game's search bot and the heuristic it is measured against."""
SEARCH_SPRT = ("--elo0", "0", "--elo1", "30", "--max-pairs", "200")
"""The search bots' SPRT: normalised Elo 0 against 30 (they win 60 to 80 % of the matches, far
more than 30 normalised Elo), alpha = beta = 0.05, at most 200 pairs."""


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


def arena(*args: str, check: bool = True) -> int:
    return subprocess.run([sys.executable, "-m", "arena.cli", *args], check=check, cwd=ROOT).returncode


def search_ladder(games: list[str], rounds: int, seed: int, workers: int, db: str, scratch: Path) -> None:
    """The search bots against their heuristics: a duplicate-deal tournament and an SPRT per game."""
    for game in games:
        search, heuristic = (SEARCH_BOTS / SEARCH[game][0], PYTHON_BOTS / SEARCH[game][1])
        bots = [search, heuristic]
        if game_class(game).teams is None and game_class(game).min_players > 2:  # Yoninkan: four seats
            bots += renamed_copies(heuristic, scratch, [f"yoninkan-heuristic-{n}" for n in (2, 3)])
        variant = game_class(game).variants[0]
        bot_args = [part for bot in bots for part in ("--bot", str(bot))]
        arena("tournament", "run", "--game", game, "--variant", variant, *bot_args, "--rounds", str(rounds),
              "--seed", str(seed), "--duplicate", "--keep-alive", "--workers", str(workers),
              "--name", f"search-{game}", "-q", "--db", db)
        print()
        arena("ratings", "--game", game, "--variant", variant, "--format", "markdown", "--db", db)
        arena("h2h", "--game", game, "--variant", variant, "--format", "markdown", "--db", db)
        print()
        verdict = arena("sprt", "--game", game, "--bot", str(search), "--bot", str(heuristic), *SEARCH_SPRT,
                        "--seed", str(seed), "--keep-alive", "--workers", str(workers), check=False)
        print(f"{game}: arena sprt exit {verdict} (0: the search bot is stronger, 1: not, 2: undecided)\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument("--search", action="store_true", help="the search bots against their heuristics")
    parser.add_argument("--games", nargs="+", choices=sorted(SEARCH), default=sorted(SEARCH),
                        help="with --search: which card games")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="arena-ladder-") as scratch:
        db = str(args.db or Path(scratch) / "ladder.db")
        if args.search:
            search_ladder(args.games, args.rounds, args.seed, args.workers, db, Path(scratch))
            return
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
