"""Every exception crapette raises, in one module.

The exceptions are raised where they are documented and importable from
there too (``crapette.IllegalMoveError``, ``crapette.simulation.BotError``,
``crapette.testing.InvariantViolation``); this module holds them all, so that
a program can import every one from one place, as from ``attrs.exceptions``.
Every exception a parser or a public constructor raises for bad input is a
:class:`ValueError` (or a :class:`TypeError` for a value of the wrong type),
with a message that says what was wrong.

===================================================  ==========================================  ==========================
exception                                            raised when                                 base classes
===================================================  ==========================================  ==========================
:class:`~crapette.ParseError`                        text breaks the notation                    ValueError
:class:`~crapette.IllegalMoveError`                  a move the rules forbid where it is played  ValueError
:class:`~crapette.InvalidStateError`                 a state breaks the game's invariants        ValueError
:class:`~crapette.HiddenCardError`                   a view cannot follow a move: it shows a     ValueError
                                                     card the view does not know
:class:`~crapette.InvalidRulesError`                 rule options that make no sense together    ValueError
:class:`~crapette.RulePartError`                     a rule part of one's own misbehaves         InvalidRulesError
:class:`~crapette.RecordError`                       a game record does not replay               ValueError
:class:`~crapette.UndoError`                         a Game cannot undo or redo                  IndexError
:class:`~crapette.simulation.SimulationError`        a simulation stopped before its last game   RuntimeError
:class:`~crapette.simulation.BotError`               a bot failed in a simulation                SimulationError
:class:`~crapette.simulation.IllegalBotMoveError`    a bot chose an illegal move                 BotError, IllegalMoveError
:class:`~crapette.simulation.SimulationInterrupted`  a simulation was interrupted (Ctrl-C)       KeyboardInterrupt
:class:`~crapette.testing.InvariantViolation`        a check found a broken invariant            AssertionError
===================================================  ==========================================  ==========================

>>> from crapette import errors, parse_card
>>> try:
...     parse_card("1H0")
... except errors.ParseError as error:
...     print(error)
invalid card '1H0': unknown rank '1' (expected A, 2-9, T or 10, J, Q, K)
>>> import crapette
>>> errors.IllegalMoveError is crapette.IllegalMoveError
True

.. versionadded:: 0.3.0
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._core.moves import Move
    from ._core.state import GameState
    from ._play.report import SimulationReport

__all__ = [
    "BotError",
    "HiddenCardError",
    "IllegalBotMoveError",
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "InvariantViolation",
    "ParseError",
    "RecordError",
    "RulePartError",
    "SimulationError",
    "SimulationInterrupted",
    "UndoError",
]


class ParseError(ValueError):
    """Text that does not follow the documented notation.

    Raised by :func:`~crapette.parse_card`, :func:`~crapette.parse_pile`,
    :func:`~crapette.parse_move` and every other parser of the library. The
    message says what was wrong and where.

    >>> from crapette import parse_card
    >>> parse_card("1H0")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid card '1H0': unknown rank '1' (expected A, 2-9, T or 10, J, Q, K)
    """


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the given state.

    Raised by :func:`~crapette.apply_move`; the message says why the move is
    illegal. :attr:`move` is the move and :attr:`reason` why the rules forbid
    it (the message without the move: :func:`~crapette.explain_illegal`'s
    answer); :func:`crapette.wording.describe_illegal` words the message for a
    person.

    >>> from crapette import apply_move, new_game, parse_move
    >>> apply_move(new_game("casual", seed=1), parse_move("end"))
    Traceback (most recent call last):
    ...
    crapette.IllegalMoveError: illegal move end: these rules have no End turn: a turn ends by an unplayable draw or a pass
    >>> try:
    ...     apply_move(new_game("casual", seed=1), parse_move("R1-T4"))
    ... except IllegalMoveError as error:
    ...     print(repr(error.move), error.reason)
    parse_move('R1-T4') R1 is player 1's reserve and player 0 is to move

    .. versionchanged:: 0.3.0
       :attr:`move` and :attr:`reason`.
    """

    #: The move refused: a :class:`~crapette.Move` from the engine, a game's own move
    #: from the games of :mod:`crapette.protocol`; None where the error names no one
    #: move (an RL adapter's action number that is not legal, say).
    move: Any
    #: Why the rules forbid :attr:`move`, or None where the error does not say apart from its message.
    reason: str | None

    def __init__(self, message: str, *, move: Any = None, reason: str | None = None) -> None:
        super().__init__(message)
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (_illegal_move_error, (self.args[0] if self.args else "", self.move, self.reason))


