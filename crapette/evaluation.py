"""Evaluators: the judgement of a position that a search takes as an argument, as OpenSpiel's bots do.

An evaluator is any object with ``evaluate(state, player, rng)``: how good
``state`` is for ``player``, higher better (the :class:`Evaluator` protocol).
It may also offer ``evaluate_many(states, player, rng)`` (one call for many
states, for an evaluator that batches, such as a neural network; see
:func:`evaluate_all`) and ``prior(state, moves)`` (how much a search should
prefer each move before looking, which breaks its ties). The searches of
:mod:`crapette.bots` take one: a new judgement is a new evaluator, never a
new bot.

Crapette's judgements:

- :class:`CardCount`: the cards each player has left, weighed by the rules'
  scoring (what a game is scored by), and a finished game as a large win or loss;
- :class:`FittedValue`: seven public counts weighed by a logistic fit to
  self-play: the log-odds that the player wins;
- :class:`Playout`: play on with a policy (the greedy heuristic by default) to
  the end of the opponent's next turn, then judge with another evaluator;

and, for any game of :mod:`crapette.protocol`,
:class:`crapette.bots.RandomRollout` plays on at random to the end and takes
the game's ``returns``.

What a new evaluator has to write is one method:

>>> from crapette import legal_moves, new_game
>>> from crapette.bots import SearchBot
>>> class ReserveRace:
...     def evaluate(self, state, player, rng):
...         return len(state.reserves[1 - player]) - len(state.reserves[player])
>>> bot = SearchBot(seed=1, budget=20, evaluator=ReserveRace())
>>> state = new_game("classic", seed=4)
>>> bot.choose(state) in legal_moves(state)
True

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import random
import warnings
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

import attrs

from . import kernel
from ._core import greedy_table as _greedy_table
from ._core.engine import apply_move, legal_moves
from ._core.moves import Move, Play
from ._core.piles import H0, R0, T0, W0
from ._core.rules import Scoring
from ._core.state import GameState, raw_state
from ._play.greedy import careful_move, greedy_move, greedy_scores

__all__ = [
    "FITTED_FEATURES",
    "WEIGHTS",
    "WIN",
    "CardCount",
    "cards_left",
    "Evaluator",
    "FittedValue",
    "Playout",
    "Rollout",
    "careful_move",
    "evaluate_all",
    "features",
    "greedy_move",
    "prior",
]


@runtime_checkable
class Evaluator(Protocol):
    """How good a state is for a player: ``evaluate(state, player, rng)``, higher better.

    ``rng`` is the search's :class:`random.Random`, for an evaluator that
    draws (a rollout); one that does not ignores it, and the built-in ones that
    draw nothing let it be left out. Each evaluator has a scale of its own
    (:class:`CardCount` counts cards, :class:`FittedValue` is a score with no
    unit, :class:`~crapette.value.LearnedValue` a chance to win): a search only
    compares the values one evaluator gives. An evaluator should be a value
    (equal, hashable and picklable), so that a bot holding it is one.

    >>> isinstance(CardCount(), Evaluator), isinstance(object(), Evaluator)
    (True, False)
    """

    def evaluate(self, state: Any, player: int, rng: random.Random) -> float:
        """The value of ``state`` for ``player``."""
        ...


#: Moves a rollout makes at most before it stops and calls the game even.
ROLLOUT_MOVES = 3000


@attrs.frozen
class Rollout:
    """Play on with the greedy heuristic for both players to the end of the game: 1 won, 0 lost, 0.5 drawn.

    The heuristic (:func:`greedy_move`, the policy of :class:`Playout`) draws nothing, so a rollout is a pure
    function of the deal it starts from: a search that tries its candidates
    in the same deals compares them on the same luck. A game still going
    after ``ROLLOUT_MOVES`` (3,000) moves counts as drawn. It runs in the
    compiled kernel where that is built (a few thousand rollouts a second),
    in Python otherwise, with the same results. Its prior is the greedy
    heuristic's score of each move.

    >>> from crapette import new_game
    >>> Rollout().evaluate(new_game("classic", seed=7), 0)
    1.0

    .. versionadded:: 0.3.0
    """

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        """1 if ``player`` wins the rollout, 0 if the other player does, 0.5 for a draw."""
        outcome = state.outcome
        if outcome is None:
            found = kernel.self_play([state], [0], 1, 0.0, ROLLOUT_MOVES, 0)
            if found is not None:
                outcome = found[0][1]
            else:
                for _ in range(ROLLOUT_MOVES):
                    if state.is_over:
                        break
                    state = apply_move(state, greedy_move(state))
                outcome = state.outcome
        return 0.5 if outcome is None or outcome.winner is None else float(outcome.winner == player)

    def prior(self, state: GameState, moves: Sequence[Move]) -> list[int]:
        """The greedy heuristic's score of each move."""
        return greedy_scores(state, moves)


