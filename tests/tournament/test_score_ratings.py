"""The score model (issue 35): a full refit over luck-adjusted results, order-free, with
intervals that cover the truth at their stated rate, and LOS between any two bots."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from arena.league.score_ratings import INTERVAL_Z, PRIOR_WEIGHT, Accumulator, design, extend, fit, rateable, refit
from arena.league.storage import Database, ScheduledMatch

from .helpers import record

JASS_TEAMS = ((0, 2), (1, 3))


def synthetic(rng: np.random.Generator, theta: np.ndarray, matches: int, seats: int,
              teams: tuple[tuple[int, ...], ...] | None, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """Tables of distinct bots drawn at random, each seat's result = its side's strength + noise."""
    bots = np.array([rng.choice(len(theta), seats, replace=False) for _ in range(matches)])
    strength = theta[bots]
    if teams is not None:
        for team in teams:
            strength[:, list(team)] = strength[:, list(team)].mean(axis=1, keepdims=True)
    return bots, strength + rng.normal(0, noise, strength.shape)


def test_two_bots_heads_up_is_the_mean_margin_shrunk_by_the_prior() -> None:
    """Solved by hand: with k heads-up matches of margins d, the normal equations give
    theta_a - theta_b = sum(d) / (k + PRIOR_WEIGHT)."""
    margins = [10.0, -4.0, 7.0, 3.0]
    acc = Accumulator()
    acc.add(np.array([[5, 9]] * 4), np.array([[d, 0.0] for d in margins]), design(2, None))
    fitted = fit(acc)
    ratings = fitted.ratings
    assert ratings[5].mu - ratings[9].mu == pytest.approx(sum(margins) / (4 + PRIOR_WEIGHT), abs=1e-12)
    assert ratings[5].mu + ratings[9].mu == pytest.approx(0, abs=1e-12)
    assert fitted.los(5, 9) > 0.5
    assert fitted.los(5, 9) + fitted.los(9, 5) == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize("seats, teams", [(2, None), (4, None), (4, JASS_TEAMS)])
def test_intervals_cover_the_true_strengths_at_their_stated_rate(seats: int,
                                                                  teams: tuple[tuple[int, ...], ...] | None) -> None:
    """40 leagues of 8 bots (seed 35), 600 matches each: the 95 % intervals of the centred
    strengths must cover the truth in 91 % to 99 % of the 320 cases (binomial: 95 % +- 2.5 sd),
    and the noise (25 points) be estimated within 2 % on average (each within 10 %)."""
    rng = np.random.default_rng(35)
    covered = total = 0
    noises = []
    for _ in range(40):
        theta = rng.normal(0, 6, 8)
        bots, results = synthetic(rng, theta, 600, seats, teams, noise=25.0)
        acc = Accumulator()
        acc.add(bots, results, design(seats, teams))
        fitted = fit(acc)
        truth = theta - theta.mean()
        for bot, rating in fitted.ratings.items():
            low, high = rating.interval
            covered += low <= truth[bot] <= high
            total += 1
        noises.append(fitted.noise)
    assert all(abs(noise - 25.0) < 2.5 for noise in noises)
    assert sum(noises) / len(noises) == pytest.approx(25.0, rel=0.02)
    assert 0.91 <= covered / total <= 0.99, covered / total


def test_a_refit_does_not_depend_on_the_order_or_the_chunks() -> None:
    rng = np.random.default_rng(7)
    bots, results = synthetic(rng, rng.normal(0, 5, 12), 3000, 4, None, noise=10.0)
    whole = Accumulator()
    whole.add(bots, results, design(4, None))
    order = rng.permutation(len(bots))
    pieces = Accumulator()
    for part in np.array_split(order, 17):
        pieces.add(bots[part], results[part], design(4, None))
    a, b = fit(whole), fit(pieces)
    assert a.bots == b.bots
    assert np.max(np.abs(a.mu - b.mu)) < 1e-9
    assert np.max(np.abs(a.cov - b.cov)) < 1e-9
    assert a.noise == pytest.approx(b.noise, abs=1e-9)


def test_los_is_a_probability_antisymmetric_and_follows_the_ratings() -> None:
    rng = np.random.default_rng(3)
    theta = np.array([6.0, 3.0, 0.0, -3.0, -6.0])
    bots, results = synthetic(rng, theta, 400, 2, None, noise=15.0)
    acc = Accumulator()
    acc.add(bots, results, design(2, None))
    fitted = fit(acc)
    matrix = fitted.los_matrix()
    for (a, b), p in matrix.items():
        assert 0.0 <= p <= 1.0
        assert p + matrix[(b, a)] == pytest.approx(1.0, abs=1e-12)
        assert (p > 0.5) == (fitted.ratings[a].mu > fitted.ratings[b].mu)
    assert matrix[(0, 4)] > 0.999


def test_self_play_is_not_rateable_but_a_bot_partnering_itself_is() -> None:
    assert not rateable([1, 1], None)
    assert rateable([1, 2, 3], None)
    assert rateable([1, 2, 1, 2], JASS_TEAMS)
    assert not rateable([1, 1, 2, 2], JASS_TEAMS)


def luck_report(estimator: str, scores: list[float], luck: list[float]) -> str:
    mean = sum(scores) / len(scores)
    result = [s - mean for s in scores]
    return json.dumps({"format": 1, "estimator": estimator, "result": result, "luck": luck,
                       "adjusted": [r - x for r, x in zip(result, luck)], "steps": [[0, "the deal", luck]]})


def league(path: Path, played: list[tuple[tuple[int, int], tuple[float, float], tuple[float, float] | None]]) \
        -> tuple[Database, list[int]]:
    """A real league file of two-seat Yahtzee matches (bot positions, scores, luck or None), in that order."""
    db = Database(path)
    bots = [db.register_bot(name=f"bot{i}", version="1", files_hash=f"h{i}").id for i in range(4)]
    tid = db.create_tournament(
        name="t", game="yahtzee", variant="yahtzee", settings={}, format="free_for_all", table_size=2, rounds=1,
        duplicate=False, seed=0, time_control={}, options={}, bot_ids=bots,
        matches=[ScheduledMatch((bots[a], bots[b]), seed=k, round=0, deal=k, rotation=0)
                 for k, ((a, b), _, _) in enumerate(played)])
    rows = db.unfinished_matches(tid)
    db.store_results([(row.id, record(row.id, [0, 1] if scores[0] > scores[1] else [1, 0], list(scores)))
                      for row, (_, scores, _) in zip(rows, played)])
    for row, (_, scores, luck) in zip(rows, played):
        if luck is not None:
            assert db.store_luck(row.id, luck_report("yahtzee/test", list(scores), list(luck)))
    return db, bots


def test_the_stored_refit_reads_the_luck_of_its_estimator_and_any_order_of_ids(tmp_path: Path) -> None:
    """Two real league files holding the same matches under shuffled ids give the same ratings
    to 1e-9; matches with luck of the chosen estimator are adjusted, the others raw."""
    rng = random.Random(12)
    played = []
    for _ in range(300):
        a, b = rng.sample(range(4), 2)
        scores = (rng.gauss(200 + 10 * (3 - a), 40), rng.gauss(200 + 10 * (3 - b), 40))
        luck = (rng.gauss(0, 15),) if rng.random() < 0.7 else None
        played.append(((a, b), scores, None if luck is None else (luck[0], -luck[0])))
    first, bots = league(tmp_path / "a.db", played)
    shuffled = played[:]
    rng.shuffle(shuffled)
    second, bots2 = league(tmp_path / "b.db", shuffled)
    with_luck = sum(luck is not None for _, _, luck in played)
    one, two = refit(first, "yahtzee", "yahtzee", estimator="yahtzee/test"), \
        refit(second, "yahtzee", "yahtzee", estimator="yahtzee/test")
    assert (one.matches, one.adjusted, one.raw) == (300, with_luck, 300 - with_luck)
    assert (two.matches, two.adjusted, two.raw) == (300, with_luck, 300 - with_luck)
    for i in range(4):
        assert one.ratings[bots[i]].mu == pytest.approx(two.ratings[bots2[i]].mu, abs=1e-9)
        assert one.ratings[bots[i]].sigma == pytest.approx(two.ratings[bots2[i]].sigma, abs=1e-9)
    assert [b for b in sorted(bots, key=lambda b: -one.ratings[b].mu)] == bots  # 10 points apart, 150 matches each
    raw = refit(first, "yahtzee", "yahtzee", estimator="yahtzee/other")
    assert (raw.adjusted, raw.raw) == (0, 300)
    assert any(abs(raw.ratings[b].mu - one.ratings[b].mu) > 1e-3 for b in bots)
    # Extending an accumulator by the matches stored since equals the refit.
    acc = extend(Accumulator(), first, "yahtzee", "yahtzee", "yahtzee/test", before_id=150)
    assert acc.matches == 149
    extend(acc, first, "yahtzee", "yahtzee", "yahtzee/test")
    again = fit(acc)
    assert max(abs(again.ratings[b].mu - one.ratings[b].mu) for b in bots) < 1e-9
    first.close()
    second.close()


def test_a_forfeiting_seat_scores_the_tables_worst(tmp_path: Path) -> None:
    db, bots = league(tmp_path / "f.db", [((0, 1), (100.0, 300.0), None)])
    match = db.matches()[0]
    db.conn.execute("UPDATE match_seats SET forfeited = 1 WHERE match_id = ? AND seat = 1", (match.id,))
    fitted = refit(db, "yahtzee", "yahtzee", estimator="yahtzee/test")
    assert fitted.ratings[bots[0]].mu == pytest.approx(0.0, abs=1e-12)  # both at the table's worst: even
    assert math.isfinite(fitted.noise)
    assert INTERVAL_Z == pytest.approx(1.96, abs=1e-3)
    db.close()


def test_ratings_take_out_the_luck_of_estimators_used_for_verdicts_only() -> None:
    """Every game's current estimator is used, except one measured to add variance (Yoninkan's):
    its ratings read the plain results, and a refit says so."""
    from arena.league.score_ratings import current_estimator
    from referee.luck import estimator_for

    for game in ("yahtzee", "gin_rummy", "jass", "yaniv"):
        assert current_estimator(game) == estimator_for(game).name
    assert not estimator_for("yoninkan").for_verdicts and current_estimator("yoninkan") is None
