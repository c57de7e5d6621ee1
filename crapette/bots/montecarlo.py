"""Flat Monte Carlo search over any game: :class:`SearchBot`, and :class:`RandomRollout`, the judgement of any game."""

from __future__ import annotations

import random
import types
from typing import Any, overload

import attrs

from .._core.checks import MAX_PLAYOUTS, check_int, check_seed
from .._core.messages import brief
from .._core.moves import Move
from .._core.state import GameState
from ..evaluation import Evaluator, evaluate_all, prior
from ..protocol import CardGame, Crapette, portable, resolve, same_game, seeded_rng
from ._base import (
    AnyGameBot,
    MoveT,
    StateT,
    check_game,
    check_game_state,
    game_key,
    game_suffix,
)

__all__ = ["RandomRollout", "SearchBot"]
#: The prior breaks ties between moves whose values come out equal.
_TIE_BREAK = 1e-6


@attrs.frozen
class RandomRollout:
    """For any game of :mod:`crapette.protocol`: play on at random to the end, and take the game's ``returns``.

    ``game`` is the game (an object or a module); a rollout that reaches
    ``horizon`` moves is worth 0. What OpenSpiel's ``RandomRolloutEvaluator``
    does, and what :class:`SearchBot` judges a game by that offers no
    ``evaluator`` of its own.

    >>> from crapette.protocol import Crapette
    >>> game = Crapette("casual")
    >>> RandomRollout(game).evaluate(game.new_game(1), 0, random.Random(0)) in (-1.0, 0.0, 1.0)
    True

    .. versionadded:: 0.3.0
    """

    game: Any = attrs.field(converter=portable)
    horizon: int = 1000

    def evaluate(self, state: Any, player: int, rng: random.Random) -> float:
        """``returns(state)[player]`` at the end of a random game, or 0 if it is cut short."""
        game = resolve(self.game)
        legal = game.legal_moves
        apply = game.apply_move
        choice = rng.choice
        for _ in range(self.horizon):
            if state.is_over:
                return float(game.returns(state)[player])
            state = apply(state, choice(legal(state)))
        return float(game.returns(state)[player]) if state.is_over else 0.0


