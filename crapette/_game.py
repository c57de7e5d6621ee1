"""Game: a small mutable wrapper with undo and redo, for frontends.

The core stays immutable: a :class:`~crapette.GameState` never changes, and
:func:`~crapette.apply_move` returns a new one that shares the unchanged piles
with the old. Undo is therefore only a matter of keeping the previous states::

    states = [new_game("classic", seed=42)]
    states.append(apply_move(states[-1], move))   # play
    states.pop()                                  # undo

:class:`Game` does exactly that, and keeps the undone moves for redo.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from ._engine import apply_move, legal_moves, new_game
from ._moves import Move, parse_move
from ._record import GameRecord, result_of
from ._rules import RuleSet
from ._state import GameState, Outcome
from ._view import PublicView, view

__all__ = ["Game"]


class Game:
    """A game in progress: the current state, the moves made, and undo/redo.

    ``Game(rules, seed)`` deals a new game (as :func:`~crapette.new_game`);
    :meth:`from_state` starts from any state and :meth:`from_record` replays a
    record. :meth:`push` plays a move, :meth:`undo` takes the last one back,
    :meth:`redo` plays an undone move again. Pushing any move other than the
    next one to redo forgets the undone moves. The metadata attributes
    (``players``, ``date``, ``result``, ``tags``) go into :meth:`to_record`.

    >>> game = Game("casual", seed=1)
    >>> game.push("T1-T0")
    >>> game.push("draw")
    >>> [str(m) for m in game.history], game.state.move_count
    (['T1-T0', 'draw'], 2)
    >>> game.undo()
    parse_move('draw')
    >>> game.state.move_count, game.can_redo
    (1, True)
    >>> game.redo()
    parse_move('draw')
    >>> Game.from_record(game.to_record()).state == game.state
    True

    :raises InvalidRulesError: if ``rules`` is a string that names no preset.
    :raises ValueError: if the seed is not an int with ``0 <= seed < 2**64``.

    .. versionadded:: 0.1.0
    """

    #: The names of player 0 and player 1, or None.
    players: tuple[str, str] | None
    #: Free text (ISO 8601 recommended), or None.
    date: str | None
    #: The result to record; None means: the outcome's result when the game is over.
    result: str | None
    #: Free tags for the record, in order.
    tags: dict[str, str]

    def __init__(self, rules: RuleSet | str = "casual", seed: int = 0) -> None:
        self._seed: int | None = seed
        self._states: list[GameState] = [new_game(rules, seed)]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self.players = None
        self.date = None
        self.result = None
        self.tags = {}

    @classmethod
    def from_state(cls, state: GameState) -> Game:
        """A game that starts from ``state`` (its record will hold it as the start position).

        >>> from crapette import new_game
        >>> Game.from_state(new_game("classic", seed=3)).state.move_count
        0

        :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"from_state() expects a GameState, got {type(state).__name__}")
        game = cls.__new__(cls)
        game._seed = None
        game._states = [state]
        game._moves = []
        game._redo = []
        game.players = None
        game.date = None
        game.result = None
        game.tags = {}
        return game

    @classmethod
    def from_record(cls, record: GameRecord) -> Game:
        """Replay ``record``: the game stands after its last move, with its metadata.

        >>> record = GameRecord("casual", seed=1, moves=["T1-T0"], players=("Ann", "Bob"))
        >>> game = Game.from_record(record)
        >>> game.state.move_count, game.players
        (1, ('Ann', 'Bob'))
        >>> game.to_record() == record
        True

        :raises RecordError: at the record's first illegal move, with its index and the reason.
        """
        if not isinstance(record, GameRecord):
            raise TypeError(f"from_record() expects a GameRecord, got {type(record).__name__}")
        game = cls.from_state(record.initial_state())
        game._seed = record.seed
        states = list(record.states())
        game._states = states
        game._moves = list(record.moves)
        game.players = record.players
        game.date = record.date
        game.result = record.result
        game.tags = dict(record.tags)
        return game

    # The position ---------------------------------------------------------------

    @property
    def state(self) -> GameState:
        """The current state."""
        return self._states[-1]

    @property
    def start(self) -> GameState:
        """The state before the first move."""
        return self._states[0]

    @property
    def seed(self) -> int | None:
        """The seed of the deal, or None for a game started :meth:`from_state`."""
        return self._seed

    @property
    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves in the current state (see :func:`~crapette.legal_moves`).

        >>> [str(m) for m in Game("casual", seed=1).legal_moves]
        ['T1-T0', 'draw']
        """
        return legal_moves(self._states[-1])

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._states[-1].outcome

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self._states[-1].outcome is not None

    @property
    def history(self) -> tuple[Move, ...]:
        """The moves made, first to last (undone moves are not included)."""
        return tuple(self._moves)

    @property
    def states(self) -> tuple[GameState, ...]:
        """Every state so far: the start, then the state after each move of :attr:`history`."""
        return tuple(self._states)

    @property
    def redo_moves(self) -> tuple[Move, ...]:
        """The undone moves that :meth:`redo` would play again, next first."""
        return tuple(reversed(self._redo))

    @property
    def can_undo(self) -> bool:
        """True if a move has been made."""
        return bool(self._moves)

    @property
    def can_redo(self) -> bool:
        """True if an undone move can be played again."""
        return bool(self._redo)

    def view(self) -> PublicView:
        """The public view of the current state (see :func:`~crapette.view`)."""
        return view(self._states[-1])

    # Changing it ----------------------------------------------------------------

    def push(self, move: Move | str) -> None:
        """Play ``move`` (a :class:`~crapette.Move` or its notation).

        :raises IllegalMoveError: if the move is not legal; the game is unchanged.
        :raises ParseError: if a string is not a move.
        """
        if isinstance(move, str):
            move = parse_move(move)
        state = apply_move(self._states[-1], move)
        self._states.append(state)
        self._moves.append(move)
        if self._redo and self._redo[-1] is move:
            self._redo.pop()
        else:
            self._redo.clear()

    def undo(self) -> Move:
        """Take back the last move and return it; :meth:`redo` plays it again.

        :raises IndexError: if no move has been made.
        """
        if not self._moves:
            raise IndexError("nothing to undo: no move has been made")
        move = self._moves.pop()
        self._states.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play the last undone move again and return it.

        :raises IndexError: if there is no undone move.
        """
        if not self._redo:
            raise IndexError("nothing to redo")
        move = self._redo.pop()
        self._states.append(apply_move(self._states[-1], move))
        self._moves.append(move)
        return move

    # Records --------------------------------------------------------------------

    def to_record(
        self,
        *,
        players: Sequence[str] | None = None,
        date: str | None = None,
        result: str | None = None,
        tags: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
    ) -> GameRecord:
        """The record of the moves made so far.

        Each keyword, when given, replaces the game's attribute of that name.
        The result is, in this order: the ``result`` argument, the
        :attr:`~crapette.Game.result` attribute, or the result of the current outcome
        (``'1-0'``, ``'0-1'``, ``'1/2-1/2'``; None while the game goes on).

        >>> game = Game("casual", seed=1)
        >>> game.push("T1-T0")
        >>> record = game.to_record(players=("Ann", "Bob"))
        >>> [str(m) for m in record.moves], record.seed, record.players, record.result
        (['T1-T0'], 1, ('Ann', 'Bob'), None)

        :raises RecordError: if a metadata value is invalid.
        """
        state = self._states[0]
        if result is None:
            result = self.result if self.result is not None else result_of(self.outcome)
        return GameRecord(
            state.rules,
            self._seed,
            tuple(self._moves),
            start=None if self._seed is not None else state,
            players=self.players if players is None else players,
            date=self.date if date is None else date,
            result=result,
            tags=self.tags if tags is None else tags,
        )

    def __repr__(self) -> str:
        origin = f"seed={self._seed}" if self._seed is not None else "from a position"
        return f"<Game {origin}, {len(self._moves)} moves, {str(self.state)!r}>"
