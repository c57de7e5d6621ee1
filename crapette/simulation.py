"""Play many games between two bots and report the results, serially or on any executor.

:func:`simulate` plays ``games`` games between two bots, swapping seats every
game, and returns a :class:`SimulationReport`. The results depend only on the
arguments: the same call gives an equal report whether it runs in this
process, on a :class:`concurrent.futures.ProcessPoolExecutor`, or on a Dask or
Ray cluster through an executor (any object with a
``submit(fn, *args) -> future`` method whose futures have ``result()``).

>>> from crapette.bots import GreedyBot, RandomBot
>>> report = simulate("classic", bots=(GreedyBot(), RandomBot(seed=1)), games=4, seed=10)
>>> report.wins, report.draws
((4, 0), 0)

The same functions play any other game that implements
:class:`crapette.protocol.CardGame` (a module or an object), with one bot per
player: pass the game in place of the rules. The seats then rotate every game,
and each deal is played once with the bots in each rotation of the seats.

>>> from crapette.bots import SearchBot
>>> from crapette.protocol import Crapette
>>> game = Crapette("classic")
>>> report = simulate(game, (SearchBot(seed=1, budget=20, game=game), RandomBot(seed=1, game=game)), games=2)
>>> report.wins
(2, 0)

A simulation that stops early, because a bot fails, a worker dies or Ctrl-C
is pressed, keeps the games that finished: the error it raises
(:class:`SimulationError`, :class:`BotError`, :class:`SimulationInterrupted`)
carries their report. ``progress=True`` shows how far the games have got, on a
terminal or in a log.
"""

from __future__ import annotations

import collections
import concurrent.futures
import copy
import functools
import math
import statistics
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol, overload

import attrs

from ._engine import apply_move, new_game
from ._checks import check_int
from ._errors import IllegalMoveError, brief
from ._moves import Move
from ._progress import Progress
from ._progress import progress as _progress
from ._rules import RuleSet
from ._state import EndReason, settle
from .protocol import CardGame, Crapette, _portable, _resolve, check_card_game, game_name

if TYPE_CHECKING:
    from .bots import Bot

__all__ = [
    "DEFAULT_MAX_MOVES",
    "BotError",
    "Executor",
    "GameResult",
    "IllegalBotMoveError",
    "SimulationError",
    "SimulationInterrupted",
    "SimulationReport",
    "play_game",
    "simulate",
    "wilson_interval",
]

#: The move cap of every simulated game unless ``max_moves`` says otherwise.
DEFAULT_MAX_MOVES = 5000

_MAX_SEED = 2**64


class Executor(Protocol):
    """What :func:`simulate` needs of an executor: ``submit(fn, *args)`` returning a future.

    :class:`concurrent.futures.ProcessPoolExecutor`, Dask's
    ``distributed.Client(...).get_executor()`` and the Ray adapter in the docs
    all qualify.
    """

    def submit(self, fn: Any, /, *args: Any) -> Any:
        """Schedule ``fn(*args)``; return a future whose ``result()`` gives its value."""
        ...


@attrs.frozen
class GameResult:
    """How one simulated game went.

    Bots are numbered as in the ``bots`` argument of :func:`simulate` (0 and 1
    in Crapette); players as in the game (0 and 1).

    >>> from crapette.bots import GreedyBot
    >>> result = play_game("classic", (GreedyBot(), GreedyBot()), deal=3)
    >>> result.seats, result.winner in (0, 1, None), result.moves > 0
    ((0, 1), True, True)
    """

    #: The game's number in the simulation (0 for :func:`play_game`).
    index: int
    #: The seed the game was dealt from (:func:`crapette.new_game`).
    deal: int
    #: ``seats[player]`` is the bot that played as that player.
    seats: tuple[int, ...]
    #: The player who moved first.
    first_player: int
    #: The bot that won, or None for a game without a winner.
    winner: int | None
    #: Why the game ended. A Crapette game stopped by the move cap ends with
    #: ``EndReason.MOVE_LIMIT``. In another game: the string of its outcome's
    #: ``reason`` (``"over"`` if it has none), or ``"capped"``.
    reason: EndReason | str
    #: True if the game was stopped by the simulation's move cap (not by the rules).
    capped: bool
    #: Moves played.
    moves: int
    #: Points scored by each bot (in bot order), or None under rules without scoring
    #: (in another game: when its outcome has no ``scores``).
    points: tuple[int, ...] | None

    @property
    def first_bot(self) -> int:
        """The bot that moved first."""
        return self.seats[self.first_player]

    def to_dict(self) -> dict[str, Any]:
        """The result as a JSON-ready dict.

        >>> from crapette.bots import GreedyBot
        >>> play_game("casual", (GreedyBot(), GreedyBot()), deal=2).to_dict()["seats"]
        [0, 1]
        """
        return {
            "index": self.index,
            "deal": self.deal,
            "seats": list(self.seats),
            "first_player": self.first_player,
            "winner": self.winner,
            "reason": _reason_text(self.reason),
            "capped": self.capped,
            "moves": self.moves,
            "points": None if self.points is None else list(self.points),
        }


def _reason_text(reason: EndReason | str) -> str:
    return reason.value if isinstance(reason, EndReason) else str(reason)


