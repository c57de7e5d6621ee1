"""What the rules mean for one player, compiled once: the plan the move generator follows.

Building rules become tables of the card keys each top card accepts, so the
generator looks cards up in small indexes whatever the building rules are:
the foundation index (which foundations take a card next) and the tableau
index (which tableau piles take it, for the plan's player), kept with each
state and updated move by move.
"""

from __future__ import annotations

import functools
from typing import Any

from .cards import ALL_CARDS, Card
from .outcome import MAX_NUMBER
from .parts import Build, DownAlternating, accepted_masks
from .rules import (
    FoundationPlays,
    LoadTarget,
    RuleSet,
    StackLimit,
    TableauSources,
    WastePlay,
)
from .shapes import shapes
from .state import H0, R0, T0, TAB0, W0, GameState

__all__ = [
    "ACE_KEYS",
    "FOUNDATIONS",
    "PLANS",
    "Plan",
    "TABLEAU",
    "build_table",
    "foundation_index",
    "load_keys",
    "next_tableau",
    "plans",
    "refound",
    "retableau",
    "tableau_index",
    "tableau_of",
]

Piles = tuple[tuple[Card, ...], ...]

# The cards of deck 0 grouped by colour-and-rank key: both suits of a colour at one rank.
_COLOUR_GROUPS = tuple(
    (key, tuple(c for c in ALL_CARDS[:52] if c._colour_rank == key))
    for key in sorted({c._colour_rank for c in ALL_CARDS})
)


@functools.lru_cache(maxsize=64)
def build_table(build: Build) -> tuple[tuple[int, ...], ...]:
    """For each card (by index) on top of a pile, the keys of the cards that ``build`` lets go onto it.

    A card is looked up by two keys: its suit and rank, and its colour and
    rank. A rule that takes both suits of a colour at some rank is stored as
    one colour key, else as suit keys; so the lookup of a card is the same
    two dictionary gets whatever the building rule.
    """
    table = []
    for mask in accepted_masks(build):
        keys: list[int] = []
        for colour_key, cards in _COLOUR_GROUPS:
            inside = [c for c in cards if mask >> c.index & 1]
            if len(inside) == len(cards):
                keys.append(colour_key)
            else:
                keys.extend(c._suit_rank for c in inside)
        table.append(tuple(keys))
    return tuple(table)


@functools.lru_cache(maxsize=64)
def load_keys(build: Build) -> tuple[frozenset[int], ...]:
    """For each card (by index) on top of a reserve or waste, the suit-and-rank keys of the cards ``build`` lets be loaded onto it."""
    return tuple(
        frozenset(c._suit_rank for c in ALL_CARDS[:52] if mask >> c.index & 1) for mask in accepted_masks(build)
    )


class Plan:
    """What the rules mean for one player, precomputed once per (rules, player)."""

    __slots__ = (
        "player",
        "opp_res",
        "res",
        "hand",
        "waste",
        "waste_always",
        "tab_sources",
        "sources",
        "drawn_sources",
        "load_piles",
        "load_keys",
        "compulsory",
        "fill_first",
        "end_turn",
        "stack_moves",
        "stack_unlimited",
        "stalemate",
        "drawn_first",
        "limit",
        "endings",
        "tab_keys",
        "alt_targets",
        "alt_mask",
        "symmetric",
        "self_accepting",
        "revisits",
        "shapes",
        "filter_tableau",
    )

    def __init__(self, rules: RuleSet, player: int) -> None:
        self.player = player
        self.res = R0 + player
        self.opp_res = R0 + 1 - player
        self.hand = H0 + player
        self.waste = W0 + player
        self.waste_always = rules.waste_play is WastePlay.ALWAYS
        own = range(T0 + 4 * player, T0 + 4 * player + 4)
        if rules.tableau_sources is TableauSources.OWN:
            self.tab_sources: tuple[int, ...] = tuple(own)
        else:
            self.tab_sources = tuple(range(T0, T0 + 8))
        # The source piles in the order of the moves: the reserve, the waste
        # (always, or only while the card drawn this turn lies there), the tableau.
        self.drawn_sources = (self.res, self.waste, *self.tab_sources)
        self.sources = self.drawn_sources if self.waste_always else (self.res, *self.tab_sources)
        # Per tableau pile (0-7): its building rule for this player, compiled.
        builds = [
            rules.own_tableau_build if tid in own else rules.opponent_tableau_build for tid in range(T0, T0 + 8)
        ]
        self.tab_keys = tuple(build_table(b) for b in builds)
        # Whether some pile's top card accepts a card like itself (never so for the built-in rules).
        self.self_accepting = any(
            card._suit_rank in table[card.index] or card._colour_rank in table[card.index]
            for table in set(self.tab_keys)
            for card in ALL_CARDS
        )
        # Stacks go only onto piles that build down in alternating colours (section 8).
        self.alt_targets = tuple(isinstance(b, DownAlternating) for b in builds)
        self.alt_mask = sum(1 << i for i, alt in enumerate(self.alt_targets) if alt)
        # The tableau index depends on the mover only when the two builds differ.
        self.symmetric = rules.own_tableau_build == rules.opponent_tableau_build
        opponent = 1 - player
        loads = []
        if LoadTarget.RESERVE in rules.load_targets:
            loads.append(R0 + opponent)
        if LoadTarget.WASTE in rules.load_targets:
            loads.append(W0 + opponent)
        self.load_piles = tuple(loads)
        self.load_keys = load_keys(rules.load_build)
        self.compulsory = rules.foundation_plays is FoundationPlays.COMPULSORY
        self.fill_first = rules.fill_empty_first
        self.end_turn = rules.end_turn
        self.stack_moves = rules.stack_moves
        self.stack_unlimited = rules.stack_limit is StackLimit.UNLIMITED
        # The exhaustion marks are kept only under the stalemate rule.
        self.stalemate = rules.stalemate
        self.drawn_first = rules.drawn_first
        # Without a move limit the bound on every number stands in for one: a
        # game ends at move MAX_NUMBER, so a count never passes what the formats hold.
        self.limit = rules.move_limit if rules.move_limit is not None else MAX_NUMBER
        self.endings = rules.endings
        self.revisits = rules.revisits
        self.shapes = shapes(rules)
        # Moves between tableau piles are filtered when a pile may take its own
        # top card (a rule of one's own) or a move may not recreate a position.
        self.filter_tableau = self.self_accepting or not self.revisits


