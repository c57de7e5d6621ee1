"""Archeologitaire, a Klondike patience for one player, as a game of crapette's protocol.

The module itself is the game (``check_game(archeologitaire)`` works), and
:class:`SolverBot` plays it well from what the player sees::

    import archeologitaire as arch
    from crapette.simulation import simulate

    simulate(arch, (arch.SolverBot(),), games=100)

From the terminal: ``python archeologitaire.py play`` (``--seed N``; ``hint``
and ``auto`` ask the solver), ``python archeologitaire.py simulate`` (the random
and search bots), ``python archeologitaire.py solve --deals 1000`` (the
solver's win rate and how long it takes), ``python archeologitaire.py help``.
The rules and every ruling are in the documentation (``docs/games/archeologitaire.rst``).

The notation: ``draw`` (turn the top card of the deck-pile onto the discard
pile), ``recycle`` (turn the discard pile over into a new deck-pile), ``flip T3``
(turn up the top card of tableau pile 3), and moves of cards from a pile to a
pile: ``W`` is the discard pile, ``T1`` to ``T7`` the tableau piles, ``F`` the suit
pile of the card's suit; ``W-F``, ``W-T2``, ``T4-F``, ``T1-T6`` and ``T1-T6x3`` (a
build of three cards).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Iterable, Sequence
from typing import IO, Any, Union

import attrs

from crapette import Card, ParseError, Suit, frontend
from crapette.gamekit import DECK, MoveText, card_text, checked_apply, legal_moves_of, moves_cache, returns_of, shuffled
from crapette.protocol import GameType

__all__ = [
    "game_type",
    "name",
    "num_players",
    "deck",
    "PILES",
    "IDLE_LIMIT",
    "Draw",
    "Recycle",
    "Flip",
    "Shift",
    "ArcheoState",
    "ArcheoView",
    "ArcheoOutcome",
    "SolverBot",
    "new_game",
    "legal_moves",
    "apply_move",
    "returns",
    "view",
    "determinize",
    "parse_move",
    "cards",
    "solve",
    "main",
]

def payoff(outcome: Any) -> tuple[float]:
    """The share of the cards on the suit piles: 1.0 for a won game."""
    return (outcome.score / 52,)


#: The game's metadata: its name, one player, and :func:`payoff`.
game_type = GameType("archeologitaire", 1, payoff)
#: The game's name, for reports.
name = game_type.name
#: One player.
num_players = game_type.num_players
#: Seven tableau piles.
PILES = 7
#: The game ends after this many moves in a row without progress (ruling AR4).
IDLE_LIMIT = 100
#: One 52-card deck.
deck: tuple[Card, ...] = DECK

_SUITS = tuple(Suit)
#: Source and target numbers of :class:`Shift`: 0-6 are the tableau piles; these are the others.
WASTE = 7
FOUNDATION = 7


def _red(card: Card) -> bool:
    return card.suit is Suit.HEARTS or card.suit is Suit.DIAMONDS


# Moves ------------------------------------------------------------------------------------------


@attrs.frozen(repr=False)
class Draw(MoveText):
    """Rule 1: the top card of the deck-pile goes face up onto the discard pile."""

    def __str__(self) -> str:
        return "draw"


@attrs.frozen(repr=False)
class Recycle(MoveText):
    """Rule 6: the empty deck-pile is replaced by the discard pile, turned over."""

    def __str__(self) -> str:
        return "recycle"


@attrs.frozen(repr=False)
class Flip(MoveText):
    """Rule 5: turn up the face-down top card of tableau pile ``pile`` (0-6, written T1-T7)."""

    pile: int = attrs.field(validator=attrs.validators.in_(range(PILES)))

    def __str__(self) -> str:
        return f"flip T{self.pile + 1}"


@attrs.frozen(repr=False)
class Shift(MoveText):
    """Rules 2-4: ``count`` cards from ``source`` (a tableau pile 0-6, or 7: the discard pile)
    to ``target`` (a tableau pile 0-6, or 7: the suit pile of the card's suit)."""

    source: int = attrs.field(validator=attrs.validators.in_(range(PILES + 1)))
    target: int = attrs.field(validator=attrs.validators.in_(range(PILES + 1)))
    count: int = attrs.field(default=1, validator=attrs.validators.in_(range(1, 14)))

    def __str__(self) -> str:
        src = "W" if self.source == WASTE else f"T{self.source + 1}"
        dst = "F" if self.target == FOUNDATION else f"T{self.target + 1}"
        return f"{src}-{dst}" + (f"x{self.count}" if self.count > 1 else "")


DRAW = Draw()
RECYCLE = Recycle()
Move = Union[Draw, Recycle, Flip, Shift]
_MOVE = re.compile(r"(w|t[1-7])-(f|t[1-7])(?:x(\d{1,2}))?")


def parse_move(text: str) -> Move:
    """The move written ``text`` (letters in any case).

    >>> parse_move("t1-t6X3"), parse_move("W-F"), parse_move("flip t2")
    (parse_move('T1-T6x3'), parse_move('W-F'), parse_move('flip T2'))
    >>> parse_move("T8-F")
    Traceback (most recent call last):
    ...
    crapette...ParseError: invalid move 'T8-F': expected draw, recycle, 'flip T1' to 'flip T7', or a move such as W-F, W-T2, T4-F, T1-T6 or T1-T6x3

    :raises ParseError: if the text is not a move.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move() expects a str, got {type(text).__name__}")
    raw = " ".join(text.strip().lower().split())
    if raw == "draw":
        return DRAW
    if raw == "recycle":
        return RECYCLE
    flip = re.fullmatch(r"flip t([1-7])", raw)
    if flip:
        return Flip(int(flip.group(1)) - 1)
    shift = _MOVE.fullmatch(raw)
    if shift:
        src, dst, count = shift.groups()
        number = 1 if count is None else int(count)
        source = WASTE if src == "w" else int(src[1]) - 1
        target = FOUNDATION if dst == "f" else int(dst[1]) - 1
        if number < 1 or (number > 1 and (source == WASTE or target == FOUNDATION)) or number > 13:
            raise ParseError(
                f"invalid move {text.strip()[:20]!r}: only builds of 2 to 13 cards move between tableau piles"
            )
        if source == target and source != WASTE:
            raise ParseError(f"invalid move {text.strip()[:20]!r}: a pile cannot move onto itself")
        return Shift(source, target, number)
    raise ParseError(
        f"invalid move {text.strip()[:20]!r}: expected draw, recycle, 'flip T1' to 'flip T7', "
        "or a move such as W-F, W-T2, T4-F, T1-T6 or T1-T6x3"
    )


# State ------------------------------------------------------------------------------------------


@attrs.frozen
class ArcheoOutcome:
    """How a game ended: won or not, and the score (cards on the suit piles, 52 for a win)."""

    #: True if all 52 cards reached the suit piles.
    won: bool
    #: Cards on the suit piles (ruling AR5).
    score: int
    #: ``"won"``, ``"blocked"`` (no move left) or ``"stalled"`` (ruling AR4).
    reason: str

    @property
    def winner(self) -> int | None:
        """0 (the player) if the game was won, else None."""
        return 0 if self.won else None

    @property
    def scores(self) -> tuple[int]:
        """The score, as the one player's points."""
        return (self.score,)

    def __str__(self) -> str:
        if self.won:
            return "won: all 52 cards are on the suit piles"
        return f"not won ({self.reason}): {self.score} of 52 cards on the suit piles"


def _tuples(value: Any) -> Any:
    return tuple(tuple(v) for v in value)


@attrs.frozen(cache_hash=True)
class ArcheoState:
    """A position of Archeologitaire. Immutable; every card is in exactly one place.

    Build one with :func:`new_game` and :func:`apply_move`.
    """

    #: The seven tableau piles, bottom to top.
    tableau: tuple[tuple[Card, ...], ...] = attrs.field(converter=_tuples)
    #: How many cards at the bottom of each tableau pile are face down.
    down: tuple[int, ...] = attrs.field(converter=tuple)
    #: The deck-pile, face down, bottom to top (the next card turned last).
    stock: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The discard pile, face up, bottom to top.
    discard: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The top rank of each suit pile (0 for empty), in suit order clubs, diamonds, hearts, spades.
    foundations: tuple[int, ...] = attrs.field(converter=tuple)
    #: True once the discard pile has been turned over: every card of the deck-pile was seen (ruling AR6).
    stock_seen: bool
    #: Moves made since the last progress (ruling AR4).
    idle: int
    _legal: tuple[Move, ...] | None = moves_cache()

    @property
    def current_player(self) -> int:
        """Always 0: the one player."""
        return 0

    @property
    def is_over(self) -> bool:
        """True once no move is left (the game is won, blocked or stalled)."""
        return not legal_moves(self)

    @property
    def outcome(self) -> ArcheoOutcome | None:
        """Won or not, and the score, once the game is over."""
        if legal_moves(self):
            return None
        score = sum(self.foundations)
        if score == 52:
            return ArcheoOutcome(True, 52, "won")
        return ArcheoOutcome(False, score, "stalled" if self.idle >= IDLE_LIMIT else "blocked")


def new_game(seed: int = 0) -> ArcheoState:
    """The game dealt from ``seed``: 28 cards to the tableau, 24 to the deck-pile.

    The cards are crapette's deck 0 shuffled by :func:`crapette.shuffled_deck`,
    dealt row by row as in Klondike: one card to each of the seven piles, then
    one to each of piles 2 to 7, and so on; the top card of each pile face up.
    The rest forms the deck-pile, the next card on top.

    >>> state = new_game(3)
    >>> [len(p) for p in state.tableau], state.down, len(state.stock)
    ([1, 2, 3, 4, 5, 6, 7], (0, 1, 2, 3, 4, 5, 6), 24)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    cards = shuffled(seed)
    piles: list[list[Card]] = [[] for _ in range(PILES)]
    used = 0
    for row in range(PILES):
        for pile in range(row, PILES):
            piles[pile].append(cards[used])
            used += 1
    return ArcheoState(piles, range(PILES), tuple(reversed(cards[used:])), (), (0, 0, 0, 0), False, 0)


def _moves(state: ArcheoState) -> tuple[Move, ...]:
    """The legal moves, in a fixed order; none once the game is over.

    The order: flips (T1-T7); moves to the suit piles (from W, then T1-T7);
    moves from W to the tableau (T1-T7); moves between tableau piles (by
    source, then by build size, then by target); draw or recycle.

    >>> [str(m) for m in legal_moves(new_game(3))]
    ['T1-F', 'T2-F', 'draw']
    """
    return () if state.idle >= IDLE_LIMIT else _generate(state)


#: The legal moves of a state (computed once per state).
legal_moves = legal_moves_of(ArcheoState, _moves)


# The move generator's tables: each card's suit pile, and the two cards that a face-up
# card accepts on it (one rank lower, the other colour).
_SUIT_OF = {card: _SUITS.index(card.suit) for card in deck}
_TAKES = {
    card: tuple(c for c in deck if c.rank == card.rank - 1 and _red(c) != _red(card)) for card in deck
}


def _generate(state: ArcheoState) -> tuple[Move, ...]:
    tableau, down, found = state.tableau, state.down, state.foundations
    moves: list[Move] = []
    # Which piles each card may go to: a card on a face-up top; a King on an empty pile.
    targets: dict[Card, list[int]] = {}
    empty: list[int] = []
    for j in range(PILES):
        pile = tableau[j]
        if not pile:
            empty.append(j)
        elif down[j] == len(pile):
            moves.append(Flip(j))
        else:
            for card in _TAKES[pile[-1]]:
                targets.setdefault(card, []).append(j)

    def places(card: Card) -> Sequence[int]:
        return empty if card.rank == 13 else targets.get(card, ())

    waste_top = state.discard[-1] if state.discard else None
    if waste_top is not None and found[_SUIT_OF[waste_top]] == waste_top.rank - 1:
        moves.append(Shift(WASTE, FOUNDATION))
    for i in range(PILES):
        pile = tableau[i]
        if pile and down[i] < len(pile):
            top = pile[-1]
            if found[_SUIT_OF[top]] == top.rank - 1:
                moves.append(Shift(i, FOUNDATION))
    if waste_top is not None:
        moves.extend(Shift(WASTE, j) for j in places(waste_top))
    for i in range(PILES):
        pile = tableau[i]
        for count in range(1, len(pile) - down[i] + 1):
            moves.extend(Shift(i, j, count) for j in places(pile[-count]) if j != i)
    if state.stock:
        moves.append(DRAW)
    elif state.discard:
        moves.append(RECYCLE)
    return tuple(moves)


def _why_illegal(state: ArcheoState, move: object) -> str:
    if not legal_moves(state):
        return f"the game is over ({state.outcome})"
    if isinstance(move, Draw):
        return "the deck-pile is empty: recycle the discard pile"
    if isinstance(move, Recycle):
        if state.stock:
            return "the deck-pile is not empty yet"
        return "the discard pile is empty: there is nothing to turn over"
    if isinstance(move, Flip):
        pile = state.tableau[move.pile]
        if not pile:
            return f"T{move.pile + 1} is empty"
        return f"the top card of T{move.pile + 1} is face up already"
    if not isinstance(move, Shift):
        return f"{move!r} is not a move of Archeologitaire"
    if move.source == WASTE:
        if not state.discard:
            return "the discard pile is empty"
        card = state.discard[-1]
    else:
        pile, down = state.tableau[move.source], state.down[move.source]
        if len(pile) - down < move.count:
            shown = len(pile) - down
            return f"T{move.source + 1} has {shown} face-up card{'s' if shown != 1 else ''}, not {move.count}"
        card = pile[-move.count]
    if move.target == FOUNDATION:
        have = state.foundations[_SUITS.index(card.suit)]
        need = "an Ace" if have == 0 else f"the {card_text(Card(have + 1, card.suit, 0))}"
        return f"{card_text(card)} cannot go to its suit pile: it takes {need}"
    target = state.tableau[move.target]
    if not target:
        return f"T{move.target + 1} is empty and takes only a King, not {card_text(card)}"
    if state.down[move.target] >= len(target):
        return f"the top card of T{move.target + 1} is face down: flip it first"
    return (
        f"{card_text(card)} cannot go on {card_text(target[-1])}: "
        "a card goes on the next higher rank of the other colour"
    )


def _play(state: ArcheoState, move: Move) -> ArcheoState:
    """The state after ``move``; ``state`` itself never changes.

    >>> after = apply_move(new_game(3), parse_move("draw"))
    >>> len(after.stock), len(after.discard), after.idle
    (23, 1, 1)
    >>> apply_move(after, parse_move("recycle"))
    Traceback (most recent call last):
    ...
    crapette...IllegalMoveError: illegal move recycle: the deck-pile is not empty yet

    :raises IllegalMoveError: if the move is not one of ``legal_moves(state)``.
    """
    tableau, down, found = state.tableau, state.down, state.foundations
    stock, discard, seen, idle = state.stock, state.discard, state.stock_seen, state.idle + 1
    if isinstance(move, Draw):
        stock, discard = stock[:-1], discard + stock[-1:]
    elif isinstance(move, Recycle):
        stock, discard, seen = tuple(reversed(discard)), (), True
    elif isinstance(move, Flip):
        down = down[: move.pile] + (down[move.pile] - 1,) + down[move.pile + 1 :]
        idle = 0
    else:
        piles = list(tableau)
        if move.source == WASTE:
            moving: tuple[Card, ...] = discard[-1:]
            discard = discard[:-1]
            idle = 0
        else:
            moving = piles[move.source][-move.count :]
            piles[move.source] = piles[move.source][: -move.count]
        if move.target == FOUNDATION:
            suit = _SUITS.index(moving[0].suit)
            found = found[:suit] + (moving[0].rank,) + found[suit + 1 :]
            idle = 0
        else:
            piles[move.target] = piles[move.target] + moving
        tableau = tuple(piles)
    return ArcheoState(tableau, down, stock, discard, found, seen, idle)


#: The state after a legal move (IllegalMoveError, saying why, for any other).
apply_move = checked_apply(legal_moves, _play, _why_illegal)
#: The share of the cards on the suit piles: 1.0 for a won game (:func:`payoff`).
returns = returns_of(game_type)


def cards(state: ArcheoState) -> Iterable[Card]:
    """Every card of ``state``: the tableau, the deck-pile, the discard pile and the suit piles."""
    for pile in state.tableau:
        yield from pile
    yield from state.stock
    yield from state.discard
    for suit, top in zip(_SUITS, state.foundations):
        for rank in range(1, top + 1):
            yield Card(rank, suit, 0)


# What the player sees -----------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)
class ArcheoView:
    """What the player sees: the face-up cards, the face-down ones as counts.

    The deck-pile is face down, but once the discard pile has been turned
    over its order is known (every card of it was seen on the discard pile,
    ruling AR6), so the view shows it.
    """

    #: The face-up cards of each tableau pile, bottom to top.
    faceup: tuple[tuple[Card, ...], ...]
    #: The number of face-down cards under them.
    down: tuple[int, ...]
    #: The deck-pile (bottom to top) once it is known, else None.
    stock: tuple[Card, ...] | None
    #: The number of cards in the deck-pile.
    stock_size: int
    #: The discard pile, bottom to top.
    discard: tuple[Card, ...]
    #: The top rank of each suit pile.
    foundations: tuple[int, ...]
    #: Moves made since the last progress.
    idle: int


def view(state: ArcheoState, player: int = 0) -> ArcheoView:
    """What the player (0) may see of ``state``.

    >>> v = view(new_game(3))
    >>> [len(p) for p in v.faceup], v.down, v.stock, v.stock_size
    ([1, 1, 1, 1, 1, 1, 1], (0, 1, 2, 3, 4, 5, 6), None, 24)

    :raises ValueError: if ``player`` is not 0.
    """
    if player != 0 or isinstance(player, bool):
        raise ValueError(f"Archeologitaire has one player, 0; got {player!r}")
    return ArcheoView(
        tuple(pile[d:] for pile, d in zip(state.tableau, state.down)), state.down,
        state.stock if state.stock_seen else None, len(state.stock), state.discard,
        state.foundations, state.idle,
    )


def determinize(v: ArcheoView, rng: random.Random) -> ArcheoState:
    """A state that shows ``v``: the face-down cards (and the deck-pile, while unseen) dealt with ``rng``.

    >>> state = new_game(3)
    >>> world = determinize(view(state), random.Random(1))
    >>> view(world) == view(state), world.stock == state.stock
    (True, False)
    """
    seen = {c for pile in v.faceup for c in pile} | set(v.discard) | set(v.stock or ())
    seen.update(Card(r, s, 0) for s, top in zip(_SUITS, v.foundations) for r in range(1, top + 1))
    unseen = [c for c in deck if c not in seen]
    rng.shuffle(unseen)
    tableau = []
    used = 0
    for pile, hidden in zip(v.faceup, v.down):
        tableau.append(tuple(unseen[used : used + hidden]) + pile)
        used += hidden
    stock = v.stock if v.stock is not None else tuple(unseen[used:])
    return ArcheoState(tableau, v.down, stock, v.discard, v.foundations, v.stock is not None, v.idle)


# The solver -----------------------------------------------------------------------------------------

# The solver plans on what the player sees, with the deck-pile and the discard pile
# taken together as a pool: dealing one card at a time with unlimited redeals, any
# seen card of the pool can be brought to the top of the discard pile by drawing
# (and recycling), and taking one out keeps the others in the same cyclic order.
# A plan is a short sequence of "macro moves" (a pool card or a tableau build to a
# pile, a card to its suit pile); the solver plays the first step of the best plan:
# the move itself, or a draw (a recycle) that brings the pool card it needs nearer.

#: Worth of each card on the suit piles (a card that a card of the other colour may
#: still need to build on is worth less); the malus of face-down cards (a pile of d
#: costs d(d+1)/2 times this: the deepest piles are the ones to dig out); the malus
#: of each card left in the pool; the worth of each empty tableau pile. Measured on
#: seeded deals (``solve``), not derived.
_W_FOUNDATION = 10
_W_PREMATURE = 2
_W_HIDDEN = 30
_W_POOL = 4
_W_EMPTY = 4
_RED_SUITS = tuple(_red(Card(1, s, 0)) for s in _SUITS)


@attrs.frozen
class _Plan:
    value: int
    steps: int
    first: tuple[str, Any]


class _Position:
    """A mutable copy of what the solver knows, for planning: piles, suit piles, pool."""

    __slots__ = ("faceup", "down", "found", "pool")

    def __init__(self, faceup: list[tuple[Card, ...]], down: list[int], found: list[int], pool: frozenset[Card]) -> None:
        self.faceup = faceup
        self.down = down
        self.found = found
        self.pool = pool

    def key(self) -> tuple[Any, ...]:
        return (tuple(self.faceup), tuple(self.down), tuple(self.found), self.pool)

    def value(self) -> int:
        hidden = 0
        empty = 0
        for up, d in zip(self.faceup, self.down):
            if not up:
                if d:
                    d -= 1  # the top card can be turned up at once
                else:
                    empty += 1
            hidden += d * (d + 1) // 2
        found = self.found
        home = 0
        for suit in range(4):
            other = min(found[t] for t in range(4) if _RED_SUITS[t] != _RED_SUITS[suit])
            safe = max(2, other + 1)
            home += _W_FOUNDATION * min(found[suit], safe) + _W_PREMATURE * max(0, found[suit] - safe)
        return home - _W_HIDDEN * hidden - _W_POOL * len(self.pool) + _W_EMPTY * empty


def _fits(target: tuple[Card, ...], down: int, card: Card) -> bool:
    if not target:
        return card.rank == 13 and down == 0
    top = target[-1]
    return top.rank == card.rank + 1 and _red(top) != _red(card)


def _safe_to_found(found: Sequence[int], card: Card) -> bool:
    """No card still needs ``card`` to build on: both suit piles of the other colour hold its rank - 1."""
    if card.rank <= 2:
        return True
    red = _red(card)
    return all(found[t] >= card.rank - 1 for t in range(4) if _RED_SUITS[t] != red)


def _macro_moves(p: _Position) -> list[tuple[str, Any]]:
    """The macro moves of a position, the promising first."""
    moves: list[tuple[str, Any]] = []
    for card in sorted(p.pool, key=lambda c: c.index):
        if p.found[_SUITS.index(card.suit)] == card.rank - 1:
            moves.append(("pool-f", card))
    for i, up in enumerate(p.faceup):
        if up and p.found[_SUITS.index(up[-1].suit)] == up[-1].rank - 1:
            moves.append(("tab-f", i))
    for i, up in enumerate(p.faceup):
        if not up:
            continue
        for count in range(len(up), 0, -1):
            card = up[-count]
            whole = count == len(up)
            if whole and p.down[i] == 0 and card.rank == 13:
                continue  # a King that already heads an empty pile gains nothing by moving
            for j in range(PILES):
                if j != i and _fits(p.faceup[j], p.down[j], card):
                    if not p.faceup[j] and not whole:
                        continue  # only a whole run is worth an empty pile
                    moves.append(("tab-tab", (i, count, j)))
    for card in sorted(p.pool, key=lambda c: c.index):
        for j in range(PILES):
            if _fits(p.faceup[j], p.down[j], card):
                moves.append(("pool-tab", (card, j)))
    return moves


def _apply_macro(p: _Position, move: tuple[str, Any]) -> _Position:
    kind, arg = move
    faceup, down, found, pool = list(p.faceup), list(p.down), list(p.found), p.pool
    if kind == "pool-f":
        pool = pool - {arg}
        found[_SUITS.index(arg.suit)] += 1
    elif kind == "tab-f":
        card = faceup[arg][-1]
        faceup[arg] = faceup[arg][:-1]
        found[_SUITS.index(card.suit)] += 1
    elif kind == "tab-tab":
        i, count, j = arg
        faceup[j] = faceup[j] + faceup[i][-count:]
        faceup[i] = faceup[i][:-count]
    else:
        card, j = arg
        pool = pool - {card}
        faceup[j] = faceup[j] + (card,)
    return _Position(faceup, down, found, pool)


def _blocked(p: _Position) -> bool:
    """True if the plan must stop here: a face-down card is ready to be turned up (its worth counted)."""
    return any(not up and d for up, d in zip(p.faceup, p.down))


class SolverBot:
    """Plays Archeologitaire by planning a few moves ahead on what the player sees.

    It turns up a face-down card as soon as it can, plays a card to its suit
    pile when no card could still need it, and otherwise searches the moves of
    the cards it knows (the tableau, and every seen card of the deck-pile and
    the discard pile, which dealing one card at a time with unlimited redeals
    can always bring to the top) up to ``depth`` moves deep, for the position
    worth most: cards on the suit piles (less for those a card of the other
    colour may still need), face-down cards left (a heavy malus, heavier for
    the deeper piles), cards left in the pool (a malus), empty piles. It plays the first move of
    the best plan, or draws towards the pool card that move needs; with no
    plan better than standing still it draws, to see the deck-pile, until the
    game stalls.

    The bot is a pure function of the view: the same position gets the same
    move. It keeps its plans in a cache, so the draws that bring a card up
    cost almost nothing.

    >>> bot = SolverBot()
    >>> state = new_game(3)
    >>> bot.choose(state) in legal_moves(state)
    True
    >>> SolverBot(depth=3)
    SolverBot(depth=3)

    :raises ValueError: if ``depth`` is not an int from 1 to 6.
    """

    name = "solver"

    def __init__(self, depth: int = 2) -> None:
        if not isinstance(depth, int) or isinstance(depth, bool) or not 1 <= depth <= 6:
            raise ValueError(f"depth must be an int from 1 to 6, got {depth!r}")
        self.depth = depth
        self._plans: dict[tuple[Any, ...], tuple[str, Any] | None] = {}

    def __repr__(self) -> str:
        return f"SolverBot(depth={self.depth})"

    def __eq__(self, other: object) -> bool:
        return type(other) is SolverBot and other.depth == self.depth

    def __hash__(self) -> int:
        return hash(("SolverBot", self.depth))

    def __getstate__(self) -> dict[str, Any]:
        return {"depth": self.depth}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.depth = state["depth"]
        self._plans = {}

    def choose(self, state: ArcheoState) -> Move:
        """The move the solver plays in ``state``.

        :raises ValueError: if the game is over.
        """
        moves = legal_moves(state)
        if not moves:
            raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
        v = view(state)
        for move in moves:
            if isinstance(move, Flip):
                return move
        for move in moves:
            if isinstance(move, Shift) and move.target == FOUNDATION:
                card = v.discard[-1] if move.source == WASTE else v.faceup[move.source][-1]
                if _safe_to_found(v.foundations, card):
                    return move
        pool = frozenset(v.discard) | frozenset(v.stock or ())
        position = _Position(list(v.faceup), list(v.down), list(v.foundations), pool)
        key = position.key()
        if key not in self._plans:
            if len(self._plans) > 4096:
                self._plans.clear()
            self._plans[key] = self._plan(position)
        step = self._plans[key]
        return self._realize(step, v, moves)

    def _plan(self, start: _Position) -> tuple[str, Any] | None:
        """The first macro move of the best plan, or None if nothing beats standing still."""
        base = start.value()
        best: _Plan | None = None
        seen: dict[tuple[Any, ...], int] = {}

        def search(p: _Position, depth: int, first: tuple[str, Any] | None, steps: int) -> None:
            nonlocal best
            if first is not None:
                value = p.value()
                if value > base and (
                    best is None or value > best.value or (value == best.value and steps < best.steps)
                ):
                    best = _Plan(value, steps, first)
            if depth == 0 or (first is not None and _blocked(p)):
                return
            key = p.key()
            if seen.get(key, -1) >= depth:
                return
            seen[key] = depth
            for move in _macro_moves(p):
                search(_apply_macro(p, move), depth - 1, move if first is None else first, steps + 1)

        search(start, self.depth, None, 0)
        return None if best is None else best.first

    @staticmethod
    def _realize(step: tuple[str, Any] | None, v: ArcheoView, moves: tuple[Move, ...]) -> Move:
        """The real move for the first step of a plan: the move, or a draw towards its card."""
        fallback = moves[-1]  # draw or recycle, when there is one
        if step is None:
            return fallback
        kind, arg = step
        if kind == "tab-f":
            return Shift(arg, FOUNDATION)
        if kind == "tab-tab":
            i, count, j = arg
            return Shift(i, j, count)
        card = arg if kind == "pool-f" else arg[0]
        if v.discard and v.discard[-1] is card:
            return Shift(WASTE, FOUNDATION if kind == "pool-f" else arg[1])
        return fallback


def solve(deals: int = 1000, *, seed: int = 0, depth: int = 2) -> tuple[int, int, float]:
    """Play the solver on ``deals`` seeded deals (``seed`` to ``seed + deals - 1``).

    Returns (games won, cards on the suit piles in all, seconds taken).
    """
    bot = SolverBot(depth=depth)
    won = total = 0
    start = time.perf_counter()
    for deal in range(seed, seed + deals):
        state = new_game(deal)
        while not state.is_over:
            state = apply_move(state, bot.choose(state))
        outcome = state.outcome
        assert outcome is not None
        won += outcome.won
        total += outcome.score
    return won, total, time.perf_counter() - start


# The terminal ----------------------------------------------------------------------------------------

RULES = """\
Archeologitaire, in short: build all 52 cards onto four suit piles, Ace to King. The seven
tableau piles build down in alternating colours; an empty pile takes only a King; a
face-up build moves as a whole. Turn the deck-pile one card at a time onto the discard
pile (draw); when it is empty, turn the discard pile over (recycle), as often as you like.
Turn up a face-down tableau card with 'flip T3'. The game ends when all cards are home,
when no move is left, or after 100 moves in a row that put no card on a suit pile, take
none from the discard pile and turn none up."""


def _cards_text(group: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in group)


def render(state: ArcheoState, player: int = 0) -> str:
    """The table as the player sees it, in text."""
    v = view(state)
    homes = "  ".join(
        f"{s.symbol}:{card_text(Card(top, s, 0)) if top else '--'}" for s, top in zip(_SUITS, v.foundations)
    )
    seen = " (seen)" if v.stock is not None else ""
    # The discard pile shows its top three cards, fanned (ruling AR1).
    fanned = f"{len(v.discard)}, top {_cards_text(v.discard[-3:])}" if v.discard else "empty"
    lines = [f"suit piles {homes}", f"deck-pile {v.stock_size}{seen}; discard pile {fanned}"]
    for i, (up, hidden) in enumerate(zip(v.faceup, v.down)):
        lines.append(f"T{i + 1}: {'## ' * hidden}{_cards_text(up)}".rstrip())
    lines.append(f"moves without progress: {v.idle} of {IDLE_LIMIT}")
    if not state.is_over:
        lines.append("your moves: " + "  ".join(str(m) for m in legal_moves(state)))
    return "\n".join(lines)


def _bot(game: Any, kind: str, seed: int, budget: int) -> Any:
    if kind == "solver":
        return SolverBot()
    return frontend.default_bot(game, kind, seed, budget)


def _solve_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=frontend.positive_int, default=1000, help="deals to play (default 1000)")
    parser.add_argument("--seed", type=frontend.seed_int, default=0, help="the first deal (default 0)")
    parser.add_argument("--depth", type=int, choices=range(1, 7), default=2, help="plan depth (default 2)")


def _solve_command(args: argparse.Namespace, out: IO[str]) -> int:
    won, total, seconds = solve(args.deals, seed=args.seed, depth=args.depth)
    print(
        f"SolverBot(depth={args.depth}) won {won} of {args.deals} deals ({won / args.deals:.1%}) "
        f"from seed {args.seed}; {total / args.deals:.1f} cards home on average; "
        f"{seconds:.1f} s ({seconds / args.deals * 1000:.1f} ms a deal)",
        file=out,
    )
    return 0


FRONTEND = frontend.Frontend(
    sys.modules[__name__], render=render, rules=RULES, bot=_bot, bots=("random", "search", "solver"),
    description="Archeologitaire, a Klondike patience: play it, or watch the bots play it.",
    budget=5, games={"random": 100, "search": 4, "solver": 100},
    commands={"solve": frontend.Command("the solver bot's win rate on seeded deals", _solve_options, _solve_command)},
)


def main(argv: Sequence[str] | None = None, **streams: Any) -> int:
    """The command line: ``play``, ``simulate``, ``solve``, ``help`` (``streams``: ``ask`` and ``out``)."""
    return frontend.main(FRONTEND, argv, **streams)


if __name__ == "__main__":
    raise SystemExit(main())
