"""Fixtures for the tournament tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import SAMPLE_BOTS


@pytest.fixture
def sample_bots() -> Path:
    """The Python sample bots' folder (random, yahtzee-heuristic, gin-heuristic)."""
    return SAMPLE_BOTS
