"""Inputs an adversary would try: each test is named after what it guards against.

Every public constructor and parser refuses bad input with a documented error
that says what was wrong, in a short message, and nothing it accepts can be
written in a form its reader refuses.
"""

from __future__ import annotations

import attrs
import pytest

from conftest import make_state
from crapette import (
    MAX_NUMBER,
    Draw,
    EndTurn,
    Game,
    GameRecord,
    GameState,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    Outcome,
    ParseError,
    Play,
    RecordError,
    RuleSet,
    Scoring,
    apply_move,
    explain_illegal,
    new_game,
    parse_card,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
)

CASUAL = RuleSet.casual()
CLASSIC = RuleSet.classic()
HUGE = 10**5000


class _EqualsEverything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _RoguePlay(Play):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Play.__hash__


class _EvilInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


def test_numbers_at_the_bound_are_written_and_read_back_exactly() -> None:
    rules = attrs.evolve(CLASSIC, move_limit=MAX_NUMBER, scoring=Scoring(MAX_NUMBER, MAX_NUMBER, 0, 0, MAX_NUMBER))
    assert parse_rules(str(rules)) == rules
    state = attrs.evolve(new_game(rules, seed=2**64 - 1), move_count=MAX_NUMBER - 1)
    assert parse_position(str(state)) == state
    record = GameRecord(rules, seed=2**64 - 1)
    assert parse_record(str(record)) == record == GameRecord.from_json(record.to_json())
    counted = attrs.evolve(new_game(parse_rules("casual(endings=no-progress:5)"), seed=1), counters=(MAX_NUMBER,))
    assert parse_position(str(counted)) == counted


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: attrs.evolve(CASUAL, move_limit=MAX_NUMBER + 1), "move_limit must be at most 2**63 - 1"),
        (lambda: attrs.evolve(CASUAL, move_limit=HUGE), "move_limit must be at most 2**63 - 1, got a number of 16610 bits"),
        (lambda: Scoring(win_bonus=HUGE), "win_bonus must be at most 2**63 - 1"),
        (lambda: Scoring(match_target=MAX_NUMBER + 1), "match_target must be at most 2**63 - 1"),
        (lambda: parse_rules("casual(move_limit=99999999999999999999)"), "move_limit must be at most 2**63 - 1"),
    ],
)
def test_numbers_past_what_the_formats_carry_are_refused_when_the_rules_are_made(build: object, message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        build()  # type: ignore[operator]
    assert message in str(info.value)
    assert len(str(info.value)) < 300


def test_a_state_or_outcome_with_a_number_too_large_is_refused_clearly() -> None:
    state = new_game(CLASSIC, seed=1)
    with pytest.raises(InvalidStateError, match=r"move_count must be at most 2\*\*63 - 1, got a number of 16610 bits"):
        attrs.evolve(state, move_count=HUGE)
    with pytest.raises(ValueError, match=r"an int of 16610 bits"):
        Outcome(0, "emptied", (HUGE, 0))
    with pytest.raises(ValueError, match=r"seed must be an int with 0 <= seed < 2\*\*64, got <an int of 16610 bits>"):
        new_game(CASUAL, HUGE)
    with pytest.raises(RecordError, match="an int of 16610 bits"):
        GameRecord(CASUAL, seed=HUGE)


def test_apply_move_refuses_an_object_that_only_claims_to_equal_a_move() -> None:
    state = new_game("casual", seed=1)
    with pytest.raises(TypeError, match="expects a Play, MoveStack, Draw, EndTurn or Pass, got _EqualsEverything"):
        apply_move(state, _EqualsEverything())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got _EqualsEverything"):
        explain_illegal(state, _EqualsEverything())  # type: ignore[arg-type]
    game = Game("casual", seed=1)
    with pytest.raises(TypeError):
        game.push(_EqualsEverything())  # type: ignore[arg-type]
    assert game.history == () and game.to_record() == GameRecord("casual", seed=1)


def test_apply_move_refuses_a_move_subclass_whatever_its_equality_says() -> None:
    state = new_game("casual", seed=1)
    rogue = object.__new__(_RoguePlay)
    with pytest.raises(TypeError, match="subclasses are refused too"):
        apply_move(state, rogue)
    # Casual rules have no End turn: the real one is refused as illegal.
    with pytest.raises(IllegalMoveError, match="these rules have no End turn"):
        apply_move(state, EndTurn())
    assert apply_move(state, Draw()).move_count == 1


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GameState(CLASSIC, (0,) * 22), "piles must be 22 sequences of cards"),
        (lambda: GameState(CLASSIC, "piles"), "piles must be 22 sequences of cards"),
        (lambda: GameState.from_piles(CLASSIC, tableau=[1, 2]), "tableau[0] must be cards or a string of card notations, got int"),
        (lambda: GameState.from_piles(CLASSIC, tableau=5), "tableau must be a sequence of piles or a mapping"),
        (lambda: GameState.from_piles(CLASSIC, tableau=[[1]]), "tableau[0] holds int 1, which is not a card"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, _EvilInt(5)), "current_player must be 0 or 1, got 5"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, 0, _EvilInt(5)), "move_count must be an int >= 0"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, drawn=1), "drawn must be True or False, got 1"),
        (lambda: GameState(5, new_game(CLASSIC, seed=1).piles), "rules must be a RuleSet or a rules text"),  # type: ignore[arg-type]
    ],
)
def test_every_bad_construction_of_a_state_raises_invalid_state_error(build: object, message: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        build()  # type: ignore[operator]
    assert message in str(info.value)


def test_an_int_subclass_is_not_taken_for_a_player() -> None:
    class Index(int):
        pass

    piles = new_game(CLASSIC, seed=1).piles
    with pytest.raises(InvalidStateError, match="current_player must be 0 or 1"):
        GameState(CLASSIC, piles, Index(0))


@pytest.mark.parametrize(
    "call",
    [
        lambda: new_game("x" * 10**7),
        lambda: parse_rules("casual(" + "y" * 900 + "=1)"),
        lambda: parse_card("Q" * 10**6),
        lambda: parse_move("-" * 10**6),
        lambda: parse_position("z" * 10**6),
        lambda: parse_record("[" * 10**6),
        lambda: GameRecord(CASUAL, seed=1, players=("a" * 10**6, "b")),
        lambda: GameRecord(CASUAL, seed=1, tags={"k" * 10**6: "v"}),
        lambda: GameState.from_piles(CASUAL, tableau={0: ["x" * 10**6]}),
        lambda: attrs.evolve(CASUAL, first_player="p" * 10**6),
        lambda: attrs.evolve(CASUAL, own_tableau_build=["x"] * 10**6),
        lambda: new_game(CASUAL, seed=[0] * 10**6),  # type: ignore[arg-type]
    ],
)
def test_an_error_message_never_echoes_an_unbounded_input(call: object) -> None:
    with pytest.raises((ValueError, TypeError)) as info:
        call()  # type: ignore[operator]
    assert len(str(info.value)) < 600


def test_a_huge_part_text_is_refused_before_it_is_split() -> None:
    with pytest.raises((ParseError, InvalidRulesError), match="at most"):
        attrs.evolve(CASUAL, endings=["no-progress:" + "9" * 1000])
    assert make_state(CASUAL, reserves={0: "5C0", 1: "5D1"}).rules is CASUAL


def test_apply_move_of_a_text_names_apply_move_not_explain_illegal() -> None:
    state = new_game(RuleSet.casual(), seed=1)
    with pytest.raises(TypeError, match=r"^apply_move\(\) expects a Play, MoveStack, Draw, EndTurn or Pass, got str .*parse_move"):
        apply_move(state, "T1-T0")  # type: ignore[arg-type]
