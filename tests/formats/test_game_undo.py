"""Undo in crapette.Game never shows a face-down card again (issue 23.1) and the default rules (24.6)."""

from __future__ import annotations

import random

import pytest

from crapette import Game, UndoError, new_game, parse_move, reveals


def test_draw_undo_draw_again_is_not_possible() -> None:
    game = Game("classic", seed=3)
    game.push("draw")
    assert not game.can_undo and game.undoable == 0
    with pytest.raises(UndoError, match="cannot take back draw: it turned a face-down card face up"):
        game.undo()
    assert [str(m) for m in game.history] == ["draw"]  # unchanged


def test_undo_error_is_an_index_error_as_before() -> None:
    game = Game("classic", seed=3)
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    assert issubclass(UndoError, IndexError)


def test_undo_past_the_opponents_draw_is_impossible() -> None:
    game = Game("classic", seed=3)
    rng = random.Random(5)
    # Play until a draw is followed by at least one move that reveals nothing.
    for _ in range(400):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_moves))
        if game.undoable and any(str(m) == "draw" for m in game.history):
            break
    count = game.undoable
    assert 0 < count < len(game.history)
    for _ in range(count):
        game.undo()
    last = game.history[-1]
    assert reveals(game.states[-2], last)
    with pytest.raises(UndoError, match="turned a face-down card face up"):
        game.undo()


def test_a_reserve_play_that_uncovers_a_card_cannot_be_undone() -> None:
    game = Game("classic", seed=1)
    game.push("R0-T5")
    assert not game.can_undo
    game.push("T7-T1")
    assert game.undoable == 1
    game.undo()
    with pytest.raises(UndoError, match="cannot take back R0-T5"):
        game.undo()


def test_undo_any_takes_back_draws_for_analysis() -> None:
    game = Game("classic", seed=3, undo="any")
    game.push("draw")
    assert game.undo_policy == "any" and game.can_undo
    assert game.undo() == parse_move("draw")
    assert game.state == game.start


def test_undo_policy_is_checked() -> None:
    with pytest.raises(ValueError, match="undo must be 'unrevealed' or 'any'"):
        Game("classic", seed=1, undo="sometimes")  # type: ignore[arg-type]


def test_a_loaded_record_keeps_the_undo_policy() -> None:
    game = Game("classic", seed=3, undo="any")
    game.push("draw")
    assert not Game.from_record(game.to_record()).can_undo
    assert Game.from_record(game.to_record(), undo="any").can_undo


def test_game_defaults_to_classic_rules_like_everything_else() -> None:
    assert Game().state == new_game("classic") == new_game("classic", 0)
