"""Game: a small mutable wrapper with undo and redo, for frontends.

The core stays immutable: a :class:`~crapette.GameState` never changes, and
:func:`~crapette.apply_move` returns a new one that shares the unchanged piles
with the old. Undo is therefore only a matter of keeping the previous states::

    states = [new_game("classic", seed=42)]
    states.append(apply_move(states[-1], move))   # play
    states.pop()                                  # undo

:class:`Game` does exactly that, and keeps the undone moves for redo.

Undo must not let a player peek: a move that turned a face-down card face up
(a Draw, or a play from the reserve that uncovers the next card; see
:func:`~crapette.reveals`) cannot be taken back by default, since the player
would then decide again knowing the card. ``Game(..., undo="any")`` lifts this
for analysis or hot-seat play where nothing is hidden from anyone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from .._core.engine import apply_move, legal_moves, new_game
from .._core.moves import Move, parse_move
from .._core.rules import RuleSet
from .._core.state import GameState, Outcome
from .._core.turns import reveals
from .._views.view import PublicView, view
from ..errors import UndoError
from .record import GameRecord, result_of

__all__ = ["Game"]

#: The undo policies of a :class:`Game`.
UndoPolicy = Literal["unrevealed", "any"]
_POLICIES = ("unrevealed", "any")



def _check_policy(undo: object) -> UndoPolicy:
    if undo not in _POLICIES:
        raise ValueError(f"undo must be 'unrevealed' or 'any', got {undo!r}")
    return undo  # type: ignore[return-value]


class Game:
    """A game in progress: the current state, the moves made, and undo/redo.

    ``Game(rules, seed)`` deals a new game (as :func:`~crapette.new_game`:
    the rules default to ``"classic"``, as everywhere in the library, and the
    seed to 0, so that ``Game()`` is always the same deal; pass a seed of your
    own, e.g. ``random.randrange(2**64)``, for a fresh one).
    :meth:`from_state` starts from any state and :meth:`from_record` replays a
    record. :meth:`push` plays a move, :meth:`undo` takes the last one back,
    :meth:`redo` plays an undone move again. Pushing any move other than the
    next one to redo forgets the undone moves. The metadata attributes
    (``players``, ``date``, ``result``, ``tags``) go into :meth:`to_record`.

    >>> game = Game("casual", seed=1)
    >>> game.push("T1-T0")
    >>> [str(m) for m in game.history], game.state.move_count
    (['T1-T0'], 1)
    >>> game.undo()
    parse_move('T1-T0')
    >>> game.state.move_count, game.can_redo
    (0, True)
    >>> game.redo()
    parse_move('T1-T0')
    >>> Game.from_record(game.to_record()).state == game.state
    True

    ``undo`` says which moves can be taken back. ``"unrevealed"`` (the
    default) undoes only moves that turned no face-down card face up (see
    :func:`~crapette.reveals`): after a Draw, or a reserve play that uncovered
    a card, :attr:`can_undo` is False and :meth:`undo` raises
    :class:`UndoError`, so no player can draw, undo and draw again to learn
    the order of a hand, nor undo past an opponent's draw to see its card.
    ``"any"`` undoes every move, for analysis, or for players at one screen
    who agree to it.

    >>> game.push("draw")
    >>> game.can_undo, game.undoable
    (False, 0)
    >>> free = Game("casual", seed=1, undo="any")
    >>> free.push("draw")
    >>> free.undo()
    parse_move('draw')

    The rules are read as :func:`~crapette.new_game` reads them:

    >>> Game("clasic")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid rules 'clasic': unknown preset 'clasic' (expected casual or classic)

    :raises ParseError: if ``rules`` is a malformed rules text: a preset name
        that does not exist, an unknown option, a value that is not one.
    :raises InvalidRulesError: if ``rules`` is a rules text naming impossible
        rules (options that make no sense together, a rule part nobody registered).
    :raises TypeError: if ``rules`` is neither a RuleSet nor a str.
    :raises ValueError: if the seed is not an int with ``0 <= seed < 2**64``,
        or ``undo`` is neither ``"unrevealed"`` nor ``"any"``.

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.3.0
       The rules default to ``"classic"`` (they were ``"casual"``), and undo
       refuses moves that revealed a card unless ``undo="any"``.
    """

    #: The names of player 0 and player 1, or None.
    players: tuple[str, str] | None
    #: Free text (ISO 8601 recommended), or None.
    date: str | None
    #: The result to record; None means: the outcome's result when the game is over.
    result: str | None
    #: Free tags for the record, in order.
    tags: dict[str, str]

    def __init__(
        self, rules: RuleSet | str = "classic", seed: int = 0, *, undo: UndoPolicy = "unrevealed"
    ) -> None:
        self._undo_policy: UndoPolicy = _check_policy(undo)
        self._seed: int | None = seed
        self._states: list[GameState] = [new_game(rules, seed)]
        self._moves: list[Move] = []
        self._redo: list[Move] = []
        self.players = None
        self.date = None
        self.result = None
        self.tags = {}

    @classmethod
    def from_state(cls, state: GameState, *, undo: UndoPolicy = "unrevealed") -> Game:
        """A game that starts from ``state`` (its record will hold it as the start position).

        >>> from crapette import new_game
        >>> Game.from_state(new_game("classic", seed=3)).state.move_count
        0

        :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if ``undo`` is neither ``"unrevealed"`` nor ``"any"``.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"from_state() expects a GameState, got {type(state).__name__}")
        game = cls.__new__(cls)
        game._undo_policy = _check_policy(undo)
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
    def from_record(cls, record: GameRecord, *, undo: UndoPolicy = "unrevealed") -> Game:
        """Replay ``record``: the game stands after its last move, with its metadata.

        The replayed moves can be undone as the ``undo`` policy allows (see
        :class:`Game`): a record loaded to go on playing does not let its
        player take back a draw either.

        >>> record = GameRecord("casual", seed=1, moves=["T1-T0"], players=("Ann", "Bob"))
        >>> game = Game.from_record(record)
        >>> game.state.move_count, game.players
        (1, ('Ann', 'Bob'))
        >>> game.to_record() == record
        True

        :raises RecordError: at the record's first illegal move, with its index and the reason.
        :raises ValueError: if ``undo`` is neither ``"unrevealed"`` nor ``"any"``.
        """
        if not isinstance(record, GameRecord):
            raise TypeError(f"from_record() expects a GameRecord, got {type(record).__name__}")
        game = cls.from_state(record.initial_state(), undo=undo)
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
    def undo_policy(self) -> UndoPolicy:
        """Which moves :meth:`undo` takes back: ``"unrevealed"`` or ``"any"`` (see :class:`Game`)."""
        return self._undo_policy

    @property
    def can_undo(self) -> bool:
        """True if :meth:`undo` would take back a move now.

        False before the first move, and under ``undo="unrevealed"`` when the
        last move turned a face-down card face up.
        """
        return self.undoable > 0

    @property
    def undoable(self) -> int:
        """How many of the last moves :meth:`undo` can take back, one after the other.

        Every move under ``undo="any"``; under ``undo="unrevealed"``, the moves
        made since the last one that turned a face-down card face up. A
        frontend that takes back several moves at once (a player's move and
        the opponent's replies) checks this first, so that it never stops
        half-way.

        >>> game = Game("classic", seed=1)
        >>> game.push("R0-T5")      # uncovers the next reserve card
        >>> game.push("T7-T1")
        >>> game.undoable
        1
        """
        if self._undo_policy == "any":
            return len(self._moves)
        count = 0
        states, moves = self._states, self._moves
        for index in range(len(moves) - 1, -1, -1):
            if reveals(states[index], moves[index]):
                break
            count += 1
        return count

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

        :raises UndoError: if no move has been made, or (under the default
            ``undo="unrevealed"``) if the last move turned a face-down card
            face up; the game is unchanged.
        """
        if not self._moves:
            raise UndoError("nothing to undo: no move has been made")
        move = self._moves[-1]
        if self._undo_policy == "unrevealed" and reveals(self._states[-2], move):
            raise UndoError(f"cannot take back {move}: it turned a face-down card face up")
        self._moves.pop()
        self._states.pop()
        self._redo.append(move)
        return move

    def redo(self) -> Move:
        """Play the last undone move again and return it.

        :raises UndoError: if there is no undone move.
        """
        if not self._redo:
            raise UndoError("nothing to redo")
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
