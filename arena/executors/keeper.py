"""A worker's bots: started per match, or kept alive across the matches one worker plays."""

from __future__ import annotations

from collections.abc import Sequence

from referee.bots import BotSpec, BotStartError, bot_files_hash
from referee.match import BotConnection, BotUnavailable, start_bots
from referee.result import MatchRecord
from referee.sandbox import SandboxConfig


class BotKeeper:
    """A worker's bot connections: fresh per match, or kept alive across matches.

    Every open connection is tracked, so :meth:`close` stops them all even when a SIGTERM
    cut a :meth:`release` short.
    """

    def __init__(self, keep_alive: bool) -> None:
        self.keep_alive = keep_alive
        self.alive: dict[BotSpec, BotConnection] = {}
        self.open: list[BotConnection] = []

    def acquire(self, bots: Sequence[BotSpec], startup_timeout: float, sandbox: SandboxConfig,
                files_hashes: Sequence[str] = ()) -> list[BotSpec | BotConnection | BotUnavailable]:
        """Ready connections where a bot starts; the spec itself where it does not (run_match records why).

        ``files_hashes`` (by seat, optional) are the registered :func:`bot_files_hash` values:
        a bot whose folder here differs is not started, and its seat forfeits with the reason.
        """
        ready: list[BotSpec | BotConnection | BotUnavailable] = []
        to_start: list[int] = []
        for seat, spec in enumerate(bots):
            kept = self.alive.pop(spec, None)
            if kept is not None and kept.alive():
                self.alive[spec] = kept
                ready.append(kept)
                continue
            if kept is not None:
                self._close(kept)
            problem = files_problem(spec, files_hashes[seat]) if seat < len(files_hashes) else None
            if problem is not None:
                ready.append(BotUnavailable(spec, problem))
                continue
            ready.append(spec)
            to_start.append(seat)
        # All at once (start_bots): a 6-seat table waits for its slowest bot, not for six in a row.
        for seat, item in zip(to_start, start_bots([bots[seat] for seat in to_start], startup_timeout, sandbox),
                              strict=True):
            if isinstance(item, BotStartError):
                continue  # the spec stays: run_match starts it again and records why it fails
            self.open.append(item)
            if self.keep_alive:
                self.alive[bots[seat]] = item
            ready[seat] = item
        return ready

    def _close(self, connection: BotConnection) -> None:
        if connection in self.open:
            self.open.remove(connection)
        if self.alive.get(connection.spec) is connection:
            del self.alive[connection.spec]
        connection.close()

    def release(self, used: Sequence[BotSpec | BotConnection | BotUnavailable], record: MatchRecord | None) -> None:
        """Stop the bots of a finished match, except healthy ones kept alive."""
        for seat, item in enumerate(used):
            if not isinstance(item, BotConnection):
                continue
            healthy = record is not None and seat not in record.forfeited and item.alive()
            kept = self.alive.get(item.spec) is item  # one process per bot is kept, even if it sat twice
            if not (self.keep_alive and healthy and kept):
                self._close(item)

    def close(self) -> None:
        """Stop every bot still running."""
        while self.open:
            try:
                self._close(self.open[-1])
            except Exception:  # noqa: BLE001 - keep stopping the others
                pass
        self.alive.clear()


def files_problem(spec: BotSpec, expected: str) -> str | None:
    """Why ``spec``'s folder on this machine is not the registered bot, or ``None`` if it is.

    A worker on another machine sees the bot folder through its own file system; this check
    makes a missing or different copy a clear start-up forfeit instead of another bot playing.
    """
    if spec.directory is not None and not spec.directory.is_dir():
        return f"bot {spec.label}: its folder {spec.directory} does not exist on this worker"
    actual = bot_files_hash(spec)
    if actual == expected:
        return None
    return (f"bot {spec.label}: its files in {spec.directory} on this worker differ from the registered ones "
            f"(hash {actual[:12]} here, {expected[:12]} registered); every worker must see the same bot folder")
