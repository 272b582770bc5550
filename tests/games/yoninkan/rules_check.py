"""An independent statement of who may know what, and of the legal actions, used by the
property and wire tests to check the engine from outside."""

from __future__ import annotations

from referee.games.yoninkan import CARDS, YoninkanState, card_id

DECLARABLE = {("kan", 1): {"16"}, ("mukan", 1): set(), ("kan", 2): {"skunk", "16"}, ("kan", 3): {"skunk", "16"},
              ("mukan", 2): {"reverse_skunk", "reverse_16"}, ("mukan", 3): {"reverse_skunk", "reverse_16"}}


def hand_of(state: YoninkanState, seat: int) -> set[str]:
    return {str(CARDS[c]) for c in range(41) if state.hands[seat] >> c & 1}


def may_know_group(state: YoninkanState, seat: int) -> bool:
    """Battle 1 before the groups are public: only the holders of the trump J and the joker."""
    return state.revealed or seat in (state.jack_holder, state.joker_holder)


def public_cards_of(state: YoninkanState, seat: int, viewer: int) -> set[str]:
    """Cards of ``seat``'s hand that ``viewer`` may name: the battle-1 opener (it leads by
    rule), and the cards ``seat`` showed ``viewer`` in this battle's 決め役."""
    public = set()
    if state.battle == 1:
        opener = "AC" if state.game_number == state.games else "AS"
        if opener in hand_of(state, seat) and state.leader == seat:
            public.add(opener)
    if state.shown is not None and state.shown[0] == seat and viewer == state.shown[1]:
        public |= {str(CARDS[state.shown[2]]), str(CARDS[state.shown[3]])}
    return public


def hidden_from(state: YoninkanState, viewer: int) -> set[str]:
    """Cards in the other hands that ``viewer`` may not know now."""
    hidden: set[str] = set()
    for seat in range(4):
        if seat != viewer:
            hidden |= hand_of(state, seat) - public_cards_of(state, seat, viewer)
    return hidden


def check_legal_actions(state: YoninkanState, actions: list[str]) -> None:
    """Assert that ``actions`` (texts) are exactly what the rules allow now."""
    seat = state.current_player()
    hand = hand_of(state, seat)
    assert len(set(actions)) == len(actions)
    if state.phase == "show":
        assert len(actions) == 45
        for text in actions:
            _, first, second = text.split()
            assert first in hand and second in hand and first != second
        return
    if state.phase == "trump":
        assert actions == ["trump S", "trump H", "trump D", "trump C"]
        return
    if state.phase == "right":
        assert state.tricks[-1].winner == seat
        assert actions in (["declare 16", "pass"], ["declare reverse_16", "pass"])
        return
    assert state.phase == "play"
    leading = not state.trick
    led = state.observe(seat).led_suit
    follow = {card for card in hand if card[1] == led and card != "X1"} if not leading else set()
    group = "kan" if seat in state.kan else "mukan"
    offer = set()
    if state.trick_number == 1 and may_know_group(state, seat) and not state.declared[group]:
        offer = DECLARABLE[(group, state.battle)]
    expected = set()
    for card in (follow | {"X1"}) & hand if follow else hand:
        calls = [f" call {s}" for s in "SHDC"] if card == "X1" and leading else [""]
        for call in calls:
            plain = [f"play {card}{call}"] if not (card == "X1" and offer) else []
            expected |= set(plain) | {f"play {card}{call} declare {d}" for d in offer}
    assert set(actions) == expected, (sorted(actions), sorted(expected))
    for text in actions:
        card_id(text.split()[1])  # every card is a Yoninkan card