def evaluate_all(evaluator: Evaluator, states: Sequence[Any], player: int, rng: random.Random) -> list[float]:
    """The value of each state for ``player``: the evaluator's ``evaluate_many`` if it has one, else one by one.

    >>> from crapette import new_game
    >>> evaluate_all(CardCount(), [new_game("classic", seed=s) for s in (1, 2)], 0, random.Random(0))
    [1.0, 0.0]
    """
    many = getattr(evaluator, "evaluate_many", None)
    if many is not None:
        return [float(v) for v in many(states, player, rng)]
    return [float(evaluator.evaluate(state, player, rng)) for state in states]


def prior(evaluator: object, state: Any, moves: Sequence[Any]) -> list[float]:
    """How much ``evaluator`` prefers each of ``moves`` in ``state`` before any search: its ``prior``, else all 0.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=1)
    >>> [str(m) for m in legal_moves(state)], prior(CardCount(), state, legal_moves(state))
    (['R0-T5', 'T7-T1', 'draw'], [510.0, 340.0, 100.0])
    """
    own = getattr(evaluator, "prior", None)
    if own is None:
        return [0.0] * len(moves)
    return [float(p) for p in own(state, moves)]


#: What a finished game is worth to :class:`CardCount`: won, or (negated) lost, in cards.
WIN = _greedy_table.WIN
#: How cards left are weighed under rules without scoring: as the classic scoring does.
_CLASSIC = Scoring()


def _penalty(scoring: Scoring, piles: tuple[tuple[Any, ...], ...], player: int) -> int:
    return scoring.penalty(reserve=len(piles[R0 + player]), hand=len(piles[H0 + player]), waste=len(piles[W0 + player]))


def cards_left(state: GameState, player: int) -> float:
    """The cards of ``state`` for ``player``: the opponent's penalty minus the player's.

    Cards left are weighed by the rules' scoring (the classic one under rules
    without scoring); in a game that goes on, a reserve card the player to
    move can play at once is worth one card.

    >>> from crapette import new_game
    >>> cards_left(new_game("classic", seed=1), 0)
    1.0
    """
    piles = state.piles
    scoring = state.rules.scoring or _CLASSIC
    value = float(_penalty(scoring, piles, 1 - player) - _penalty(scoring, piles, player))
    if state.outcome is None and state.current_player == player:
        # The player is to move: a reserve card that can be played next is as good as gone.
        reserve = R0 + player
        for move in legal_moves(state):
            if move.__class__ is Play and move.source.id == reserve:
                return value + _greedy_table.RESERVE_READY
    return value


def _greedy_prior(state: GameState, moves: Sequence[Move]) -> list[int]:
    return greedy_scores(state, moves)


