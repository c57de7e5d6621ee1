"""crapette.selfplay: games of one policy against itself, and positions played on to their end.

The kernel and the Python engine play the same games (tests/kernel/test_kernel.py
compares them on self-play in depth); these tests check what the functions promise.
"""

from __future__ import annotations

from typing import Any

import pytest
from kernel_sweep import pure

from crapette import EndReason, GameState, apply_move, legal_moves, new_game
from crapette.selfplay import KEEP, POLICIES, SelfPlayGame, play_out, self_play

# self_play --------------------------------------------------------------------------------------


def test_self_play_keeps_the_first_position_of_every_turn() -> None:
    game = self_play("classic", 1, seed=9, max_moves=300)[0]
    players = [state.current_player for state in game.states]
    assert all(a != b for a, b in zip(players, players[1:]))
    assert game.outcome is not None or game.moves == 300


def test_self_play_with_endings_of_ones_own_plays_in_python() -> None:
    games = self_play("classic(endings=no-progress:3)", 2, seed=1, policy="fast")
    assert all(game.outcome is not None for game in games)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"games": -1}, ValueError),
        ({"games": 1, "policy": "smart"}, ValueError),
        ({"games": 1, "keep": "all"}, ValueError),
        ({"games": 1, "epsilon": 1.5}, ValueError),
        ({"games": 1, "epsilon": "0.1"}, ValueError),
        ({"games": 2, "seed": 2**64 - 1}, ValueError),
        ({"games": 1, "max_moves": -3}, ValueError),
        ({"games": "2"}, TypeError),
    ],
)
def test_self_play_refuses_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        self_play("classic", **kwargs)


def test_self_play_deals_consecutive_seeds_and_is_a_function_of_its_arguments() -> None:
    games = self_play("casual", 3, seed=20, policy="random", max_moves=30)
    assert [game.seed for game in games] == [20, 21, 22]
    assert games == self_play("casual", 3, seed=20, policy="random", max_moves=30)
    assert self_play("casual", 1, seed=21, policy="random", max_moves=30)[0] == games[1]  # a game depends on its seed
    fast = self_play("casual", 3, seed=20, policy="fast", keep="moves", max_moves=30)
    assert fast != self_play("casual", 3, seed=20, policy="fast", keep="moves", epsilon=0.5, max_moves=30)
    assert [game.states[0] for game in games] == [new_game("casual", seed) for seed in (20, 21, 22)]
    assert self_play("casual", 0) == []


def test_keep_moves_keeps_every_position_before_a_move_each_reached_by_a_legal_move() -> None:
    game = self_play("classic", 1, seed=5, policy="fast", keep="moves", max_moves=40)[0]
    assert len(game.states) == game.moves == 40 and game.outcome is None
    for before, after in zip(game.states, game.states[1:]):
        assert after in [apply_move(before, move) for move in legal_moves(before)]


def test_a_game_played_to_its_end_has_an_outcome_and_keep_none_keeps_nothing() -> None:
    game = self_play("classic", 1, seed=3, keep="none")[0]
    assert game == SelfPlayGame(3, (), game.outcome, game.moves)
    assert game.outcome is not None and game.outcome.reason == EndReason.EMPTIED and game.moves > 0


def test_the_policies_and_the_positions_kept_are_named() -> None:
    assert POLICIES == ("greedy", "fast", "random") and KEEP == ("turns", "moves", "none")
    with pytest.raises(ValueError, match="^unknown policy 'smart': expected one of greedy, fast, random$"):
        self_play("classic", 1, policy="smart")
    with pytest.raises(ValueError, match="^keep must be one of turns, moves, none, got 'all'$"):
        self_play("classic", 1, keep="all")
    with pytest.raises(ValueError, match="^epsilon must be a number from 0 to 1, got True$"):
        self_play("classic", 1, epsilon=True)
    with pytest.raises(TypeError):
        self_play(3, 1)  # type: ignore[arg-type]


# play_out ------------------------------------------------------------------------------------------


def test_play_out_plays_each_position_on_from_its_own_seed() -> None:
    start = self_play("classic", 1, seed=8, keep="moves", max_moves=30)[0].states[-1]
    ends = play_out([start, start, start], seed=40, policy="random", max_moves=25)
    assert [game.seed for game in ends] == [40, 41, 42]
    assert all(game.states == () and (game.outcome is not None or game.moves == 25) for game in ends)
    assert ends[1] == play_out([start], seed=41, policy="random", max_moves=25)[0]
    assert play_out([]) == []


def test_play_out_gives_the_same_games_in_both_engines() -> None:
    starts = [new_game("casual", seed) for seed in (1, 2)]
    games = play_out(starts, seed=3, policy="greedy", epsilon=0.1, max_moves=200)
    with pure():
        assert play_out(starts, seed=3, policy="greedy", epsilon=0.1, max_moves=200) == games


def test_play_out_of_a_finished_game_plays_nothing() -> None:
    over = self_play("classic", 1, seed=3, keep="moves")[0]
    last = over.states[-1]
    finished = next(after for move in legal_moves(last) if (after := apply_move(last, move)).is_over)
    assert play_out([finished]) == [SelfPlayGame(0, (), finished.outcome, 0)]


@pytest.mark.parametrize(
    ("states", "kwargs", "error", "message"),
    [
        (["not a state"], {}, TypeError, "^play_out\\(\\) expects GameStates, got str$"),
        ([None], {}, TypeError, "got NoneType"),
        ([], {"policy": "smart"}, ValueError, "unknown policy 'smart'"),
        ([], {"epsilon": -0.5}, ValueError, "epsilon must be a number from 0 to 1"),
        ([], {"max_moves": -1}, ValueError, "max_moves"),
        ([], {"seed": -1}, ValueError, "seed"),
        (["start", "start"], {"seed": 2**64 - 1}, ValueError, "seed"),
    ],
)
def test_play_out_refuses_bad_arguments(states: list[Any], kwargs: dict[str, Any], error: type, message: str) -> None:
    start: GameState = new_game("casual", 1)
    with pytest.raises(error, match=message):
        play_out([start if s == "start" else s for s in states], **kwargs)
