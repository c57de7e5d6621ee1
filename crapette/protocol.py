"""The protocol of a turn-based card game: what the library's generic tools need of a game.

A game is anything that offers the members of :class:`CardGame`: a module
with these names at module level, or an object. :class:`~crapette.bots.RandomBot`
and :class:`~crapette.bots.SearchBot` (built with ``game=``),
:func:`crapette.simulation.simulate` and :func:`crapette.testing.check_game`
play any such game. Crapette itself is one: :class:`Crapette` wraps a
:class:`~crapette.RuleSet`, and its ``legal_moves`` and ``apply_move`` *are*
the engine's :func:`~crapette.legal_moves` and :func:`~crapette.apply_move`,
so a tool that plays through the protocol runs the engine's own hot path.

>>> import random
>>> game = Crapette("casual")
>>> isinstance(game, CardGame)
True
>>> state, rng = game.new_game(7), random.Random(7)
>>> while not state.is_over and rng.random() < 0.99:
...     state = game.apply_move(state, rng.choice(game.legal_moves(state)))
>>> state.current_player in range(game.num_players)
True

What a game promises (:func:`crapette.testing.check_game` checks all of it):

- ``new_game(seed)`` deals the same state for the same seed, for every int
  ``0 <= seed < 2**64``, and raises :class:`ValueError` for any other seed.
- States are immutable values: equal when they show the same position,
  hashable, and never changed by any function of the game. A state has
  ``current_player`` (from 0 to ``num_players - 1``), ``is_over`` and
  ``outcome`` (None while the game goes on; see :class:`CardOutcome`).
- ``legal_moves(state)`` lists exactly the legal moves of the player to move,
  in a fixed order, and nothing once the game is over; a game that is not
  over has at least one.
- Moves are values too (equal and hashable); ``str(move)`` is the move's
  notation and ``parse_move(str(move)) == move``. ``parse_move`` raises a
  :class:`ValueError` (:class:`~crapette.ParseError`) for text that is no move.
- ``apply_move(state, move)`` returns the next state and leaves ``state`` as
  it was; a move that is not one of ``legal_moves(state)`` raises
  :class:`~crapette.IllegalMoveError` (a :class:`ValueError`).
- ``view(state, player)`` is what ``player`` may see: a hashable value in
  which face-down cards are counts. The legal moves of the player to move
  depend only on that player's view.
- ``determinize(view, rng)`` deals the cards the view hides at random (drawn
  with ``rng``, a :class:`random.Random`): a full state whose view is
  ``view`` again. Search bots look ahead in such states.
- ``returns(state)`` says what a finished game is worth to each player
  (higher is better): what search bots maximize.

A game may also declare its cards, for the card-count check of
:func:`~crapette.testing.check_game`: ``deck`` (every card of the game, a
sequence of hashable values) and ``cards(state)`` (every card in a state,
wherever it lies). The card counts then never change.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import importlib
import random
import sys
import types
from collections.abc import Iterable, Sequence
from itertools import chain
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import attrs

from ._cards import ALL_CARDS, Card
from ._engine import apply_move as _apply_move
from ._engine import legal_moves as _legal_moves
from ._engine import new_game as _new_game
from ._moves import parse_move as _parse_move
from ._rules import RuleSet, to_rules
from ._state import GameState
from ._view import PublicView
from ._view import determinize as _determinize
from ._view import view as _view

__all__ = [
    "CardGame",
    "CardOutcome",
    "CardState",
    "Crapette",
    "REQUIRED_MEMBERS",
    "check_card_game",
    "game_name",
]

# The types of a game's states, moves and views: the parameters of CardGame.
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
ViewT = TypeVar("ViewT")


@runtime_checkable
class CardOutcome(Protocol):
    """How a finished game ended: what :class:`CardState.outcome` gives.

    :class:`crapette.Outcome` is one. An outcome may also have a ``reason``
    (its string is reported by :func:`~crapette.simulation.simulate`).

    >>> from crapette import EndReason, Outcome
    >>> isinstance(Outcome(winner=1, reason=EndReason.EMPTIED), CardOutcome)
    True
    """

    @property
    def winner(self) -> int | None:
        """The player who won, or None for a game without a winner."""
        ...

    @property
    def scores(self) -> tuple[int, ...] | None:
        """Points scored by each player, in player order, or None for a game without points."""
        ...


@runtime_checkable
class CardState(Protocol):
    """What every state of a :class:`CardGame` offers (besides being an immutable, hashable value).

    :class:`crapette.GameState` is one.

    >>> from crapette import new_game
    >>> isinstance(new_game("classic", seed=1), CardState)
    True
    """

    @property
    def current_player(self) -> int:
        """The player to move, from 0 to ``num_players - 1``."""
        ...

    @property
    def is_over(self) -> bool:
        """True once the game has ended: then there is no legal move."""
        ...

    @property
    def outcome(self) -> CardOutcome | None:
        """How the game ended, or None while it goes on."""
        ...


@runtime_checkable
class CardGame(Protocol[StateT, MoveT, ViewT]):
    """A turn-based card game for one player or more: its states, moves and views are of the types
    ``StateT``, ``MoveT`` and ``ViewT`` (``CardGame[DurakState, Move, DurakView]``).

    A module with these functions at module level is a ``CardGame`` (so
    ``check_game(durak)`` works for a module ``durak``), and so is any object
    with them as attributes or methods. The module's docstring says what
    each member promises.

    >>> isinstance(Crapette("classic"), CardGame)
    True
    """

    @property
    def name(self) -> str:
        """The game's name, for reports and messages (``"durak"``)."""
        ...

    @property
    def num_players(self) -> int:
        """The number of players (at least 1); players are numbered from 0."""
        ...

    def new_game(self, seed: int) -> StateT:
        """The state dealt from ``seed`` (an int, ``0 <= seed < 2**64``), the same every time."""
        ...

    def legal_moves(self, state: StateT) -> Sequence[MoveT]:
        """Exactly the legal moves of the player to move, in a fixed order (none once the game is over)."""
        ...

    def apply_move(self, state: StateT, move: MoveT) -> StateT:
        """The state after ``move``, which must be legal; ``state`` itself never changes.

        :raises IllegalMoveError: if ``move`` is not one of ``legal_moves(state)``.
        """
        ...

    def returns(self, state: StateT) -> Sequence[float]:
        """What the finished game ``state`` is worth to each player, in player order (higher is better)."""
        ...

    def view(self, state: StateT, player: int) -> ViewT:
        """What ``player`` may see of ``state``: a hashable value, face-down cards as counts."""
        ...

    def determinize(self, view: ViewT, rng: random.Random) -> StateT:
        """A full state whose view is ``view``, the hidden cards dealt at random with ``rng``."""
        ...

    def parse_move(self, text: str) -> MoveT:
        """The move written ``text`` (``str(move)`` writes it).

        :raises ValueError: if the text is not a move.
        """
        ...