@attrs.frozen
class CardCount:
    """The cards left, as the game is scored: the opponent's penalty minus the player's.

    Cards are weighed by the rules' scoring (the classic weights, reserve
    cards double, under rules without scoring); a reserve card the player to
    move can play at once counts as gone (one card more); a finished game is
    worth :data:`WIN` (won), ``-WIN`` (lost) or 0. Its prior is the greedy
    heuristic's score of each move (:class:`~crapette.bots.GreedyBot`).

    >>> from crapette import new_game
    >>> CardCount().evaluate(new_game("classic", seed=7), 1, random.Random(0))
    0.0
    """

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        """The value of ``state`` for ``player``, in cards: :func:`cards_left`, or :data:`WIN` for a finished game."""
        found = kernel.evaluate(state, player)
        if found is not None:
            return found
        outcome = state.outcome
        if outcome is not None:
            if outcome.winner is None:
                return 0.0
            return WIN if outcome.winner == player else -WIN
        return cards_left(state, player)

    def prior(self, state: GameState, moves: Sequence[Move]) -> list[int]:
        """The greedy heuristic's score of each move."""
        return _greedy_prior(state, moves)


#: The names of :class:`FittedValue`'s features, in the order :func:`features` gives them (not to be
#: confused with :data:`crapette.value.FEATURES`, the learned value's counts).
#:
#: .. versionadded:: 0.4.0
#:    The name; ``FEATURES``, its name before, still works and warns.
FITTED_FEATURES = (
    "own reserve",
    "own hand and waste",
    "opponent reserve",
    "opponent hand and waste",
    "own reserve top playable",
    "opponent reserve top playable",
    "empty tableau piles",
)

#: The weight of each feature (log-odds of winning per unit), fitted by ``benchmarks/fit_evaluation.py``:
#: the first position of every turn of 400 classic games between greedy bots (18,409 positions;
#: held-out log loss 0.6385 against 0.6436 for the card count alone). The two last features never
#: varied there (a greedy player leaves neither a playable reserve top nor, under the classic
#: rules, an empty house to its opponent), so their weights are 0.
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


def features(state: GameState, player: int, *, every: bool = True) -> tuple[float, ...]:
    """The features of ``state`` seen from ``player``'s side (see :data:`FITTED_FEATURES`): public counts only.

    Whether a reserve top can be played costs a listing of the legal moves:
    with ``every=False`` it is asked only where its weight is not 0.

    >>> from crapette import new_game
    >>> features(new_game("classic", seed=7), 1)
    (13.0, 35.0, 13.0, 35.0, 0.0, 0.0, 0.0)
    """
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


@attrs.frozen
class FittedValue:
    """The log-odds that ``player`` wins, from public counts weighed by a logistic fit (:data:`WEIGHTS`).

    A finished game is worth ``1e9`` (won), ``-1e9`` (lost) or 0. The
    planning bot ranks the ends of a turn by it before trying the best. The
    weighed features are added one by one, in their order (not by
    ``sum()``, which adds floats more exactly since Python 3.12), so the
    value is the same float on every Python and in the compiled kernel:

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=7)
    >>> value = 0.0
    >>> for weight, feature in zip(WEIGHTS, features(state, 1)):
    ...     value += weight * feature
    >>> FittedValue().evaluate(state, 1) == value
    True

    .. versionchanged:: 0.5.0
       The terms are added one by one (on Python 3.12 and later the value
       was ``sum()``'s, which may differ in the last bit).
    """

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        """The fitted log-odds (up to a constant) that ``player`` wins from ``state``."""
        outcome = state.outcome
        if outcome is not None:
            return 0.0 if outcome.winner is None else (1e9 if outcome.winner == player else -1e9)
        # features(state, player, every=False) weighed and added term by term in their order (the
        # kernel's float), without building them: the planning bot ranks hundreds of turn ends a decision by it.
        w0, w1, w2, w3, w4, w5, w6 = WEIGHTS
        piles = state.piles
        other = 1 - player
        total = (
            w0 * len(piles[R0 + player])
            + w1 * (len(piles[H0 + player]) + len(piles[W0 + player]))
            + w2 * len(piles[R0 + other])
            + w3 * (len(piles[H0 + other]) + len(piles[W0 + other]))
        )
        if w4:
            total += w4 * float(bool(piles[R0 + player]) and _reserve_playable(state, player))
        if w5:
            total += w5 * float(bool(piles[R0 + other]) and _reserve_playable(state, other))
        if w6:
            total += w6 * float(sum(1 for pile in piles[T0 : T0 + 8] if not pile))
        return total


