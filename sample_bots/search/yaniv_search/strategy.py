"""Yaniv by determinization: sample the hidden cards, roll each candidate out with the heuristic.

- **What is hidden**: the other players' cards except those they took from the discards
  (public), and the stock's order. Every card not in this seat's hand, on the table (the dead
  discards, the group on offer, this turn's own discard) or among the known taken cards is in
  another hand or in the stock. Uniform deals would give the others far more points per hidden
  card than they hold after a few turns (about 7 against 4.3 after four turns, in heuristic
  self-play), so each other hand is then improved as play improves it: once per turn it has
  played this round (up to six), a random unseen card replaces its highest hidden card when
  lower, with chance 0.4 (which matches self-play's values per turn). Nothing else is inferred.
- **Candidates**: Yaniv when legal, the few discards the heuristic ranks best, every draw.
- **Evaluation**: the same sampled deals for every candidate (common random numbers); each deal
  is played to the end of the round with the heuristic for every seat (``yaniv_sim.py``). A
  round is worth, to this seat, the others' mean loss minus its own, where a seat's loss is what
  its total grows by after halving (100 -> 50, 50 -> 25), plus :data:`OUT_PENALTY` if the round
  puts it out. The best mean wins if it beats the heuristic's choice clearly (:class:`Gains`).
- **Budget**: ``deals`` sampled deals per decision (:data:`DEFAULT_DEALS`), and never more than
  ``seconds`` of thinking (:data:`DEFAULT_SECONDS`: 0.2 s, checked before each play-out, leaves
  room under the default 1 s move timeout and under the 0.5 s of `arena check-bot` tests, on a
  busy machine); the time guard is the only thing that can make a decision depend on the
  machine's speed.
- **Deterministic**: the random generator is seeded by the observation itself.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

import yaniv_sim as sim
from arena.v1 import bot_pb2, yaniv_pb2

_Kind = yaniv_pb2.YanivAction
_Phase = yaniv_pb2.YanivObservation
DEFAULT_DEALS = 80
DEFAULT_SECONDS = 0.2
OUT_PENALTY = 100
CONFIDENCE = 1.5
_MAX_STEPS = 6
"""Replayed turns at most per hand (calibrated on heuristic self-play)."""
_STEP_CHANCE = 0.4
_DISCARDS = 4
"""Discards searched: the heuristic's best few."""


def _action(a: yaniv_pb2.YanivAction) -> tuple:
    if a.kind == _Kind.KIND_YANIV:
        return ("yaniv",)
    if a.kind == _Kind.KIND_DRAW_STOCK:
        return ("stock",)
    if a.kind == _Kind.KIND_TAKE:
        return ("take", sim.parse(a.cards[0]))
    return ("discard", tuple(sim.parse(t) for t in a.cards))


def _unseen(obs: yaniv_pb2.YanivObservation) -> dict[int, int]:
    """Cards of each rank (0 = joker) this seat has not seen this round (the heuristic's count)."""
    counts = {r: 4 for r in range(1, 14)}
    counts[0] = 2
    for card in {sim.parse(t) for t in [*obs.hand, *(c for g in obs.discards for c in g.cards)]}:
        counts[sim.rank(card)] = max(0, counts[sim.rank(card)] - 1)
    return counts


def _position(obs: yaniv_pb2.YanivObservation, rng: random.Random) -> sim.Round:
    """One deal consistent with what this seat has seen."""
    n = len(obs.hand_sizes)
    drawing = obs.phase == _Phase.PHASE_DRAW
    pending = tuple(sim.parse(t) for t in obs.discards[-1].cards) if drawing else ()
    offered = tuple(sim.parse(t) for t in obs.draw_group)
    took = [{sim.parse(t) for t in obs.took[s].cards} if s < len(obs.took) and s != obs.seat else set()
            for s in range(n)]
    mine = [sim.parse(t) for t in obs.hand]
    seen = {*mine, *pending, *offered, *(sim.parse(t) for t in obs.dead)}
    for cards in took:
        seen |= cards
    pool = [c for c in sim.DECK if c not in seen]
    rng.shuffle(pool)
    order = [s for s in range(n) if not obs.out_round[s]]
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[obs.seat] = mine
    turns = [0] * n
    for group in obs.discards:
        if group.seat >= 0:
            turns[group.seat] += 1
    for s in order:
        if s != obs.seat:
            count = obs.hand_sizes[s] - len(took[s])
            hidden, pool = pool[:count], pool[count:]
            for _ in range(min(turns[s], _MAX_STEPS) if hidden else 0):  # its turns, replayed
                pick = rng.randrange(len(pool))
                high = max(range(count), key=lambda i: sim.value(hidden[i]))
                if sim.value(pool[pick]) < sim.value(hidden[high]) and rng.random() < _STEP_CHANCE:
                    hidden[high], pool[pick] = pool[pick], hidden[high]
            hands[s] = [*took[s], *hidden]
    mine_took = {sim.parse(t) for t in obs.took[obs.seat].cards} if obs.seat < len(obs.took) else set()
    took[obs.seat] = mine_took
    return sim.Round(hands, took, pool[:obs.stock_size], [sim.parse(t) for t in obs.dead], offered,
                     obs.current_player, drawing, order, pending)


