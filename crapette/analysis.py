"""Game analysis: replay a game and mark the moves the tree search considers mistakes, like a chess engine's review.

:func:`analyse` searches every position of a record in which the player to
move had a choice, with :class:`~crapette.bots.TreeSearchBot` seeing what that
player saw (the public view), and compares the move played with the move the
search likes best. Each searched move gets a :class:`Review`: both moves, the
search's value of each, and what the move played cost, as a value and in
points (cards of penalty: what the classic scoring counts).

A value is the search's estimate, from 0 to 1, for the player who moved:
0.5 means "as good as the position was", higher is better, and a game won or
lost is worth 1 or 0. The cost in points reads the same difference back
through the curve the search uses (a difference of 4 points of advantage makes
a value of about 0.73).

>>> from crapette import GameRecord
>>> record = GameRecord("classic", seed=3, moves=["T2-T3", "T7-T2"])
>>> marks = analyse(record, bot=TreeSearchBot(seed=1, playouts=300))
>>> [(r.index, str(r.played), str(r.best), r.mistake) for r in marks]
[(0, 'T2-T3', 'T2-T3', False), (1, 'T7-T2', 'R0-T2', True)]
>>> print(marks[1].note)
mistake: R0-T2 was better (value ... against ..., about ... points)

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator

import attrs

from ._errors import brief
from ._heuristics import SCALE
from ._ismcts import TreeSearchBot
from ._moves import Move
from ._record import GameRecord
from ._engine import legal_moves

__all__ = ["Review", "analyse", "reviews"]

#: The cost, in value, from which a move counts as a mistake by default.
MISTAKE = 0.1


def _points(value: float) -> float:
    """A value back in points of advantage through the search's logistic curve (0.5 is 0)."""
    value = min(max(value, 1e-6), 1 - 1e-6)
    return SCALE * math.log(value / (1 - value))


@attrs.frozen
class Review:
    """What the search thought of one move of a game."""

    #: The move's position in the record's moves (from 0).
    index: int
    #: The player who moved.
    player: int
    #: The move played.
    played: Move
    #: The move the search likes best (the move played, if it agrees).
    best: Move
    #: The search's value of the move played, for the player who moved (0 to 1).
    value: float
    #: The search's value of its best move.
    best_value: float
    #: Whether the cost reaches the threshold the analysis was run with.
    mistake: bool

    @property
    def cost(self) -> float:
        """How much value the move played gave away (0 when it is the best move).

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), 0.4, 0.6, True).cost
        0.2
        """
        return round(max(0.0, self.best_value - self.value), 6)

    @property
    def cost_in_points(self) -> float:
        """The cost in points of advantage (cards of penalty), read back through the search's curve.

        >>> from crapette import parse_move
        >>> round(Review(3, 0, parse_move("draw"), parse_move("R0-T1"), 0.4, 0.6, True).cost_in_points, 2)
        3.24
        """
        return max(0.0, _points(self.best_value) - _points(self.value))

    @property
    def note(self) -> str:
        """The mark as a line of text: empty for a good move, else the better move and the cost.

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), 0.4, 0.6, True).note
        'mistake: R0-T1 was better (value 0.60 against 0.40, about 3.2 points)'
        """
        if not self.mistake:
            return ""
        return (
            f"mistake: {self.best} was better (value {self.best_value:.2f} against "
            f"{self.value:.2f}, about {self.cost_in_points:.1f} points)"
        )


def reviews(
    record: GameRecord,
    *,
    bot: TreeSearchBot | None = None,
    threshold: float = MISTAKE,
    every_move: int = 4,
    players: int | None = None,
) -> Iterator[Review]:
    """The reviews of :func:`analyse` one at a time, as they are made (for progress reports).

    The arguments are those of :func:`analyse`.

    >>> from crapette import GameRecord
    >>> record = GameRecord("classic", seed=3, moves=["T2-T3", "T7-T2"])
    >>> [(r.index, r.player) for r in reviews(record, bot=TreeSearchBot(seed=1, playouts=50))]
    [(0, 0), (1, 0)]
    >>> list(reviews(record, bot=TreeSearchBot(seed=1, playouts=50), players=1))  # player 1 has not moved
    []

    :raises RecordError: when the replay reaches an illegal move (after the
        reviews of the moves before it).
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyse() expects a GameRecord, got {type(record).__name__}")
    searcher = TreeSearchBot.at_level("strong") if bot is None else bot
    if not isinstance(searcher, TreeSearchBot):
        raise TypeError(f"bot must be a TreeSearchBot, got {brief(searcher)}")
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0 <= threshold <= 1:
        raise ValueError(f"threshold must be a number from 0 to 1, got {brief(threshold)}")
    if not isinstance(every_move, int) or isinstance(every_move, bool) or not 0 <= every_move <= 1000:
        raise ValueError(f"every_move must be an int from 0 to 1000, got {brief(every_move)}")
    if players is not None and (type(players) is not int or players not in (0, 1)):
        raise ValueError(f"players must be None, 0 or 1, got {brief(players)}")
    states = record.states()
    state = next(states)
    for index, move in enumerate(record.moves):
        after = next(states)  # raises RecordError at an illegal move
        if (players is None or state.current_player == players) and len(legal_moves(state)) > 1:
            result = searcher.search(state, every_move=every_move)
            value = result.value_of(move)
            best = result.moves[0]
            if best.value < value:  # the move played scored better than the one chosen: no cost
                best_move, best_value = move, value
            else:
                best_move, best_value = best.move, best.value
            yield Review(
                index,
                state.current_player,
                move,
                best_move,
                value,
                best_value,
                best_move != move and best_value - value >= threshold,
            )
        state = after


def analyse(
    record: GameRecord,
    *,
    bot: TreeSearchBot | None = None,
    threshold: float = MISTAKE,
    every_move: int = 4,
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Review, ...]:
    """Review every move of ``record`` made where the player had a choice.

    ``bot`` is the search to judge with: the strong level by default (about
    half a second a position); pass ``TreeSearchBot.at_level("normal")`` for a
    quicker look. Each position
    is searched with every legal move tried at least ``every_move`` times, so
    that the move played has a value even if the search would not have tried
    it. A move is a mistake when the search's best move is worth at least
    ``threshold`` more (in value, 0 to 1). ``players`` limits the review to
    one player's moves (0 or 1). ``progress(done, total)`` is called after
    each move reviewed, if given, with the moves of the record replayed so far.

    :raises RecordError: when the replay reaches an illegal move.
    :raises TypeError: if ``record`` is not a :class:`~crapette.GameRecord` or
        ``bot`` not a :class:`~crapette.bots.TreeSearchBot`.
    :raises ValueError: if ``threshold`` is not from 0 to 1, ``every_move`` is
        out of range or ``players`` is not None, 0 or 1.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyse() expects a GameRecord, got {type(record).__name__}")
    out = []
    total = len(record.moves)
    for review in reviews(record, bot=bot, threshold=threshold, every_move=every_move, players=players):
        out.append(review)
        if progress is not None:
            progress(review.index + 1, total)
    return tuple(out)
