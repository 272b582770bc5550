"""Before a tournament: start every bot once and check that it is ready to play.

A bot that cannot start (not built, a missing interpreter, a wrong address) would forfeit
every match of a tournament, silently costing the organiser a whole run.  The pre-flight
check starts each bot (or connects to it), waits for its health check, asks who it is and
checks that it claims the game, in parallel, then stops it.

It also names bots given by address: their rating rows use the name and version the bot
reports through ``Identify``, not ``127.0.0.1:50051``.  A manifest whose name or version
differs from what its bot reports gets a warning (the manifest's names are the ones
stored).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from referee.bots import BotSpec, BotStartError, claims
from referee.match import BotConnection
from referee.sandbox import SandboxConfig, SandboxError
from referee.untrusted import clean

PARALLEL = 4
"""Bots started at once: enough to hide start-up latency, few enough for a small machine."""


@dataclass(frozen=True)
class BotCheck:
    """One bot's pre-flight result."""

    spec: BotSpec
    """The bot as it will be entered (a bot given by address carries its reported name)."""
    problem: str | None = None
    """Why it is not ready, or ``None``."""
    warnings: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ready(self) -> bool:
        return self.problem is None


def check_bot_ready(spec: BotSpec, game: str, *, startup_timeout: float, sandbox: SandboxConfig) -> BotCheck:
    """Start (or connect to) ``spec``, identify it and stop it; never raises for a bot's fault."""
    try:
        connection = BotConnection(spec, startup_timeout, sandbox)
    except (BotStartError, SandboxError, OSError) as error:
        return BotCheck(spec, f"does not start: {error}")
    try:
        info = connection.info
        games = list(info.games)
        if not claims(games, game):
            return BotCheck(spec, f"does not play {game} (it reports {', '.join(games) or 'no game'})")
        name, version = clean(info.name, 64).strip(), clean(info.version, 64).strip()
        warnings = []
        if spec.address is not None:
            if name:
                spec = dataclasses.replace(spec, name=name, version=version)
        elif (name, version) != (spec.name, spec.version):
            warnings.append(f"manifest says {spec.label} but the bot reports "
                            f"{name or '(no name)'}{'@' + version if version else ''}; the manifest's is used")
        return BotCheck(spec, None, tuple(warnings))
    finally:
        connection.close()


def preflight(specs: Sequence[BotSpec], game: str, *, startup_timeout: float,
              sandbox: SandboxConfig) -> list[BotCheck]:
    """:func:`check_bot_ready` for every bot, a few at a time, in the order given."""
    with ThreadPoolExecutor(max_workers=min(PARALLEL, max(1, len(specs)))) as pool:
        return list(pool.map(lambda spec: check_bot_ready(spec, game, startup_timeout=startup_timeout,
                                                          sandbox=sandbox), specs))
