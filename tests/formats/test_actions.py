"""The action numbering: fixed forever, one index per move, masks that match legal_moves."""

from __future__ import annotations

import hashlib
import random

import pytest

from crapette import (
    NUM_ACTIONS,
    Draw,
    EndTurn,
    MoveStack,
    Pass,
    Pile,
    Play,
    action_to_move,
    apply_move,
    legal_action_mask,
    legal_actions,
    legal_moves,
    move_to_action,
    new_game,
    parse_move,
)
from crapette._core.moves import PLAYS, STACKS

# Changing any of these breaks every trained policy: the numbering is part of the API.
GOLDEN_SHA256 = "8cb2c3c42479e2ea42c757fb3fd2d333bf972dc91bef60c3707e512c98281e22"
GOLDEN_ENTRIES = {
    0: "T0-F0",
    18: "T0-W1",
    19: "T1-F0",
    151: "T7-W1",
    152: "R0-F0",
    155: "R0-F3",
    170: "R0-W1",
    171: "R1-F0",
    189: "R1-W1",
    190: "W0-F0",
    208: "W0-W1",
    209: "W1-F0",
    227: "W1-W0",
    228: "T0-T1x2",
    239: "T0-T1x13",
    240: "T0-T2x2",
    899: "T7-T6x13",
    900: "draw",
    901: "end",
    902: "pass",
}


def test_action_table_is_pinned_by_its_hash() -> None:
    table = "\n".join(str(action_to_move(i)) for i in range(NUM_ACTIONS))
    assert hashlib.sha256(table.encode()).hexdigest() == GOLDEN_SHA256


@pytest.mark.parametrize(("index", "text"), sorted(GOLDEN_ENTRIES.items()))
def test_action_table_golden_entries(index: int, text: str) -> None:
    assert str(action_to_move(index)) == text
    assert move_to_action(parse_move(text)) == index


def test_there_are_903_actions_plays_then_stacks_then_draw_end_pass() -> None:
    assert NUM_ACTIONS == 903
    kinds = [type(action_to_move(i)) for i in range(NUM_ACTIONS)]
    assert kinds[:228] == [Play] * 228
    assert kinds[228:900] == [MoveStack] * 672
    assert kinds[900:] == [Draw, EndTurn, Pass]


def test_every_move_has_exactly_one_action() -> None:
    moves = [p for row in PLAYS for p in row if p is not None] + list(STACKS.values()) + [Draw(), EndTurn(), Pass()]
    indices = [move_to_action(m) for m in moves]
    assert sorted(indices) == list(range(NUM_ACTIONS))
    for move, index in zip(moves, indices):
        assert action_to_move(index) is move


def test_stack_index_formula_from_the_docs() -> None:
    for s in range(8):
        for t in range(8):
            if s == t:
                continue
            for count in range(2, 14):
                other = t if t < s else t - 1
                move = MoveStack(Pile.tableau(s), Pile.tableau(t), count)
                assert move_to_action(move) == 228 + (7 * s + other) * 12 + count - 2


def test_mask_and_legal_actions_match_legal_moves_in_random_games() -> None:
    for rules in ("casual", "classic"):
        for seed in range(3):
            rng = random.Random(seed)
            state = new_game(rules, seed)
            for _ in range(400):
                mask = legal_action_mask(state)
                actions = legal_actions(state)
                assert len(mask) == NUM_ACTIONS
                assert [i for i, ok in enumerate(mask) if ok] == sorted(actions)
                assert tuple(action_to_move(i) for i in actions) == legal_moves(state)
                if state.is_over:
                    break
                state = apply_move(state, action_to_move(rng.choice(actions)))


def test_mask_of_a_finished_game_is_all_false() -> None:
    rng = random.Random(1)
    state = new_game("casual", 1)
    while not state.is_over:
        state = apply_move(state, rng.choice(legal_moves(state)))
    assert not any(legal_action_mask(state))
    assert legal_actions(state) == ()


class NumpyLikeInt:
    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value


def test_action_to_move_accepts_any_integer_type() -> None:
    assert action_to_move(NumpyLikeInt(900)) is Draw()  # type: ignore[arg-type]


@pytest.mark.parametrize("index", [-1, 903, 10**20])
def test_action_out_of_range_raises_value_error(index: int) -> None:
    with pytest.raises(ValueError, match="action index must be 0 to 902"):
        action_to_move(index)


@pytest.mark.parametrize("index", [True, 1.0, "3", None])
def test_action_that_is_not_an_integer_raises_type_error(index: object) -> None:
    with pytest.raises(TypeError):
        action_to_move(index)  # type: ignore[arg-type]


@pytest.mark.parametrize("move", ["R0-F3", 3, None])
def test_move_to_action_refuses_what_is_not_a_move(move: object) -> None:
    with pytest.raises(TypeError, match="expects a Move"):
        move_to_action(move)  # type: ignore[arg-type]
