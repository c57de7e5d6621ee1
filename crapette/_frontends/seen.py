"""What a player sees of the table, read alike from a :class:`~crapette.GameState` and a :class:`~crapette.PublicView`.

The text (:mod:`crapette.text`), the pictures (:mod:`crapette.svg`, the
replay page) and the wording (:mod:`crapette.wording`) take either: a server
holds states, a client that is sent views holds only views, and both draw and
word the same table the same way. Everything here reads only what a player
may see (:ref:`section 12 of the rules <rules-12>`): the counts of the
face-down cards and the face-up ones.
"""

from __future__ import annotations

from typing import Union

from .._core.cards import Card
from .._core.state import ALL_PILES, GameState, Pile, PileKind
from .._views.view import PublicView

__all__ = ["Shown", "Table", "check_table", "shown", "top"]

#: A table a player looks at: a state, or the public view of one.
Table = Union[GameState, PublicView]
#: What a player sees of one pile: how many cards it holds, and those that lie face up
#: (a tableau pile's cards, the top card of a foundation, reserve or waste, none of a hand).
Shown = tuple[int, tuple[Card, ...]]


def check_table(value: object, caller: str) -> Table:
    """``value`` if it is a GameState or a PublicView.

    :raises TypeError: if it is neither (the message names ``caller``).
    """
    if isinstance(value, (GameState, PublicView)):
        return value
    raise TypeError(f"{caller} expects a GameState or a PublicView, got {type(value).__name__}")


def shown(table: Table) -> list[Shown]:
    """What a player sees of each pile, in :data:`~crapette.ALL_PILES` order.

    >>> from crapette import Pile, new_game, view
    >>> state = new_game("classic", seed=1)
    >>> shown(state) == shown(view(state))
    True
    >>> [shown(state)[pile.id] for pile in (Pile.reserve(0), Pile.hand(0), Pile.waste(0))]
    [(13, (parse_card('3C0'),)), (35, ()), (0, ())]
    """
    if isinstance(table, GameState):
        out: list[Shown] = []
        for pile, cards in zip(ALL_PILES, table.piles):
            if pile.kind is PileKind.TABLEAU:
                out.append((len(cards), cards))
            elif pile.kind is PileKind.HAND or not cards:
                out.append((len(cards), ()))
            else:
                out.append((len(cards), cards[-1:]))
        return out
    out = [(len(p), p[-1:]) for p in table.foundations]
    out += [(len(p), p) for p in table.tableau]
    out += [(size, () if top is None else (top,)) for size, top in zip(table.reserve_sizes, table.reserve_tops)]
    out += [(size, ()) for size in table.hand_sizes]
    out += [(len(waste), waste[-1:]) for waste in table.wastes]
    return out


def top(table: Table, pile: Pile) -> Card | None:
    """The face-up top card of ``pile``, or None if it is empty or a hand (its cards lie face down).

    >>> from crapette import Pile, new_game, view
    >>> top(view(new_game("classic", seed=1)), Pile.reserve(0)), top(new_game("classic", seed=1), Pile.hand(0))
    (parse_card('3C0'), None)
    """
    if isinstance(table, GameState):
        if pile.kind is PileKind.HAND:
            return None
        return table.top(pile)
    kind, index = pile.kind, pile.index
    if kind is PileKind.RESERVE:
        return table.reserve_tops[index]
    if kind is PileKind.HAND:
        return None
    cards = (
        table.foundations[index] if kind is PileKind.FOUNDATION
        else table.tableau[index] if kind is PileKind.TABLEAU
        else table.wastes[index]
    )
    return cards[-1] if cards else None
