"""crapette.wording and the frontend kit: moves, piles and reasons in words, from a state or its view alike."""

from __future__ import annotations

import pickle
import random

import pytest

from crapette import (
    ALL_PILES,
    IllegalMoveError,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_move,
    parse_pile,
    view,
)
from crapette.wording import (
    describe_illegal,
    describe_move,
    describe_pile,
    describe_played,
    possessive,
    symbols,
)

from conftest import random_states

YOU = ("you", "the bot")


def test_a_move_is_worded_with_card_symbols_and_onto() -> None:
    state = new_game("classic", seed=3)
    assert describe_move(state, parse_move("T2-T3")) == "Q♣ onto K♥"
    assert describe_move(state, parse_move("T3-F0")) == "K♥ onto an empty foundation"
    assert describe_move(state, parse_move("draw"), names=YOU) == "turn up the top card of your hand"
    assert describe_move(state, parse_move("draw")) == "turn up the top card of player 0's hand"
    assert describe_move(state, parse_move("pass")) == "player 0 has no other move"
    emptied = apply_move(state, parse_move("T2-T3"))
    assert describe_move(emptied, parse_move("R0-T2"), names=YOU) == "6♣ onto an empty pile"
    assert describe_move(emptied, parse_move("T3-T2x2")) == "K♥ Q♣ onto an empty pile"


def test_loading_names_whose_pile_it_is() -> None:
    state = new_game("classic", seed=37)
    assert describe_move(state, parse_move("T2-R1"), names=YOU) == "J♣ onto T♣ on the bot's reserve"
    assert describe_move(state, parse_move("T2-R1")) == "J♣ onto T♣ on player 1's reserve"
    assert describe_move(state, parse_move("T2-W1")) == "J♣ onto player 1's empty waste"


def test_piles_are_named_as_a_person_reads_them() -> None:
    named = [describe_pile(pile, names=YOU) for pile in ALL_PILES]
    assert named[:2] == ["foundation F0", "foundation F1"]
    assert named[8] == "tableau pile T0"
    assert set(named[16:]) == {
        "your reserve", "your hand", "your waste", "the bot's reserve", "the bot's hand", "the bot's waste"
    }
    assert describe_pile(parse_pile("W1")) == "player 1's waste"
    assert possessive("you") == "your" and possessive("Ann") == "Ann's"


def test_what_a_move_did_names_the_card_drawn_and_why_the_turn_ended() -> None:
    state = new_game("classic", seed=37)
    drawn = apply_move(state, parse_move("draw"))
    assert describe_played(state, parse_move("draw"), drawn) == "drew 9♥"
    ended = apply_move(drawn, parse_move("end"))
    assert describe_played(drawn, parse_move("end"), ended) == "left 9♥ on the waste; the turn ends"
    assert describe_played(view(drawn), parse_move("end"), view(ended)) == "left 9♥ on the waste; the turn ends"
    first = new_game("classic", seed=3)
    unplayable = apply_move(first, parse_move("draw"))
    assert describe_played(first, parse_move("draw"), unplayable) == "drew K♦: it fits nowhere, so the turn ends"


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_the_wording_of_a_view_is_the_wording_of_its_state(rules: str) -> None:
    states = random_states(rules, 11, 600)
    rng = random.Random(11)
    for before, after in zip(states, states[1:]):
        seen, seen_after = view(before), view(after)
        for move in rng.sample(legal_moves(before), min(4, len(legal_moves(before)))):
            assert describe_move(seen, move, names=YOU) == describe_move(before, move, names=YOU)
        played = next(m for m in legal_moves(before) if apply_move(before, m) == after)
        assert describe_played(seen, played, seen_after) == describe_played(before, played, after)


def test_illegal_moves_carry_the_move_and_the_reason_and_read_in_symbols() -> None:
    state = new_game("classic", seed=3)
    move = parse_move("T2-T0")
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, move)
    error = info.value
    assert error.move is move and error.reason == explain_illegal(state, move)
    assert str(error) == "illegal move T2-T0: QC0 does not go on 6S0: T0 builds down in alternating colours for player 0"
    assert describe_illegal(error) == (
        "illegal move T2-T0: Q♣ does not go on 6♠: T0 builds down in alternating colours for player 0"
    )
    assert symbols(error.reason) == "Q♣ does not go on 6♠: T0 builds down in alternating colours for player 0"
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.move, again.reason) == (str(error), move, error.reason)
    plain = IllegalMoveError("not legal here")
    assert plain.move is None and plain.reason is None


def test_legal_moves_of_a_view_points_to_the_views_own_list() -> None:
    state = new_game("casual", seed=1)
    with pytest.raises(TypeError, match=r"got PublicView; a PublicView holds its legal moves in \.legal_moves"):
        legal_moves(view(state))  # type: ignore[arg-type]
    assert view(state).legal_moves == legal_moves(state)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: describe_move("classic", parse_move("draw")), "describe_move() expects a GameState or a PublicView"),
        (lambda: describe_move(new_game("classic", 1), "draw"), "describe_move() expects a Move"),
        (lambda: describe_move(new_game("classic", 1), parse_move("draw"), names=["a", "b"]), "names must be a tuple"),
        (lambda: describe_pile("T3"), "describe_pile() expects a Pile"),
        (lambda: describe_illegal(ValueError("x")), "describe_illegal() expects an IllegalMoveError"),
        (lambda: symbols(3), "symbols() expects a str"),
    ],
)
def test_bad_arguments_are_type_errors(call: object, message: str) -> None:
    with pytest.raises(TypeError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call()  # type: ignore[operator]
