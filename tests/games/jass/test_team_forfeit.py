"""A forfeit in a team game sinks the whole team (referee.match.rank_with_forfeits)."""

from __future__ import annotations

from pathlib import Path

from referee.bots import resolve_bot
from referee.match import MatchConfig, TimeControl, rank_with_forfeits, run_match
from referee.replay import replay

ROOT = Path(__file__).resolve().parents[3]
RANDOM_BOT = ROOT / "sample_bots" / "python" / "random_bot"
TEAMS = ((0, 2), (1, 3))


def test_a_forfeiting_seats_partner_ranks_last_with_it() -> None:
    assert rank_with_forfeits([0, 2, 0, 2], {0}, TEAMS) == (2, 0, 2, 0)
    assert rank_with_forfeits([0, 2, 0, 2], {3}, TEAMS) == (0, 2, 0, 2)
    assert rank_with_forfeits([2, 0, 2, 0], {1, 2}, TEAMS) == (2, 0, 2, 0)  # both teams: the engine decides


def test_without_teams_only_the_forfeited_seat_moves() -> None:
    assert rank_with_forfeits([0, 2, 0, 2], {0}) == (3, 1, 0, 1)


def test_a_bot_that_never_starts_forfeits_and_its_team_ranks_last(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "bot.toml").write_text('name = "broken"\ncommand = ["{python}", "-c", "import sys; sys.exit(3)"]\n'
                                       'games = ["*"]\n')
    random_bot = resolve_bot(str(RANDOM_BOT))
    bots = [random_bot, resolve_bot(str(tmp_path)), random_bot, random_bot]
    record = run_match(MatchConfig(game="jass", settings={"target": 300}, seed=11,
                                   time_control=TimeControl(move_timeout=2.0, startup_timeout=15)), bots)
    assert record.finished and record.forfeited == [1]
    assert record.ranking == [0, 2, 0, 2]  # the fallback played seat 1; seat 3 sinks with it
    assert replay(record).ok
