"""Cards: ranks, suits, colours, the 104 interned cards and the deal's shuffle."""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import Any

import attrs

from ..errors import ParseError
from .checks import check_seed as check_seed  # where some modules look for it
from .messages import brief, repr_pretty

__all__ = ["Card", "Colour", "Rank", "Suit", "ALL_CARDS", "parse_card", "shuffled_deck"]


class Colour(enum.Enum):
    """The colour of a suit.

    >>> Suit.DIAMONDS.colour, Card(1, "S", 0).colour
    (Colour.RED, Colour.BLACK)
    """

    RED = "red"
    BLACK = "black"

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


class Suit(enum.Enum):
    """The four suits. The value is the suit's letter in the notation.

    >>> Suit.HEARTS.colour
    Colour.RED
    >>> Suit.SPADES.symbol
    '♠'
    """

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def colour(self) -> Colour:
        """:attr:`Colour.RED` for hearts and diamonds, :attr:`Colour.BLACK` otherwise."""
        return Colour.RED if self in (Suit.HEARTS, Suit.DIAMONDS) else Colour.BLACK

    @property
    def symbol(self) -> str:
        """The Unicode suit symbol."""
        return _SUIT_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Suit.{self.name}"


_SUITS = tuple(Suit)
_SUIT_SYMBOLS = {Suit.CLUBS: "♣", Suit.DIAMONDS: "♦", Suit.HEARTS: "♥", Suit.SPADES: "♠"}


class Rank(enum.IntEnum):
    """Ace (1, low) to King (13).

    >>> Rank.QUEEN.symbol
    'Q'
    >>> Rank(10).symbol
    'T'
    """

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    @property
    def symbol(self) -> str:
        """The rank's character in the notation: ``A``, ``2``-``9``, ``T``, ``J``, ``Q``, ``K``."""
        return _RANK_SYMBOLS[self.value]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    def __str__(self) -> str:
        return self.symbol


_RANK_SYMBOLS = "?A23456789TJQK"


def _to_rank(value: object) -> Rank:
    if isinstance(value, Rank):
        return value
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 13:
        return Rank(value)
    raise ValueError(f"rank must be a Rank or an int from 1 (Ace) to 13 (King), got {brief(value)}")


def _to_suit(value: object) -> Suit:
    if isinstance(value, Suit):
        return value
    if isinstance(value, str):
        for suit in _SUITS:
            if value.upper() == suit.value or value == suit.symbol or value.upper() == suit.name:
                return suit
    raise ValueError(f"suit must be a Suit or one of 'C', 'D', 'H', 'S', got {brief(value)}")


def _to_deck(value: object) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return int(value)
    raise ValueError(f"deck must be 0 or 1 (the player whose deck the card comes from), got {brief(value)}")


@attrs.frozen(init=False, eq=False, repr=False)
class Card:
    """One of the 104 cards: a rank, a suit and the deck (player 0's or player 1's) it belongs to.

    Cards are interned: ``Card(...)`` returns one of the 104 shared instances,
    so ``==`` and ``is`` agree and a card costs nothing to copy.

    >>> card = Card(Rank.QUEEN, Suit.SPADES, 1)
    >>> card
    parse_card('QS1')
    >>> str(card), card.colour, card.index
    ('QS1', Colour.BLACK, 102)
    >>> Card(12, "S", 1) is card
    True

    :raises ValueError: if the rank is not 1-13, the suit not a suit or the deck not 0 or 1.
    """

    rank: Rank
    suit: Suit
    deck: int
    #: The card's position in :data:`ALL_CARDS` (0-103): deck, then suit, then rank.
    index: int = attrs.field(init=False)
    colour: Colour = attrs.field(init=False)
    # Precomputed keys for the move generator: suit and rank, colour and rank, and
    # the colour-and-rank key of the card this one accepts when building down in
    # alternating colours.
    _suit_rank: int = attrs.field(init=False)
    _colour_rank: int = attrs.field(init=False)
    _alt_accepts: int = attrs.field(init=False)

    def __new__(cls, rank: Rank | int, suit: Suit | str, deck: int) -> Card:
        r, s, d = _to_rank(rank), _to_suit(suit), _to_deck(deck)
        return ALL_CARDS[d * 52 + _SUITS.index(s) * 13 + r - 1]

    def __hash__(self) -> int:
        return self.index

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit, self.deck))

    def __str__(self) -> str:
        return f"{_RANK_SYMBOLS[self.rank]}{self.suit.value}{self.deck}"

    def __repr__(self) -> str:
        return f"parse_card({str(self)!r})"

    _repr_pretty_ = repr_pretty

    @property
    def symbol(self) -> str:
        """The card with a Unicode suit symbol and no deck, for display: ``'Q♠'``."""
        return f"{_RANK_SYMBOLS[self.rank]}{self.suit.symbol}"


