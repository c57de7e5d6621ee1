"""The differential check of the compiled kernel against the pure-Python engine, position by position.

Shared by tests/kernel/test_kernel.py (a small seeded sweep, and the Hypothesis tests)
and benchmarks/kernel_sweep.py (a sweep of a million positions and more).
:func:`check_position` compares everything the kernel does for one state:
the legal moves (order included), the state after each legal move (every
field, and the outcome), the moves that leave a turn end, the greedy scores
and moves, the evaluation, and optionally the turn ends and the playouts.
:func:`sweep` walks random games of random rule sets (every option of
``RuleSet.options()`` drawn, so a new option is swept as soon as it is declared)
and checks each position it meets.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from typing import Any

import attrs

from crapette import GameState, Option, RuleSet, apply_move, kernel, legal_moves, new_game
from crapette import registered, reveals, turn_ends
from crapette._core.engine import python_apply, python_moves
from crapette._core.explain import explain_illegal
from crapette._play.greedy import greedy_move, greedy_scores
from crapette.evaluation import CardCount, Playout, careful_move
from crapette._core.moves import Draw, EndTurn, Move, Pass
from crapette._core.options import Choice, Count, Flag, Limit, OptionalPart, Part, Parts, Subset
from crapette._core.turns import python_turn_ends
from crapette._core.shapes import pile_groups
from crapette.bots.planner import _Keys, _stock_ends


def _keys(state: GameState) -> _Keys:
    return _Keys(pile_groups(state.rules))
import crapette.variants  # noqa: F401  (its parts are registered, and drawn)


def reference_legal_moves(state: GameState) -> tuple[Move, ...]:
    """The legal moves of ``state`` by the Python engine alone, worked out afresh."""
    return python_moves(state, state._engine)


def reference_apply_move(state: GameState, move: Move) -> GameState:
    """The state after ``move`` by the Python engine alone."""
    if move not in python_moves(state, state._engine):
        raise ValueError(f"illegal move {move}: {explain_illegal(state, move)}")
    return python_apply(state, state._engine, move)


_CARDS, _PLAYOUT = CardCount(), Playout()
_CAREFUL = Playout(policy=careful_move)


def evaluate(state: GameState, player: int) -> float:
    return _CARDS.evaluate(state, player)


def playout(state: GameState, player: int) -> float:
    return _PLAYOUT.evaluate(state, player)


def careful_playout(state: GameState, player: int) -> float:
    return _CAREFUL.evaluate(state, player)

@contextlib.contextmanager
def pure() -> Iterator[None]:
    """The pure-Python engine for the duration (the kernel is switched back on after, if available)."""
    kernel.set_enabled(False)
    try:
        yield
    finally:
        kernel.set_enabled(True)


def _part_kind(kind: Any) -> Any:
    return kind.part if isinstance(kind, (OptionalPart, Parts)) else kind


#: Per option that takes rule parts: the part classes registered when this module was imported (crapette's
#: own; parts that tests register later are theirs to draw), those the option excludes left out.
_PARTS = {
    o.name: [
        cls for _, cls in sorted(registered(_part_kind(o._kind).base).items())
        if not issubclass(cls, _part_kind(o._kind).exclude)
    ]
    for o in RuleSet.options()
    if isinstance(_part_kind(o._kind), Part)
}


def _part(option: Option, rng: random.Random) -> Any:
    """A registered part for ``option``: its defaults, or (half the time) its int fields drawn small."""
    part = rng.choice(_PARTS[option.name])()
    if attrs.has(type(part)) and rng.random() < 0.5:
        ints = {f.name: getattr(part, f.name) for f in attrs.fields(type(part)) if type(getattr(part, f.name)) is int}
        part = attrs.evolve(part, **{name: rng.randint(0, max(5, 2 * value)) for name, value in ints.items()})
    return part


def _draw(option: Option, rng: random.Random) -> Any:
    """A value of ``option``, by its kind (the defaults and small numbers drawn often)."""
    kind = option._kind
    if isinstance(kind, Flag):
        return rng.random() < 0.5
    if isinstance(kind, Count):
        return rng.choice([rng.randint(kind.low, kind.example_high), rng.randint(kind.low, kind.low + 3),
                           option.default, option.default + 1])
    if isinstance(kind, Limit):
        return rng.choice([None, None, rng.randint(kind.count.low, kind.count.example_high),
                           rng.randint(kind.count.low, 100)])
    if isinstance(kind, Choice):
        return rng.choice(list(kind.type))
    if isinstance(kind, Subset):
        return tuple(member for member in kind.choice.type if rng.random() < 0.5)
    if isinstance(kind, Part):
        return _part(option, rng)
    if isinstance(kind, OptionalPart):
        return None if rng.random() < 1 / 3 else _part(option, rng)
    if isinstance(kind, Parts):
        return (_part(option, rng),) if rng.random() < 0.05 else ()
    raise AssertionError(f"random_rules cannot draw option {option.name}: teach it its kind {type(kind).__name__}")


def random_rules(rng: random.Random) -> RuleSet:
    """A rule set with every option of :meth:`RuleSet.options` drawn (a few with a further ending, which the
    kernel hands to Python); a combination the rules refuse is drawn again."""
    while True:
        try:
            return RuleSet(**{option.name: _draw(option, rng) for option in RuleSet.options()})
        except (ValueError, TypeError):   # InvalidRulesError, RulePartError: stack moves without a run to move, ...
            continue


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
        kernel_values = [greedy_move(state), greedy_scores(state, moves), greedy_scores(state, moves, False)]
    kernel_values += [evaluate(state, 0), evaluate(state, 1)]
    if playouts and not state.is_over:
        kernel_values += [playout(state, 0), playout(state, 1), careful_playout(state, 0), careful_playout(state, 1)]
    kernel_ends = turn_ends(state, limit=limit) if ends else None
    stock = [_stock_ends(state, state.current_player, most, None, _keys(state), limit) for most in (1, 5, 40)] if ends else []
    with pure():
        python_values: list[Any] = []
        if not state.is_over:
            python_values = [greedy_move(state), greedy_scores(state, moves), greedy_scores(state, moves, False)]
        python_values += [evaluate(state, 0), evaluate(state, 1)]
        if playouts and not state.is_over:
            python_values += [playout(state, 0), playout(state, 1), careful_playout(state, 0), careful_playout(state, 1)]
        python_ends = python_turn_ends(state, limit) if ends else None
        python_stock = [
            _stock_ends(state, state.current_player, most, None, _keys(state), limit) for most in (1, 5, 40)
        ] if ends else []
    assert kernel_values == python_values, (where, kernel_values, python_values)
    # The planning bot's stock ranking of the turn ends, the best of them.
    for (k_best, k_complete), (p_best, p_complete) in zip(stock, python_stock):
        assert k_complete == p_complete, where
        assert [(e.moves, tuple(x), *rest) for e, x, *rest in k_best] == [(e.moves, tuple(x), *rest) for e, x, *rest in p_best], where
        for (k, *_), (p, *_) in zip(k_best, p_best):
            _same_state(k.state, p.state, (where, k.moves))
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
