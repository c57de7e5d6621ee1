"""Moves, piles, illegal-move reasons and the ends of games in the words a person reads.

The notation (``T2-T3``, ``QC0``) is for machines and for typing; a
frontend shows people ``Q♣ onto K♥``. The functions here give the wording
that the ``crapette`` command and the web example show, from a
:class:`~crapette.GameState` or from its :class:`~crapette.PublicView`
alike, and they say nothing a player may not see: a client that is sent only
views words moves as the server would.

>>> from crapette import new_game, parse_move, view
>>> from crapette.wording import describe_move, describe_pile, symbols
>>> state = new_game("classic", seed=3)
>>> describe_move(view(state), parse_move("T2-T3"))
'Q♣ onto K♥'
>>> describe_pile(parse_move("R0-T2").source, names=("you", "the bot"))
'your reserve'
>>> symbols("illegal move T0-T4: 2C0 does not go on 7S1")
'illegal move T0-T4: 2♣ does not go on 7♠'

Names: every function that names the players takes ``names``, the players 0
and 1 as a sentence names them (``("you", "the greedy bot")``; by default
``("player 0", "player 1")``). A player named ``"you"`` is spoken to in the
second person ("your reserve", "you have no other move").

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from ._core.cards import Card, parse_card
from ._core.engine import legal_moves
from ._core.messages import brief
from ._core.moves import Draw, EndTurn, Move, MoveStack, Pass, Play
from ._core.outcome import EndReason, Outcome
from ._core.part_text import parse_part
from ._core.parts import Blocked, Ending, Stalemate
from ._core.state import Pile, PileKind
from ._frontends.seen import Table, check_table, shown, top
from .errors import IllegalMoveError, InvalidRulesError, ParseError

__all__ = [
    "DEFAULT_NAMES",
    "MoveGroup",
    "describe_end",
    "describe_illegal",
    "describe_move",
    "describe_pile",
    "describe_played",
    "group_moves",
    "possessive",
    "symbols",
]

#: The players as a sentence names them unless told otherwise.
DEFAULT_NAMES = ("player 0", "player 1")

_CARD_NOTATION = re.compile(r"\b[A2-9TJQK][CDHS][01]\b")


def symbols(text: str) -> str:
    """``text`` with every card in the notation written as the table shows it: ``AS1`` becomes ``A♠``.

    For the messages of the library, which name cards in the notation (an
    illegal move's reason, :func:`~crapette.explain_illegal`).

    >>> symbols("the drawn card TD0 must be played before drawing again (R7)")
    'the drawn card T♦ must be played before drawing again (R7)'

    :raises TypeError: if ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"symbols() expects a str, got {type(text).__name__}")
    return _CARD_NOTATION.sub(lambda m: parse_card(m.group()).symbol, text)


def possessive(name: str) -> str:
    """The possessive of a player's name: ``"your"`` for ``"you"``, else ``"NAME's"``.

    >>> possessive("you"), possessive("the greedy bot")
    ('your', "the greedy bot's")
    """
    return "your" if name == "you" else f"{name}'s"


def _check_names(names: object) -> tuple[str, str]:
    if not (isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) for n in names)):
        raise TypeError(f"names must be a tuple of two str (player 0's, player 1's), got {brief(names)}")
    return names


def _check_move(move: object, caller: str) -> Move:
    if not isinstance(move, Move):
        raise TypeError(f"{caller} expects a Move (parse_move reads the notation), got {type(move).__name__}")
    return move


def describe_pile(pile: Pile, *, names: tuple[str, str] = DEFAULT_NAMES) -> str:
    """A pile as a sentence names it: ``foundation F3``, ``tableau pile T5``, ``your reserve``.

    >>> from crapette import parse_pile
    >>> [describe_pile(parse_pile(p), names=("you", "the bot")) for p in ("F3", "T5", "R0", "H1", "W1")]
    ['foundation F3', 'tableau pile T5', 'your reserve', "the bot's hand", "the bot's waste"]

    :raises TypeError: if ``pile`` is not a :class:`~crapette.Pile` or ``names`` not two str.
    """
    if not isinstance(pile, Pile):
        raise TypeError(f"describe_pile() expects a Pile, got {type(pile).__name__}")
    names = _check_names(names)
    if pile.kind is PileKind.FOUNDATION:
        return f"foundation {pile}"
    if pile.kind is PileKind.TABLEAU:
        return f"tableau pile {pile}"
    return f"{possessive(names[pile.index])} {pile.kind.name.lower()}"


def _card(card: Card | None) -> str:
    return "-" if card is None else card.symbol


def _onto(table: Table, target: Pile, names: tuple[str, str]) -> str:
    card = top(table, target)
    if target.kind is PileKind.FOUNDATION:
        return f"onto {card.symbol}" if card else "onto an empty foundation"
    if target.kind is PileKind.TABLEAU:
        return f"onto {card.symbol}" if card else "onto an empty pile"
    if card is None:
        return f"onto {possessive(names[target.index])} empty {target.kind.name.lower()}"
    return f"onto {card.symbol} on {describe_pile(target, names=names)}"


