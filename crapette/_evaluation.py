"""The position evaluation of the planning bot: public features, weights fitted by self-play.

:func:`features` reads a position from one player's side, using only what
both players see, and asks the engine (never a rule of its own) whether the
reserve tops can be played. :func:`score` weighs them with :data:`WEIGHTS`,
which ``benchmarks/fit_evaluation.py`` fits by logistic regression: the
log-odds that the player to move wins the game, from the first position of
every turn of 400 classic games between greedy bots (18,409 positions;
held-out log loss 0.6385 against 0.6436 for the card count alone). The two
last features never varied there (a greedy player leaves neither a playable
reserve top nor, under the classic rules, an empty house to its opponent),
so their weights are 0.
"""

from __future__ import annotations

from ._engine import legal_moves
from ._moves import Play
from ._state import H0, R0, T0, W0, GameState, raw_state

__all__ = ["FEATURES", "WEIGHTS", "features", "score", "value"]

#: The names of the features, in the order :func:`features` gives them.
FEATURES = (
    "own reserve",
    "own hand and waste",
    "opponent reserve",
    "opponent hand and waste",
    "own reserve top playable",
    "opponent reserve top playable",
    "empty tableau piles",
)

#: The weight of each feature (log-odds of winning per unit), fitted by ``benchmarks/fit_evaluation.py``.
WEIGHTS = (-0.0291, -0.0325, 0.0304, 0.0242, 0.0174, 0.0, 0.0)


def _reserve_playable(state: GameState, player: int) -> bool:
    """Whether ``player``'s reserve top could be played if ``player`` were to move now (no drawn card)."""
    if state.current_player != player or state.drawn:
        state = raw_state(
            state.rules, state.piles, player, state.move_count, False, 0, state.exhausted, state.played,
            state.counters, state.hand_known, state.reserve_known, state.from_deal, (),
        )
    reserve = R0 + player
    for move in legal_moves(state):
        if type(move) is Play and move.source.id == reserve:
            return True
    return False


def features(state: GameState, player: int) -> tuple[float, ...]:
    """The features of ``state`` seen from ``player``'s side (see :data:`FEATURES`).

    >>> from crapette import new_game
    >>> features(new_game("classic", seed=7), 1)
    (13.0, 35.0, 13.0, 35.0, 0.0, 0.0, 0.0)
    """
    return _features(state, player, every=True)


def _features(state: GameState, player: int, every: bool) -> tuple[float, ...]:
    # Whether a reserve top can be played costs a listing of the legal moves:
    # with every=False it is asked only where its weight is not 0.
    piles = state.piles
    other = 1 - player
    own = bool(piles[R0 + player]) and (every or bool(WEIGHTS[4])) and _reserve_playable(state, player)
    theirs = bool(piles[R0 + other]) and (every or bool(WEIGHTS[5])) and _reserve_playable(state, other)
    return (
        float(len(piles[R0 + player])),
        float(len(piles[H0 + player]) + len(piles[W0 + player])),
        float(len(piles[R0 + other])),
        float(len(piles[H0 + other]) + len(piles[W0 + other])),
        float(own),
        float(theirs),
        float(sum(1 for pile in piles[T0 : T0 + 8] if not pile)),
    )


def score(values: tuple[float, ...]) -> float:
    """The weighted sum of the features: the fitted log-odds of winning (up to a constant)."""
    return sum(w * x for w, x in zip(WEIGHTS, values))


def value(state: GameState, player: int) -> float:
    """``score(features(state, player))``, without working out the features whose weight is 0.

    The planning bot ranks every turn end with it: asking the engine whether a
    reserve top can be played costs a listing of the legal moves.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=7)
    >>> value(state, 1) == score(features(state, 1))
    True
    """
    return score(_features(state, player, every=False))
