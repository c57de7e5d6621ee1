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

from typing import Any

from . import kernel
from ._checks import check_int, check_seed
from ._engine import apply_move, legal_moves
from ._errors import brief
from ._evaluation import value
from ._heuristics import checked_view, evaluate, playout, seeded_rng
from ._moves import Draw, EndTurn, Move, Pass
from ._state import GameState
from ._turns import TurnEnd, reveals, turn_ends
from ._view import PublicView, _Dealer, view
from .protocol import Crapette

__all__ = ["PLANNING_LEVELS", "PlanningBot"]

#: The levels of :class:`PlanningBot`: playouts per plan.
PLANNING_LEVELS: dict[str, int] = {"easy": 150, "normal": 1000, "strong": 8000}

#: The most candidates (a turn end and a move out of it) a plan tries, the best by the evaluation.
_MAX_CANDIDATES = 2000


def _exits(state: GameState) -> list[Move]:
    """The legal moves that leave a turn end: they reveal a card or end the turn."""
    found = kernel.exits(state)
    if found is not None:
        return list(found)
    return [m for m in legal_moves(state) if type(m) in (Draw, EndTurn, Pass) or reveals(state, m)]


class PlanningBot:
    """Plans whole turn segments: the best position its turn can reach, then the best way on from it.

    At the start of each segment (the start of its turn, or after a move that
    revealed a card) the bot lists every position it can reach without
    revealing a card (:func:`~crapette.turn_ends`) and every move that leaves
    each (a draw, a reserve play that uncovers a card, End turn or Pass).
    Each such candidate is played in deals of the unseen cards (the same
    deals for every candidate) and play goes on greedily to the end of the
    opponent's next turn; the cards left are scored as :class:`~crapette.bots.SearchBot`
    scores them. ``playouts`` is shared by successive halving: every
    candidate is tried, the worse half dropped, the rest tried again, so the
    deals go to the best. The bot then plays the moves of the best candidate
    one by one, without thinking again until a card is revealed, so it never
    moves a card to and fro. With ``playouts=0`` it goes to the turn end its
    position evaluation ranks first.

    The bot decides from the public view only and is reproducible: its
    generator is seeded by ``seed`` and the view at the start of the segment.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=5)
    >>> PlanningBot(seed=1, playouts=100).choose(state) in legal_moves(state)
    True
    >>> PlanningBot.at_level("strong")
    PlanningBot(seed=0, playouts=8000)

    :raises ValueError: if ``seed`` is out of range or ``playouts`` negative.
    :raises TypeError: if ``playouts`` is not an int.

    .. versionadded:: 0.3.0
    """

    name = "plan"
    #: The game the bot plays: Crapette, under any rules (each state carries its rules).
    game = Crapette("classic")

    def __init__(self, seed: int = 0, playouts: int = PLANNING_LEVELS["normal"]) -> None:
        self.seed = check_seed(seed)
        self.playouts = check_int("playouts", playouts, 0)
        # The plan being played: the move to make from each view it passes through.
        self._plan: dict[PublicView, Move] = {}

    @classmethod
    def at_level(cls, level: str, seed: int = 0) -> PlanningBot:
        """The bot at a named level of :data:`~crapette.bots.LEVELS`: ``"easy"``, ``"normal"`` or ``"strong"``.

        :raises ValueError: if there is no such level.
        """
        found = PLANNING_LEVELS.get(level.strip().lower()) if isinstance(level, str) else None
        if found is None:
            raise ValueError(f"unknown level {brief(level)}: expected one of {', '.join(PLANNING_LEVELS)}")
        return cls(seed, found)

    def __repr__(self) -> str:
        return f"PlanningBot(seed={self.seed}, playouts={self.playouts})"

    def __eq__(self, other: object) -> bool:
        return type(other) is PlanningBot and (other.seed, other.playouts) == (self.seed, self.playouts)

    def __hash__(self) -> int:
        return hash(("PlanningBot", self.seed, self.playouts))

    def __getstate__(self) -> dict[str, Any]:
        # The plan travels too: a bot handed to another process and back plays it on.
        return {"seed": self.seed, "playouts": self.playouts, "plan": self._plan}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["seed"], state["playouts"])  # type: ignore[misc]
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
        here = _Dealer(v).deal(None)
        for move in path:
            self._plan[view(here)] = move
            if reveals(here, move) or type(move) in (EndTurn, Pass):
                break
            here = apply_move(here, move)
        return path[0]

    def hint(self, state: GameState) -> tuple[Move, ...]:
        """The moves the bot would play from ``state`` to the end of the turn segment, for a hint.

        The planned path to the best turn end, then the move out of it that
        reveals a card or ends the turn (or the moves to the end of the game).
        Only the public view of ``state`` is used, the plan the bot is playing
        is left as it was, and the same bot gives the same hint for the same view.

        >>> from crapette import new_game
        >>> hint = PlanningBot(seed=1, playouts=200).hint(new_game("classic", seed=3))
        >>> " ".join(str(move) for move in hint)
        'T2-T3 R0-T2'

        :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if the game is over.
        """
        v = checked_view(state)
        if len(v.legal_moves) == 1:
            return (v.legal_moves[0],)
        return self.plan(v)

    def plan(self, v: PublicView) -> tuple[Move, ...]:
        """The moves the bot means to play from the position ``v`` shows: to the best end, then out of it."""
        player = v.current_player
        paths = segment_paths(v)[: self._candidates()]
        if not paths:
            # No reachable position lets the turn end (only moves between tableau
            # piles are legal anywhere, ruling R10): there is nothing to plan.
            return (v.legal_moves[0],)
        if len(paths) == 1 or self.playouts == 0:
            return paths[0]
        dealer = _Dealer(v)
        rng = seeded_rng(self.seed, v)
        deals: list[GameState] = []
        totals = [0.0] * len(paths)
        tried = 0
        alive = list(range(len(paths)))
        # Successive halving: each round shares its part of the budget among the
        # candidates left, every one tried in the same deals, then drops the worse half.
        rounds = max(1, (len(paths) - 1).bit_length())
        for _ in range(rounds):
            upto = tried + max(1, self.playouts // (rounds * len(alive)))
            while len(deals) < upto:
                deals.append(dealer.deal(rng))
            for i, total in zip(alive, self._tries(deals[tried:upto], [paths[i] for i in alive], player)):
                totals[i] += total
            tried = upto
            if len(alive) <= 2:
                break
            alive.sort(key=lambda i: (-totals[i], i))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        return paths[min(alive, key=lambda i: (-totals[i], i))]

    def _candidates(self) -> int:
        """How many candidates a plan tries, the best by the evaluation: each at least twice."""
        return max(8, min(_MAX_CANDIDATES, self.playouts // 2))

    def _tries(self, deals: list[GameState], paths: list[tuple[Move, ...]], player: int) -> list[float]:
        """For each path, the sum of :meth:`_try` over ``deals`` (in the compiled kernel where it runs)."""
        if type(self)._try is PlanningBot._try:
            found = kernel.try_paths(deals, paths, player)
            if found is not None:
                return found
        return [sum(self._try(deal, path, player) for deal in deals) for path in paths]

    def _try(self, deal: GameState, path: tuple[Move, ...], player: int) -> float:
        """What one playout of ``path`` in ``deal`` is worth to ``player`` (``benchmarks/planner_variants.py`` varies it)."""
        return _try(deal, path, player)


def path_values(v: PublicView, paths: list[tuple[Move, ...]], worlds: int, seed: int = 0) -> list[float]:
    """The mean value of each path (moves from the position ``v`` shows) in the same ``worlds`` deals.

    Each path is played in each deal of the unseen cards, then play goes on
    greedily to the end of the opponent's next turn, and the cards left are
    scored for the player to move (the opponent's penalty minus the
    player's, as :class:`PlanningBot`'s playouts do). Every path must be
    legal from the position: a path that reveals a card should end with that move.
    """
    player = v.current_player
    dealer = _Dealer(v)
    rng = seeded_rng(seed, v)
    deals = [dealer.deal(rng) for _ in range(max(1, worlds))]
    totals = kernel.try_paths(deals, paths, player)
    if totals is None:
        totals = [sum(_try(deal, path, player) for deal in deals) for path in paths]
    return [total / len(deals) for total in totals]


def segment_paths(v: PublicView) -> list[tuple[Move, ...]]:
    """Every way to end the current turn segment from ``v``: the moves to a turn end, then a move out of it."""
    player = v.current_player
    world = _Dealer(v).deal(None)
    # An end with no way out (only more moves that reveal nothing) is no place to stop.
    ways = [(e, [] if e.state.is_over else _exits(e.state)) for e in turn_ends(world)]
    ways = [(e, exits) for e, exits in ways if exits or e.state.is_over]
    ways.sort(key=lambda way: -_value(way[0], player))
    paths: list[tuple[Move, ...]] = []
    for end, exits in ways:
        if end.state.is_over:
            paths.append(end.moves)
        else:
            # Revealing plays of the reserve first (they empty it), then Draw, End turn, Pass.
            exits.sort(key=lambda m: _EXIT_ORDER.get(type(m), 0))
            paths.extend((*end.moves, x) for x in exits)
    return paths


_EXIT_ORDER: dict[type[Move], int] = {Draw: 1, EndTurn: 2, Pass: 3}


def _value(end: TurnEnd, player: int) -> float:
    """The evaluation of a turn end for ``player``, fewer moves first on a tie."""
    outcome = end.state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1e9 if outcome.winner == player else -1e9)
    return value(end.state, player) - 1e-6 * len(end.moves)


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

