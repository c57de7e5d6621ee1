"""Information-set Monte Carlo tree search for Crapette: :class:`TreeSearchBot` (deprecated since 0.3.0).

Measured weaker than flat Monte Carlo (:class:`~crapette.bots.SearchBot`) and
far weaker than :class:`~crapette.bots.PlanningBot`; and Crapette has no
private information (nobody knows the order of their own face-down cards
either), so an information-set search has nothing to buy here. It stays for
the code that uses it, and warns.

The bot sees the public view only. It builds one tree of move sequences for
the information set it is in (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012): each iteration deals the unseen cards into the face-down
slots (a determinization, taken in turn from a pool of deals), walks down the
tree choosing among the moves legal in that deal, adds one node, plays on with
a fast greedy policy to the end of the following turn, scores the result and
backs it up. Because all deals share one tree, what a move is worth is
averaged over the deals rather than decided in each deal separately, which is
what makes plain determinized search overrate moves that only work when a
hidden card is where it hopes (strategy fusion).
"""

from __future__ import annotations

import math
import random
import time
import warnings
from collections.abc import Sequence
from typing import Any

import attrs

from .._core.checks import MAX_PLAYOUTS, check_int, check_seed
from .._core.engine import apply_move, legal_moves
from .._core.messages import brief
from .._core.moves import Move, Play
from .._core.piles import T0
from .._core.state import GameState
from .._play.greedy import greedy_choice, greedy_move, greedy_scores
from .._views.view import PublicView, dealer, view
from ..evaluation import CardCount
from ..protocol import Crapette, seeded_rng
from ._base import checked_view, crapette_state

__all__ = ["LEVELS", "MoveValue", "SearchResult", "TreeSearchBot"]

#: The difficulty levels: playouts per decision (the budget is a count, so a
#: level plays the same on any machine; ``normal`` answers in about 0.1 s).
LEVELS: dict[str, int] = {"easy": 150, "normal": 1200, "strong": 4800}

#: How many cards of advantage make a position worth about 73% (the scale of the logistic).
SCALE = 4.0
#: The exploration constant of UCB1 for rewards in [0, 1].
_EXPLORATION = 0.7
#: Moves a playout may make after the tree before it is cut short.
_ROLLOUT_LIMIT = 80
#: The deals of the unseen cards a search draws and reuses in turn.
_WORLDS = 24
_GAME = Crapette("classic")
_CARDS = CardCount()


def evaluate(state: GameState, player: int) -> float:
    """The card count of ``state`` for ``player`` (:class:`~crapette.evaluation.CardCount`)."""
    return _CARDS.evaluate(state, player)


def _reward(value: float, before: float) -> float:
    """A heuristic value (cards of advantage; +-10000 for a finished game) as a reward in [0, 1].

    What counts is the gain since the root (``before``): a player far ahead or
    far behind still tells a good move from a bad one.
    """
    if value >= 1000:
        return 1.0
    if value <= -1000:
        return 0.0
    return 1.0 / (1.0 + math.exp((before - value) / SCALE))


class _Node:
    __slots__ = ("children", "visits", "total", "available", "mover")

    def __init__(self, mover: int) -> None:
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.available = 0
        #: The player who made the move that leads here (whose reward ``total`` sums).
        self.mover = mover


@attrs.frozen
class MoveValue:
    """What the search found of one legal move: how often it tried it and what it scored."""

    #: The move.
    move: Move
    #: Iterations that went through it.
    visits: int
    #: Its average reward for the player to move, from 0 (a sure loss) to 1 (a sure win).
    value: float


@attrs.frozen
class SearchResult:
    """The root of a search: every legal move with its visits and value, best first.

    >>> from crapette import new_game
    >>> result = TreeSearchBot(seed=1, playouts=40).search(new_game("classic", seed=4))
    >>> result.best is result.moves[0].move, result.playouts
    (True, 40)
    """

    #: The legal moves with their statistics, the one chosen first, then by visits.
    moves: tuple[MoveValue, ...]
    #: Iterations run.
    playouts: int

    @property
    def best(self) -> Move:
        """The move the bot plays."""
        return self.moves[0].move

    def value_of(self, move: Move) -> float:
        """The value of ``move`` (0 to 1, for the player to move).

        :raises KeyError: if ``move`` was not a legal move of the position.
        """
        for entry in self.moves:
            if entry.move == move:
                return entry.value
        raise KeyError(f"{move} is not a legal move of the position searched")