PLANS: dict[RuleSet, tuple[Plan, Plan]] = {}


def plans(rules: RuleSet) -> tuple[Plan, Plan]:
    plans = PLANS.get(rules)
    if plans is None:
        if len(PLANS) > 512:
            PLANS.clear()
        plans = PLANS[rules] = (Plan(rules, 0), Plan(rules, 1))
    return plans


def _ids(base: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(base + i for i in range(8) if mask >> i & 1) for mask in range(256))


# FOUNDATIONS[mask] and TABLEAU[mask]: the pile ids of the bits set in an 8-bit
# mask, in pile order. The indexes map a card key to such a mask, so merging
# targets is an OR and small ints cost no memory.
FOUNDATIONS = _ids(0)
TABLEAU = _ids(T0)
ACE_KEYS = tuple(c._suit_rank for c in ALL_CARDS[:52] if c.rank == 1)


def foundation_index(piles: Piles) -> dict[int, int]:
    """Suit-and-rank key -> mask of the foundations that take that card next."""
    need: dict[int, int] = {}
    for fid in range(8):
        pile = piles[fid]
        for key in (pile[-1]._suit_rank + 1,) if pile else ACE_KEYS:
            need[key] = need.get(key, 0) | 1 << fid
    return need


def tableau_index(piles: Piles, plan: Plan) -> tuple[dict[int, int], int]:
    """Card key -> mask of the tableau piles that take it (for the plan's player), and the empty piles' mask."""
    accept: dict[int, int] = {}
    empty = 0
    tables = plan.tab_keys
    for i in range(8):
        pile = piles[T0 + i]
        if not pile:
            empty |= 1 << i
        else:
            for key in tables[i][pile[-1].index]:
                accept[key] = accept.get(key, 0) | 1 << i
    return accept, empty


def tableau_of(state: GameState, plan: Plan, cache: list[Any]) -> tuple[dict[int, int], int]:
    """The tableau index of ``state`` for the plan's player, kept in the state's engine list."""
    slot = TAB0 + plan.player
    index = cache[slot]
    if index is None:
        index = cache[slot] = tableau_index(state.piles, plan)
        if plan.symmetric:
            cache[TAB0 + 1 - plan.player] = index
    return index  # type: ignore[no-any-return]


def refound(need: dict[int, int], fid: int, below: tuple[Card, ...], card: Card) -> dict[int, int]:
    """The foundation index after ``card`` is played onto foundation ``fid`` (which held ``below``).

    A new dict: an index, once made, is never changed, so states may share it.
    """
    need = need.copy()
    bit = 1 << fid
    for key in (below[-1]._suit_rank + 1,) if below else ACE_KEYS:
        need[key] &= ~bit
    key = card._suit_rank + 1
    need[key] = need.get(key, 0) | bit
    return need


def retableau(
    index: tuple[dict[int, int], int], plan: Plan, old: Piles, new: Piles, tids: tuple[int, ...]
) -> tuple[dict[int, int], int]:
    """The tableau index after the tableau piles ``tids`` changed from ``old`` to ``new`` (a new dict).

    Entries may drop to a zero mask; lookups treat zero as absent.
    """
    accept, empty = index
    accept = accept.copy()
    tables = plan.tab_keys
    for tid in tids:
        i = tid - T0
        bit = 1 << i
        table = tables[i]
        pile = old[tid]
        if not pile:
            empty &= ~bit
        else:
            for key in table[pile[-1].index]:
                accept[key] &= ~bit
        pile = new[tid]
        if not pile:
            empty |= bit
        else:
            for key in table[pile[-1].index]:
                accept[key] = accept.get(key, 0) | bit
    return accept, empty


def next_tableau(
    cache: list[Any], plan: Plan, old: Piles, new: Piles, tids: tuple[int, ...]
) -> tuple[Any, Any]:
    """The tableau indexes of the next state: the mover's updated, the other's dropped (or the same, if symmetric)."""
    index = cache[TAB0 + plan.player]
    if index is None:
        return None, None
    index = retableau(index, plan, old, new, tids)
    if plan.symmetric:
        return index, index
    return (index, None) if plan.player == 0 else (None, index)
