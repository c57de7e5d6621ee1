"""The five kinds of move and their notation."""

from __future__ import annotations

import re
from typing import Any, TypeVar

import attrs

from ..errors import ParseError
from .messages import brief, repr_pretty
from .piles import ALL_PILES, Pile, PileKind, parse_pile

__all__ = ["Draw", "EndTurn", "Move", "MoveStack", "Pass", "Play", "parse_move", "MAX_STACK"]

#: The most cards a stack move can carry: a King down to an Ace.
MAX_STACK = 13

_SOURCE_KINDS = (PileKind.RESERVE, PileKind.WASTE, PileKind.TABLEAU)
_TARGET_KINDS = (PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE)


class Move:
    """Base class of the five move kinds: :class:`Play`, :class:`MoveStack`, :class:`Draw`, :class:`EndTurn`, :class:`Pass`.

    Moves are small interned values: equal moves are the same object. ``str``
    gives the notation and :func:`parse_move` reads it back; ``repr`` is valid
    Python.

    >>> move = parse_move("R0-F3")
    >>> move, str(move), isinstance(move, Move)
    (parse_move('R0-F3'), 'R0-F3', True)

    Every move says whether it goes between two tableau piles (a play from one
    to another, or a stack move): such a move brings no card nearer home by
    itself, reveals nothing, and is the only kind that can recreate a
    position within a turn.

    >>> parse_move("T2-T5").between_tableau, parse_move("T2-F0").between_tableau, parse_move("draw").between_tableau
    (True, False, False)

    .. versionadded:: 0.3.0
       ``between_tableau``.
    """

    __slots__ = ()
    #: True for a move between two tableau piles (a play from one to another, or a stack move).
    between_tableau: bool

    def __new__(cls) -> Move:
        # The subclasses make their own instances; a bare Move has no notation.
        raise TypeError("Move is the base class of the moves: use Play, MoveStack, Draw, EndTurn or Pass")

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"

    _repr_pretty_ = repr_pretty


def _check_pile(name: str, pile: object, kinds: tuple[PileKind, ...]) -> Pile:
    if not isinstance(pile, Pile):
        raise ValueError(f"{name} must be a Pile, got {brief(pile)}")
    if pile.kind not in kinds:
        allowed = ", ".join(k.name.lower() for k in kinds)
        raise ValueError(f"{name} {pile} cannot be a move's {name} (must be a {allowed} pile)")
    return pile


@attrs.frozen(init=False, eq=False, repr=False)
class Play(Move):
    """Move the top card of ``source`` onto ``target``.

    The source is a reserve, a waste or a tableau pile; the target a foundation,
    a tableau pile, or (loading) a reserve or waste.

    >>> Play(Pile.reserve(0), Pile.foundation(3))
    parse_move('R0-F3')

    :raises ValueError: if a pile cannot be a source or target, or both are the same pile.
    """

    source: Pile
    target: Pile
    between_tableau: bool = attrs.field(init=False)

    def __new__(cls, source: Pile, target: Pile) -> Play:
        s = _check_pile("source", source, _SOURCE_KINDS)
        t = _check_pile("target", target, _TARGET_KINDS)
        if s is t:
            raise ValueError(f"a card cannot move from {s} onto the same pile")
        return PLAYS[s.id][t.id]  # type: ignore[return-value]

    def __hash__(self) -> int:
        return self.source.id * 32 + self.target.id

    def __reduce__(self) -> tuple[Any, ...]:
        return (Play, (self.source, self.target))

    def __str__(self) -> str:
        return f"{self.source}-{self.target}"


@attrs.frozen(init=False, eq=False, repr=False)
class MoveStack(Move):
    """Move the top ``count`` (2 to 13) cards of tableau pile ``source`` onto tableau pile ``target``.

    >>> MoveStack(Pile.tableau(2), Pile.tableau(5), 3)
    parse_move('T2-T5x3')

    :raises ValueError: if a pile is not a tableau pile, both are the same, or the count is out of range.
    """

    source: Pile
    target: Pile
    count: int
    between_tableau = True

    def __new__(cls, source: Pile, target: Pile, count: int) -> MoveStack:
        s = _check_pile("source", source, (PileKind.TABLEAU,))
        t = _check_pile("target", target, (PileKind.TABLEAU,))
        if s is t:
            raise ValueError(f"a stack cannot move from {s} onto the same pile")
        if not isinstance(count, int) or isinstance(count, bool) or not 2 <= count <= MAX_STACK:
            raise ValueError(f"a stack move carries 2 to {MAX_STACK} cards, got {brief(count)}")
        return STACKS[(s.index, t.index, count)]

    def __hash__(self) -> int:
        return 1024 + (self.source.index * 8 + self.target.index) * 16 + self.count

    def __reduce__(self) -> tuple[Any, ...]:
        return (MoveStack, (self.source, self.target, self.count))

    def __str__(self) -> str:
        return f"{self.source}-{self.target}x{self.count}"


