"""Game analysis: replay a game turn segment by turn segment and mark the segments the turn planner finds mistaken.

Within a turn a player sees everything that decides a choice until a move
reveals a card, so the analysis judges whole *turn segments*, as the turn
planner (:class:`~crapette.bots.PlanningBot`) plays them: a segment is the
moves a player makes from the start of a turn, or from the move after one
that revealed a card, up to and including the next move that reveals a card
(:func:`~crapette.reveals`: a draw, or a reserve play that uncovers the next
reserve card) or ends the turn (End turn, Pass, a draw that fits nowhere) or
the game.

For each segment in which the player had a choice, :func:`analyse` lists the
ways the planner knows to end it (every position the turn could reach without
a reveal, then every move out of it; see :func:`~crapette.turn_ends`), keeps
the best ranked of them together with the path the player took, and plays each
in the same deals of the cards the player could not see, on to the end of the
opponent's next turn. The best of them is then measured again against the
player's path in fresh deals, so that the luck of the choice is not counted
as a mistake. Each segment gets a :class:`Review`: the path played, the best
path, the value of each and whether the loss makes it a mistake.

A value is in cards of penalty (the classic scoring's count, reserve cards
double): the opponent's penalty minus the player's, after the opponent's next
turn (or where the game ended), averaged over the deals. A game that ends in a
deal is counted apart, in :attr:`Review.wins`: the share of the deals in which
the path wins the game, less the share in which it loses it. A path that wins
in more of the deals than the player's is better whatever the cards, and only
between paths that win as often are cards compared with the threshold.

>>> from crapette import GameRecord
>>> from crapette.bots import PlanningBot
>>> record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
>>> (review,) = analyse(record, bot=PlanningBot(seed=1, playouts=300))
>>> " ".join(map(str, review.played)), review.mistake
('T2-T3 T3-T2 draw', True)
>>> print(review.note)
mistake: T2-T3 R0-T2 was better (... cards against ..., ... lost)

.. versionadded:: 0.2.0
.. versionchanged:: 0.3.0
   Judges turn segments with the turn planner, in cards, instead of single
   moves with the tree search; :attr:`Review.played` and :attr:`Review.best`
   are paths (tuples of moves) and the threshold is in cards. Games won and
   lost are counted apart from the cards (:attr:`Review.wins`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator

import attrs

from ._messages import brief
from ._moves import Move
from ._record import GameRecord
from ._state import GameState
from ._turns import reveals
from ._view import view
from .bots.planner import PlanningBot, path_outcomes, segment_paths
from .bots.treesearch import TreeSearchBot

__all__ = ["MAX_CANDIDATES", "MISTAKE", "Review", "analyse", "reviews", "segments"]

#: The loss, in cards, above which a segment counts as a mistake by default.
MISTAKE = 2.0

#: The most candidate paths compared in a segment, whatever the budget (the best ranked).
MAX_CANDIDATES = 200


def _as_path(moves: Move | tuple[Move, ...] | list[Move]) -> tuple[Move, ...]:
    return (moves,) if isinstance(moves, Move) else tuple(moves)


def _text(path: tuple[Move, ...]) -> str:
    return " ".join(str(move) for move in path)


@attrs.frozen
class Review:
    """What the turn planner thought of one turn segment of a game.

    ``played`` and ``best`` are paths: the moves of the segment, the last one
    the move that revealed a card or ended the turn. A single move given for
    either is taken as a path of one move.

    >>> from crapette import parse_move
    >>> review = Review(3, 0, parse_move("draw"), (parse_move("T0-T1"), parse_move("R0-T0")), -2.5, 1.0, True)
    >>> [str(m) for m in review.played], review.end, review.cost
    (['draw'], 3, 3.5)
    """

    #: The index (from 0) of the segment's first move in the record's moves.
    index: int
    #: The player who moved.
    player: int
    #: The moves of the segment as played.
    played: tuple[Move, ...] = attrs.field(converter=_as_path)
    #: The best path the planner found (the path played, if none was better).
    best: tuple[Move, ...] = attrs.field(converter=_as_path)
    #: The value of the path played for the player who moved, in cards (games won or lost aside: see :attr:`wins`).
    value: float
    #: The value of the best path, in cards.
    best_value: float
    #: Whether the best path is a mistake's correction: it wins in more of the deals, or as often
    #: and its cards are worth more than the threshold the analysis was run with.
    mistake: bool
    #: The share of the deals in which the path played wins the game, less the share in which it loses it (-1 to 1).
    wins: float = 0.0
    #: The same for the best path.
    best_wins: float = 0.0

    @property
    def end(self) -> int:
        """The index of the segment's last move in the record's moves."""
        return self.index + len(self.played) - 1

    @property
    def cost(self) -> float:
        """How many cards the path played lost against the best path (0 when it is the best, or worth less in cards).

        Games won and lost are not in it: see :attr:`wins_lost`.

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -1.0, 1.5, True).cost
        2.5
        """
        return round(max(0.0, self.best_value - self.value), 6)

    @property
    def wins_lost(self) -> float:
        """The share of the deals the path played gave away in games won less lost, against the best (0 when none).

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -4.0, -6.0, True, 0.0, 0.25).wins_lost
        0.25
        """
        return round(max(0.0, self.best_wins - self.wins), 6)

    @property
    def cost_in_points(self) -> float:
        """The cost in cards: the same as :attr:`cost` now that values are in cards.

        .. deprecated:: 0.3.0
           Use :attr:`cost`.
        """
        warnings.warn("Review.cost_in_points is deprecated: use Review.cost (in cards)", DeprecationWarning, 2)
        return self.cost

    @property
    def note(self) -> str:
        """The mark as a line of text: empty for a good segment, else the better path and the loss.

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -1.0, 1.5, True).note
        'mistake: R0-T1 was better (+1.5 cards against -1.0, 2.5 lost)'
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -4.0, -6.0, True, 0.0, 0.25).note
        'mistake: R0-T1 was better (games won less lost in +25% of the deals against +0%)'
        """
        if not self.mistake:
            return ""
        if self.best_wins > self.wins:
            return (
                f"mistake: {_text(self.best)} was better (games won less lost in {self.best_wins:+.0%} of "
                f"the deals against {self.wins:+.0%})"
            )
        return (
            f"mistake: {_text(self.best)} was better ({self.best_value:+.1f} cards against "
            f"{self.value:+.1f}, {self.cost:.1f} lost)"
        )


def segments(record: GameRecord) -> Iterator[tuple[int, GameState, tuple[Move, ...]]]:
    """The turn segments of a record: ``(index, state, moves)`` with the first move's index and the state before it.

    A segment ends with a move that reveals a card (:func:`~crapette.reveals`),
    passes the turn to the other player, or ends the game. Moves at the end
    of the record that do not end a segment form none.

    >>> from crapette import GameRecord
    >>> record = GameRecord("classic", seed=3, moves=["T2-T3", "R0-T2", "draw"])
    >>> [(i, " ".join(map(str, moves))) for i, _, moves in segments(record)]
    [(0, 'T2-T3 R0-T2'), (2, 'draw')]

    :raises RecordError: when the replay reaches an illegal move (after the
        segments before it).
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"segments() expects a GameRecord, got {type(record).__name__}")
    states = record.states()
    state = start = next(states)
    first = 0
    for index, move in enumerate(record.moves):
        after = next(states)  # raises RecordError at an illegal move
        if reveals(state, move) or after.is_over or after.current_player != state.current_player:
            yield first, start, record.moves[first : index + 1]
            first, start = index + 1, after
        state = after


