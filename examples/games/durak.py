"""Podkidnoy Durak for two players, as a game of crapette's protocol (``crapette.protocol.CardGame``).

The module itself is the game: ``name``, ``num_players``, ``new_game``,
``legal_moves``, ``apply_move``, ``returns``, ``view``, ``determinize`` and
``parse_move`` are defined at module level, so the library's generic tools
take the module as it is::

    import durak
    from crapette.bots import RandomBot, SearchBot
    from crapette.simulation import simulate
    from crapette.testing import check_game

    check_game(durak)
    simulate(durak, (RandomBot(seed=1, game=durak), SearchBot(seed=2, game=durak)), games=10)

From the terminal: ``python durak.py play`` plays against the search bot
(``--bot random``, ``--seed N``, ``--seat 1``), ``python durak.py simulate``
pits the random bot against the search bot, ``python durak.py help`` says the
rest. The rules and every ruling are in the documentation (``docs/games/durak.rst``).

The notation: a card played (to attack or to defend, as the turn says) is
written as the card, ``7S``, ``TD`` (or ``10D``), ``AH``; the attacker ends a bout
with ``done``; the defender picks the table up with ``take``.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable, Sequence
from typing import Any, Union

import attrs

from crapette import Card, ParseError, Suit, frontend
from crapette.gamekit import (
    DECK, MoveText, card_text, checked_apply, legal_moves_of, moves_cache, parse_one_deck_card, returns_of, shuffled,
    sorted_cards,
)
from crapette.protocol import GameType, win_loss

__all__ = [
    "game_type",
    "name",
    "num_players",
    "deck",
    "HAND_SIZE",
    "MAX_ATTACKS",
    "PlayCard",
    "Done",
    "Take",
    "DONE",
    "TAKE",
    "DurakState",
    "DurakView",
    "DurakOutcome",
    "new_game",
    "legal_moves",
    "apply_move",
    "returns",
    "view",
    "determinize",
    "parse_move",
    "cards",
    "beats",
    "strength",
    "main",
]

#: The game's metadata: its name, two players (0 and 1), and a win worth 1, a loss -1, a draw 0.
game_type = GameType("durak", 2, win_loss)
#: The game's name, for reports.
name = game_type.name
#: Two players: 0 and 1.
num_players = game_type.num_players
#: Hands are filled up to six cards after every bout.
HAND_SIZE = 6
#: At most six attack cards in one bout.
MAX_ATTACKS = 6

#: The 36 cards: 6 to Ace in each suit, in crapette's order (clubs, diamonds, hearts, spades).
deck: tuple[Card, ...] = tuple(c for c in DECK if c.rank == 1 or c.rank >= 6)
_IN_DECK = frozenset(deck)


def strength(card: Card) -> int:
    """The card's rank in Durak, where the Ace is high: 6 to 14.

    >>> from crapette import parse_card
    >>> strength(parse_card("AS0")), strength(parse_card("6S0"))
    (14, 6)
    """
    return 14 if card.rank == 1 else int(card.rank)


def beats(defence: Card, attack: Card, trump: Suit) -> bool:
    """True if ``defence`` beats ``attack``: a higher card of its suit, or a trump on a plain card.

    >>> from crapette import Suit, parse_card
    >>> beats(parse_card("6H0"), parse_card("AS0"), Suit.HEARTS)
    True
    >>> beats(parse_card("7H0"), parse_card("8H0"), Suit.HEARTS)
    False
    """
    if defence.suit is attack.suit:
        return strength(defence) > strength(attack)
    return defence.suit is trump


# Moves ------------------------------------------------------------------------------------------


def _is_card(_instance: object, attribute: Any, value: object) -> None:
    if not isinstance(value, Card):
        raise TypeError(f"{attribute.name} must be a crapette.Card, got {type(value).__name__}")


@attrs.frozen(repr=False)
class PlayCard(MoveText):
    """Play ``card``: an attack by the attacker, a defence against the last attack by the defender."""

    card: Card = attrs.field(validator=_is_card)

    def __str__(self) -> str:
        return card_text(self.card)


@attrs.frozen(repr=False)
class Done(MoveText):
    """The attacker ends the bout: every attack is beaten and goes to the discard pile."""

    def __str__(self) -> str:
        return "done"


@attrs.frozen(repr=False)
class Take(MoveText):
    """The defender picks up every card on the table."""

    def __str__(self) -> str:
        return "take"


DONE = Done()
TAKE = Take()
Move = Union[PlayCard, Done, Take]
_PLAYS = {card: PlayCard(card) for card in deck}


def parse_move(text: str) -> Move:
    """The move written ``text``: a card (``7S``, ``10d``, ``Q♠``), ``done`` or ``take``.

    >>> parse_move("10h"), parse_move(" Done ")
    (parse_move('TH'), parse_move('done'))
    >>> parse_move("2S")
    Traceback (most recent call last):
    ...
    crapette...ParseError: invalid move '2S': 2S is not one of the 36 cards (6 to Ace)

    :raises ParseError: if the text is not a move.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_move() expects a str, got {type(text).__name__}")
    word = text.strip().lower()
    if word == "done":
        return DONE
    if word == "take":
        return TAKE
    try:
        card = parse_one_deck_card(word, ranks="6-9, T or 10, J, Q, K, A")
    except ParseError as exc:
        raise ParseError(f"invalid move {text[:20]!r}: expected a card, 'done' or 'take' ({exc})") from None
    if card not in _IN_DECK:
        raise ParseError(f"invalid move {text[:20]!r}: {card_text(card)} is not one of the 36 cards (6 to Ace)")
    return _PLAYS[card]