def _illegal_move_error(message: str, move: Any, reason: str | None) -> IllegalMoveError:
    return IllegalMoveError(message, move=move, reason=reason)


class InvalidStateError(ValueError):
    """A game state that breaks the invariants of the game.

    :attr:`problems` lists every broken invariant (a single string is one
    problem); the message joins them.

    >>> from crapette import new_game, parse_position
    >>> text = str(new_game("casual", seed=1)).replace("F:-/", "F:AH0/", 1)
    >>> try:
    ...     parse_position(text)
    ... except InvalidStateError as exc:
    ...     print(exc.problems)
    ('card AH0 is in both F0 and H0',)
    """

    problems: tuple[str, ...]

    def __init__(self, problems: Iterable[str] | str) -> None:
        self.problems = (problems,) if isinstance(problems, str) else tuple(problems)
        count = len(self.problems)
        head = "invalid state" if count == 1 else f"invalid state ({count} problems)"
        super().__init__(f"{head}: " + "; ".join(self.problems))

    def __reduce__(self) -> tuple[type[InvalidStateError], tuple[tuple[str, ...]]]:
        # The message is built from the problems, so the problems are what a pickle keeps.
        return (type(self), (self.problems,))


class HiddenCardError(ValueError):
    """A move applied to a :class:`~crapette.PublicView` that would turn up a card the view does not know.

    :func:`~crapette.apply_move` steps a view along any legal move that
    reveals nothing (:func:`~crapette.reveals`); a draw from a hand whose
    order is not known, or a play from a reserve whose next card nobody has
    seen, needs the state: the next view depends on that card. :attr:`move`
    is the move refused.

    >>> from crapette import apply_move, new_game, parse_move, view
    >>> v = apply_move(view(new_game("casual", seed=1)), parse_move("T1-T0"))
    >>> apply_move(v, parse_move("draw"))
    Traceback (most recent call last):
    ...
    crapette.HiddenCardError: draw turns up the top card of player 0's hand, which the view does not show: apply it to the state

    .. versionadded:: 0.4.0
    """

    #: The move refused.
    move: Any

    def __init__(self, message: str, *, move: Any = None) -> None:
        super().__init__(message)
        self.move = move

    def __reduce__(self) -> tuple[Any, ...]:
        return (_hidden_card_error, (self.args[0] if self.args else "", self.move))


def _hidden_card_error(message: str, move: Any) -> HiddenCardError:
    return HiddenCardError(message, move=move)


class InvalidRulesError(ValueError):
    """A :class:`~crapette.RuleSet` whose options are wrong or make no sense together.

    >>> import attrs
    >>> from crapette import RuleSet
    >>> attrs.evolve(RuleSet.casual(), stack_moves=True, own_tableau_build="suit-up-or-down")
    Traceback (most recent call last):
    ...
    crapette.InvalidRulesError: stack_moves needs a tableau that builds down in alternating colours: set own_tableau_build or opponent_tableau_build to 'down-alternating'
    """