def _planner(bot: object) -> PlanningBot:
    if bot is None:
        return PlanningBot.at_level("strong")
    if isinstance(bot, TreeSearchBot):
        playouts = bot.playouts if bot.playouts is not None else PlanningBot().playouts
        warnings.warn(
            "analysing with a TreeSearchBot is deprecated: pass a PlanningBot "
            f"(PlanningBot(seed={bot.seed}, playouts={playouts}) is used)",
            DeprecationWarning,
            3,
        )
        return PlanningBot(seed=bot.seed, playouts=playouts)
    if not isinstance(bot, PlanningBot):
        raise TypeError(f"bot must be a PlanningBot, got {brief(bot)}")
    return bot


def _judge(state: GameState, played: tuple[Move, ...], bot: PlanningBot, threshold: float) -> Review | None:
    """The review of the segment ``played`` from ``state`` (index 0); None without a choice."""
    v = view(state)
    paths = segment_paths(v)
    if len(paths) <= 1:
        return None
    budget = bot.playouts
    keep = min(len(paths), MAX_CANDIDATES, max(8, budget // 40))
    candidates = [played] + [p for p in paths[:keep] if p != played]
    worlds = max(4, budget // (2 * len(candidates)))
    # The planner's ranking (cards, a game won or lost counting 10,000) picks the best.
    values = path_outcomes(v, candidates, worlds, bot.seed)
    best = max(range(len(candidates)), key=lambda i: (values[i][0], i == 0))
    player = state.current_player
    if best == 0:
        _, card_value, wins = values[0]
        return Review(0, player, played, played, card_value, card_value, False, wins, wins)
    # Measured again in fresh deals: the luck that made it the best of many is not a loss.
    again = path_outcomes(v, [played, candidates[best]], max(8, budget // 4), bot.seed + 1)
    (value, card_value, wins), (best_value, best_cards, best_wins) = again
    if best_value <= value:
        return Review(0, player, played, played, card_value, card_value, False, wins, wins)
    # Like with like: more games won is better whatever the cards; cards count between paths that win as often.
    mistake = best_wins > wins or (best_wins == wins and best_cards - card_value > threshold)
    return Review(0, player, played, candidates[best], card_value, best_cards, mistake, wins, best_wins)


def reviews(
    record: GameRecord,
    *,
    bot: PlanningBot | TreeSearchBot | None = None,
    threshold: float = MISTAKE,
    every_move: int | None = None,
    players: int | None = None,
) -> Iterator[Review]:
    """The reviews of :func:`analyse` one at a time, as they are made (for progress reports).

    The arguments are those of :func:`analyse`.

    >>> from crapette import GameRecord
    >>> from crapette.bots import PlanningBot
    >>> record = GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw"])
    >>> [(r.index, r.player, r.end) for r in reviews(record, bot=PlanningBot(seed=1, playouts=50))]
    [(0, 0, 2)]
    >>> list(reviews(record, bot=PlanningBot(seed=1, playouts=50), players=1))  # player 1 has not moved
    []

    :raises RecordError: when the replay reaches an illegal move (after the
        reviews of the segments before it).
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyse() expects a GameRecord, got {type(record).__name__}")
    planner = _planner(bot)
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0 <= threshold <= 1e6:
        raise ValueError(f"threshold must be a number of cards from 0 to 1e6, got {brief(threshold)}")
    if every_move is not None:
        warnings.warn("every_move is deprecated and ignored: the analysis compares whole turn segments",
                      DeprecationWarning, 2)
    if players is not None and (type(players) is not int or players not in (0, 1)):
        raise ValueError(f"players must be None, 0 or 1, got {brief(players)}")
    for index, state, played in segments(record):
        if players is not None and state.current_player != players:
            continue
        judged = _judge(state, played, planner, threshold)
        if judged is not None:
            yield attrs.evolve(judged, index=index)


def analyse(
    record: GameRecord,
    *,
    bot: PlanningBot | TreeSearchBot | None = None,
    threshold: float = MISTAKE,
    every_move: int | None = None,
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[Review, ...]:
    """Review every turn segment of ``record`` in which the player had a choice.

    ``bot`` is the planner to judge with, and gives the budget of playouts
    and the seed: :class:`~crapette.bots.PlanningBot` at the strong level by
    default (8,000 playouts a segment, about a second); pass
    ``PlanningBot.at_level("normal")`` for a quicker look. In each segment the
    best ranked ways to end it (one for each 40 playouts, at least 8 and at
    most :data:`MAX_CANDIDATES`) and the player's path are played in the same
    deals (half the budget), then the best of them and the player's path
    again in fresh deals (the other half). A segment is a mistake when the
    best path wins the game in more of the deals than the player's (games won
    less lost), or as often and is worth more than ``threshold`` cards more.
    ``players`` limits the review to one player's segments (0 or 1).
    ``progress(done, total)`` is called after each segment reviewed, if given,
    with the moves of the record replayed so far. The same arguments always
    give the same reviews.

    .. deprecated:: 0.3.0
       A :class:`~crapette.bots.TreeSearchBot` as ``bot`` (its seed and
       playouts make the planner) and ``every_move`` (ignored).

    :raises RecordError: when the replay reaches an illegal move.
    :raises TypeError: if ``record`` is not a :class:`~crapette.GameRecord` or
        ``bot`` not a :class:`~crapette.bots.PlanningBot`.
    :raises ValueError: if ``threshold`` is not a number of cards from 0 to
        1e6 or ``players`` is not None, 0 or 1.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyse() expects a GameRecord, got {type(record).__name__}")
    out = []
    total = len(record.moves)
    if every_move is not None:
        warnings.warn("every_move is deprecated and ignored: the analysis compares whole turn segments",
                      DeprecationWarning, 2)
    for review in reviews(record, bot=bot, threshold=threshold, players=players):
        out.append(review)
        if progress is not None:
            progress(review.end + 1, total)
    return tuple(out)
