"""Bank, the set-collecting card game for 2 to 4 players, as a game of crapette's protocol.

The module itself is the two-player game (``check_game(bank)`` works);
:func:`game` gives the game for 2, 3 or 4 players as an object with the same
members (``check_game(bank.game(3))``)::

    import bank
    from crapette.bots import RandomBot, SearchBot
    from crapette.simulation import simulate

    simulate(bank, (RandomBot(seed=1, game=bank), SearchBot(seed=2, game=bank)), games=10)
    three = bank.game(3)
    simulate(three, [SearchBot(seed=s, game=three) for s in range(3)], games=6)

From the terminal: ``python bank.py play`` (``--players 3``, ``--bot random``,
``--seed N``, ``--seat 1``), ``python bank.py simulate``, ``python bank.py help``.
The rules and every ruling are in the documentation (``docs/games/bank.rst``).

A turn is three moves: a withdrawal (``draw``: one card from the withdrawal
deck; ``draw2``: two; ``take``: the top of the discard pile), at most one bank
(``bank 7H``, ``bank 7H KS``, ``bank 7H 7D 2C 9S``) and a discard (``discard 7H``).
"""

from __future__ import annotations

import itertools
import random
import sys
from collections.abc import Iterable, Sequence
from typing import Any, ClassVar, Union

import attrs

from crapette import Card, ParseError, frontend
from crapette.gamekit import (
    DECK, MoveText, card_text, checked_apply, legal_moves_of, moves_cache, parse_one_deck_card, returns_of, shuffled,
    sorted_cards,
)
from crapette.protocol import GameType

__all__ = [
    "game_type",
    "name",
    "num_players",
    "deck",
    "DEAL",
    "HAND_LIMIT",
    "PLAYERS",
    "Draw",
    "TakeDiscard",
    "BankCards",
    "Discard",
    "BankState",
    "BankView",
    "BankOutcome",
    "BankGame",
    "game",
    "new_game",
    "legal_moves",
    "apply_move",
    "returns",
    "view",
    "determinize",
    "parse_move",
    "cards",
    "value",
    "main",
]

def payoff(outcome: Any) -> tuple[float, ...]:
    """1 for the winner, 0 for the others; on a tie for the top, the tied share the 1."""
    best = max(outcome.scores)
    top = sum(1 for s in outcome.scores if s == best)
    return tuple(1.0 / top if s == best else 0.0 for s in outcome.scores)


#: The game's metadata: its name, two players (:func:`game` gives the others), and :func:`payoff`.
game_type = GameType("bank", 2, payoff)
#: The game's name, for reports.
name = game_type.name
#: The module is the two-player game; :func:`game` gives the others.
num_players = game_type.num_players
#: The player counts this module plays (ruling BR1).
PLAYERS = (2, 3, 4)
#: Seven cards are dealt to each player.
DEAL = 7
#: A hand never holds more than ten cards.
HAND_LIMIT = 10
#: One 52-card deck.
deck: tuple[Card, ...] = DECK


def value(card: Card) -> int:
    """What a banked card scores: its face value; Jack, Queen, King and Ace 10 each.

    >>> from crapette import parse_card
    >>> value(parse_card("7H0")), value(parse_card("AH0")), value(parse_card("KH0"))
    (7, 10, 10)
    """
    return 10 if card.rank == 1 or card.rank > 10 else int(card.rank)


# Moves ------------------------------------------------------------------------------------------


def _is_card(_instance: object, attribute: Any, value: object) -> None:
    if not isinstance(value, Card):
        raise TypeError(f"{attribute.name} must be a crapette.Card, got {type(value).__name__}")


def _are_cards(_instance: object, attribute: Any, value: tuple[Card, ...]) -> None:
    if not all(isinstance(c, Card) for c in value):
        raise TypeError(f"{attribute.name} must be crapette.Card values, got {value!r}")


