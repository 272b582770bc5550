"""TrueSkill tables from stored rankings: order, ties, forfeits, teams, recompute."""

from __future__ import annotations

import random

import pytest

import trueskill

from arena.league.ratings import (apply_match, environment, rate, rating_table, separations, stronger_probability,
                          team_ranks, update_ratings)
from arena.league.storage import MatchRow

from .helpers import record, tournament_db


def play(db, tid, rank_of, order=None):
    """Store a result for every pending match; ``rank_of(match)`` gives its ranking."""
    pending = db.unfinished_matches(tid)
    for match in (order(pending) if order else pending):
        db.store_result(match.id, record(match.id, rank_of(match)))


def table(db):
    update_ratings(db, "yahtzee", "yahtzee")
    return rating_table(db, "yahtzee", "yahtzee")


def test_a_clearly_stronger_bot_is_rated_first(tmp_path):
    rng = random.Random(1)
    seatings = [rng.sample(range(4), 4) for _ in range(12)]
    db, tid, bots = tournament_db(tmp_path / "a.db", 4, seatings)
    strong = bots[2]

    def ranking(match):  # the strong bot always wins, the others in a random order
        others = [b for b in match.bot_ids if b != strong]
        rng.shuffle(others)
        order = [strong] + others
        return [order.index(b) for b in match.bot_ids]

    play(db, tid, ranking)
    rows = table(db)
    assert rows[0].bot_id == strong and rows[0].wins == 12 and rows[0].matches == 12
    assert rows[0].conservative > max(r.mu for r in rows[1:])
    # the winner is separated from everyone; the three others, shuffled at random, are not from each other
    seps = separations(rows)
    assert (seps[0].best, seps[0].worst, seps[0].tied_with) == (1, 1, ())
    assert [(s.best, s.worst) for s in seps[1:]] == [(2, 4)] * 3
    assert [s.tied_with for s in seps[1:]] == [(3, 4), (2, 4), (2, 3)]


def test_separated_means_the_order_is_95_percent_sure():
    R = trueskill.Rating
    assert stronger_probability(R(25, 3), R(25, 4)) == pytest.approx(0.5)
    assert stronger_probability(R(30, 3), R(25, 4)) == pytest.approx(1 - stronger_probability(R(25, 4), R(30, 3)))
    gap = 1.6449 * 5  # 1.645 standard deviations of the difference (sqrt(3^2 + 4^2) = 5): 95% one-sided
    assert stronger_probability(R(25 + gap, 3), R(25, 4)) == pytest.approx(0.95, abs=1e-4)
    table = [R(50, 3), R(25 + gap + 0.01, 3), R(25, 4), R(25 - 0.01, 4)]
    seps = separations(table)
    assert [(s.best, s.worst, s.tied_with) for s in seps] == [(1, 1, ()), (2, 2, ()), (3, 4, (4,)), (3, 4, (3,))]
    seps = separations([R(50, 3), R(25 + gap - 0.01, 3), R(25, 4)])  # just short of 95%: not separated
    assert [s.tied_with for s in seps] == [(), (3,), (2,)]


def test_ties_are_draws(tmp_path):
    db, tid, bots = tournament_db(tmp_path / "a.db", 2, [[0, 1], [1, 0]] * 3)
    play(db, tid, lambda m: [0, 0])
    rows = table(db)
    assert rows[0].mu == pytest.approx(rows[1].mu) == pytest.approx(25.0)
    assert rows[0].wins == rows[1].wins == 6  # a shared first place counts as a win


def test_a_forfeiting_bot_ranks_last_whatever_the_engine_said(tmp_path):
    db, tid, bots = tournament_db(tmp_path / "a.db", 3, [[0, 1, 2]] * 4)
    for match in db.unfinished_matches(tid):
        rec = record(match.id, [2, 0, 1], forfeited=[0])
        rec.engine_ranking = [0, 1, 2]  # the engine had seat 0 winning before it forfeited
        db.store_result(match.id, rec)
    rows = table(db)
    assert rows[-1].bot_id == bots[0]


def test_team_ranks_use_the_worst_seat_of_each_team():
    assert team_ranks([0, 1, 0, 1], [(0, 2), (1, 3)]) == ([[0, 2], [1, 3]], [0, 1])
    assert team_ranks([0, 1, 3, 1], [(0, 2), (1, 3)]) == ([[0, 2], [1, 3]], [3, 1])  # seat 2 forfeited
    assert team_ranks([1, 0, 2], None) == ([[0], [1], [2]], [1, 0, 2])


