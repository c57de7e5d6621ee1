"""How a game ended: :class:`EndReason` and :class:`Outcome`; and the bound on every number."""

from __future__ import annotations

import enum

import attrs

from .messages import brief

__all__ = ["EndReason", "MAX_NUMBER", "Outcome", "check_number"]

#: The largest number a rule set, a state or an outcome may hold (a move limit,
#: a move count, a score, a scoring weight, an ending's counter): ``2**63 - 1``,
#: so that every number fits the formats, a 64-bit integer and a NumPy ``int64``.
MAX_NUMBER = 2**63 - 1


def check_number(name: str, value: object, low: int = 0, high: int = MAX_NUMBER) -> str:
    """What is wrong with ``value`` as the int ``name`` (from ``low`` to ``high``), or ``""``.

    >>> check_number("move_limit", 0, 1)
    'move_limit must be >= 1, got 0'
    >>> check_number("move_count", 2**64)
    'move_count must be at most 2**63 - 1, got 18446744073709551616'
    >>> check_number("move_limit", "5")
    "move_limit must be an int, got '5'"
    """
    if type(value) is not int:
        if not isinstance(value, int) or isinstance(value, bool):
            return f"{name} must be an int, got {brief(value)}"
        value = int(value)
    if low <= value <= high:
        return ""
    shown = str(value) if value.bit_length() < 200 else f"a number of {value.bit_length()} bits"
    if high != MAX_NUMBER:
        return f"{name} must be from {low} to {high}, got {shown}"
    if value < low:
        return f"{name} must be >= {low}, got {shown}"
    return f"{name} must be at most 2**63 - 1, got {shown}"




class EndReason(str, enum.Enum):
    """Why a game ended. The value is the reason's word in texts and JSON.

    >>> EndReason("blocked"), str(EndReason.MOVE_LIMIT)
    (EndReason.BLOCKED, 'move-limit')
    """

    #: A player emptied reserve, hand and waste.
    EMPTIED = "emptied"
    #: Both players were marked exhausted (the classic stalemate rule), or an
    #: ending of the rules' own that ends the game as a stalemate fired (the
    #: outcome's :attr:`Outcome.ending` names it).
    STALEMATE = "stalemate"
    #: Two passes in a row: nobody can ever move again (ruling R6).
    BLOCKED = "blocked"
    #: The rules' move limit was reached.
    MOVE_LIMIT = "move-limit"

    def __repr__(self) -> str:
        return f"EndReason.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


def _check_winner(_inst: object, _attr: object, value: int | None) -> None:
    if value is not None and (type(value) is not int or value not in (0, 1)):
        raise ValueError(f"winner must be 0, 1 or None, got {brief(value)}")


#: The longest text of a rule part (its name and parameters), as crapette._core.parts reads them.
MAX_PART_TEXT = 256


def _check_ending(_inst: object, _attr: object, value: str | None) -> None:
    if value is not None and not (type(value) is str and 0 < len(value) <= MAX_PART_TEXT and value.isprintable()):
        raise ValueError(f"ending must be None or the text of an ending (name and parameters), got {brief(value)}")


def _to_reason(value: object) -> EndReason:
    if isinstance(value, EndReason):
        return value
    if isinstance(value, str):
        try:
            return EndReason(value)
        except ValueError:
            pass
    choices = ", ".join(repr(r.value) for r in EndReason)
    raise ValueError(f"reason must be an EndReason or one of {choices}, got {brief(value)}")


def _to_scores(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, (tuple, list)) and len(value) == 2:
        a, b = value
        if not check_number("a score", a) and not check_number("a score", b):
            return (int(a), int(b))
    raise ValueError(
        f"scores must be None or a pair of ints from 0 to {MAX_NUMBER} "
        f"(player 0's, player 1's), got {brief(value)}"
    )


@attrs.frozen
class Outcome:
    """How a game ended: the winner (or None), the reason, the points each player scored, and the rules' own ending.

    ``scores`` is None when the rules have no scoring. ``reason`` may be given
    as its string (``"emptied"``) and ``scores`` as a list. A game that an
    ending of the rules' own ended (:attr:`RuleSet.endings
    <crapette.RuleSet.endings>`) names it in :attr:`ending`, its text
    (``"no-progress:20"``), which ``str()`` shows in place of the reason; the
    reason then says how the game was settled (:attr:`Ending.reason
    <crapette.Ending.reason>`).

    >>> outcome = Outcome(winner=0, reason=EndReason.EMPTIED, scores=(53, 0))
    >>> str(outcome)
    'player 0 wins (emptied), 53-0'
    >>> outcome.is_draw
    False
    >>> str(Outcome(None, EndReason.STALEMATE, None, ending="no-progress:20"))
    'draw (no-progress:20)'

    :raises ValueError: if the winner is not 0, 1 or None, the reason not an
        :class:`EndReason`, the scores not None or two ints from 0 to
        :data:`~crapette.MAX_NUMBER`, or the ending not None or a part's text.

    .. versionchanged:: 0.3.0
       :attr:`ending`.
    """

    #: The player who won, or None for a draw.
    winner: int | None = attrs.field(validator=_check_winner)
    #: Why the game ended, or, when :attr:`ending` is set, how it was settled.
    reason: EndReason = attrs.field(converter=_to_reason)
    #: Player 0's and player 1's points, or None under rules without scoring.
    scores: tuple[int, int] | None = attrs.field(default=None, converter=_to_scores)
    #: The text of the rules' own ending that ended the game (``"no-progress:20"``), or None:
    #: the game was emptied, or ended by a built-in ending (the stalemate rule, R6, the move limit).
    ending: str | None = attrs.field(default=None, validator=_check_ending)

    @property
    def is_draw(self) -> bool:
        """True if nobody won."""
        return self.winner is None

    def __str__(self) -> str:
        head = "draw" if self.winner is None else f"player {self.winner} wins"
        tail = "" if self.scores is None else f", {self.scores[0]}-{self.scores[1]}"
        return f"{head} ({self.ending or self.reason.value}){tail}"