# State ------------------------------------------------------------------------------------------


@attrs.frozen
class DurakOutcome:
    """How a game ended: ``durak`` is the player left with cards (None if both ran out together)."""

    #: The player who is not the durak, or None for a draw.
    winner: int | None
    #: The durak, or None for a draw.
    durak: int | None
    #: Durak has no points.
    scores: None = None

    @property
    def reason(self) -> str:
        """``"durak"``, or ``"draw"`` when both players ran out of cards together."""
        return "draw" if self.durak is None else "durak"

    def __str__(self) -> str:
        if self.durak is None:
            return "draw: both players ran out of cards together"
        return f"player {self.winner} wins: player {self.durak} is the durak"


def _pair(value: Any) -> Any:
    return tuple(tuple(v) for v in value)


@attrs.frozen(cache_hash=True)
class DurakState:
    """A position of Podkidnoy Durak. Immutable; every card is in exactly one place.

    Build one with :func:`new_game` and :func:`apply_move`.
    """

    #: Each player's hand, in deck order.
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = attrs.field(converter=_pair)
    #: The deck (talon), bottom to top: the face-up trump card first, the next card to draw last.
    talon: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The card turned up at the bottom of the talon: its suit is trump for the whole game.
    trump_card: Card
    #: The cards of the bout, in the order played: attack, defence, attack, ... An odd
    #: number means the last attack is not beaten yet.
    table: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The cards of the bouts defended so far (face up: both players saw them).
    discard: tuple[Card, ...] = attrs.field(converter=tuple)
    #: The attacker of this bout; the other player defends.
    attacker: int
    #: Per player, the cards of that hand that both players have seen (picked up
    #: from the table with Take, or the trump card drawn last), in deck order.
    shown: tuple[tuple[Card, ...], tuple[Card, ...]] = attrs.field(converter=_pair)
    _legal: tuple[Move, ...] | None = moves_cache()

    @property
    def trump(self) -> Suit:
        """The trump suit."""
        return self.trump_card.suit

    @property
    def defender(self) -> int:
        """The defender of this bout."""
        return 1 - self.attacker

    @property
    def current_player(self) -> int:
        """The attacker when every attack on the table is beaten (or none is there), else the defender."""
        return self.attacker if len(self.table) % 2 == 0 else 1 - self.attacker

    @property
    def is_over(self) -> bool:
        """True between bouts once the talon is empty and a player has no card."""
        return not self.talon and not self.table and not (self.hands[0] and self.hands[1])

    @property
    def outcome(self) -> DurakOutcome | None:
        """The outcome, or None while the game goes on."""
        if not self.is_over:
            return None
        if not self.hands[0] and not self.hands[1]:
            return DurakOutcome(None, None)
        durak = 0 if self.hands[0] else 1
        return DurakOutcome(1 - durak, durak)