#: The members every game must have, in the order :func:`check_card_game` reports them.
REQUIRED_MEMBERS = (
    "name",
    "num_players",
    "new_game",
    "legal_moves",
    "apply_move",
    "returns",
    "view",
    "determinize",
    "parse_move",
)


def check_card_game(game: object) -> CardGame[Any, Any, Any]:
    """Return ``game`` if it has every member of :class:`CardGame`; else raise TypeError naming what is missing.

    >>> check_card_game(Crapette("casual")).name
    'crapette'
    >>> check_card_game(object())
    Traceback (most recent call last):
    ...
    TypeError: object is not a card game (crapette.protocol.CardGame): it has no name, num_players, new_game, legal_moves, apply_move, returns, view, determinize, parse_move

    :raises TypeError: if a member is missing, or ``num_players`` is not an int from 1 up.
    """
    missing = [name for name in REQUIRED_MEMBERS if not hasattr(game, name)]
    if missing:
        raise TypeError(
            f"{_describe(game)} is not a card game (crapette.protocol.CardGame): "
            f"it has no {', '.join(missing)}"
        )
    players = getattr(game, "num_players")
    if not isinstance(players, int) or isinstance(players, bool) or players < 1:
        raise TypeError(f"{_describe(game)}.num_players must be an int from 1 up, got {repr(players)[:40]}")
    return game  # type: ignore[return-value]


def _describe(game: object) -> str:
    if isinstance(game, types.ModuleType):
        return f"module {game.__name__}"
    return type(game).__name__


def game_name(game: object) -> str:
    """The name of ``game`` for messages: its ``name``, else its module's or class's name.

    >>> game_name(Crapette("classic"))
    'crapette'
    """
    name = getattr(game, "name", None)
    if isinstance(name, str):
        return name
    return _describe(game)


