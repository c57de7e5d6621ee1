"""Turns: which moves reveal a face-down card, and the positions a turn can reach before one does.

Within a turn a player sees everything that decides their choice until a move
turns a face-down card face up: a Draw, or a play of the reserve's top card
that uncovers the next one. :func:`reveals` says which moves do.
"""

from __future__ import annotations

from ._moves import Draw, Move, Play
from ._state import R0, GameState

__all__ = ["reveals"]


def reveals(state: GameState, move: Move) -> bool:
    """True if ``move`` turns a face-down card face up in ``state``.

    A Draw always does (the top card of the hand, or of the waste turned over
    to form a new hand). A play of the reserve's top card does when a card
    lies under it. No other move does: the cards of the waste, the tableau and
    the foundations are face up. Undoing a move that revealed a card would let
    a player see it again before deciding, so frontends undo only moves for
    which this is False (see :meth:`crapette.Game.undo`).

    >>> from crapette import new_game, parse_move
    >>> state = new_game("classic", seed=7)
    >>> reveals(state, parse_move("draw")), reveals(state, parse_move("T0-T1"))
    (True, False)

    The move need not be legal: only what it would turn over is looked at.
    """
    cls = type(move)
    if cls is Draw:
        return True
    if cls is Play:
        source = move.source.id  # type: ignore[attr-defined]
        return source == R0 + state.current_player and len(state.piles[source]) > 1
    return False
