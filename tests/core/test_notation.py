"""Card, pile and move notation; parse errors; reprs that are valid Python."""

from __future__ import annotations

import random
import typing
from typing import Any

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

import crapette
from crapette import (
    ALL_CARDS,
    ALL_PILES,
    Build,
    Card,
    Colour,
    Draw,
    EndReason,
    EndTurn,
    Ending,
    FirstPlayer,
    FoundationPlays,
    LoadTarget,
    Match,
    Move,
    MoveLimit,
    MoveStack,
    Outcome,
    ParseError,
    Pass,
    Pile,
    PileKind,
    Play,
    Rank,
    RuleSet,
    Scoring,
    StackLimit,
    Suit,
    TableauSources,
    WastePlay,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_pile,
    parse_position,
    registered,
)

from conftest import ALL_MOVES, rulesets
from crapette._core.parts import is_built_in_class


def evaluated(value: object) -> Any:
    return eval(repr(value), {**vars(crapette), **vars(crapette.variants)})


# ----------------------------------------------------------------------------
# Cards


def test_every_card_round_trips_through_its_notation() -> None:
    texts = set()
    for card in ALL_CARDS:
        text = str(card)
        texts.add(text)
        assert parse_card(text) is card
        assert parse_card(text.lower()) is card
        assert parse_card(f"  {text} ") is card
        assert parse_card(f"{card.symbol}{card.deck}") is card
    assert len(texts) == 104


def test_card_notation_examples() -> None:
    assert str(Card(Rank.TEN, Suit.HEARTS, 1)) == "TH1"
    assert parse_card("10h1") is parse_card("TH1")
    assert parse_card("A♠0") is Card(1, "S", 0)
    assert [str(c) for c in ALL_CARDS[:3]] == ["AC0", "2C0", "3C0"]
    assert str(ALL_CARDS[-1]) == "KS1"


def test_cards_are_interned_and_indexed() -> None:
    for i, card in enumerate(ALL_CARDS):
        assert card.index == i
        assert Card(card.rank, card.suit, card.deck) is card
        assert Card(int(card.rank), card.suit.value, card.deck) is card
        assert hash(card) == i


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "expected <rank><suit><deck>"),
        ("AH", "expected <rank><suit><deck>"),
        ("1H0", "unknown rank '1'"),
        ("11H0", "unknown rank '11'"),
        ("AX0", "unknown suit 'X'"),
        ("AH2", "the deck must be 0 or 1, got '2'"),
        ("x" * 70, "text too long (70 characters)"),
    ],
)
def test_a_malformed_card_raises_parse_error_saying_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match="invalid card") as info:
        parse_card(text)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        ((0, "H", 0), "rank must be a Rank or an int from 1"),
        ((14, "H", 0), "rank must be"),
        ((True, "H", 0), "rank must be"),
        ((1, "X", 0), "suit must be a Suit or one of"),
        ((1, "H", 2), "deck must be 0 or 1"),
        ((1, "H", False), "deck must be 0 or 1"),
    ],
)
def test_card_constructor_rejects_bad_values(args: tuple[Any, ...], fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Card(*args)


# ----------------------------------------------------------------------------
# Piles


def test_every_pile_round_trips_through_its_notation() -> None:
    assert [str(p) for p in ALL_PILES] == (
        [f"F{i}" for i in range(8)] + [f"T{i}" for i in range(8)] + ["R0", "R1", "H0", "H1", "W0", "W1"]
    )
    for i, pile in enumerate(ALL_PILES):
        assert pile.id == i
        assert parse_pile(str(pile)) is pile
        assert parse_pile(str(pile).lower()) is pile
        assert Pile(pile.kind, pile.index) is pile


@pytest.mark.parametrize("text", ["", "F8", "T", "X1", "R2", "H", "F-1", "TT1", "x" * 80])
def test_a_malformed_pile_raises_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match="expected F0-F7, T0-T7, R0, R1, H0, H1, W0 or W1"):
        parse_pile(text)


def test_pile_constructors_reject_bad_indexes() -> None:
    with pytest.raises(ValueError, match="a tableau pile index must be 0 to 7, got 8"):
        Pile.tableau(8)
    with pytest.raises(ValueError, match="a reserve pile index must be 0 to 1"):
        Pile.reserve(2)
    with pytest.raises(ValueError, match="kind must be a PileKind"):
        Pile("T", 1)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------
# Moves


def test_every_move_round_trips_through_its_notation() -> None:
    assert len(ALL_MOVES) == len(set(ALL_MOVES)) == 12 * 20 - 12 + 8 * 7 * 12 + 3
    for move in ALL_MOVES:
        text = str(move)
        assert parse_move(text) is move
        assert parse_move(f" {text.lower()} ") is move
        assert parse_move(text.upper()) is move