class SearchBot(AnyGameBot[StateT, MoveT]):
    """Flat Monte Carlo search: each legal move tried in sampled worlds, judged by an evaluator; the best average wins.

    The bot cannot see the face-down cards, so it samples: the game deals
    the cards the view of the player to move hides (its ``determinize``),
    several times, with the bot's own generator. In each such world it plays
    every legal move and asks ``evaluator`` what the result is worth to it
    (:mod:`crapette.evaluation`); every move is tried in the same worlds, and
    the best average wins, the evaluator's ``prior`` (if it has one) breaking
    exact ties, then the generator.

    ``evaluator`` defaults to the game's own (a game's optional
    ``evaluator``: in Crapette, :class:`~crapette.evaluation.Playout`, greedy
    play to the end of the opponent's next turn and the cards left then, the
    greedy heuristic as the prior), else :class:`RandomRollout` (random play to
    the end of the game). ``budget`` is the number of evaluations per
    decision, shared among the legal moves (at least one world each): a
    count, not a time, so the bot plays the same on any machine; at most
    :data:`~crapette.bots.MAX_PLAYOUTS`, and the bot keeps one sampled world
    at a time.

    Where the game offers ``strict_state`` (Crapette does), the bot searches
    the position as that gives it: in Crapette, under ``revisits=False``, so
    that no move goes back to a position of the turn, the engine's one rule
    against moving cards to and fro. The bot then remembers that state,
    advanced by its move, for its next decision in the same turn: the one
    thing it keeps between decisions, which travels with it when it is
    pickled (see :func:`~crapette.bots.choose_remembering`).

    It plays any game (a :class:`crapette.protocol.GameBot` of the states and
    moves of its ``game``; None is Crapette).

    >>> from crapette import new_game
    >>> bot = SearchBot(seed=3, budget=24)
    >>> state = new_game("classic", seed=5)
    >>> bot.choose(state) is SearchBot(seed=3, budget=24).choose(state)
    True
    >>> bot
    SearchBot(seed=3, budget=24)

    :raises ValueError: if ``seed`` is out of range or ``budget`` is not an int
        from 1 to :data:`~crapette.bots.MAX_PLAYOUTS`.
    :raises TypeError: if ``game`` is not a card game, or ``evaluator`` has no ``evaluate``.

    .. versionchanged:: 0.2.0
       The ``game`` argument: the bot plays any card game.
    .. versionchanged:: 0.3.0
       The ``evaluator`` argument; its ``name`` is ``"montecarlo"`` (``make_bot("montecarlo")``);
       it avoids going back to a position of the turn by the engine's ``revisits`` rule.
    """

    name = "montecarlo"

    #: The default number of evaluations per decision.
    DEFAULT_BUDGET = 200

    @overload
    def __init__(
        self: SearchBot[GameState, Move], seed: int = 0, budget: int = DEFAULT_BUDGET, *,
        evaluator: Evaluator | None = None, game: Crapette | None = None,
    ) -> None: ...
    @overload
    def __init__(
        self, seed: int = 0, budget: int = DEFAULT_BUDGET, *,
        evaluator: Evaluator | None = None, game: CardGame[StateT, MoveT, Any],
    ) -> None: ...
    @overload
    def __init__(
        self: SearchBot[Any, Any], seed: int = 0, budget: int = DEFAULT_BUDGET, *,
        evaluator: Evaluator | None = None, game: types.ModuleType | object,
    ) -> None: ...

    def __init__(
        self, seed: int = 0, budget: int = DEFAULT_BUDGET, *, evaluator: Evaluator | None = None, game: object = None
    ) -> None:
        self.seed = check_seed(seed)
        self.budget = check_int("budget", budget, 1, MAX_PLAYOUTS)
        self.game = check_game(game)
        if evaluator is not None and not callable(getattr(evaluator, "evaluate", None)):
            raise TypeError(f"evaluator must have an evaluate(state, player, rng) method, got {brief(evaluator)}")
        self.evaluator = evaluator
        #: The state this bot searched last, advanced by its move (see strict_state).
        self._next: Any = None

    def __repr__(self) -> str:
        judged = "" if self.evaluator is None else f", evaluator={self.evaluator!r}"
        return f"SearchBot(seed={self.seed}, budget={self.budget}{judged}{game_suffix(self.game)})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is SearchBot
            and (other.seed, other.budget, other.evaluator) == (self.seed, self.budget, self.evaluator)
            and same_game(other.game, self.game)
        )

    def __hash__(self) -> int:
        return hash(("SearchBot", self.seed, self.budget, self.evaluator, game_key(self.game)))

    def judge(self) -> Evaluator:
        """The evaluator the bot searches with: its own, else the game's, else :class:`RandomRollout`."""
        if self.evaluator is not None:
            return self.evaluator
        own = getattr(self.game, "evaluator", None)
        return own if own is not None else RandomRollout(self.game)

    def choose(self, state: StateT) -> MoveT:
        """The legal move of ``state`` with the best average value.

        :raises ValueError: if the game is over.
        :raises TypeError: if ``state`` is not a state of the bot's game.
        """
        game = self.game
        check_game_state(game, state)
        strict = getattr(game, "strict_state", None)
        root = state if strict is None else strict(state, self._next)
        moves = game.legal_moves(root)
        move = moves[0] if len(moves) == 1 else self._best(root, moves)
        if strict is not None:
            after: Any = game.apply_move(root, move)
            mover: int = root.current_player  # type: ignore[union-attr]
            self._next = after if not after.is_over and after.current_player == mover else None
        return move

    def _best(self, root: Any, moves: Any) -> Any:
        game = self.game
        judge = self.judge()
        player = root.current_player
        v = game.view(root, player)
        rng = seeded_rng(game, self.seed, v)
        samples = max(1, self.budget // len(moves))
        totals = [0.0] * len(moves)
        first = None
        for _ in range(samples):
            world = game.determinize(v, rng)
            if first is None:
                first = world
            values = evaluate_all(judge, [game.apply_move(world, move) for move in moves], player, rng)
            totals = [total + value for total, value in zip(totals, values)]
        ranks = prior(judge, first, moves)
        scores = [total / samples + _TIE_BREAK * rank for total, rank in zip(totals, ranks)]
        best = max(scores)
        return moves[rng.choice([i for i, score in enumerate(scores) if score == best])]