class RulePartError(InvalidRulesError):
    """A rule part of one's own whose hook raised, or answered something it must not.

    Every hook of a registered part of one's own (``who_starts``, ``penalty``,
    ``points_for_win``, ``start``, ``update``, ``ends``, ``accepts``) is checked:
    an exception it raises is wrapped in this error (the original is its
    ``__cause__``), and an answer of the wrong type or out of range (``ends``
    returning ``"no"``, a penalty of None or -1, a first player of 2) raises it
    too. A building rule and a scoring are probed when a
    :class:`~crapette.RuleSet` is made (every pair of cards, penalties on small
    counts); a first-player rule and endings of one's own the first time the
    engine plays the rules (a few deals, each dealt twice, and a few moves).
    :attr:`part` is the part's text, :attr:`hook` the hook's name.

    >>> from crapette import FirstPlayer, RuleSet, new_game, register
    >>> @register
    ... class Second(FirstPlayer):
    ...     name = "second-for-the-docs"
    ...     def who_starts(self, deal, seed):
    ...         return 2
    >>> new_game(RuleSet(first_player=Second()))
    Traceback (most recent call last):
    ...
    crapette.RulePartError: the first-player rule second-for-the-docs: who_starts() returned 2, not 0 or 1

    .. versionadded:: 0.3.0
    .. versionchanged:: 0.3.0
       First-player rules and endings are probed when the rules are first played, not when they are made.
    """

    part: str
    hook: str

    def __init__(self, message: str, *, part: str = "", hook: str = "") -> None:
        super().__init__(message)
        self.part = part
        self.hook = hook

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rule_part_error, (self.args[0] if self.args else "", self.part, self.hook))


def _rule_part_error(message: str, part: str, hook: str) -> RulePartError:
    return RulePartError(message, part=part, hook=hook)


class RecordError(ValueError):
    """A game record that is inconsistent, or a move that is illegal where it stands.

    For an illegal move, :attr:`index` is its position in
    :attr:`GameRecord.moves <crapette.GameRecord.moves>` (counting from 0),
    :attr:`move` the move and :attr:`reason` why the rules forbid it;
    otherwise all three are None.

    >>> from crapette import GameRecord, RuleSet
    >>> record = GameRecord(RuleSet.casual(), seed=1, moves=["T1-T0", "R1-F0"])
    >>> try:
    ...     record.replay()
    ... except RecordError as exc:
    ...     print(exc.index, exc.move, exc.reason)
    1 R1-F0 R1 is player 1's reserve and player 0 is to move

    .. versionadded:: 0.1.0
    """

    index: int | None
    move: Move | None
    reason: str | None

    def __init__(
        self,
        message: str,
        *,
        index: int | None = None,
        move: Move | None = None,
        reason: str | None = None,
    ) -> None:
        super().__init__(message)
        self.index = index
        self.move = move
        self.reason = reason

    def __reduce__(self) -> tuple[Any, ...]:
        return (_record_error, (self.args[0] if self.args else "", self.index, self.move, self.reason))


def _record_error(message: str, index: int | None, move: Move | None, reason: str | None) -> RecordError:
    return RecordError(message, index=index, move=move, reason=reason)


class UndoError(IndexError):
    """An undo or redo that a :class:`~crapette.Game` cannot do.

    Raised when no move has been made, when there is no undone move to redo,
    and (under the default ``undo="unrevealed"``) when the last move turned a
    face-down card face up: taking it back would let the player see that card
    before choosing again. The message says which, in words a frontend can
    show as they are. It is an :class:`IndexError`, as the undo errors of
    earlier releases were.

    >>> from crapette import Game
    >>> game = Game("classic", seed=3)
    >>> game.push("draw")
    >>> try:
    ...     game.undo()
    ... except UndoError as error:
    ...     print(error)
    cannot take back draw: it turned a face-down card face up

    .. versionadded:: 0.3.0
    """


