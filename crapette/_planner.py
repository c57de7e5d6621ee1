"""PlanningBot: a player that decides whole turn segments, never single moves.

Within a turn everything that decides a choice is visible until a move
reveals a card, so the bot lists every position its turn can reach before a
reveal (:func:`~crapette.turn_ends`), ranks them with a position evaluation,
and tries the few best, each followed by every move that leaves it (a draw, a
reserve play that uncovers a card, End turn, Pass), in worlds dealt from the
public view and played on to the end of the opponent's next turn. It then
plays the moves to the best of them one by one, without thinking again until
a card is revealed; so it never moves a card to and fro.
"""

from __future__ import annotations

import random
from typing import Any

from ._checks import check_int, check_seed
from ._engine import apply_move, legal_moves
from ._errors import brief
from ._evaluation import features, score
from ._heuristics import checked_view, evaluate, playout, seeded_rng
from ._moves import Draw, EndTurn, Move, Pass
from ._state import GameState
from ._turns import TurnEnd, reveals, turn_ends
from ._view import PublicView, _Dealer, view

__all__ = ["PLANNING_LEVELS", "PlanningBot"]

#: The levels of :class:`PlanningBot`: (turn ends tried with playouts, worlds per try).
PLANNING_LEVELS: dict[str, tuple[int, int]] = {
    "easy": (0, 0),
    "normal": (6, 8),
    "strong": (16, 32),
}


def _exits(state: GameState) -> list[Move]:
    """The legal moves that leave a turn end: they reveal a card or end the turn."""
    return [m for m in legal_moves(state) if type(m) in (Draw, EndTurn, Pass) or reveals(state, m)]


class PlanningBot:
    """Plans whole turn segments: the best position its turn can reach, then the best way on from it.

    At the start of each segment (the start of its turn, or after a move that
    revealed a card) the bot lists every position it can reach without
    revealing a card (:func:`~crapette.turn_ends`) and ranks them with its
    position evaluation (:func:`crapette.bots.evaluation_features`, weights
    fitted by self-play). With ``ends`` above 0 it then takes the ``ends``
    best and, for each, every move that leaves it (a draw, a reserve play
    that uncovers a card, End turn or Pass), plays that move in ``worlds``
    deals of the unseen cards (the same deals for every candidate) and plays
    on greedily to the end of the opponent's next turn, scoring the cards
    left as :class:`SearchBot` does. It plays the moves to the best end, then
    the best move out of it. ``ends=0`` ranks by the evaluation alone.

    The bot decides from the public view only and is reproducible: its
    generator is seeded by ``seed`` and the view at the start of the segment.

    >>> from crapette import new_game
    >>> bot = PlanningBot(seed=1)
    >>> state = new_game("classic", seed=5)
    >>> from crapette import legal_moves
    >>> bot.choose(state) in legal_moves(state)
    True
    >>> PlanningBot.at_level("strong")
    PlanningBot(seed=0, ends=16, worlds=32)

    :raises ValueError: if ``seed`` is out of range, or ``ends`` or ``worlds`` is negative.
    :raises TypeError: if ``ends`` or ``worlds`` is not an int.

    .. versionadded:: 0.3.0
    """

    name = "plan"

    def __init__(self, seed: int = 0, ends: int = 6, worlds: int = 8) -> None:
        self.seed = check_seed(seed)
        self.ends = check_int("ends", ends, 0)
        self.worlds = check_int("worlds", worlds, 0)
        if self.ends and not self.worlds:
            raise ValueError("worlds must be at least 1 when ends is above 0")
        # The plan being played: the views it passes through and the moves from each.
        self._plan: dict[PublicView, Move] = {}

    @classmethod
    def at_level(cls, level: str, seed: int = 0) -> PlanningBot:
        """The bot at a named level of :data:`PLANNING_LEVELS`.

        :raises ValueError: if there is no such level.
        """
        found = PLANNING_LEVELS.get(level.strip().lower()) if isinstance(level, str) else None
        if found is None:
            raise ValueError(f"unknown level {brief(level)}: expected one of {', '.join(PLANNING_LEVELS)}")
        return cls(seed, *found)

    def __repr__(self) -> str:
        return f"PlanningBot(seed={self.seed}, ends={self.ends}, worlds={self.worlds})"

    def __eq__(self, other: object) -> bool:
        return type(other) is PlanningBot and (other.seed, other.ends, other.worlds) == (self.seed, self.ends, self.worlds)

    def __hash__(self) -> int:
        return hash(("PlanningBot", self.seed, self.ends, self.worlds))

    def __getstate__(self) -> dict[str, Any]:
        return {"seed": self.seed, "ends": self.ends, "worlds": self.worlds}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["seed"], state["ends"], state["worlds"])  # type: ignore[misc]

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
        here = _Dealer(v).deal(None)
        for move in path:
            self._plan[view(here)] = move
            if reveals(here, move) or type(move) in (EndTurn, Pass):
                break
            here = apply_move(here, move)
        return path[0]

    def plan(self, v: PublicView) -> tuple[Move, ...]:
        """The moves the bot means to play from the position ``v`` shows: to the best end, then out of it."""
        player = v.current_player
        world = _Dealer(v).deal(None)
        # An end with no way out (only more moves that reveal nothing) is no place to stop.
        ends = [e for e in turn_ends(world) if e.state.is_over or _exits(e.state)]
        ranked = sorted(ends, key=lambda e: -_value(e, player))
        best = ranked[0]
        if self.ends == 0:
            return _with_exit(best, player)
        dealer = _Dealer(v)
        rng = seeded_rng(self.seed, v)
        deals = [dealer.deal(rng) for _ in range(self.worlds)]
        top = -float("inf")
        choice: tuple[Move, ...] = ()
        for end in ranked[: self.ends]:
            if end.state.is_over:
                return end.moves
            for exit_move in _exits(end.state):
                path = (*end.moves, exit_move)
                total = 0.0
                for deal in deals:
                    total += _try(deal, path, player)
                value = total / len(deals) + 1e-3 * _value(end, player)
                if value > top:
                    top, choice = value, path
        return choice or _with_exit(best, player)


def _value(end: TurnEnd, player: int) -> float:
    """The evaluation of a turn end for ``player``, fewer moves first on a tie."""
    outcome = end.state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1e9 if outcome.winner == player else -1e9)
    return score(features(end.state, player)) - 1e-6 * len(end.moves)


def _with_exit(end: TurnEnd, player: int) -> tuple[Move, ...]:
    """The moves to ``end``, then its best exit by the evaluation (the moves alone if it has none)."""
    if end.state.is_over:
        return end.moves
    exits = _exits(end.state)
    if not exits:
        return end.moves
    # Revealing plays of the reserve first (they empty it), then Draw, then End turn.
    order: dict[type[Move], int] = {Draw: 1, EndTurn: 2, Pass: 3}
    exits.sort(key=lambda m: order.get(type(m), 0))
    return (*end.moves, exits[0])


def _try(deal: GameState, path: tuple[Move, ...], player: int) -> float:
    """Play ``path`` in a deal, then play on to the end of the opponent's next turn: the value for ``player``."""
    state = deal
    for move in path:
        if state.is_over:
            break
        state = apply_move(state, move)
    if state.is_over:
        return evaluate(state, player)
    return playout(state, player)


del random