@attrs.frozen(repr=False)
class Draw(MoveText):
    """Withdraw ``count`` cards (1 or 2) from the top of the withdrawal deck."""

    count: int = attrs.field(validator=attrs.validators.in_((1, 2)))

    def __str__(self) -> str:
        return "draw" if self.count == 1 else "draw2"


@attrs.frozen(repr=False)
class TakeDiscard(MoveText):
    """Withdraw the top card of the discard pile."""

    def __str__(self) -> str:
        return "take"


@attrs.frozen(repr=False)
class BankCards(MoveText):
    """Bank these cards (1, 2 or 4 of them, in deck order): a pair's, a trio's or a quad's bank."""

    cards: tuple[Card, ...] = attrs.field(converter=tuple, validator=_are_cards)

    def __str__(self) -> str:
        return "bank " + " ".join(card_text(c) for c in self.cards)


@attrs.frozen(repr=False)
class Discard(MoveText):
    """Discard ``card`` face up onto the discard pile: the end of the turn."""

    card: Card = attrs.field(validator=_is_card)

    def __str__(self) -> str:
        return f"discard {card_text(self.card)}"


DRAW = Draw(1)
DRAW2 = Draw(2)
TAKE = TakeDiscard()
Move = Union[Draw, TakeDiscard, BankCards, Discard]
_DISCARDS = {card: Discard(card) for card in deck}


def parse_move(text: str) -> Move:
    """The move written ``text``: ``draw``, ``draw2``, ``take``, ``bank <cards>`` or ``discard <card>``.

    >>> parse_move("bank ks 7h"), parse_move("Discard 10d")
    (parse_move('bank 7H KS'), parse_move('discard TD'))
    >>> parse_move("bank 7H 7H")
    Traceback (most recent call last):
    ...
    crapette...ParseError: invalid move 'bank 7H 7H': a card is named twice

    :raises ParseError: if the text is not a move.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move() expects a str, got {type(text).__name__}")
    words = text.strip().lower().split()
    shown = text.strip()[:40]
    if words in (["draw"], ["draw", "1"]):
        return DRAW
    if words in (["draw2"], ["draw", "2"]):
        return DRAW2
    if words == ["take"]:
        return TAKE
    if words and words[0] in ("bank", "discard"):
        try:
            picked = [parse_one_deck_card(w) for w in words[1:]]
        except ParseError as exc:
            raise ParseError(f"invalid move {shown!r}: {exc}") from None
        if words[0] == "discard":
            if len(picked) != 1:
                raise ParseError(f"invalid move {shown!r}: discard one card, e.g. 'discard 7H'")
            return _DISCARDS[picked[0]]
        if len(set(picked)) != len(picked):
            raise ParseError(f"invalid move {shown!r}: a card is named twice")
        if len(picked) not in (1, 2, 4):
            raise ParseError(
                f"invalid move {shown!r}: a bank is 1 card (a pair's), 2 (a trio's) or 4 (a quad's)"
            )
        return BankCards(sorted_cards(picked))
    raise ParseError(
        f"invalid move {shown!r}: expected draw, draw2, take, 'bank <cards>' or 'discard <card>'"
    )


# State ------------------------------------------------------------------------------------------


@attrs.frozen
class BankOutcome:
    """How a game ended: each player's bank total, and the winner (None on a tie for the top)."""

    #: The player with the highest bank, or None if several share it.
    winner: int | None
    #: Each player's bank total.
    scores: tuple[int, ...]

    @property
    def reason(self) -> str:
        """Always ``"deck-empty"``: the game ends when the withdrawal deck is used up."""
        return "deck-empty"

    def __str__(self) -> str:
        totals = "-".join(str(s) for s in self.scores)
        if self.winner is None:
            return f"tie for the highest bank, {totals}"
        return f"player {self.winner} wins, {totals}"


def _tuples(value: Any) -> Any:
    return tuple(tuple(v) for v in value)