def _draw(hands: list[tuple[Card, ...]], shown: list[tuple[Card, ...]], talon: tuple[Card, ...],
          trump_card: Card, order: Iterable[int]) -> tuple[Card, ...]:
    """Fill the hands up to six from the top of the talon, in ``order``; return what is left."""
    for player in order:
        need = HAND_SIZE - len(hands[player])
        if need <= 0 or not talon:
            continue
        taken = talon[-need:]
        talon = talon[: len(talon) - len(taken)]
        hands[player] = sorted_cards(hands[player] + taken)
        if trump_card in taken:
            shown[player] = sorted_cards(shown[player] + (trump_card,))
    return talon


def _first_attacker(hands: Sequence[tuple[Card, ...]], trump: Suit) -> int:
    """The player with the lowest trump; with no trump in either hand, the lowest card (ruling DR1)."""
    trumps = [(strength(c), p) for p in (0, 1) for c in hands[p] if c.suit is trump]
    if trumps:
        return min(trumps)[1]
    suits = list(Suit)
    return min((strength(c), suits.index(c.suit), p) for p in (0, 1) for c in hands[p])[2]


def new_game(seed: int = 0) -> DurakState:
    """The game dealt from ``seed``: six cards each, one at a time; the last card is turned up as trump.

    The 36 cards are crapette's deck 0 shuffled by :func:`crapette.shuffled_deck`,
    the 2s to 5s left out. Player 0 gets the first card, player 1 the second,
    and so on to twelve; the rest is the talon, the last card at its bottom,
    face up.

    >>> state = new_game(7)
    >>> [len(h) for h in state.hands], len(state.talon), state.talon[0] == state.trump_card
    ([6, 6], 24, True)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    cards = [c for c in shuffled(seed) if c in _IN_DECK]
    hands = (sorted_cards(cards[0:12:2]), sorted_cards(cards[1:12:2]))
    talon = tuple(reversed(cards[12:]))
    trump_card = talon[0]
    return DurakState(hands, talon, trump_card, (), (), _first_attacker(hands, trump_card.suit), ((), ()))


def _generate(state: DurakState) -> tuple[Move, ...]:
    """The legal moves of the player to move, in a fixed order.

    The attacker: the cards that may attack (in hand order), then ``done`` once
    a bout has begun. The defender: the cards that beat the last attack (in
    hand order), then ``take``. Nothing once the game is over.

    >>> [str(m) for m in legal_moves(new_game(7))]
    ['7C', '6D', '9D', 'TH', 'TS', 'JS']
    """
    if state.is_over:
        return ()
    table = state.table
    if len(table) % 2:
        attack = table[-1]
        trump = state.trump
        hand = state.hands[1 - state.attacker]
        return tuple(_PLAYS[c] for c in hand if beats(c, attack, trump)) + (TAKE,)
    hand = state.hands[state.attacker]
    if not table:
        return tuple(_PLAYS[c] for c in hand)
    moves: tuple[Move, ...] = ()
    if len(table) // 2 < MAX_ATTACKS and state.hands[1 - state.attacker]:
        ranks = {c.rank for c in table}
        moves = tuple(_PLAYS[c] for c in hand if c.rank in ranks)
    return moves + (DONE,)


def _why_illegal(state: DurakState, move: object) -> str:
    """Why ``move`` is not legal in ``state``."""
    if state.is_over:
        return f"the game is over ({state.outcome})"
    if not isinstance(move, (PlayCard, Done, Take)):
        return f"{move!r} is not a move of Durak"
    attacking = len(state.table) % 2 == 0
    player = state.current_player
    role = "attack" if attacking else "defend"
    if isinstance(move, Done):
        if not attacking:
            return "done is the attacker's move, once every attack on the table is beaten"
        return "a bout begins with an attack card: there is nothing to end yet"
    if isinstance(move, Take):
        return "take is the defender's move, against an attack not beaten yet"
    card = move.card
    if card not in state.hands[player]:
        return f"player {player} is to {role} and has no {card_text(card)}"
    if attacking:
        if len(state.table) // 2 >= MAX_ATTACKS:
            return f"{MAX_ATTACKS} attacks have been made in this bout: the attacker may only say done"
        if not state.hands[state.defender]:
            return "the defender has no card left: no more attacks this bout (say done)"
        ranks = dict.fromkeys(card_text(c)[0] for c in sorted(state.table, key=strength))
        return f"a new attack card must match a rank on the table ({', '.join(ranks)})"
    attack = state.table[-1]
    if attack.suit is state.trump:
        return f"{card_text(card)} does not beat the trump {card_text(attack)}: only a higher trump does"
    return (
        f"{card_text(card)} does not beat {card_text(attack)}: play a higher "
        f"{attack.suit.name.lower()[:-1]} or a trump ({state.trump.name.lower()}), or take"
    )


#: The legal moves of a state (computed once per state).
legal_moves = legal_moves_of(DurakState, _generate)


def _play(state: DurakState, move: Move) -> DurakState:
    """The state after ``move``; ``state`` itself never changes.

    >>> state = new_game(7)
    >>> after = apply_move(state, parse_move("7C"))
    >>> after.table, after.current_player == state.defender
    ((parse_card('7C0'),), True)
    >>> apply_move(after, parse_move("6D"))
    Traceback (most recent call last):
    ...
    crapette...IllegalMoveError: illegal move 6D: player 0 is to defend and has no 6D

    :raises IllegalMoveError: if the move is not one of ``legal_moves(state)``.
    """
    attacker = state.attacker
    defender = 1 - attacker
    hands = list(state.hands)
    shown = list(state.shown)
    talon = state.talon
    if isinstance(move, PlayCard):
        player = state.current_player
        card = move.card
        hands[player] = tuple(c for c in hands[player] if c is not card)
        if card in shown[player]:
            shown[player] = tuple(c for c in shown[player] if c is not card)
        return DurakState(
            (hands[0], hands[1]), talon, state.trump_card, state.table + (card,), state.discard,
            attacker, (shown[0], shown[1]),
        )
    discard = state.discard
    if isinstance(move, Done):
        discard = discard + state.table
        next_attacker = defender
    else:
        hands[defender] = sorted_cards(hands[defender] + state.table)
        shown[defender] = sorted_cards(shown[defender] + state.table)
        next_attacker = attacker
    talon = _draw(hands, shown, talon, state.trump_card, (attacker, defender))
    return DurakState((hands[0], hands[1]), talon, state.trump_card, (), discard, next_attacker, (shown[0], shown[1]))


#: The state after a legal move (IllegalMoveError, saying why, for any other).
apply_move = checked_apply(legal_moves, _play, _why_illegal)
#: 1 for the winner and -1 for the durak; 0 each for a draw (``game_type.payoff``).
returns = returns_of(game_type)


def cards(state: DurakState) -> Iterable[Card]:
    """Every card of ``state``: both hands, the talon, the table and the discard pile."""
    return state.hands[0] + state.hands[1] + state.talon + state.table + state.discard


# What a player sees -------------------------------------------------------------------------------


@attrs.frozen(cache_hash=True)
class DurakView:
    """What ``player`` sees: their own hand, the other hand as a count (and its known cards), the table.

    The talon is face down but for the trump card at its bottom; the discard
    pile is known to both (every card of it was on the table).
    """

    #: The player who sees this.
    player: int
    #: That player's hand.
    hand: tuple[Card, ...]
    #: The number of cards in each hand.
    hand_sizes: tuple[int, int]
    #: Per player, the cards of the hand that both players have seen.
    shown: tuple[tuple[Card, ...], tuple[Card, ...]]
    #: The number of cards in the talon (the trump card included).
    talon_size: int
    #: The trump card.
    trump_card: Card
    #: The cards of the bout, as in :attr:`DurakState.table`.
    table: tuple[Card, ...]
    #: The discard pile.
    discard: tuple[Card, ...]
    #: The attacker of this bout.
    attacker: int


def view(state: DurakState, player: int) -> DurakView:
    """What ``player`` (0 or 1) may see of ``state``.

    >>> v = view(new_game(7), 1)
    >>> v.hand == new_game(7).hands[1], v.hand_sizes, v.talon_size
    (True, (6, 6), 24)

    :raises ValueError: if ``player`` is not 0 or 1.
    """
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return DurakView(
        player, state.hands[player], (len(state.hands[0]), len(state.hands[1])), state.shown,
        len(state.talon), state.trump_card, state.table, state.discard, state.attacker,
    )


def determinize(v: DurakView, rng: random.Random) -> DurakState:
    """A state that shows ``v`` to its player: the unseen cards dealt at random with ``rng``.

    The other hand gets its known cards and unseen ones; the talon keeps the
    trump card at its bottom and gets the rest of the unseen cards on top.

    >>> state = new_game(7)
    >>> world = determinize(view(state, 0), random.Random(1))
    >>> view(world, 0) == view(state, 0), world.hands[1] == state.hands[1]
    (True, False)
    """
    other = 1 - v.player
    seen = set(v.hand) | set(v.shown[other]) | set(v.table) | set(v.discard)
    if v.talon_size:
        seen.add(v.trump_card)
    unseen = [c for c in deck if c not in seen]
    rng.shuffle(unseen)
    missing = v.hand_sizes[other] - len(v.shown[other])
    hands: list[tuple[Card, ...]] = [(), ()]
    hands[v.player] = v.hand
    hands[other] = sorted_cards(v.shown[other] + tuple(unseen[:missing]))
    talon = ((v.trump_card,) + tuple(unseen[missing:])) if v.talon_size else ()
    return DurakState((hands[0], hands[1]), talon, v.trump_card, v.table, v.discard, v.attacker, v.shown)


# The terminal ----------------------------------------------------------------------------------------

RULES = """\
Podkidnoy Durak, in short: 36 cards (6 to Ace, Ace high); the trump card lies face up
under the talon. The attacker plays a card; the defender beats it with a higher card of
its suit, or any trump (a trump only with a higher trump), or takes the table ('take').
After each defence the attacker may add a card of a rank already on the table (at most
six attacks, and never more than the defender can answer) or end the bout ('done'):
then the defender attacks next. After every bout both fill their hands to six from the
talon, attacker first. Once the talon is empty, whoever still holds cards when the other
runs out is the durak (the fool)."""


def _cards_text(cards: Iterable[Card]) -> str:
    return " ".join(card_text(c) for c in cards) or "-"


def render(state: DurakState, player: int) -> str:
    """The table as ``player`` sees it, in text."""
    v = view(state, player)
    other = 1 - player
    pairs = [v.table[i : i + 2] for i in range(0, len(v.table), 2)]
    table = "  ".join(
        f"{card_text(p[0])}/{card_text(p[1]) if len(p) > 1 else '..'}" for p in pairs
    )
    known = f" (known: {_cards_text(v.shown[other])})" if v.shown[other] else ""
    role = "attacking" if v.attacker == player else "defending"
    lines = [
        f"trump {card_text(v.trump_card)} ({v.trump_card.suit.symbol}); talon {v.talon_size}; "
        f"discard pile {len(v.discard)}",
        f"player {other}: {v.hand_sizes[other]} cards{known}",
        f"table: {table or '-'}",
        f"you (player {player}, {role}): {_cards_text(v.hand)}",
    ]
    if not state.is_over and state.current_player == player:
        lines.append("your moves: " + "  ".join(str(m) for m in legal_moves(state)))
    return "\n".join(lines)


FRONTEND = frontend.Frontend(
    sys.modules[__name__], render=render, rules=RULES,
    description="Podkidnoy Durak for two players, against crapette's bots.", budget=200, games=20,
)


def main(argv: Sequence[str] | None = None, **streams: Any) -> int:
    """The command line: ``play``, ``simulate``, ``help`` (``streams``: ``ask`` and ``out``, for tests)."""
    return frontend.main(FRONTEND, argv, **streams)


if __name__ == "__main__":
    raise SystemExit(main())
