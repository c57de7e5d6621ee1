"""The exceptions of crapette. Every one is a :class:`ValueError`."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = [
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "ParseError",
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
    crapette._errors.ParseError: invalid card '1H0': unknown rank '1' (expected A, 2-9, T or 10, J, Q, K)
    """


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow in the given state.

    Raised by :func:`~crapette.apply_move`; the message says why the move is
    illegal.
    """


class InvalidStateError(ValueError):
    """A game state that breaks the invariants of the game.

    :attr:`problems` lists every broken invariant; the message joins them.
    """

    problems: tuple[str, ...]

    def __init__(self, problems: Iterable[str]) -> None:
        self.problems = tuple(problems)
        count = len(self.problems)
        head = "invalid state" if count == 1 else f"invalid state ({count} problems)"
        super().__init__(f"{head}: " + "; ".join(self.problems))


class InvalidRulesError(ValueError):
    """A :class:`~crapette.RuleSet` whose options are wrong or make no sense together."""
