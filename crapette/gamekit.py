"""What every card game written for :mod:`crapette.protocol` needs, so that a game writes only its rules.

A game of the protocol writes its states, its moves and five functions of
its rules: ``new_game(seed)``, the moves of a position (``generate``), the
position after a legal move (``play``), a player's ``view`` and
``determinize``, and ``parse_move``. This module gives it the rest:

- :func:`legal_moves_of`: ``legal_moves``, computed once per state (kept in
  the state's :func:`moves_cache` field) and refusing what is not a state of
  the game with a :class:`TypeError`;
- :func:`checked_apply`: ``apply_move``, which raises
  :class:`~crapette.IllegalMoveError` for a move that is not legal, saying why;
- :func:`returns_of`: ``returns``, from the game's
  :class:`~crapette.protocol.GameType`;
- :class:`MoveText`: a move's repr that reads its notation back;
- one deck of crapette's cards: :data:`DECK`, :func:`card_text`,
  :func:`parse_one_deck_card`, :func:`shuffled`, :func:`sorted_cards`.

A small game, written whole (docs/protocol.rst explains each part):

>>> import attrs
>>> from crapette.protocol import GameType, win_loss
>>> from crapette.gamekit import MoveText, checked_apply, legal_moves_of, moves_cache, returns_of
>>> @attrs.frozen(repr=False)
... class Take(MoveText):
...     count: int
...     def __str__(self): return str(self.count)
>>> @attrs.frozen
... class Outcome:
...     winner: int
...     scores: None = None
>>> @attrs.frozen
... class Pile:                      # Nim: take 1 or 2; who takes the last one wins
...     left: int
...     current_player: int
...     _legal: tuple = moves_cache()
...     @property
...     def is_over(self): return self.left == 0
...     @property
...     def outcome(self): return Outcome(1 - self.current_player) if self.left == 0 else None
>>> game_type = GameType("nim", 2, win_loss)
>>> legal_moves = legal_moves_of(Pile, lambda s: tuple(Take(n) for n in (1, 2) if n <= s.left))
>>> apply_move = checked_apply(legal_moves, lambda s, m: Pile(s.left - m.count, 1 - s.current_player))
>>> returns = returns_of(game_type)
>>> state = apply_move(Pile(3, 0), Take(2))
>>> legal_moves(state), returns(apply_move(state, Take(1)))
((parse_move('1'),), (-1.0, 1.0))
>>> apply_move(state, Take(2))
Traceback (most recent call last):
...
crapette...IllegalMoveError: illegal move 2: it is not one of the legal moves (1)

.. versionadded:: 0.3.0
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

from ._core.cards import ALL_CARDS, Card, parse_card, shuffled_deck
from .errors import IllegalMoveError, ParseError
from .protocol import GameType

__all__ = [
    "DECK",
    "MoveText",
    "card_text",
    "checked_apply",
    "legal_moves_of",
    "moves_cache",
    "parse_one_deck_card",
    "returns_of",
    "shuffled",
    "sorted_cards",
]

StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")

#: One 52-card deck, in crapette's order: clubs, diamonds, hearts, spades; Ace to King in each.
DECK: tuple[Card, ...] = ALL_CARDS[:52]


class MoveText:
    """A move whose repr is the call that reads its notation back, ``parse_move('...')``.

    A game's move classes derive from it and write their notation with ``__str__``.

    >>> class Pass(MoveText):
    ...     def __str__(self): return "pass"
    >>> Pass()
    parse_move('pass')
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


def moves_cache() -> Any:
    """The field in which a state keeps its legal moves for :func:`legal_moves_of`: declare it ``_legal``.

    An attrs field that is not an argument, not compared, not hashed and not shown:
    ``_legal: tuple = moves_cache()`` in an ``@attrs.frozen`` state class.
    """
    return attrs.field(default=None, init=False, eq=False, repr=False)