@attrs.frozen(cache_hash=True)
class BankState:
    """A position of Bank. Immutable; every card is in exactly one place.

    Build one with :func:`new_game` and :func:`apply_move`.
    """

    #: Each player's hand, in deck order.
    hands: tuple[tuple[Card, ...], ...] = attrs.field(converter=_tuples)
    #: The withdrawal deck, bottom to top (the next card drawn last).
    stock: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The discard pile, bottom to top.
    discard: tuple[Card, ...] = attrs.field(converter=tuple)
    #: Each player's bank, in the order banked.
    banks: tuple[tuple[Card, ...], ...] = attrs.field(converter=_tuples)
    #: The player whose turn it is.
    current_player: int
    #: True once this turn's withdrawal is made (or skipped with ten cards in hand).
    drawn: bool
    #: True once the player has banked this turn.
    banked: bool
    #: The card taken from the discard pile this turn, which may not be discarded again.
    taken: Card | None
    #: Per player, the cards of the hand that everyone saw it take, in deck order.
    shown: tuple[tuple[Card, ...], ...] = attrs.field(converter=_tuples)
    #: True once the player who took the last card of the deck has finished the turn.
    over: bool = False
    _legal: tuple[Move, ...] | None = moves_cache()

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.over

    @property
    def outcome(self) -> BankOutcome | None:
        """Each player's bank total and the winner, once the game is over."""
        if not self.over:
            return None
        scores = tuple(sum(value(c) for c in bank) for bank in self.banks)
        best = max(scores)
        top = [p for p, s in enumerate(scores) if s == best]
        return BankOutcome(top[0] if len(top) == 1 else None, scores)


def _check_players(players: object) -> int:
    if not isinstance(players, int) or isinstance(players, bool) or players not in PLAYERS:
        raise ValueError(f"Bank is played by 2, 3 or 4 players here, not {players!r}")
    return players


def new_game(seed: int = 0, players: int = 2) -> BankState:
    """The game dealt from ``seed`` for ``players`` (2 to 4): seven cards each, then one face up.

    The cards are crapette's deck 0 shuffled by :func:`crapette.shuffled_deck`,
    dealt one at a time from player 0; the next card starts the discard pile;
    the rest is the withdrawal deck, the next card on top. Player 0 begins.

    >>> state = new_game(5, players=3)
    >>> [len(h) for h in state.hands], len(state.discard), len(state.stock)
    ([7, 7, 7], 1, 30)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``, or
        ``players`` is not 2, 3 or 4.
    """
    count = _check_players(players)
    cards = shuffled(seed)
    dealt = DEAL * count
    hands = tuple(sorted_cards(cards[p:dealt:count]) for p in range(count))
    empty = ((),) * count
    return BankState(hands, tuple(reversed(cards[dealt + 1 :])), (cards[dealt],), empty, 0, False, False, None, empty)


def _bank_options(hand: tuple[Card, ...], taken: Card | None) -> list[tuple[Card, ...]]:
    """Every bank the hand allows (rules B5-B7, ruling BR6), leaving a card to discard (BR5)."""
    groups: dict[int, list[Card]] = {}
    for card in hand:
        groups.setdefault(card.rank, []).append(card)
    options: set[tuple[Card, ...]] = set()
    for group in groups.values():
        if len(group) >= 2:
            options.update((c,) for c in group)
        if len(group) >= 3:
            options.update(sorted_cards((c, d)) for c in group for d in hand if d is not c)
        if len(group) == 4:
            for pair in itertools.combinations(group, 2):
                rest = [c for c in hand if c not in pair]
                options.update(sorted_cards(pair + extra) for extra in itertools.combinations(rest, 2))
    kept = [
        option for option in options
        if any(c is not taken and c not in option for c in hand)
    ]
    return sorted(kept, key=lambda o: (len(o), [c.index for c in o]))


