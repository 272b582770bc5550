"""The one adapter between engines and protobuf.

Each game has a module here (``referee/wire/<game>.py``) defining ``FIELD`` (its field name
in the ``game`` oneof of ``Observation`` and ``Action``), ``observation(obs)`` and
``action(action)``, and optionally ``observation_bytes(obs)``: the same message serialised
faster, from cached parts.  Engines, storage and the scheduler never import generated code.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from functools import cache
from types import ModuleType
from typing import Any, Final

from arena.v1 import bot_pb2
from referee.games.base import Event


@cache
def game_module(game: str) -> ModuleType:
    """The wire module of ``game``."""
    return importlib.import_module(f"referee.wire.{game}")


def action_to_proto(game: str, action: Any) -> bot_pb2.Action:
    module = game_module(game)
    message = bot_pb2.Action(text=str(action))
    getattr(message, module.FIELD).CopyFrom(module.action(action))
    return message


def actions_to_proto(game: str, actions: Sequence[Any]) -> list[bot_pb2.Action]:
    return [action_to_proto(game, action) for action in actions]


def event_to_proto(game: str, event: Event) -> bot_pb2.Event:
    message = bot_pb2.Event(seat=event.seat, text=event.text)
    if event.action is not None:
        message.action.CopyFrom(action_to_proto(game, event.action))
    return message


def observation_to_proto(game: str, observation: Any, events: Iterable[Event] = ()) -> bot_pb2.Observation:
    """A seat's observation and the events it has not seen yet, as one message."""
    module = game_module(game)
    message = bot_pb2.Observation(text=str(observation), events=[event_to_proto(game, e) for e in events])
    getattr(message, module.FIELD).CopyFrom(module.observation(observation))
    return message


# --- the referee's per-decision path ----------------------------------------------------------
# A DecideRequest is built from parts serialised once and reused: each legal action once per
# process, each event once per match.  Only the envelope (tags, lengths, a few integers) is
# written here, in protobuf's wire format; a test holds the result equal to the message the
# generated classes build field by field.
_ENCODED_LIMIT = 20_000
"""Cached action encodings per game before a cache starts over (action spaces are far smaller)."""
_by_value: dict[str, dict[Hashable, bytes]] = {}
_by_id: dict[str, dict[int, tuple[Any, bytes, bytes]]] = {}
_legal_by_id: dict[str, dict[int, bytes]] = {}
"""The third item of each ``_by_id`` entry by itself (that entry keeps the action alive)."""
_SMALL_VARINTS: Final = 1 << 14


def _slow_varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


_VARINTS: Final = tuple(_slow_varint(value) for value in range(_SMALL_VARINTS))


def _varint(value: int) -> bytes:
    """A non-negative integer in protobuf's base-128 varint encoding (small ones from a table:
    lengths and counters are written several times per request)."""
    return _VARINTS[value] if value < _SMALL_VARINTS else _slow_varint(value)


def _key(number: int, wire_type: int) -> bytes:
    return _varint(number << 3 | wire_type)


def delimited(key: bytes, payload: bytes) -> bytes:
    """A length-delimited field (string, bytes or message): key, length, payload (game modules
    use it to serialise parts of their observations once)."""
    return key + _varint(len(payload)) + payload


def _scalar(key: bytes, value: int) -> bytes:
    """A varint field, left out at its default 0 as proto3 does; a negative int32 takes ten
    bytes, as two's complement in 64 bits."""
    if not value:
        return b""
    return key + _varint(value if value > 0 else value + (1 << 64))


def _number(message: Any, name: str) -> int:
    return int(message.DESCRIPTOR.fields_by_name[name].number)


_LEGAL_ACTION_KEY = _key(_number(bot_pb2.DecideRequest, "legal_actions"), 2)
_MATCH_ID_KEY = _key(_number(bot_pb2.DecideRequest, "match_id"), 2)
_DECISION_KEY = _key(_number(bot_pb2.DecideRequest, "decision_number"), 0)
_OBSERVATION_KEY = _key(_number(bot_pb2.DecideRequest, "observation"), 2)
_TIME_LEFT_KEY = _key(_number(bot_pb2.DecideRequest, "time_left_ms"), 0)
_BANK_LEFT_KEY = _key(_number(bot_pb2.DecideRequest, "bank_left_ms"), 0)
_TEXT_KEY = _key(_number(bot_pb2.Observation, "text"), 2)
_EVENT_KEY = _key(_number(bot_pb2.Observation, "events"), 2)
_EVENT_SEAT_KEY = _key(_number(bot_pb2.Event, "seat"), 0)
_EVENT_TEXT_KEY = _key(_number(bot_pb2.Event, "text"), 2)
_EVENT_ACTION_KEY = _key(_number(bot_pb2.Event, "action"), 2)


