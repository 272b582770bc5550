"""Serve a policy trained in :mod:`arena.envs` as a bot, with nothing rewritten.

>>> import numpy as np
>>> def policy(observation):
...     return int(np.flatnonzero(observation["action_mask"])[0])  # the first legal action
>>> # run_policy(policy, game="gin_rummy", name="learned", version="1.0")  # serves until SIGTERM

The policy is called with what the environment gave it in training, built from the
``Decide`` request a bot is sent: ``"observation"``, the codec's ``float32`` vector of that
seat's view; ``"action_mask"``, the ``int8`` mask of the legal actions over the game's fixed
action space; ``"message"``, the protocol observation itself; and ``"legal_actions"``, the
request's legal action messages.  It returns an index of the action space (as for
``env.step``) or one of the legal action messages; the adapter answers the referee with that
action's position in the legal list.

An illegal choice (an index outside the mask, a message not among the legal ones) is not
fatal: the bot prints a line naming the action and the legal ones to its output (the log
``check-bot`` and the author's pages show) and plays :func:`arena.sdk.random_decide`'s
legal action instead, with a ``comment`` saying so in its answer.  A policy that raises
fails the call, as any ``decide`` does.

Why here and not in :mod:`arena.sdk`: the vector and the action map are the codec's
(:mod:`arena.envs.codec`), which reads the engines' observation types, and the SDK sits
below the referee (tests/test_layers.py) so that a hand-written bot needs nothing but the
protocol.  The sandbox shows a ``{python}`` bot the ``arena`` and ``referee`` packages and
arena's environment (numpy), and this module imports no PettingZoo, so a learned bot starts
as fast as the codec's imports allow (tests/envs/test_policy.py runs one through the
referee).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from arena.envs.codec import Codec
from arena.envs.codecs import make_codec
from arena.sdk import random_decide, run_bot
from arena.v1 import bot_pb2
from referee.games import make_game

Policy = Callable[[dict[str, Any]], "int | np.integer[Any] | bot_pb2.Action"]
"""``policy(observation) -> action``: the env's observation dict in, an action-space index or
a legal action message out."""


class PolicyDecide:
    """A :data:`arena.sdk.Decide` made of a policy and one game configuration's codec.

    :raises SettingsError: for a bad game, variant, seat count or setting.
    :raises ValueError: for a game whose codec cannot decode protocol observations yet.
    """

    def __init__(self, policy: Policy, *, game: str, variant: str | None = None, num_players: int | None = None,
                 settings: Mapping[str, Any] | None = None) -> None:
        self.policy = policy
        self.game = make_game(game, variant=variant, num_players=num_players, settings=settings)
        self.codec: Codec = make_codec(self.game)
        if type(self.codec).decode is Codec.decode:
            raise ValueError(f"{game}: arena.envs.policy cannot serve this game's vectors yet (its codec has no "
                             "decoder of protocol observations); write a decide(observation, legal_actions) instead")

    def observe(self, message: bot_pb2.Observation, legal: Sequence[bot_pb2.Action]) -> dict[str, Any]:
        """What :meth:`arena.envs.ArenaEnv.observe` gives the seat to act (``messages=True``), plus
        the legal action messages.

        :raises ValueError: for a match of another game or variant than the codec's.
        """
        return self._observe(message, legal)[0]

    def _observe(self, message: bot_pb2.Observation,
                 legal: Sequence[bot_pb2.Action]) -> tuple[dict[str, Any], list[int]]:
        """:meth:`observe` and the action-space index of each legal action, in order."""
        field = message.WhichOneof("game")
        if field != self.game.name:
            raise ValueError(f"this policy plays {self.game.name}, not {field}")
        variant = getattr(message, field).variant
        if variant and variant != self.game.variant:
            raise ValueError(f"this policy was trained for {self.game.name} variant {self.game.variant}, "
                             f"not {variant}: serve it with variant={variant!r} or claim only that variant")
        observation = self.codec.decode(message)
        indices = self.codec.message_indices(observation, legal)
        mask = np.zeros(self.codec.num_actions, np.int8)
        mask[indices] = 1
        return {"observation": self.codec.encode(observation), "action_mask": mask, "message": message,
                "legal_actions": list(legal)}, indices

    def __call__(self, message: bot_pb2.Observation, legal: Sequence[bot_pb2.Action]) -> bot_pb2.DecideResponse:
        observed, indices = self._observe(message, legal)
        choice = self.policy(observed)
        if isinstance(choice, bot_pb2.Action):
            wanted = choice.SerializeToString(deterministic=True)
            position = next((i for i, a in enumerate(legal) if a.SerializeToString(deterministic=True) == wanted),
                            None)
            what = f"action message {choice.text or choice}"
        elif isinstance(choice, (int, np.integer)) and not isinstance(choice, bool):
            index = int(choice)
            position = indices.index(index) if index in indices else None
            inside = 0 <= index < self.codec.num_actions
            meaning = self.codec.action_name(index) if inside else "outside the action space"
            what = f"action {index} ({meaning})"
        else:
            raise TypeError(f"the policy returned {type(choice).__name__}: return an index of the action space "
                            "or one of the legal action messages")
        if position is not None:
            return bot_pb2.DecideResponse(action_index=position)
        fallback = random_decide(message, legal)
        print(f"policy: {what} is not legal here (legal: "
              f"{', '.join(f'{i} ({self.codec.action_name(i)})' for i in indices)}); "
              f"playing a random legal action instead: {legal[fallback].text}", file=sys.stderr, flush=True)
        return bot_pb2.DecideResponse(action_index=fallback, comment=f"illegal policy choice: {what}; random fallback")


def run_policy(policy: Policy, *, game: str, variant: str | None = None, num_players: int | None = None,
               settings: Mapping[str, Any] | None = None, name: str, version: str, author: str = "",
               games: Iterable[str] | None = None) -> None:
    """Serve ``policy`` as a bot until SIGTERM or SIGINT (:func:`arena.sdk.run_bot`); ``games``
    defaults to ``[game]``, the one game the policy was trained on."""
    decide = PolicyDecide(policy, game=game, variant=variant, num_players=num_players, settings=settings)
    run_bot(decide, name=name, version=version, author=author, games=list(games) if games is not None else [game])