def _generate(state: BankState) -> tuple[Move, ...]:
    """The legal moves of the player to move, in a fixed order.

    Before the withdrawal: ``draw``, ``draw2``, ``take`` (those the rules allow).
    After it: the banks (unless one was made this turn; by size, then by the
    cards), then the discards in hand order. Nothing once the game is over.

    >>> [str(m) for m in legal_moves(new_game(5))]
    ['draw', 'draw2', 'take']
    """
    if state.over:
        return ()
    hand = state.hands[state.current_player]
    if not state.drawn:
        moves: list[Move] = [DRAW]
        if len(state.stock) >= 2 and len(hand) <= HAND_LIMIT - 2:
            moves.append(DRAW2)
        if state.discard and hand:
            moves.append(TAKE)
        return tuple(moves)
    banks: list[Move] = []
    if not state.banked:
        banks = [BankCards(option) for option in _bank_options(hand, state.taken)]
    return tuple(banks) + tuple(_DISCARDS[c] for c in hand if c is not state.taken)


def _why_illegal(state: BankState, move: object) -> str:
    if state.over:
        return f"the game is over ({state.outcome})"
    if not isinstance(move, (Draw, TakeDiscard, BankCards, Discard)):
        return f"{move!r} is not a move of Bank"
    player = state.current_player
    hand = state.hands[player]
    if isinstance(move, (Draw, TakeDiscard)):
        if state.drawn:
            return "the withdrawal is made (or skipped, with ten cards in hand): bank or discard now"
        if isinstance(move, TakeDiscard):
            if not state.discard:
                return "the discard pile is empty"
            return "the card taken from the discard pile may not be discarded this turn: with an empty hand, draw"
        if move.count == 2 and len(state.stock) < 2:
            return "the withdrawal deck holds one card: draw it alone"
        return f"a hand holds at most {HAND_LIMIT} cards: with {len(hand)}, draw one card"
    if not state.drawn:
        return "make the withdrawal first: draw, draw2 or take"
    if isinstance(move, Discard):
        if move.card is state.taken:
            return f"{card_text(move.card)} was taken from the discard pile this turn: discard another card"
        return f"player {player} has no {card_text(move.card)}"
    if state.banked:
        return "one bank per turn: discard now"
    missing = [c for c in move.cards if c not in hand]
    if missing:
        return f"player {player} has no {' '.join(card_text(c) for c in missing)}"
    size = len(move.cards)
    kind = {1: "a pair's bank is one card of a pair in hand",
            2: "a trio's bank is one card of a trio in hand and any other card",
            4: "a quad's bank is two cards of a quad in hand and any two other cards"}.get(size)
    if kind and all(c in hand for c in move.cards):
        left = [c for c in hand if c not in move.cards and c is not state.taken]
        if not left:
            return "a bank must leave a card to discard (not the one taken from the discard pile)"
        return kind
    return "a bank is one card (a pair's), two (a trio's) or four (a quad's)"


#: The legal moves of a state (computed once per state).
legal_moves = legal_moves_of(BankState, _generate)


def _play(state: BankState, move: Move) -> BankState:
    """The state after ``move``; ``state`` itself never changes.

    >>> state = apply_move(new_game(5), parse_move("draw"))
    >>> state.drawn, len(state.hands[0])
    (True, 8)
    >>> apply_move(state, parse_move("draw"))
    Traceback (most recent call last):
    ...
    crapette...IllegalMoveError: illegal move draw: the withdrawal is made (or skipped, with ten cards in hand): bank or discard now

    :raises IllegalMoveError: if the move is not one of ``legal_moves(state)``.
    """
    player = state.current_player
    hands = list(state.hands)
    shown = list(state.shown)
    hand = hands[player]
    if isinstance(move, Draw):
        hands[player] = sorted_cards(hand + state.stock[-move.count :])
        stock = state.stock[: -move.count]
        return BankState(hands, stock, state.discard, state.banks, player, True, False, None, state.shown)
    if isinstance(move, TakeDiscard):
        card = state.discard[-1]
        hands[player] = sorted_cards(hand + (card,))
        shown[player] = sorted_cards(shown[player] + (card,))
        return BankState(hands, state.stock, state.discard[:-1], state.banks, player, True, False, card, shown)
    if isinstance(move, BankCards):
        banked = set(move.cards)
        hands[player] = tuple(c for c in hand if c not in banked)
        shown[player] = tuple(c for c in shown[player] if c not in banked)
        banks = list(state.banks)
        banks[player] = banks[player] + move.cards
        return BankState(hands, state.stock, state.discard, banks, player, True, True, state.taken, shown)
    card = move.card
    hands[player] = tuple(c for c in hand if c is not card)
    shown[player] = tuple(c for c in shown[player] if c is not card)
    discard = state.discard + (card,)
    if not state.stock:
        # Ruling BR7: the player who took the last card has finished the turn: the game ends.
        return BankState(hands, (), discard, state.banks, player, True, state.banked, None, shown, True)
    following = (player + 1) % len(hands)
    full = len(hands[following]) >= HAND_LIMIT
    return BankState(hands, state.stock, discard, state.banks, following, full, False, None, shown)