class TreeSearchBot:
    """Information-set Monte Carlo tree search: a bot that searches across turns, within a budget.

    It sees only the public view. Each of its ``playouts`` iterations takes the next of
    a pool of 24 deals of the unseen cards, made once a decision (so the moves are
    compared in the same deals), walks one shared tree of move sequences (own moves and
    the opponent's, across turns) choosing by UCB1 among the moves legal in that deal,
    grows the tree by one node, plays on with the greedy policy to the end of the
    following turn, and scores the position: the opponent's penalty minus its own under
    the rules' scoring, as a win chance through a logistic curve, or 1 and 0 for a game
    won or lost. It plays the move tried most. A position with one legal move, or only
    foundation plays, costs nothing.

    Give the budget as ``playouts`` (the same answer in any process, on any
    machine: the generator is seeded by ``seed`` and the view) or as
    ``seconds`` per decision (faster machines then play better, and the
    answer depends on the machine). :meth:`at_level` makes the named levels of
    :data:`~crapette.bots.LEVELS`.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=5)
    >>> bot = TreeSearchBot(seed=2, playouts=50)
    >>> bot.choose(state) in legal_moves(state), bot.choose(state) is bot.choose(state)
    (True, True)
    >>> TreeSearchBot.at_level("strong")
    TreeSearchBot(seed=0, playouts=4800)

    ``playouts`` is at most :data:`~crapette.bots.MAX_PLAYOUTS`, and a time
    budget stops there too: the tree grows by a node an iteration, so its
    memory stays bounded (about 200 bytes a playout).

    :raises ValueError: if ``seed`` is out of range, or a budget not positive
        (or over :data:`~crapette.bots.MAX_PLAYOUTS` playouts, or 3600 seconds),
        or both or neither budget is given.

    .. deprecated:: 0.3.0
       It plays weaker than :class:`~crapette.bots.SearchBot` and
       :class:`~crapette.bots.PlanningBot`, and warns when made: use
       ``make_bot("plan")`` or ``make_bot("montecarlo")``.
    """

    name = "tree"

    def __init__(self, seed: int = 0, playouts: int | None = LEVELS["normal"], seconds: float | None = None) -> None:
        seed = check_seed(seed)
        if seconds is not None:
            if playouts == LEVELS["normal"]:
                playouts = None  # a time budget replaces the default count
            if type(seconds) not in (int, float):
                raise TypeError(f"seconds must be a number, got {type(seconds).__name__}")
            if not 0 < seconds <= 3600:
                raise ValueError(f"seconds must be above 0 and at most 3600, got {brief(seconds)}")
        if (playouts is None) == (seconds is None):
            raise ValueError("give the budget as playouts or as seconds, not both")
        if playouts is not None:
            if type(playouts) is not int:
                raise TypeError(f"playouts must be an int, got {type(playouts).__name__}")
            if not 1 <= playouts <= MAX_PLAYOUTS:
                raise ValueError(f"playouts must be from 1 to {MAX_PLAYOUTS:,}, got {brief(playouts)}")
        warnings.warn(
            "TreeSearchBot is deprecated since 0.3.0: it plays weaker than SearchBot and PlanningBot "
            "(use make_bot('plan') or make_bot('montecarlo'))",
            DeprecationWarning,
            stacklevel=2,
        )
        self.seed = seed
        self.playouts = playouts
        self.seconds = None if seconds is None else float(seconds)

    @classmethod
    def at_level(cls, level: str, seed: int = 0) -> TreeSearchBot:
        """The bot at a named level of :data:`~crapette.bots.LEVELS`: ``"easy"``, ``"normal"`` or ``"strong"``.

        :raises ValueError: if there is no such level.
        """
        playouts = LEVELS.get(level.strip().lower()) if isinstance(level, str) else None
        if playouts is None:
            raise ValueError(f"unknown level {brief(level)}: expected one of {', '.join(LEVELS)}")
        return cls(seed=seed, playouts=playouts)

    def __repr__(self) -> str:
        budget = f"playouts={self.playouts}" if self.playouts is not None else f"seconds={self.seconds}"
        return f"TreeSearchBot(seed={self.seed}, {budget})"

    def __eq__(self, other: object) -> bool:
        return type(other) is TreeSearchBot and (other.seed, other.playouts, other.seconds) == (
            self.seed,
            self.playouts,
            self.seconds,
        )

    def __hash__(self) -> int:
        return hash(("TreeSearchBot", self.seed, self.playouts, self.seconds))

    def choose(self, state: GameState | PublicView) -> Move:
        """The move the search finds best in ``state`` (a :class:`~crapette.GameState` or its view).

        The move depends on the bot's parameters and the view only.

        :raises ValueError: if the game is over.
        :raises TypeError: if ``state`` is neither a :class:`~crapette.GameState` nor a :class:`~crapette.PublicView`.
        """
        # The look ahead never goes back to the position it left: the engine's revisits rule (see Crapette.strict_state).
        root = _GAME.strict_state(crapette_state(state))
        v = view(root)
        moves = v.legal_moves
        if len(moves) == 1:
            move = moves[0]
        elif all(type(m) is Play and m.target.id < T0 for m in moves):
            # Only foundation plays (compulsory moves): the greedy order among them will do.
            move = greedy_choice(dealer(v).deal(None), moves)
        else:
            move = self._search(v, every_move=0).best
        return move

    def __setstate__(self, state: dict[str, Any]) -> None:
        # A bot pickled by 0.3.0 also carries the position it searched last: it decides nothing now.
        self.__dict__.update({k: v for k, v in state.items() if k != "_next"})

    def search(self, state: GameState | PublicView, *, every_move: int = 0) -> SearchResult:
        """Search ``state`` and return every legal move's statistics, even with one legal move.

        ``every_move`` makes each legal move be tried at least that many times
        before the tree policy takes over, so that each gets a value worth
        comparing (what an analysis needs).

        :raises ValueError: if the game is over.
        """
        return self._search(checked_view(state, "search"), every_move=every_move)

    def _search(self, v: PublicView, every_move: int) -> SearchResult:
        search = _Search(v, seeded_rng(_GAME, self.seed, v))
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        # The tree grows a node an iteration: a time budget stops at MAX_PLAYOUTS too.
        budget = self.playouts if self.playouts is not None else MAX_PLAYOUTS
        moves = v.legal_moves
        forced = len(moves) * check_int("every_move", every_move, 0)
        done = 0
        while done < budget:
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            search.iterate(done, moves[done % len(moves)] if done < forced else None)
            done += 1
        return search.result(done)


