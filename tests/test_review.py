"""Regression tests for problems found reviewing the public API."""

from __future__ import annotations

import copy
import inspect
import os
import pickle
import subprocess
import sys
import typing

import pytest

import crapette
from crapette import (
    Card,
    Draw,
    EndReason,
    EndTurn,
    GameState,
    Match,
    Move,
    Outcome,
    Pass,
    Pile,
    apply_move,
    legal_moves,
    new_game,
    parse_position,
    validate,
)

# ----------------------------------------------------------------------------
# Pickling a state keeps hashing consistent with equality


_PICKLE_A_HASHED_STATE = """
import pickle, sys
from crapette import apply_move, legal_moves, new_game
state = new_game("classic", seed=3)
state = apply_move(state, legal_moves(state)[0])
hash(state)
sys.stdout.buffer.write(pickle.dumps(state))
"""


def test_a_state_pickled_in_another_process_hashes_like_an_equal_state() -> None:
    # Python salts str hashes per process, so a cached hash must not travel in a pickle.
    salt = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    data = subprocess.run(
        [sys.executable, "-c", _PICKLE_A_HASHED_STATE],
        env={**os.environ, "PYTHONHASHSEED": salt},
        capture_output=True,
        check=True,
    ).stdout
    loaded = pickle.loads(data)
    fresh = new_game("classic", seed=3)
    fresh = apply_move(fresh, legal_moves(fresh)[0])
    assert loaded == fresh
    assert hash(loaded) == hash(fresh)
    assert loaded in {fresh}