# Games travel to other processes (an executor's workers) and through copy.deepcopy.
# A module does neither, so it travels as its name and is imported again there.


@attrs.frozen
class _ModuleRef:
    name: str


def _portable(game: Any) -> Any:
    """``game``, or a reference to it that pickles and deep-copies when it is a module."""
    if isinstance(game, types.ModuleType):
        return _ModuleRef(game.__name__)
    return game


def _resolve(token: Any) -> Any:
    """The game that :func:`_portable` gave ``token`` for."""
    if isinstance(token, _ModuleRef):
        module = sys.modules.get(token.name)
        return module if module is not None else importlib.import_module(token.name)
    return token


def _to_rules(rules: RuleSet | str) -> RuleSet:
    return to_rules(rules, "Crapette()")


@attrs.frozen(repr=False)
class Crapette:
    """Crapette under ``rules`` (a :class:`~crapette.RuleSet` or its text), as a :class:`CardGame`.

    ``legal_moves``, ``apply_move`` and ``parse_move`` are the engine's own
    functions, not wrappers: a generic tool pays nothing for playing
    Crapette through the protocol. ``new_game(seed)`` is
    ``crapette.new_game(rules, seed)``; ``view(state, player)`` is
    :func:`crapette.view` (the same for both players); ``determinize`` is
    :func:`crapette.bots.determinize`. ``returns`` gives 1 to the winner, -1
    to the loser and 0 to both for a game without a winner.

    >>> from crapette import apply_move, legal_moves
    >>> game = Crapette("classic")
    >>> game.legal_moves is legal_moves and game.apply_move is apply_move
    True
    >>> game.new_game(3) == __import__("crapette").new_game("classic", 3)
    True
    >>> Crapette("classic(move_limit=300)")
    Crapette('classic(move_limit=300)')

    :raises InvalidRulesError: if ``rules`` is a string that is no rule set
        (:func:`crapette.parse_rules`).
    :raises TypeError: if ``rules`` is neither a RuleSet nor a string.
    """

    #: The rules every game is dealt and played under.
    rules: RuleSet = attrs.field(converter=_to_rules)

    name: ClassVar[str] = "crapette"
    num_players: ClassVar[int] = 2
    #: The 104 cards (:data:`crapette.ALL_CARDS`).
    deck: ClassVar[tuple[Card, ...]] = ALL_CARDS

    legal_moves = staticmethod(_legal_moves)
    apply_move = staticmethod(_apply_move)
    parse_move = staticmethod(_parse_move)

    def __repr__(self) -> str:
        return f"Crapette({str(self.rules)!r})"

    def new_game(self, seed: int = 0) -> GameState:
        """The game dealt from ``seed`` under these rules (:func:`crapette.new_game`).

        :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
        """
        return _new_game(self.rules, seed)

    def view(self, state: GameState, player: int = 0) -> PublicView:
        """The public view of ``state`` (:func:`crapette.view`): the same for both players.

        >>> game = Crapette("casual")
        >>> state = game.new_game(1)
        >>> game.view(state, 0) == game.view(state, 1)
        True

        :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if ``player`` is not 0 or 1.
        """
        if player not in (0, 1) or isinstance(player, bool):
            raise ValueError(f"player must be 0 or 1, got {player!r}")
        return _view(state)

    def determinize(self, view: PublicView, rng: random.Random | None = None) -> GameState:
        """A full state that shows ``view``: :func:`crapette.bots.determinize`."""
        return _determinize(view, rng)

    def returns(self, state: GameState) -> tuple[float, float]:
        """1 for the winner, -1 for the loser, 0 for both when nobody won.

        >>> from crapette import Outcome
        >>> game = Crapette("classic")
        >>> game.returns(game.new_game(1))
        Traceback (most recent call last):
        ...
        ValueError: the game is not over: it has no returns yet

        :raises ValueError: if the game is not over.
        """
        outcome = state.outcome
        if outcome is None:
            raise ValueError("the game is not over: it has no returns yet")
        if outcome.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if outcome.winner == 0 else (-1.0, 1.0)

    @staticmethod
    def cards(state: GameState) -> Iterable[Card]:
        """Every card of ``state``, pile after pile."""
        return chain.from_iterable(state.piles)
