"""Options and parsing shared by every ``arena`` command that runs matches."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import click

from referee.match import TimeControl

F = TypeVar("F", bound=Callable[..., Any])


def parse_settings(pairs: Sequence[str]) -> dict[str, str]:
    """``("k=v", ...)`` -> ``{"k": "v"}``; the engine converts and checks the values."""
    settings = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise click.BadParameter(f"{pair!r} is not NAME=VALUE", param_hint="--setting")
        settings[key.strip()] = value.strip()
    return settings


def time_control_options(function: F) -> F:
    """Add --move-timeout, --time-bank, --max-faults and --startup-timeout."""
    options = [
        click.option("--move-timeout", type=click.FloatRange(min=0.001), default=1.0, show_default=True,
                     help="Seconds each decision may take before the bank is used."),
        click.option("--time-bank", type=click.FloatRange(min=0), default=10.0, show_default=True,
                     help="Extra seconds per bot for a whole match."),
        click.option("--max-faults", type=click.IntRange(min=1), default=3, show_default=True,
                     help="Faults (timeouts, errors, invalid answers) before a bot forfeits a match."),
        click.option("--startup-timeout", type=click.FloatRange(min=0.1), default=10.0, show_default=True,
                     help="Seconds a bot may take to start serving."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def make_time_control(move_timeout: float, time_bank: float, max_faults: int, startup_timeout: float) -> TimeControl:
    return TimeControl(move_timeout=move_timeout, time_bank=time_bank, max_faults=max_faults,
                       startup_timeout=startup_timeout)
