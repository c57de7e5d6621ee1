"""Interchangeable piles, and the shape of a tableau: a position with their order forgotten.

Two positions that differ only in the order of interchangeable piles play
alike: the foundations (any card goes to any foundation that takes it), and
tableau piles that both players build on and move from alike. The turn
planner merges such positions, and under ``revisits=False`` no move may
recreate the shape of a tableau the turn has reached.

A tableau's shape is kept as one exact integer key, updated move by move: for
each tableau card, its pile's group and the card under it (or none) take ten
bits at the card's place. Cards are unique, so those pairs give back every
group's set of piles, and two tableaux have the same key exactly when they
have the same shape.
"""

from __future__ import annotations

import functools
from typing import Any

from .cards import Card
from .moves import MoveStack
from .parts import Build
from .rules import RuleSet, TableauSources
from .state import F0, T0, GameState

__all__ = ["Run", "Shapes", "pile_groups", "run_keys", "shapes"]

Piles = tuple[tuple[Card, ...], ...]

#: Bits per card in a shape key: a group (up to 8) times 105 "card under it" values fits in 10.
_BITS = 10


@functools.lru_cache(maxsize=128)
def pile_groups(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """The groups of interchangeable piles (by id): the foundations, then tableau piles alike for both players.

    Two tableau piles are alike when each player builds on them by the same
    rule and may (or may not) move from both. Under rules with endings of
    one's own, which may look at any pile, every pile is a group of its own.

    >>> from crapette import RuleSet
    >>> pile_groups(RuleSet.classic())[1], pile_groups(RuleSet.casual())[1:]
    ((8, 9, 10, 11, 12, 13, 14, 15), ((8, 9, 10, 11), (12, 13, 14, 15)))
    """
    if rules.endings:
        return tuple((i,) for i in range(T0 + 8))
    builds = (rules.own_tableau_build, rules.opponent_tableau_build)

    def role(pile: int, mover: int) -> tuple[Build, bool]:
        mine = pile // 4 == mover
        return (builds[0] if mine else builds[1], mine or rules.tableau_sources is TableauSources.ALL)

    groups: dict[tuple[Any, ...], list[int]] = {}
    for pile in range(8):
        groups.setdefault((role(pile, 0), role(pile, 1)), []).append(T0 + pile)
    return (tuple(range(F0, F0 + 8)), *(tuple(g) for g in groups.values()))


class Shapes:
    """What the shape keys of one rule set need: each tableau pile's group code, and its twins."""

    __slots__ = ("base", "twins")

    def __init__(self, rules: RuleSet) -> None:
        groups = [g for g in pile_groups(rules) if g[0] >= T0]
        group = {pid: i for i, g in enumerate(groups) for pid in g}
        #: Per tableau pile (0-7): the code of a card at the bottom of it; a card
        #: on another adds that card's index + 1.
        self.base = tuple(1 + group[T0 + i] * 105 for i in range(8))
        #: Per tableau pile (0-7): the mask of the other piles of its group.
        self.twins = tuple(
            sum(1 << (j - T0) for j in groups[group[T0 + i]] if j != T0 + i) for i in range(8)
        )

    def key(self, piles: Piles) -> int:
        """The shape key of the tableau of ``piles``."""
        key = 0
        base = self.base
        for i in range(8):
            code = base[i]
            for card in piles[T0 + i]:
                key |= code << (_BITS * card.index)
                code = base[i] + card.index + 1
        return key

    def delta(self, piles: Piles, source: int, target: int, count: int) -> int:
        """What moving the top ``count`` cards of tableau pile ``source`` onto tableau pile ``target`` adds to the key."""
        cards = piles[source]
        dest = piles[target]
        gs = self.base[source - T0]
        gt = self.base[target - T0]
        n = len(cards)
        bottom = cards[n - count]
        old = gs + (cards[n - count - 1].index + 1 if n > count else 0)
        new = gt + (dest[-1].index + 1 if dest else 0)
        delta = (new - old) << (_BITS * bottom.index)
        if gs != gt:
            for card in cards[n - count + 1 :]:
                delta += (gt - gs) << (_BITS * card.index)
        return delta

    def changed(self, piles: Piles, source: int, target: int, count: int) -> frozenset[int]:
        """The indexes of the cards whose code such a move changes: the bottom one, and all if the group changes."""
        cards = piles[source][len(piles[source]) - count :]
        if self.base[source - T0] == self.base[target - T0]:
            return frozenset((cards[0].index,))
        return frozenset(card.index for card in cards)

    def placed(self, pile: tuple[Card, ...], tid: int, card: Card) -> int:
        """What putting ``card`` on tableau pile ``tid`` (now ``pile``) adds to the key."""
        return (self.base[tid - T0] + (pile[-1].index + 1 if pile else 0)) << (_BITS * card.index)

    def taken(self, pile: tuple[Card, ...], tid: int) -> int:
        """What taking the top card off tableau pile ``tid`` (now ``pile``) adds to the key."""
        return -self.placed(pile[:-1], tid, pile[-1])


#: What a state remembers of its turn, worked out from ``turn_moves``: the shape
#: keys of the tableaux reached before it, the cards whose code differs between
#: some of them (only moving one of those can recreate one), and its own key.
Run = tuple[frozenset[int], frozenset[int], int]


_SHAPES: dict[RuleSet, Shapes] = {}


def shapes(rules: RuleSet) -> Shapes:
    """The :class:`Shapes` of ``rules``, made once."""
    found = _SHAPES.get(rules)
    if found is None:
        if len(_SHAPES) > 512:
            _SHAPES.clear()
        found = _SHAPES[rules] = Shapes(rules)
    return found


def run_keys(state: GameState) -> Run:
    """What ``state`` remembers of its turn (see :data:`Run`), from its piles and ``turn_moves``.

    Worked out by taking the turn's moves back one by one (each only moves
    cards between tableau piles): what the engine keeps for a state it made,
    and works out this way for one built from its fields.
    """
    shape = shapes(state.rules)
    piles = list(state.piles)
    key = current = shape.key(state.piles)
    seen = set()
    moved: set[int] = set()
    for move in reversed(state.turn_moves):
        count = move.count if type(move) is MoveStack else 1
        source, target = move.source.id, move.target.id  # type: ignore[attr-defined]
        frozen = tuple(piles)
        key += shape.delta(frozen, target, source, count)
        moved |= shape.changed(frozen, target, source, count)
        cards = piles[target]
        piles[source] = piles[source] + cards[len(cards) - count :]
        piles[target] = cards[: len(cards) - count]
        seen.add(key)
    return frozenset(seen), frozenset(moved), current
