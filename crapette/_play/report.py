"""The results of a simulation and its errors: what :mod:`crapette.simulation` reports.

Private: every name here is public in :mod:`crapette.simulation`, and its
classes say so (their ``__module__``), so that their doctests, reprs and
pickles name the public module.
"""

from __future__ import annotations

import collections
import functools
import math
import statistics
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from .._core.messages import brief
from .._core.outcome import EndReason
from .._core.rules import RuleSet
from ..errors import BotError, IllegalBotMoveError, SimulationError
from ..protocol import game_name


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
    #: ``EndReason.MOVE_LIMIT``; one that an ending of the rules' own ended, with
    #: that ending's text (:attr:`Outcome.ending <crapette.Outcome.ending>`,
    #: ``"no-progress:20"``). In another game: the string of its outcome's
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


def bot_name(bot: object) -> str:
    return repr(bot)


def describe(exc: BaseException) -> str:
    """``Type: message`` of an exception, cut short for a one-line message."""
    return brief(exc, 300)


# Errors ---------------------------------------------------------------------------------------


class Failure(Exception):
    """A game that failed, on its way to the public error (which needs the report of the games done)."""

    def __init__(self, kind: type[SimulationError], message: str, **fields: Any) -> None:
        super().__init__(message)
        self.kind = kind
        self.fields = fields

    def error(self, report: SimulationReport) -> SimulationError:
        return self.kind(str(self), report=report, **self.fields)


def bot_failure(
    kind: type[BotError], message: str, seats: tuple[int, ...], player: int, index: int, deal: int, move: int
) -> Failure:
    return Failure(kind, message, bot=seats[player], player=player, game=index, deal=deal, move=move)


def failed_choice(
    bot: object, seats: tuple[int, ...], player: int, index: int, deal: int, move: int, exc: Exception
) -> Failure:
    message = (
        f"{brief(bot)} (bot {seats[player]}, as player {player}) failed in game {index} "
        f"(deal {deal}) at move {move}: {describe(exc)}"
    )
    return bot_failure(BotError, message, seats, player, index, deal, move)


def illegal(
    bot: object, seats: tuple[int, ...], player: int, index: int, deal: int, move: int, exc: Exception
) -> Failure:
    message = (
        f"{brief(bot)} as player {player} chose an illegal move in game {index} "
        f"(deal {deal}) at move {move}: {exc}"
    )
    return bot_failure(IllegalBotMoveError, message, seats, player, index, deal, move)


def seat_points(outcome: Any, seats: tuple[int, ...]) -> tuple[int, ...] | None:
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


def make_report(
    game: Any,
    bots: Sequence[object],
    seed: int,
    max_moves: int,
    results: Iterable[GameResult],
) -> SimulationReport:
    names = tuple(bot_name(bot) for bot in bots)
    rules = getattr(game, "rules", None)
    if isinstance(rules, RuleSet) and game_name(game) == "crapette":
        return SimulationReport(rules, names, seed, max_moves, tuple(results))
    return SimulationReport(None, names, seed, max_moves, tuple(results), game_name(game))


for _public in (GameResult, SimulationReport):
    _public.__module__ = "crapette.simulation"
wilson_interval.__module__ = "crapette.simulation"