class _Search:
    """One search: the tree, the pool of deals, and what the root position is worth."""

    def __init__(self, v: PublicView, rng: random.Random) -> None:
        self.moves = v.legal_moves
        self.player = v.current_player
        self.root = _Node(1 - self.player)
        deal = dealer(v)
        # A pool of deals reused in turn: the moves are compared in the same
        # deals (common random numbers), so the noise of sampling the unseen
        # cards cancels between them instead of deciding the comparison.
        self.worlds = [deal.deal(rng) for _ in range(_WORLDS)]
        sample = self.worlds[0]
        self.before = evaluate(sample, self.player)
        # The greedy heuristic orders the moves tried first at the root and breaks ties.
        quick = greedy_scores(sample, self.moves, lookahead=False)
        self.rank = {m: quick[i] for i, m in enumerate(self.moves)}

    def iterate(self, number: int, first: Move | None) -> None:
        """One iteration in deal ``number`` of the pool: select, expand, play on, back up."""
        player = self.player
        node = self.root
        path = [node]
        state = self.worlds[number % len(self.worlds)]
        while not state.is_over:
            legal: Sequence[Move] = legal_moves(state)
            children = node.children
            move = first
            first = None
            if move is None:
                untried = [m for m in legal if m not in children]
                if untried:
                    move = untried[0]
                    if len(untried) > 1:
                        if node is self.root:
                            scores = [self.rank[m] for m in untried]
                        else:
                            scores = greedy_scores(state, untried, lookahead=False)
                        move = untried[scores.index(max(scores))]
                else:
                    move = _select(children, legal)
            mover = state.current_player
            state = apply_move(state, move)
            child = children.get(move)
            if child is None:
                children[move] = child = _Node(mover)
                path.append(child)
                break
            path.append(child)
            node = child
        # Play on until the root player is to move again after an opponent's
        # turn, so that every leaf is scored at the same point of the turn.
        waited = state.current_player != player
        for _ in range(_ROLLOUT_LIMIT):
            if state.is_over or (waited and state.current_player == player):
                break
            state = apply_move(state, greedy_move(state))
            if state.current_player != player:
                waited = True
        reward = _reward(evaluate(state, player), self.before)
        for visited in path:
            visited.visits += 1
            visited.total += reward if visited.mover == player else 1.0 - reward

    def result(self, playouts: int) -> SearchResult:
        """The root's moves with their statistics, the one to play first."""
        stats = []
        for m in self.moves:
            child = self.root.children.get(m)
            visits = 0 if child is None else child.visits
            stats.append(MoveValue(m, visits, child.total / visits if child is not None and visits else 0.0))
        position = {m: i for i, m in enumerate(self.moves)}
        stats.sort(key=lambda s: (-s.visits, -s.value, -self.rank[s.move], position[s.move]))
        return SearchResult(tuple(stats), playouts)


def _select(children: dict[Move, _Node], legal: Sequence[Move]) -> Move:
    """UCB1 among the children legal in this deal, counting how often each was available."""
    best = -1.0
    chosen = legal[0]
    for m in legal:
        child = children[m]
        child.available += 1
        score = child.total / child.visits + _EXPLORATION * math.sqrt(math.log(child.available) / child.visits)
        if score > best:
            best, chosen = score, m
    return chosen
