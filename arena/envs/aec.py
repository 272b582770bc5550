"""The PettingZoo AEC environment over a referee engine (docs/learning.md).

One environment is one match: agents ``seat_0 .. seat_{n-1}``, the engine's seats.  It plays
exactly as :class:`referee.match.MatchRunner` does, minus the bots: the same engine, seed and
legal actions in the same order, and each seat's protocol observation built the same way
(:func:`referee.wire.observation_to_proto` with the seat's events since its previous
decision), so what a policy learns here is what a bot meets on the ladder.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv

from arena.envs.codec import Codec
from arena.envs.codecs import make_codec
from arena.v1 import bot_pb2
from referee import wire
from referee.games import make_game
from referee.games.base import IllegalActionError, State

REWARDS: Final = ("ranking", "score", "hand")
"""Reward schemes: see :class:`ArenaEnv`."""


class MessageSpace(gymnasium.spaces.Space[Any]):
    """The space of one protobuf message type (``observation["message"]`` with ``messages=True``):
    a message has no box or bounds, so this space only checks the type and cannot sample."""

    def __init__(self, message_type: type) -> None:
        super().__init__(None, None)
        self.message_type = message_type

    def contains(self, x: Any) -> bool:
        return isinstance(x, self.message_type)

    def sample(self, mask: Any = None, probability: Any = None) -> Any:
        raise NotImplementedError("a protocol message cannot be sampled")

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MessageSpace) and other.message_type is self.message_type

    def __repr__(self) -> str:
        return f"MessageSpace({self.message_type.__name__})"


class ArenaEnv(AECEnv):
    """One arena game as a PettingZoo AEC environment.

    Each agent's observation is a dict: ``"observation"``, the seat's view as a ``float32``
    vector (the game's codec), and ``"action_mask"``, an ``int8`` mask over the game's fixed
    ``Discrete`` action space (all zeros for a seat that is not to act).  With
    ``messages=True`` it also holds ``"message"``: the :class:`bot_pb2.Observation` a bot in
    that seat would be sent now; :meth:`message` gives it on demand either way.

    Rewards (``rewards=``), always zero-sum across the table:

    - ``"ranking"`` (default): at the end, (seats this seat beat - seats that beat it) / (n - 1),
      from the engine's ranking with ties: +1 for a lone winner, -1 for a lone last; 0 at a
      one-seat table.
    - ``"score"``: at the end, the seat's final score minus the table's mean (negated where a
      lower score wins, Yaniv); the score itself at a one-seat table.
    - ``"hand"``: after every step, the change of that same quantity from the running scores
      the seats see (per hand, per round, per box); over a match they add up to ``"score"``.

    :raises SettingsError: for a bad game, variant, seat count or setting.
    """

    metadata: Final = {"name": "arena", "render_modes": ["ansi"], "is_parallelizable": False}

    def __init__(self, game: str, *, variant: str | None = None, num_players: int | None = None,
                 settings: Mapping[str, Any] | None = None, rewards: str = "ranking", messages: bool = False,
                 render_mode: str | None = None) -> None:
        super().__init__()
        if rewards not in REWARDS:
            raise ValueError(f"rewards must be one of {', '.join(REWARDS)}, not {rewards!r}")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.game = make_game(game, variant=variant, num_players=num_players, settings=settings)
        self.codec: Codec = make_codec(self.game)
        self.reward_scheme = rewards
        self.messages = messages
        self.render_mode = render_mode
        self.metadata = {**ArenaEnv.metadata, "name": f"arena_{self.game.name}"}
        n = self.game.num_players
        self.possible_agents = [f"seat_{seat}" for seat in range(n)]
        self._seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        spaces: dict[str, gymnasium.spaces.Space[Any]] = {
            "observation": gymnasium.spaces.Box(-np.inf, np.inf, (self.codec.vector_size,), np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, (self.codec.num_actions,), np.int8)}
        if messages:
            spaces["message"] = MessageSpace(bot_pb2.Observation)
        self.observation_spaces = {agent: gymnasium.spaces.Dict(spaces) for agent in self.possible_agents}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(self.codec.num_actions) for agent in self.possible_agents}
        self._seeds = random.Random()
        self.seed: int | None = None
        """The engine seed of the match in play (the referee's ``MatchConfig.seed``)."""
        self.state: State[Any, Any] | None = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the match -------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new match.  ``seed`` is the engine's seed: ``reset(seed=s)`` deals what a
        referee match with seed ``s`` deals.  Without one, the next seed comes from a generator
        seeded by the last given seed (or by the system, if none was ever given)."""
        if seed is not None:
            self._seeds = random.Random(seed)
            self.seed = int(seed)
        else:
            self.seed = self._seeds.getrandbits(31)
        self.state = self.game.new_initial_state(self.seed)
        self.agents = list(self.possible_agents)
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._seen = [0] * self.game.num_players
        self._relative = self._relative_scores() if self.reward_scheme == "hand" else None
        self._new_position()

    def _new_position(self) -> None:
        """Forget the previous position's caches and point at the seat to act."""
        state = self.state
        assert state is not None
        self._observed: dict[str, dict[str, Any]] = {}
        self._mask: np.ndarray | None = None
        if state.is_terminal():
            self._legal: list[Any] = []
            self._indices: list[int] = []
            self._position: dict[int, int] = {}
            return
        self._legal = state.legal_actions()
        self._indices = self.codec.legal_indices(state, self._legal)
        self._position = {index: position for position, index in enumerate(self._indices)}
        self.agent_selection = self.possible_agents[state.current_player()]

    def step(self, action: Any) -> None:
        """Play ``action`` (an index of the action space) for :attr:`agent_selection`.

        :raises IllegalActionError: if the index is not one of the legal actions' (check the
            mask); the match is unchanged.
        """
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state
        assert state is not None
        position = self._position.get(int(action))
        if position is None:
            raise IllegalActionError(f"{agent}: action {action} ({self.codec.action_name(int(action))}) is not legal "
                                     f"now; legal: {sorted(self._indices)}")
        seat = self._seat_of[agent]
        self._seen[seat] = len(state.events)  # as the referee: the request carries the events so far
        state.apply(self._legal[position])
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        if state.is_terminal():
            self._finish()
        elif self.reward_scheme == "hand":
            self._hand_rewards(self._relative_scores())
        self._new_position()
        self._accumulate_rewards()

    def _finish(self) -> None:
        state = self.state
        assert state is not None
        outcome = state.outcome()
        n = self.game.num_players
        if self.reward_scheme == "ranking":
            ranks = outcome.ranking
            for seat, agent in enumerate(self.agents):
                beaten = sum(1 for other in ranks if other > ranks[seat])
                beaten_by = sum(1 for other in ranks if other < ranks[seat])
                self.rewards[agent] = (beaten - beaten_by) / (n - 1) if n > 1 else 0.0
        else:
            final = self._relative_scores(outcome.scores)
            if self.reward_scheme == "hand":
                self._hand_rewards(final)
            else:
                for seat, agent in enumerate(self.agents):
                    self.rewards[agent] = final[seat]
        for agent in self.agents:
            self.terminations[agent] = True

    def _relative_scores(self, scores: Any = None) -> list[float]:
        """Each seat's score minus the table's mean (the score itself alone at the table),
        negated where lower scores win; the running scores the seats see by default."""
        assert self.state is not None
        if scores is None:
            scores = self.codec.scores(self.state.observe(0))
        n = len(scores)
        mean = sum(scores) / n if n > 1 else 0.0
        sign = -1.0 if self.game.lower_scores_win else 1.0
        return [sign * (float(score) - mean) for score in scores]

    def _hand_rewards(self, now: list[float]) -> None:
        before = self._relative
        assert before is not None
        for seat, agent in enumerate(self.agents):
            self.rewards[agent] = now[seat] - before[seat]
        self._relative = now

    # --- what a seat sees --------------------------------------------------------------------
    def observe(self, agent: str) -> dict[str, Any]:
        observed = self._observed.get(agent)
        if observed is None:
            state = self.state
            assert state is not None
            seat = self._seat_of[agent]
            observed = {"observation": self.codec.encode(state.observe(seat)), "action_mask": self._mask_for(seat)}
            if self.messages:
                observed["message"] = self.message(agent)
            self._observed[agent] = observed
        return observed

    def _mask_for(self, seat: int) -> np.ndarray:
        state = self.state
        assert state is not None
        if seat != state.current_player():
            return np.zeros(self.codec.num_actions, np.int8)
        if self._mask is None:
            self._mask = np.zeros(self.codec.num_actions, np.int8)
            self._mask[self._indices] = 1
        return self._mask

    def message(self, agent: str) -> bot_pb2.Observation:
        """The protocol observation a bot in ``agent``'s seat would be sent now: its view and
        the events since its previous decision (all of them before its first), built as the
        referee builds them.  At the end: what the referee's ``EndMatch`` carries."""
        state = self.state
        assert state is not None
        seat = self._seat_of[agent]
        return wire.observation_to_proto(self.game.name, state.observe(seat), state.events_for(seat, self._seen[seat]))

    def legal_actions(self) -> list[Any]:
        """The engine's legal actions for :attr:`agent_selection`, in the referee's order (the
        order of ``DecideRequest.legal_actions``)."""
        return list(self._legal)

    def legal_indices(self) -> list[int]:
        """The action-space index of each of :meth:`legal_actions`, in the same order."""
        return list(self._indices)

    def action_name(self, index: int) -> str:
        """What an index of the action space means."""
        return self.codec.action_name(int(index))

    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        return str(self.state)

    def close(self) -> None:
        pass
