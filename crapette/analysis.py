"""Game analysis: replay a game turn segment by turn segment and mark the segments that lost the most chance to win.

Within a turn a player sees everything that decides a choice until a move
reveals a card, so the analysis judges whole *turn segments*, as the turn
planner (:class:`~crapette.bots.PlanningBot`) plays them: a segment is the
moves a player makes from the start of a turn, or from the move after one
that revealed a card, up to and including the next move that reveals a card
(:func:`~crapette.reveals`: a draw, or a reserve play that uncovers the next
reserve card) or ends the turn (End turn, Pass, a draw that fits nowhere) or
the game.

For each segment in which the player had a choice, :func:`analyse` lists the
ways to end it (every position the turn could reach without a reveal, then
every move out of it; see :func:`~crapette.turn_ends`), the path the player
took among them, and judges each by the learned value
(:class:`~crapette.value.LearnedValue`, the chance to win): each path is
followed in a deal of the cards the player could not see, played on greedily
to the end of the opponent's next turn, and judged there (:data:`VALUE`);
every path in the same deals. The best of them is then measured again against
the player's path in fresh deals, so that the luck that made it the best of
many is not counted as a loss. The mean of the differences in those deals is
what the player's path lost (:attr:`Review.cost`, a share of winning
chances), and their spread gives a 95% interval (:attr:`Review.margin`). A
segment is a mistake when it lost more than the threshold
(:data:`MISTAKE_CHANCE`: 4% of winning chances by default) and the analysis
is sure of it: the interval lies above zero.

Every foundation is at its ten below; player 0 could win at once by playing
its reserve's Q♥ and the Q♣ it has just drawn, but ends its turn:

>>> from crapette import GameRecord, GameState
>>> from crapette.bots import PlanningBot
>>> state = GameState.from_piles(
...     "classic",
...     foundations=[" ".join(f"{rank}{suit}{deck}" for rank in "A23456789T") for deck in (0, 1) for suit in "HDCS"],
...     tableau=["KS0 QD0", "KC0 QH1", "KH0 QS0", "KD0 QC1", "KS1 QD1", "KC1", "KH1", "KD1"],
...     reserves=["QH0", "QS1"], wastes=["QC0", "JH0 JD0 JC0 JS0 JH1 JD1 JC1 JS1"], drawn=True)
>>> (review,) = analyse(GameRecord("classic", None, ["end"], start=state), bot=PlanningBot(seed=1, playouts=100))
>>> review.mistake, " ".join(map(str, review.best)), review.best_value
(True, 'R0-T5 W0-T6', 1.0)
>>> print(review.note)
mistake: R0-T5 W0-T6 was better (lost ...% ±0.0% of winning chances: 100.0% against ...%)

``evaluator=LearnedValue()`` judges each path by the value right where it
leaves the game instead, and ``judge="playout"`` as the planner plays, in
cards (see :func:`analyse`).

.. versionadded:: 0.2.0
.. versionchanged:: 0.3.0
   Judges turn segments instead of single moves, by the learned value (the
   chance to win) instead of the tree search's value; :attr:`Review.played`
   and :attr:`Review.best` are paths (tuples of moves), :attr:`Review.margin`
   is the 95% interval of the loss, and a mistake must be sure. The planner's
   playouts, in cards, are ``judge="playout"``.
"""

from __future__ import annotations

import math
import random
import warnings
from collections.abc import Callable, Iterator, Sequence

import attrs

from ._core.cards import Card
from ._core.engine import apply_move
from ._core.messages import brief
from ._core.moves import Move
from ._core.state import GameState, raw_state
from ._core.turns import follow, reveals
from ._formats.record import GameRecord
from ._views.view import PublicView, dealer, view
from .bots.planner import PlanningBot, path_outcomes, segment_paths
from .bots.treesearch import TreeSearchBot
from .evaluation import Evaluator, Playout, evaluate_all
from .protocol import Crapette, seeded_rng
from .value import LearnedValue

__all__ = [
    "FINALISTS", "JUDGES", "MAX_CANDIDATES", "MIN_DEALS", "MISTAKE", "MISTAKE_CHANCE", "SCREEN_DEALS", "VALUE",
    "Review", "analyse", "reviews", "segments",
]  # fmt: skip

#: The loss, in cards, above which the playouts' judgement (``judge="playout"``) marks a segment by default.
MISTAKE = 2.0

