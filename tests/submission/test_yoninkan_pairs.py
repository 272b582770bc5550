"""Yoninkan's duplicate pairs played for real: each deal played with NEW in one seat among
OLDs, then replayed by OLD alone, NEW's seat turning with the pair, and the pair's margin
taken from that seat of the two matches' results (real referee, real bots, the local
executor's worker processes); the test reads no luck, so the workers measure none."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from arena.executors import JobResult, MatchJob
from arena.executors.local import LocalExecutor
from arena.submission.normalized_sprt import new_test
from arena.submission.pairs import PairLayout, PairResult, pair_layout, play_pairs
from referee.bots import resolve_bot
from referee.games import game_class
from referee.luck import results_of
from referee.match import MatchConfig
from referee.sandbox import SandboxConfig, SandboxMode

SAMPLES = Path(__file__).resolve().parents[2] / "sample_bots" / "python"


class Recording:
    """The real executor, keeping every job it was given and every result it returned."""

    def __init__(self, executor: LocalExecutor) -> None:
        self.executor, self.slots = executor, executor.slots
        self.jobs: dict[int, MatchJob] = {}
        self.results: dict[int, JobResult] = {}

    def running(self) -> int:
        return self.executor.running()

    def submit(self, job: MatchJob) -> None:
        self.jobs[job.match_id] = job
        self.executor.submit(job)

    def poll(self, timeout: float) -> list[JobResult]:
        results = self.executor.poll(timeout)
        self.results.update((r.match_id, r) for r in results)
        return results


def test_each_pair_compares_news_seat_with_the_same_seat_of_olds_replay() -> None:
    new, old = resolve_bot(str(SAMPLES / "yoninkan_heuristic")), resolve_bot(str(SAMPLES / "random_bot"))
    layout, test = pair_layout("yoninkan"), new_test("yoninkan")
    assert test.needs_margin and not test.needs_luck  # yoninkan/1 is not used for verdicts: raw margins
    assert test.describe() == "normalized GSPRT on plain pair results (yoninkan/1 not used: it adds variance here, docs/luck.md)"

    def make_job(match_id: int, seating: PairLayout, match: int, deal: int) -> Any:
        return MatchJob(match_id, MatchConfig(game="yoninkan", seed=deal, match_id=str(match_id),
                                              sandbox=SandboxConfig(SandboxMode.NONE)), seating.seats(match, new, old))

    pairs: list[PairResult] = []
    executor = Recording(LocalExecutor(2))
    try:
        ending = play_pairs(test, layout, make_job, max_pairs=4, executor=executor, on_pair=pairs.append, seed=5)
    finally:
        executor.executor.close(abandon=True)
    assert ending == "max-pairs" and [p.index for p in pairs] == [0, 1, 2, 3]
    for pair in pairs:
        seat = pair.index % 4  # every seat once
        first, replay = executor.jobs[2 * pair.index], executor.jobs[2 * pair.index + 1]
        assert first.config.seed == replay.config.seed == pair.seed
        assert first.bots == tuple(new if s == seat else old for s in range(4)) and replay.bots == (old,) * 4
        assert pair.errors == () and pair.faults == 0
        assert not first.measure_luck and not replay.measure_luck  # the test reads no luck: not measured
        assert [executor.results[2 * pair.index + m].luck for m in (0, 1)] == [None, None]
        results = [results_of(game_class("yoninkan"), executor.results[2 * pair.index + m].record.scores) for m in (0, 1)]
        assert pair.raw == results[0][seat] - results[1][seat]
        assert pair.adjusted is None
        ranks = [executor.results[2 * pair.index + m].record.ranking[seat] for m in (0, 1)]
        assert pair.points == (2.0 if ranks[0] < ranks[1] else 1.0 if ranks[0] == ranks[1] else 0.0)
    assert test.pairs == 4 and test.verdict is None  # no verdict before MIN_PAIRS
