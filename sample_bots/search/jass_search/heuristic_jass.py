"""A simple Jass (Schieber) strategy that sees only the protocol messages.

- Mode: each of the six modes gets a hand-strength score (trumps by their trump value and
  length, side aces; for Obenabe/Undenufe the cards that are or will become the top of
  their suit); the best mode is chosen if it is strong enough, otherwise the forehand pushes
  (after a push the best mode is chosen whatever its score).
- Lead: pull trumps with the best trump while partners' trumps are not needed, else cash a
  card that is the highest left in its suit, else lead low from the longest plain suit.
- Follow: when the partner is winning, feed it points (the richest card that is not a
  trump), at least when the partner's card cannot be beaten by anyone still to play; when an
  opponent is winning, take the trick with the cheapest card that wins it if the trick is
  worth it or nobody plays after; otherwise throw the cheapest card.

Cards are parsed from the text form ("TD" = ten of diamonds); nothing of the referee's engine
is imported, as a bot in another language would see the same messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.v1 import bot_pb2, jass_pb2

_PLAIN = "6789TJQKA"
"""Plain order, low to high (Obenabe and side suits)."""
_TRUMP = "678TQKA9J"
"""Trump order, low to high."""
_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}
_TRUMP_SUITS = {"hearts": "H", "diamonds": "D", "spades": "S", "clubs": "C"}
_PUSH_BELOW = 55
_Kind = jass_pb2.JassAction
_Phase = jass_pb2.JassObservation


def trump_of(mode: str) -> str:
    """The trump suit letter of a mode, or ``""``."""
    return _TRUMP_SUITS.get(mode, "")


def points(card: str, mode: str) -> int:
    trump = trump_of(mode)
    if card[1] == trump and card[0] in "J9":
        return 20 if card[0] == "J" else 14
    if card[0] == "8" and not trump:
        return 8
    return _POINTS.get(card[0], 0)


def strength(card: str, mode: str) -> int:
    """Higher beats lower within a suit; trumps above everything."""
    if card[1] == trump_of(mode):
        return 100 + _TRUMP.index(card[0])
    order = _PLAIN.index(card[0])
    return 8 - order if mode == "undenufe" else order


def winner(trick: Sequence[str], mode: str) -> int:
    """Index of the card winning ``trick`` so far."""
    lead = trick[0][1]
    best, key = 0, -1
    for i, card in enumerate(trick):
        k = strength(card, mode) if card[1] in (lead, trump_of(mode)) else -1
        if k > key:
            best, key = i, k
    return best


# --- choosing the mode ---------------------------------------------------------------------

def _suit_tops(cards: list[str], order: str) -> int:
    """How many of ``cards`` (one suit) are sure winners from the top in ``order`` (high last)."""
    ranks = {card[0] for card in cards}
    count = 0
    for rank in reversed(order):
        if rank not in ranks:
            break
        count += 1
    return count


def mode_score(hand: Sequence[str], mode: str) -> float:
    """A rough strength of ``hand`` if ``mode`` were played."""
    trump = trump_of(mode)
    score = 0.0
    if trump:
        trumps = [c for c in hand if c[1] == trump]
        values = {"J": 22, "9": 16, "A": 10, "K": 7, "Q": 6, "T": 5}
        score += sum(values.get(c[0], 4) for c in trumps) + 4 * max(0, len(trumps) - 2)
        score += sum(9 for c in hand if c[1] != trump and c[0] == "A")
        score += sum(3 for c in hand if c[1] != trump and c[0] == "K" and "A" + c[1] in hand)
        return score
    order = _PLAIN if mode == "obenabe" else _PLAIN[::-1]
    for suit in "SHDC":
        cards = [c for c in hand if c[1] == suit]
        tops = _suit_tops(cards, order)
        score += 13 * tops
        if tops:
            score += 3 * (len(cards) - tops)  # long suits run once the top is cashed
    return score


def choose_mode(hand: Sequence[str], *, may_push: bool) -> str | None:
    """The mode to choose, or ``None`` to push."""
    scored = sorted(((mode_score(hand, mode), mode) for mode in
                     ("hearts", "diamonds", "spades", "clubs", "obenabe", "undenufe")), reverse=True)
    best_score, best = scored[0]
    if may_push and best_score < _PUSH_BELOW:
        return None
    return best


# --- playing -------------------------------------------------------------------------------

def _seen(observation: jass_pb2.JassObservation) -> set[str]:
    seen = set(observation.trick)
    for trick in observation.tricks:
        seen.update(trick.cards)
    return seen


def _is_boss(card: str, mode: str, gone: set[str]) -> bool:
    """No unplayed card of its suit is stronger (trumps aside)."""
    for rank in _PLAIN:
        other = rank + card[1]
        if other not in gone and other != card and strength(other, mode) > strength(card, mode):
            return False
    return True


def choose_card(observation: jass_pb2.JassObservation, legal: list[str]) -> str:
    mode = observation.mode
    trump = trump_of(mode)
    hand = list(observation.hand)
    trick = list(observation.trick)
    gone = _seen(observation) | set(hand)
    cheap = min(legal, key=lambda c: (points(c, mode), c[1] == trump, strength(c, mode)))
    if not trick:
        trumps = [c for c in legal if c[1] == trump]
        out = [rank + trump for rank in _PLAIN if trump and rank + trump not in gone]
        if trumps and out and len(trumps) >= 3:
            best = max(trumps, key=lambda c: strength(c, mode))
            if _is_boss(best, mode, gone):
                return best
        bosses = [c for c in legal if c[1] != trump and _is_boss(c, mode, gone)]
        if bosses:
            return max(bosses, key=lambda c: points(c, mode))
        plain = [c for c in legal if c[1] != trump] or legal
        longest = max("SHDC", key=lambda s: sum(1 for c in plain if c[1] == s))
        return min((c for c in plain if c[1] == longest), key=lambda c: strength(c, mode))
    seat = observation.seat
    leader = observation.trick_leader
    best = winner(trick, mode)
    partner_winning = (leader + best) % 4 == (seat + 2) % 4
    last = len(trick) == 3
    if partner_winning:
        top = trick[best]
        # Safe: nobody plays after, or the partner's card is the best left (a plain card
        # only counts when no trump can cut it).
        if last or _is_boss(top, mode, gone) and (not trump or top[1] == trump):
            feed = [c for c in legal if c[1] != trump and not _is_boss(c, mode, gone)] or \
                   [c for c in legal if c[1] != trump] or legal
            return max(feed, key=lambda c: (points(c, mode), -strength(c, mode)))
        return cheap
    winners = [c for c in legal if winner([*trick, c], mode) == len(trick)]
    at_stake = sum(points(c, mode) for c in trick)
    if winners and (last or at_stake >= 10 or any(_is_boss(c, mode, gone) for c in winners)):
        return min(winners, key=lambda c: (c[1] == trump, strength(c, mode), points(c, mode)))
    return cheap


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action among ``legal_actions``."""
    jass = observation.jass
    if jass.phase == _Phase.PHASE_DECLARE:
        kinds = [a.jass.kind for a in legal_actions]
        mode = choose_mode(list(jass.hand), may_push=_Kind.KIND_PUSH in kinds)
        for i, action in enumerate(legal_actions):
            if (mode is None and action.jass.kind == _Kind.KIND_PUSH) or (mode and action.jass.mode == mode):
                return i
        return 0
    legal = [a.jass.card for a in legal_actions]
    return legal.index(choose_card(jass, legal))