def test_move_notation_examples() -> None:
    assert str(Play(Pile.reserve(0), Pile.foundation(3))) == "R0-F3"
    assert str(MoveStack(Pile.tableau(2), Pile.tableau(5), 3)) == "T2-T5x3"
    assert (str(Draw()), str(EndTurn()), str(Pass())) == ("draw", "end", "pass")
    assert parse_move("T2-T5X13") is MoveStack(Pile.tableau(2), Pile.tableau(5), 13)
    assert Draw() is Draw() and parse_move("DRAW") is Draw()


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "expected <pile>-<pile>"),
        ("R0F3", "expected <pile>-<pile>"),
        ("dra w", "expected <pile>-<pile>"),
        ("R0-H1", "target H1 cannot be a move's target"),
        ("H0-F1", "source H0 cannot be a move's source"),
        ("F0-T1", "source F0 cannot be a move's source"),
        ("T1-T1", "onto the same pile"),
        ("T1-T2x1", "a stack move carries 2 to 13 cards, got 1"),
        ("T1-T2x14", "got 14"),
        ("R0-T1x3", "source R0 cannot be a move's source (must be a tableau pile)"),
        ("F9-T1", "invalid pile 'F9'"),
        ("x" * 65, "text too long"),
    ],
)
def test_a_malformed_move_raises_parse_error_saying_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(ParseError, match="invalid move") as info:
        parse_move(text)
    assert fragment in str(info.value)


@given(st.text(max_size=12))
def test_parsers_either_parse_or_raise_parse_error(text: str) -> None:
    for parse in (parse_card, parse_pile, parse_move):
        try:
            value = parse(text)
        except ParseError as exc:
            assert str(exc)
        else:
            assert parse(str(value)) is value


@given(st.sampled_from(ALL_MOVES), st.integers(0, 3), st.sampled_from(["", " ", "x", "-", "0"]))
def test_moves_with_damaged_text_parse_or_raise_parse_error(move: Move, cut: int, extra: str) -> None:
    text = str(move)
    for damaged in (text[cut:], text[: len(text) - cut] + extra, extra + text):
        try:
            value = parse_move(damaged)
        except ParseError:
            continue
        assert parse_move(str(value)) is value


@pytest.mark.parametrize("parse", [parse_card, parse_pile, parse_move, parse_position])
@pytest.mark.parametrize("value", [None, 5, b"draw", ["R0-F3"]])
def test_parsers_raise_type_error_for_non_strings(parse: Any, value: object) -> None:
    with pytest.raises(TypeError, match="str|string"):
        parse(value)


# ----------------------------------------------------------------------------
# Reprs are valid Python


def test_card_pile_and_move_reprs_evaluate_back() -> None:
    for card in ALL_CARDS:
        assert repr(card) == f"parse_card('{card}')"
        assert evaluated(card) is card
    for pile in ALL_PILES:
        assert evaluated(pile) is pile
    for move in ALL_MOVES:
        assert repr(move) == f"parse_move('{move}')"
        assert evaluated(move) is move


def test_enum_reprs_evaluate_back() -> None:
    for enum in (Rank, Suit, Colour, PileKind, EndReason, TableauSources, LoadTarget, WastePlay, FoundationPlays, StackLimit):
        for member in enum:
            assert evaluated(member) is member


def test_rule_part_reprs_evaluate_back() -> None:
    for kind in (Build, FirstPlayer, Scoring, Ending):
        for cls in registered(kind).values():
            if not is_built_in_class(cls):
                continue  # parts registered by other tests and doctests (under any module name)
            if cls is MoveLimit:
                part: object = MoveLimit(500)
            else:
                part = cls()
            assert evaluated(part) == part


def test_preset_rule_set_reprs_evaluate_back() -> None:
    for rules in (RuleSet.casual(), RuleSet.classic()):
        assert repr(rules) == f"parse_rules({str(rules)!r})"
        assert evaluated(rules) == rules


@given(rulesets())
def test_any_rule_set_repr_evaluates_back(rules: RuleSet) -> None:
    assert evaluated(rules) == rules


def test_game_state_repr_is_from_position_and_evaluates_back() -> None:
    rng = random.Random(4)
    for rules in (RuleSet.casual(), RuleSet.classic(), attrs.evolve(RuleSet.classic(), move_limit=77, scoring=None)):
        state = new_game(rules, 4)
        for _ in range(60):
            assert repr(state) == f"parse_position({str(state)!r})"
            assert evaluated(state) == state
            if state.is_over:
                break
            state = apply_move(state, rng.choice(legal_moves(state)))


def test_outcome_scoring_and_match_reprs_evaluate_back() -> None:
    outcome = Outcome(1, EndReason.STALEMATE, (0, 12))
    assert evaluated(outcome) == outcome
    assert evaluated(Outcome(None, EndReason.BLOCKED)) == Outcome(None, EndReason.BLOCKED, None)
    scoring = Scoring(win_bonus=3, reserve_weight=0, hand_weight=2, waste_weight=1, match_target=9)
    assert evaluated(scoring) == scoring
    match = Match(scoring).add(outcome)
    assert evaluated(match) == match


# Move and card constructors ----------------------------------------------------------------------


def test_the_move_base_class_cannot_be_instantiated() -> None:
    # It has no notation, so its repr used to recurse forever.
    with pytest.raises(TypeError, match="Play, MoveStack, Draw, EndTurn or Pass"):
        Move()


def test_the_single_moves_are_typed_as_themselves() -> None:
    # Draw(), EndTurn() and Pass() are annotated to return their own class (mypy used to see Any).
    for cls in (Draw, EndTurn, Pass):
        assert typing.get_type_hints(cls.__new__)["return"] is not typing.Any
        assert type(cls()) is cls and cls() is cls()


@pytest.mark.parametrize("deck", [1.0, 0.0, "1", True])
def test_a_card_deck_must_be_the_int_0_or_1_like_the_rank(deck: object) -> None:
    with pytest.raises(ValueError, match="deck must be 0 or 1"):
        Card(1, "S", deck)  # type: ignore[arg-type]
