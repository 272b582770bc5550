"""A ladder's rating model (issue 35): the config's ``rating`` key, the score model for new
ladders, TrueSkill kept by ladders created before the key, and the scheduler fed the model's fit."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.league.ratings import plan_ratings, stored_ratings
from arena.league.score_ratings import refit
from arena.league.storage import Database, ScheduledMatch
from arena.runs.ladder import Ladder, LadderError, load_config, open_ladder
from arena.runs.ladder_store import append_matches, ladder_rating
from arena.scheduling.ladder import SCORE_NEW_SIGMA, Policy
from referee.sandbox import SandboxConfig, SandboxMode
from tournament.helpers import record, write_bot

from .helpers import write_config


def test_the_rating_key_chooses_the_model_and_a_new_ladder_takes_the_score_model(tmp_path: Path) -> None:
    bots = [str(write_bot(tmp_path / "bots" / name, name)) for name in ("ant", "bee")]
    config = load_config(write_config(tmp_path, bots))
    assert config.ladders[0].rating is None
    with Database(config.db) as db:
        ladder, _ = open_ladder(db, config.ladders[0], config)
        assert ladder.options["rating"] == "score" and ladder_rating(ladder) == "score"
        # A ladder created before the key (no rating in its options) keeps TrueSkill when run again.
        options = {k: v for k, v in ladder.options.items() if k != "rating"}
        db.conn.execute("UPDATE tournaments SET options = ? WHERE id = ?", (json.dumps(options), ladder.id))
        again, created = open_ladder(db, config.ladders[0], config)
        assert not created and ladder_rating(again) == "trueskill"
        chosen = load_config(write_config(tmp_path, bots, ladder='rating = "score"'))
        assert ladder_rating(open_ladder(db, chosen.ladders[0], chosen)[0]) == "score"
    with pytest.raises(LadderError, match="rating must be one of"):
        load_config(write_config(tmp_path, bots, ladder='rating = "elo"'))


def test_a_score_ladder_feeds_its_scheduler_the_refit_and_keeps_the_trueskill_table(tmp_path: Path) -> None:
    """Three entrants with 40 played matches of known order: the scheduler sees the score model's
    ratings (in noise units: the refit's divided by its noise) and LOS; the stored TrueSkill table
    is kept up to date beside it, equal to a recompute."""
    bots = [str(write_bot(tmp_path / "bots" / name, name)) for name in ("ant", "bee", "cat")]
    config = load_config(write_config(tmp_path, bots))
    rng = random.Random(9)
    with Database(config.db) as db:
        ladder = open_ladder(db, config.ladders[0], config)[0]
        ids = [b.id for b in db.bots()]
        seatings = [tuple(rng.sample(range(3), 2)) for _ in range(40)]
        match_ids = append_matches(db, ladder, [ScheduledMatch((ids[a], ids[b]), k, 0, 0, 0)
                                                for k, (a, b) in enumerate(seatings)])
        results = []
        for match_id, (a, b) in zip(match_ids, seatings):
            scores = [rng.gauss(200 - 30 * a, 25), rng.gauss(200 - 30 * b, 25)]
            results.append((match_id, record(match_id, [0, 1] if scores[0] >= scores[1] else [1, 0], scores)))
        db.store_results(results)
        sandbox = SandboxConfig(SandboxMode.NONE)
        runner = Ladder(db, db.tournament(ladder.id), sandbox, sandbox, lambda text: None, Policy(explore=0.0))
        assert runner.policy.new_sigma == SCORE_NEW_SIGMA
        runner.refresh()
        runner.update_ratings()
        seen, stronger = runner._ratings()
        fitted = refit(db, "yahtzee", "yahtzee")
        assert fitted.matches == 40
        for bot, rating in fitted.ratings.items():
            assert seen[bot] == pytest.approx((rating.mu / fitted.noise, rating.sigma / fitted.noise), abs=1e-9)
        assert stronger(ids[0], ids[2]) == pytest.approx(fitted.los(ids[0], ids[2]), abs=1e-12) and \
            stronger(ids[0], ids[2]) > 0.99
        recomputed = plan_ratings(db, "yahtzee", "yahtzee", recompute=True).final
        assert {b: pytest.approx((r.mu, r.sigma), abs=1e-9) for b, r in recomputed.items()} == \
            stored_ratings(db, "yahtzee", "yahtzee")
        jobs = runner.take(2)
        assert len(jobs) == 2
