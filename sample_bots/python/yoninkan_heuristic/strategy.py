"""A simple Yoninkan strategy that sees only the protocol messages.

- Group: the observation's ``my_group`` when known; in battle 1 a seat holding neither the
  trump J nor the joker plays as mukan.  Partners are taken from the observation, or guessed
  from who played the trump J and the joker.
- Declarations only with a strong hand: the joker and at least five trumps with the trump A
  and K (declare 16).  The joker in trick 1 is avoided unless it is the only card.  After a
  skunk it declares 16 only when at most two honours are left to take.
- Leading: the joker calling trump with three trumps or more, else a side ace, else a high
  trump, else the lowest card of the longest side suit.
- Following: when the partner wins the trick, the last to play gives it an honour; else win
  a trick that holds an honour (or could take one of ours) with the cheapest winning card,
  the joker only for honours or in trick 9 (it is the weakest card in trick 10); otherwise
  throw the cheapest card, honours and trumps last.
- 決め役: show the joker and aces or the longest suit's best cards; name the suit with the
  most length and honours, counting the partner's shown cards.

Nothing of the referee's engine is imported, as a bot in another language would see the
same messages.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.v1 import bot_pb2, yoninkan_pb2

_RANKS = "56789TJQKA"
_Phase = yoninkan_pb2.YoninkanObservation
_Kind = yoninkan_pb2.YoninkanAction


def strength(card: str) -> int:
    return 20 if card == "X1" else _RANKS.index(card[0])


def is_honour(card: str) -> bool:
    return card != "X1" and card[0] in "JQKA"


def trick_winner(plays: Sequence[tuple[int, str]], trump: str, led: str, last: bool) -> int:
    """Index in ``plays`` of the card winning so far."""
    best, best_key = 0, -2
    for i, (_, card) in enumerate(plays):
        if card == "X1":
            key = 100 if not last else (19 if i == 0 else -1)
        elif card[1] == trump:
            key = 50 + strength(card)
        elif card[1] == led:
            key = 20 + strength(card)
        else:
            key = -1
        if key > best_key:
            best, best_key = i, key
    return best


def guess_partner(obs: yoninkan_pb2.YoninkanObservation) -> int:
    if obs.partner >= 0:
        return obs.partner
    played = [(p.seat, p.card) for t in obs.tricks for p in t.plays] + [(p.seat, p.card) for p in obs.trick]
    kan = {seat for seat, card in played if card in ("X1", "J" + obs.trump)}
    if obs.my_group == "kan":
        others = kan - {obs.seat}
        return others.pop() if len(others) == 1 else -1
    if len(kan) == 2 and obs.seat not in kan:
        (rest,) = set(range(4)) - kan - {obs.seat}
        return rest
    return -1


def _choose_play(obs: yoninkan_pb2.YoninkanObservation, legal: Sequence[bot_pb2.Action]) -> int:
    hand = list(obs.hand)
    trump = obs.trump
    trumps = [c for c in hand if c[1:] == trump]
    options = [(i, a.yoninkan) for i, a in enumerate(legal)]
    strong = "X1" in hand and len(trumps) >= 5 and "A" + trump in hand and "K" + trump in hand
    declaring = [(i, a) for i, a in options if a.declaration == "16"]
    if strong and declaring:
        return min(declaring, key=lambda o: (o[1].card == "X1", strength(o[1].card)))[0]
    plain = [(i, a) for i, a in options if not a.declaration] or options
    if obs.trick_number == 1 and any(a.card != "X1" for _, a in plain):
        plain = [(i, a) for i, a in plain if a.card != "X1"]
    cards = {a.card: i for i, a in plain if not a.call} | {a.card: i for i, a in plain if a.call == trump}
    joker_call = {a.call: i for i, a in plain if a.card == "X1" and a.call}
    if "X1" in cards and obs.trick_number == 9:  # the joker is the weakest card in trick 10
        return cards["X1"]
    if joker_call and obs.trick_number == 9:
        return joker_call.get(trump, next(iter(joker_call.values())))
    if not obs.trick:
        return _lead(obs, cards, joker_call, trumps)
    return _follow(obs, cards)


def _lead(obs, cards: dict[str, int], joker_call: dict[str, int], trumps: list[str]) -> int:
    trump = obs.trump
    if joker_call and len(trumps) >= 3 and obs.trick_number <= 9:
        return joker_call[trump]
    side_aces = [c for c in cards if c[0] == "A" and c[1] != trump]
    if side_aces:
        return cards[side_aces[0]]
    high_trumps = [c for c in cards if c[1:] == trump and c[0] in "AK"]
    if high_trumps:
        return cards[max(high_trumps, key=strength)]
    ordinary = [c for c in cards if c != "X1"] or list(cards)
    if not ordinary:
        return next(iter(joker_call.values()))
    length = {s: sum(1 for c in ordinary if c[1:] == s) for s in "SHDC"}
    return cards[min(ordinary, key=lambda c: (c[1:] == trump, is_honour(c), -length.get(c[1:], 0), strength(c)))]


def _follow(obs, cards: dict[str, int]) -> int:
    trump, led, last = obs.trump, obs.led_suit, obs.trick_number == 10
    plays = [(p.seat, p.card) for p in obs.trick]
    partner = guess_partner(obs)
    winning_seat = plays[trick_winner(plays, trump, led, last)][0]
    honours = sum(1 for _, c in plays if is_honour(c))
    to_come = 3 - len(plays)
    if winning_seat == partner and partner >= 0:
        if to_come == 0 or plays[trick_winner(plays, trump, led, last)][1] == "X1":
            gifts = [c for c in cards if is_honour(c) and c[1:] != trump]
            if gifts:
                return cards[max(gifts, key=strength)]
        return cards[_cheapest(cards, trump)]
    winners = [c for c in cards if trick_winner(plays + [(obs.seat, c)], trump, led, last) == len(plays)]
    worth = honours > 0 or to_come == 0 or any(is_honour(c) for c in cards if c[1:] == led)
    if winners and worth:
        ordinary = [c for c in winners if c != "X1"]
        if ordinary:
            return cards[min(ordinary, key=lambda c: (c[1:] == trump, strength(c)))]
        if honours and not last:
            return cards["X1"]
    return cards[_cheapest(cards, trump)]


def _cheapest(cards: dict[str, int], trump: str) -> str:
    return min(cards, key=lambda c: (c == "X1", is_honour(c), c[1:] == trump, strength(c)))


def _choose_show(obs, legal: Sequence[bot_pb2.Action]) -> int:
    hand = list(obs.hand)
    length = {s: sum(1 for c in hand if c[1:] == s) for s in "SHDC"}

    def value(card: str) -> int:
        return 40 if card == "X1" else 5 * length[card[1]] + strength(card) + (10 if card[0] == "A" else 0)

    return max(range(len(legal)), key=lambda i: sum(value(c) for c in legal[i].yoninkan.cards))


def _choose_trump(obs, legal: Sequence[bot_pb2.Action]) -> int:
    cards = list(obs.hand) + list(obs.shown_cards)
    score = {s: sum(3 + is_honour(c) * 2 for c in cards if c[1:] == s) for s in "SHDC"}
    return max(range(len(legal)), key=lambda i: score[legal[i].yoninkan.suit])


def decide(observation: bot_pb2.Observation, legal_actions: Sequence[bot_pb2.Action]) -> int:
    """The index of the chosen action."""
    obs = observation.yoninkan
    if obs.phase == _Phase.PHASE_RIGHT:
        captured = sum(len(obs.captured[s].cards) for s in range(len(obs.captured)))
        declare = 16 - captured <= 2
        return next(i for i, a in enumerate(legal_actions) if (a.yoninkan.kind == _Kind.KIND_DECLARE) == declare)
    if obs.phase == _Phase.PHASE_SHOW:
        return _choose_show(obs, legal_actions)
    if obs.phase == _Phase.PHASE_TRUMP:
        return _choose_trump(obs, legal_actions)
    return _choose_play(obs, legal_actions)
