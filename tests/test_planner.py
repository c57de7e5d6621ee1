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


# Bounds: memory whatever the budget, time when asked ---------------------------------------------


class _Token:
    """A stand-in for a dealt world: only how many are alive at once is counted."""


@pytest.fixture()
def counted_deals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Deals become tokens (and playouts cheap): the list gets how many deals are alive at each new deal."""
    import weakref

    from crapette import _planner

    alive: weakref.WeakSet[_Token] = weakref.WeakSet()
    counts: list[int] = []
    real = _planner._Dealer

    class Dealer(real):  # type: ignore[misc, valid-type]
        def deal(self, rng: random.Random | None) -> object:
            if rng is None:
                return super().deal(None)  # the one world the turn's positions are listed in
            token = _Token()
            alive.add(token)
            counts.append(len(alive))
            return token

    monkeypatch.setattr(_planner, "_Dealer", Dealer)
    monkeypatch.setattr(_planner, "_try", lambda deal, path, player: float(len(path) % 3))
    return counts


def test_a_plans_memory_does_not_grow_with_its_playouts(counted_deals: list[int]) -> None:
    state = new_game("classic", seed=0)
    PlanningBot(seed=1, playouts=100_000).plan(view(state))
    path_values(view(state), segment_paths(view(state))[:3], 50_000)
    assert len(counted_deals) > 60_000 and max(counted_deals) <= 2


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: PlanningBot(playouts=1_000_001), "playouts must be from 0 to 1000000"),
        (lambda: PlanningBot(playouts=10**30), "playouts must be from 0 to 1000000"),
        (lambda: SearchBot(budget=1_000_001), "budget must be from 1 to 1000000"),
        (lambda: PlanningBot(seconds=0), "seconds must be above 0 and at most 3600"),
        (lambda: PlanningBot(seconds=float("nan")), "seconds must be above 0 and at most 3600"),
        (lambda: PlanningBot(seconds=3601), "seconds must be above 0 and at most 3600"),
    ],
)
def test_every_budget_is_bounded(make: object, message: str) -> None:
    from crapette.bots import MAX_PLAYOUTS

    assert MAX_PLAYOUTS == 1_000_000
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


def test_a_tree_search_is_bounded_by_max_playouts_even_with_a_time_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    import warnings

    from crapette import _ismcts
    from crapette.bots import MAX_PLAYOUTS, TreeSearchBot

    with pytest.raises(ValueError, match="playouts must be from 1 to 1,000,000"):
        TreeSearchBot(playouts=MAX_PLAYOUTS + 1)
    monkeypatch.setattr(_ismcts, "MAX_PLAYOUTS", 30)
    monkeypatch.setattr(_ismcts.time, "perf_counter", lambda: 0.0)  # the clock never moves: only the cap stops it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        result = TreeSearchBot(seed=1, seconds=5).search(new_game("classic", seed=0), every_move=10**12)
    assert result.playouts == 30


def test_a_time_limit_stops_a_plan_with_the_best_it_has(monkeypatch: pytest.MonkeyPatch) -> None:
    from crapette import _planner

    clock = [0.0]
    tries = [0]

    def tick() -> float:
        clock[0] += 1.0  # each look at the clock: a second
        return clock[0]

    real_try = _planner._try

    def counted(deal: GameState, path: tuple[object, ...], player: int) -> float:
        tries[0] += 1
        return real_try(deal, path, player)  # type: ignore[arg-type]

    monkeypatch.setattr(_planner.time, "monotonic", tick)
    monkeypatch.setattr(_planner, "_try", counted)
    state = new_game("classic", seed=0)
    v = view(state)
    paths = segment_paths(v)
    bot = PlanningBot(seed=1, playouts=100_000, seconds=40)
    assert repr(bot) == "PlanningBot(seed=1, playouts=100000, seconds=40.0)"
    planned = bot.plan(v)
    assert tries[0] <= 40 and planned in paths  # stopped long before 100,000 playouts
    # Out of time while listing the ways out of the turn's positions: the best ranked of those seen.
    tries[0] = 0
    assert PlanningBot(seed=1, playouts=100_000, seconds=2).plan(v) in paths and tries[0] <= 2
    assert pickle.loads(pickle.dumps(bot)) == bot and bot != PlanningBot(seed=1, playouts=100_000)
