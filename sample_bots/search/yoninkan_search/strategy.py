"""A Yoninkan search bot: determinization with heuristic playouts, groups included.

Mode of play: trump, show, right to 16 and declarations are the heuristic's (a copy of
``yoninkan_heuristic/strategy.py`` in heuristic_yoninkan.py).  For each card, the bot deals
the cards it cannot see at random, consistently with what it has seen: each seat's number of
cards, the cards played, the suits a seat showed it lacks, the battle-1 leader's AS (AC),
the two cards shown to it in a 決め役, and in battle 1 that a declarer held the trump J or the
joker.  In battle 1 each deal also settles the secret groups: the holders of the trump J and
of the joker in that deal are kan (one holding both: with the seat opposite), so the bot
weighs each card by how it fares under every grouping the play so far allows.  On each deal
it plays every candidate and finishes the battle with quick heuristic rules for all seats
(yoninkan_sim.py), then scores the game for itself: a mukan win or battle 3 ends the game
with its points, a kan win before battle 3 counts as if kan lost the next battle, plus one.
It assumes the others play like the heuristic and know their groups.

Budget: ``search_budget`` in bot.toml (or the environment variable ``YONINKAN_SEARCH_BUDGET``),
card plays simulated per decision (default 6000): the number of deals is that over (candidates x
cards left in the hands), at least 6 and at most 120, so each decision costs about the same
whatever the trick.  The random generator is seeded from the observation and the budget, so a
match replays identically, unless the wall-clock guard (:data:`TIME_GUARD_S`) cuts a decision
short on an overloaded machine.
"""

from __future__ import annotations

import hashlib
import os
import random
import time
import tomllib
from collections.abc import Sequence
from pathlib import Path

from arena.v1 import bot_pb2, yoninkan_pb2
from heuristic_yoninkan import JOKER
from heuristic_yoninkan import decide as heuristic_decide
from yoninkan_scoring import KAN, MUKAN
from yoninkan_sim import DECK, Battle, value


def read_budget() -> int:
    """The budget: the environment variable ``YONINKAN_SEARCH_BUDGET`` if set (an unsandboxed run: the
    sandbox passes the bot no environment), else ``search_budget`` in this folder's bot.toml."""
    if "YONINKAN_SEARCH_BUDGET" in os.environ:
        return int(os.environ["YONINKAN_SEARCH_BUDGET"])
    manifest = tomllib.loads(Path(__file__).with_name("bot.toml").read_text(encoding="utf-8"))
    return int(manifest.get("search_budget", 6000))


BUDGET = read_budget()
MIN_DEALS, MAX_DEALS = 6, 120
TIME_GUARD_S = 0.3
"""Wall-clock safety net per decision: past it, no new deal is started once two are done (an
overloaded machine; the default budget takes well under it on one free core).  Only when it
fires does a decision depend on the machine's speed; ``None`` turns it off."""
_Phase = yoninkan_pb2.YoninkanObservation


def _history(obs: yoninkan_pb2.YoninkanObservation) -> tuple[list[list[str]], list[set[str]]]:
    """Cards each seat played this battle and the suits each seat showed it lacks."""
    played: list[list[str]] = [[], [], [], []]
    lacks: list[set[str]] = [set(), set(), set(), set()]
    tricks = [(t.call, [(p.seat, p.card) for p in t.plays]) for t in obs.tricks]
    tricks.append((obs.led_suit, [(p.seat, p.card) for p in obs.trick]))
    for call, plays in tricks:
        if not plays:
            continue
        led = call or plays[0][1][1]
        for i, (seat, card) in enumerate(plays):
            played[seat].append(card)
            if i and card != JOKER and card[1] != led:
                lacks[seat].add(led)
    return played, lacks


def _groups(obs: yoninkan_pb2.YoninkanObservation, hands: list[list[str]], played: list[list[str]]) -> frozenset[int]:
    if obs.kan_seats:
        return frozenset(obs.kan_seats)
    jack = "J" + obs.trump
    start = [set(hands[s]) | set(played[s]) for s in range(4)]
    jack_holder = next(s for s in range(4) if jack in start[s])
    joker_holder = next(s for s in range(4) if JOKER in start[s])
    if jack_holder == joker_holder:
        return frozenset({joker_holder, (joker_holder + 2) % 4})
    return frozenset({jack_holder, joker_holder})


