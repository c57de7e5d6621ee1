"""crapette.gamekit: the parts every game of the protocol shares, so that a game writes only its rules.

They are tried on Nim (take one or two; who takes the last one wins), written
here as the module's docstring writes it, and on the example games, which are
built with them.
"""

from __future__ import annotations

import attrs
import pytest

from crapette import IllegalMoveError, ParseError, shuffled_deck
from crapette.gamekit import (
    DECK,
    MoveText,
    card_text,
    checked_apply,
    legal_moves_of,
    moves_cache,
    parse_one_deck_card,
    returns_of,
    shuffled,
    sorted_cards,
)
from crapette.protocol import GameType, win_loss

# Nim --------------------------------------------------------------------------------------------


@attrs.frozen(repr=False)
class Take(MoveText):
    count: int

    def __str__(self) -> str:
        return str(self.count)


@attrs.frozen
class Outcome:
    winner: int
    scores: None = None


@attrs.frozen
class Pile:
    left: int
    current_player: int
    _legal: tuple[Take, ...] | None = moves_cache()

    @property
    def is_over(self) -> bool:
        return self.left == 0

    @property
    def outcome(self) -> Outcome | None:
        return Outcome(1 - self.current_player) if self.left == 0 else None


@attrs.frozen
class NoCache:
    left: int


GENERATED: list[Pile] = []


def generate(state: Pile) -> list[Take]:
    """Take one or two."""
    GENERATED.append(state)
    return [Take(n) for n in (1, 2) if n <= state.left]


def play(state: Pile, move: Take) -> Pile:
    return Pile(state.left - move.count, 1 - state.current_player)


legal_moves = legal_moves_of(Pile, generate)
apply_move = checked_apply(legal_moves, play)
returns = returns_of(GameType("nim", 2, win_loss))


# legal_moves_of, checked_apply, returns_of --------------------------------------------------------


def test_legal_moves_are_generated_once_per_state_kept_out_of_its_value_and_documented() -> None:
    GENERATED.clear()
    state = Pile(3, 0)
    assert legal_moves(state) == (Take(1), Take(2)) and legal_moves(state) is legal_moves(state)
    assert GENERATED == [state]
    assert state == Pile(3, 0) and hash(state) == hash(Pile(3, 0)) and repr(state) == "Pile(left=3, current_player=0)"
    assert legal_moves(Pile(0, 1)) == ()
    assert legal_moves.__doc__ == "Take one or two."


def test_legal_moves_refuse_what_is_not_a_state_and_a_state_without_the_cache_field() -> None:
    with pytest.raises(TypeError, match=r"^legal_moves\(\) expects a Pile, got str$"):
        legal_moves("a state")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="NoCache has no _legal field: declare `_legal: tuple = moves_cache\\(\\)`"):
        legal_moves_of(NoCache, lambda state: ())(NoCache(1))
    either = legal_moves_of((Pile, NoCache), generate)
    with pytest.raises(TypeError, match=r"expects a Pile or NoCache, got int"):
        either(3)


def test_apply_move_plays_a_legal_move_and_refuses_any_other_saying_why() -> None:
    state = Pile(3, 0)
    assert apply_move(state, Take(2)) == Pile(1, 1) and state == Pile(3, 0)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(Pile(1, 1), Take(2))
    assert str(info.value) == "illegal move 2: it is not one of the legal moves (1)"
    assert (info.value.move, info.value.reason) == (Take(2), "it is not one of the legal moves (1)")
    with pytest.raises(IllegalMoveError, match=r"^illegal move 1: the game is over \(Outcome"):
        apply_move(Pile(0, 1), Take(1))
    with pytest.raises(IllegalMoveError, match="not one of the legal moves"):
        apply_move(state, [1])  # type: ignore[arg-type]  # unhashable: no move


