"""The one adapter between engines and protobuf.

Each game has a module here (``referee/wire/<game>.py``) defining ``FIELD`` (its field name
in the ``game`` oneof of ``Observation`` and ``Action``), ``observation(obs)`` and
``action(action)``.  Engines, storage and the scheduler never import generated code.
"""

from __future__ import annotations

import importlib
from collections.abc import Hashable, Iterable, Sequence
from functools import cache
from types import ModuleType
from typing import Any

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
_LEGAL_ACTIONS_FIELD = bot_pb2.DecideRequest.DESCRIPTOR.fields_by_name["legal_actions"].number
_ENCODED_LIMIT = 200_000
"""Cached encodings per game before the cache starts over (action spaces are far smaller)."""
_encoded: dict[str, dict[Hashable, bytes]] = {}


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def encoded_legal_actions(game: str, actions: Sequence[Any]) -> bytes:
    """``actions`` as the ``legal_actions`` field of a serialised ``DecideRequest``.

    Each action is converted and serialised once per process and its bytes reused (actions
    are frozen values, and the same few hundred recur all match long): building dozens of
    ``Action`` messages for every request was most of the referee's own time per decision.
    """
    cached = _encoded.setdefault(game, {})
    parts = []
    for action in actions:
        encoded = cached.get(action)
        if encoded is None:
            if len(cached) >= _ENCODED_LIMIT:
                cached.clear()
            payload = action_to_proto(game, action).SerializeToString()
            encoded = cached[action] = (_varint(_LEGAL_ACTIONS_FIELD << 3 | 2) + _varint(len(payload)) + payload)
        parts.append(encoded)
    return b"".join(parts)


def decide_request_bytes(game: str, *, match_id: str, decision_number: int, observation: Any, events: Iterable[Event],
                         legal_actions: Sequence[Any], time_left_ms: int, bank_left_ms: int) -> bytes:
    """A serialised ``DecideRequest``: the same message, field for field, as building it with
    :func:`observation_to_proto` and :func:`actions_to_proto` (a test holds them equal), with
    the legal actions appended from :func:`encoded_legal_actions` (protobuf parsers accept a
    repeated field after the others)."""
    head = bot_pb2.DecideRequest(match_id=match_id, decision_number=decision_number,
                                 observation=observation_to_proto(game, observation, events),
                                 time_left_ms=time_left_ms, bank_left_ms=bank_left_ms)
    return head.SerializeToString() + encoded_legal_actions(game, legal_actions)
