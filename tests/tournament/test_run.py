"""Real tournaments in-process: real engines, bot processes over gRPC, worker processes, SQLite."""

from __future__ import annotations

from collections import defaultdict

import pytest

from arena.league.ratings import rating_table
from arena.league.storage import Database
from arena.runs.tournament import TournamentSpec, create_tournament, expand_bots, run_tournament
from arena.scheduling.round_robin import two_seat
from referee.games import make_game
from referee.result import StartupForfeitError
from referee.sandbox import SandboxConfig, SandboxMode

from .helpers import write_bot


@pytest.mark.slow
@pytest.mark.parametrize(("game", "strong"), [("yahtzee", "yahtzee_heuristic"), ("gin_rummy", "gin_heuristic")])
def test_ratings_put_a_clearly_stronger_bot_first(tmp_path, sample_bots, game, strong):
    weak = [write_bot(tmp_path / f"w{i}", f"random-{i}") for i in range(2)]
    specs, _ = expand_bots([str(sample_bots / strong), *map(str, weak)], game)
    with Database(tmp_path / "t.db") as db:
        tid = create_tournament(db, TournamentSpec(game=game, bots=tuple(specs), rounds=2 if game == "yahtzee" else 1, seed=3,
                                                   keep_alive=True))
        summary = run_tournament(db, tid, workers=2)
        summary.require_real()
        rows = rating_table(db, game, db.tournament(tid).variant)
    assert rows[0].bot == specs[0].name
    print([(row.bot, round(row.mu, 2), round(row.sigma, 2)) for row in rows])
    assert rows[0].mu - max(row.mu for row in rows[1:]) > rows[0].sigma  # first by a clear margin


def test_duplicate_deals_deal_the_same_cards_to_every_seat(sample_bots):
    """Every rotation of a duplicate deal gives seat s the same hand, so each bot holds each hand once."""
    game = make_game("gin_rummy", num_players=2)
    pairings = two_seat(["a", "b", "c"], rounds=2, duplicate=True, seed=8)
    deals = defaultdict(list)
    for pairing in pairings:
        deals[pairing.deal].append(pairing)
    for group in deals.values():
        hands_by_seat = [[game.new_initial_state(p.seed).observe(seat).hand for seat in range(2)] for p in group]
        assert all(hands == hands_by_seat[0] for hands in hands_by_seat)  # the same deal every rotation
        held = defaultdict(set)
        for pairing, hands in zip(group, hands_by_seat):
            for seat, bot in enumerate(pairing.seats):
                held[bot].add(hands[seat])
        assert all(len(hands) == 2 for hands in held.values())  # each bot got both hands
    seeds = {p.seed for p in pairings}
    assert len(seeds) == len(deals)
    first_hands = {game.new_initial_state(seed).observe(0).hand for seed in seeds}
    assert len(first_hands) == len(seeds)  # and different deals really differ


def test_the_stored_schedule_uses_duplicate_seeds_for_card_games(tmp_path, sample_bots):
    specs, _ = expand_bots([str(sample_bots)], "gin_rummy")
    with Database(tmp_path / "t.db") as db:
        tid = create_tournament(db, TournamentSpec(game="gin_rummy", bots=tuple(specs), rounds=2, seed=1))
        matches = db.unfinished_matches(tid)
        assert db.tournament(tid).duplicate is True
        assert len(matches) == 4 and matches[0].seed == matches[1].seed != matches[2].seed == matches[3].seed
        assert matches[0].bot_ids == tuple(reversed(matches[1].bot_ids))
        yahtzee_specs, _ = expand_bots([str(sample_bots)], "yahtzee")
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(yahtzee_specs), seed=1))
        assert db.tournament(tid).duplicate is False


def test_a_run_with_a_start_up_forfeit_stores_its_matches_but_is_not_real(tmp_path):
    """A seat whose bot never starts still lets the match end and count as done: whatever
    counts matches must call ``require_real``, which names the forfeit."""
    good = write_bot(tmp_path / "good", "good")
    broken = write_bot(tmp_path / "broken", "broken")
    (broken / "bot.toml").write_text('name = "broken"\ncommand = ["./no-such-program"]\n', encoding="utf-8")
    specs, _ = expand_bots([str(good), str(broken)], "yahtzee")
    with Database(tmp_path / "t.db") as db:
        tid = create_tournament(db, TournamentSpec(game="yahtzee", bots=tuple(specs), seed=3,
                                                   sandbox=SandboxConfig(SandboxMode.NONE)))
        summary = run_tournament(db, tid, workers=1)
    assert summary.played == summary.total == 2 and summary.failed == 0
    assert len(summary.startup_forfeits) == 2 and all("(broken)" in line for line in summary.startup_forfeits)
    with pytest.raises(StartupForfeitError, match=r"2 start-up forfeit\(s\).*no-such-program"):
        summary.require_real()