def _rate(part: int, whole: int) -> float:
    return part / whole if whole else 0.0


@attrs.frozen
class SimulationReport:
    """The results of :func:`simulate`: the arguments, and every game's :class:`GameResult`.

    The totals are properties computed from the games. Two reports are equal
    when the arguments and every game are equal.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> report = simulate("casual", bots=(GreedyBot(), RandomBot(seed=2)), games=2, seed=0)
    >>> report.games, len(report.lengths), report.points is None
    (2, 2, True)
    >>> sum(report.wins) + report.draws
    2
    """

    #: The rules every game was played under (None for a game other than Crapette).
    rules: RuleSet | None
    #: The bots, described by their ``repr``.
    bots: tuple[str, ...]
    #: The seed the deals were derived from.
    seed: int
    #: The move cap of every game.
    max_moves: int
    #: Every game, in order.
    results: tuple[GameResult, ...]
    #: The name of the game played.
    game: str = "crapette"

    @property
    def games(self) -> int:
        """The number of games played."""
        return len(self.results)

    @property
    def wins(self) -> tuple[int, ...]:
        """Games won by each bot, in the order the bots were given."""
        counts = [0] * len(self.bots)
        for r in self.results:
            if r.winner is not None:
                counts[r.winner] += 1
        return tuple(counts)

    @property
    def draws(self) -> int:
        """Games without a winner (any reason)."""
        return sum(1 for r in self.results if r.winner is None)

    def _reason(self, reason: EndReason) -> int:
        return sum(1 for r in self.results if r.reason is reason and not r.capped)

    @property
    def emptied(self) -> int:
        """Games won by a player emptying reserve, hand and waste."""
        return self._reason(EndReason.EMPTIED)

    @property
    def stalemates(self) -> int:
        """Games ended by the classic stalemate rule (both players exhausted)."""
        return self._reason(EndReason.STALEMATE)

    @property
    def blocked(self) -> int:
        """Games ended by two passes in a row (ruling R6)."""
        return self._reason(EndReason.BLOCKED)

    @property
    def move_limits(self) -> int:
        """Games ended by the rules' own move limit."""
        return self._reason(EndReason.MOVE_LIMIT)

    @property
    def capped(self) -> int:
        """Games stopped by the simulation's move cap."""
        return sum(1 for r in self.results if r.capped)

    @property
    def endings(self) -> dict[str, int]:
        """How many games ended for each reason (by its string), and ``"capped"``: the games the cap stopped.

        >>> from crapette.bots import GreedyBot, RandomBot
        >>> simulate("classic", (GreedyBot(), RandomBot()), games=2).endings
        {'emptied': 2, 'capped': 0}
        """
        counts = collections.Counter(_reason_text(r.reason) for r in self.results if not r.capped)
        return {**dict(sorted(counts.items())), "capped": self.capped}

    @property
    def lengths(self) -> tuple[int, ...]:
        """The number of moves of each game, in game order."""
        return tuple(r.moves for r in self.results)

    @property
    def mean_length(self) -> float:
        """The mean number of moves per game."""
        return statistics.fmean(self.lengths) if self.results else 0.0

    @property
    def seat_wins(self) -> tuple[int, ...]:
        """Games won by player 0, by player 1 (and so on), whichever bot sat there."""
        counts = [0] * len(self.bots)
        for r in self.results:
            if r.winner is not None:
                counts[r.seats.index(r.winner)] += 1
        return tuple(counts)

    @property
    def first_mover_wins(self) -> int:
        """Games won by the player who moved first."""
        return sum(1 for r in self.results if r.winner is not None and r.winner == r.first_bot)

    @property
    def first_mover_win_rate(self) -> float:
        """The share of the games with a winner that the first mover won (0.5: no advantage)."""
        return _rate(self.first_mover_wins, self.games - self.draws)

    @property
    def points(self) -> tuple[int, ...] | None:
        """Points scored by each bot over all games, or None under rules without scoring.

        In another game: None when no game's outcome had ``scores``.
        """
        if self.rules is None:
            if all(r.points is None for r in self.results):
                return None
        elif self.rules.scoring is None:
            return None
        totals = [0] * len(self.bots)
        for r in self.results:
            if r.points is not None:
                for bot, points in enumerate(r.points):
                    totals[bot] += points
        return tuple(totals)

    def win_rate(self, bot: int) -> float:
        """The share of all games that ``bot`` (0 or 1 in Crapette) won.

        :raises ValueError: if ``bot`` is not the number of one of the bots.
        """
        if bot not in range(len(self.bots)) or isinstance(bot, bool):
            numbers = " or ".join(str(b) for b in range(len(self.bots)))
            raise ValueError(f"bot must be {numbers}, got {bot!r}")
        return _rate(self.wins[bot], self.games)

    def to_dict(self, *, games: bool = False) -> dict[str, Any]:
        """The report as a JSON-ready dict; with ``games=True`` it lists every game too.

        >>> from crapette.bots import GreedyBot, RandomBot
        >>> d = simulate("classic", bots=(GreedyBot(), RandomBot()), games=2).to_dict()
        >>> d["wins"], d["bots"]
        ([2, 0], ['GreedyBot()', 'RandomBot(seed=0)'])
        """
        lengths = self.lengths
        head: dict[str, Any] = (
            {"game": self.game} if self.rules is None else {"rules": str(self.rules)}
        )
        data: dict[str, Any] = {
            **head,
            "bots": list(self.bots),
            "games": self.games,
            "seed": self.seed,
            "max_moves": self.max_moves,
            "wins": list(self.wins),
            "draws": self.draws,
            "win_rates": [self.win_rate(0), self.win_rate(1)],
            "win_rate_intervals": [list(wilson_interval(w, self.games)) for w in self.wins],
            "points": None if self.points is None else list(self.points),
            "endings": self.endings
            if self.rules is None
            else {
                "emptied": self.emptied,
                "stalemate": self.stalemates,
                "blocked": self.blocked,
                "move_limit": self.move_limits,
                "capped": self.capped,
            },
            "lengths": {
                "mean": self.mean_length,
                "median": statistics.median(lengths) if lengths else 0,
                "min": min(lengths, default=0),
                "max": max(lengths, default=0),
            },
            "seat_wins": list(self.seat_wins),
            "first_mover_wins": self.first_mover_wins,
            "first_mover_win_rate": self.first_mover_win_rate,
        }
        if games:
            data["results"] = [r.to_dict() for r in self.results]
        return data

    def summary(self) -> str:
        """A table of the results, for people.

        >>> from crapette.bots import GreedyBot, RandomBot
        >>> print(simulate("classic", bots=(GreedyBot(), RandomBot()), games=2).summary())
        classic, 2 games from seed 0 (seats swapped every game, at most 5000 moves a game)
        bot                 wins  win rate   95% interval    points
        GreedyBot()            2    100.0%   34.2%-100.0%        ...
        RandomBot(seed=0)      0      0.0%     0.0%-65.8%         0
        draws 0; endings: emptied 2, stalemate 0, blocked 0, move limit 0, capped 0
        game length: mean ..., median ..., min ..., max ... moves
        the first mover won ... of 2 games with a winner (...%)
        """
        width = max(18, *(len(b) for b in self.bots))
        players = len(self.bots)
        title = self.game if self.rules is None else str(self.rules)
        seats = {1: "", 2: "seats swapped every game, "}.get(players, "seats rotated every game, ")
        lines = [
            f"{title}, {self.games} game{'' if self.games == 1 else 's'} from seed {self.seed} "
            f"({seats}at most {self.max_moves} moves a game)",
            f"{'bot':<{width}} {'wins':>5}  {'win rate':>8}  {'95% interval':>13}  {'points':>8}",
        ]
        points = self.points
        for i, name in enumerate(self.bots):
            low, high = wilson_interval(self.wins[i], self.games)
            pts = "-" if points is None else str(points[i])
            lines.append(
                f"{name:<{width}} {self.wins[i]:>5}  {self.win_rate(i):>8.1%}  "
                f"{f'{low:.1%}-{high:.1%}':>13}  {pts:>8}"
            )
        lengths = self.lengths
        if self.rules is None:
            endings = ", ".join(f"{reason} {count}" for reason, count in self.endings.items())
            lines.append(f"{'unwon' if players == 1 else 'draws'} {self.draws}; endings: {endings}")
        else:
            lines.append(
                f"draws {self.draws}; endings: emptied {self.emptied}, stalemate {self.stalemates}, "
                f"blocked {self.blocked}, move limit {self.move_limits}, capped {self.capped}"
            )
        if lengths:
            lines.append(
                f"game length: mean {self.mean_length:.1f}, median {statistics.median(lengths):g}, "
                f"min {min(lengths)}, max {max(lengths)} moves"
            )
        decided = self.games - self.draws
        if players > 1:
            lines.append(
                f"the first mover won {self.first_mover_wins} of {decided} game{'' if decided == 1 else 's'} with a winner "
                f"({self.first_mover_win_rate:.1%})"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def wilson_interval(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a rate: 95% confidence by default.

    Unlike the usual normal approximation it stays inside 0-1 and is not empty
    at 0% or 100%, so it suits win rates near the extremes.

    >>> low, high = wilson_interval(40, 40)
    >>> round(low, 3), high
    (0.912, 1.0)
    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if trials <= 0:
        return (0.0, 1.0)
    rate = successes / trials
    denominator = 1 + z * z / trials
    centre = (rate + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(rate * (1 - rate) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - spread), min(1.0, centre + spread))


def _bot_name(bot: object) -> str:
    return repr(bot)


def _describe(exc: BaseException) -> str:
    """``Type: message`` of an exception, cut short for a one-line message."""
    return brief(exc, 300)


# Errors ---------------------------------------------------------------------------------------


def _rebuild_error(cls: type[BaseException], args: tuple[Any, ...], state: dict[str, Any]) -> BaseException:
    error = cls.__new__(cls, *args)
    error.__dict__.update(state)
    return error


class SimulationError(RuntimeError):
    """:func:`simulate` stopped before playing every game: a game failed, or the executor lost some.

    :attr:`report` holds every game that had finished, :attr:`games` the
    games that failed. The error's ``__cause__`` is what went wrong (on an
    executor: the remote traceback, which ends with the original error).

    >>> from crapette.bots import RandomBot
    >>> class NotABot:  # a game fails when the bots cannot be copied for it
    ...     def choose(self, state): ...
    ...     def __deepcopy__(self, memo): raise RuntimeError("no copies")
    >>> try:
    ...     simulate("classic", (NotABot(), RandomBot()), games=3)
    ... except SimulationError as error:
    ...     print(error)
    ...     print(error.games, error.report.games)
    game 0 (deal 0) failed: RuntimeError: no copies
    (0,) 0

    .. versionadded:: 0.2.0
    """

    #: The games that had finished when the simulation stopped (fewer than asked), in game order.
    report: SimulationReport
    #: The numbers of the games that failed.
    games: tuple[int, ...]

    def __init__(self, message: str, *, report: SimulationReport, games: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.report = report
        self.games = games

    def __reduce__(self) -> tuple[Any, ...]:
        # The error travels back from an executor's workers by pickling: keep every attribute.
        return (_rebuild_error, (type(self), self.args, self.__dict__))


class BotError(SimulationError):
    """A bot failed in game :attr:`game`: its ``choose`` raised (the error's ``__cause__``).

    The message names the bot, the game, its deal and the move;
    :attr:`~SimulationError.report` holds the games that had finished.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> class Sulky:
    ...     def choose(self, state):
    ...         if state.move_count > 300:
    ...             raise RuntimeError("I give up")
    ...         return RandomBot().choose(state)
    ...     def __repr__(self):
    ...         return "Sulky()"
    >>> try:
    ...     simulate("classic", (GreedyBot(), Sulky()), games=10)
    ... except BotError as error:
    ...     print(error)
    ...     print(error.bot, error.player, error.game, error.deal, error.move)
    ...     print(error.report.games, error.report.wins)
    Sulky() (bot 1, as player 0) failed in game 1 (deal 0) at move 301: RuntimeError: I give up
    1 0 1 0 301
    1 (1, 0)

    .. versionadded:: 0.2.0
    """

    #: The bot's number in ``bots`` (its name is ``report.bots[bot]``).
    bot: int
    #: The player it was playing in that game.
    player: int
    #: The game's number in the simulation.
    game: int
    #: The seed the game was dealt from.
    deal: int
    #: The moves played in that game before the failure.
    move: int

    def __init__(
        self, message: str, *, report: SimulationReport, bot: int, player: int, game: int, deal: int, move: int
    ) -> None:
        super().__init__(message, report=report, games=(game,))
        self.bot = bot
        self.player = player
        self.game = game
        self.deal = deal
        self.move = move


class IllegalBotMoveError(BotError, IllegalMoveError):
    """A bot chose a move that the game refused: an illegal move, or something that is not a move.

    It is also an :class:`~crapette.IllegalMoveError`, which :func:`simulate` raised
    for an illegal move before 0.2.0, so code that catches that still does. Its
    ``__cause__`` is the error of ``apply_move`` that refused the move (none
    for a Crapette bot that returned something that is not a
    :class:`~crapette.Move`).

    .. versionadded:: 0.2.0
    """


class SimulationInterrupted(KeyboardInterrupt):
    """:func:`simulate` was interrupted (Ctrl-C): :attr:`report` holds the games that had finished.

    It is a :class:`KeyboardInterrupt`, so code that does not know it stops
    as before, and ``except Exception`` does not catch it.

    .. versionadded:: 0.2.0
    """

    #: The games that had finished when the simulation was interrupted, in game order.
    report: SimulationReport

    def __init__(self, message: str, *, report: SimulationReport) -> None:
        super().__init__(message)
        self.report = report

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild_error, (type(self), self.args, self.__dict__))


class _Failure(Exception):
    """A game that failed, on its way to the public error (which needs the report of the games done)."""

    def __init__(self, kind: type[SimulationError], message: str, **fields: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields

    def error(self, report: SimulationReport) -> SimulationError:
        return self.kind(str(self), report=report, **self.fields)


def _bot_failure(
    kind: type[BotError], message: str, seats: tuple[int, ...], player: int, index: int, deal: int, move: int
) -> _Failure:
    return _Failure(kind, message, bot=seats[player], player=player, game=index, deal=deal, move=move)


def _failed_choice(
    bot: object, seats: tuple[int, ...], player: int, index: int, deal: int, move: int, exc: Exception
) -> _Failure:
    message = (
        f"{brief(bot)} (bot {seats[player]}, as player {player}) failed in game {index} "
        f"(deal {deal}) at move {move}: {_describe(exc)}"
    )
    return _bot_failure(BotError, message, seats, player, index, deal, move)


def _illegal(
    bot: object, seats: tuple[int, ...], player: int, index: int, deal: int, move: int, exc: Exception
) -> _Failure:
    message = (
        f"{brief(bot)} as player {player} chose an illegal move in game {index} "
        f"(deal {deal}) at move {move}: {exc}"
    )
    return _bot_failure(IllegalBotMoveError, message, seats, player, index, deal, move)


# Playing games --------------------------------------------------------------------------------


def _points(outcome: Any, seats: tuple[int, ...]) -> tuple[int, ...] | None:
    scores = outcome.scores
    if scores is None:
        return None
    points = [0] * len(seats)
    for player, bot in enumerate(seats):
        points[bot] += scores[player]
    return _shared(tuple(points))


@functools.lru_cache(maxsize=4096)
def _shared(points: tuple[int, ...]) -> tuple[int, ...]:
    """One tuple for equal points: the results of many games share the few there are."""
    return points


def _play(
    rules: RuleSet, bots: Sequence[Any], index: int, deal: int, seats: tuple[int, ...], max_moves: int
) -> GameResult:
    state = new_game(rules, deal)
    first = state.current_player
    while state.outcome is None and state.move_count < max_moves:
        player = state.current_player
        bot = bots[seats[player]]
        try:
            move = bot.choose(state)
        except Exception as exc:
            raise _failed_choice(bot, seats, player, index, deal, state.move_count, exc) from exc
        if not isinstance(move, Move):
            raise _bot_failure(
                IllegalBotMoveError,
                f"{brief(bot)}.choose() returned {brief(move)}, not a Move "
                f"(game {index}, deal {deal}, move {state.move_count})",
                seats, player, index, deal, state.move_count,
            )
        try:
            state = apply_move(state, move)
        except (IllegalMoveError, TypeError) as exc:
            raise _illegal(bot, seats, player, index, deal, state.move_count, exc) from exc
    outcome = state.outcome
    capped = outcome is None
    if outcome is None:
        outcome = settle(rules, state.piles, EndReason.MOVE_LIMIT)
    winner = None if outcome.winner is None else seats[outcome.winner]
    return GameResult(
        index=index,
        deal=deal,
        seats=seats,
        first_player=first,
        winner=winner,
        reason=outcome.reason,
        capped=capped,
        moves=state.move_count,
        points=_points(outcome, seats),
    )


def _play_other(
    game: CardGame[Any, Any, Any],
    bots: Sequence[Any],
    index: int,
    deal: int,
    seats: tuple[int, ...],
    max_moves: int,
) -> GameResult:
    """One game of a game other than Crapette, through the protocol."""
    state = game.new_game(deal)
    first = state.current_player
    moves = 0
    apply = game.apply_move
    while not state.is_over and moves < max_moves:
        player = state.current_player
        bot = bots[seats[player]]
        try:
            move = bot.choose(state)
        except Exception as exc:
            raise _failed_choice(bot, seats, player, index, deal, moves, exc) from exc
        try:
            state = apply(state, move)
        except (IllegalMoveError, TypeError) as exc:
            raise _illegal(bot, seats, player, index, deal, moves, exc) from exc
        moves += 1
    outcome = state.outcome
    if outcome is None:
        return GameResult(index, deal, seats, first, None, "capped", True, moves, None)
    winner = None if outcome.winner is None else seats[outcome.winner]
    reason = getattr(outcome, "reason", None)
    return GameResult(
        index=index,
        deal=deal,
        seats=seats,
        first_player=first,
        winner=winner,
        reason="over" if reason is None else _reason_text(reason),
        capped=False,
        moves=moves,
        points=_points(outcome, seats),
    )


def _report(
    game: RuleSet | CardGame[Any, Any, Any],
    bots: Sequence[object],
    seed: int,
    max_moves: int,
    results: Iterable[GameResult],
) -> SimulationReport:
    names = tuple(_bot_name(bot) for bot in bots)
    if isinstance(game, RuleSet):
        return SimulationReport(game, names, seed, max_moves, tuple(results))
    return SimulationReport(None, names, seed, max_moves, tuple(results), game_name(game))


@functools.lru_cache(maxsize=None)
def _rotations(players: int) -> tuple[tuple[int, ...], ...]:
    """``seats`` of game i is ``_rotations(players)[i % players]``: player p is played by bot (p + i) % players.

    The results share these tuples, which keeps a report of many games small.
    """
    return tuple(tuple((p + r) % players for p in range(players)) for r in range(players))


def _play_chunk(
    target: RuleSet | Any, bots: tuple[Any, ...], start: int, stop: int, seed: int, max_moves: int
) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` of a simulation (in a worker, or in this process).

    :raises SimulationError: naming the game that failed; its report holds the
        games of this chunk that finished before.
    """
    game = target if isinstance(target, RuleSet) else _resolve(target)
    play: Callable[..., GameResult] = _play if isinstance(game, RuleSet) else _play_other
    players = len(bots)
    rotations = _rotations(players)
    results: list[GameResult] = []
    for index in range(start, stop):
        deal = seed + index // players
        try:
            # Every game starts from a fresh copy of the bots, so a bot that keeps state
            # gives the same results however the games are split among workers.
            results.append(play(game, copy.deepcopy(bots), index, deal, rotations[index % players], max_moves))
        except _Failure as failure:
            raise failure.error(_report(game, bots, seed, max_moves, results)) from failure.__cause__
        except Exception as exc:
            raise SimulationError(
                f"game {index} (deal {deal}) failed: {_describe(exc)}",
                report=_report(game, bots, seed, max_moves, results),
                games=(index,),
            ) from exc
    return results


def _check_rules(rules: object) -> RuleSet | CardGame[Any, Any, Any]:
    """The rule set of a Crapette game, or the other game to play."""
    if isinstance(rules, str):
        return RuleSet.from_name(rules)
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, Crapette):
        return rules.rules
    try:
        return check_card_game(rules)
    except TypeError as exc:
        raise TypeError(
            f"rules must be a RuleSet or a preset name, or a game (crapette.protocol.CardGame); "
            f"got {type(rules).__name__}: {exc}"
        ) from None


def _check_int(name: str, value: object, low: int) -> int:
    return check_int(name, value, low)


_NO_GAME = object()


def _check_bots(bots: object, target: RuleSet | CardGame[Any, Any, Any] | None = None) -> tuple[Any, ...]:
    other = None if target is None or isinstance(target, RuleSet) else target
    count = 2 if other is None else other.num_players
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence) or len(bots) != count:
        if other is None:
            raise TypeError(f"bots must be a pair of bots (a, b), got {brief(bots)}")
        raise TypeError(
            f"bots must be a sequence of {count} bot{'s' if count > 1 else ''}, one per player "
            f"of {game_name(other)}, got {brief(bots)}"
        )
    for bot in bots:
        if not callable(getattr(bot, "choose", None)):
            raise TypeError(f"a bot needs a choose(state) method, got {brief(bot)}")
        # The library's bots say which game they play: it must be this one.
        plays = getattr(bot, "game", _NO_GAME)
        if plays is _NO_GAME:
            continue
        if other is None and plays is not None:
            raise TypeError(f"{_bot_name(bot)} plays {game_name(plays)}, not Crapette")
        if other is not None and plays is not other and plays != other:
            wanted = game_name(other)
            raise TypeError(
                f"{_bot_name(bot)} plays {'Crapette' if plays is None else game_name(plays)}, "
                f"not {wanted}: build it with game={wanted}"
            )
    return tuple(bots)


@overload
def play_game(
    rules: RuleSet | str, bots: Sequence[Bot], *, deal: int = 0, max_moves: int = DEFAULT_MAX_MOVES
) -> GameResult: ...


@overload
def play_game(
    rules: CardGame[Any, Any, Any],
    bots: Sequence[Any],
    *,
    deal: int = 0,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> GameResult: ...


def play_game(
    rules: RuleSet | str | CardGame[Any, Any, Any],
    bots: Sequence[Any],
    *,
    deal: int = 0,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> GameResult:
    """Play one game dealt from ``deal``: ``bots[0]`` as player 0, ``bots[1]`` as player 1.

    The game stops after ``max_moves`` moves if the rules have not ended it;
    it is then settled as if the rules' move limit had been reached (a draw
    without scoring; the lower penalty wins with it) and marked ``capped``.

    ``rules`` may also be another game (:class:`~crapette.protocol.CardGame`),
    with one bot per player. A game of it that the cap stops has no winner
    and no points, and its reason is ``"capped"``.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> result = play_game("classic", (GreedyBot(), RandomBot()), deal=1)
    >>> result.winner, result.reason
    (0, EndReason.EMPTIED)

    :raises BotError: if a bot's ``choose`` raises (the error names the bot,
        the deal and the move; its ``__cause__`` is the bot's error).
    :raises IllegalBotMoveError: if a bot chooses an illegal move or returns
        something that is not a move (it is an :class:`~crapette.IllegalMoveError`).

    .. versionchanged:: 0.2.0
       ``rules`` may be any card game. A bot that fails raises :class:`BotError`;
       one that returns something that is not a Move raises
       :class:`IllegalBotMoveError` (it was a :class:`TypeError`).
    """
    target = _check_rules(rules)
    chosen = _check_bots(bots, target)
    if not isinstance(deal, int) or isinstance(deal, bool) or not 0 <= deal < _MAX_SEED:
        raise ValueError(f"deal must be an int with 0 <= deal < 2**64, got {brief(deal)}")
    _check_int("max_moves", max_moves, 1)
    seats = tuple(range(len(chosen)))
    try:
        if isinstance(target, RuleSet):
            return _play(target, chosen, 0, deal, seats, max_moves)
        return _play_other(target, chosen, 0, deal, seats, max_moves)
    except _Failure as failure:
        raise failure.error(_report(target, chosen, deal, max_moves, ())) from failure.__cause__


# Running many games ---------------------------------------------------------------------------


class _Collector:
    """The results of a simulation as they come, kept in game order whatever order they come in."""

    def __init__(self, progress: Progress) -> None:
        self.results: list[GameResult] = []
        self.waiting: dict[int, Sequence[GameResult]] = {}  # chunks that came before the ones ahead of them
        self.count = 0
        self.progress = progress
        progress.update(0)

    def add(self, start: int, results: Sequence[GameResult], show: bool = True) -> None:
        if start == len(self.results):
            self.results.extend(results)
            while len(self.results) in self.waiting:
                self.results.extend(self.waiting.pop(len(self.results)))
        elif results:
            self.waiting[start] = results
        self.count += len(results)
        if show:
            self.progress.update(self.count)

    def games(self) -> Iterator[GameResult]:
        yield from self.results
        for start in sorted(self.waiting):
            yield from self.waiting[start]


def _in_flight(executor: Executor) -> int:
    """How many chunks to keep submitted: four per worker of the executor, or 256 if it does not say."""
    workers: object = getattr(executor, "_max_workers", None)  # concurrent.futures' pools
    if not isinstance(workers, int):
        try:  # a Dask client's executor
            workers = sum(executor._client.nthreads().values())  # type: ignore[attr-defined]
        except Exception:
            workers = 0
    return 4 * workers if isinstance(workers, int) and workers > 0 else 256


def _ranges(numbers: Iterable[int]) -> str:
    """``0-3, 8, 10-11`` for the numbers 0, 1, 2, 3, 8, 10, 11."""
    spans: list[list[int]] = []
    for n in sorted(numbers):
        if spans and n == spans[-1][1] + 1:
            spans[-1][1] = n
        else:
            spans.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _run_on(
    executor: Executor,
    collector: _Collector,
    target: RuleSet | Any,
    bots: tuple[Any, ...],
    games: int,
    seed: int,
    max_moves: int,
) -> None:
    """Play the games on ``executor``: chunks submitted as others finish, a bounded number at a time."""
    size = max(1, min(25, games // 64))
    limit = _in_flight(executor)
    starts = iter(range(0, games, size))
    in_flight: dict[Any, range] = {}  # future: its games, in the order they were submitted
    standard = True

    def lost(chunks: Iterable[range], exc: BaseException) -> SimulationError:
        numbers = tuple(sorted(i for chunk in chunks for i in chunk))
        return SimulationError(
            f"game{'s' if len(numbers) > 1 else ''} {_ranges(numbers)} failed on the executor: {_describe(exc)}",
            report=_report(_resolve(target), bots, seed, max_moves, ()),
            games=numbers,
        )

    try:
        while True:
            for start in starts:
                chunk = range(start, min(start + size, games))
                try:
                    future = executor.submit(_play_chunk, target, bots, chunk.start, chunk.stop, seed, max_moves)
                except Exception as exc:
                    raise lost([chunk], exc) from exc
                in_flight[future] = chunk
                standard = standard and isinstance(future, concurrent.futures.Future)
                if len(in_flight) >= limit:
                    break
            if not in_flight:
                return
            if standard:
                done, _ = concurrent.futures.wait(in_flight, return_when=concurrent.futures.FIRST_COMPLETED)
                finished = sorted(done, key=lambda f: in_flight[f].start)
            else:  # futures that cannot be waited for together: the oldest first
                finished = [next(iter(in_flight))]
            failures: list[tuple[range, BaseException]] = []
            for future in finished:
                chunk = in_flight.pop(future)
                try:
                    results = future.result()
                except (Exception, KeyboardInterrupt) as exc:
                    failures.append((chunk, exc))
                else:
                    collector.add(chunk.start, results)
            if failures:
                first = failures[0][1]
                if isinstance(first, (SimulationError, KeyboardInterrupt)):
                    raise first
                # A worker that died, a task that could not travel, ...: every game of these tasks is lost.
                raise lost([chunk for chunk, _ in failures], first) from first
    except BaseException:
        # Cancel what has not started; keep what finished meanwhile (its games are in the report).
        for future, chunk in in_flight.items():
            try:
                if not future.cancel() and standard and future.done() and future.exception() is None:
                    collector.add(chunk.start, future.result(), show=False)
            except Exception:  # a future that cannot say: its games are lost
                pass
        raise


@overload
def simulate(
    rules: RuleSet | str,
    bots: Sequence[Bot],
    games: int = 100,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool | Callable[[int, int], object] = False,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimulationReport: ...


@overload
def simulate(
    rules: CardGame[Any, Any, Any],
    bots: Sequence[Any],
    games: int = 100,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool | Callable[[int, int], object] = False,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimulationReport: ...


def simulate(
    rules: RuleSet | str | CardGame[Any, Any, Any],
    bots: Sequence[Any],
    games: int = 100,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool | Callable[[int, int], object] = False,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> SimulationReport:
    """Play ``games`` games between ``bots = (a, b)`` and report the results.

    ``rules`` is the rule set of Crapette (a :class:`~crapette.RuleSet` or a
    preset name), or any other game (see *Other games* below).

    Game ``i`` is dealt from seed ``seed + i // 2`` (:func:`crapette.new_game`),
    so every deal is played twice, once with each bot as player 0: ``a`` is
    player 0 in the even games, ``b`` in the odd ones. Every game starts with a
    fresh copy of each bot.

    Every game is capped at ``max_moves`` moves (5000 by default; the rules'
    own ``move_limit`` applies too when it is lower), so a simulation always
    ends, even between bots that would move cards to and fro forever. A
    capped game is settled as if the rules' move limit had been reached: a
    draw without scoring, else the lower penalty wins (:ref:`section 11 <rules-11>`
    of the rules); the report counts such games as ``capped`` (ruling :ref:`R10 <R10>`).

    ``executor`` runs the games elsewhere: any object with
    ``submit(fn, *args)`` returning a future, e.g. a
    :class:`concurrent.futures.ProcessPoolExecutor` or a Dask client's
    ``get_executor()``. The bots must then be picklable. The games go in
    chunks of up to 25, submitted as others finish: at most four chunks per
    worker are waiting or running at a time (256 chunks when the executor
    does not say how many workers it has), so memory does not grow with
    ``games`` beyond the results. The report is the same as without it.

    ``progress`` shows how far the games have got. ``False`` (the default)
    prints nothing. ``True`` writes to stderr: on a terminal, tqdm's bar
    (``pip install crapette[cli]``) or else a line redrawn in place, both
    cleared at the end; elsewhere (a log, a pipe) a line each time another
    tenth of the games is done, and at least every 10 seconds. A function
    is called as ``progress(done, total)`` in this process: with 0 first,
    then each time a game (on an executor: a chunk of games) is done.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> report = simulate("classic", (GreedyBot(), RandomBot(seed=3)), games=6, seed=42)
    >>> report.wins, report.seat_wins, [r.deal for r in report.results]
    ((5, 1), (2, 4), [42, 42, 43, 43, 44, 44])
    >>> seen = []
    >>> def progress(done, total):
    ...     seen.append(f"{done}/{total}")
    >>> report = simulate("classic", (GreedyBot(), RandomBot()), games=3, progress=progress)
    >>> seen
    ['0/3', '1/3', '2/3', '3/3']

    **When it stops early**, the games that had finished are not lost: the
    error carries them as a partial :class:`SimulationReport` in its
    ``report``. A bot that fails raises :class:`BotError` (it names the bot,
    the game, its deal and the move); a task that the executor loses (a
    worker that dies) raises :class:`SimulationError` naming its games;
    Ctrl-C raises :class:`SimulationInterrupted`, a :class:`KeyboardInterrupt`.

    **Other games.** ``rules`` may be any game that implements
    :class:`crapette.protocol.CardGame` (a module or an object), and ``bots``
    then holds one bot per player (the library's bots built with ``game=``
    that game). Game ``i`` is dealt from ``game.new_game(seed + i // n)``
    for ``n`` players, and player ``p`` is played by bot ``(p + i) % n``: every
    deal is played once with each bot in each seat's rotation. A game that the
    cap stops counts as ``capped``, with no winner and no points. Points are
    the outcome's ``scores``; the report's ``rules`` is None and its ``game``
    the game's name. With an executor, a game that is a module must be
    importable by its name in the workers.

    :raises TypeError: if ``bots`` is not a pair of objects with a ``choose`` method
        (one per player for another game), a bot plays another game, or an
        argument has the wrong type.
    :raises ValueError: if ``games`` or ``max_moves`` is below 1, or the seeds leave
        ``0 <= seed < 2**64``.
    :raises InvalidRulesError: if ``rules`` names no preset.
    :raises BotError: if a bot's ``choose`` raises: its ``report`` holds the
        games that had finished, its ``__cause__`` is the bot's error.
    :raises IllegalBotMoveError: if a bot chooses an illegal move, or returns
        something that is not a move (it is an :class:`~crapette.IllegalMoveError`
        and a :class:`BotError`).
    :raises SimulationError: if a game fails otherwise (a bot that cannot be
        copied, a game that fails), or the executor loses a task (a worker that
        dies, bots that cannot be pickled): it names the games lost, and its
        ``report`` holds the games that had finished.
    :raises SimulationInterrupted: on Ctrl-C (:class:`KeyboardInterrupt`): its
        ``report`` holds the games that had finished.

    .. versionchanged:: 0.2.0
       ``rules`` may be any card game. The errors keep the games that had
       finished and name the game that failed; ``progress`` may be a function,
       and ``True`` no longer needs tqdm. The games go to an executor as
       others finish, not all at once.
    """
    target = _check_rules(rules)
    chosen = _check_bots(bots, target)
    _check_int("games", games, 1)
    _check_int("seed", seed, 0)
    _check_int("max_moves", max_moves, 1)
    players = len(chosen)
    last = seed + (games - 1) // players
    if last >= _MAX_SEED:
        raise ValueError(f"the deal seeds {seed} to {last} must stay below 2**64")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"executor must have a submit(fn, *args) method, got {brief(executor)}")
    shown = _progress(progress, games)
    try:
        collector = _Collector(shown)
        try:
            if executor is None:
                for index in range(games):
                    collector.add(index, _play_chunk(target, chosen, index, index + 1, seed, max_moves))
            else:
                portable = target if isinstance(target, RuleSet) else _portable(target)
                _run_on(executor, collector, portable, chosen, games, seed, max_moves)
        except SimulationError as error:
            # The games of the failed chunk that finished before the failure, and every other.
            if error.report.results:
                collector.add(error.report.results[0].index, error.report.results, show=False)
            error.report = _report(target, chosen, seed, max_moves, collector.games())
            raise
        except KeyboardInterrupt as interrupt:
            report = _report(target, chosen, seed, max_moves, collector.games())
            raise SimulationInterrupted(
                f"interrupted after {report.games} of {games} games", report=report
            ).with_traceback(interrupt.__traceback__) from None
    finally:
        shown.close()
    return _report(target, chosen, seed, max_moves, collector.results)
