"""Jass through the tournament machinery: team schedules, self-partnership, self-play,
ratings per team and one rating row per bot."""

from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest
import trueskill
from click.testing import CliRunner

from arena.cli import main
from arena.league.ratings import apply_match, environment
from arena.scheduling.round_robin import format_for, schedule
from referee.bots import resolve_bot
from referee.match import MatchConfig, TimeControl, run_match

from .helpers import SAMPLE_BOTS, write_bot

TEAMS = ((0, 2), (1, 3))


def jass_format(num_bots: int):
    return format_for(min_players=4, max_players=4, teams=TEAMS, num_bots=num_bots)


def test_with_four_or_more_bots_every_bot_partners_every_other_on_both_sides() -> None:
    pairings = schedule(jass_format(5), list("abcde"), seed=1)
    partners = Counter(frozenset((p.seats[t[0]], p.seats[t[1]])) for p in pairings for t in TEAMS)
    assert set(partners) == {frozenset(pair) for pair in combinations("abcde", 2)}
    assert len(set(partners.values())) == 1
    for pairing in pairings:
        assert len(set(pairing.seats)) == 4


def test_with_two_or_three_bots_each_bot_fills_its_team_on_both_sides() -> None:
    assert [p.seats for p in schedule(jass_format(2), ["a", "b"])] == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    pairings = schedule(jass_format(3), ["a", "b", "c"])
    assert len(pairings) == 6
    assert {frozenset(p.seats) for p in pairings} == {frozenset(pair) for pair in combinations("abc", 2)}
    for pairing in pairings:
        assert pairing.seats[0] == pairing.seats[2] and pairing.seats[1] == pairing.seats[3]


def test_a_self_partnership_is_rated_as_one_player_against_the_other() -> None:
    env = environment()
    current: dict[int, trueskill.Rating] = {}
    new = apply_match(env, current, [1, 2, 1, 2], [0, 2, 0, 2], TEAMS)
    one_on_one = env.rate([{1: env.create_rating()}, {2: env.create_rating()}], ranks=[0, 1])
    for mine, library in ((new[1], one_on_one[0][1]), (new[2], one_on_one[1][2])):  # closed form: equal to 1e-9
        assert (mine.mu, mine.sigma) == pytest.approx((library.mu, library.sigma), abs=1e-9)


def test_self_play_is_not_rated() -> None:
    env = environment()
    current = {7: trueskill.Rating(30, 2)}
    assert apply_match(env, current, [7, 7, 7, 7], [0, 2, 0, 2], TEAMS) == {}
    assert apply_match(env, current, [7, 8, 9, 7], [0, 2, 0, 2], TEAMS) == {}
    assert current == {7: trueskill.Rating(30, 2)}


def test_a_bot_plays_all_four_seats_against_itself() -> None:
    random_bot = resolve_bot(str(SAMPLE_BOTS / "random_bot"))
    record = run_match(MatchConfig(game="jass", settings={"target": 300}, seed=3,
                                   time_control=TimeControl(move_timeout=2.0, startup_timeout=15)), [random_bot] * 4)
    assert record.finished and not record.faults
    assert record.ranking[0] == record.ranking[2] and record.ranking[1] == record.ranking[3]
    assert sorted(record.ranking) == [0, 0, 2, 2]


def _run(*args: str):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result


def test_a_tournament_of_four_bots_rates_each_bot_once(tmp_path) -> None:
    for name in ("north", "east", "south", "west"):
        write_bot(tmp_path / "bots" / name, name)
    db = str(tmp_path / "arena.db")
    _run("tournament", "run", "--game", "jass", "--setting", "target=200", "--bot", str(tmp_path / "bots"),
         "--workers", "1", "--seed", "4", "--keep-alive", "--quiet", "--db", db)
    rows = json.loads(_run("ratings", "--game", "jass", "--format", "json", "--db", db).output)
    assert sorted(row["bot"] for row in rows) == ["east", "north", "south", "west"]
    assert all(row["matches"] == 6 for row in rows)  # 3 partnerships x 2 sides, each bot in every match
    assert sum(row["wins"] for row in rows) == 2 * 6  # one winning team of two per match


def test_a_tournament_of_two_bots_partnering_themselves(tmp_path) -> None:
    db = str(tmp_path / "arena.db")
    _run("tournament", "run", "--game", "jass", "--setting", "target=1000", "--bot", str(SAMPLE_BOTS),
         "--rounds", "2", "--workers", "1", "--seed", "2", "--keep-alive", "--quiet", "--db", db)
    rows = json.loads(_run("ratings", "--game", "jass", "--format", "json", "--db", db).output)
    assert [row["bot"] for row in rows] == ["jass-heuristic", "random"]
    assert [row["matches"] for row in rows] == [4, 4]  # two seats each, but one match is one match
    h2h = json.loads(_run("h2h", "--game", "jass", "--format", "json", "--db", db).output)
    assert {(cell["bot"], cell["opponent"], cell["matches"]) for cell in h2h} == {
        ("jass-heuristic@1.0", "random@1.0", 4), ("random@1.0", "jass-heuristic@1.0", 4)}  # matches, not seat pairs