_S = TypeVar("_S", bound="_Singleton")


class _Singleton(Move):
    __slots__ = ()
    _text = ""
    _instance: Any = None
    between_tableau = False

    def __new__(cls: type[_S]) -> _S:
        if cls._instance is None:
            cls._instance = object.__new__(cls)
        return cls._instance  # type: ignore[no-any-return]

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), ())

    def __hash__(self) -> int:
        return hash(self._text)

    def __str__(self) -> str:
        return self._text


class Draw(_Singleton):
    """Turn the top card of the hand face up onto the waste (turning the waste over first if the hand is empty).

    >>> Draw()
    parse_move('draw')
    """

    __slots__ = ()
    _text = "draw"


class EndTurn(_Singleton):
    """Leave the drawn card on the waste and end the turn (rules with ``end_turn``).

    >>> EndTurn()
    parse_move('end')
    """

    __slots__ = ()
    _text = "end"


class Pass(_Singleton):
    """The only move of a player who has no other: the turn goes to the opponent.

    >>> Pass()
    parse_move('pass')
    """

    __slots__ = ()
    _text = "pass"


def _make_plays() -> tuple[tuple[Play | None, ...], ...]:
    table: list[list[Play | None]] = []
    for s in ALL_PILES:
        row: list[Play | None] = []
        for t in ALL_PILES:
            if s.kind in _SOURCE_KINDS and t.kind in _TARGET_KINDS and s is not t:
                play = object.__new__(Play)
                object.__setattr__(play, "source", s)
                object.__setattr__(play, "target", t)
                object.__setattr__(play, "between_tableau", s.kind is t.kind is PileKind.TABLEAU)
                row.append(play)
            else:
                row.append(None)
        table.append(row)
    return tuple(tuple(row) for row in table)


def _make_stacks() -> dict[tuple[int, int, int], MoveStack]:
    table = {}
    for s in range(8):
        for t in range(8):
            if s == t:
                continue
            for count in range(2, MAX_STACK + 1):
                move = object.__new__(MoveStack)
                object.__setattr__(move, "source", ALL_PILES[8 + s])
                object.__setattr__(move, "target", ALL_PILES[8 + t])
                object.__setattr__(move, "count", count)
                table[(s, t, count)] = move
    return table


#: PLAYS[source.id][target.id]: the interned Play, or None where no such move exists.
PLAYS = _make_plays()
#: STACKS[(source tableau index, target tableau index, count)]: the interned MoveStack.
STACKS = _make_stacks()
DRAW = Draw()
END_TURN = EndTurn()
PASS = Pass()

_WORDS: dict[str, Move] = {"draw": DRAW, "end": END_TURN, "pass": PASS}
_MOVE_RE = re.compile(r"([A-Z][0-9])-([A-Z][0-9])(?:X([0-9]{1,3}))?")


def parse_move(text: str) -> Move:
    """Read a move in the notation that ``str(move)`` writes.

    ============  =====================================================
    ``R0-F3``     :class:`Play`: source pile, ``-``, target pile
    ``T2-T5x3``   :class:`MoveStack`: the top 3 cards of T2 onto T5
    ``draw``      :class:`Draw`
    ``end``       :class:`EndTurn`
    ``pass``      :class:`Pass`
    ============  =====================================================

    Piles are written as in :func:`parse_pile`. Case and surrounding spaces are
    ignored. ``parse_move(str(move)) is move`` for every move.

    >>> parse_move(" t2-T5X3 ")
    parse_move('T2-T5x3')
    >>> parse_move("R0-H1")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid move 'R0-H1': target H1 cannot be a move's target (must be a foundation, tableau, reserve, waste pile)

    :raises ParseError: if the text is not a move.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move() expects a str, got {type(text).__name__}")
    if len(text) > 64:
        raise ParseError(f"invalid move: text too long ({len(text)} characters)")
    raw = text.strip()
    word = _WORDS.get(raw.lower())
    if word is not None:
        return word
    match = _MOVE_RE.fullmatch(raw.upper())
    if match is None:
        raise ParseError(
            f"invalid move {brief(text)}: expected <pile>-<pile> (e.g. 'R0-F3'), "
            "<pile>-<pile>x<count> (e.g. 'T2-T5x3'), 'draw', 'end' or 'pass'"
        )
    try:
        source = parse_pile(match[1])
        target = parse_pile(match[2])
        if match[3] is None:
            return Play(source, target)
        return MoveStack(source, target, int(match[3]))
    except ValueError as exc:
        raise ParseError(f"invalid move {brief(text)}: {exc}") from None
