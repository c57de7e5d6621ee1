"""A fixed numbering of every possible move, for learning systems.

The table never changes between releases (a golden test pins it): a trained
policy keeps its meaning. It holds every move that can be written, legal
under some rules or not:

=============  ======================================================
0 - 227        the 228 :class:`~crapette.Play` moves, by source pile
               (T0-T7, R0, R1, W0, W1: 19 targets each, so source T0
               is 0-18, T1 19-37, ..., R0 152-170, R1 171-189, W0
               190-208, W1 209-227), then target pile (F0-F7, T0-T7,
               R0, R1, W0, W1, leaving out the source itself)
228 - 899      the 672 :class:`~crapette.MoveStack` moves, by source
               tableau pile, target tableau pile, then count (2-13):
               ``228 + (7 * source + target') * 12 + count - 2`` where
               ``target'`` is the target's index among the 7 other piles
900            :class:`~crapette.Draw`
901            :class:`~crapette.EndTurn`
902            :class:`~crapette.Pass`
=============  ======================================================
"""

from __future__ import annotations

import operator
from typing import SupportsIndex

from .._core.engine import legal_moves
from .._core.messages import brief
from .._core.moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Move
from .._core.state import GameState

__all__ = [
    "NUM_ACTIONS",
    "action_to_move",
    "legal_action_mask",
    "legal_actions",
    "move_to_action",
]


def _make_table() -> tuple[Move, ...]:
    table: list[Move] = [play for row in PLAYS for play in row if play is not None]
    table += [STACKS[key] for key in sorted(STACKS)]
    table += [DRAW, END_TURN, PASS]
    return tuple(table)


_TABLE: tuple[Move, ...] = _make_table()
_INDEX: dict[Move, int] = {move: i for i, move in enumerate(_TABLE)}

#: The number of actions: every move has an index ``0 <= i < NUM_ACTIONS`` (903).
NUM_ACTIONS: int = len(_TABLE)


def move_to_action(move: Move) -> int:
    """The action index of ``move``.

    >>> from crapette import parse_move
    >>> move_to_action(parse_move("R0-F3")), move_to_action(parse_move("draw"))
    (155, 900)

    :raises TypeError: if ``move`` is not a :class:`~crapette.Move`.
    """
    index = _INDEX.get(move) if isinstance(move, Move) else None
    if index is None:
        raise TypeError(f"move_to_action() expects a Move, got {type(move).__name__} {brief(move)}")
    return index


def action_to_move(index: SupportsIndex) -> Move:
    """The move with action index ``index`` (any integer type, numpy's included).

    >>> action_to_move(155), action_to_move(902)
    (parse_move('R0-F3'), parse_move('pass'))
    >>> action_to_move(903)
    Traceback (most recent call last):
    ...
    ValueError: action index must be 0 to 902, got 903

    :raises ValueError: if ``index`` is out of range.
    :raises TypeError: if ``index`` is not an integer (a bool is not).
    """
    if isinstance(index, bool):
        raise TypeError("action_to_move() expects an integer, got bool")
    i = operator.index(index)
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action index must be 0 to {NUM_ACTIONS - 1}, got {i}")
    return _TABLE[i]


def legal_actions(state: GameState) -> tuple[int, ...]:
    """The action indices of the legal moves of ``state``, in :func:`~crapette.legal_moves` order.

    >>> from crapette import new_game
    >>> legal_actions(new_game("casual", seed=1))
    (27, 900)
    """
    return tuple([_INDEX[m] for m in legal_moves(state)])


def legal_action_mask(state: GameState) -> tuple[bool, ...]:
    """``NUM_ACTIONS`` booleans: True at the index of each legal move of ``state``.

    A finished game has no legal move: the mask is all False.

    >>> from crapette import new_game
    >>> mask = legal_action_mask(new_game("casual", seed=1))
    >>> len(mask), sum(mask), mask[900]
    (903, 2, True)
    """
    mask = [False] * NUM_ACTIONS
    for move in legal_moves(state):
        mask[_INDEX[move]] = True
    return tuple(mask)
