"""What a match produces: its record, faults and result, as plain JSON-able dataclasses.

The record is enough to replay the match through the engine (:mod:`referee.replay`) and is
what storage keeps.  Nothing here imports gRPC.
"""

from __future__ import annotations

import copy
import enum
import json
import math
from dataclasses import asdict, dataclass, field, fields
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
    def from_json(cls, data: Any, where: str = "fault") -> Fault:
        """:raises ValueError: naming the bad field, for anything but :meth:`to_json`'s shape."""
        data = _object(data, where, ("seat", "kind", "detail", "decision"))
        decision = data["decision"]
        return cls(_typed(data["seat"], int, f"{where}.seat"), _enum(FaultKind, data["kind"], f"{where}.kind"),
                   _typed(data["detail"], str, f"{where}.detail"),
                   None if decision is None else _typed(decision, int, f"{where}.decision"))


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
        # Spelled out: dataclasses.asdict deep-copies every field and made a long record's
        # to_json cost milliseconds, the largest part of storing a result.
        return {"seat": self.seat, "index": self.index, "action": self.action, "status": self.status.value,
                "elapsed_ms": self.elapsed_ms, "comment": self.comment}

    @classmethod
    def from_json(cls, data: Any, where: str = "move") -> Move:
        """:raises ValueError: naming the bad field, for anything but :meth:`to_json`'s shape."""
        data = _object(data, where, ("seat", "index", "action", "status", "elapsed_ms", "comment"))
        return cls(_typed(data["seat"], int, f"{where}.seat"), _typed(data["index"], int, f"{where}.index"),
                   _typed(data["action"], str, f"{where}.action"),
                   _enum(MoveStatus, data["status"], f"{where}.status"),
                   _typed(data["elapsed_ms"], float, f"{where}.elapsed_ms"),
                   _typed(data["comment"], str, f"{where}.comment"))


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

    def startup_forfeits(self) -> list[str]:
        """One line per seat that forfeited before it played (its bot never became ready).

        Such a match still ends and counts as done, so whatever counts matches to measure or
        test bots must also check this is empty (:func:`require_no_startup_forfeits`).
        """
        return [f"match {self.match_id} seat {f.seat} ({self.players[f.seat] if f.seat < len(self.players) else '?'}): "
                f"{f.detail}" for f in self.faults if f.kind is FaultKind.STARTUP]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        for item in fields(self):  # asdict would deep-copy every move only for it to be replaced
            value = getattr(self, item.name)
            data[item.name] = [entry.to_json() for entry in value] if item.name in ("moves", "faults") \
                else copy.deepcopy(value)
        data["format"] = RECORD_FORMAT
        return data

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1, sort_keys=True)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Rebuild a record from :meth:`to_json` output, checking the shape and type of every
        field (whether the fields agree with each other is :func:`referee.replay.replay`'s job).

        :raises ValueError: one line naming the first bad field: a record of another format,
            a missing or unknown field, or a value of the wrong type.
        """
        if isinstance(data, dict) and data.get("format") != RECORD_FORMAT:
            raise ValueError(f"match record format {json.dumps(data.get('format'))[:40]} is not {RECORD_FORMAT}")
        data = _object(data, "match record", tuple(f.name for f in fields(cls)) + ("format",))
        values: dict[str, Any] = {}
        for name, kind in _RECORD_FIELDS.items():
            if isinstance(kind, list):
                values[name] = [_typed(item, kind[0], f"{name}[{number}]")
                                for number, item in enumerate(_typed(data[name], list, name))]
            else:
                values[name] = _typed(data[name], kind, name)
        values["moves"] = [Move.from_json(m, f"moves[{n}]") for n, m in enumerate(_typed(data["moves"], list, "moves"))]
        values["faults"] = [Fault.from_json(f, f"faults[{n}]")
                            for n, f in enumerate(_typed(data["faults"], list, "faults"))]
        return cls(**values)


class StartupForfeitError(AssertionError):
    """Matches that were counted although a seat forfeited at start-up: they measure nothing."""


def require_no_startup_forfeits(records: Any) -> None:
    """The one check for benchmarks and tests that count matches: fail loudly if any of
    ``records`` (match records, or their :meth:`MatchRecord.startup_forfeits` lines) had a seat
    that forfeited at start-up.

    :raises StartupForfeitError: naming how many and the first few.
    """
    lines: list[str] = []
    for item in records:
        lines.extend(item.startup_forfeits() if isinstance(item, MatchRecord) else [item])
    if lines:
        shown = "; ".join(lines[:3]) + (f"; and {len(lines) - 3} more" if len(lines) > 3 else "")
        raise StartupForfeitError(f"{len(lines)} start-up forfeit(s) in matches that were counted: {shown}")


_RECORD_FIELDS: dict[str, Any] = {
    "match_id": str, "game": str, "variant": str, "num_players": int, "settings": dict, "seed": int,
    "players": [str], "forfeited": [int], "scores": [float], "ranking": [int], "engine_ranking": [int],
    "termination": str, "reason": str, "duration_s": float, "bank_used": [float], "time_control": dict,
    "sandbox": dict}
"""The type of each record field but ``moves`` and ``faults``; ``[t]`` is a list of ``t``."""
_KIND_NAMES = {int: "a whole number", float: "a number", str: "a string", dict: "an object", list: "a list"}


def _show(value: Any) -> str:
    """A JSON value described in a few words, for an error message."""
    text = json.dumps(value) if not isinstance(value, (dict, list)) else ""
    if isinstance(value, bool) or value is None:
        return text
    kind = _KIND_NAMES.get(type(value), type(value).__name__)
    if not text:
        return kind
    return f"{kind} ({text if len(text) <= 40 else text[:37] + '...'})"


def _typed(value: Any, kind: type, where: str) -> Any:
    """``value`` if it is a JSON value of ``kind`` (``float``: any finite number), else ValueError."""
    if isinstance(value, bool):
        ok = False
    elif kind is float:
        ok = isinstance(value, (int, float)) and math.isfinite(value)
    else:
        ok = isinstance(value, kind)
    if not ok:
        raise ValueError(f"{where} must be {_KIND_NAMES[kind]}, not {_show(value)}")
    return value


def _enum(kind: type[enum.Enum], value: Any, where: str) -> Any:
    names = [member.value for member in kind]  # type: ignore[attr-defined]
    if value not in names or not isinstance(value, str):
        raise ValueError(f"{where} must be one of {', '.join(names)}, not {_show(value)}")
    return kind(value)


def _object(data: Any, where: str, keys: tuple[str, ...]) -> dict[str, Any]:
    """``data`` if it is a JSON object with exactly ``keys``, else ValueError naming the first difference."""
    if not isinstance(data, dict):
        raise ValueError(f"{where} must be an object, not {_show(data)}")
    for key in keys:
        if key not in data:
            raise ValueError(f"{where} has no {key!r} field")
    for key in data:
        if key not in keys:
            raise ValueError(f"{where} has an unknown field {json.dumps(key)[:40]}")
    return data
