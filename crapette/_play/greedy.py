"""The greedy heuristic: the score of each move, the fast policy that playouts play on with, and "does a move open something".

:class:`~crapette.bots.GreedyBot` plays the move it scores highest; the
playouts of the searches (:class:`~crapette.evaluation.Playout`) play on with
:func:`greedy_move` (public as :func:`crapette.evaluation.greedy_move`), the same scores without looking ahead. Every move comes
from :func:`~crapette.legal_moves`: the heuristic only orders them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import kernel
from .._core import greedy_table as T
from .._core.engine import apply_move, legal_moves
from .._core.moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Draw, EndTurn, Move, Play
from .._core.piles import PileKind
from .._core.state import GameState

__all__ = ["FOUNDATION", "USELESS", "greedy_move", "greedy_choice", "greedy_scores", "opens"]

_F, _T, _R, _W = PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE

#: Scores of the greedy heuristic, by kind of move (higher is played first): see crapette._core.greedy_table.
FOUNDATION = T.FOUNDATION
_FOUNDATION_SOURCE = {_R: T.FOUNDATION_FROM_RESERVE, _W: T.FOUNDATION_FROM_WASTE, _T: T.FOUNDATION_FROM_TABLEAU}
_RESERVE_TO = {_R: T.RESERVE_TO_RESERVE, _W: T.RESERVE_TO_WASTE}
_RESERVE_TO_TABLEAU = T.RESERVE_TO_TABLEAU
_WASTE_TO = {_R: T.WASTE_TO_RESERVE, _W: T.WASTE_TO_WASTE}
_WASTE_TO_TABLEAU = T.WASTE_TO_TABLEAU
_TABLEAU_TO = {_R: T.TABLEAU_TO_RESERVE, _W: T.TABLEAU_TO_WASTE}
_OPENS_FOUNDATION = T.OPENS_FOUNDATION
_OPENS_RESERVE = T.OPENS_RESERVE
_OPENS_WASTE = T.OPENS_WASTE
#: The score of a move between tableau piles that opens nothing: below drawing.
USELESS = T.USELESS
_DRAW = T.DRAW
_END_TURN = T.END_TURN
_KEEP_EMPTY = T.KEEP_EMPTY


def greedy_scores(world: GameState, moves: Sequence[Move], lookahead: bool = True) -> list[int]:
    """The greedy heuristic's score of each move (see :class:`~crapette.bots.GreedyBot`).

    Without ``lookahead`` moves between tableau piles all score as useless
    (the fast policy of the playouts); with it, as :func:`opens` finds them.
    In the compiled kernel where it runs (the same scores).
    """
    found = kernel.greedy_scores(world, moves, lookahead)
    if found is not None:
        return found
    piles = world.piles
    scores = []
    for move in moves:
        cls = move.__class__
        if move.between_tableau:
            scores.append(opens(world, move) if lookahead else USELESS)
        elif cls is Play:
            source = move.source  # type: ignore[attr-defined]
            target = move.target  # type: ignore[attr-defined]
            skind, tkind = source.kind, target.kind
            if tkind is _F:
                scores.append(FOUNDATION + _FOUNDATION_SOURCE[skind])
                continue
            keep = _KEEP_EMPTY if piles[target.id] else 0
            if skind is _R:
                score = _RESERVE_TO.get(tkind, _RESERVE_TO_TABLEAU + keep)
            elif skind is _W:
                score = _WASTE_TO.get(tkind, _WASTE_TO_TABLEAU + keep)
            else:
                score = _TABLEAU_TO[tkind]
            scores.append(score)
        elif cls is Draw:
            scores.append(_DRAW)
        elif cls is EndTurn:
            scores.append(_END_TURN)
        else:
            scores.append(0)
    return scores


def opens(world: GameState, move: Move) -> int:
    """What a move between tableau piles opens for the next move: the one test of "does it open something".

    The score of the best new play it makes possible: a play to a foundation
    (350), from the reserve (340) or from the waste (240); :data:`USELESS`
    (-100) when it opens nothing, or ends the turn or the game. Such a move
    reveals no hidden card, so looking at the state after it is fair.

    >>> from crapette import new_game, parse_move
    >>> opens(new_game("classic", seed=1), parse_move("T7-T1"))  # T7 empties: the reserve top can go there
    340
    """
    player = world.current_player
    after = apply_move(world, move)
    if after.current_player != player or after.is_over:
        return USELESS
    before = frozenset(legal_moves(world))
    best = USELESS
    for new in legal_moves(after):
        if new in before or new.__class__ is not Play:
            continue
        skind = new.source.kind
        if new.target.kind is _F:
            return _OPENS_FOUNDATION
        if skind is _R:
            best = max(best, _OPENS_RESERVE)
        elif skind is _W:
            best = max(best, _OPENS_WASTE)
    return best


def _quick_score(move: Move) -> tuple[int, int, int]:
    """The greedy score of ``move`` without look-ahead: (onto a non-empty pile, onto an empty one, the target's id)."""
    if type(move) is Play:
        skind, tkind, target = move.source.kind, move.target.kind, move.target.id
        if tkind is _F:
            score = FOUNDATION + _FOUNDATION_SOURCE[skind]
            return score, score, target
        if skind is _R:
            table, tableau = _RESERVE_TO, _RESERVE_TO_TABLEAU
        elif skind is _W:
            table, tableau = _WASTE_TO, _WASTE_TO_TABLEAU
        elif tkind is _T:
            return USELESS, USELESS, target
        else:
            return _TABLEAU_TO[tkind], _TABLEAU_TO[tkind], target
        if tkind in table:
            return table[tkind], table[tkind], target
        return tableau + _KEEP_EMPTY, tableau, target
    score = _DRAW if type(move) is Draw else _END_TURN if type(move) is EndTurn else USELESS if move.between_tableau else 0
    return score, score, 0


#: The scores of :func:`greedy_scores` without look-ahead, for every move, made once:
#: the playouts read them instead of scoring each move anew.
_QUICK: dict[Move, tuple[int, int, int]] = {
    move: _quick_score(move)
    for move in (
        *(play for row in PLAYS for play in row if play is not None),
        *STACKS.values(),
        DRAW,
        END_TURN,
        PASS,
    )
}


def greedy_move(world: GameState) -> Move:
    """The greedy move without look-ahead: the first of the legal moves with the highest quick score.

    The policy that :class:`~crapette.evaluation.Playout` and
    :class:`~crapette.evaluation.Rollout` play on with: it draws nothing, and
    runs in the compiled kernel where that is built.

    >>> from crapette import new_game
    >>> str(greedy_move(new_game("classic", seed=1)))
    'R0-T5'
    """
    found = kernel.fast_move(world)
    if found is not None:
        return found
    moves = legal_moves(world)
    if len(moves) == 1:
        return moves[0]
    piles = world.piles
    quick = _QUICK
    best = moves[0]
    nonempty, empty, target = quick[best]
    top = nonempty if piles[target] else empty
    for move in moves:
        nonempty, empty, target = quick[move]
        score = nonempty if piles[target] else empty
        if score > top:
            best, top = move, score
    return best


# Documented, and pickled, where users find it.
greedy_move.__module__ = "crapette.evaluation"


def greedy_choice(world: GameState, moves: Sequence[Move]) -> Move:
    """The greedy heuristic's move among ``moves`` in ``world``: the first in legal order with the top score."""
    scores = greedy_scores(world, moves)
    return moves[scores.index(max(scores))]


def careful_move(world: GameState) -> Move:
    """The greedy heuristic's move with its look-ahead (the :class:`~crapette.bots.GreedyBot`'s): a playout policy.

    Slower than :func:`greedy_move` (it tries each move between tableau
    piles to see what it opens), and it may move a card between tableau piles
    that the fast policy never moves. :class:`~crapette.evaluation.Playout`
    with ``policy=careful_move`` plays on in the compiled kernel as well.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=7)
    >>> careful_move(state) in legal_moves(state)
    True

    :raises ValueError: if the game is over.

    .. versionadded:: 0.5.0
    """
    moves = legal_moves(world)
    if not moves:
        raise ValueError("the game is over: there is no move")
    return moves[0] if len(moves) == 1 else greedy_choice(world, moves)


careful_move.__module__ = "crapette.evaluation"
