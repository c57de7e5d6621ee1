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

import concurrent.futures
import copy
import functools
import io
import pickle
import sys
import types
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import BrokenExecutor
from typing import TYPE_CHECKING, Any, Protocol, overload

from ._core.checks import check_int
from ._core.messages import brief
from ._core.rules import RuleSet
from ._play.progress import Progress
from ._play.progress import progress as _progress
from ._play.report import (
    Failure,
    GameResult,
    SimulationReport,
    bot_failure,
    bot_name,
    describe,
    failed_choice,
    illegal,
    make_report,
    seat_points,
    wilson_interval,
)
from .errors import (
    BotError,
    IllegalBotMoveError,
    IllegalMoveError,
    SimulationError,
    SimulationInterrupted,
)
from .protocol import (
    DEFAULT_MAX_MOVES,
    CardGame,
    Crapette,
    check_card_game,
    game_name,
    portable,
    resolve,
    same_game,
)

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


# Playing games --------------------------------------------------------------------------------


def _play(
    game: CardGame[Any, Any, Any],
    bots: Sequence[Any],
    index: int,
    deal: int,
    seats: tuple[int, ...],
    max_moves: int,
) -> GameResult:
    """One game, through the protocol: Crapette's and every other game's."""
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
            raise failed_choice(bot, seats, player, index, deal, moves, exc) from exc
        try:
            state = apply(state, move)
        except IllegalMoveError as exc:
            raise illegal(bot, seats, player, index, deal, moves, exc) from exc
        except TypeError as exc:
            raise bot_failure(
                IllegalBotMoveError,
                f"{brief(bot)}.choose() returned {brief(move)}, not a Move of {game_name(game)} "
                f"(game {index}, deal {deal}, move {moves}): {exc}",
                seats, player, index, deal, moves,
            ) from exc
        moves += 1
    outcome = state.outcome
    capped = outcome is None
    if outcome is None:
        cut_short = getattr(game, "cut_short", None)
        outcome = None if cut_short is None else cut_short(state)
        if outcome is None:
            return GameResult(index, deal, seats, first, None, "capped", True, moves, None)
    winner = None if outcome.winner is None else seats[outcome.winner]
    # An ending of the rules' own names itself (Outcome.ending); else the reason says why.
    reason = getattr(outcome, "ending", None) or getattr(outcome, "reason", None)
    return GameResult(
        index=index,
        deal=deal,
        seats=seats,
        first_player=first,
        winner=winner,
        reason="over" if reason is None else reason if isinstance(reason, str) else str(reason),
        capped=capped,
        moves=moves,
        points=seat_points(outcome, seats),
    )


@functools.lru_cache(maxsize=None)
def _rotations(players: int) -> tuple[tuple[int, ...], ...]:
    """``seats`` of game i is ``_rotations(players)[i % players]``: player p is played by bot (p + i) % players.

    The results share these tuples, which keeps a report of many games small.
    """
    return tuple(tuple((p + r) % players for p in range(players)) for r in range(players))


def _play_chunk(
    target: Any, bots: tuple[Any, ...], start: int, stop: int, seed: int, max_moves: int
) -> list[GameResult]:
    """Games ``start`` to ``stop - 1`` of a simulation (in a worker, or in this process).

    :raises SimulationError: naming the game that failed; its report holds the
        games of this chunk that finished before.
    """
    game = resolve(target)
    play = _play
    players = len(bots)
    rotations = _rotations(players)
    results: list[GameResult] = []
    for index in range(start, stop):
        deal = seed + index // players
        try:
            # Every game starts from a fresh copy of the bots, so a bot that keeps state
            # gives the same results however the games are split among workers.
            results.append(play(game, copy.deepcopy(bots), index, deal, rotations[index % players], max_moves))
        except Failure as failure:
            raise failure.error(make_report(game, bots, seed, max_moves, results)) from failure.__cause__
        except Exception as exc:
            raise SimulationError(
                f"game {index} (deal {deal}) failed: {describe(exc)}",
                report=make_report(game, bots, seed, max_moves, results),
                games=(index,),
            ) from exc
    return results


def _check_rules(rules: object) -> CardGame[Any, Any, Any]:
    """The game to play: Crapette under the rules given, or the other game."""
    if isinstance(rules, str):
        return Crapette(RuleSet.from_name(rules))
    if isinstance(rules, RuleSet):
        return Crapette(rules)
    try:
        return check_card_game(rules)
    except TypeError as exc:
        raise TypeError(
            f"rules must be a RuleSet or a preset name, or a game (crapette.protocol.CardGame); "
            f"got {type(rules).__name__}: {exc}"
        ) from None