def _has(name: str) -> str:
    return f"{name} have" if name == "you" else f"{name} has"


def describe_move(table: Table, move: Move, *, names: tuple[str, str] = DEFAULT_NAMES) -> str:
    """What ``move`` would do in ``table`` (a state or its public view), in words.

    The cards that move and where they go (``Q♣ onto K♥``, ``5♣ onto 6♣ on
    the bot's reserve``, ``A♣ onto an empty foundation``), or what a draw, an
    end of turn or a pass does, said of the player to move. The move need not
    be legal; it is described from what lies on the table.

    >>> from crapette import new_game, parse_move
    >>> state = new_game("classic", seed=37)
    >>> [describe_move(state, parse_move(m), names=("you", "the bot")) for m in ("T2-T1", "T2-R1", "pass")]
    ['J♣ onto Q♥', "J♣ onto T♣ on the bot's reserve", 'you have no other move']

    :raises TypeError: if ``table`` is neither a GameState nor a PublicView,
        ``move`` is not a Move, or ``names`` not two str.
    """
    check_table(table, "describe_move()")
    _check_move(move, "describe_move()")
    names = _check_names(names)
    mover = table.current_player
    if isinstance(move, Play):
        return f"{_card(top(table, move.source))} {_onto(table, move.target, names)}"
    if isinstance(move, MoveStack):
        cards = shown(table)[move.source.id][1][-move.count :] if move.source.kind is PileKind.TABLEAU else ()
        return f"{' '.join(c.symbol for c in cards) or '-'} {_onto(table, move.target, names)}"
    whose = possessive(names[mover])
    if isinstance(move, Draw):
        if shown(table)[Pile.hand(mover).id][0]:
            return f"turn up the top card of {whose} hand"
        return f"turn {whose} waste over and draw"
    if isinstance(move, EndTurn):
        left = _card(top(table, Pile.waste(mover)))
        return f"leave {left} on {whose} waste and end {'your' if names[mover] == 'you' else 'the'} turn"
    return f"{_has(names[mover])} no other move"


class MoveGroup(NamedTuple):
    """Moves that do the same thing in words, shown as one line (see :func:`group_moves`)."""

    #: The index of the group's first move among the moves grouped (0 for the first legal move).
    start: int
    #: The moves, in their order: one card to piles that the words do not tell apart (any empty foundation, say).
    moves: tuple[Move, ...]
    #: What each of them does, in words (:func:`describe_move`).
    text: str

    @property
    def numbers(self) -> str:
        """The moves' numbers counted from 1, as a list of moves shows them: ``"3"``, or ``"1-8"`` for a group.

        >>> MoveGroup(0, (), "").numbers, MoveGroup(4, (Draw(), Draw()), "").numbers
        ('1', '5-6')
        """
        first = self.start + 1
        return str(first) if len(self.moves) <= 1 else f"{first}-{first + len(self.moves) - 1}"

    @property
    def notation(self) -> str:
        """The moves in notation: one or two in full, more as the first and the last: ``"T3-F0 ... T3-F7"``."""
        moves = self.moves
        return " ".join(str(m) for m in moves) if len(moves) <= 2 else f"{moves[0]} ... {moves[-1]}"


def group_moves(
    table: Table, moves: Iterable[Move] | None = None, *, names: tuple[str, str] = DEFAULT_NAMES
) -> tuple[MoveGroup, ...]:
    """The moves of ``table`` in words, those that say the same of one card put together, as ``crapette play`` lists them.

    ``moves`` are the table's legal moves unless given. Consecutive moves of
    one card whose words are the same form one group: the card to each empty
    foundation, to each empty tableau pile, or onto the two cards of one
    rank and suit (one of each deck); every other move is a group of its
    own. A client shows one line per group, its numbers and notation telling
    the moves apart.

    >>> from crapette import new_game, view
    >>> def lines(seed):
    ...     groups = group_moves(view(new_game("classic", seed=seed)), names=("you", "the bot"))
    ...     return [(g.numbers, g.notation, g.text) for g in groups]
    >>> lines(5)
    [('1-8', 'T3-F0 ... T3-F7', 'A♣ onto an empty foundation')]
    >>> lines(31)
    [('1-2', 'R0-T0 R0-T6', '8♠ onto 9♦'), ('3', 'T2-T4', '5♠ onto 6♦'), ('4', 'draw', 'turn up the top card of your hand')]

    :raises TypeError: if ``table`` is neither a GameState nor a PublicView,
        a move is not a Move, or ``names`` not two str.

    .. versionadded:: 0.4.0
    """
    check_table(table, "group_moves()")
    names = _check_names(names)
    listed = legal_moves(table) if moves is None else tuple(moves)
    groups: list[MoveGroup] = []
    for index, move in enumerate(listed):
        text = describe_move(table, _check_move(move, "group_moves()"), names=names)
        source = getattr(move, "source", None)
        if groups and source is not None:
            last = groups[-1]
            if last.text == text and getattr(last.moves[-1], "source", None) is source:
                groups[-1] = last._replace(moves=(*last.moves, move))
                continue
        groups.append(MoveGroup(index, (move,), text))
    return tuple(groups)


