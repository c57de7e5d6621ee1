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

A game's metadata is one value, a :class:`GameType` (as OpenSpiel's
``GameType``): its name, its number of players and how a finished game
scores for each player (the function of the outcome that ``returns``
applies). A game offers it as ``game_type``; ``name`` and ``num_players`` are
its fields. :func:`game_type_of` gives the metadata of any game. Games
written with :mod:`crapette.gamekit` get ``name``, ``num_players``,
``returns``, a cached ``legal_moves`` and a checked ``apply_move`` from it.

A game may also declare its cards, for the card-count check of
:func:`~crapette.testing.check_game`: ``deck`` (every card of the game, a
sequence of hashable values) and ``cards(state)`` (every card in a state,
wherever it lies). The card counts then never change.

More members are optional, for the generic tools:

- ``cut_short(state)``: the outcome of a game that a tool's move cap stops
  (:func:`~crapette.simulation.simulate`, the RL adapters), or None for "no
  outcome" (the game is then reported ``capped``, with no winner). Crapette
  settles such a game as its rules' move limit would: the one truncation
  settlement of the library.
- ``rng_seed(seed, view)``: the seed (an int) of the :class:`random.Random`
  with which a bot seeded ``seed`` chooses in a position that shows ``view``,
  the same in every process (by default the generator is seeded with
  ``f"{seed}/{view!r}"``); :func:`seeded_rng` is the one way a bot gets it.
- ``evaluator``: the judgement a search of the game uses unless given
  another (:mod:`crapette.evaluation`; by default random play to the end).
- ``strict_state(state, previous)``: the position as a search should see it,
  where no move may go back to a position the turn has reached (Crapette's
  ``revisits=False``, the engine's one rule against moving cards to and fro).

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import functools
import importlib
import operator
import random
import struct
import sys
import types
import zlib
from collections.abc import Callable, Iterable, Sequence
from itertools import chain
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

import attrs

from ._core.cards import ALL_CARDS, Card
from ._core.engine import apply_move as _apply_move
from ._core.engine import legal_moves as _legal_moves
from ._core.engine import new_game as _new_game
from ._core.moves import parse_move as _parse_move
from ._core.outcome import EndReason, Outcome
from ._core.rules import RuleSet, to_rules
from ._core.state import GameState, get_fields, raw_state, settle
from ._views.view import PublicView
from ._views.view import determinize as _determinize
from ._views.view import view as _view
from .evaluation import Evaluator, Playout

__all__ = [
    "DEFAULT_MAX_MOVES",
    "GameBot",
    "GameType",
    "CardGame",
    "CardOutcome",
    "CardState",
    "Crapette",
    "REQUIRED_MEMBERS",
    "check_card_game",
    "game_name",
    "game_type_of",
    "points_difference",
    "portable",
    "resolve",
    "same_game",
    "seeded_rng",
    "win_loss",
]

#: The move cap of a game that the library's tools play (:func:`crapette.simulation.simulate`,
#: the RL adapters) unless told otherwise.
DEFAULT_MAX_MOVES = 5000

# The types of a game's states, moves and views: the parameters of CardGame.
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
_StateIn = TypeVar("_StateIn", contravariant=True)
_MoveOut = TypeVar("_MoveOut", covariant=True)
ViewT = TypeVar("ViewT")


def win_loss(outcome: Any) -> tuple[float, ...]:
    """The returns of a two-player game that is won or drawn: 1 to the winner, -1 to the loser, 0 each for a draw.

    >>> from crapette import EndReason, Outcome
    >>> win_loss(Outcome(winner=1, reason=EndReason.EMPTIED))
    (-1.0, 1.0)
    """
    winner = outcome.winner
    if winner is None:
        return (0.0, 0.0)
    return (1.0, -1.0) if winner == 0 else (-1.0, 1.0)


def points_difference(outcome: Any) -> tuple[float, ...]:
    """The returns of a two-player game that scores: each player's points minus the other's.

    An outcome without points (``scores`` None) falls back to :func:`win_loss`.
    The returns always add up to 0. Crapette's returns, and the rewards of
    its RL adapters under ``rewards="points"`` (:func:`crapette.episode.rewards`).

    >>> from crapette import EndReason, Outcome
    >>> points_difference(Outcome(winner=1, reason=EndReason.EMPTIED, scores=(0, 53)))
    (-53.0, 53.0)
    >>> points_difference(Outcome(winner=0, reason=EndReason.EMPTIED))
    (1.0, -1.0)
    """
    scores = outcome.scores
    if scores is None:
        return win_loss(outcome)
    diff = float(scores[0] - scores[1])
    return (diff, 0.0 - diff)


def _check_players(_instance: object, _attribute: object, value: object) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"num_players must be an int from 1 up, got {repr(value)[:40]}")


