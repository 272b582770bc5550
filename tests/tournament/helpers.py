"""Shared builders for the tournament tests: bot manifests, records and databases."""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

from arena.league.storage import Database, ScheduledMatch
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots
from referee.result import Fault, MatchRecord, Move, MoveStatus

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOTS = ROOT / "sample_bots" / "python"
RESUME_ROUNDS = 2
"""Rounds of the crash-and-resume tournaments (test_crash_resume, test_dask): four random bots
at tables of 2, seed 11, kept alive; the ``uninterrupted`` fixture is their one reference."""


def write_bot(folder: Path, name: str, sample: str = "random_bot", *, version: str = "1.0",
              games: str = '["*"]') -> Path:
    """A folder with a copy of a sample bot's script and a manifest named ``name``.

    The folder is readable by others: the sandbox runs bots as an unprivileged user.
    """
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o755)
    shutil.copy(SAMPLE_BOTS / sample / "bot.py", folder / "bot.py")
    (folder / "bot.toml").write_text(
        f'name = "{name}"\nversion = "{version}"\nlanguage = "python"\n'
        f'command = ["{{python}}", "bot.py"]\ngames = {games}\n', encoding="utf-8")
    return folder


def record(match_id: int, ranking: Sequence[int], scores: Sequence[float] | None = None,
           faults: Sequence[Fault] = (), forfeited: Sequence[int] = ()) -> MatchRecord:
    """A finished Yahtzee record with this ranking, as the referee would return it."""
    n = len(ranking)
    return MatchRecord(match_id=str(match_id), game="yahtzee", variant="yahtzee", num_players=n, settings={}, seed=0,
                       players=[f"bot{i}@1" for i in range(n)], moves=[Move(0, 0, "roll", MoveStatus.OK, 1.0)],
                       faults=list(faults), forfeited=list(forfeited),
                       scores=list(scores or [float(10 - r) for r in ranking]), ranking=list(ranking),
                       engine_ranking=list(ranking), termination="normal", reason="test", duration_s=0.1)


def tournament_db(path: Path, n_bots: int, seatings: Sequence[Sequence[int]]) -> tuple[Database, int, list[int]]:
    """A database with one Yahtzee tournament whose matches seat ``seatings`` (bot positions)."""
    db = Database(path)
    bots = [db.register_bot(name=f"bot{i}", version="1", files_hash=f"h{i}").id for i in range(n_bots)]
    tid = db.create_tournament(
        name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=n_bots,
        rounds=1, duplicate=False, seed=0, time_control={}, options={}, bot_ids=bots,
        matches=[ScheduledMatch(tuple(bots[i] for i in seats), seed=k, round=0, deal=k, rotation=0)
                 for k, seats in enumerate(seatings)])
    return db, tid, bots


def random_bots(folder: Path) -> list[Path]:
    """Four deterministic random bots under their own names (``random-0`` ...), in ``folder``."""
    return [write_bot(folder / f"r{i}", f"random-{i}") for i in range(4)]


def resume_tournament(db_path: Path, bots: Sequence[Path]) -> tuple[Database, int]:
    """The crash-and-resume tournament, created in-process as ``arena tournament run`` with
    ``--table-size 2 --rounds RESUME_ROUNDS --seed 11 --keep-alive`` would."""
    specs, _ = expand_bots([str(bot) for bot in bots], "yahtzee")
    db = Database(db_path)
    return db, create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs), table_size=2,
                                                    rounds=RESUME_ROUNDS, seed=11, keep_alive=True))