def describe_played(before: Table, move: Move, after: Table, *, names: tuple[str, str] = DEFAULT_NAMES) -> str:
    """What ``move`` did, taking ``before`` to ``after``, in words: the cards that moved, the card drawn, why the turn ended.

    ``before`` and ``after`` are states or public views. A draw names the
    card drawn (it lies face up on the waste, so everyone has seen it).

    >>> from crapette import apply_move, new_game, parse_move
    >>> state = new_game("classic", seed=37)
    >>> after = apply_move(state, parse_move("draw"))
    >>> describe_played(state, parse_move("draw"), after)
    'drew 9♥'
    >>> describe_played(after, parse_move("end"), apply_move(after, parse_move("end")))
    'left 9♥ on the waste; the turn ends'

    :raises TypeError: if ``before`` or ``after`` is neither a GameState nor
        a PublicView, ``move`` is not a Move, or ``names`` not two str.
    """
    check_table(before, "describe_played()")
    check_table(after, "describe_played()")
    _check_move(move, "describe_played()")
    names = _check_names(names)
    mover = before.current_player
    ended = after.outcome is None and after.current_player != mover
    if isinstance(move, Draw):
        turned = "" if shown(before)[Pile.hand(mover).id][0] else "turned the waste over and "
        text = f"{turned}drew {_card(top(after, Pile.waste(mover)))}"
        return text + (": it fits nowhere, so the turn ends" if ended else "")
    if isinstance(move, EndTurn):
        text = f"left {_card(top(before, Pile.waste(mover)))} on the waste"
    elif isinstance(move, Pass):
        text = "passed (there was no other move)"
    else:
        text = describe_move(before, move, names=names)
    return text + ("; the turn ends" if ended else "")


def describe_illegal(error: IllegalMoveError) -> str:
    """An illegal move's message as a person reads it: the cards by their symbols.

    :attr:`IllegalMoveError.reason <crapette.IllegalMoveError.reason>` alone,
    worded the same way, is ``symbols(error.reason)``.

    >>> from crapette import apply_move, new_game, parse_move
    >>> try:
    ...     apply_move(new_game("classic", seed=3), parse_move("T2-T0"))
    ... except IllegalMoveError as error:
    ...     print(describe_illegal(error))
    illegal move T2-T0: Q♣ does not go on 6♠: T0 builds down in alternating colours for player 0

    :raises TypeError: if ``error`` is not an :class:`~crapette.IllegalMoveError`.
    """
    if not isinstance(error, IllegalMoveError):
        raise TypeError(f"describe_illegal() expects an IllegalMoveError, got {type(error).__name__}")
    return symbols(str(error))


#: Why a game ended, for the built-in reasons (an ending of the rules' own says its own).
_ENDS = {
    EndReason.STALEMATE: Stalemate.description,
    EndReason.BLOCKED: Blocked.description,
    EndReason.MOVE_LIMIT: "the move limit is reached",
}


def describe_end(outcome: Outcome, *, names: tuple[str, str] = DEFAULT_NAMES) -> str:
    """Why the game ended, in words: what follows "Game over: player 0 wins" in a sentence.

    An ending of the rules' own says its own reason
    (:attr:`Ending.described <crapette.Ending.described>`, looked up by
    :attr:`Outcome.ending <crapette.Outcome.ending>`; its text when the ending
    is not registered here).

    >>> from crapette import EndReason, Outcome
    >>> describe_end(Outcome(1, EndReason.EMPTIED), names=("you", "the bot"))
    "the bot's reserve, hand and waste are empty"
    >>> describe_end(Outcome(None, EndReason.BLOCKED))
    'neither player can move'
    >>> describe_end(Outcome(0, EndReason.STALEMATE, (12, 0), ending="no-progress:30"))
    'no reserve or hand card was played for 30 turns in a row'

    :raises TypeError: if ``outcome`` is not an :class:`~crapette.Outcome` or ``names`` not two str.
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"describe_end() expects an Outcome, got {type(outcome).__name__}")
    names = _check_names(names)
    if outcome.ending is not None:
        try:
            return parse_part(Ending, outcome.ending).described
        except (ParseError, InvalidRulesError):  # an ending this program does not know
            return f"the ending {outcome.ending}"
    if outcome.reason is EndReason.EMPTIED and outcome.winner is not None:
        return f"{possessive(names[outcome.winner])} reserve, hand and waste are empty"
    return _ENDS.get(outcome.reason, outcome.reason.value)