def _make_cards() -> tuple[Card, ...]:
    cards: list[Card] = []
    setattr_ = object.__setattr__
    for deck in (0, 1):
        for s, suit in enumerate(_SUITS):
            colour = suit.colour
            c = 0 if colour is Colour.RED else 1
            for rank in Rank:
                card = object.__new__(Card)
                setattr_(card, "rank", rank)
                setattr_(card, "suit", suit)
                setattr_(card, "deck", deck)
                setattr_(card, "index", len(cards))
                setattr_(card, "colour", colour)
                setattr_(card, "_suit_rank", s * 16 + rank)
                setattr_(card, "_colour_rank", 64 + c * 16 + rank)
                setattr_(card, "_alt_accepts", 64 + (1 - c) * 16 + rank - 1)
                cards.append(card)
    return tuple(cards)


#: The 104 cards in index order: player 0's deck then player 1's; within a deck
#: clubs, diamonds, hearts, spades; within a suit Ace to King.
ALL_CARDS: tuple[Card, ...] = _make_cards()

_RANK_TEXT = {sym: Rank(i) for i, sym in enumerate(_RANK_SYMBOLS) if i}
_RANK_TEXT["10"] = Rank.TEN
_SUIT_TEXT = {s.value: s for s in _SUITS} | {s.symbol: s for s in _SUITS}
_MAX_TEXT = 64


def parse_card(text: str) -> Card:
    """Read a card in the notation ``<rank><suit><deck>``.

    The rank is ``A``, ``2``-``9``, ``T`` (or ``10``), ``J``, ``Q`` or ``K``; the
    suit ``C``, ``D``, ``H`` or ``S`` (or ``♣ ♦ ♥ ♠``); the deck ``0`` or ``1``.
    Letters may be lower case and surrounding spaces are ignored.
    ``parse_card(str(card)) is card`` for every card.

    >>> parse_card("10h1")
    parse_card('TH1')
    >>> parse_card("A♠0").symbol
    'A♠'

    :raises ParseError: if the text is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_card() expects a str, got {type(text).__name__}")
    if len(text) > _MAX_TEXT:
        raise ParseError(f"invalid card: text too long ({len(text)} characters)")
    raw = text.strip().upper()
    if len(raw) < 3:
        raise ParseError(f"invalid card {brief(text)}: expected <rank><suit><deck>, e.g. 'QS1'")
    rank = _RANK_TEXT.get(raw[:-2])
    if rank is None:
        raise ParseError(
            f"invalid card {brief(text)}: unknown rank {raw[:-2]!r} (expected A, 2-9, T or 10, J, Q, K)"
        )
    suit = _SUIT_TEXT.get(raw[-2])
    if suit is None:
        raise ParseError(f"invalid card {brief(text)}: unknown suit {raw[-2]!r} (expected C, D, H or S)")
    if raw[-1] not in "01":
        raise ParseError(f"invalid card {brief(text)}: the deck must be 0 or 1, got {raw[-1]!r}")
    return ALL_CARDS[int(raw[-1]) * 52 + _SUITS.index(suit) * 13 + rank - 1]


# The deal's shuffle (ruling R2): SplitMix64 feeding a Fisher-Yates shuffle with
# rejection sampling. Part of the public contract: changing it changes every deal.
_MASK = (1 << 64) - 1


def splitmix64(seed: int) -> Iterator[int]:
    state = seed
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def shuffled_deck(seed: int, deck: int) -> tuple[Card, ...]:
    """The deck ``deck`` (0 or 1) as game ``seed`` shuffles it, first card dealt first.

    The algorithm is part of the API and never changes (ruling R2): a SplitMix64
    generator started at ``seed`` yields 64-bit numbers; each deck, in the order
    of :data:`ALL_CARDS`, is shuffled by Fisher-Yates from the last position down
    (for ``i`` from 51 to 1, swap position ``i`` with a uniform ``j <= i``), ``j``
    being the first number ``x`` below ``2**64 - 2**64 % (i + 1)`` taken modulo
    ``i + 1``. Deck 0 is shuffled first; deck 1 continues the same stream.

    >>> [str(c) for c in shuffled_deck(0, 0)[:4]]
    ['8S0', 'JH0', '9C0', '2S0']

    :raises ValueError: if the seed is not an int in ``0 <= seed < 2**64`` or the deck not 0 or 1.
    """
    check_seed(seed)
    d = _to_deck(deck)
    numbers = splitmix64(seed)
    decks = []
    for which in (0, 1):
        cards = list(ALL_CARDS[which * 52 : which * 52 + 52])
        for i in range(51, 0, -1):
            n = i + 1
            limit = (1 << 64) - (1 << 64) % n
            x = next(numbers)
            while x >= limit:
                x = next(numbers)
            j = x % n
            cards[i], cards[j] = cards[j], cards[i]
        decks.append(tuple(cards))
        if which == d:
            break
    return decks[d]
