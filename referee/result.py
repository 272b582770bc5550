"""What a match produces: its record, faults and result, as plain JSON-able dataclasses.

The record is enough to replay the match through the engine (:mod:`referee.replay`) and is
what storage keeps.  Nothing here imports gRPC.
"""

from __future__ import annotations

import enum
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from referee.games.base import Seat

RECORD_FORMAT = 1
"""Version of the JSON match record; bumped when its shape changes."""


class MoveStatus(enum.Enum):
    """How a decision was obtained."""

    OK = "ok"
    """The bot answered a legal index in time."""
    TIMEOUT = "timeout"
    """The call missed its deadline; the fallback played."""
    ERROR = "error"
    """The call failed (connection lost, the bot raised); the fallback played."""
    INVALID = "invalid"
    """The bot answered an index outside the legal actions; the fallback played."""
    FORFEITED = "forfeited"
    """The seat was already forfeited; the fallback played without asking."""


class FaultKind(enum.Enum):
    TIMEOUT = "timeout"
    ERROR = "error"
    INVALID = "invalid"
    PROCESS_EXIT = "process_exit"
    """The bot's process died."""
    STARTUP = "startup"
    """The bot never became ready (not SERVING, identity or StartMatch failed)."""


@dataclass(frozen=True)
class Fault:
    seat: Seat
    kind: FaultKind
    detail: str
    """The cause in one line, e.g. ``"deadline 1.50 s exceeded"`` or ``"index 7 of 3 actions"``."""
    decision: int | None = None
    """Index of the match's decision (in :attr:`MatchRecord.moves`), if during one."""

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "kind": self.kind.value, "detail": self.detail, "decision": self.decision}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        return cls(data["seat"], FaultKind(data["kind"]), data["detail"], data.get("decision"))


@dataclass(frozen=True)
class Move:
    """One decision of the match."""

    seat: Seat
    index: int
    """Index into the legal actions at that point: the replay applies this."""
    action: str
    """The action's text, checked on replay."""
    status: MoveStatus = MoveStatus.OK
    elapsed_ms: float = 0.0
    comment: str = ""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        return cls(data["seat"], data["index"], data["action"], MoveStatus(data["status"]),
                   data.get("elapsed_ms", 0.0), data.get("comment", ""))


@dataclass
class MatchRecord:
    """The full record of one match: configuration, players, moves, faults and result."""

    match_id: str
    game: str
    variant: str
    num_players: int
    settings: dict[str, Any]
    seed: int
    players: list[str]
    """Player names by seat."""
    moves: list[Move] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)
    forfeited: list[Seat] = field(default_factory=list)
    """Seats forfeited, in the order it happened."""
    scores: list[float] = field(default_factory=list)
    ranking: list[int] = field(default_factory=list)
    """Rank per seat after forfeits (0 best, ties equal, forfeited seats last)."""
    engine_ranking: list[int] = field(default_factory=list)
    """The engine's own ranking, before forfeits moved seats down."""
    termination: str = ""
    """``normal``, ``cap`` (a safety cap), or ``aborted`` (the referee could not finish)."""
    reason: str = ""
    """One line for people: how it ended."""
    duration_s: float = 0.0
    bank_used: list[float] = field(default_factory=list)
    """Seconds of time bank each seat used (all of it after a timeout)."""
    time_control: dict[str, Any] = field(default_factory=dict)
    sandbox: dict[str, Any] = field(default_factory=dict)
    """How command bots were confined: the mode used (``bwrap``, ``limits`` or ``none``) and
    the limits (:class:`referee.sandbox.SandboxConfig`)."""

    @property
    def finished(self) -> bool:
        return self.termination in ("normal", "cap")

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["format"] = RECORD_FORMAT
        data["moves"] = [m.to_json() for m in self.moves]
        data["faults"] = [f.to_json() for f in self.faults]
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchRecord:
        """Rebuild a record from :meth:`to_json` output.

        :raises ValueError: on a record of another format or with missing fields.
        """
        if data.get("format") != RECORD_FORMAT:
            raise ValueError(f"match record format {data.get('format')!r} is not {RECORD_FORMAT}")
        try:
            fields = {k: v for k, v in data.items() if k != "format"}
            fields["moves"] = [Move.from_json(m) for m in data["moves"]]
            fields["faults"] = [Fault.from_json(f) for f in data["faults"]]
            return cls(**fields)
        except (KeyError, TypeError) as error:
            raise ValueError(f"malformed match record: {error}") from None
