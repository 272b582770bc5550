"""Declarations in trick 1, the joker's forced declaration, rule 17, the right to 16."""

from __future__ import annotations

from referee.games.yoninkan import Play

from .helpers import STRONG_ADJACENT, STRONG_OPPOSITE, deal, first_plain, new_match, play, run, texts

# Seat 0 leads with the joker; seat 2 holds JC and no spade; seat 1 holds KS QS.
SPADE_TRICK = deal("X1 AS 6S 7S 5H 6H 7H 5D 6D 7D", "KS QS 8H 9H TH 8D 9D TD 5C 6C",
                   "JC AC KC QC JH QH KH AH JD QD", "8S 9S TS JS AD KD 7C 8C 9C TC")


def declarations(state) -> set[str]:
    return {a.declaration for a in state.legal_actions() if isinstance(a, Play) and a.declaration}


def test_battle_1_offers_only_16_and_only_to_the_holders_of_the_trump_jack_and_the_joker() -> None:
    state = new_match(SPADE_TRICK)
    assert declarations(state) == {"16"}  # seat 0, the joker holder
    assert "play X1 call H" not in texts(state.legal_actions())  # the joker in trick 1 declares
    play(state, "play 6S")
    assert declarations(state) == set()  # seat 1 is mukan
    play(state, "play KS")
    assert declarations(state) == {"16"}  # seat 2 holds JC
    play(state, "play JH")
    assert declarations(state) == set()  # seat 3 is mukan
    play(state, "play 8S")
    assert state.trick_number == 2
    assert state.current_player() == 1 and declarations(state) == set()  # trick 2: no declarations


def test_one_declaration_per_group() -> None:
    state = play(new_match(SPADE_TRICK), "play 6S declare 16", "play KS")
    assert declarations(state) == set()  # seat 2's group has declared
    assert state.observe(3).declarations == ((0, "16"),)


def test_declared_16_fails_the_moment_mukan_captures_an_honour() -> None:
    state = play(new_match(SPADE_TRICK, games=2), "play 6S declare 16", "play KS", "play JH", "play 8S")
    # Seat 1 wins with KS: mukan captures KS and JH; the game ends at once (-64 fixed).
    assert state.history[0].battles == (("mukan", "declared_16_failed"),)
    assert state.scores == [-64, 64, -64, 64]
    assert state.game_number == 2 and state.battle == 1


def test_declared_16_succeeds_with_all_16_honours() -> None:
    state = play(new_match(STRONG_OPPOSITE), "play AS declare 16")
    assert declarations(state) == set()
    run(state, lambda s: s.battle > 1)
    assert state.results == [("kan", "declared_16")]


def test_a_skunk_gives_the_trick_winner_the_right_to_16() -> None:
    state = run(new_match(STRONG_OPPOSITE), lambda s: s.phase == "right")
    assert state.current_player() == state.tricks[-1].winner == 2
    assert texts(state.legal_actions()) == ["declare 16", "pass"]
    assert state.observe(2).right == "16"
    passed = state.clone()
    play(passed, "pass")
    assert passed.results == [("kan", "skunk")] and passed.battle == 2
    play(state, "declare 16")
    assert state.observe(0).declarations[-1] == (2, "16")
    run(state, lambda s: s.battle > 1)
    assert state.results == [("kan", "16")]  # replaces the skunk: +16, not +18


def test_battles_2_and_3_offer_both_groups_their_declarations() -> None:
    state = run(new_match(STRONG_ADJACENT, STRONG_ADJACENT), lambda s: s.battle == 2 and s.phase == "play")
    assert state.current_player() == 0
    assert declarations(state) == {"skunk", "16"}
    play(state, "play X1 call C declare skunk")
    assert declarations(state) == {"reverse_skunk", "reverse_16"}  # seat 2 is mukan
    assert "play X1" not in texts(state.legal_actions())


def test_the_joker_in_trick_1_after_the_group_declared_is_played_without_one() -> None:
    state = new_match(deal("AS JC 6S", "X1 KS"))  # kan: seat 0 (JC) and seat 1 (joker)
    assert declarations(state) == {"16"}
    play(state, "play 6S declare 16")
    assert "play X1" in texts(state.legal_actions())
    assert declarations(state) == set()