#: The share of winning chances a segment must lose for the value's judgement to mark it by default: 4%.
MISTAKE_CHANCE = 0.04

#: The most candidate paths compared in a segment, whatever the budget (the best ranked).
MAX_CANDIDATES = 200

#: The deals in which the value's judgement tries every way to end a segment, to keep the best
#: :data:`FINALISTS` for more deals.
SCREEN_DEALS = 4

#: How many of the ways to end a segment the value's judgement tries in more deals.
FINALISTS = 8

#: The fewest deals the value's judgement tries each of the :data:`FINALISTS` in, whatever the
#: budget (twice as many for the best of them against the player's path).
MIN_DEALS = 16

#: The judgements :func:`analyse` knows: the learned value (the default) and the planner's playouts.
JUDGES = ("value", "playout")

#: The normal quantile of a two-sided 95% interval.
_Z95 = 1.959964

_GAME = Crapette("classic")

#: The value's judgement of where a path leaves the game by default: the learned value (the shipped
#: network for the record's rules) where greedy play from there stops, at the end of the opponent's
#: next turn (an :class:`~crapette.evaluation.Playout` with a :class:`~crapette.value.LearnedValue` leaf).
VALUE: Evaluator = Playout(leaf=LearnedValue())

#: What ranks the ways to end a segment, unless the bot has a ranker: the learned value of the turn end.
_RANKER = LearnedValue()


def _as_path(moves: Move | tuple[Move, ...] | list[Move]) -> tuple[Move, ...]:
    return (moves,) if isinstance(moves, Move) else tuple(moves)


def _text(path: tuple[Move, ...]) -> str:
    return " ".join(str(move) for move in path)


def _check_judge(judge: object) -> str:
    if judge not in JUDGES or type(judge) is not str:
        raise ValueError(f"judge must be one of {', '.join(map(repr, JUDGES))}, got {brief(judge)}")
    return judge


