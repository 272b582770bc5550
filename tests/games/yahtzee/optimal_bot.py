"""The optimal Yahtzee sample bot's folder, on ``sys.path``: its modules (``yahtzee_rules``,
``strategy``) import each other by plain names, as they do when the bot runs there.  The
solver they use is the platform's :mod:`arena.yahtzee_dp`."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Final

BOT: Final = Path(__file__).resolve().parents[3] / "sample_bots" / "python" / "yahtzee_optimal"
if str(BOT) not in sys.path:
    sys.path.insert(0, str(BOT))

import yahtzee_rules  # noqa: E402

__all__ = ["BOT", "yahtzee_rules"]
