"""crapette.analysis: the tree search reviews a game and marks its mistakes."""

from __future__ import annotations

import pytest

from crapette import GameRecord, RecordError, legal_moves, new_game
from crapette.analysis import MISTAKE, Review, analyse, reviews
from crapette.bots import TreeSearchBot

BOT = TreeSearchBot(seed=1, playouts=300)


def test_a_move_that_leaves_the_reserve_card_unplayed_is_marked_with_the_better_move() -> None:
    # After T2-T3 the reserve top can fill the empty pile; moving a tableau card there instead wastes it.
    record = GameRecord("classic", seed=3, moves=["T2-T3", "T7-T2"])
    first, second = analyse(record, bot=BOT)
    assert (first.index, str(first.played), first.mistake, first.cost) == (0, "T2-T3", False, 0.0)
    assert (second.index, str(second.played), str(second.best), second.mistake) == (1, "T7-T2", "R0-T2", True)
    assert second.cost >= MISTAKE and second.cost_in_points > 0
    assert second.note.startswith("mistake: R0-T2 was better (value ")


def test_positions_with_one_legal_move_are_not_reviewed() -> None:
    state = new_game("classic", seed=5)
    moves = []
    while len(moves) < 30:
        move = legal_moves(state)[0]
        moves.append(move)
        state = state if state.is_over else __import__("crapette").apply_move(state, move)
    record = GameRecord("classic", seed=5, moves=moves)
    marks = analyse(record, bot=TreeSearchBot(seed=1, playouts=40), every_move=1)
    replay = list(record.states())
    assert [m.index for m in marks] == [i for i in range(30) if len(legal_moves(replay[i])) > 1]
    assert all(m.player == replay[m.index].current_player for m in marks)
    assert all(0.0 <= m.value <= 1.0 and m.best_value >= m.value - 1e-9 for m in marks)


def test_progress_is_reported_and_reviews_come_one_at_a_time() -> None:
    record = GameRecord("casual", seed=2, moves=["T3-T0"])
    seen: list[tuple[int, int]] = []
    marks = analyse(record, bot=TreeSearchBot(seed=1, playouts=30), progress=lambda done, total: seen.append((done, total)))
    assert seen == [(m.index + 1, 1) for m in marks]
    assert tuple(reviews(record, bot=TreeSearchBot(seed=1, playouts=30))) == marks


def test_bad_arguments_and_illegal_records_are_refused() -> None:
    record = GameRecord("casual", seed=2, moves=["T3-T0", "R1-F0"])
    with pytest.raises(RecordError, match="illegal move R1-F0"):
        analyse(record, bot=TreeSearchBot(seed=1, playouts=20))
    with pytest.raises(TypeError, match="GameRecord"):
        analyse("casual")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="TreeSearchBot"):
        analyse(GameRecord("casual", seed=1), bot="strong")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="threshold"):
        analyse(GameRecord("casual", seed=1), threshold=2)


def test_a_review_without_a_mistake_has_no_note() -> None:
    move = legal_moves(new_game("casual", seed=1))[0]
    review = Review(0, 0, move, move, 0.5, 0.5, False)
    assert review.note == "" and review.cost == 0.0 and review.cost_in_points == 0.0
