"""A simple Yaniv strategy that sees only the protocol messages.

- Each turn is judged by the hand it leaves for the next turn: its points minus the points
  of the best group that hand could discard then (so pairs and run pieces are worth keeping,
  and a card offered by the previous player is taken when it joins one).  A stock draw is
  judged by its average over the ranks not yet seen, as a card that joins nothing but sets.
- Discard: the group whose best follow-up draw leaves the lowest such cost; ties keep jokers,
  then shed more points.
- Yaniv: called with 5 points or less unless another player might be as low: a player whose
  cards taken from the pile (public) plus 2 points for each other card could be at or under
  this hand.

Cards are parsed from the text form ("TD" = ten of diamonds, "X1" a joker); nothing of the
referee's engine is imported, as a bot in another language would see the same messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from arena.v1 import bot_pb2, yaniv_pb2

_RANKS = "A23456789TJQK"
_Kind = yaniv_pb2.YanivAction
_Phase = yaniv_pb2.YanivObservation
_YANIV_LIMIT = 5
_UNKNOWN_CARD_FLOOR = 2
"""Points assumed at least for each card of another player's hand that is not known."""

Card = tuple[int, str]
"""(rank 1..13, suit letter); a joker is (0, "X"), an unseen stock card (rank, "?")."""


def parse(text: str) -> Card:
    if text[0] == "X":
        return 0, "X"
    return _RANKS.index(text[0]) + 1, text[1]


def value(card: Card) -> int:
    return min(card[0], 10)


def points(cards: Sequence[Card]) -> int:
    return sum(value(c) for c in cards)


def best_group(hand: Sequence[Card]) -> int:
    """The most points one discard of ``hand`` could shed: a card, a set or a run."""
    naturals = [c for c in hand if c[0]]
    jokers = len(hand) - len(naturals)
    best = max((value(c) for c in naturals), default=0)
    by_rank: dict[int, int] = {}
    for card in naturals:
        by_rank[card[0]] = by_rank.get(card[0], 0) + value(card)
    best = max(best, *by_rank.values()) if by_rank else best
    by_suit: dict[str, list[int]] = {}
    for rank, suit in naturals:
        if suit in "SHDC":
            by_suit.setdefault(suit, []).append(rank)
    for ranks in by_suit.values():
        for count in range(2, len(ranks) + 1):
            for subset in combinations(sorted(ranks), count):
                gaps = subset[-1] - subset[0] + 1 - count
                if gaps <= jokers and subset[-1] - subset[0] + 1 + jokers - gaps >= 3:
                    best = max(best, sum(min(r, 10) for r in subset))
    return best


def cost(hand: Sequence[Card]) -> int:
    """Points left after the best discard of the next turn (lower is better)."""
    return points(hand) - best_group(hand)


def _unseen(obs: yaniv_pb2.YanivObservation) -> dict[int, int]:
    """How many cards of each rank (0 = joker) this seat has not seen in this round."""
    counts = {rank: 4 for rank in range(1, 14)}
    counts[0] = 2
    seen = list(obs.hand) + [c for group in obs.discards for c in group.cards]
    for text in set(seen):
        rank = parse(text)[0]
        counts[rank] = max(0, counts[rank] - 1)
    return counts


def _stock_cost(hand: Sequence[Card], unseen: dict[int, int]) -> float:
    total = sum(unseen.values())
    if not total:
        return cost(hand) + 5.0
    return sum(n * cost([*hand, (rank, "?")]) for rank, n in unseen.items() if n) / total


def _draw_costs(hand: Sequence[Card], actions: Sequence[yaniv_pb2.YanivAction],
                unseen: dict[int, int]) -> list[float]:
    """The cost of each draw action (stock or take) for a hand about to draw."""
    out = []
    for a in actions:
        if a.kind == _Kind.KIND_DRAW_STOCK:
            out.append(_stock_cost(hand, unseen))
        else:
            out.append(float(cost([*hand, parse(a.cards[0])])))
    return out


def _safe_to_call(obs: yaniv_pb2.YanivObservation) -> bool:
    mine = obs.hand_value
    for seat, size in enumerate(obs.hand_sizes):
        if seat == obs.seat or size == 0:
            continue
        known = [parse(t) for t in obs.took[seat].cards] if seat < len(obs.took) else []
        floor = points(known) + _UNKNOWN_CARD_FLOOR * (size - len(known))
        if floor <= mine:
            return False
    return True


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action in ``legal_actions``."""
    obs = observation.yaniv
    actions = [a.yaniv for a in legal_actions]
    hand = [parse(t) for t in obs.hand]
    unseen = _unseen(obs)
    if obs.phase == _Phase.PHASE_DRAW:
        costs = _draw_costs(hand, actions, unseen)
        return min(range(len(actions)), key=lambda i: (costs[i], i))
    if actions[0].kind == _Kind.KIND_YANIV and _safe_to_call(obs):
        return 0
    takes = [parse(t) for t in {obs.draw_group[0], obs.draw_group[-1]}] if obs.draw_group else []
    best: tuple[float, int, int, int] | None = None
    for i, a in enumerate(actions):
        if a.kind != _Kind.KIND_DISCARD:
            continue
        gone = [parse(t) for t in a.cards]
        rest = list(hand)
        for card in gone:
            rest.remove(card)
        follow = min([_stock_cost(rest, unseen)] + [float(cost([*rest, card])) for card in takes])
        key = (follow, sum(1 for c in gone if not c[0]), -points(gone), i)
        if best is None or key < best:
            best = key
    return best[3] if best is not None else 0
