"""Variants of the planning bot, to measure a change of its playouts against the stock bot.

Each class here is ``crapette.bots.PlanningBot`` with one thing changed in
what a playout of a candidate plan is worth, or in how many candidates a plan
tries. They take ``seed`` and ``playouts`` (default 150, the easy level, so
that a run of hundreds of games is affordable) and play in
``benchmarks/strength.py`` by name, with this folder on the path::

    PYTHONPATH=benchmarks python benchmarks/strength.py \\
        --bots planner_variants:CarefulOpponent,search:easy --games 200 --workers 2

What was measured (classic, deal-paired and seat-swapped games, deals from
seed 1000; the share of the decided games that the first bot won, with its
95% Wilson interval). No variant is clearly better than the stock bot, and a
budget of 1,000 playouts is no stronger than one of 150:

=============================  ======================  =====  =====  ===================
first bot                      second bot              games  wins   share (95%)
=============================  ======================  =====  =====  ===================
``LongerPlayout``              ``search:easy``         140    61-79  43.6% (35.6%-51.8%)
``CarefulOpponent``            ``search:easy``         120    63-57  52.5% (43.6%-61.2%)
``CarefulOpponent`` (1,000)    ``search``               40    22-18  55.0% (39.8%-69.3%)
``OpponentReady``              ``search:easy``          60    30-30  50.0% (37.7%-62.3%)
``EqualCards``                 ``search:easy``          60    26-34  43.3% (31.6%-55.9%)
``FittedLeaf``                 ``search:easy``         100    50-50  50.0% (40.4%-59.6%)
``FewerCandidates`` (1,000)    ``search:easy``          40    15-25  37.5% (24.2%-53.0%)
``search`` (1,000 playouts)    ``search:easy`` (150)   120    56-64  46.7% (38.0%-55.6%)
=============================  ======================  =====  =====  ===================

``CarefulOpponent`` costs about 2.4 times the stock bot's time per plan.
"""

from __future__ import annotations

from crapette import apply_move, legal_moves
from crapette.bots import PlanningBot
from crapette._evaluation import features, score
from crapette._heuristics import evaluate, fast_move, greedy_scores
from crapette._moves import Move, Play
from crapette._state import H0, R0, W0, GameState

_HORIZON = 200


def _playout(state: GameState, player: int, halves: int, careful: bool) -> GameState:
    """Play on to the end of the ``halves``-th turn (the current one counted if it is ``player``'s)."""
    turns_left = halves if state.current_player == player else halves - 1
    last = state.current_player
    for _ in range(_HORIZON):
        if state.is_over:
            break
        if careful and state.current_player != player:
            moves = legal_moves(state)
            scores = greedy_scores(state, moves)
            move = moves[scores.index(max(scores))]
        else:
            move = fast_move(state)
        state = apply_move(state, move)
        if state.current_player != last:
            last = state.current_player
            turns_left -= 1
            if turns_left == 0:
                break
    return state


def _reserve_ready(state: GameState, player: int) -> bool:
    """Whether ``player`` is to move and can play the reserve top now."""
    if state.current_player != player:
        return False
    return any(type(m) is Play and m.source.id == R0 + player for m in legal_moves(state))


class _Variant(PlanningBot):
    """A planning bot whose playouts go ``halves`` turns deep, with a careful opponent or not, scored by ``leaf``."""

    halves = 2
    careful = False

    def __init__(self, seed: int = 0, playouts: int = 150) -> None:
        super().__init__(seed, playouts)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed}, playouts={self.playouts})"

    def leaf(self, state: GameState, player: int) -> float:
        return evaluate(state, player)

    def _try(self, deal: GameState, path: tuple[Move, ...], player: int) -> float:
        state = deal
        for move in path:
            if state.is_over:
                break
            state = apply_move(state, move)
        if not state.is_over:
            state = _playout(state, player, self.halves, self.careful)
        return evaluate(state, player) if state.is_over else self.leaf(state, player)


class LongerPlayout(_Variant):
    """Playouts go on to the end of the player's own next turn (three turns, not two)."""

    halves = 3


class CarefulOpponent(_Variant):
    """The opponent of a playout plays the greedy heuristic with its look-ahead (moves between tableau piles too)."""

    careful = True


class OpponentReady(_Variant):
    """A playout's end costs one card more if the opponent could play its reserve top on its next turn."""

    def leaf(self, state: GameState, player: int) -> float:
        opponent = 1 - player
        ready = bool(state.piles[R0 + opponent]) and features(state, player)[5] > 0
        return evaluate(state, player) - (1.0 if ready else 0.0)


class EqualCards(_Variant):
    """A playout's end counts every card left alike (the fitted weights make a reserve card worth a hand card)."""

    def leaf(self, state: GameState, player: int) -> float:
        piles = state.piles
        left = [len(piles[R0 + p]) + len(piles[H0 + p]) + len(piles[W0 + p]) for p in (0, 1)]
        return float(left[1 - player] - left[player]) + (1.0 if _reserve_ready(state, player) else 0.0)


class FittedLeaf(_Variant):
    """A playout's end is scored by the fitted evaluation (``crapette._evaluation.score``) in place of the cards left."""

    def leaf(self, state: GameState, player: int) -> float:
        # Scaled to about one unit a card, so that a finished game still outweighs any position.
        return score(features(state, player)) / 0.03


class FewerCandidates(PlanningBot):
    """The stock playouts, but a plan tries only the 64 best turn-segment candidates by the evaluation."""

    def __init__(self, seed: int = 0, playouts: int = 1000) -> None:
        super().__init__(seed, playouts)

    def __repr__(self) -> str:
        return f"FewerCandidates(seed={self.seed}, playouts={self.playouts})"

    def _candidates(self) -> int:
        return 64