@attrs.frozen
class GameType:
    """What a game is, as one value: its name, its players, and how a finished game scores.

    ``payoff(outcome)`` gives what a finished game is worth to each player,
    in player order (higher is better): the game's ``returns`` apply it to
    the state's outcome, search bots maximize it, and Crapette's RL adapters
    reward it under ``rewards="points"`` (their default is +-1 for a win or a loss). :func:`win_loss` and :func:`points_difference` serve most
    two-player games.

    >>> durak = GameType("durak", 2, win_loss)
    >>> durak.name, durak.num_players
    ('durak', 2)
    >>> Crapette("classic").game_type.payoff is points_difference
    True

    :raises ValueError: if ``num_players`` is not an int from 1 up.

    .. versionadded:: 0.3.0
    """

    #: The game's name, for reports and messages (``"durak"``).
    name: str
    #: The number of players (at least 1); players are numbered from 0.
    num_players: int = attrs.field(validator=_check_players)  # type: ignore[assignment]
    #: What a finished game is worth to each player, as a function of its outcome.
    payoff: Callable[[Any], tuple[float, ...]] = attrs.field(default=win_loss)

    def returns(self, state: Any) -> tuple[float, ...]:
        """``payoff`` of the outcome of ``state``.

        :raises ValueError: if the game is not over.
        """
        outcome = state.outcome
        if outcome is None:
            raise ValueError("the game is not over: it has no returns yet")
        return self.payoff(outcome)


def game_type_of(game: Any) -> GameType:
    """The metadata of ``game``: its ``game_type``, or one made of its ``name`` and ``num_players``.

    >>> game_type_of(Crapette("casual")).name
    'crapette'
    """
    found = getattr(game, "game_type", None)
    if isinstance(found, GameType):
        return found
    return GameType(game_name(game), game.num_players, lambda outcome: tuple(game.returns(_Over(outcome))))


@attrs.frozen
class _Over:
    outcome: Any


def seeded_rng(game: Any, seed: int, view_of_player: object) -> random.Random:
    """The generator of a bot seeded ``seed`` in a position that shows ``view_of_player``: the one every bot uses.

    Seeded with the game's own ``rng_seed(seed, view)`` when it has one (an
    int); else with ``f"{seed}/{view!r}"`` (a str seed is hashed with
    SHA-512, not Python's salted ``hash``, so it is the same in every
    process: a game's views must have a repr that shows them whole, as attrs
    classes do).

    >>> game = Crapette("classic")
    >>> view = game.view(game.new_game(3))
    >>> seeded_rng(game, 1, view).random() == seeded_rng(game, 1, view).random()
    True

    .. versionchanged:: 0.3.0
       A game offers ``rng_seed(seed, view)``, an int; a game's own
       ``seeded_rng(seed, view)`` is still used, with a deprecation warning.
    """
    own = getattr(game, "rng_seed", None)
    if own is not None:
        return random.Random(own(seed, view_of_player))
    old = getattr(game, "seeded_rng", None)
    if old is not None:
        import warnings

        warnings.warn(
            "a game's seeded_rng(seed, view) is deprecated since 0.3.0: offer rng_seed(seed, view), an int",
            DeprecationWarning,
            stacklevel=2,
        )
        return old(seed, view_of_player)  # type: ignore[no-any-return]
    return random.Random(f"{seed}/{view_of_player!r}")