def test_partners_move_together():
    env = environment()
    current = {}
    new = apply_match(env, current, [10, 11, 12, 13], [0, 1, 0, 1], [(0, 2), (1, 3)])
    assert new[10].mu == pytest.approx(new[12].mu) and new[11].mu == pytest.approx(new[13].mu)
    assert new[10].mu > 25 > new[11].mu


def test_incremental_update_equals_recompute(tmp_path):
    rng = random.Random(2)
    seatings = [rng.sample(range(4), 3) for _ in range(20)]
    db, tid, bots = tournament_db(tmp_path / "a.db", 4, seatings)
    pending = db.unfinished_matches(tid)
    ranks = {m.id: rng.sample(range(3), 3) for m in pending}
    for match in pending[:8]:
        db.store_result(match.id, record(match.id, ranks[match.id]))
    assert update_ratings(db, "yahtzee", "yahtzee") == 8
    for match in pending[8:]:
        db.store_result(match.id, record(match.id, ranks[match.id]))
    assert update_ratings(db, "yahtzee", "yahtzee") == 12  # only the new ones
    incremental = [(r.bot_id, r.mu, r.sigma) for r in rating_table(db, "yahtzee", "yahtzee")]
    assert update_ratings(db, "yahtzee", "yahtzee", recompute=True) == 20
    assert [(r.bot_id, r.mu, r.sigma) for r in rating_table(db, "yahtzee", "yahtzee")] == incremental


def test_ratings_follow_match_id_order_not_storing_order(tmp_path):
    rng = random.Random(3)
    seatings = [rng.sample(range(4), 2) for _ in range(16)]
    ranks = [rng.choice([[0, 1], [1, 0]]) for _ in seatings]
    results = []
    for name, order in (("a.db", None), ("b.db", lambda ms: list(reversed(ms)))):
        db, tid, _ = tournament_db(tmp_path / name, 4, seatings)
        ids = [m.id for m in db.unfinished_matches(tid)]
        play(db, tid, lambda m: ranks[ids.index(m.id)], order)
        results.append([(r.bot, r.mu, r.sigma) for r in table(db)])
    assert results[0] == results[1]


def test_a_result_below_the_rated_ids_triggers_a_full_recompute(tmp_path):
    seatings = [[0, 1], [1, 0], [0, 1], [1, 0]]
    db, tid, _ = tournament_db(tmp_path / "a.db", 2, seatings)
    pending = db.unfinished_matches(tid)
    for match in pending[1:]:
        db.store_result(match.id, record(match.id, [0, 1]))
    table(db)
    db.store_result(pending[0].id, record(pending[0].id, [1, 0]))
    assert update_ratings(db, "yahtzee", "yahtzee") == 4
    after = [(r.bot, r.mu) for r in rating_table(db, "yahtzee", "yahtzee")]
    update_ratings(db, "yahtzee", "yahtzee", recompute=True)
    assert [(r.bot, r.mu) for r in rating_table(db, "yahtzee", "yahtzee")] == after


def test_count_done_equals_a_count_whatever_the_storing_order(tmp_path):
    """The running-total form of ``count_done`` (all played minus those above) is the count below."""
    rng = random.Random(5)
    db, tid, _ = tournament_db(tmp_path / "a.db", 3, [rng.sample(range(3), 2) for _ in range(12)])
    pending = db.unfinished_matches(tid)
    ids = [m.id for m in pending]
    assert db.has_stats
    for match in rng.sample(pending, len(pending)):
        db.store_result(match.id, record(match.id, [0, 1]))
        for up_to in [0, *ids]:
            counted = db.conn.execute("SELECT COUNT(*) FROM matches WHERE status = 'done' AND id <= ?",
                                      (up_to,)).fetchone()[0]
            assert db.count_done("yahtzee", "yahtzee", up_to_id=up_to) == counted


def test_rate_without_a_database():
    matches = [MatchRow(id=i, tournament_id=1, position=i, round=0, deal=i, rotation=0, game="g", variant="v",
                        settings={}, seed=i, num_players=2, status="done", bot_ids=(1, 2), ranking=(0, 1))
               for i in range(5)]
    final, history = rate(matches, None)
    assert final[1].mu > final[2].mu and len(history) == 5
