"""Free-for-all tables (three or more sides of one bot) are rated by a port of the trueskill
library's message passing on plain numbers: equal to the library to 1e-9."""

from __future__ import annotations

import random

import pytest
import trueskill

from arena.league.ratings import apply_match, environment, rate_free_for_all

UPDATES = 5_000
"""Each of the 36 kinds of update drawn below (seats, spread, kind of ranking) comes up about
140 times; 20 000 (20 s) drew no kind these lack (and, like these, no update the library refuses)."""


def test_free_for_all_equals_the_library_on_5000_random_updates() -> None:
    """3 to 6 seats, distinct ranks and ties (draws between neighbours, all tied), ratings
    from far apart to equal; where the library cannot rate (its floating-point error) neither can we."""
    env = environment()
    rng = random.Random(29)
    worst = 0.0
    refused = 0
    for _ in range(UPDATES):
        seats = rng.choice((3, 4, 4, 4, 5, 6))
        spread = rng.choice((0.0, 5.0, 60.0))
        ratings = [trueskill.Rating(25 + rng.uniform(-spread, spread), rng.uniform(0.3, 9.0)) for _ in range(seats)]
        ties = rng.random()
        ranks = ([0] * seats if ties < 0.05 else [rng.randrange(seats) for _ in range(seats)] if ties < 0.35
                 else rng.sample(range(seats), seats))
        try:
            expected = [group[0] for group in env.rate([(rating,) for rating in ratings], ranks=ranks)]
        except FloatingPointError:
            with pytest.raises(FloatingPointError):
                rate_free_for_all(env, ratings, ranks)
            refused += 1
            continue
        got = rate_free_for_all(env, ratings, ranks)
        assert len(got) == seats
        for mine, theirs in zip(got, expected, strict=True):
            worst = max(worst, abs(mine.mu - theirs.mu), abs(mine.sigma - theirs.sigma))
    assert worst <= 1e-9, worst
    assert refused < UPDATES // 100  # the comparison covered the updates, not errors


def test_a_four_seat_match_is_rated_as_the_library_rates_it() -> None:
    """Through :func:`apply_match`, as a league is rated: bots by seat, their ratings kept between matches."""
    env = environment()
    current = {7: trueskill.Rating(30, 4), 8: trueskill.Rating(20, 6)}
    new = apply_match(env, current, [9, 7, 8, 10], [2, 0, 2, 1], None)
    expected = env.rate([(env.create_rating(),), (trueskill.Rating(30, 4),), (trueskill.Rating(20, 6),),
                         (env.create_rating(),)], ranks=[2, 0, 2, 1])
    assert set(new) == {7, 8, 9, 10} and current == new
    for bot, (rating,) in zip([9, 7, 8, 10], expected):
        assert new[bot].mu == pytest.approx(rating.mu, abs=1e-9)
        assert new[bot].sigma == pytest.approx(rating.sigma, abs=1e-9)
