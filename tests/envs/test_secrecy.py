"""Secrecy: at every step of random matches, no seat's observation vector marks a card that
the engine's true state holds hidden from that seat (another seat's hand, the stock), and
each seat's hand reads exactly its own cards."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="arena[learn] is not installed")

from arena import envs  # noqa: E402
from arena.envs.codec import card_slot  # noqa: E402
from arena.envs.yoninkan import card_number  # noqa: E402
from referee.games import game_class  # noqa: E402
from referee.games import gin_rummy_melds as gm  # noqa: E402
from referee.games import jass_cards as jc  # noqa: E402
from referee.games import yaniv_groups as yg  # noqa: E402
from referee.games import yoninkan as yk  # noqa: E402


def masks_cards(mask: int, cards: Any) -> set[Any]:
    return {cards[c] for c in range(len(cards)) if mask >> c & 1}


def gin_rummy(state: Any, seat: int) -> tuple[set[int], set[int], int]:
    other = 1 - seat
    hidden = (masks_cards(state.hands[other], gm.CARDS) - masks_cards(state.took[other], gm.CARDS)) \
        | {gm.CARDS[c] for c in state.stock}
    return {card_slot(c) for c in hidden}, {card_slot(c) for c in masks_cards(state.hands[seat], gm.CARDS)}, 52


def yaniv(state: Any, seat: int) -> tuple[set[int], set[int], int]:
    seen = {c for _, group in state.history for c in group}  # discarded this round: public, wherever now
    held = set()
    for other in range(state.n):
        if other != seat:
            held |= {c for c in range(54) if (state.hands[other] & ~state.took[other]) >> c & 1}
    hidden = (held | set(state.stock)) - seen
    return hidden, {c for c in range(54) if state.hands[seat] >> c & 1}, 54


def jass(state: Any, seat: int) -> tuple[set[int], set[int], int]:
    hidden = {c for other in range(4) if other != seat for c in jc.indices(state.hands[other])}
    return hidden, set(jc.indices(state.hands[seat])), 36


def yoninkan(state: Any, seat: int) -> tuple[set[int], set[int], int]:
    shown = set(state.shown[2:]) if state.shown is not None and seat in state.shown[:2] else set()
    hidden = {c for other in range(4) if other != seat for c in range(41) if state.hands[other] >> c & 1} - shown
    return hidden, {c for c in range(41) if state.hands[seat] >> c & 1}, 41


TRUTH = {"gin_rummy": (gin_rummy, 5), "yaniv": (yaniv, 12), "jass": (jass, 6), "yoninkan": (yoninkan, 7)}
"""The game's hidden and own card numbers as its vector numbers them, the segment length,
and how many card segments the vector starts with (the first is the seat's hand)."""


@pytest.mark.parametrize(("name", "players"), [("gin_rummy", 2), ("yaniv", 2), ("yaniv", 6), ("jass", 4),
                                               ("yoninkan", 4)])
def test_no_vector_marks_a_hidden_card(name: str, players: int) -> None:
    truth, segments = TRUTH[name]
    checked = 0
    for seed in range(3):
        table = envs.raw_env(name, num_players=players, settings=game_class(name).short_match_settings)
        table.reset(seed=seed)
        rng = random.Random(seed)
        while not all(table.terminations.values()):
            for seat, agent in enumerate(table.possible_agents):
                hidden, own, size = truth(table.state, seat)
                vector = table.observe(agent)["observation"]
                cards = vector[:segments * size].reshape(segments, size)
                marked = set(np.flatnonzero(cards.any(axis=0)).tolist())
                assert not marked & hidden, f"seed {seed} {agent} sees hidden cards {sorted(marked & hidden)}"
                assert set(np.flatnonzero(cards[0]).tolist()) == own
                checked += 1
            table.step(rng.choice(table.legal_indices()))
    assert checked > 200


def test_yoninkan_card_numbers_are_the_engines() -> None:
    assert [card_number(card) for card in yk.CARDS[1:]] == list(range(1, 41))
    assert card_slot(yg.CARDS[53]) == 53 and card_slot(gm.CARDS[0]) == 0
