"""A full refit of the score model (``arena.league.score_ratings``) over a league of N matches.

    python benchmarks/refit_scale.py --matches 1000000 [--keep refit.db] [--reuse] [--seed 35]

The league has ``league_scale.py``'s mix and size (40 bots; 90 % two-seat Yahtzee, 5 % four-seat
Yahtzee, 5 % Jass, two teams of two), but its rows are written straight into a real league
file (the ``matches``, ``match_seats`` and ``match_luck`` tables the refit reads) instead of
being played: building a million played matches through the storage API takes half an hour,
and the refit reads none of a match's record.  Each bot has a known strength; a seat's score is
its side's strength plus normal noise, and 80 % of the matches carry a luck report of estimator
``yahtzee/bench`` (``jass/bench``) holding part of that noise, so the refit reads both kinds.

The refit (:func:`arena.league.score_ratings.refit` of each game and variant) runs in a child
process, which reports its wall time, CPU time and peak resident memory (``ru_maxrss``); it
prints them with the match counts, the seed, and how far the fitted Yahtzee ratings are from
the true strengths in units of their own standard deviations.  Goal (docs/scaling.md): a
million matches in <= 60 s and <= 500 MB.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from arena.league.storage import Database
from referee.games import game_class

BOTS = 40
KINDS = (("yahtzee", 2, 0.90, None), ("yahtzee", 4, 0.05, None), ("jass", 4, 0.05, ((0, 2), (1, 3))))
"""(game, seats, share, teams)."""
NOISE = 40.0
LUCKY = 0.8
"""Share of the matches with a luck report."""


def build(path: Path, matches: int, seed: int) -> None:
    """Write the league into ``path``: bots, one tournament per kind, and the rows the refit reads."""
    rng = np.random.default_rng(seed)
    strength = rng.normal(0, 10, BOTS)
    db = Database(path)
    bots = [db.register_bot(name=f"bot-{i}", version="1", files_hash=f"h{i}").id for i in range(BOTS)]
    next_id = 1
    for game, seats, share, teams in KINDS:
        count = round(matches * share)
        tid = db.create_tournament(name=f"{game}-{seats}", game=game, variant=game_class(game).variants[0],
                                   settings={}, format="free_for_all", table_size=seats, rounds=1, duplicate=False,
                                   seed=0, time_control={}, options={}, bot_ids=bots, matches=[])
        variant = db.tournament(tid).variant
        for start in range(0, count, 100_000):
            k = min(100_000, count - start)
            table = np.argsort(rng.random((k, BOTS)), axis=1)[:, :seats]
            side = strength[table]
            if teams:
                for team in teams:
                    side[:, list(team)] = side[:, list(team)].mean(axis=1, keepdims=True)
            luck = rng.normal(0, NOISE * 0.8, (k, seats))
            if teams:
                for team in teams:
                    luck[:, list(team)] = luck[:, list(team)].mean(axis=1, keepdims=True)
            luck -= luck.mean(axis=1, keepdims=True)
            scores = np.round(200 + side + luck + rng.normal(0, NOISE * 0.6, (k, seats)), 3)
            lucky = rng.random(k) < LUCKY
            ids = range(next_id, next_id + k)
            with db.transaction():
                db.conn.executemany(
                    "INSERT INTO matches (id, tournament_id, position, round, deal, rotation, game, variant, settings,"
                    " seed, num_players, status, termination, scores) VALUES (?, ?, ?, 0, ?, 0, ?, ?, '{}', 0, ?,"
                    " 'done', 'normal', ?)",
                    [(i, tid, start + j, start + j, game, variant, seats, json.dumps(scores[j].tolist()))
                     for j, i in enumerate(ids)])
                db.conn.executemany(
                    "INSERT INTO match_seats (match_id, seat, bot_id, score, rank, faults, forfeited)"
                    " VALUES (?, ?, ?, ?, 0, 0, 0)",
                    [(i, s, bots[table[j, s]], float(scores[j, s])) for j, i in enumerate(ids) for s in range(seats)])
                db.conn.executemany(
                    "INSERT INTO match_luck (match_id, estimator, luck, report) VALUES (?, ?, ?, '{}')",
                    [(i, f"{game}/bench", json.dumps(np.round(luck[j], 3).tolist())) for j, i in enumerate(ids)
                     if lucky[j]])
            next_id += k
    np.save(path.with_suffix(".strength.npy"), strength)
    db.close()


def child(path: str) -> None:
    """The measured refit: every game and variant of the file; prints one JSON line."""
    from arena.league.score_ratings import refit

    started, cpu = time.monotonic(), time.process_time()
    db = Database(path, readonly=True)
    fits = {}
    for game, variant in db.conn.execute("SELECT DISTINCT game, variant FROM tournaments").fetchall():
        fits[(game, variant)] = refit(db, game, variant, estimator=f"{game}/bench")
    wall, cpu = time.monotonic() - started, time.process_time() - cpu
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    strength = np.load(Path(path).with_suffix(".strength.npy"))
    bots = {b: i for i, b in enumerate(sorted(r[0] for r in db.conn.execute("SELECT id FROM bots")))}
    yahtzee = fits[("yahtzee", "yahtzee")]
    truth = strength - strength.mean()
    z = [abs(r.mu - truth[bots[b]]) / r.sigma for b, r in yahtzee.ratings.items()]
    print(json.dumps({"wall_s": wall, "cpu_s": cpu, "peak_mb": peak_mb,
                      "fits": {f"{g}/{v}": [f.matches, f.adjusted, f.raw, round(f.noise, 3)] for (g, v), f in fits.items()},
                      "yahtzee_max_z": max(z), "yahtzee_within_2sd": sum(x <= 1.96 for x in z) / len(z)}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--keep", type=Path, default=None, help="build the league here and keep it")
    parser.add_argument("--reuse", action="store_true", help="measure the league already at --keep")
    parser.add_argument("--child", default=None, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        child(options.child)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = options.keep or Path(tmp) / "refit.db"
        if not options.reuse:
            if path.exists():
                raise SystemExit(f"Error: {path} exists (use --reuse to measure it)")
            begun = time.monotonic()
            build(path, options.matches, options.seed)
            print(f"built {options.matches:,} matches in {time.monotonic() - begun:.0f} s: {path} "
                  f"({path.stat().st_size / 1e6:.0f} MB), seed {options.seed}", flush=True)
        out = subprocess.run([sys.executable, __file__, "--child", str(path)], check=True, capture_output=True,
                             text=True).stdout
        figures = json.loads(out.strip().splitlines()[-1])
        total = sum(v[0] for v in figures["fits"].values())
        print(f"refit of {total:,} matches ({figures['fits']}: matches, adjusted, raw, noise): "
              f"{figures['wall_s']:.1f} s wall, {figures['cpu_s']:.1f} s CPU, peak {figures['peak_mb']:.0f} MB")
        print(f"yahtzee ratings against the true strengths: max |error| / sd {figures['yahtzee_max_z']:.2f}, "
              f"within 1.96 sd {figures['yahtzee_within_2sd']:.0%} of {BOTS} bots")
        if total != options.matches if not options.reuse else total == 0:
            raise SystemExit(f"Error: the refit rated {total} matches, the league holds {options.matches}")


if __name__ == "__main__":
    main()
