"""Variants of the planning bot, to measure a change of its playouts against the stock bot.

Each name here builds ``crapette.bots.PlanningBot`` with one thing changed in
what a playout of a candidate plan is worth (an evaluator of
:mod:`crapette.evaluation`'s protocol, passed as ``evaluator=``), or in how
many candidates a plan tries. They take ``seed`` and ``playouts`` (default 150, the easy level, so
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
Since 0.5.0 ``careful_move`` plays on in the kernel: ``benchmarks/sprt.py``'s
``careful=N`` is the same judgement at the kernel's speed (its record is in
docs/strength.rst).

``TrueDeal`` is no player: it judges every candidate in the true deal (it sees
the hidden cards), the measure of how far the judgement alone could go; against
``search``, ``python benchmarks/sprt.py --bots planner_variants:TrueDeal,search
--elo0 0 --elo1 50 --seed 2800000 --workers 2`` (with this folder on the path)
accepted it after 60 games, 40 to 20, +120 Elo (+58 to +192).
"""

from __future__ import annotations

import random
from typing import Any

from crapette import apply_move, legal_moves
from crapette._play.greedy import greedy_scores
from crapette._core.state import H0, R0, W0, GameState
from crapette.bots import PlanningBot
from crapette.evaluation import CardCount, FittedValue, Playout, cards_left, features

_HORIZON = 200


def _careful(state: GameState) -> Any:
    """The greedy heuristic with its look-ahead (moves between tableau piles too)."""
    moves = legal_moves(state)
    scores = greedy_scores(state, moves)
    return moves[scores.index(max(scores))]


class _Longer(Playout):
    """A playout that goes one turn further: to the end of the player's own next turn."""

    def play_on(self, state: GameState, player: int) -> GameState:
        state = super().play_on(state, player)  # to the end of the opponent's next turn
        last = state.current_player
        for _ in range(_HORIZON):
            if state.is_over or state.current_player != last:
                break
            state = apply_move(state, self.policy(state))
        return state


class _OpponentReadyLeaf(CardCount):
    """The cards left, one card worse if the opponent could play its reserve top on its next turn."""

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        ready = bool(state.piles[R0 + 1 - player]) and features(state, player)[5] > 0
        return super().evaluate(state, player, rng) - (1.0 if ready and not state.is_over else 0.0)


class _EqualCardsLeaf(CardCount):
    """Every card left counts alike (no reserve weight), plus one if the player can play its reserve top now."""

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        if state.is_over:
            return cards_left(state, player)
        piles = state.piles
        left = [len(piles[R0 + p]) + len(piles[H0 + p]) + len(piles[W0 + p]) for p in (0, 1)]
        ready = state.current_player == player and any(
            getattr(m, "source", None) is not None and m.source.id == R0 + player for m in legal_moves(state)
        )
        return float(left[1 - player] - left[player]) + (1.0 if ready else 0.0)


class _FittedLeaf(FittedValue):
    """The fitted evaluation, scaled to about one unit a card (a finished game still outweighs any position)."""

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        if state.is_over:
            return cards_left(state, player)
        return super().evaluate(state, player, rng) / 0.03


def LongerPlayout(seed: int = 0, playouts: int = 150) -> PlanningBot:
    """Playouts go on to the end of the player's own next turn (three turns, not two)."""
    return PlanningBot(seed, playouts, evaluator=_Longer())


def CarefulOpponent(seed: int = 0, playouts: int = 150) -> PlanningBot:
    """Playouts play the greedy heuristic with its look-ahead (moves between tableau piles too)."""
    return PlanningBot(seed, playouts, evaluator=Playout(policy=_careful))


def OpponentReady(seed: int = 0, playouts: int = 150) -> PlanningBot:
    """A playout's end costs one card more if the opponent could play its reserve top on its next turn."""
    return PlanningBot(seed, playouts, evaluator=Playout(leaf=_OpponentReadyLeaf()))


def EqualCards(seed: int = 0, playouts: int = 150) -> PlanningBot:
    """A playout's end counts every card left alike (the stock count weighs a reserve card more)."""
    return PlanningBot(seed, playouts, evaluator=Playout(leaf=_EqualCardsLeaf()))


def FittedLeaf(seed: int = 0, playouts: int = 150) -> PlanningBot:
    """A playout's end is scored by the fitted evaluation (:class:`~crapette.evaluation.FittedValue`)."""
    return PlanningBot(seed, playouts, evaluator=Playout(leaf=_FittedLeaf()))


class FewerCandidates(PlanningBot):
    """The stock playouts, but a plan tries only the 64 best turn-segment candidates by the ranking."""

    def __init__(self, seed: int = 0, playouts: int = 1000) -> None:
        super().__init__(seed, playouts)

    def _candidates(self, playouts: int) -> int:
        return 64


class _TrueDealer:
    """Deals the true state, whatever the generator: the dealer of a bot that sees the hidden cards."""

    def __init__(self, state: GameState) -> None:
        self.state = state

    def deal(self, rng: Any) -> GameState:
        return self.state


class TrueDeal(PlanningBot):
    """Judges every candidate in the true deal: it sees the hidden cards and the order of the draws.

    Not a player (it cheats): a measure of the judgement's ceiling. Its playouts
    are all the same deal, so each candidate is judged once, by the stock
    judgement (greedy play to the end of the opponent's next turn, then the
    cards left); everything else is the stock bot's.
    """

    def __init__(self, seed: int = 0, playouts: int = 1000) -> None:
        super().__init__(seed, playouts)
        self._true: GameState | None = None

    def choose(self, state: Any) -> Any:
        if not isinstance(state, GameState):
            raise TypeError("TrueDeal sees the true state: it takes a GameState, not a view")
        self._true = state
        try:
            return super().choose(state)
        finally:
            self._true = None

    def _planned(self, v: Any) -> Any:
        return self.plan(v)  # a plan of the true deal, not of the view: never kept by view

    def _dealer(self, v: Any) -> Any:
        return _TrueDealer(self._true) if self._true is not None else super()._dealer(v)