def _rebuild_error(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    error = cls.__new__(cls, *args)
    error.__dict__.update(state)
    return error


class SimulationError(RuntimeError):
    """:func:`~crapette.simulation.simulate` stopped before playing every game: a game failed, or the executor lost some.

    :attr:`~SimulationError.report` holds every game that had finished, :attr:`~SimulationError.games` the
    games that failed. The error's ``__cause__`` is what went wrong (on an
    executor: the remote traceback, which ends with the original error).

    >>> from crapette.bots import RandomBot
    >>> from crapette.simulation import simulate
    >>> class NotABot:  # a game fails when the bots cannot be copied for it
    ...     def choose(self, state): ...
    ...     def __deepcopy__(self, memo): raise RuntimeError("no copies")
    >>> try:
    ...     simulate("classic", (NotABot(), RandomBot()), games=3)
    ... except SimulationError as error:
    ...     print(error)
    ...     print(error.games, error.report.games)
    game 0 (deal 0) failed: RuntimeError: no copies
    (0,) 0

    .. attribute:: report
       :type: SimulationReport

       The games that had finished when the simulation stopped (fewer than asked), in game order.

    .. attribute:: games
       :type: tuple[int, ...]

       The numbers of the games that failed.

    .. versionadded:: 0.2.0
    """

    report: SimulationReport
    games: tuple[int, ...]

    def __init__(self, message: str, *, report: SimulationReport, games: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.report = report
        self.games = games

    def __reduce__(self) -> tuple[Any, ...]:
        # The error travels back from an executor's workers by pickling: keep every attribute.
        return (_rebuild_error, (type(self), self.args, self.__dict__))


class BotError(SimulationError):
    """A bot failed in game ``game``: its ``choose`` raised (the error's ``__cause__``).

    The message names the bot, the game, its deal and the move;
    :attr:`~SimulationError.report` holds the games that had finished.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> from crapette.simulation import simulate
    >>> class Sulky:
    ...     def choose(self, state):
    ...         if state.move_count > 300:
    ...             raise RuntimeError("I give up")
    ...         return RandomBot().choose(state)
    ...     def __repr__(self):
    ...         return "Sulky()"
    >>> try:
    ...     simulate("classic", (GreedyBot(), Sulky()), games=10)
    ... except BotError as error:
    ...     print(error)
    ...     print(error.bot, error.player, error.game, error.deal, error.move)
    ...     print(error.report.games, error.report.wins)
    Sulky() (bot 1, as player 0) failed in game 1 (deal 0) at move 301: RuntimeError: I give up
    1 0 1 0 301
    1 (1, 0)

    .. versionadded:: 0.2.0
    """

    #: The bot's number in ``bots`` (its name is ``report.bots[bot]``).
    bot: int
    #: The player it was playing in that game.
    player: int
    #: The game's number in the simulation.
    game: int
    #: The seed the game was dealt from.
    deal: int
    #: The moves played in that game before the failure.
    move: int

    def __init__(
        self, message: str, *, report: SimulationReport, bot: int, player: int, game: int, deal: int, move: int
    ) -> None:
        super().__init__(message, report=report, games=(game,))
        self.bot = bot
        self.player = player
        self.game = game
        self.deal = deal
        self.move = move


class IllegalBotMoveError(BotError, IllegalMoveError):
    """A bot chose a move that the game refused: an illegal move, or something that is not a move.

    It is also an :class:`~crapette.IllegalMoveError`, which :func:`~crapette.simulation.simulate` raised
    for an illegal move before 0.2.0, so code that catches that still does. Its
    ``__cause__`` is the error of ``apply_move`` that refused the move (none
    for a Crapette bot that returned something that is not a
    :class:`~crapette.Move`).

    .. versionadded:: 0.2.0
    """


class SimulationInterrupted(KeyboardInterrupt):
    """:func:`~crapette.simulation.simulate` was interrupted (Ctrl-C): :attr:`~SimulationError.report` holds the games that had finished.

    It is a :class:`KeyboardInterrupt`, so code that does not know it stops
    as before, and ``except Exception`` does not catch it.

    .. versionadded:: 0.2.0
    """

    #: The games that had finished when the simulation was interrupted, in game order.
    report: SimulationReport

    def __init__(self, message: str, *, report: SimulationReport) -> None:
        super().__init__(message)
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (type(self), self.args, self.__dict__))


class InvariantViolation(AssertionError):
    """An invariant of the game that the engine broke, with what it takes to reproduce it.

    An :class:`AssertionError`, so a test framework reports it as a failed
    check. The message names the invariant and the first violation found,
    and gives the position string of the state in which it was found.

    >>> from crapette import new_game
    >>> error = InvariantViolation(
    ...     "card-count", "card 5H0 is missing", state=new_game("casual", seed=3), seed=3
    ... )
    >>> error.invariant, error.seed, error.position[:15]
    ('card-count', 3, 'casual 0 0 - F:')
    >>> print(str(error).splitlines()[0])
    invariant 'card-count' broken: card 5H0 is missing

    .. attribute:: invariant
       :type: str

       Which invariant broke: one of the names listed in :mod:`crapette.testing`.

    .. attribute:: detail
       :type: str

       What exactly was wrong.

    .. attribute:: position
       :type: str | None

       The position string of the state in which the violation was found
       (read it back with :func:`~crapette.parse_position`), or None
       if the state cannot even be written.

    .. attribute:: move
       :type: crapette.Move | None

       The move that exposed the violation when applied to that state, or None
       if the state itself is at fault. (Under :func:`check_game`: a move of
       the game checked.)

    .. attribute:: seed
       :type: int | None

       The seed of the game (:func:`~crapette.new_game`) in which it was found,
       if known.

    .. attribute:: moves
       :type: tuple[crapette.Move, ...]

       The moves played from the deal to the state: ``new_game(rules, seed)``
       followed by these moves reaches it again.

    .. attribute:: game
       :type: str | None

       Under :func:`check_game`, the name of the game checked (then
       ``game.new_game(seed)`` followed by :attr:`moves` reaches the state);
       else None.
    """

    invariant: str
    detail: str
    position: str | None
    move: Move | None
    seed: int | None
    moves: tuple[Move, ...]
    game: str | None

    def __init__(
        self,
        invariant: str,
        detail: str,
        *,
        state: GameState | None = None,
        position: str | None = None,
        move: Move | None = None,
        seed: int | None = None,
        moves: Sequence[Move] = (),
        game: str | None = None,
    ) -> None:
        self.invariant = invariant
        self.detail = detail
        self.position = _position_of(state) if position is None and state is not None else position
        self.move = move
        self.seed = seed
        self.moves = tuple(moves)
        self.game = game
        lines = [f"invariant {invariant!r} broken: {detail}"]
        if self.position is not None:
            lines.append(f"  position: {self.position}")
            if move is not None:
                lines.append(
                    f"  reproduce: apply_move(parse_position({self.position!r}), "
                    f"parse_move({str(move)!r}))"
                )
            else:
                lines.append(f"  reproduce: parse_position({self.position!r})")
        elif move is not None:
            lines.append(f"  move: {move}")
        if seed is not None:
            deal = f"new_game(rules, seed={seed})" if game is None else f"{game}.new_game({seed})"
            lines.append(f"  game: {deal} then the {len(self.moves)} moves in .moves")
            if game is not None and self.moves:
                shown = " ".join(str(m) for m in self.moves[-8:])
                lines.append(f"  last moves: {'... ' if len(self.moves) > 8 else ''}{shown}")
        super().__init__("\n".join(lines))

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from what it carries (its message is made from that), so that it pickles like the others.
        return (
            _rebuild_violation,
            (self.invariant, self.detail, self.position, self.move, self.seed, self.moves, self.game),
        )

    def _in_game(self, seed: int, moves: Sequence[Move], game: str | None = None) -> InvariantViolation:
        return InvariantViolation(
            self.invariant,
            self.detail,
            position=self.position,
            move=self.move,
            seed=seed,
            moves=moves,
            game=game,
        )


def _rebuild_violation(
    invariant: str, detail: str, position: str | None, move: Move | None, seed: int | None,
    moves: tuple[Move, ...], game: str | None,
) -> InvariantViolation:
    return InvariantViolation(invariant, detail, position=position, move=move, seed=seed, moves=moves, game=game)


def _position_of(state: GameState | None) -> str | None:
    if state is None:
        return None
    try:
        return str(state)
    except Exception:  # a corrupted state may not even be writable
        return None


# Each is shown (in tracebacks, reprs and pickles) where it is documented; the
# docs' build reads the attribute comments here (``__source_module__``).
_homes: dict[str, tuple[type[BaseException], ...]] = {"crapette.simulation": (SimulationError, BotError, IllegalBotMoveError, SimulationInterrupted)}
_homes["crapette.testing"] = (InvariantViolation,)
_homes["crapette"] = (
    HiddenCardError, IllegalMoveError, InvalidRulesError, InvalidStateError, ParseError, RecordError, RulePartError,
    UndoError,
)  # fmt: skip
for _home, _errors in _homes.items():
    for _error in _errors:
        setattr(_error, "__source_module__", __name__)
        _error.__module__ = _home
del _home, _errors, _error, _homes
