"""The differential check of the compiled kernel against the pure-Python engine, position by position.

Shared by tests/kernel/test_kernel.py (a small seeded sweep, and the Hypothesis tests)
and benchmarks/kernel_sweep.py (a sweep of a million positions and more).
:func:`check_position` compares everything the kernel does for one state:
the legal moves (order included), the state after each legal move (every
field, and the outcome), the moves that leave a turn end, the greedy scores
and moves, the evaluation, and optionally the turn ends and the playouts.
:func:`sweep` walks random games of random rule sets (``revisits=False``
drawn too) and checks each position it meets.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

from crapette import Build, FirstPlayer, GameState, RuleSet, Scoring, apply_move, kernel, legal_moves, new_game
from crapette import registered, reveals, turn_ends
from crapette._core.engine import python_apply, python_moves
from crapette._core.explain import explain_illegal
from crapette._play.greedy import fast_move, greedy_scores
from crapette.evaluation import CardCount, Playout
from crapette._core.moves import Draw, EndTurn, Move, Pass
from crapette._core.turns import python_turn_ends
from crapette.variants import NoProgress


def reference_legal_moves(state: GameState) -> tuple[Move, ...]:
    """The legal moves of ``state`` by the Python engine alone, worked out afresh."""
    return python_moves(state, state._engine)


def reference_apply_move(state: GameState, move: Move) -> GameState:
    """The state after ``move`` by the Python engine alone."""
    if move not in python_moves(state, state._engine):
        raise ValueError(f"illegal move {move}: {explain_illegal(state, move)}")
    return python_apply(state, state._engine, move)


_CARDS, _PLAYOUT = CardCount(), Playout()


def evaluate(state: GameState, player: int) -> float:
    return _CARDS.evaluate(state, player)


def playout(state: GameState, player: int) -> float:
    return _PLAYOUT.evaluate(state, player)

BUILDS = sorted(registered(Build))
FIRST_PLAYERS = sorted(registered(FirstPlayer))


@contextlib.contextmanager
def pure() -> Iterator[None]:
    """The pure-Python engine for the duration (the kernel is switched back on after, if available)."""
    kernel.set_enabled(False)
    try:
        yield
    finally:
        kernel.set_enabled(True)


def random_rules(rng: random.Random) -> RuleSet:
    """A rule set with every option drawn (a few with a further ending, which the kernel hands to Python)."""
    own, opponent = rng.choice(BUILDS), rng.choice(BUILDS)
    scoring = rng.choice(
        [None, Scoring(), Scoring(rng.randint(0, 100), rng.randint(0, 5), rng.randint(0, 5), rng.randint(0, 5), 150)]
    )
    return RuleSet(
        reserve_size=rng.choice([rng.randint(1, 48), rng.randint(1, 4), 12, 13]),
        first_player=rng.choice(FIRST_PLAYERS),
        tableau_sources=rng.choice(["own", "all"]),
        own_tableau_build=own,
        opponent_tableau_build=opponent,
        load_targets=tuple(t for t in ("reserve", "waste") if rng.random() < 0.5),
        waste_play=rng.choice(["always", "drawn"]),
        end_turn=rng.random() < 0.5,
        foundation_plays=rng.choice(["optional", "compulsory"]),
        fill_empty_first=rng.random() < 0.5,
        stack_moves=rng.random() < 0.6 and "down-alternating" in (own, opponent),
        move_limit=rng.choice([None, None, rng.randint(1, 2000), rng.randint(1, 100)]),
        stalemate=rng.random() < 0.5,
        scoring=scoring,
        load_build=rng.choice(BUILDS),
        drawn_first=rng.random() < 0.3,
        stack_limit=rng.choice(["empty-piles", "unlimited"]),
        revisits=rng.random() < 0.5,
        endings=(NoProgress(rng.randint(1, 10)),) if rng.random() < 0.05 else (),
    )


def _same_state(a: GameState, b: GameState, where: Any) -> None:
    assert a == b, (where, str(a), str(b))
    assert a.outcome == b.outcome, (where, a.outcome, b.outcome)


def check_position(state: GameState, *, ends: bool = False, playouts: bool = False, limit: int = 300) -> int:
    """Check that the kernel and the Python engine agree on ``state``; returns the number of states compared."""
    where = str(state)
    moves = legal_moves(state)
    assert moves == reference_legal_moves(state), (where, moves, reference_legal_moves(state))
    compared = 1
    for move in moves:
        _same_state(apply_move(state, move), reference_apply_move(state, move), (where, move))
        compared += 1
    exits = [m for m in moves if type(m) in (Draw, EndTurn, Pass) or reveals(state, m)]
    found = kernel.exits(state)
    assert found is None or list(found) == exits, (where, found, exits)
    kernel_values: list[Any] = []
    if not state.is_over:
        kernel_values = [fast_move(state), greedy_scores(state, moves), greedy_scores(state, moves, False)]
    kernel_values += [evaluate(state, 0), evaluate(state, 1)]
    if playouts and not state.is_over:
        kernel_values += [playout(state, 0), playout(state, 1)]
    kernel_ends = turn_ends(state, limit=limit) if ends else None
    with pure():
        python_values: list[Any] = []
        if not state.is_over:
            python_values = [fast_move(state), greedy_scores(state, moves), greedy_scores(state, moves, False)]
        python_values += [evaluate(state, 0), evaluate(state, 1)]
        if playouts and not state.is_over:
            python_values += [playout(state, 0), playout(state, 1)]
        python_ends = python_turn_ends(state, limit) if ends else None
    assert kernel_values == python_values, (where, kernel_values, python_values)
    if kernel_ends is not None and python_ends is not None:
        assert kernel_ends.complete == python_ends.complete, where
        assert [e.moves for e in kernel_ends] == [e.moves for e in python_ends], where
        for k, p in zip(kernel_ends, python_ends):
            _same_state(k.state, p.state, (where, k.moves))
        compared += len(kernel_ends)
    return compared


def sweep(seed: int, rule_sets: int, moves: int, *, ends_every: int = 0, playouts_every: int = 0) -> tuple[int, int]:
    """Random games of ``rule_sets`` random rule sets, ``moves`` random moves each, every position checked.

    Returns (positions, states compared).
    """
    rng = random.Random(seed)
    positions = compared = 0
    for _ in range(rule_sets):
        rules = random_rules(rng)
        state = new_game(rules, seed=rng.randrange(2**64))
        for n in range(moves + 1):
            compared += check_position(
                state,
                ends=bool(ends_every) and n % ends_every == 0,
                playouts=bool(playouts_every) and n % playouts_every == 0,
            )
            positions += 1
            legal = legal_moves(state)
            if not legal:
                break
            state = apply_move(state, rng.choice(legal))
    return positions, compared
