"""The exceptions of crapette (every one is a :class:`ValueError`), and how a value shows in a message."""

from __future__ import annotations

import reprlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._moves import Move

__all__ = [
    "brief",
    "illegal_move",
    "not_a_state",
    "repr_pretty",
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "ParseError",
    "RecordError",
    "RulePartError",
]


class _Brief(reprlib.Repr):
    """reprlib with a bound on every part, and no decimal conversion of huge ints."""

    def __init__(self) -> None:
        super().__init__()
        self.maxstring = self.maxother = 60
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<an int of {x.bit_length()} bits>"
        return super().repr_int(x, level)


_BRIEF = _Brief()


def brief(value: object, limit: int = 80, *, quote: bool = True) -> str:
    r"""``value`` for a message: one line, printable, at most ``limit`` characters, whatever the input.

    The one message shortener of the package. A value is shown by its
    ``repr`` with every part bounded (long strings, huge ints, big
    collections); an exception as ``Type: the first line of its message``;
    with ``quote=False`` a str is shown as its text rather than its repr
    (what a terminal prints back to the user). Control characters are
    escaped, and what is cut short ends in ``...``.

    >>> brief("x" * 10**6)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxx...xxxxxxxxxxxxxxxxxxxxxxxxxxxx'"
    >>> brief(10**5000), brief([0] * 10**6)
    ('<an int of 16610 bits>', '[0, 0, 0, 0, 0, 0, ...]')
    >>> brief(ValueError("no such card\nsee the notation")), brief("T1\x1b[2J", quote=False)
    ('ValueError: no such card', 'T1\\x1b[2J')
    """
    if isinstance(value, BaseException):
        lines = str(value).strip().splitlines()
        text = _printable(f"{type(value).__name__}: {lines[0]}"[: limit + 1] if lines else type(value).__name__)
    elif not quote and isinstance(value, str):
        text = _printable(value[: limit + 1])
    else:
        try:
            text = _BRIEF.repr(value)
        except Exception:  # a repr that fails says nothing useful
            text = f"<{type(value).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def repr_pretty(obj: object, printer: Any, cycle: bool) -> None:
    """IPython's pretty-printing hook, ``_repr_pretty_``, that prints ``repr(obj)`` as it is.

    Hypothesis prints the values of a failing example with IPython's protocol,
    and without this hook it writes an attrs instance field by field (a state
    over 150 lines, every card as ``Card(rank=Rank.NINE, ...)``). The classes
    whose repr rebuilds the value in one line (``parse_position('...')``,
    ``parse_card('9H0')``, ``parse_rules('classic')``, ``parse_move('T1-T4')``)
    set ``_repr_pretty_ = repr_pretty``, so a failing example prints as it
    pastes back into a test.
    """
    printer.text(repr(obj))


def _printable(text: str) -> str:
    """``text`` with every character that is not printable escaped (a repr shows them so already)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)


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


def illegal_move(move: Move, reason: str) -> IllegalMoveError:
    """The error :func:`~crapette.apply_move` raises for ``move``, illegal for ``reason``."""
    return IllegalMoveError(f"illegal move {move}: {reason}", move=move, reason=reason)


def not_a_state(caller: str, value: object) -> TypeError:
    """The error of an engine function ``caller`` given ``value``, not a GameState.

    A value that lists its own legal moves (a :class:`~crapette.PublicView`, a
    :class:`~crapette.Game`) is pointed there.
    """
    kind = type(value).__name__
    listed = getattr(type(value), "legal_moves", None) is not None  # looked up on the class: no property runs
    held = f"; a {kind} holds its legal moves in .legal_moves" if listed else ""
    return TypeError(f"{caller}() expects a GameState, got {kind}{held}")


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
    too. What can be probed when a :class:`~crapette.RuleSet` is made (a
    scoring's penalties on small counts, a first-player rule on a few deals) is
    probed then. :attr:`part` is the part's text, :attr:`hook` the hook's name.

    >>> from crapette import FirstPlayer, RuleSet, register
    >>> @register
    ... class Second(FirstPlayer):
    ...     name = "second-for-the-docs"
    ...     def who_starts(self, deal, seed):
    ...         return 2
    >>> RuleSet(first_player=Second())
    Traceback (most recent call last):
    ...
    crapette.RulePartError: the first-player rule second-for-the-docs: who_starts() returned 2, not 0 or 1

    .. versionadded:: 0.3.0
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


# The exceptions are raised and shown as crapette.ParseError and so on: the
# package is where users import them from, and a pickle finds them there too.
for _error in (IllegalMoveError, InvalidRulesError, InvalidStateError, ParseError, RecordError, RulePartError):
    _error.__module__ = "crapette"
del _error
