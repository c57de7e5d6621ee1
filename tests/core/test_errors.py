"""crapette.errors: every exception of the package, where it is shown, what it carries, and that it pickles."""

from __future__ import annotations

import pickle
from typing import Any

import pytest
from conftest import with_piles

import crapette
from crapette import Game, GameRecord, errors, explain_illegal, new_game, parse_move
from crapette.bots import RandomBot
from crapette.errors import (
    BotError,
    IllegalBotMoveError,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    InvariantViolation,
    ParseError,
    RecordError,
    RulePartError,
    SimulationError,
    SimulationInterrupted,
    UndoError,
)
from crapette.simulation import SimulationReport, simulate

# Where each exception lives -----------------------------------------------------------------------


def test_every_exception_of_the_package_lives_in_crapette_errors() -> None:
    # Each public exception is defined in crapette.errors and is the same
    # object wherever it is documented; no other module defines a public one.
    import ast
    import importlib
    from pathlib import Path

    from crapette import errors

    package = Path(crapette.__file__).parent
    defined_elsewhere = []
    for path in package.rglob("*.py"):
        if path.name == "errors.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
                if any(b.endswith(("Error", "Exception", "Interrupt", "Violation")) for b in bases):
                    defined_elsewhere.append(f"{path.relative_to(package)}: {node.name}")
    # Private helpers that never reach a user: the simulation's failure in a
    # worker and the command line's exit.
    assert sorted(defined_elsewhere) == ["_play/report.py: Failure", "cli/_common.py: Fail"]
    for module, names in {
        "crapette": [n for n in errors.__all__ if hasattr(crapette, n)],
        "crapette.simulation": ["SimulationError", "BotError", "IllegalBotMoveError", "SimulationInterrupted"],
        "crapette.testing": ["InvariantViolation"],
    }.items():
        home = importlib.import_module(module)
        for name in names:
            assert getattr(home, name) is getattr(errors, name)
            assert getattr(errors, name).__module__ == module
    assert set(errors.__all__) == {
        name for name in dir(errors) if isinstance(getattr(errors, name), type)
        and issubclass(getattr(errors, name), BaseException) and not name.startswith("_")
        and getattr(errors, name).__source_module__ == "crapette.errors"
    }


@pytest.mark.parametrize(
    ("error", "bases"),
    [
        (ParseError, (ValueError,)),
        (IllegalMoveError, (ValueError,)),
        (InvalidStateError, (ValueError,)),
        (InvalidRulesError, (ValueError,)),
        (RulePartError, (InvalidRulesError,)),
        (RecordError, (ValueError,)),
        (UndoError, (IndexError,)),
        (SimulationError, (RuntimeError,)),
        (BotError, (SimulationError,)),
        (IllegalBotMoveError, (BotError, IllegalMoveError)),
        (SimulationInterrupted, (KeyboardInterrupt,)),
        (InvariantViolation, (AssertionError,)),
    ],
    ids=lambda value: value.__name__ if isinstance(value, type) else "",
)
def test_each_exception_derives_from_the_classes_the_module_lists(error: type, bases: tuple[type, ...]) -> None:
    assert error.__bases__ == bases
    assert error.__name__ in errors.__all__


def test_an_interruption_is_no_exception_so_except_exception_lets_it_through() -> None:
    assert not issubclass(SimulationInterrupted, Exception)
    assert issubclass(IllegalBotMoveError, ValueError) and issubclass(BotError, RuntimeError)
    assert errors.__all__ == sorted(errors.__all__)


# What each carries, and that it travels -----------------------------------------------------------


def test_a_record_error_survives_pickling() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "R1-F0"])
    with pytest.raises(RecordError) as info:
        record.replay()
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.index, back.move, back.reason, str(back)) == (
        info.value.index,
        info.value.move,
        info.value.reason,
        str(info.value),
    )


def test_undo_error_is_an_index_error_as_before() -> None:
    game = Game("classic", seed=3)
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    assert issubclass(UndoError, IndexError)