#: The state after a legal move (IllegalMoveError, saying why, for any other).
apply_move = checked_apply(legal_moves, _play, _why_illegal)
#: What a finished game is worth to each player: :func:`payoff` of its outcome.
returns = returns_of(game_type)


def cards(state: BankState) -> Iterable[Card]:
    """Every card of ``state``: the hands, the withdrawal deck, the discard pile and the banks."""
    return itertools.chain(*state.hands, state.stock, state.discard, *state.banks)


# What a player sees -------------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)
class BankView:
    """What ``player`` sees: their own hand, the other hands as counts (and the cards seen taken), the table."""

    #: The player who sees this.
    player: int
    #: That player's hand.
    hand: tuple[Card, ...]
    #: The number of cards in each hand.
    hand_sizes: tuple[int, ...]
    #: Per player, the cards of the hand that everyone saw it take from the discard pile.
    shown: tuple[tuple[Card, ...], ...]
    #: The number of cards in the withdrawal deck.
    stock_size: int
    #: The discard pile, bottom to top.
    discard: tuple[Card, ...]
    #: Each player's bank.
    banks: tuple[tuple[Card, ...], ...]
    #: The player whose turn it is.
    current_player: int
    #: As in :class:`BankState`.
    drawn: bool
    #: As in :class:`BankState`.
    banked: bool
    #: As in :class:`BankState`.
    taken: Card | None
    #: As in :class:`BankState`.
    over: bool


def view(state: BankState, player: int) -> BankView:
    """What ``player`` may see of ``state``.

    >>> v = view(new_game(5), 1)
    >>> v.hand_sizes, v.stock_size, len(v.discard)
    ((7, 7), 37, 1)

    :raises ValueError: if ``player`` is not a player of the game.
    """
    count = len(state.hands)
    if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < count:
        raise ValueError(f"player must be an int from 0 to {count - 1}, got {player!r}")
    return BankView(
        player, state.hands[player], tuple(len(h) for h in state.hands), state.shown, len(state.stock),
        state.discard, state.banks, state.current_player, state.drawn, state.banked, state.taken, state.over,
    )


def determinize(v: BankView, rng: random.Random) -> BankState:
    """A state that shows ``v`` to its player: the unseen cards dealt at random with ``rng``.

    >>> state = new_game(5)
    >>> world = determinize(view(state, 0), random.Random(1))
    >>> view(world, 0) == view(state, 0), world.hands[1] == state.hands[1]
    (True, False)
    """
    seen = set(v.hand).union(*v.shown, v.discard, *v.banks)
    unseen = [c for c in deck if c not in seen]
    rng.shuffle(unseen)
    hands = []
    used = 0
    for player, size in enumerate(v.hand_sizes):
        if player == v.player:
            hands.append(v.hand)
            continue
        extra = size - len(v.shown[player])
        hands.append(sorted_cards(v.shown[player] + tuple(unseen[used : used + extra])))
        used += extra
    stock = tuple(unseen[used:])
    return BankState(
        hands, stock, v.discard, v.banks, v.current_player, v.drawn, v.banked, v.taken, v.shown, v.over
    )


