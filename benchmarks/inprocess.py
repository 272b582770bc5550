"""Matches played in-process between the sample bots' strategies, as match records.

For measurements that need thousands of matches (luck, ratings, SPRT): the engines and the
sample bots' ``decide`` functions, with observations built through :mod:`referee.wire` exactly
as the referee builds them, without gRPC or bot processes.  The record is the one a real
match stores (moves by legal index, scores, ranking), so :func:`referee.luck.analyse` and
replays read it unchanged.
"""

from __future__ import annotations

import importlib.util
import math
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from arena.sdk import random_decide
from referee import wire
from referee.games import make_game
from referee.result import MatchRecord, Move

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_bots" / "python"
SEARCH_SAMPLES = ROOT / "sample_bots" / "search"
"""The search bots (issue 36), kept apart so that a folder of the sample bots (the demo's) stays quick."""
HEURISTIC = {"yahtzee": "yahtzee_heuristic", "gin_rummy": "gin_heuristic", "jass": "jass_heuristic",
             "yaniv": "yaniv_heuristic", "yoninkan": "yoninkan_heuristic"}

Policy = Callable[[Any, Sequence[Any]], int]
"""``decide(observation, legal_actions) -> index``, on the protobuf messages."""

_LOADED: dict[str, ModuleType] = {}


def load_strategy(sample: str) -> ModuleType:
    """The ``strategy`` module of ``sample_bots/python/<sample>`` or ``sample_bots/search/<sample>``
    (loaded once, under its own name)."""
    if sample not in _LOADED:
        folder = SAMPLES / sample if (SAMPLES / sample).is_dir() else SEARCH_SAMPLES / sample
        sys.path.insert(0, str(folder))  # a strategy may import its folder's other modules
        try:
            spec = importlib.util.spec_from_file_location(f"{sample}_strategy", folder / "strategy.py")
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module  # dataclasses look their module up there
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(folder))
        _LOADED[sample] = module
    return _LOADED[sample]


def heuristic(game: str) -> Policy:
    """The game's heuristic sample bot's ``decide``."""
    return load_strategy(HEURISTIC[game]).decide  # type: ignore[no-any-return]


def noisy(decide: Policy, epsilon: float, salt: int | None = None) -> Policy:
    """``decide``, except a random legal move with probability ``epsilon`` (seeded by the
    observation and ``salt``, so a match replays identically; two seats with different salts
    draw apart, and ``None`` seeds from the observation alone, as the ladder benchmarks'
    published figures were drawn)."""
    suffix = b"" if salt is None else salt.to_bytes(8, "big")

    def policy(observation: Any, legal: Sequence[Any]) -> int:
        rng = random.Random(observation.SerializeToString(deterministic=True) + suffix)
        return rng.randrange(len(legal)) if rng.random() < epsilon else decide(observation, legal)
    return policy


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``hits`` in ``n`` (95% by default): unlike the normal
    interval it stays inside 0-1 and is honest for small samples and rates near 0 or 1."""
    centre = (hits + z * z / 2) / (n + z * z)
    half = z * math.sqrt(hits * (n - hits) / n + z * z / 4) / (n + z * z)
    return centre - half, centre + half


RANDOM: Policy = random_decide
"""The random sample bot's policy."""


def play(game_name: str, seed: int, policies: Sequence[Policy], *, variant: str | None = None,
         settings: Mapping[str, Any] | None = None, names: Sequence[str] | None = None) -> MatchRecord:
    """One match, seat ``i`` played by ``policies[i]``; its record as the referee would store it
    (no faults, no clock)."""
    game = make_game(game_name, variant=variant, num_players=len(policies), settings=settings)
    state = game.new_initial_state(seed)
    seen = [0] * len(policies)
    moves: list[Move] = []
    while not state.is_terminal():
        seat = state.current_player()
        legal = state.legal_actions()
        events = state.events_for(seat, seen[seat])
        seen[seat] = len(state.events)
        observation = wire.observation_to_proto(game_name, state.observe(seat), events)
        index = policies[seat](observation, wire.actions_to_proto(game_name, legal))
        moves.append(Move(seat, index, str(legal[index])))
        state.apply(legal[index])
    outcome = state.outcome()
    players = list(names) if names is not None else [f"seat{seat}" for seat in range(len(policies))]
    return MatchRecord(match_id=f"{game_name}-{seed}", game=game_name, variant=game.variant,
                       num_players=game.num_players, settings=dict(game.settings), seed=seed, players=players,
                       moves=moves, scores=list(outcome.scores), ranking=list(outcome.ranking),
                       engine_ranking=list(outcome.ranking), termination=outcome.termination.value,
                       reason=outcome.detail)
