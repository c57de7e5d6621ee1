"""The bots' heuristics: what :class:`~crapette.bots.GreedyBot` and both searches share.

The greedy scores of moves (with or without look-ahead), the fast greedy
move that playouts play on with, the evaluation of a position in cards, the
greedy playout, and the generator a bot seeds from its seed and the view.
``bots`` and ``_ismcts`` import from here; this module imports neither.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from . import kernel
from ._cards import Card
from ._engine import apply_move, legal_moves
from ._moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Draw, EndTurn, Move, MoveStack, Play
from ._rules import Scoring
from ._state import H0, R0, W0, GameState, PileKind
from ._view import PublicView, _Dealer, view
from .protocol import Crapette

_F, _T, _R, _W = PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE

#: How many cards of advantage make a position worth about 73% to the tree
#: search (the scale of its logistic).
SCALE = 4.0


def checked_view(state: object) -> PublicView:
    """The view of ``state`` for a bot's ``choose``, once the state is checked.

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    :raises ValueError: if the game is over.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"choose() expects a GameState, got {type(state).__name__}")
    if state.is_over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return view(state)


#: A bot's generator for the position ``v``: the same for the same seed and view, in any process.
seeded_rng = Crapette.seeded_rng


# The greedy heuristic ---------------------------------------------------------

#: Scores of the greedy heuristic, by kind of move (higher is played first).
FOUNDATION = 1000
_FOUNDATION_SOURCE = {_R: 30, _W: 20, _T: 10}
_RESERVE_TO = {_R: 540, _W: 530}
_RESERVE_TO_TABLEAU = 500
_WASTE_TO = {_R: 440, _W: 430}
_WASTE_TO_TABLEAU = 400
_TABLEAU_TO = {_R: 300, _W: 290}
_SHUFFLE_OPENS_FOUNDATION = 350
_SHUFFLE_OPENS_RESERVE = 340
_SHUFFLE_OPENS_WASTE = 240
_SHUFFLE_USELESS = -100
_DRAW = 100
_END_TURN = 50
_KEEP_EMPTY = 10


def greedy_scores(world: GameState, moves: Sequence[Move], lookahead: bool = True) -> list[int]:
    """The greedy heuristic's score of each move (see :class:`GreedyBot`).

    Without ``lookahead`` moves between tableau piles all score as useless
    (the fast policy of the search bot's playouts).
    """
    found = kernel.greedy_scores(world, moves, lookahead)
    if found is not None:
        return found
    piles = world.piles
    player = world.current_player
    scores = []
    legal_here: frozenset[Move] | None = None
    for move in moves:
        cls = move.__class__
        if cls is Play:
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
            elif tkind is not _T:
                score = _TABLEAU_TO[tkind]
            elif not lookahead:
                score = _SHUFFLE_USELESS
            else:
                if legal_here is None:
                    legal_here = frozenset(moves)
                score = _shuffle_score(world, move, legal_here, player)
            scores.append(score)
        elif cls is MoveStack:
            if not lookahead:
                scores.append(_SHUFFLE_USELESS)
                continue
            if legal_here is None:
                legal_here = frozenset(moves)
            scores.append(_shuffle_score(world, move, legal_here, player))
        elif cls is Draw:
            scores.append(_DRAW)
        elif cls is EndTurn:
            scores.append(_END_TURN)
        else:
            scores.append(0)
    return scores


def _shuffle_score(world: GameState, move: Move, before: frozenset[Move], player: int) -> int:
    """Score a move between tableau piles by what it opens up for the next move.

    Such a move reveals no hidden card, so looking at the state after it is fair.
    """
    after = apply_move(world, move)
    if after.current_player != player or after.is_over:
        return _SHUFFLE_USELESS
    best = _SHUFFLE_USELESS
    for new in legal_moves(after):
        if new in before or new.__class__ is not Play:
            continue
        skind = new.source.kind
        if new.target.kind is _F:
            return _SHUFFLE_OPENS_FOUNDATION
        if skind is _R:
            best = max(best, _SHUFFLE_OPENS_RESERVE)
        elif skind is _W:
            best = max(best, _SHUFFLE_OPENS_WASTE)
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
            return _SHUFFLE_USELESS, _SHUFFLE_USELESS, target
        else:
            return _TABLEAU_TO[tkind], _TABLEAU_TO[tkind], target
        if tkind in table:
            return table[tkind], table[tkind], target
        return tableau + _KEEP_EMPTY, tableau, target
    score = {Draw: _DRAW, EndTurn: _END_TURN, MoveStack: _SHUFFLE_USELESS}.get(type(move), 0)
    return score, score, 0


#: The scores of :func:`greedy_scores` without look-ahead, for every move, made once:
#: the playouts of the search bots read them instead of scoring each move anew.
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


def fast_move(world: GameState) -> Move:
    """The greedy move without look-ahead: the first of the legal moves with the highest quick score."""
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


def greedy_choice(v: PublicView, moves: Sequence[Move]) -> Move:
    """The greedy heuristic's move among ``moves``: the first in legal order with the top score."""
    scores = greedy_scores(_Dealer(v).deal(None), moves)
    return moves[scores.index(max(scores))]


# Playouts -----------------------------------------------------------------------

#: Moves a playout may make after the move it tests (a safety net: turns end long before).
_HORIZON = 200
#: What a finished game is worth: won, or (negated) lost.
_WIN = 10_000
#: The value of a reserve top card that the player to move can play at once.
_RESERVE_READY = 1.0
#: How cards left are weighed under rules without scoring: as the classic scoring does.
_HEURISTIC_SCORING = Scoring()


def _penalty(scoring: Scoring, piles: tuple[tuple[Card, ...], ...], player: int) -> int:
    return scoring.penalty(
        reserve=len(piles[R0 + player]), hand=len(piles[H0 + player]), waste=len(piles[W0 + player])
    )


def evaluate(state: GameState, player: int) -> float:
    """How good ``state`` is for ``player``: the opponent's penalty minus the player's.

    Cards left are weighed by the rules' scoring (the classic one under rules
    without scoring); a finished game is
    worth a large bonus or malus; a reserve card the player can play at once
    is worth one card.
    """
    found = kernel.evaluate(state, player)
    if found is not None:
        return found
    outcome = state.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return float(_WIN if outcome.winner == player else -_WIN)
    piles = state.piles
    scoring = state.rules.scoring or _HEURISTIC_SCORING
    value = float(_penalty(scoring, piles, 1 - player) - _penalty(scoring, piles, player))
    if state.current_player == player:
        # The player is to move: a reserve card that can be played next is as good as gone.
        reserve = R0 + player
        for move in legal_moves(state):
            if move.__class__ is Play and move.source.id == reserve:
                return value + _RESERVE_READY
    return value


def playout(world: GameState, player: int) -> float:
    """Play on greedily to the end of the opponent's next turn, then evaluate for ``player``."""
    found = kernel.playout(world, player)
    if found is not None:
        return found
    state = world
    turns_left = 2 if state.current_player == player else 1
    last = state.current_player
    for _ in range(_HORIZON):
        if state.is_over:
            break
        state = apply_move(state, fast_move(state))
        if state.current_player != last:
            last = state.current_player
            turns_left -= 1
            if turns_left == 0:
                break
    return evaluate(state, player)
