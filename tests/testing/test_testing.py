"""crapette.testing: check_ruleset passes on the real engine and catches broken ones."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any

import attrs
import pytest
from hypothesis import given, settings

import crapette._core.engine
from crapette import (
    ALL_CARDS,
    Draw,
    GameState,
    IllegalMoveError,
    Move,
    Pass,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_move,
    parse_position,
)
from crapette.strategies import rulesets
from crapette.testing import CheckSummary, InvariantViolation, check_ruleset, check_state

REAL_APPLY = crapette._core.engine.apply_move
REAL_LEGAL = crapette._core.engine.legal_moves


def _with_piles(state: GameState, change: Callable[[list[tuple[Any, ...]]], None]) -> GameState:
    """A copy of ``state`` whose piles ``change`` has edited, built without validation."""
    piles = list(state.piles)
    change(piles)
    broken = object.__new__(GameState)
    for field in attrs.fields(GameState):
        object.__setattr__(broken, field.name, getattr(state, field.name))
    object.__setattr__(broken, "piles", tuple(piles))
    # The engine's list starts empty (legal moves, hash, pile indexes) but keeps the outcome.
    object.__setattr__(broken, "_engine", [state.outcome, None, None, None, None, None])
    return broken


# The real engine passes -------------------------------------------------------


@pytest.mark.parametrize("preset", ["casual", "classic"])
def test_check_ruleset_passes_on_each_preset(preset: str) -> None:
    summary = check_ruleset(RuleSet.from_name(preset), games=3, max_moves=200, seed=11)
    assert summary == CheckSummary(games=3, moves=600, finished=0)


@pytest.mark.parametrize("preset", ["casual", "classic"])
def test_check_ruleset_plays_each_preset_to_the_end(preset: str) -> None:
    summary = check_ruleset(preset, games=1, max_moves=5000, seed=2)
    assert summary.finished == 1
    assert summary.moves > 100


@settings(max_examples=12, deadline=None)
@given(rulesets())
def test_check_ruleset_passes_on_random_option_combinations(rules: RuleSet) -> None:
    summary = check_ruleset(rules, games=1, max_moves=150, illegal_samples=3)
    assert summary.games == 1
    assert 1 <= summary.moves <= 150


def test_check_ruleset_reaches_game_ends_under_short_move_limits() -> None:
    rules = attrs.evolve(RuleSet.classic(), move_limit=7)
    assert check_ruleset(rules, games=4, max_moves=100) == CheckSummary(games=4, moves=28, finished=4)


def test_check_ruleset_is_deterministic() -> None:
    rules = attrs.evolve(RuleSet.casual(), waste_play="drawn", stack_moves=True)
    first = check_ruleset(rules, games=2, max_moves=400, seed=5)
    assert check_ruleset(rules, games=2, max_moves=400, seed=5) == first


def test_check_ruleset_with_no_games_checks_nothing() -> None:
    assert check_ruleset("casual", games=0) == CheckSummary(games=0, moves=0, finished=0)


def test_check_state_passes_on_states_of_a_played_game() -> None:
    state = new_game("classic", seed=4)
    for _ in range(60):
        check_state(state, illegal_samples=20)
        state = apply_move(state, legal_moves(state)[-1])


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rules": 42}, TypeError, "rules must be a RuleSet"),
        ({"rules": "chess"}, ValueError, "unknown rule set 'chess'"),
        ({"games": "3"}, TypeError, "games must be an int"),
        ({"games": -1}, ValueError, "games must be at least 0"),
        ({"max_moves": -5}, ValueError, "max_moves must be at least 0"),
        ({"illegal_samples": 1.5}, TypeError, "illegal_samples must be an int"),
        ({"illegal_samples": 10**12}, ValueError, "illegal_samples must be from 0 to 1000, got 1000000000000"),
        ({"seed": -1}, ValueError, "seed must be an int"),
        ({"seed": 2**64 - 1, "games": 2}, ValueError, "seed must be an int"),
    ],
)
def test_check_ruleset_refuses_bad_arguments(kwargs: dict[str, Any], error: type, message: str) -> None:
    arguments: dict[str, Any] = {"rules": "casual", "games": 1, "max_moves": 1}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        check_ruleset(**arguments)


def test_check_state_bounds_illegal_samples() -> None:
    from crapette.testing import MAX_ILLEGAL_SAMPLES

    state = new_game("classic", seed=2)
    check_state(state, illegal_samples=MAX_ILLEGAL_SAMPLES)  # more than there are moves to try: all of them
    with pytest.raises(ValueError, match=r"illegal_samples must be from 0 to 1000, got 1001$"):
        check_state(state, illegal_samples=MAX_ILLEGAL_SAMPLES + 1)


def test_check_state_refuses_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="needs a GameState"):
        check_state("casual 0 0 -")  # type: ignore[arg-type]


# Broken engines are caught ----------------------------------------------------


def _violation(monkeypatch: pytest.MonkeyPatch, name: str, fake: Callable[..., Any]) -> InvariantViolation:
    monkeypatch.setattr(crapette._core.engine, name, fake)
    with pytest.raises(InvariantViolation) as info:
        check_ruleset("casual", games=2, max_moves=300, seed=3)
    return info.value


def test_an_engine_that_loses_a_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def lose_drawn_card(state: GameState, move: Move) -> GameState:
        after = REAL_APPLY(state, move)
        if isinstance(move, Draw):
            after = _with_piles(after, lambda piles: piles.__setitem__(20 + state.current_player, ()))
        return after

    error = _violation(monkeypatch, "apply_move", lose_drawn_card)
    assert error.invariant == "card-count"
    assert error.move is Draw()
    assert "not the 104" in error.detail
    assert error.seed == 3
    # The report reproduces the failure: the position is the state before the bad
    # move, it reads back, and the deal plus the recorded moves reach it.
    assert error.position is not None
    assert error.position in str(error) and "reproduce: apply_move(" in str(error)
    before = parse_position(error.position)
    assert error.move in REAL_LEGAL(before)
    replayed = new_game("casual", seed=error.seed)
    for move in error.moves:
        replayed = REAL_APPLY(replayed, move)
    assert replayed == before


def test_an_engine_that_breaks_a_foundation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def king_on_foundation(state: GameState, move: Move) -> GameState:
        after = REAL_APPLY(state, move)
        if after.move_count == 25:
            def move_king(piles: list[tuple[Any, ...]]) -> None:
                king = ALL_CARDS[12]  # the King of clubs of deck 0
                for i, pile in enumerate(piles):
                    if king in pile:
                        piles[i] = tuple(c for c in pile if c is not king)
                piles[7] = piles[7] + (king,)

            after = _with_piles(after, move_king)
        return after

    error = _violation(monkeypatch, "apply_move", king_on_foundation)
    assert error.invariant == "foundations-ordered"
    assert "F7 starts with KC0, not an Ace" in error.detail
    assert error.position is not None
    assert parse_position(error.position).move_count == 24


def test_an_engine_that_breaks_a_counter_is_caught_by_validate(monkeypatch: pytest.MonkeyPatch) -> None:
    def wrong_player(state: GameState, move: Move) -> GameState:
        after = REAL_APPLY(state, move)
        if after.move_count == 10:
            after = _with_piles(after, lambda piles: None)
            object.__setattr__(after, "current_player", 2)
        return after

    error = _violation(monkeypatch, "apply_move", wrong_player)
    assert error.invariant == "validate"
    assert "current_player must be 0 or 1" in error.detail
    assert len(error.moves) == 10


def test_an_engine_that_changes_its_input_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def mutate_input(state: GameState, move: Move) -> GameState:
        after = REAL_APPLY(state, move)
        if state.move_count == 7:
            object.__setattr__(state, "passes", 1)
        return after

    error = _violation(monkeypatch, "apply_move", mutate_input)
    assert error.invariant == "immutability"
    assert "changed the state it was given" in error.detail


def test_an_engine_that_accepts_an_illegal_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def accept_everything(state: GameState, move: Move) -> GameState:
        try:
            return REAL_APPLY(state, move)
        except IllegalMoveError:
            return state

    error = _violation(monkeypatch, "apply_move", accept_everything)
    assert error.invariant == "illegal-move-refused"
    assert error.move is not None
    assert error.position is not None
    assert error.move not in REAL_LEGAL(parse_position(error.position))


def test_an_engine_that_refuses_a_legal_move_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    t1_t0 = parse_move("T1-T0")

    def refuse_t1_t0(state: GameState, move: Move) -> GameState:
        if move is t1_t0:
            raise IllegalMoveError("no")
        return REAL_APPLY(state, move)

    error = _violation(monkeypatch, "apply_move", refuse_t1_t0)
    assert error.invariant == "legal-move-applies"
    assert error.move is t1_t0
    assert "listed as legal" in error.detail


def test_an_engine_that_offers_pass_with_other_moves_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def pass_too(state: GameState) -> tuple[Move, ...]:
        legal = REAL_LEGAL(state)
        return legal + (Pass(),) if legal and legal != (Pass(),) else legal

    error = _violation(monkeypatch, "legal_moves", pass_too)
    assert error.invariant == "game-over"
    assert "Pass is legal alongside" in error.detail


def test_an_engine_that_plays_on_after_the_end_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def never_over(state: GameState) -> tuple[Move, ...]:
        return REAL_LEGAL(state) or (Pass(),)

    monkeypatch.setattr(crapette._core.engine, "legal_moves", never_over)
    rules = attrs.evolve(RuleSet.casual(), move_limit=4)
    with pytest.raises(InvariantViolation) as info:
        check_ruleset(rules, games=1)
    assert info.value.invariant == "game-over"
    assert len(info.value.moves) == 4


def test_a_violation_is_an_assertion_error_with_its_details() -> None:
    state = new_game("classic", seed=9)
    move = parse_move("R0-F0")
    error = InvariantViolation("immutability", "something changed", state=state, move=move, seed=9)
    assert isinstance(error, AssertionError)
    assert (error.invariant, error.detail, error.move, error.seed) == ("immutability", "something changed", move, 9)
    assert error.position == str(state)
    assert str(error).startswith("invariant 'immutability' broken: something changed\n")


def test_a_violation_in_an_unwritable_state_still_reports() -> None:
    state = _with_piles(new_game("casual"), lambda piles: piles.__setitem__(0, 5))  # type: ignore[call-overload]
    error = InvariantViolation("card-count", "junk", state=state)
    assert error.position is None
    assert str(error) == "invariant 'card-count' broken: junk"


def test_testing_module_needs_no_hypothesis(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "hypothesis" or m.startswith("hypothesis.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "crapette.testing")
    monkeypatch.setattr(crapette, "testing", sys.modules["crapette"].testing)
    fresh = importlib.import_module("crapette.testing")
    assert fresh.check_ruleset("casual", games=1, max_moves=5).moves == 5


def test_check_ruleset_with_its_defaults_finishes_classic_games_and_says_how_many_were_capped() -> None:
    summary = check_ruleset("classic", games=2, seed=40)  # the defaults but the number of games
    assert summary.finished == 2 and summary.capped == 0
    assert str(summary) == f"2 games checked ({summary.moves} moves): 2 ended, 0 capped by max_moves"
    uniform = check_ruleset("classic", games=1, max_moves=300, seed=40, greedy=0, illegal_samples=0)
    assert (uniform.finished, uniform.capped) == (0, 1)
    assert str(uniform).endswith("0 ended, 1 capped by max_moves")
    for bad, error in ((1.5, ValueError), (-0.1, ValueError), ("0.5", TypeError), (True, TypeError)):
        with pytest.raises(error, match="greedy must be"):
            check_ruleset("classic", games=1, greedy=bad)  # type: ignore[arg-type]


def test_the_my_rules_example_shows_a_finished_scored_game() -> None:
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "examples/my_rules.py"], capture_output=True, text=True, timeout=300, cwd=root
    )
    assert result.returncode == 0, result.stderr
    assert "wins (emptied), scores (" in result.stdout or "stalemate" in result.stdout, result.stdout
    assert "3 ended, 0 capped by max_moves" in result.stdout