def _cached_action(game: str, action: Any) -> tuple[Any, bytes, bytes]:
    """``(action, its Action message's bytes, the same as a legal_actions entry)``, serialised
    once per distinct action and game.

    Engines hand out the same action objects again and again (they build them once per card
    or roll), so the first lookup is by identity, which costs no Python-level ``__hash__``;
    an entry keeps its action alive, so no other object can take its id while it is cached.
    Equal actions that are new objects are found by value and serialised only once too.
    """
    by_id = _by_id.setdefault(game, {})
    entry = by_id.get(id(action))
    if entry is None:
        by_value = _by_value.setdefault(game, {})
        payload = by_value.get(action)
        if payload is None:
            if len(by_value) >= _ENCODED_LIMIT:
                by_value.clear()
            payload = by_value[action] = action_to_proto(game, action).SerializeToString()
        if len(by_id) >= _ENCODED_LIMIT:
            by_id.clear()
            _legal_by_id.get(game, {}).clear()
        entry = by_id[id(action)] = (action, payload, delimited(_LEGAL_ACTION_KEY, payload))
    return entry


def encoded_legal_actions(game: str, actions: Sequence[Any]) -> bytes:
    """``actions`` as the ``legal_actions`` field of a serialised ``DecideRequest``."""
    entries = _legal_by_id.setdefault(game, {})
    try:  # the usual case, every action cached: no Python-level call per action
        return b"".join([entries.get(id(action)) for action in actions])  # type: ignore[misc]
    except TypeError:  # a None: some action is not cached yet
        parts = []
        for action in actions:
            encoded = entries.get(id(action))
            if encoded is None:  # cached by _cached_action first, which may start both caches over
                encoded = entries[id(action)] = _cached_action(game, action)[2]
            parts.append(encoded)
        return b"".join(parts)


class DecideEncoder:
    """Serialises the DecideRequests of one match, each event once for the whole match.

    An event is immutable and the match's state keeps every event until the end, so its bytes
    are cached by identity (the entry also holds the event, so its id stays its own).
    """

    def __init__(self, game: str, match_id: str) -> None:
        self.game = game
        module = game_module(game)
        self._game_key = _key(_number(bot_pb2.Observation, module.FIELD), 2)
        # A game may serialise its observation faster than through its message (Yahtzee does).
        self._game_bytes: Callable[[Any], bytes] = getattr(
            module, "observation_bytes", lambda observation: module.observation(observation).SerializeToString())
        self._match_id = delimited(_MATCH_ID_KEY, match_id.encode()) if match_id else b""
        self._events: dict[int, tuple[Event, bytes]] = {}

    def _event(self, event: Event) -> bytes:
        entry = self._events.get(id(event))
        if entry is None:
            action = b"" if event.action is None else \
                delimited(_EVENT_ACTION_KEY, _cached_action(self.game, event.action)[1])
            text = event.text.encode()
            message = _scalar(_EVENT_SEAT_KEY, event.seat) + (delimited(_EVENT_TEXT_KEY, text) if text else b"") + action
            entry = self._events[id(event)] = (event, delimited(_EVENT_KEY, message))
        return entry[1]

    def observation(self, observation: Any, events: Iterable[Event] = ()) -> bytes:
        """The serialised ``Observation``: the same bytes as :func:`observation_to_proto`'s."""
        text = str(observation).encode()
        parts = [delimited(_TEXT_KEY, text) if text else b""]
        parts.extend(self._event(event) for event in events)
        parts.append(delimited(self._game_key, self._game_bytes(observation)))
        return b"".join(parts)

    def decide_request(self, *, decision_number: int, observation: Any, events: Iterable[Event],
                       legal_actions: Sequence[Any], time_left_ms: int, bank_left_ms: int) -> bytes:
        """A serialised ``DecideRequest``, fields in number order except the legal actions,
        which come last (protobuf parsers accept a repeated field after the others)."""
        return b"".join((self._match_id, _scalar(_DECISION_KEY, decision_number),
                         delimited(_OBSERVATION_KEY, self.observation(observation, events)),
                         _scalar(_TIME_LEFT_KEY, time_left_ms), _scalar(_BANK_LEFT_KEY, bank_left_ms),
                         encoded_legal_actions(self.game, legal_actions)))

