"""A Jass (Schieber) search bot: determinization with heuristic playouts.

The mode is chosen (or pushed) by the heuristic sample bot's rules (heuristic_jass.py, a copy
of ``jass_heuristic/strategy.py``).  For each card it plays, the bot deals the cards it cannot
see to the other three seats at random, consistently with what it has seen: each seat's
number of cards, the cards already played, the suits a seat showed it lacks (it did not
follow, or did not follow a trump lead, holding at most the trump J), the weis made public,
and the forehand's 7 of clubs in the first hand.  On each such deal it plays every legal card
and finishes the hand with the heuristic's rules for all four seats (jass_sim.py); it plays
the card with the best mean of its team's points minus the other team's, the match bonus
counted.  The partner is assumed to play like the heuristic, and so are the opponents.

Budget: ``search_budget`` in bot.toml (or the environment variable ``JASS_SEARCH_BUDGET``), card
plays simulated per decision (default 5000): the number of deals is that over (legal cards x
cards left to play), at least 6 and at most 120, so each decision costs about the same whatever
the trick.  The random generator is seeded from the observation and the budget, so a match
replays identically, unless the wall-clock guard (:data:`TIME_GUARD_S`) cuts a decision short
on an overloaded machine.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

from arena.v1 import bot_pb2, jass_pb2
from heuristic_jass import decide as heuristic_decide
from jass_sim import Mode, card, play_out, text


def read_budget() -> int:
    """The budget: the environment variable ``JASS_SEARCH_BUDGET`` if set (an unsandboxed run: the
    sandbox passes the bot no environment), else ``search_budget`` in this folder's bot.toml."""
    if "JASS_SEARCH_BUDGET" in os.environ:
        return int(os.environ["JASS_SEARCH_BUDGET"])
    manifest = tomllib.loads(Path(__file__).with_name("bot.toml").read_text(encoding="utf-8"))
    return int(manifest.get("search_budget", 5000))


BUDGET = read_budget()
MIN_DEALS, MAX_DEALS = 6, 120
TIME_GUARD_S = 0.3
"""Wall-clock safety net per decision: past it, no new deal is started once two are done (an
overloaded machine; the default budget takes well under it on one free core).  Only when it
fires does a decision depend on the machine's speed; ``None`` turns it off."""
_Phase = jass_pb2.JassObservation


def _seen(obs: jass_pb2.JassObservation) -> tuple[list[list[int]], list[set[int]], list[tuple[int, list[int]]]]:
    """Cards each seat played, suits each seat lacks, and the tricks as (leader, cards)."""
    mode = Mode(obs.mode)
    played: list[list[int]] = [[], [], [], []]
    lacks: list[set[int]] = [set(), set(), set(), set()]
    tricks = [(t.leader, [card(c) for c in t.cards]) for t in obs.tricks]
    tricks.append((obs.trick_leader, [card(c) for c in obs.trick]))
    for leader, cards in tricks:
        if not cards:
            continue
        lead = cards[0] // 9
        for i, c in enumerate(cards):
            seat = (leader + i) % 4
            played[seat].append(c)
            suit = c // 9
            if i and suit != lead:
                if lead == mode.trump:
                    lacks[seat].add(-1)  # no trump but perhaps the J
                elif suit != mode.trump:
                    lacks[seat].add(lead)
    return played, lacks, tricks


