"""Fixtures for the tournament tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import SAMPLE_BOTS, random_bots, resume_tournament


@pytest.fixture
def sample_bots() -> Path:
    """The Python sample bots' folder (random, yahtzee-heuristic, gin-heuristic)."""
    return SAMPLE_BOTS


@pytest.fixture(scope="session")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """The crash-and-resume tournament played through without interruption, and its bots: what
    every interrupted and resumed run, local or on Dask, must reproduce (played once for both)."""
    from arena.runs.tournament import run_tournament

    folder = tmp_path_factory.mktemp("uninterrupted")
    bots = random_bots(folder / "bots")
    db, tid = resume_tournament(folder / "uninterrupted.db", bots)
    with db:
        summary = run_tournament(db, tid, workers=2)
    assert summary.played == summary.total
    summary.require_real()
    return folder / "uninterrupted.db", bots