def test_a_violation_is_an_assertion_error_with_its_details() -> None:
    state = new_game("classic", seed=9)
    move = parse_move("R0-F0")
    error = InvariantViolation("immutability", "something changed", state=state, move=move, seed=9)
    assert isinstance(error, AssertionError)
    assert (error.invariant, error.detail, error.move, error.seed) == ("immutability", "something changed", move, 9)
    assert error.position == str(state)
    assert str(error).startswith("invariant 'immutability' broken: something changed\n")


def test_a_violation_in_an_unwritable_state_still_reports() -> None:
    state = with_piles(new_game("casual"), lambda piles: piles.__setitem__(0, 5))  # type: ignore[call-overload]
    error = InvariantViolation("card-count", "junk", state=state)
    assert error.position is None
    assert str(error) == "invariant 'card-count' broken: junk"


def test_an_illegal_move_carries_the_move_and_the_reason_that_explain_illegal_gives() -> None:
    state, move = new_game("casual", seed=1), parse_move("R1-T4")
    with pytest.raises(IllegalMoveError) as info:
        crapette.apply_move(state, move)
    assert info.value.move == move and info.value.reason == explain_illegal(state, move)
    assert str(info.value) == f"illegal move R1-T4: {info.value.reason}"
    bare = IllegalMoveError("no such action")
    assert (bare.move, bare.reason, str(bare)) == (None, None, "no such action")


def test_an_invalid_state_lists_its_problems_and_counts_them_in_its_message() -> None:
    one = InvalidStateError("card AH0 is in both F0 and H0")
    assert one.problems == ("card AH0 is in both F0 and H0",)
    assert str(one) == "invalid state: card AH0 is in both F0 and H0"
    two = InvalidStateError(iter(["a", "b"]))
    assert (two.problems, str(two)) == (("a", "b"), "invalid state (2 problems): a; b")


@pytest.fixture(scope="module")
def report() -> SimulationReport:
    return simulate("casual", (RandomBot(1), RandomBot(2)), games=1, max_moves=10)


def _made(report: SimulationReport) -> list[BaseException]:
    move = parse_move("R0-F0")
    return [
        ParseError("invalid card 'ZZ0'"),
        IllegalMoveError("illegal move R0-F0: no", move=move, reason="no"),
        InvalidStateError(["a", "b"]),
        InvalidRulesError("no rules"),
        RulePartError("the scoring x: penalty() returned None", part="x", hook="penalty"),
        RecordError("move 2 is illegal", index=2, move=move, reason="no"),
        UndoError("nothing to undo"),
        SimulationError("game 0 failed", report=report, games=(0,)),
        BotError("bot 1 failed", report=report, bot=1, player=0, game=0, deal=4, move=7),
        IllegalBotMoveError("bot 0 cheated", report=report, bot=0, player=1, game=0, deal=4, move=2),
        SimulationInterrupted("interrupted after 1 of 2 games", report=report),
        InvariantViolation("view", "the views differ", move=move, seed=3, moves=[move], game="durak"),
        InvariantViolation("card-count", "card 5H0 is missing", position="casual 0 0 - F:-"),
    ]


def test_every_exception_pickles_with_what_it_carries(report: SimulationReport) -> None:
    for error in _made(report):
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert {k: v for k, v in vars(again).items() if k != "report"} == {
            k: v for k, v in vars(error).items() if k != "report"
        }
        assert getattr(again, "report", None) == getattr(error, "report", None)


def test_a_violation_found_in_a_game_says_how_to_reach_it_again() -> None:
    moves: list[Any] = [parse_move("draw")] * 10
    error = InvariantViolation("view", "the views differ", move=moves[-1], seed=3, moves=moves, game="durak")
    lines = str(error).splitlines()
    assert lines[0] == "invariant 'view' broken: the views differ"
    assert lines[1:] == [
        "  move: draw",
        "  game: durak.new_game(3) then the 10 moves in .moves",
        "  last moves: ... " + " ".join(["draw"] * 8),
    ]
    assert (error.game, error.seed, error.moves, error.position) == ("durak", 3, tuple(moves), None)
    state = new_game("casual", seed=2)
    at = InvariantViolation("card-count", "lost", state=state, move=moves[0], seed=2)
    assert f"  reproduce: apply_move(parse_position({str(state)!r}), parse_move('draw'))" in str(at)
    assert "  game: new_game(rules, seed=2) then the 0 moves in .moves" in str(at)