def legal_moves_of(
    state_type: type[StateT] | tuple[type, ...], generate: Callable[[StateT], Sequence[MoveT]]
) -> Callable[[StateT], tuple[MoveT, ...]]:
    """The game's ``legal_moves``: ``generate(state)`` as a tuple, computed once per state.

    ``generate`` lists the legal moves of the player to move (nothing once the
    game is over); the result is kept in the state's ``_legal`` field
    (:func:`moves_cache`). A value that is not a ``state_type`` raises
    :class:`TypeError` naming what was given.
    """
    name = state_type.__name__ if isinstance(state_type, type) else " or ".join(t.__name__ for t in state_type)

    def legal_moves(state: StateT) -> tuple[MoveT, ...]:
        try:
            legal: tuple[MoveT, ...] | None = state._legal  # type: ignore[attr-defined]
        except AttributeError:
            if not isinstance(state, state_type):
                raise TypeError(f"legal_moves() expects a {name}, got {type(state).__name__}") from None
            raise TypeError(f"{name} has no _legal field: declare `_legal: tuple = moves_cache()`") from None
        if legal is None:
            legal = tuple(generate(state))
            object.__setattr__(state, "_legal", legal)
        return legal

    legal_moves.__doc__ = generate.__doc__ or "The legal moves of the player to move, in a fixed order."
    return legal_moves


def checked_apply(
    legal_moves: Callable[[StateT], Sequence[MoveT]],
    play: Callable[[StateT, MoveT], StateT],
    why_illegal: Callable[[StateT, Any], str] | None = None,
) -> Callable[[StateT, MoveT], StateT]:
    """The game's ``apply_move``: ``play(state, move)`` for a legal move, else :class:`~crapette.IllegalMoveError`.

    ``play`` is called only with one of ``legal_moves(state)``. The error says
    ``illegal move <move>: <why>``, ``why`` from ``why_illegal(state, move)``
    (by default: the game is over, or the legal moves).
    """

    def apply_move(state: StateT, move: MoveT) -> StateT:
        legal = legal_moves(state)
        try:
            ok = move in legal
        except TypeError:  # an unhashable or incomparable value: no move
            ok = False
        if not ok:
            why = why_illegal(state, move) if why_illegal is not None else _why_not_legal(state, legal)
            raise IllegalMoveError(f"illegal move {str(move)[:40]}: {why}", move=move, reason=why)
        return play(state, move)

    apply_move.__doc__ = play.__doc__ or "The state after ``move``; ``state`` itself never changes."
    return apply_move


def _why_not_legal(state: Any, legal: Sequence[Any]) -> str:
    if state.is_over:
        return f"the game is over ({state.outcome})"
    shown = " ".join(str(m) for m in legal[:20]) + (" ..." if len(legal) > 20 else "")
    return f"it is not one of the legal moves ({shown})"


def returns_of(game_type: GameType) -> Callable[[Any], tuple[float, ...]]:
    """The game's ``returns``: ``game_type.payoff`` of a finished state's outcome.

    The function raises :class:`ValueError` for a game that is not over.
    """

    def returns(state: Any) -> tuple[float, ...]:
        return game_type.returns(state)

    returns.__doc__ = f"What the finished game is worth to each player: {game_type.payoff.__name__} of its outcome."
    return returns


def card_text(card: Card) -> str:
    """The card's notation without crapette's deck digit: ``QS``, ``TD``, ``AH``.

    >>> card_text(DECK[0])
    'AC'
    """
    return str(card)[:-1]


def parse_one_deck_card(text: str, ranks: str = "A, 2-9, T or 10, J, Q, K") -> Card:
    """The card written ``text`` (``QS``, ``10d``, ``q♠``), from deck 0.

    ``ranks`` is how the error names the ranks of the game's deck.

    >>> parse_one_deck_card("10d")
    parse_card('TD0')

    :raises ParseError: if the text is not a card.
    :raises TypeError: if ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be written as a str, got {type(text).__name__}")
    raw = text.strip()
    if not 2 <= len(raw) <= 3:
        raise ParseError(f"invalid card {text[:20]!r}: expected a rank and a suit, e.g. 'QS' or '10D'")
    try:
        return parse_card(raw + "0")
    except ParseError:
        raise ParseError(
            f"invalid card {text[:20]!r}: expected a rank ({ranks}) and a suit (C, D, H, S), e.g. 'QS' or '10D'"
        ) from None


def shuffled(seed: int) -> tuple[Card, ...]:
    """The 52 cards as game ``seed`` shuffles them (:func:`crapette.shuffled_deck`), first dealt first.

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed!r}")
    return shuffled_deck(seed, 0)


def sorted_cards(cards: Sequence[Card] | set[Card] | frozenset[Card]) -> tuple[Card, ...]:
    """The cards in deck order (suit, then rank): the canonical order of a hand.

    >>> [card_text(c) for c in sorted_cards((DECK[13], DECK[0]))]
    ['AC', 'AD']
    """
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index
