"""crapette.evaluation.Rollout: greedy play to the end, the same in the kernel and in Python."""

from __future__ import annotations

import pytest

from crapette import apply_move, kernel, new_game
from crapette.bots import GreedyBot, RandomBot
from crapette.evaluation import Rollout

needs_kernel = pytest.mark.skipif(not kernel.AVAILABLE, reason=f"no compiled kernel: {kernel.REASON}")


def _positions(rules: str, seed: int, count: int) -> list:
    state, found = new_game(rules, seed=seed), []
    bots = (GreedyBot(), RandomBot(seed=seed))
    while not state.is_over and len(found) < count:
        found.append(state)
        state = apply_move(state, bots[state.current_player].choose(state))
    return found + [state]


@needs_kernel
@pytest.mark.parametrize("rules", ["classic", "casual", "classic(revisits=false)"])
def test_a_rollout_gives_the_same_result_in_the_kernel_and_in_python(rules: str) -> None:
    positions = _positions(rules, 3, 25)
    with_kernel = [Rollout().evaluate(state, player) for state in positions for player in (0, 1)]
    kernel.set_enabled(False)
    try:
        in_python = [Rollout().evaluate(state, player) for state in positions for player in (0, 1)]
    finally:
        kernel.set_enabled(True)
    assert with_kernel == in_python
    assert set(with_kernel) <= {0.0, 0.5, 1.0} and len(set(with_kernel)) > 1


def test_a_rollout_is_worth_one_to_the_winner_and_nothing_to_the_loser() -> None:
    end = _positions("classic", 5, 10_000)[-1]
    assert end.is_over and end.outcome is not None and end.outcome.winner is not None
    winner = end.outcome.winner
    assert Rollout().evaluate(end, winner) == 1.0 and Rollout().evaluate(end, 1 - winner) == 0.0
    state = new_game("classic", seed=7)
    assert Rollout().evaluate(state, 0) + Rollout().evaluate(state, 1) == 1.0