def test_apply_move_says_why_in_the_games_own_words() -> None:
    strict = checked_apply(legal_moves, play, lambda state, move: f"only {state.left} left")
    with pytest.raises(IllegalMoveError, match=r"^illegal move 2: only 1 left$") as info:
        strict(Pile(1, 0), Take(2))
    assert info.value.reason == "only 1 left"


def test_returns_are_the_payoff_of_a_finished_game_and_refuse_one_that_is_not() -> None:
    assert returns(Pile(0, 1)) == (1.0, -1.0)
    assert returns(Pile(0, 0)) == (-1.0, 1.0)
    with pytest.raises(ValueError):
        returns(Pile(2, 0))
    assert returns.__doc__ is not None and "win_loss" in returns.__doc__


def test_a_move_shows_the_call_that_reads_it_back() -> None:
    assert repr(Take(2)) == "parse_move('2')" and repr(legal_moves(Pile(1, 0))) == "(parse_move('1'),)"


# One deck of cards ---------------------------------------------------------------------------------


def test_the_deck_is_one_deck_of_52_cards_in_crapettes_order() -> None:
    assert len(DECK) == len(set(DECK)) == 52
    assert {card.deck for card in DECK} == {0}
    assert [card_text(c) for c in DECK[:2]] + [card_text(DECK[-1])] == ["AC", "2C", "KS"]
    assert [card_text(c) for c in (DECK[9], DECK[24])] == ["TC", "QD"]


@pytest.mark.parametrize(("text", "card"), [("QS", "QS0"), ("10d", "TD0"), (" q♠ ", "QS0"), ("ah", "AH0")])
def test_a_card_of_one_deck_reads_without_its_deck_digit(text: str, card: str) -> None:
    read = parse_one_deck_card(text)
    assert str(read) == card and card_text(read) == card[:-1]


@pytest.mark.parametrize("text", ["", "Z", "QS0", "1H", "ZS", "10DD"])
def test_text_that_is_no_card_of_one_deck_is_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match="^invalid card .*e.g. 'QS' or '10D'$"):
        parse_one_deck_card(text)


def test_a_bad_card_names_the_ranks_it_is_told_and_a_card_must_be_a_str() -> None:
    with pytest.raises(ParseError, match=r"expected a rank \(6-A\) and a suit"):
        parse_one_deck_card("5X", ranks="6-A")
    with pytest.raises(TypeError, match="^a card must be written as a str, got int$"):
        parse_one_deck_card(7)  # type: ignore[arg-type]


def test_a_shuffle_is_crapettes_deal_of_one_deck_and_a_function_of_its_seed() -> None:
    cards = shuffled(6)
    assert sorted_cards(cards) == DECK and cards == shuffled(6) == shuffled_deck(6, 0)
    assert cards != shuffled(7)
    for bad in (-1, 2**64, True, 1.0):
        with pytest.raises(ValueError, match="seed must be an int with 0 <= seed < 2\\*\\*64"):
            shuffled(bad)  # type: ignore[arg-type]


def test_sorted_cards_puts_any_collection_in_deck_order() -> None:
    hand = (DECK[40], DECK[3], DECK[13])
    in_order = (DECK[3], DECK[13], DECK[40])
    assert sorted_cards(hand) == sorted_cards(set(hand)) == sorted_cards(frozenset(hand)) == in_order
    assert sorted_cards(()) == ()


# The example games are built with it ---------------------------------------------------------------


@pytest.mark.parametrize("module", ["durak", "bank", "archeologitaire"])
def test_legal_moves_of_what_is_not_a_state_is_a_type_error(module: str) -> None:
    game = __import__(module)
    for bad in (None, "state", 3):
        with pytest.raises(TypeError, match=r"legal_moves\(\) expects a \w+State, got"):
            game.legal_moves(bad)
        with pytest.raises(TypeError, match=r"legal_moves\(\) expects a \w+State, got"):
            game.apply_move(bad, game.legal_moves(game.new_game(1))[0])
