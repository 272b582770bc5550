"""The one adapter between engines and protobuf.

Each game has a module here (``referee/wire/<game>.py``) defining ``FIELD`` (its field name
in the ``game`` oneof of ``Observation`` and ``Action``), ``observation(obs)`` and
``action(action)``.  Engines, storage and the scheduler never import generated code.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from arena.v1 import bot_pb2
from referee.games.base import Event


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
