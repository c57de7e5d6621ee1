"""A game state drawn as text, as the ``crapette`` command shows it in a terminal.

:func:`render_text` draws the whole table in a few lines with Unicode suits,
optionally with ANSI colours; the RL adapters (:mod:`crapette.gymnasium`,
:mod:`crapette.pettingzoo`) render their ``"ansi"`` mode with it. It needs
only the standard library, and it names no face-down card: the hands show as
counts. It takes a :class:`~crapette.PublicView` as readily as a state, and
draws the same text from either.

>>> from crapette import new_game
>>> from crapette.text import render_text
>>> print(render_text(new_game("casual", seed=1)).splitlines()[0])
casual · move 0 · player 0 to move

.. versionadded:: 0.3.0
   Before, :func:`render_text` lived in ``crapette.cli`` (still importable
   from there, with a :class:`DeprecationWarning`).
"""

from __future__ import annotations

from ._core.cards import Card, Colour
from ._core.messages import brief
from ._core.outcome import Outcome
from ._core.rules import TableauSources
from ._core.state import GameState, Pile
from ._frontends.seen import check_table, shown
from ._views.view import PublicView

__all__ = ["render_text"]

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class _Paint:
    """ANSI colour, or none."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.enabled else text

    def card(self, card: Card) -> str:
        text = card.symbol
        return self(_RED, text) if card.colour is Colour.RED else text


# A player named "you" is spoken to in the second person.

def verb_of(name: str, verb: str) -> str:
    return f"{name} {verb}" if name == "you" else f"{name} {verb}s"


def _result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    head = "draw" if outcome.winner is None else verb_of(names[outcome.winner], "win")
    tail = "" if outcome.scores is None else f", {outcome.scores[0]}-{outcome.scores[1]}"
    return f"{head} ({outcome.ending or outcome.reason.value}){tail}"


def render_text(
    state: GameState | PublicView,
    *,
    colour: bool = False,
    names: tuple[str, str] = ("player 0", "player 1"),
    perspective: int = 0,
) -> str:
    """The table of ``state`` as text with Unicode suits, as ``crapette`` shows it in a terminal.

    The ``perspective`` player (0 by default) is at the bottom, the other at
    the top; each shows the reserve
    (top card and count), the hand (a count: it is face down) and the waste
    (top card and count). Foundations show their top card, tableau piles all
    their cards from bottom to top. ``▶`` marks the player to move. With
    ``colour``, red suits are red and the player to move is bold (ANSI codes).
    A player named ``"you"`` is spoken to in the second person ("you win").
    ``state`` may be the state's public view (:func:`~crapette.view`): the text
    is the same, so a client that is sent only views draws the table too.

    >>> from crapette import new_game
    >>> print(render_text(new_game("classic", seed=1)))
    classic · move 0 · player 0 to move
      player 1  R1 J♠ [13]   H1 [35]   W1 - [0]
      F0 -   F1 -   F2 -   F3 -   F4 -   F5 -   F6 -   F7 -
      T0 2♦
      T1 J♥
      T2 5♥
      T3 7♥
      T4 9♣
      T5 4♦
      T6 7♦
      T7 T♣
    ▶ player 0  R0 3♣ [13]   H0 [35]   W0 - [0]
    >>> from crapette import view
    >>> render_text(view(new_game("classic", seed=1))) == render_text(new_game("classic", seed=1))
    True

    :raises TypeError: if ``state`` is neither a GameState nor a PublicView.
    :raises ValueError: if ``perspective`` is not 0 or 1.

    .. versionchanged:: 0.3.0
       ``state`` may be a :class:`~crapette.PublicView`.
    """
    check_table(state, "render_text()")
    if perspective not in (0, 1) or isinstance(perspective, bool):
        raise ValueError(f"perspective must be 0 or 1 (the player at the bottom), got {brief(perspective)}")
    width = max(len(names[0]), len(names[1]))
    paint = _Paint(colour)
    rules = state.rules
    outcome = state.outcome
    if outcome is None:
        status = f"{names[state.current_player]} to move"
        if state.drawn:
            status += ", the card drawn lies on the waste"
    else:
        status = f"game over: {_result_text(outcome, names)}"
    lines = [f"{str(rules)} · move {state.move_count} · {status}"]
    seen = shown(state)

    def pile(pile: Pile) -> tuple[int, str]:
        count, cards = seen[pile.id]
        return count, paint.card(cards[-1]) if cards else "-"

    def player_line(player: int) -> str:
        reserve, top = pile(Pile.reserve(player))
        waste, wtop = pile(Pile.waste(player))
        hand, _ = pile(Pile.hand(player))
        mark = "▶ " if outcome is None and state.current_player == player else "  "
        name = names[player]
        text = f"{name:<{width}}  R{player} {top} [{reserve}]   H{player} [{hand}]   W{player} {wtop} [{waste}]"
        if mark.strip():
            text = paint(_BOLD, text)
        return mark + text

    lines.append(player_line(1 - perspective))
    foundations = [f"F{i} {pile(Pile.foundation(i))[1]}" for i in range(8)]
    lines.append("  " + "   ".join(foundations))
    if rules.tableau_sources is TableauSources.OWN:
        lines.append(paint(_DIM, f"  own tableau piles: T0-T3 {names[0]}, T4-T7 {names[1]}"))
    for i, cards in enumerate(state.tableau):
        lines.append(f"  T{i} {' '.join(paint.card(c) for c in cards) if cards else '-'}")
    lines.append(player_line(perspective))
    return "\n".join(lines)