def _qualified_name(value: object) -> str:
    """A function by its module and qualified name (stable between runs, unlike its default repr); anything else by repr."""
    name = getattr(value, "__qualname__", None)
    module = getattr(value, "__module__", None)
    return f"{module}.{name}" if isinstance(name, str) and isinstance(module, str) else repr(value)


#: Moves a playout may make (a safety net: turns end long before).
_HORIZON = _greedy_table.HORIZON


@attrs.frozen
class Playout:
    """Play on with ``policy`` to the end of the opponent's next turn, then judge with ``leaf``.

    ``policy`` is a function from a state to one of its legal moves (by
    default :func:`greedy_move`, the greedy heuristic without look-ahead: fast,
    and never moving cards to and fro; :func:`careful_move`, with its
    look-ahead, plays on in the compiled kernel too); ``leaf`` judges
    where it stops (:class:`CardCount` by default). A finished game is
    judged at once. Its prior is the leaf's.

    >>> from crapette import new_game
    >>> Playout().evaluate(new_game("classic", seed=7), 1, random.Random(0))
    -1.0
    >>> Playout()
    Playout(leaf=CardCount(), policy=crapette.evaluation.greedy_move)

    .. versionchanged:: 0.4.0
       The repr names the policy by its qualified name.
    """

    leaf: Evaluator = attrs.field(factory=CardCount)
    policy: Callable[[GameState], Move] = attrs.field(default=greedy_move, repr=lambda f: _qualified_name(f))

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        """The leaf's value for ``player`` where play stops."""
        if self.policy is careful_move and type(self) is Playout and type(self.leaf) is CardCount:
            found = kernel.careful_playout(state, player)
            if found is not None:
                return found
        if self.policy is greedy_move and type(self) is Playout:
            # The stock play-on, in the compiled kernel, judged there by a leaf it runs.
            leaf = type(self.leaf)
            if leaf is CardCount:
                found = kernel.playout(state, player)
                if found is not None:
                    return found
            elif getattr(self.leaf, "compiled_playout", None) is not None:
                judged = self.leaf.compiled_playout(state, player)  # type: ignore[attr-defined]
                if judged is not None:
                    return float(judged)
        return self.leaf.evaluate(self.play_on(state, player), player, rng if rng is not None else random.Random(0))

    def play_on(self, state: GameState, player: int) -> GameState:
        """Where play stops: ``state`` played on with the policy to the end of the opponent's next turn."""
        policy = self.policy
        turns_left = 2 if state.current_player == player else 1
        last = state.current_player
        for _ in range(_HORIZON):
            if state.is_over:
                break
            state = apply_move(state, policy(state))
            if state.current_player != last:
                last = state.current_player
                turns_left -= 1
                if turns_left == 0:
                    break
        return state

    def prior(self, state: GameState, moves: Sequence[Move]) -> list[float]:
        """The leaf's prior."""
        return prior(self.leaf, state, moves)


def __getattr__(name: str) -> Any:
    # The deprecated name of FITTED_FEATURES, which read like the learned value's FEATURES.
    if name == "FEATURES":
        warnings.warn(
            "crapette.evaluation.FEATURES is deprecated since 0.4.0: use FITTED_FEATURES "
            "(crapette.value.FEATURES names the learned value's counts)",
            DeprecationWarning,
            stacklevel=2,
        )
        return FITTED_FEATURES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
