"""PlanningBot: a player that decides whole turn segments, never single moves.

Within a turn everything that decides a choice is visible until a move
reveals a card, so the bot lists every position its turn can reach before a
reveal (:func:`~crapette.turn_ends`), ranks them with one evaluator, and
tries the few best, each followed by every move that leaves it (a draw, a
reserve play that uncovers a card, End turn, Pass), in worlds dealt from the
public view and judged by another (by default, played on to the end of the
opponent's next turn). It then plays the moves to the best of them one by
one, without thinking again until a card is revealed; so it never moves a
card to and fro.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable, Iterable
from typing import Any

from .. import kernel
from .._core.checks import MAX_PLAYOUTS, check_int, check_seconds, check_seed
from .._core.engine import apply_move, legal_moves
from .._core.messages import brief
from .._core.moves import Draw, EndTurn, Move, Pass
from .._core.state import GameState
from .._core.turns import TurnEnd, position_key, reveals, turn_ends
from .._views.view import PublicView, dealer, view
from ..evaluation import Evaluator, FittedValue, Playout, cards_left, evaluate_all
from ..protocol import Crapette, seeded_rng
from ._base import checked_view

__all__ = ["MAX_CANDIDATES", "PlanningBot", "path_outcomes", "path_values", "segment_paths"]

#: The most candidates (a turn end and a move out of it) a plan tries, the best by the ranking.
MAX_CANDIDATES = 2000

_GAME = Crapette("classic")
_RANKER = FittedValue()
_JUDGE = Playout()


def _exits(state: GameState) -> list[Move]:
    """The legal moves that leave a turn end: they reveal a card or end the turn."""
    found = kernel.exits(state)
    if found is not None:
        return list(found)
    return [m for m in legal_moves(state) if type(m) in (Draw, EndTurn, Pass) or reveals(state, m)]


def _check_evaluator(name: str, value: object) -> Any:
    if value is not None and not callable(getattr(value, "evaluate", None)):
        raise TypeError(f"{name} must have an evaluate(state, player, rng) method, got {brief(value)}")
    return value


class PlanningBot:
    """Plans whole turn segments: the best position its turn can reach, then the best way on from it.

    At the start of each segment (the start of its turn, or after a move that
    revealed a card) the bot lists every position it can reach without
    revealing a card (:func:`~crapette.turn_ends`) and every move that leaves
    each (a draw, a reserve play that uncovers a card, End turn or Pass). It
    ranks the ends with ``ranker`` (:class:`~crapette.evaluation.FittedValue`
    by default), keeps the best, and tries each candidate (an end and a move
    out of it) in deals of the unseen cards, the same deals for every
    candidate, judging the result with ``evaluator``
    (:class:`~crapette.evaluation.Playout` by default: greedy play to the end
    of the opponent's next turn, then the cards left). ``playouts`` is shared
    by successive halving: every candidate is tried, the worse half dropped,
    the rest tried again, so the deals go to the best. The bot then plays the
    moves of the best candidate one by one, without thinking again until a
    card is revealed, so it never moves a card to and fro. With
    ``playouts=0`` it goes to the end its ranking puts first.

    ``playouts`` is at most :data:`~crapette.bots.MAX_PLAYOUTS`, and the bot
    keeps one deal at a time, so its memory does not grow with the budget.
    ``seconds`` (None: no limit) bounds the time a plan takes whatever the
    position and the rules: past it, the bot stops trying candidates (and
    listing the ways out of the turn's positions) and goes with the best found
    so far, the turn end its ranking puts first if none was tried; the
    listing of the turn's positions itself is bounded by
    :data:`~crapette.DEFAULT_TURN_LIMIT` positions. With a time limit the bot
    plays as fast as the machine lets it, so two runs may differ; a server
    that must answer in time uses it.

    The bot decides from the public view only and is reproducible: its
    generator is seeded by ``seed`` and the view at the start of the segment.
    What it keeps between decisions is its plan for the segment (pickled
    with it: see :func:`~crapette.bots.choose_remembering`). A variant of
    the bot is an evaluator or a ranking, never a subclass.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=5)
    >>> PlanningBot(seed=1, playouts=100).choose(state) in legal_moves(state)
    True
    >>> PlanningBot.at_level("strong")
    PlanningBot(seed=0, playouts=8000)

    :raises ValueError: if ``seed`` is out of range, ``playouts`` negative or over
        :data:`~crapette.bots.MAX_PLAYOUTS`, or ``seconds`` not above 0 and at most 3600.
    :raises TypeError: if ``playouts`` is not an int, ``seconds`` not a number, or an
        evaluator has no ``evaluate``.

    .. versionadded:: 0.3.0
    """

    name = "plan"
    #: The game the bot plays: Crapette, under any rules (each state carries its rules).
    game = _GAME
    #: The levels: playouts per plan.
    LEVELS = {"easy": 150, "normal": 1000, "strong": 8000}

    def __init__(
        self,
        seed: int = 0,
        playouts: int = LEVELS["normal"],
        *,
        seconds: float | None = None,
        evaluator: Evaluator | None = None,
        ranker: Evaluator | None = None,
    ) -> None:
        self.seed = check_seed(seed)
        self.playouts = check_int("playouts", playouts, 0, MAX_PLAYOUTS)
        self.seconds = check_seconds("seconds", seconds)
        self.evaluator: Evaluator | None = _check_evaluator("evaluator", evaluator)
        self.ranker: Evaluator | None = _check_evaluator("ranker", ranker)
        # The plan being played: the move to make from each view it passes through.
        self._plan: dict[PublicView, Move] = {}

    @classmethod
    def at_level(cls, level: str, seed: int = 0) -> PlanningBot:
        """The bot at a named level of :attr:`LEVELS`: ``"easy"``, ``"normal"`` or ``"strong"``.

        :raises ValueError: if there is no such level.
        """
        found = cls.LEVELS.get(level.strip().lower()) if isinstance(level, str) else None
        if found is None:
            raise ValueError(f"unknown level {brief(level)}: expected one of {', '.join(cls.LEVELS)}")
        return cls(seed, found)

    def __repr__(self) -> str:
        extra = "".join(
            f", {name}={value!r}"
            for name, value in (("seconds", self.seconds), ("evaluator", self.evaluator), ("ranker", self.ranker))
            if value is not None
        )
        return f"PlanningBot(seed={self.seed}, playouts={self.playouts}{extra})"

    def _key(self) -> tuple[Any, ...]:
        return (self.seed, self.playouts, self.seconds, self.evaluator, self.ranker)

    def __eq__(self, other: object) -> bool:
        return type(other) is PlanningBot and other._key() == self._key()

    def __hash__(self) -> int:
        return hash(("PlanningBot", *self._key()))

    def __getstate__(self) -> dict[str, Any]:
        # The plan travels too: a bot handed to another process and back plays it on.
        return {**{k: getattr(self, k) for k in ("seed", "playouts", "seconds", "evaluator", "ranker")}, "plan": self._plan}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(  # type: ignore[misc]
            state["seed"], state["playouts"], seconds=state.get("seconds"),
            evaluator=state.get("evaluator"), ranker=state.get("ranker"),
        )
        self._plan.update(state.get("plan", {}))

    def choose(self, state: GameState) -> Move:
        """The next move of the bot's plan for the current turn segment.

        :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if the game is over.
        """
        v = checked_view(state)
        moves = v.legal_moves
        if len(moves) == 1:
            self._plan.clear()
            return moves[0]
        planned = self._plan.get(v)
        if planned is not None and planned in moves:
            return planned
        path = self.plan(v)
        self._plan.clear()
        here = dealer(v).deal(None)
        for move in path:
            self._plan[view(here)] = move
            if reveals(here, move) or type(move) in (EndTurn, Pass):
                break
            here = apply_move(here, move)
        return path[0]

    def hint(self, state: GameState, reached: Iterable[GameState] = ()) -> tuple[Move, ...]:
        """The moves the bot would play from ``state`` to the end of the turn segment, for a hint.

        The planned path to the best turn end, then the move out of it that
        reveals a card or ends the turn (or the moves to the end of the game).
        The plan the bot is playing is left as it was, and the same bot gives
        the same hint for the same view and the same ``reached``.

        ``reached`` is the game so far, as a frontend holds it
        (:attr:`Game.states <crapette.Game.states>`, oldest first): the hint
        never leads back to a position the current turn has been in, so a
        player who follows hints one move at a time never moves cards to and
        fro, whatever the rules allow. Only the states of the current turn at
        the end of ``reached`` count; pass the game's states, or those of the
        current turn.

        >>> from crapette import Game
        >>> game = Game("classic", seed=3)
        >>> bot = PlanningBot(seed=1, playouts=200)
        >>> hint = bot.hint(game.state, game.states)
        >>> " ".join(str(move) for move in hint)
        'T2-T3 R0-T2'
        >>> game.push(hint[0])
        >>> " ".join(str(move) for move in bot.hint(game.state, game.states))
        'R0-T2'

        :raises TypeError: if ``state`` or one of ``reached`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if the game is over.

        .. versionchanged:: 0.3.0
           ``reached``.
        """
        v = checked_view(state)
        if len(v.legal_moves) == 1:
            return (v.legal_moves[0],)
        barred = _turn_positions(state, reached)
        if not barred:
            return self.plan(v)
        return self.plan(v, keep=lambda path: _clear_of(state, path, barred))

    def plan(
        self, v: PublicView, *, keep: Callable[[tuple[Move, ...]], bool] | None = None
    ) -> tuple[Move, ...]:
        """The moves the bot means to play from the position ``v`` shows: to the best end, then out of it.

        ``keep``, if given, says which candidate paths may be chosen (all of
        them if it keeps none).
        """
        player = v.current_player
        deadline = None if self.seconds is None else time.monotonic() + self.seconds
        rng = seeded_rng(_GAME, self.seed, v)
        paths = segment_paths(v, self.ranker, rng, deadline=deadline)
        if keep is not None:
            paths = [path for path in paths if keep(path)] or paths
        paths = paths[: self._candidates()]
        if not paths:
            # No reachable position lets the turn end (only moves between tableau
            # piles are legal anywhere, ruling R10): there is nothing to plan.
            return (v.legal_moves[0],)
        if len(paths) == 1 or self.playouts == 0:
            return paths[0]
        deal = dealer(v)
        judge = self.evaluator or _JUDGE
        totals = [0.0] * len(paths)
        alive = list(range(len(paths)))
        # Successive halving: each round shares its part of the budget among the
        # candidates left, every one tried in the same deals, then drops the worse half.
        # One deal at a time, every candidate left tried in it: memory stays flat.
        rounds = max(1, (len(paths) - 1).bit_length())
        for _ in range(rounds):
            sums = dict.fromkeys(alive, 0.0)
            out_of_time = False
            for _ in range(max(1, self.playouts // (rounds * len(alive)))):
                world = deal.deal(rng)
                tried = []
                for i in alive:
                    tried.append(judge.evaluate(_follow(world, paths[i]), player, rng))
                    if deadline is not None and time.monotonic() > deadline:
                        out_of_time = True
                        break
                if out_of_time:
                    break  # a deal not tried for every candidate does not count
                for i, worth in zip(alive, tried):
                    sums[i] += worth
            for i in alive:
                totals[i] += sums[i]
            if out_of_time or len(alive) <= 2:
                break
            alive.sort(key=lambda i: (-totals[i], i))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        return paths[min(alive, key=lambda i: (-totals[i], i))]

    def _candidates(self) -> int:
        """How many candidates a plan tries, the best by the ranking: each at least twice."""
        return max(8, min(MAX_CANDIDATES, self.playouts // 2))


def _turn_positions(state: GameState, reached: Iterable[GameState]) -> frozenset[Hashable]:
    """The positions (by :func:`~crapette.position_key`) the turn of ``state`` has been in, from ``reached``.

    The states at the end of ``reached`` with the same player to move and no
    more moves made than ``state`` count, back to the first that breaks the
    run; ``state``'s own position does not.
    """
    if isinstance(reached, GameState):
        raise TypeError("reached must be the states of the game so far (Game.states), not one GameState")
    states = list(reached)
    for item in states:
        if not isinstance(item, GameState):
            raise TypeError(f"reached must hold GameStates, got {type(item).__name__}")
    turn: list[GameState] = []
    for earlier in reversed(states):
        if earlier.current_player != state.current_player or earlier.move_count > state.move_count:
            break
        if turn and earlier.move_count >= turn[-1].move_count:
            break
        turn.append(earlier)
    return frozenset(position_key(s) for s in turn) - {position_key(state)}


def _clear_of(state: GameState, path: tuple[Move, ...], barred: frozenset[Hashable]) -> bool:
    """Whether the moves of ``path`` before its last keep clear of the positions ``barred``.

    Those moves reveal nothing, so following them in ``state`` shows only
    what its view shows.
    """
    here = state
    for move in path[:-1]:
        here = apply_move(here, move)
        if position_key(here) in barred:
            return False
    return True


def _follow(deal: GameState, path: tuple[Move, ...]) -> GameState:
    """The state after ``path`` in ``deal`` (the moves stop if the game ends)."""
    state = deal
    for move in path:
        if state.is_over:
            break
        state = apply_move(state, move)
    return state


def path_values(
    v: PublicView, paths: list[tuple[Move, ...]], worlds: int, seed: int = 0, *, evaluator: Evaluator | None = None
) -> list[float]:
    """The mean value of each path (moves from the position ``v`` shows) in the same ``worlds`` deals.

    Each path is played in each deal of the unseen cards and judged for the
    player to move by ``evaluator`` (:class:`~crapette.evaluation.Playout` by
    default). Every path must be legal from the position: a path that
    reveals a card should end with that move. One deal at a time: memory
    does not grow with ``worlds``.
    """
    player = v.current_player
    deal = dealer(v)
    rng = seeded_rng(_GAME, seed, v)
    judge = evaluator or _JUDGE
    count = max(1, worlds)
    totals = [0.0] * len(paths)
    for _ in range(count):
        world = deal.deal(rng)
        for i, value in enumerate(evaluate_all(judge, [_follow(world, path) for path in paths], player, rng)):
            totals[i] += value
    return [total / count for total in totals]


def path_outcomes(
    v: PublicView, paths: list[tuple[Move, ...]], worlds: int, seed: int = 0
) -> list[tuple[float, float, float]]:
    """For each path, as :func:`path_values` plays it by default: ``(value, cards, wins)``, each a mean over the deals.

    ``value`` is that of :func:`path_values`; ``cards`` the same without the
    bonus of a finished game (the opponent's penalty minus the player's
    wherever play stopped); ``wins`` the share of the deals in which the path
    wins the game, less the share in which it loses it (from -1 to 1).
    """
    player = v.current_player
    deal = dealer(v)
    rng = seeded_rng(_GAME, seed, v)
    count = max(1, worlds)
    totals = [[0.0, 0.0, 0.0] for _ in paths]
    for _ in range(count):
        world = deal.deal(rng)
        for i, path in enumerate(paths):
            end = _JUDGE.play_on(_follow(world, path), player)
            outcome = end.outcome
            won = 0 if outcome is None or outcome.winner is None else 1 if outcome.winner == player else -1
            total = totals[i]
            total[0] += _JUDGE.leaf.evaluate(end, player, rng)
            total[1] += cards_left(end, player)
            total[2] += won
    return [(value / count, cards / count, wins / count) for value, cards, wins in totals]


def segment_paths(
    v: PublicView,
    ranker: Evaluator | None = None,
    rng: random.Random | None = None,
    *,
    deadline: float | None = None,
) -> list[tuple[Move, ...]]:
    """Every way to end the current turn segment from ``v``: the moves to a turn end, then a move out of it.

    Best first by ``ranker``'s value of the end (:class:`~crapette.evaluation.FittedValue`
    by default), fewer moves first on a tie. Past ``deadline`` (a
    :func:`time.monotonic` time), the turn ends not yet looked at are left out
    (the first one with a way out is always kept).
    """
    player = v.current_player
    world = dealer(v).deal(None)
    rank = ranker or _RANKER
    chance = rng if rng is not None else random.Random(0)
    # An end with no way out (only more moves that reveal nothing) is no place to stop.
    ways: list[tuple[TurnEnd, list[Move]]] = []
    for end in turn_ends(world):
        if deadline is not None and ways and time.monotonic() > deadline:
            break
        exits = [] if end.state.is_over else _exits(end.state)
        if exits or end.state.is_over:
            ways.append((end, exits))
    values = evaluate_all(rank, [e.state for e, _ in ways], player, chance)
    order = sorted(range(len(ways)), key=lambda i: (-values[i], len(ways[i][0].moves), i))
    paths: list[tuple[Move, ...]] = []
    for i in order:
        end, exits = ways[i]
        if end.state.is_over:
            paths.append(end.moves)
        else:
            # Revealing plays of the reserve first (they empty it), then Draw, End turn, Pass.
            exits.sort(key=lambda m: _EXIT_ORDER.get(type(m), 0))
            paths.extend((*end.moves, x) for x in exits)
    return paths


_EXIT_ORDER: dict[type[Move], int] = {Draw: 1, EndTurn: 2, Pass: 3}

