"""The simple bots: :class:`RandomBot` (any game) and :class:`GreedyBot` (Crapette's greedy heuristic)."""

from __future__ import annotations

import types
from typing import Any, overload

from .._core.checks import check_seed
from .._core.engine import legal_moves
from .._core.moves import Move
from .._core.state import GameState
from .._play.greedy import greedy_choice
from .._views.view import PublicView
from ..protocol import CardGame, Crapette, same_game, seeded_rng
from ._base import (
    AnyGameBot,
    MoveT,
    StateT,
    check_game,
    check_game_state,
    crapette_state,
    game_key,
    game_suffix,
)

__all__ = ["GreedyBot", "RandomBot"]


class RandomBot(AnyGameBot[StateT, MoveT]):
    """Plays a legal move chosen uniformly at random.

    The choice is drawn from a generator seeded by ``seed`` and the public view
    of the position, so it is reproducible: the same bot chooses the same move
    in the same position, in any process and after any number of games.

    It plays any game: ``game`` is the game the bot plays, any
    :class:`~crapette.protocol.CardGame` (a module or an object); None (the
    default) is Crapette under any rules (:class:`~crapette.protocol.Crapette`).
    The bot asks the game for the legal moves and seeds its choice with the
    view of the player to move (:func:`crapette.protocol.seeded_rng`). It is a
    :class:`crapette.protocol.GameBot` of that game's states and moves.

    >>> from crapette import new_game
    >>> state = new_game("casual", seed=3)
    >>> RandomBot(seed=7).choose(state) is RandomBot(seed=7).choose(state)
    True
    >>> RandomBot(seed=7)
    RandomBot(seed=7)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    :raises TypeError: if ``game`` is not a card game.

    .. versionchanged:: 0.2.0
       The ``game`` argument: the bot plays any card game.
    """

    name = "random"

    @overload
    def __init__(self: RandomBot[GameState, Move], seed: int = 0, *, game: Crapette | None = None) -> None: ...
    @overload
    def __init__(self, seed: int = 0, *, game: CardGame[StateT, MoveT, Any]) -> None: ...
    @overload
    def __init__(self: RandomBot[Any, Any], seed: int = 0, *, game: types.ModuleType | object) -> None: ...

    def __init__(self, seed: int = 0, *, game: object = None) -> None:
        self.seed = check_seed(seed)
        self.game = check_game(game)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed}{game_suffix(self.game)})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is RandomBot and other.seed == self.seed and same_game(other.game, self.game)
        )

    def __hash__(self) -> int:
        return hash(("RandomBot", self.seed, game_key(self.game)))

    def choose(self, state: StateT) -> MoveT:
        """A legal move of ``state``, uniformly at random (in Crapette, ``state`` may be a :class:`~crapette.PublicView`).

        :raises ValueError: if the game is over.
        :raises TypeError: if ``state`` is not a state of the bot's game.
        """
        game = self.game
        if isinstance(state, PublicView):
            state = crapette_state(state)  # type: ignore[assignment]
        check_game_state(game, state)
        moves = game.legal_moves(state)
        v = game.view(state, state.current_player)  # type: ignore[attr-defined]
        return moves[seeded_rng(game, self.seed, v).randrange(len(moves))]


class GreedyBot:
    """Plays the move its fixed heuristic scores highest; the first such in legal order on a tie.

    The heuristic, from the highest score to the lowest:

    1. Foundation plays (1000): from the reserve first, then the waste, then
       the tableau. They rid the player of a card for good.
    2. Plays from the reserve (500-540): onto the opponent's reserve, then
       onto the opponent's waste (loading the opponent is worth more than
       placing the card), then onto a tableau pile, a non-empty one before an
       empty one (empty piles are kept for later).
    3. Plays from the waste (400-440; under the classic rules only the card
       just drawn may be played from there): loading first, then the
       tableau, in the same order.
    4. Loading the opponent from the tableau (290-300): onto the reserve,
       then onto the waste.
    5. Moves between tableau piles (single cards and stacks) only when they
       open something: the next position has a new foundation play (350), a
       new play from the reserve (340) or from the waste (240). Otherwise they
       score -100, below drawing, so the bot never shuffles cards back and
       forth.
    6. Draw (100): only when no useful move remains.
    7. End turn (50), then Pass.

    The bot asks :func:`~crapette.legal_moves` for everything; to score a move
    between tableau piles it applies the move to a state built from the
    public view (such a move uncovers no face-down card) and compares the
    legal moves before and after.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=1)
    >>> [str(m) for m in legal_moves(state)]
    ['R0-T5', 'T7-T1', 'draw']
    >>> GreedyBot().choose(state)
    parse_move('R0-T5')
    """

    name = "greedy"

    def __repr__(self) -> str:
        return "GreedyBot()"

    def __eq__(self, other: object) -> bool:
        return type(other) is GreedyBot

    def __hash__(self) -> int:
        return hash("GreedyBot")

    def choose(self, state: GameState | PublicView) -> Move:
        """The legal move of ``state`` (a :class:`~crapette.GameState` or its view) that the heuristic scores highest.

        :raises ValueError: if the game is over.
        """
        state = crapette_state(state)
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        # The heuristic reads only what the view shows (the tops, the sizes, what a move
        # between tableau piles opens, which reveals nothing), so it scores the state itself.
        return greedy_choice(state, moves)
