"""How a value shows in a message, and the errors the engine builds (the exceptions live in :mod:`crapette.errors`)."""

from __future__ import annotations

import reprlib
from typing import TYPE_CHECKING, Any

from ..errors import IllegalMoveError

if TYPE_CHECKING:
    from .moves import Move

__all__ = [
    "brief",
    "illegal_move",
    "not_a_move",
    "not_a_state",
    "repr_pretty",
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


def illegal_move(move: Move, reason: str) -> IllegalMoveError:
    """The error :func:`~crapette.apply_move` raises for ``move``, illegal for ``reason``."""
    return IllegalMoveError(f"illegal move {move}: {reason}", move=move, reason=reason)


def not_a_move(caller: str, move: object) -> TypeError:
    """The error of an engine function ``caller`` given ``move``, not one of the move classes."""
    return TypeError(
        f"{caller}() expects a Play, MoveStack, Draw, EndTurn or Pass, got {type(move).__name__} "
        "(subclasses are refused too; use parse_move to read text)"
    )


def not_a_state(caller: str, value: object) -> TypeError:
    """The error of an engine function ``caller`` given ``value``, not a GameState.

    A value that lists its own legal moves (a :class:`~crapette.PublicView`, a
    :class:`~crapette.Game`) is pointed there.
    """
    kind = type(value).__name__
    listed = getattr(type(value), "legal_moves", None) is not None  # looked up on the class: no property runs
    held = f"; a {kind} holds its legal moves in .legal_moves" if listed else ""
    return TypeError(f"{caller}() expects a GameState, got {kind}{held}")