def test_a_pickled_or_copied_state_plays_on_exactly_like_the_original() -> None:
    state = new_game("classic", seed=5)
    for _ in range(40):
        state = apply_move(state, legal_moves(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert other == state and hash(other) == hash(state)
        assert other.outcome == state.outcome
        assert legal_moves(other) == legal_moves(state)
        for move in legal_moves(state):
            assert apply_move(other, move) == apply_move(state, move)


def test_a_pickled_finished_state_keeps_its_outcome() -> None:
    state = parse_position(str(new_game("casual", seed=1)).replace("casual 0 0 -", "casual 0 0 pp"))
    assert state.outcome is not None
    assert pickle.loads(pickle.dumps(state)).outcome == state.outcome


# ----------------------------------------------------------------------------
# Public constructors refuse bad input with a documented error


def test_the_move_base_class_cannot_be_instantiated() -> None:
    # It has no notation, so its repr used to recurse forever.
    with pytest.raises(TypeError, match="Play, MoveStack, Draw, EndTurn or Pass"):
        Move()


def test_the_single_moves_are_typed_as_themselves() -> None:
    # Draw(), EndTurn() and Pass() are annotated to return their own class (mypy used to see Any).
    for cls in (Draw, EndTurn, Pass):
        assert typing.get_type_hints(cls.__new__)["return"] is not typing.Any
        assert type(cls()) is cls and cls() is cls()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"winner": 2, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": True, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": 1.0, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": 0, "reason": "won"}, "reason must be"),
        ({"winner": 0, "reason": None}, "reason must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": (1, 2, 3)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": (-1, 0)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": ("1", 0)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": 30}, "scores must be"),
    ],
)
def test_an_outcome_refuses_values_that_are_not_an_outcome(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Outcome(**kwargs)  # type: ignore[arg-type]


def test_an_outcome_reads_its_reason_from_the_documented_string() -> None:
    outcome = Outcome(0, "emptied", [53, 0])
    assert outcome == Outcome(0, EndReason.EMPTIED, (53, 0))
    assert str(outcome) == "player 0 wins (emptied), 53-0"


def test_match_for_rules_refuses_what_is_not_a_rule_set() -> None:
    with pytest.raises(TypeError, match="RuleSet"):
        Match.for_rules(150)  # type: ignore[arg-type]


def test_validate_refuses_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="GameState"):
        validate(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("pile", ["T0", 8, None])
def test_cards_and_top_refuse_what_is_not_a_pile(pile: object) -> None:
    state = new_game("casual", seed=1)
    with pytest.raises(TypeError, match="parse_pile"):
        state.cards(pile)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_pile"):
        state.top(pile)  # type: ignore[arg-type]
    assert state.top(Pile.tableau(0)) is state.cards(Pile.tableau(0))[-1]


@pytest.mark.parametrize("deck", [1.0, 0.0, "1", True])
def test_a_card_deck_must_be_the_int_0_or_1_like_the_rank(deck: object) -> None:
    with pytest.raises(ValueError, match="deck must be 0 or 1"):
        Card(1, "S", deck)  # type: ignore[arg-type]


# ----------------------------------------------------------------------------
# Every public name shows an example


def _public_callables() -> list[str]:
    names = []
    for name in crapette.__all__:
        obj = getattr(crapette, name)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            names.append(name)
    return names


@pytest.mark.parametrize("name", _public_callables())
def test_every_public_class_and_function_has_a_doctest_example(name: str) -> None:
    doc = inspect.getdoc(getattr(crapette, name)) or ""
    assert ">>>" in doc, f"crapette.{name} has no example in its docstring"


def test_from_piles_has_a_doctest_example() -> None:
    assert ">>>" in (inspect.getdoc(GameState.from_piles) or "")


# ----------------------------------------------------------------------------
# Errors


def test_an_invalid_state_error_takes_one_problem_as_a_string() -> None:
    error = crapette.InvalidStateError("T0 is upside down")
    assert error.problems == ("T0 is upside down",)
    assert str(error) == "invalid state: T0 is upside down"


def test_an_invalid_state_error_survives_pickling() -> None:
    # Errors cross process boundaries (multiprocessing pools) by pickle.
    error = crapette.InvalidStateError(["card AH0 is in both F0 and H0", "2 card(s) missing: 3C0 4C0"])
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is crapette.InvalidStateError
    assert back.problems == error.problems and str(back) == str(error)


def test_a_record_error_survives_pickling() -> None:
    record = crapette.GameRecord("casual", seed=1, moves=["T1-T0", "R1-F0"])
    with pytest.raises(crapette.RecordError) as info:
        record.replay()
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.index, back.move, back.reason, str(back)) == (
        info.value.index,
        info.value.move,
        info.value.reason,
        str(info.value),
    )


# ----------------------------------------------------------------------------
# The engine's caches: one private slot, never shared


def test_the_engines_caches_are_not_fields_and_not_shared_between_states() -> None:
    import attrs

    state = new_game("classic", seed=2)
    legal_moves(state)
    assert set(attrs.asdict(state, recurse=False)) == {
        "rules", "piles", "current_player", "move_count", "drawn", "passes", "exhausted", "played", "counters",
    }
    after = apply_move(state, legal_moves(state)[0])
    before = list(state._engine)
    legal_moves(after)
    hash(after)
    assert after._engine is not state._engine
    assert state._engine == before  # filling the next state's caches changed nothing of this one
    assert all(type(value) is not list for value in after._engine)


def test_public_names_live_in_the_package_namespace() -> None:
    for name in ("Card", "GameState", "RuleSet", "IllegalMoveError", "ParseError", "RecordError", "new_game"):
        assert getattr(crapette, name).__module__ == "crapette"
    with pytest.raises(crapette.IllegalMoveError) as info:
        apply_move(new_game("casual", seed=1), crapette.parse_move("end"))
    assert type(info.value).__module__ == "crapette"
    assert "crapette.IllegalMoveError" in repr(type(info.value))
    from crapette._errors import RecordError

    assert RecordError is crapette.RecordError


def test_every_value_with_a_text_form_writes_it_with_str_and_reads_it_with_one_parser() -> None:
    state = new_game("classic(move_limit=300)", seed=4)
    record = crapette.GameRecord(state.rules, seed=4, moves=legal_moves(state)[:1])
    card, pile, move = state.piles[16][-1], Pile.reserve(0), legal_moves(state)[0]
    for value, parse in (
        (card, crapette.parse_card),
        (pile, crapette.parse_pile),
        (move, crapette.parse_move),
        (state.rules, crapette.parse_rules),
        (state, crapette.parse_position),
        (record, crapette.parse_record),
    ):
        assert parse(str(value)) == value


def test_every_entry_point_reads_a_rules_text() -> None:
    text = "classic(move_limit=120)"
    rules = crapette.parse_rules(text)
    assert new_game(text, seed=1).rules == rules
    assert crapette.GameRecord(text, seed=1).rules == rules
    assert crapette.Game(text, seed=1).state.rules == rules
    assert crapette.GameState.from_piles(text, reserves=["5C0", "5D1"], rest="hand").rules == rules
    assert crapette.Match.for_rules(text).scoring == rules.scoring


def test_the_old_text_spellings_still_work_and_say_they_are_deprecated() -> None:
    state = new_game("casual", seed=1)
    record = crapette.GameRecord("casual", seed=1)
    with pytest.deprecated_call():
        assert state.to_position() == str(state)
    with pytest.deprecated_call():
        assert GameState.from_position(str(state)) == state
    with pytest.deprecated_call():
        assert crapette.rules_to_text(state.rules) == "casual"
    with pytest.deprecated_call():
        assert crapette.rules_from_text("casual") == state.rules
    with pytest.deprecated_call():
        assert record.to_text() == str(record)
    with pytest.deprecated_call():
        assert crapette.GameRecord.from_text(str(record)) == record