def same_game(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` are the same game for a bot: equal, or of one :class:`GameType`.

    Crapette under any rules is one game: its states carry their rules.

    >>> same_game(Crapette("classic"), Crapette("casual")), same_game(Crapette("classic"), object())
    (True, False)
    """
    if a is b or a == b:
        return True
    try:
        return game_type_of(a) == game_type_of(b)
    except (AttributeError, TypeError):
        return False


@runtime_checkable
class GameBot(Protocol[_StateIn, _MoveOut]):
    """A player of a game whose states are ``StateT`` and moves ``MoveT``: ``choose(state)``.

    :class:`~crapette.bots.RandomBot` and :class:`~crapette.bots.SearchBot`
    are ``GameBot[StateT, MoveT]`` for any game; the bots that need
    Crapette's heuristics (:class:`~crapette.bots.GreedyBot`, the tree
    search) are ``GameBot[GameState, Move]`` only (:class:`crapette.bots.Bot`).
    """

    def choose(self, state: _StateIn) -> _MoveOut:
        """The move to play in ``state`` (which is not over)."""
        ...


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


def portable(game: Any) -> Any:
    """``game``, or a reference to it that pickles and deep-copies when it is a module (see :func:`resolve`).

    For a bot or a tool that holds a game and must travel to another process.

    >>> import crapette.protocol as protocol
    >>> token = portable(protocol)
    >>> resolve(token) is protocol, portable(Crapette("casual")) == Crapette("casual")
    (True, True)
    """
    if isinstance(game, types.ModuleType):
        return _ModuleRef(game.__name__)
    return game


def resolve(token: Any) -> Any:
    """The game that :func:`portable` gave ``token`` for (a module is imported again where needed)."""
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

    #: Crapette's metadata: two players, and a finished game worth :func:`points_difference`.
    game_type: ClassVar[GameType] = GameType("crapette", 2, points_difference)
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
        """A full state that shows ``view``: :func:`crapette.bots.determinize` (checked once per view)."""
        return _determinize(view, rng)

    def returns(self, state: GameState) -> tuple[float, ...]:
        """What the finished game is worth to each player: :func:`points_difference` of its outcome.

        Under rules that score, each player's points minus the other's; without
        scoring, 1 for the winner, -1 for the loser, 0 each when nobody won.
        The same values as the RL adapters' ``rewards="points"`` (:func:`crapette.episode.rewards`).

        >>> from crapette import Outcome
        >>> game = Crapette("classic")
        >>> game.returns(game.new_game(1))
        Traceback (most recent call last):
        ...
        ValueError: the game is not over: it has no returns yet

        :raises ValueError: if the game is not over.

        .. versionchanged:: 0.3.0
           The points' difference under rules that score (it was 1 or -1).
        """
        return self.game_type.returns(state)

    @staticmethod
    def cut_short(state: GameState) -> Outcome:
        """The outcome of a game that a tool's move cap stops: settled as the rules' move limit would."""
        return settle(state.rules, state.piles, EndReason.MOVE_LIMIT)

    @staticmethod
    def rng_seed(seed: int, view: PublicView) -> int:
        """The seed of the generator of a bot seeded ``seed`` in a position that shows ``view`` (with a checksum of the view).

        .. versionadded:: 0.3.0
           In place of ``seeded_rng``: :func:`crapette.protocol.seeded_rng` is the one entry point.
        """
        return seed * 4294967296 + _view_key(view)

    @property
    def evaluator(self) -> Evaluator:
        """The judgement a search of this game uses unless given another: :class:`~crapette.evaluation.Playout`.

        Greedy play to the end of the opponent's next turn, then the cards left
        (:class:`~crapette.evaluation.CardCount`).

        .. versionadded:: 0.3.0
        """
        return _PLAYOUT

    @staticmethod
    def strict_state(state: GameState, previous: GameState | None = None) -> GameState:
        """``state`` as a search should see it: no move may go back to a position the turn has reached.

        Under rules with ``revisits=True`` that is the same position under
        ``revisits=False`` (the engine's one rule against moving cards to and
        fro); its memory of the turn carries on from ``previous``, what this
        gave for the same player's last decision advanced by the move made,
        when that is the same position. Under ``revisits=False`` the state
        remembers the turn itself and is returned as it is. A bot that keeps
        ``previous`` between decisions keeps it when pickled.

        >>> from crapette import apply_move, legal_moves, new_game, parse_move
        >>> state = new_game("classic", seed=1)
        >>> strict = Crapette.strict_state(state)
        >>> after = apply_move(strict, parse_move("T7-T1"))
        >>> again = Crapette.strict_state(apply_move(state, parse_move("T7-T1")), after)
        >>> again is after, parse_move("T1-T7") in legal_moves(again)
        (True, False)

        .. versionadded:: 0.3.0
        """
        rules = state.rules
        if not rules.revisits:
            return state
        fields = get_fields(state)
        if previous is not None and get_fields(previous)[1:12] == fields[1:12] and previous.rules == _strict(rules):
            return previous
        return raw_state(*(_strict(rules), *fields[1:12], (), state.outcome))

    @staticmethod
    def cards(state: GameState) -> Iterable[Card]:
        """Every card of ``state``, pile after pile."""
        return chain.from_iterable(state.piles)


@functools.lru_cache(maxsize=64)
def _strict(rules: RuleSet) -> RuleSet:
    return attrs.evolve(rules, revisits=False)


_PLAYOUT = Playout()


def _view_key(v: PublicView) -> int:
    """A checksum of everything the view shows, to seed a bot's generator per position."""
    parts = [v.current_player, v.move_count, int(v.drawn), v.passes, *v.exhausted, *v.played]
    parts += [*v.reserve_sizes, *v.hand_sizes]
    for top in v.reserve_tops:
        parts.append(255 if top is None else top.index)
    for group in (v.foundations, v.tableau, v.wastes):
        for pile in group:
            parts.append(200 + len(pile))
            parts.extend(map(_INDEX, pile))
    try:
        data = struct.pack(f"<{len(parts)}I", *parts)
    except struct.error:
        # A number past 32 bits: what the bytes one by one said (OverflowError).
        data = b"".join(n.to_bytes(4, "little") for n in parts)
    return zlib.crc32(data)


_INDEX = operator.attrgetter("index")