def _value(game: sim.Round, obs: yaniv_pb2.YanivObservation) -> float:
    losses = {}
    for seat, score in game.scores().items():
        total, out = sim.after_round(obs.totals[seat], score)
        losses[seat] = total - obs.totals[seat] + (OUT_PENALTY if out else 0)
    others = [loss for seat, loss in losses.items() if seat != obs.seat]
    return sum(others) / len(others) - losses[obs.seat]


def _candidates(base: sim.Round, actions: list[tuple]) -> list[int]:
    """Indices of the actions worth searching: the heuristic's choice first."""
    if base.drawing:
        default = base.policy()
        first = actions.index(default) if default in actions else 0
        return [first] + [i for i in range(len(actions)) if i != first]
    hand = base.hands[base.to_play]
    takes = base.takes()
    ranked = []
    for i, a in enumerate(actions):
        if a[0] == "discard":
            rest = list(hand)
            for card in a[1]:
                rest.remove(card)
            follow = min([sim.stock_cost(rest, base.draws, base.memo)] + [float(sim.cost([*rest, c])) for c in takes])
            ranked.append((follow, sum(1 for c in a[1] if c in sim.JOKERS), -sim.points(a[1]), i))
    ranked.sort()
    out = [i for *_, i in ranked[:_DISCARDS]]
    default = base.policy()
    if default == ("yaniv",):
        out.insert(0, 0)
    elif actions[0] == ("yaniv",):
        out.append(0)
    return out


class Gains:
    """Each candidate's gain over the first (the heuristic's choice), deal by deal.

    A candidate replaces the heuristic's choice only when its mean gain exceeds
    :data:`CONFIDENCE` standard errors: with few deals, the best of several noisy means is
    mostly luck, and playing it would be worse than the heuristic.
    """

    def __init__(self, count: int) -> None:
        self.sums = [0.0] * count
        self.squares = [0.0] * count
        self.deals = 0

    def add(self, values: list[float]) -> None:
        self.deals += 1
        for k, v in enumerate(values):
            gain = v - values[0]
            self.sums[k] += gain
            self.squares[k] += gain * gain

    def best(self) -> int:
        n = self.deals
        chosen, margin = 0, 0.0
        for k in range(1, len(self.sums)):
            mean = self.sums[k] / n
            spread = max(self.squares[k] / n - mean * mean, 0.0) ** 0.5
            edge = mean - CONFIDENCE * spread / max(n - 1, 1) ** 0.5
            if n > 1 and edge > margin:
                chosen, margin = k, edge
        return chosen


def make_decide(deals: int = DEFAULT_DEALS, seconds: float = DEFAULT_SECONDS):
    """A ``decide`` with this budget."""
    def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
        start = time.perf_counter()
        obs = observation.yaniv
        if len(legal_actions) == 1:
            return 0
        actions = [_action(a.yaniv) for a in legal_actions]
        rng = random.Random(observation.SerializeToString(deterministic=True))
        draws = sim.unknown_draws(_unseen(obs))
        base = _position(obs, rng)
        base.draws = draws
        candidates = _candidates(base, actions)
        if len(candidates) == 1:
            return candidates[0]
        gains = Gains(len(candidates))
        for n in range(deals):
            if n and time.perf_counter() - start > seconds:
                break
            deal = base if n == 0 else _position(obs, rng)
            deal.draws, deal.memo = draws, base.memo
            seed = rng.getrandbits(64)
            values = []
            for index in candidates:
                if n and time.perf_counter() - start > seconds:
                    break  # an unfinished deal is dropped
                game = deal.copy()
                play_rng = random.Random(seed)
                game.apply(actions[index], play_rng)
                game.rollout(play_rng)
                values.append(_value(game, obs))
            if len(values) < len(candidates):
                break
            gains.add(values)
        return candidates[gains.best()]
    return decide


decide = make_decide()
"""The default budget's ``decide`` (what ``bot.py`` serves unless told otherwise)."""
