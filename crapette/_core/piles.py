"""The 22 piles of the table: their kinds, their addresses and their notation."""

from __future__ import annotations

import enum
from typing import Any

import attrs

from ..errors import ParseError
from .messages import brief, repr_pretty

__all__ = ["ALL_PILES", "F0", "H0", "NUM_PILES", "Pile", "PileKind", "R0", "T0", "W0", "parse_pile"]


class PileKind(enum.Enum):
    """The five kinds of pile. The value is the kind's letter in the notation.

    >>> Pile.tableau(3).kind, PileKind("R")
    (PileKind.TABLEAU, PileKind.RESERVE)
    """

    FOUNDATION = "F"
    TABLEAU = "T"
    RESERVE = "R"
    HAND = "H"
    WASTE = "W"

    def __repr__(self) -> str:
        return f"PileKind.{self.name}"


# The pile layout, named here once: GameState.piles[i] is ALL_PILES[i]. The
# foundations come first, then the tableau, then each player's reserve, hand
# and waste (player 0's, then player 1's). Every module addresses piles
# through these ids: F0 + i is foundation i, T0 + i tableau pile i, R0 + p,
# H0 + p and W0 + p are player p's reserve, hand and waste.
F0, T0, R0, H0, W0 = 0, 8, 16, 18, 20
#: Number of piles on the table: 8 foundations, 8 tableau piles, and a reserve,
#: a hand and a waste for each player.
NUM_PILES = 22

_KIND_BASE = {
    PileKind.FOUNDATION: (F0, 8),
    PileKind.TABLEAU: (T0, 8),
    PileKind.RESERVE: (R0, 2),
    PileKind.HAND: (H0, 2),
    PileKind.WASTE: (W0, 2),
}


@attrs.frozen(init=False, eq=False, repr=False)
class Pile:
    """The address of one of the 22 piles on the table.

    ``index`` is the foundation or tableau number (0-7), or the owning player
    (0 or 1) of a reserve, hand or waste. ``id`` is the pile's position in
    :attr:`GameState.piles`. Piles are interned like cards.

    >>> Pile.tableau(3)
    Pile.tableau(3)
    >>> str(Pile.reserve(1)), Pile.reserve(1).id
    ('R1', 17)
    >>> Pile(PileKind.WASTE, 0) is Pile.waste(0)
    True

    :raises ValueError: if the index is out of range for the kind.
    """

    kind: PileKind
    index: int
    id: int = attrs.field(init=False)

    def __new__(cls, kind: PileKind, index: int) -> Pile:
        if not isinstance(kind, PileKind):
            raise ValueError(f"kind must be a PileKind, got {brief(kind)}")
        base, count = _KIND_BASE[kind]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise ValueError(f"a {kind.name.lower()} pile index must be 0 to {count - 1}, got {brief(index)}")
        return ALL_PILES[base + index]

    def __hash__(self) -> int:
        return self.id

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pile, (self.kind, self.index))

    def __str__(self) -> str:
        return f"{self.kind.value}{self.index}"

    def __repr__(self) -> str:
        return f"Pile.{self.kind.name.lower()}({self.index})"

    _repr_pretty_ = repr_pretty

    @property
    def owner(self) -> int | None:
        """The player a reserve, hand or waste belongs to, or whose deck dealt a tableau pile.

        None for foundations.

        >>> Pile.tableau(5).owner
        1
        """
        if self.kind is PileKind.FOUNDATION:
            return None
        if self.kind is PileKind.TABLEAU:
            return self.index // 4
        return self.index

    @classmethod
    def foundation(cls, index: int) -> Pile:
        """Foundation ``index`` (0-7)."""
        return cls(PileKind.FOUNDATION, index)

    @classmethod
    def tableau(cls, index: int) -> Pile:
        """Tableau pile ``index`` (0-7; 0-3 dealt from player 0's deck, 4-7 from player 1's)."""
        return cls(PileKind.TABLEAU, index)

    @classmethod
    def reserve(cls, player: int) -> Pile:
        """The reserve of ``player``."""
        return cls(PileKind.RESERVE, player)

    @classmethod
    def hand(cls, player: int) -> Pile:
        """The hand of ``player``."""
        return cls(PileKind.HAND, player)

    @classmethod
    def waste(cls, player: int) -> Pile:
        """The waste of ``player``."""
        return cls(PileKind.WASTE, player)


def _make_piles() -> tuple[Pile, ...]:
    piles = []
    for kind, (base, count) in _KIND_BASE.items():
        for index in range(count):
            pile = object.__new__(Pile)
            object.__setattr__(pile, "kind", kind)
            object.__setattr__(pile, "index", index)
            object.__setattr__(pile, "id", base + index)
            piles.append(pile)
    return tuple(piles)


#: The 22 piles in :attr:`GameState.piles` order: F0-F7, T0-T7, R0, R1, H0, H1, W0, W1.
ALL_PILES: tuple[Pile, ...] = _make_piles()
_PILE_TEXT = {str(p): p for p in ALL_PILES}


def parse_pile(text: str) -> Pile:
    """Read a pile: a kind letter and a number, ``F0``-``F7``, ``T0``-``T7``, ``R0``, ``R1``, ``H0``, ``H1``, ``W0``, ``W1``.

    >>> parse_pile("t3")
    Pile.tableau(3)

    :raises ParseError: if the text is not a pile.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_pile() expects a str, got {type(text).__name__}")
    pile = _PILE_TEXT.get(text.strip().upper()) if len(text) < 64 else None
    if pile is None:
        raise ParseError(
            f"invalid pile {text[:64]!r}: expected F0-F7, T0-T7, R0, R1, H0, H1, W0 or W1"
        )
    return pile