def sample_deal(obs: yoninkan_pb2.YoninkanObservation, rng: random.Random, played: list[list[str]],
                lacks: list[set[str]]) -> list[list[str]]:
    """Four hands consistent with what this seat has seen (module docstring)."""
    me = obs.seat
    gone = {c for cards in played for c in cards}
    hands: list[list[str]] = [[], [], [], []]
    hands[me] = list(obs.hand)
    fixed: dict[str, int] = {}
    if obs.shown_by >= 0 and obs.shown_by != me:
        for card in obs.shown_cards:
            if card not in gone:
                fixed[card] = obs.shown_by
    if obs.battle == 1:
        opener = "AC" if obs.game_number == obs.games else "AS"
        first = obs.tricks[0].leader if obs.tricks else (obs.trick[0].seat if obs.trick else obs.leader)
        if first != me and opener not in gone and opener not in hands[me]:
            fixed[opener] = first
    for card, seat in fixed.items():
        hands[seat].append(card)
    others = [s for s in range(4) if s != me]
    need = {s: 10 - len(played[s]) - len(hands[s]) for s in others}
    unknown = [c for c in DECK if c not in gone and c not in hands[me] and c not in fixed]
    declarers = {d.seat for d in obs.declarations} - {me} if obs.battle == 1 else set()
    jack = "J" + obs.trump

    def allowed(card: str, seat: int) -> bool:
        return card == JOKER or card[1] not in lacks[seat]

    deal: dict[int, list[str]] = {}
    for _attempt in range(30):
        room = dict(need)
        deal = {s: [] for s in others}
        ok = True
        for card in sorted(unknown, key=lambda c: (sum(allowed(c, s) for s in others), rng.random())):
            seats = [s for s in others if room[s] > 0 and allowed(card, s)]
            if not seats:
                ok = False
                break
            seat = rng.choice(seats)
            deal[seat].append(card)
            room[seat] -= 1
        if ok and all(any(c in (jack, JOKER) for c in deal[s] + hands[s] + played[s]) for s in declarers):
            break
    else:  # the constraints could not be met by chance: drop them
        rng.shuffle(unknown)
        rest = iter(unknown)
        deal = {s: [next(rest) for _ in range(need[s])] for s in others}
    for s in others:
        hands[s] = hands[s] + deal[s]
    return hands


def _candidates(legal: Sequence[bot_pb2.Action], trick_number: int) -> list[int]:
    plain = [i for i, a in enumerate(legal) if not a.yoninkan.declaration]
    if trick_number == 1 and any(legal[i].yoninkan.card != JOKER for i in plain):
        plain = [i for i in plain if legal[i].yoninkan.card != JOKER]
    return plain


def _battle(obs: yoninkan_pb2.YoninkanObservation, hands: list[list[str]], kan: frozenset[int]) -> Battle:
    count = {KAN: 0, MUKAN: 0}
    for seat in range(4):
        count[KAN if seat in kan else MUKAN] += len(obs.captured[seat].cards) if seat < len(obs.captured) else 0
    open_: dict[str, str | None] = {KAN: None, MUKAN: None}
    declared = {KAN: False, MUKAN: False}
    needs = {KAN: obs.kan_needs, MUKAN: obs.mukan_needs}
    for d in obs.declarations:
        group = KAN if d.seat in kan or not obs.kan_seats else MUKAN  # battle 1: only kan declares
        declared[group] = True
        after_skunk = d.declaration in ("16", "reverse_16") and count[group] >= needs[group]
        open_[group] = d.declaration if after_skunk else f"declared_{d.declaration}"
    sim = Battle(battle=obs.battle, trump=obs.trump, table=list(obs.table), hands=hands, kan=kan,
                 trick=[(p.seat, p.card) for p in obs.trick], led=obs.led_suit, trick_number=obs.trick_number,
                 count=count, open_=open_, declared=declared)
    sim.set_leader(obs.leader if obs.leader >= 0 else obs.seat)
    return sim


def deals_for(budget: int, candidates: int, cards_left: int) -> int:
    """How many deals ``budget`` simulated card plays pay for."""
    return max(MIN_DEALS, min(MAX_DEALS, budget // max(1, candidates * cards_left)))


def choose_play(obs: yoninkan_pb2.YoninkanObservation, legal: Sequence[bot_pb2.Action], budget: int = BUDGET) -> int:
    """The candidate play with the best mean outcome over the deals ``budget`` pays for."""
    candidates = _candidates(legal, obs.trick_number)
    if len(candidates) <= 1:
        return candidates[0] if candidates else 0
    played, lacks = _history(obs)
    deals = deals_for(budget, len(candidates), 40 - sum(len(cards) for cards in played))
    seed = hashlib.sha256(obs.SerializeToString(deterministic=True) + budget.to_bytes(8, "big")).digest()
    rng = random.Random(seed)
    results = [(r.winner, r.bonus or None) for r in obs.results]
    totals = [0.0] * len(candidates)
    started = time.monotonic()
    for done in range(deals):
        if TIME_GUARD_S is not None and done >= 2 and time.monotonic() - started > TIME_GUARD_S:
            break
        hands = sample_deal(obs, rng, played, lacks)
        kan = _groups(obs, hands, played)
        sign = 1.0 if obs.seat in kan else -1.0
        for k, index in enumerate(candidates):
            action = legal[index].yoninkan
            sim = _battle(obs, [list(h) for h in hands], kan)
            sim.play(obs.seat, action.card, action.call)
            verdict = sim.verdict or sim.run()
            totals[k] += sign * value(results, verdict, obs.battle)
    best = max(range(len(candidates)), key=lambda k: (totals[k], -k))
    return candidates[best]


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action."""
    obs = observation.yoninkan
    chosen = heuristic_decide(observation, legal_actions)
    if obs.phase != _Phase.PHASE_PLAY or legal_actions[chosen].yoninkan.declaration:
        return chosen
    return choose_play(obs, legal_actions, BUDGET)
