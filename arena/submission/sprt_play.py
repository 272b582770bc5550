"""Playing the server's SPRT runs (:mod:`arena.submission.sprt_runs`): one batch of pairs at a
time, as ``arena sprt`` plays them (:func:`arena.submission.pairs.play_pairs` on the local
executor's worker processes), with the run's stored ladder configuration.

A batch starts from the stored state and its next pair's index, and is stored whole or not
at all (:func:`~arena.submission.sprt_runs.store_batch`): a worker stopped in the middle of one
(Ctrl-C, ``kill -9``) has stored nothing of it, and the next worker plays it again from its
first pair, on the same deals.
"""

from __future__ import annotations

from dataclasses import dataclass

from arena.executors import MatchJob
from arena.executors.local import LocalExecutor
from arena.league.storage import Database
from arena.runs.tournament import TournamentError, spec_from_row
from arena.submission.pairs import PairingError, PairLayout, PairResult, pair_layout, play_pairs, run_pair_seed
from arena.submission.normalized_sprt import load_test
from arena.submission.sprt_runs import BATCH, Run, end_run, store_batch
from referee.match import MatchConfig, TimeControl
from referee.sandbox import SandboxConfig, SandboxError


@dataclass(frozen=True)
class BatchOutcome:
    """What one batch did to its run."""

    run_id: int
    submission_id: int
    pairs: int
    """Pairs counted so far (the run's, after the batch)."""
    llr: float
    lower: float
    upper: float
    verdict: str | None
    """The run's verdict after the batch; ``None`` while it goes on, ``"stale"`` if another
    worker had stored this batch meanwhile."""
    reason: str = ""

    def line(self) -> str:
        """``sprt run 3 (submission 12): 20 pairs, LLR 1.23 [-2.94, 2.94]``, then the verdict."""
        text = (f"sprt run {self.run_id} (submission {self.submission_id}): {self.pairs} pairs, LLR {self.llr:.2f} "
                f"[{self.lower:.2f}, {self.upper:.2f}]")
        return text + (f": {self.verdict}" if self.verdict else "") + (f" ({self.reason})" if self.reason else "")


def play_batch(db: Database, run: Run, *, pairs: int = BATCH, workers: int = 1) -> BatchOutcome:
    """Play up to ``pairs`` pairs of the open ``run`` from its stored state and store them.

    A run that can no longer be played (a bot's files gone or changed, a sandbox that does not
    work, matches that keep not finishing) is ended ``failed`` with the reason.  Interrupted
    (Ctrl-C), it stores nothing: the batch is played again from its first pair later.
    """
    config = run.config
    test = load_test(run.test.to_json())  # fed by the batch; run.test stays the stored state
    lower, upper = test.bounds
    try:
        layout = pair_layout(config["game"])
        layout.check(test)
        new, old = (spec_from_row(db.bot(bot_id)) for bot_id in (run.new_bot_id, run.old_bot_id))
        sandbox = SandboxConfig.from_dict(config["sandbox"]).resolved()
    except (PairingError, TournamentError, SandboxError) as error:
        end_run(db, run.id, "failed", str(error))
        return BatchOutcome(run.id, run.submission_id, run.test.pairs, run.test.llr, lower, upper, "failed",
                            str(error))
    tc = TimeControl(**config["time_control"])

    def make_job(match_id: int, seating: PairLayout, match: int, deal: int) -> MatchJob:
        return MatchJob(match_id, MatchConfig(game=config["game"], variant=config["variant"],
                                              settings=config["settings"], seed=deal, match_id=str(match_id),
                                              time_control=tc, sandbox=sandbox), seating.seats(match, new, old))

    played = [run.next_pair]
    batch: list[PairResult] = []

    def on_pair(pair: PairResult) -> None:
        played[0] = pair.index + 1
        batch.append(pair)

    end = min(run.max_pairs, run.next_pair + pairs)
    executor = LocalExecutor(min(workers, 2 * (end - run.next_pair)), keep_alive=bool(config["keep_alive"]))
    try:
        play_pairs(test, layout, make_job, max_pairs=end, executor=executor, on_pair=on_pair, first=run.next_pair,
                   seed_of=lambda index: run_pair_seed(run.id, index))
    except PairingError as error:
        end_run(db, run.id, "failed", str(error))
        return BatchOutcome(run.id, run.submission_id, run.test.pairs, run.test.llr, lower, upper, "failed",
                            str(error))
    finally:
        executor.close(abandon=True)
    verdict, reason = store_batch(db, run, test, played[0], batch)
    return BatchOutcome(run.id, run.submission_id, test.pairs, test.llr, lower, upper, verdict, reason)


__all__ = ["BatchOutcome", "play_batch"]
