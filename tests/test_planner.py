"""The planning bot: whole turn segments, never a position twice in a turn."""

from __future__ import annotations

import pickle
import random

import pytest

from crapette import GameState, apply_move, legal_moves, new_game, reveals, view
from crapette.bots import GreedyBot, PlanningBot, SearchBot, make_bot
from crapette._planner import PLANNING_LEVELS, path_values, segment_paths
from test_bots import permute_hidden


def _position(state: GameState) -> tuple[object, ...]:
    return (state.piles, state.current_player, state.drawn, state.exhausted, state.played)


def _play(rules: str, seed: int, bots: tuple[object, object], max_moves: int) -> list[GameState]:
    state = new_game(rules, seed=seed)
    states = [state]
    while not state.is_over and state.move_count < max_moves:
        move = bots[state.current_player].choose(state)  # type: ignore[attr-defined]
        assert move in legal_moves(state)
        state = apply_move(state, move)
        states.append(state)
    return states


@pytest.mark.parametrize("bot", ["plan", "search"])
@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_no_search_bot_returns_to_a_position_within_a_turn(rules: str, bot: str) -> None:
    for seed in range(2):
        searcher = PlanningBot(seed, playouts=40) if bot == "plan" else SearchBot(seed, budget=40)
        bots = (searcher, GreedyBot())
        states = _play(rules, seed, bots, 250)
        segment: set[tuple[object, ...]] = set()
        for before, after in zip(states, states[1:]):
            if before.current_player != 0:
                segment = set()
                continue
            segment.add(_position(before))
            if after.current_player != 0:
                segment = set()
                continue
            assert _position(after) not in segment, f"the bot came back to a position at move {after.move_count}"


def test_planning_bot_is_reproducible() -> None:
    first = _play("classic", 4, (PlanningBot(2, playouts=40), PlanningBot(3, playouts=40)), 150)
    again = _play("classic", 4, (PlanningBot(2, playouts=40), PlanningBot(3, playouts=40)), 150)
    assert first == again


def test_planning_bot_decides_from_the_public_view_only() -> None:
    rng = random.Random(1)
    states = _play("classic", 6, (GreedyBot(), GreedyBot()), 120)[::10]
    for state in states:
        if state.is_over:
            continue
        choice = PlanningBot(5, playouts=40).choose(state)
        assert PlanningBot(5, playouts=40).choose(permute_hidden(state, rng)) is choice


def test_planning_bot_without_playouts_goes_by_its_evaluation() -> None:
    states = _play("classic", 8, (PlanningBot(0, playouts=0), GreedyBot()), 200)
    assert len(states) > 50


def test_planning_bot_pickles_with_its_plan_and_compares_by_settings() -> None:
    bot = PlanningBot(3, playouts=50)
    bot.choose(new_game("classic", seed=2))
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and hash(copy) == hash(bot) and copy._plan == bot._plan
    assert repr(bot) == "PlanningBot(seed=3, playouts=50)"


def test_planning_bot_levels_grow() -> None:
    levels = list(PLANNING_LEVELS.values())
    assert levels == sorted(levels) and list(PLANNING_LEVELS) == ["easy", "normal", "strong"]
    assert make_bot("search:easy", seed=1) == PlanningBot(1, PLANNING_LEVELS["easy"])
    with pytest.raises(ValueError, match="unknown level 'hard'"):
        PlanningBot.at_level("hard")


@pytest.mark.parametrize("bad", [-1, 2.0, "10", True])
def test_planning_bot_refuses_a_bad_budget(bad: object) -> None:
    with pytest.raises((TypeError, ValueError), match="playouts"):
        PlanningBot(0, playouts=bad)  # type: ignore[arg-type]


def test_segment_paths_end_with_one_move_that_leaves_the_segment() -> None:
    state = new_game("classic", seed=11)
    paths = segment_paths(view(state))
    assert paths
    for path in paths:
        here = state
        for move in path[:-1]:
            assert not reveals(here, move)
            here = apply_move(here, move)
            assert here.current_player == state.current_player
        assert path[-1] in legal_moves(here)
    values = path_values(view(state), paths[:5], worlds=3, seed=1)
    assert len(values) == 5 and values == path_values(view(state), paths[:5], worlds=3, seed=1)
