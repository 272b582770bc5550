"""A simple Gin Rummy strategy that sees only the protocol messages.

- Take the upcard or the discard-pile top only when it ends up in a meld.
- Discard the card whose loss leaves the least deadwood; among equals, the card with the
  fewest near-meld partners (same rank, or same suit within two ranks), then the highest.
- Show big gin when possible; knock with gin always; knock otherwise as soon as the rules
  allow, except with 1-3 deadwood while at least 12 cards remain in the stock, when it
  plays on for gin.

Cards are parsed from the text form ("TD" = ten of diamonds); nothing of the referee's engine
is imported, as a bot in another language would see the same messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.v1 import bot_pb2, gin_rummy_pb2

_RANKS = "A23456789TJQK"
_Kind = gin_rummy_pb2.GinRummyAction
_Phase = gin_rummy_pb2.GinRummyObservation
_WAIT_FOR_GIN_DEADWOOD = 3
_WAIT_FOR_GIN_STOCK = 12

Card = tuple[int, str]
"""(rank 1..13, suit letter)."""


def parse(text: str) -> Card:
    return _RANKS.index(text[0]) + 1, text[1]


def value(card: Card) -> int:
    return min(card[0], 10)


def _melds(cards: frozenset[Card]) -> list[frozenset[Card]]:
    """Every set and run in ``cards`` (sub-runs and 3-card parts of a 4-set included)."""
    found: list[frozenset[Card]] = []
    by_rank: dict[int, list[Card]] = {}
    for card in cards:
        by_rank.setdefault(card[0], []).append(card)
    for group in by_rank.values():
        if len(group) >= 3:
            found.append(frozenset(group))
            if len(group) == 4:
                found.extend(frozenset(group) - {card} for card in group)
    for rank, suit in cards:
        if (rank - 1, suit) in cards:
            continue  # not the lowest card of a run
        run = [(rank, suit)]
        while (run[-1][0] + 1, suit) in cards:
            run.append((run[-1][0] + 1, suit))
        for start in range(len(run) - 2):
            for end in range(start + 3, len(run) + 1):
                found.append(frozenset(run[start:end]))
    return found


def arrange(cards: Sequence[Card]) -> tuple[int, frozenset[Card]]:
    """The least deadwood of ``cards`` and the unmatched cards of one best arrangement."""
    hand = frozenset(cards)
    melds = _melds(hand)
    best = (sum(value(c) for c in hand), hand)

    def search(start: int, left: frozenset[Card]) -> None:
        nonlocal best
        dw = sum(value(c) for c in left)
        if dw < best[0]:
            best = (dw, left)
        for i in range(start, len(melds)):
            if melds[i] <= left:
                search(i + 1, left - melds[i])

    search(0, hand)
    return best


def partners(card: Card, hand: Sequence[Card]) -> int:
    """How many other cards could form a meld with ``card``."""
    return sum(1 for other in hand if other != card and
               (other[0] == card[0] or other[1] == card[1] and abs(other[0] - card[0]) <= 2))


def _best_discard(hand: list[Card], forbidden: Card | None) -> tuple[Card, int]:
    """The discard leaving the least deadwood, ties broken as the module says."""
    options = []
    for card in hand:
        if card == forbidden:
            continue
        rest = [c for c in hand if c != card]
        dw, _ = arrange(rest)
        options.append((dw, partners(card, rest), -value(card), card))
    options.sort()
    return options[0][3], options[0][0]


def _worth_taking(hand: list[Card], card: Card) -> bool:
    """Whether ``card`` ends up in a meld when taken (after the best discard)."""
    with_card = [*hand, card]
    discard, _ = _best_discard(with_card, card)
    _, unmatched = arrange([c for c in with_card if c != discard])
    return card not in unmatched


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action in ``legal_actions``."""
    obs = observation.gin_rummy
    actions = [a.gin_rummy for a in legal_actions]
    hand = [parse(t) for t in obs.hand]
    if obs.phase in (_Phase.PHASE_OFFER, _Phase.PHASE_DRAW):
        take = next((i for i, a in enumerate(actions) if a.kind == _Kind.KIND_TAKE_DISCARD), None)
        if take is not None and _worth_taking(hand, parse(actions[take].card)):
            return take
        return next(i for i, a in enumerate(actions) if a.kind != _Kind.KIND_TAKE_DISCARD)
    for i, a in enumerate(actions):
        if a.kind == _Kind.KIND_BIG_GIN:
            return i
    forbidden = parse(obs.taken_card) if obs.taken_card else None
    card, dw = _best_discard(hand, forbidden)
    text = f"{_RANKS[card[0] - 1]}{card[1]}"
    wait = 0 < dw <= _WAIT_FOR_GIN_DEADWOOD and obs.stock_size >= _WAIT_FOR_GIN_STOCK
    plain = knock = None
    for i, a in enumerate(actions):
        if a.kind == _Kind.KIND_DISCARD and a.card == text:
            if a.knock:
                knock = i
            else:
                plain = i
    if knock is not None and not wait:
        return knock
    if plain is not None:
        return plain
    return 0  # unreachable with a legal list from the referee; answer something valid
