"""The mutable Game wrapper: push, undo, redo, history and records."""

from __future__ import annotations

import random

import pytest

from crapette import (
    Game,
    GameRecord,
    IllegalMoveError,
    ParseError,
    RecordError,
    apply_move,
    legal_moves,
    new_game,
    parse_move,
    view,
)


def play(game: Game, moves: int, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.push(rng.choice(game.legal_moves))


def test_new_game_starts_at_the_deal() -> None:
    game = Game("classic", seed=5)
    assert game.state == game.start == new_game("classic", 5)
    assert game.seed == 5
    assert game.history == () and game.states == (game.start,)
    assert not game.can_undo and not game.can_redo
    assert game.legal_moves == legal_moves(game.state)


def test_push_applies_moves_and_keeps_every_state() -> None:
    game = Game("casual", seed=1)
    play(game, 50, 3)
    state = game.start
    for move, kept in zip(game.history, game.states[1:]):
        state = apply_move(state, move)
        assert kept == state
    assert game.state == state
    assert len(game.states) == len(game.history) + 1


def test_push_accepts_move_notation() -> None:
    game = Game("casual", seed=1)
    game.push("t1-t0")
    assert game.history == (parse_move("T1-T0"),)


def test_illegal_push_raises_and_leaves_the_game_unchanged() -> None:
    game = Game("casual", seed=1)
    game.push("T1-T0")
    game.undo()
    with pytest.raises(IllegalMoveError, match="R1 is player 1's reserve"):
        game.push("R1-F0")
    with pytest.raises(ParseError):
        game.push("jump")
    assert game.history == () and game.state == game.start
    assert game.redo_moves == (parse_move("T1-T0"),)


def test_undo_returns_the_move_and_restores_the_previous_state() -> None:
    game = Game("classic", seed=2, undo="any")
    play(game, 30, 1)
    states = game.states
    history = game.history
    for i in range(len(history), 0, -1):
        assert game.undo() is history[i - 1]
        assert game.state == states[i - 1]
    assert game.state == game.start and not game.can_undo


def test_redo_replays_undone_moves_in_order() -> None:
    game = Game("classic", seed=2, undo="any")
    play(game, 30, 1)
    final, history = game.state, game.history
    for _ in range(10):
        game.undo()
    assert game.redo_moves == history[-10:]
    for move in history[-10:]:
        assert game.redo() is move
    assert game.state == final and not game.can_redo


def test_pushing_the_next_redo_move_keeps_the_rest_of_the_redo_line() -> None:
    game = Game("casual", seed=1, undo="any")
    game.push("T1-T0")
    game.push("draw")
    game.undo()
    game.undo()
    game.push("T1-T0")
    assert game.redo_moves == (parse_move("draw"),)


def test_pushing_another_move_forgets_the_redo_line() -> None:
    game = Game("casual", seed=1)
    game.push("T1-T0")
    game.undo()
    game.push("draw")
    assert not game.can_redo and game.redo_moves == ()


def test_undo_and_redo_with_nothing_to_do_raise_index_error() -> None:
    game = Game("casual", seed=1)
    with pytest.raises(IndexError, match="nothing to undo"):
        game.undo()
    with pytest.raises(IndexError, match="nothing to redo"):
        game.redo()


def test_to_record_and_from_record_round_trip() -> None:
    game = Game("classic", seed=4)
    play(game, 60, 2)
    game.players = ("Ann", "Bob")
    game.date = "2024-05-01"
    game.tags = {"Event": "club"}
    record = game.to_record()
    assert record.seed == 4 and record.start is None
    assert record.moves == game.history
    assert (record.players, record.date, record.tags) == (("Ann", "Bob"), "2024-05-01", (("Event", "club"),))
    again = Game.from_record(record)
    assert again.state == game.state and again.history == game.history
    assert again.to_record() == record


def test_to_record_keywords_override_the_attributes() -> None:
    game = Game("casual", seed=1)
    game.players = ("Ann", "Bob")
    record = game.to_record(players=("Cy", "Di"), result="*", tags={"Round": "2"})
    assert record.players == ("Cy", "Di") and record.result == "*" and record.tags == (("Round", "2"),)


def test_record_result_follows_the_outcome_unless_set() -> None:
    game = Game("casual", seed=0)
    play(game, 5000, 0)
    assert game.is_over and game.outcome is not None
    expected = {0: "1-0", 1: "0-1", None: "1/2-1/2"}[game.outcome.winner]
    assert game.to_record().result == expected
    game.result = "*"
    assert game.to_record().result == "*"
    assert Game("casual", seed=0).to_record().result is None


def test_game_from_a_state_records_its_start_position() -> None:
    start = Game("classic", seed=3)
    play(start, 20, 5)
    game = Game.from_state(start.state)
    assert game.seed is None
    play(game, 20, 6)
    record = game.to_record()
    assert record.seed is None and record.start == start.state
    assert record.replay() == game.state


def test_game_from_a_record_with_an_illegal_move_raises_record_error() -> None:
    with pytest.raises(RecordError) as info:
        Game.from_record(GameRecord("casual", seed=1, moves=["T1-T0", "end"]))
    assert info.value.index == 1


def test_game_view_is_the_view_of_the_current_state() -> None:
    game = Game("classic", seed=3)
    play(game, 10, 1)
    assert game.view() == view(game.state)


def test_game_refuses_wrong_types() -> None:
    with pytest.raises(TypeError):
        Game.from_state("casual")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        Game.from_record("casual")  # type: ignore[arg-type]


def test_repr_names_the_origin_and_the_position() -> None:
    game = Game("casual", seed=1)
    game.push("T1-T0")
    assert repr(game).startswith("<Game seed=1, 1 moves, 'casual 0 1 - ")