def sample_deal(obs: jass_pb2.JassObservation, rng: random.Random, played: list[list[int]],
                lacks: list[set[int]]) -> list[list[int]]:
    """The four hands of one deal consistent with what this seat has seen."""
    mode = Mode(obs.mode)
    me = obs.seat
    gone = {c for cards in played for c in cards}
    hands: list[list[int]] = [[], [], [], []]
    hands[me] = [card(c) for c in obs.hand]
    need = [9 - len(played[s]) for s in range(4)]
    fixed: dict[int, int] = {}
    for weis in obs.weis:
        if weis.seat != me:
            for c in weis.cards:
                if card(c) not in gone:
                    fixed[card(c)] = weis.seat
    if obs.hand_number == 1 and obs.forehand != me and card("7C") not in gone:
        fixed[card("7C")] = obs.forehand
    for c, seat in fixed.items():
        hands[seat].append(c)
    mine = set(hands[me])
    unknown = [c for c in range(36) if c not in gone and c not in mine and c not in fixed]
    others = [s for s in range(4) if s != me]

    def allowed(c: int, seat: int) -> bool:
        suit = c // 9
        if -1 in lacks[seat] and suit == mode.trump and c != mode.jack:
            return False
        return suit not in lacks[seat]

    for _attempt in range(20):
        room = {s: need[s] - len(hands[s]) for s in others}
        deal: dict[int, list[int]] = {s: [] for s in others}
        order = sorted(unknown, key=lambda c: (sum(allowed(c, s) for s in others), rng.random()))
        ok = True
        for c in order:
            seats = [s for s in others if room[s] > 0 and allowed(c, s)]
            if not seats:
                ok = False
                break
            seat = rng.choice(seats)
            deal[seat].append(c)
            room[seat] -= 1
        if ok:
            break
    else:  # the constraints could not be met by chance: drop the lacks
        rng.shuffle(unknown)
        deal = {}
        rest = iter(unknown)
        for s in others:
            deal[s] = [next(rest) for _ in range(need[s] - len(hands[s]))]
    for s in others:
        hands[s] = hands[s] + deal[s]
    return hands


def deals_for(budget: int, candidates: int, cards_left: int) -> int:
    """How many deals ``budget`` simulated card plays pay for."""
    return max(MIN_DEALS, min(MAX_DEALS, budget // max(1, candidates * cards_left)))


def choose_card(obs: jass_pb2.JassObservation, legal: list[str], budget: int = BUDGET) -> str:
    """The legal card with the best mean playout result over the deals ``budget`` pays for."""
    if len(legal) == 1:
        return legal[0]
    mode = Mode(obs.mode)
    played, lacks, tricks = _seen(obs)
    deals = deals_for(budget, len(legal), 36 - sum(len(cards) for cards in played))
    team = obs.seat % 2
    won_before = [0, 0]
    for leader, cards in tricks[:-1]:
        won_before[(leader + mode.winner(cards)) % 4 % 2] += 1
    seed = hashlib.sha256(obs.SerializeToString(deterministic=True) + budget.to_bytes(8, "big")).digest()
    rng = random.Random(seed)
    trick = [card(c) for c in obs.trick]
    candidates = [card(c) for c in legal]
    totals = [0.0] * len(candidates)
    started = time.monotonic()
    for done in range(deals):
        if TIME_GUARD_S is not None and done >= 2 and time.monotonic() - started > TIME_GUARD_S:
            break
        hands = sample_deal(obs, rng, played, lacks)
        for k, c in enumerate(candidates):
            copy = [list(h) for h in hands]
            copy[obs.seat].remove(c)
            taken, won = _finish(mode, copy, [*trick, c], obs.trick_leader, len(obs.tricks))
            for side in (0, 1):
                if won[side] + won_before[side] == 9:
                    taken[side] += 100
            totals[k] += taken[team] - taken[1 - team]
    best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
    return text(candidates[best])


def _finish(mode: Mode, hands: list[list[int]], trick: list[int], leader: int,
            tricks_done: int) -> tuple[list[int], list[int]]:
    """Finish the current trick (if full) and the hand."""
    taken, won = [0, 0], [0, 0]
    if len(trick) == 4:
        w = (leader + mode.winner(trick)) % 4
        taken[w % 2] += sum(mode.points[x] for x in trick) + (5 if tricks_done == 8 else 0)
        won[w % 2] += 1
        trick, leader, tricks_done = [], w, tricks_done + 1
    more, more_won = play_out(mode, hands, trick, leader, tricks_done)
    return [taken[0] + more[0], taken[1] + more[1]], [won[0] + more_won[0], won[1] + more_won[1]]


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action among ``legal_actions``."""
    jass = observation.jass
    if jass.phase == _Phase.PHASE_DECLARE:
        return heuristic_decide(observation, legal_actions)
    legal = [a.jass.card for a in legal_actions]
    return legal.index(choose_card(jass, legal, BUDGET))