_NO_GAME = object()


#: Crapette under any rules: what a bot built without ``game=`` plays.
_CRAPETTE = Crapette("classic")


def _check_bots(bots: object, target: CardGame[Any, Any, Any] | None = None) -> tuple[Any, ...]:
    other = None if target is None or same_game(target, _CRAPETTE) else target
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
        crapette = plays is None or same_game(plays, _CRAPETTE)
        if other is None and not crapette:
            raise TypeError(f"{bot_name(bot)} plays {game_name(plays)}, not Crapette")
        if other is not None and not same_game(plays, other):
            wanted = game_name(other)
            raise TypeError(
                f"{bot_name(bot)} plays {'Crapette' if crapette else game_name(plays)}, "
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
    check_int("max_moves", max_moves, 1)
    seats = tuple(range(len(chosen)))
    try:
        return _play(target, chosen, 0, deal, seats, max_moves)
    except Failure as failure:
        raise failure.error(make_report(target, chosen, deal, max_moves, ())) from failure.__cause__


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


def _defined_where(payload: object) -> dict[str, set[str]]:
    """The modules of the classes and functions that pickling ``payload`` refers to by name."""
    found: dict[str, set[str]] = {}

    class _Scan(pickle.Pickler):
        def persistent_id(self, obj: object) -> None:
            named = obj if isinstance(obj, (type, types.FunctionType)) else type(obj)
            module = getattr(named, "__module__", None)
            if isinstance(module, str):
                found.setdefault(module, set()).add(getattr(named, "__qualname__", "?"))
            return None

    try:
        _Scan(io.BytesIO()).dump(payload)
    except Exception:
        pass
    return found


def _unimportable(module: str) -> bool:
    """True if a fresh worker could not import ``module`` by its name."""
    if module == "__main__":
        return True
    loaded = sys.modules.get(module)
    return loaded is not None and getattr(loaded, "__spec__", None) is None


def _broken_pool_hint(target: Any, bots: Sequence[object]) -> str:
    """Why a process pool broke, most likely, and how to fix it: for the message of the error."""
    suspects = sorted(
        f"{name} (in {module})"
        for module, names in _defined_where((target, tuple(bots))).items()
        if _unimportable(module)
        for name in names
    )
    found = f" These are defined where a worker may not find them: {', '.join(suspects[:6])}." if suspects else ""
    return (
        ". A worker process died: most likely it could not unpickle the task (its own traceback, on its "
        "stderr, says why). The rules, their rule parts, the game and the bots travel to the workers "
        "by pickling, and a worker finds a class or function only by importing its module: one defined "
        "in __main__ (a notebook, an interactive session), in a module made at run time, or after the "
        f"pool's workers started cannot be found there.{found} Fix: define them in a module the workers "
        "can import (a .py file on sys.path) and start a new executor, or simulate without executor="
    )


def _run_on(
    executor: Executor,
    collector: _Collector,
    target: Any,
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
        hint = _broken_pool_hint(target, bots) if isinstance(exc, BrokenExecutor) else ""
        return SimulationError(
            f"game{'s' if len(numbers) > 1 else ''} {_ranges(numbers)} failed on the executor: {describe(exc)}{hint}",
            report=make_report(resolve(target), bots, seed, max_moves, ()),
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
    (``pip install tqdm``, or the ``cli`` extra) or else a line redrawn in place, both
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
    check_int("games", games, 1)
    check_int("seed", seed, 0)
    check_int("max_moves", max_moves, 1)
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
                _run_on(executor, collector, portable(target), chosen, games, seed, max_moves)
        except SimulationError as error:
            # The games of the failed chunk that finished before the failure, and every other.
            if error.report.results:
                collector.add(error.report.results[0].index, error.report.results, show=False)
            error.report = make_report(target, chosen, seed, max_moves, collector.games())
            raise
        except KeyboardInterrupt as interrupt:
            report = make_report(target, chosen, seed, max_moves, collector.games())
            raise SimulationInterrupted(
                f"interrupted after {report.games} of {games} games", report=report
            ).with_traceback(interrupt.__traceback__) from None
    finally:
        shown.close()
    return make_report(target, chosen, seed, max_moves, collector.results)