# Other player counts ---------------------------------------------------------------------------------


@attrs.frozen
class BankGame:
    """Bank for ``num_players`` (2, 3 or 4) players: the module's functions, dealt for that many.

    >>> three = game(3)
    >>> three.num_players, len(three.new_game(1).hands)
    (3, 3)
    """

    #: The number of players.
    num_players: int = attrs.field(converter=_check_players)

    name: ClassVar[str] = "bank"
    deck: ClassVar[tuple[Card, ...]] = deck

    legal_moves = staticmethod(legal_moves)
    apply_move = staticmethod(apply_move)
    returns = staticmethod(returns)
    view = staticmethod(view)
    determinize = staticmethod(determinize)
    parse_move = staticmethod(parse_move)
    cards = staticmethod(cards)

    @property
    def game_type(self) -> GameType:
        """The metadata: Bank for this many players."""
        return GameType("bank", self.num_players, payoff)

    def new_game(self, seed: int = 0) -> BankState:
        """The game dealt from ``seed`` for this many players (:func:`new_game`)."""
        return new_game(seed, self.num_players)


def game(players: int = 2) -> Any:
    """Bank for ``players`` players: the module itself for 2, a :class:`BankGame` for 3 or 4.

    :raises ValueError: if ``players`` is not 2, 3 or 4.
    """
    if _check_players(players) == 2:
        return sys.modules[__name__]
    return BankGame(players)


# The terminal ----------------------------------------------------------------------------------------

RULES = """\
Bank, in short: seven cards each; the rest is the withdrawal deck, and one card starts the
discard pile. Each turn: withdraw (draw: one card from the deck; draw2: two; take: the top of
the discard pile), keeping at most ten cards in hand; then you may bank once: with a pair,
one of its cards ('bank 7H'); with a trio, one of its cards and any other card ('bank 7H KS');
with a quad, two of its cards and any two others; then discard a card ('discard 9C'), not
the one you took. When someone takes the last card of the deck, they finish their turn and
the game ends. Banked cards score their face value, J Q K A ten each; the highest bank wins."""


def _cards_text(group: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in group) or "-"


def render(state: BankState, player: int) -> str:
    """The table as ``player`` sees it, in text."""
    v = view(state, player)
    top = card_text(v.discard[-1]) if v.discard else "-"
    lines = [f"withdrawal deck {v.stock_size}; discard pile {len(v.discard)}, top {top}"]
    for other in range(len(v.hand_sizes)):
        total = sum(value(c) for c in v.banks[other])
        bank_text = f"bank {_cards_text(v.banks[other])} ({total})"
        if other == player:
            continue
        known = f" (known: {_cards_text(v.shown[other])})" if v.shown[other] else ""
        lines.append(f"player {other}: {v.hand_sizes[other]} cards{known}; {bank_text}")
    mine = sum(value(c) for c in v.banks[player])
    lines.append(f"you (player {player}): {_cards_text(v.hand)}; bank {_cards_text(v.banks[player])} ({mine})")
    if not state.over and state.current_player == player:
        lines.append("your moves: " + "  ".join(str(m) for m in legal_moves(state)))
    return "\n".join(lines)


FRONTEND = frontend.Frontend(
    sys.modules[__name__], render=render, rules=RULES, game_for=game, players=PLAYERS,
    description="Bank for 2 to 4 players, against crapette's bots.", budget=100, games=10,
)


def main(argv: Sequence[str] | None = None, **streams: Any) -> int:
    """The command line: ``play``, ``simulate``, ``help`` (``streams``: ``ask`` and ``out``, for tests)."""
    return frontend.main(FRONTEND, argv, **streams)


if __name__ == "__main__":
    raise SystemExit(main())