@attrs.frozen
class Review:
    """What the analysis thought of one turn segment of a game.

    ``played`` and ``best`` are paths: the moves of the segment, the last one
    the move that revealed a card or ended the turn. A single move given for
    either is taken as a path of one move. ``judge`` says which judgement
    made the review, and so what the values are: the chance to win (0 to 1)
    for ``"value"``, cards for ``"playout"`` (the default, so that a review
    made by hand without it means what it did before ``judge`` came).

    .. versionchanged:: 0.3.0
       ``margin``, ``judge`` and :attr:`interval`; the values are chances to
       win when the value judged.

    >>> from crapette import parse_move
    >>> review = Review(3, 0, parse_move("draw"), (parse_move("T0-T1"), parse_move("R0-T0")), 0.41, 0.53, True,
    ...                 margin=0.031, judge="value")
    >>> [str(m) for m in review.played], review.end, review.cost, review.interval
    (['draw'], 3, 0.12, (0.089, 0.151))
    >>> print(review.note)
    mistake: T0-T1 R0-T0 was better (lost 12.0% ±3.1% of winning chances: 53.0% against 41.0%)
    """

    #: The index (from 0) of the segment's first move in the record's moves.
    index: int
    #: The player who moved.
    player: int
    #: The moves of the segment as played.
    played: tuple[Move, ...] = attrs.field(converter=_as_path)
    #: The best path found (the path played, if none was better).
    best: tuple[Move, ...] = attrs.field(converter=_as_path)
    #: The value of the path played for the player who moved: its chance to win (0 to 1) by the learned value,
    #: or, by the playouts, cards (games won or lost aside: see :attr:`wins`).
    value: float
    #: The value of the best path, in the same unit.
    best_value: float
    #: Whether the path played is a mistake. By the value: it lost more than the threshold the analysis was run
    #: with, and the lower end of the 95% interval of the loss is above 0. By the playouts: the best path wins in
    #: more of the deals, or as often and its cards are worth more than the threshold.
    mistake: bool
    #: The share of the deals in which the path played wins the game, less the share in which it loses it
    #: (-1 to 1): where the path ends by the value, by the end of the opponent's next turn by the playouts.
    wins: float = 0.0
    #: The same for the best path.
    best_wins: float = 0.0
    #: Half the width of the 95% interval of :attr:`cost`, from the differences between the two paths in the
    #: deals they were measured in (0 when the best path is the one played, and by the playouts, which do not
    #: measure it).
    margin: float = 0.0
    #: The judgement that made the review: ``"value"`` or ``"playout"`` (see :data:`JUDGES`).
    judge: str = attrs.field(default="playout", validator=lambda _s, _a, v: _check_judge(v))

    @property
    def end(self) -> int:
        """The index of the segment's last move in the record's moves."""
        return self.index + len(self.played) - 1

    @property
    def cost(self) -> float:
        """What the path played lost against the best path (0 when it is the best, or worth more).

        By the value, a share of the chance to win: 0.12 is 12% of winning
        chances. By the playouts, cards, games won and lost aside (see
        :attr:`wins_lost`).

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -1.0, 1.5, True).cost
        2.5
        """
        return round(max(0.0, self.best_value - self.value), 6)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% interval of :attr:`cost`: ``cost - margin`` to ``cost + margin``.

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), 0.5, 0.6, True, margin=0.02, judge="value").interval
        (0.08, 0.12)
        """
        return round(self.cost - self.margin, 6), round(self.cost + self.margin, 6)

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
        """The cost in cards: the same as :attr:`cost` when the playouts judged.

        .. deprecated:: 0.3.0
           Use :attr:`cost`.
        """
        warnings.warn("Review.cost_in_points is deprecated: use Review.cost (in cards)", DeprecationWarning, 2)
        return self.cost

    @property
    def note(self) -> str:
        """The mark as a line of text: empty for a good segment, else the better path and the loss.

        >>> from crapette import parse_move
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), 0.5, 0.58, True, margin=0.021, judge="value").note
        'mistake: R0-T1 was better (lost 8.0% ±2.1% of winning chances: 58.0% against 50.0%)'
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -1.0, 1.5, True).note
        'mistake: R0-T1 was better (+1.5 cards against -1.0, 2.5 lost)'
        >>> Review(3, 0, parse_move("draw"), parse_move("R0-T1"), -4.0, -6.0, True, 0.0, 0.25).note
        'mistake: R0-T1 was better (games won less lost in +25% of the deals against +0%)'
        """
        if not self.mistake:
            return ""
        if self.judge == "value":
            return (
                f"mistake: {_text(self.best)} was better (lost {self.cost:.1%} ±{self.margin:.1%} of winning "
                f"chances: {self.best_value:.1%} against {self.value:.1%})"
            )
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


def _values(
    v: PublicView, paths: Sequence[tuple[Move, ...]], deals: int, seed: int, judge: Evaluator
) -> tuple[list[list[float]], list[float]]:
    """The value of each path in each of the same ``deals`` deals, and its games won less lost (a share of them)."""
    player = v.current_player
    deal = dealer(v)
    # Every move of a path but the last reveals nothing, so the position before the last move keeps the
    # view's face-down places as they were: work it out once, then put each deal's unseen cards there.
    slots = [(pid, n) for _, _, own in deal.own for pid, n in own] + deal.shared
    start = deal.deal(None)
    where: dict[tuple[Move, ...], int] = {}
    befores: list[GameState] = []
    for path in paths:
        if path[:-1] not in where:
            where[path[:-1]] = len(befores)
            befores.append(follow(start, path[:-1]))
    lasts = [(where[path[:-1]], path[-1]) for path in paths]
    rng = seeded_rng(_GAME, seed, v)
    values: list[list[float]] = [[] for _ in paths]
    won = [0] * len(paths)
    for _ in range(deals):
        world = deal.deal(rng)
        unseen = [(pid, n, world.piles[pid][:n]) for pid, n in slots]
        placed = [_dealt(before, unseen) for before in befores]
        ends = []
        for i, (before, last) in enumerate(lasts):
            here = placed[before]
            end = here if here.is_over else apply_move(here, last)
            outcome = end.outcome
            if outcome is not None and outcome.winner is not None:
                won[i] += 1 if outcome.winner == player else -1
            ends.append(end)
        for row, worth in zip(values, evaluate_all(judge, ends, player, rng)):
            row.append(worth)
    return values, [w / deals for w in won]


def _dealt(state: GameState, unseen: list[tuple[int, int, tuple[Card, ...]]]) -> GameState:
    """``state`` with the ``n`` bottom cards of each pile ``pid`` replaced by ``cards``, for each of ``unseen``."""
    if not unseen:
        return state
    piles = list(state.piles)
    for pid, n, cards in unseen:
        piles[pid] = cards + piles[pid][n:]
    return raw_state(
        state.rules, tuple(piles), state.current_player, state.move_count, state.drawn, state.passes,
        state.exhausted, state.played, state.counters, state.hand_known, state.reserve_known, state.from_deal,
        state.turn_moves, state.outcome,
    )


def _spread(diffs: Sequence[float], mean: float) -> float:
    """The sample standard deviation of ``diffs``, whose mean is ``mean``."""
    if len(diffs) < 2:
        return 0.0
    return math.sqrt(max(0.0, sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1)))


def _judge_by_value(
    state: GameState, played: tuple[Move, ...], bot: PlanningBot, threshold: float, judge: Evaluator
) -> Review | None:
    """The review of the segment ``played`` from ``state`` by the value (index 0); None without a choice."""
    v = view(state)
    paths = segment_paths(v, bot.ranker or _RANKER, random.Random(bot.seed))
    if len(paths) <= 1:
        return None
    candidates = [played] + [p for p in paths[:MAX_CANDIDATES] if p != played]
    player = state.current_player
    budget = bot.playouts
    # Every candidate in the same few deals; the best few again in more deals (half the budget).
    screened, won = _values(v, candidates, SCREEN_DEALS, bot.seed, judge)
    means = [sum(row) / len(row) for row in screened]
    kept = sorted(range(len(candidates)), key=lambda i: (-means[i], i))[:FINALISTS]
    if len(kept) > 1:
        finals, _ = _values(v, [candidates[i] for i in kept], max(MIN_DEALS, budget // (2 * len(kept))), bot.seed + 1,
                            judge)
        means = [-math.inf] * len(candidates)
        for i, row in zip(kept, finals):
            means[i] = sum(row) / len(row)
    best = max(range(len(candidates)), key=lambda i: (means[i], i == 0))
    if best == 0:
        return Review(0, player, played, played, means[0], means[0], False, won[0], won[0], 0.0, "value")
    # The best and the path played in fresh deals (the other half): the luck that made it the best of many
    # is no loss, and the differences between the two in each deal give the interval.
    pair = [played, candidates[best]]
    (mine, theirs), (wins, best_wins) = _values(v, pair, max(2 * MIN_DEALS, budget // 4), bot.seed + 2, judge)
    diffs = [b - a for a, b in zip(mine, theirs)]
    loss = sum(diffs) / len(diffs)
    value, best_value = sum(mine) / len(mine), sum(theirs) / len(theirs)
    if loss <= 0:
        return Review(0, player, played, played, value, value, False, wins, wins, 0.0, "value")
    margin = _Z95 * _spread(diffs, loss) / math.sqrt(len(diffs))
    mistake = loss > threshold and loss - margin > 0
    return Review(0, player, played, candidates[best], value, best_value, mistake, wins, best_wins, margin, "value")


def _judge_by_playouts(state: GameState, played: tuple[Move, ...], bot: PlanningBot, threshold: float) -> Review | None:
    """The review of the segment ``played`` from ``state`` by the playouts (index 0); None without a choice."""
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


def _check_threshold(threshold: object, judge: str) -> float:
    """The threshold for ``judge``: its default for None, else checked (a share of chances, or cards)."""
    if threshold is None:
        return MISTAKE_CHANCE if judge == "value" else MISTAKE
    if judge == "value":
        top, unit = 1.0, "a share of winning chances from 0 to 1"
    else:
        top, unit = 1e6, "a number of cards from 0 to 1e6"
    if not isinstance(threshold, (int, float)) or isinstance(threshold, bool) or not 0 <= threshold <= top:
        raise ValueError(f"threshold must be {unit} for judge={judge!r}, got {brief(threshold)}")
    return float(threshold)


def reviews(
    record: GameRecord,
    *,
    bot: PlanningBot | TreeSearchBot | None = None,
    threshold: float | None = None,
    every_move: int | None = None,
    players: int | None = None,
    judge: str = "value",
    evaluator: Evaluator | None = None,
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
    judge = _check_judge(judge)
    limit = _check_threshold(threshold, judge)
    if evaluator is not None:
        if judge != "value":
            raise ValueError("evaluator is the value's judgement: it needs judge='value'")
        if not callable(getattr(evaluator, "evaluate", None)):
            raise TypeError(f"evaluator must have an evaluate(state, player, rng) method, got {brief(evaluator)}")
    if every_move is not None:
        warnings.warn("every_move is deprecated and ignored: the analysis compares whole turn segments",
                      DeprecationWarning, 2)
    if players is not None and (type(players) is not int or players not in (0, 1)):
        raise ValueError(f"players must be None, 0 or 1, got {brief(players)}")
    value = evaluator if evaluator is not None else VALUE
    for index, state, played in segments(record):
        if players is not None and state.current_player != players:
            continue
        if judge == "value":
            judged = _judge_by_value(state, played, planner, limit, value)
        else:
            judged = _judge_by_playouts(state, played, planner, limit)
        if judged is not None:
            yield attrs.evolve(judged, index=index)


def analyse(
    record: GameRecord,
    *,
    bot: PlanningBot | TreeSearchBot | None = None,
    threshold: float | None = None,
    every_move: int | None = None,
    players: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    judge: str = "value",
    evaluator: Evaluator | None = None,
) -> tuple[Review, ...]:
    """Review every turn segment of ``record`` in which the player had a choice.

    ``bot`` gives the budget (its playouts: the values worked out, or the
    playouts played, for a segment), the seed and the ranking of the ways to
    end a segment: :class:`~crapette.bots.PlanningBot` at the strong level by
    default (8,000); pass ``PlanningBot.at_level("normal")`` for a quicker look.
    ``players`` limits the review to one player's segments (0 or 1).
    ``progress(done, total)`` is called after each segment reviewed, if given,
    with the moves of the record replayed so far. The same arguments always
    give the same reviews.

    ``judge="value"`` (the default) judges the state each path leads to, in
    each deal, by ``evaluator``, whose value must be a chance to win from 0 to
    1: :data:`VALUE` by default, the learned value where greedy play stops at
    the end of the opponent's next turn; ``evaluator=LearnedValue()`` judges
    right where the path leaves the game. The ways to end the segment (the
    best :data:`MAX_CANDIDATES`, ranked by the bot's ranker, else by the
    learned value of their turn end) and the player's path are tried in the
    same :data:`SCREEN_DEALS` deals; the best :data:`FINALISTS` of them again
    in fresh deals, sharing half the bot's playouts (each in at least
    :data:`MIN_DEALS`); then the best of those and the player's path in fresh
    deals, sharing the other half (at least twice :data:`MIN_DEALS` each). A
    segment is a mistake when its path lost more than ``threshold`` (a share
    of winning chances, :data:`MISTAKE_CHANCE` by default) and the lower end
    of the 95% interval of the loss is above 0.

    ``judge="playout"`` judges as the planner plays: the best ranked ways to
    end the segment (one for each 40 playouts, at least 8 and at most
    :data:`MAX_CANDIDATES`) and the player's path are played in the same
    deals, greedily on to the end of the opponent's next turn (half the
    budget), then the best of them and the player's path again in fresh
    deals (the other half); values are in cards of penalty. A segment is a
    mistake when the best path wins the game in more of the deals than the
    player's (games won less lost), or as often and is worth more than
    ``threshold`` cards more (:data:`MISTAKE` by default).

    .. versionchanged:: 0.3.0
       ``judge`` and ``evaluator``: the learned value judges by default.
       ``threshold`` defaults to the judgement's own (None).

    .. deprecated:: 0.3.0
       A :class:`~crapette.bots.TreeSearchBot` as ``bot`` (its seed and
       playouts make the planner) and ``every_move`` (ignored).

    :raises RecordError: when the replay reaches an illegal move.
    :raises TypeError: if ``record`` is not a :class:`~crapette.GameRecord`,
        ``bot`` not a :class:`~crapette.bots.PlanningBot`, or ``evaluator``
        has no ``evaluate``.
    :raises ValueError: if ``judge`` is not one of :data:`JUDGES`,
        ``threshold`` is not a share from 0 to 1 (by the value) or a number
        of cards from 0 to 1e6 (by the playouts), ``players`` is not None, 0
        or 1, or an ``evaluator`` is given to ``judge="playout"``.
    """
    if not isinstance(record, GameRecord):
        raise TypeError(f"analyse() expects a GameRecord, got {type(record).__name__}")
    out = []
    total = len(record.moves)
    if every_move is not None:
        warnings.warn("every_move is deprecated and ignored: the analysis compares whole turn segments",
                      DeprecationWarning, 2)
    found = reviews(record, bot=bot, threshold=threshold, players=players, judge=judge, evaluator=evaluator)
    for review in found:
        out.append(review)
        if progress is not None:
            progress(review.end + 1, total)
    return tuple(out)
