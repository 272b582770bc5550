"""A compact Jass card-play simulator for the search: cards as numbers, one hand's tricks.

A card is ``suit * 9 + rank`` (suits S H D C, ranks 6 7 8 9 T J Q K A = 0..8), as in the
protocol's text form ``TD``.  Only what decides the card play is modelled: legal cards
(docs/rules/jass.md, "Playing a card"), trick winners, card points and the last trick's 5;
weis and Stöck are fixed before the play or worth too little to steer it.  The referee's
engine is not imported: the sandbox shows a bot only its own folder and the SDK.
"""

from __future__ import annotations

from collections.abc import Sequence

SUITS = "SHDC"
RANKS = "6789TJQKA"
MODES = ("spades", "hearts", "diamonds", "clubs", "obenabe", "undenufe")
_TRUMP_ORDER = "678TQKA9J"
_POINTS = {"A": 11, "K": 4, "Q": 3, "J": 2, "T": 10}


def card(text: str) -> int:
    return SUITS.index(text[1]) * 9 + RANKS.index(text[0])


def text(number: int) -> str:
    return RANKS[number % 9] + SUITS[number // 9]


class Mode:
    """Per-mode tables: trump suit (-1 none), strength and points of each card."""

    def __init__(self, name: str) -> None:
        self.trump = MODES.index(name) if name in MODES[:4] else -1
        self.strength = [0] * 36
        self.points = [0] * 36
        for number in range(36):
            suit, rank = divmod(number, 9)
            letter = RANKS[rank]
            if suit == self.trump:
                self.strength[number] = 100 + _TRUMP_ORDER.index(letter)
                self.points[number] = {"J": 20, "9": 14}.get(letter, _POINTS.get(letter, 0))
            else:
                self.strength[number] = 8 - rank if name == "undenufe" else rank
                self.points[number] = 8 if letter == "8" and self.trump < 0 else _POINTS.get(letter, 0)
        self.jack = self.trump * 9 + 5 if self.trump >= 0 else -1

    def legal(self, hand: Sequence[int], trick: Sequence[int]) -> list[int]:
        if not trick:
            return list(hand)
        lead = trick[0] // 9
        trump = self.trump
        if trump < 0:
            return [c for c in hand if c // 9 == lead] or list(hand)
        trumps = [c for c in hand if c // 9 == trump]
        if lead == trump:
            return trumps if any(c != self.jack for c in trumps) else list(hand)
        best = max((self.strength[c] for c in trick if c // 9 == trump), default=0)
        legal = [c for c in trumps if self.strength[c] > best]
        led = [c for c in hand if c // 9 == lead]
        legal += led if led else [c for c in hand if c // 9 != trump]
        return legal or list(hand)

    def winner(self, trick: Sequence[int]) -> int:
        """Index into ``trick`` of the winning card."""
        lead = trick[0] // 9
        best, key = 0, -1
        for i, c in enumerate(trick):
            k = self.strength[c] if c // 9 == lead or c // 9 == self.trump else -1
            if k > key:
                best, key = i, k
        return best


def is_boss(mode: Mode, number: int, out: set[int]) -> bool:
    """No card of its suit still ``out`` (in other hands) is stronger."""
    s = mode.strength[number]
    suit = number // 9
    return not any(c // 9 == suit and mode.strength[c] > s for c in out)


def playout_card(mode: Mode, seat: int, hand: list[int], trick: list[int], leader: int, out: set[int]) -> int:
    """The heuristic's card-play rules (heuristic_jass.py) on numbers: ``out`` are the cards
    not yet played and not in ``hand``."""
    legal = mode.legal(hand, trick)
    if len(legal) == 1:
        return legal[0]
    trump, points, strength = mode.trump, mode.points, mode.strength
    cheap = min(legal, key=lambda c: (points[c], c // 9 == trump, strength[c]))
    if not trick:
        trumps = [c for c in legal if c // 9 == trump]
        if len(trumps) >= 3 and any(c // 9 == trump for c in out):
            best = max(trumps, key=strength.__getitem__)
            if is_boss(mode, best, out):
                return best
        bosses = [c for c in legal if c // 9 != trump and is_boss(mode, c, out)]
        if bosses:
            return max(bosses, key=points.__getitem__)
        plain = [c for c in legal if c // 9 != trump] or legal
        counts = [0, 0, 0, 0]
        for c in plain:
            counts[c // 9] += 1
        longest = max(range(4), key=counts.__getitem__)
        return min((c for c in plain if c // 9 == longest), key=strength.__getitem__)
    best = mode.winner(trick)
    last = len(trick) == 3
    if (leader + best) % 4 == (seat + 2) % 4:
        top = trick[best]
        if last or (is_boss(mode, top, out) and (trump < 0 or top // 9 == trump)):
            feed = [c for c in legal if c // 9 != trump and not is_boss(mode, c, out)] or \
                   [c for c in legal if c // 9 != trump] or legal
            return max(feed, key=lambda c: (points[c], -strength[c]))
        return cheap
    n = len(trick)
    winners = [c for c in legal if mode.winner([*trick, c]) == n]
    if winners and (last or sum(points[c] for c in trick) >= 10 or any(is_boss(mode, c, out) for c in winners)):
        return min(winners, key=lambda c: (c // 9 == trump, strength[c], points[c]))
    return cheap


def play_out(mode: Mode, hands: list[list[int]], trick: list[int], leader: int,
             tricks_done: int) -> tuple[list[int], list[int]]:
    """Play the hand to its end with :func:`playout_card` for every seat (``hands`` are
    consumed): the card points (the last trick's 5 included) and the tricks each team takes
    from now on."""
    taken = [0, 0]
    won = [0, 0]
    trick = list(trick)
    while tricks_done < 9:
        seat = (leader + len(trick)) % 4
        out = {c for s in range(4) if s != seat for c in hands[s]}
        c = playout_card(mode, seat, hands[seat], trick, leader, out)
        hands[seat].remove(c)
        trick.append(c)
        if len(trick) == 4:
            w = (leader + mode.winner(trick)) % 4
            taken[w % 2] += sum(mode.points[x] for x in trick) + (5 if tricks_done == 8 else 0)
            won[w % 2] += 1
            tricks_done += 1
            trick, leader = [], w
    return taken, won
