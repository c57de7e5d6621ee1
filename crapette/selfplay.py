"""Self-play in bulk: games between two copies of one policy, for learning an evaluation.

:func:`self_play` deals games from consecutive seeds and plays each to its end
with one policy for both players, keeping the positions a learner wants (the
first position of every turn, by default) and the outcome. Where the compiled
kernel runs the rules (:mod:`crapette.kernel`) the games are played inside it;
elsewhere the same games are played in Python: the results are equal either
way, only the speed differs.

>>> games = self_play("classic", games=2, seed=7)
>>> [game.seed for game in games], [game.states[0].move_count for game in games]
([7, 8], [0, 0])
>>> all(game.outcome is not None for game in games), games == self_play("classic", games=2, seed=7)
(True, True)

The policies are the greedy heuristic of :class:`~crapette.bots.GreedyBot`
(``"greedy"``), the same without its look-ahead (``"fast"``: the move the
search bots' playouts play), and uniformly random moves (``"random"``);
``epsilon`` mixes a random move into a policy with that probability. The random
draws come from SplitMix64 (the generator of the deal, :func:`~crapette.shuffled_deck`)
started at ``deal_seed ^ 0x73656C66706C6179``, one stream per game, so a game
depends only on its seed and the arguments.

.. versionadded:: 0.3.0
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from . import kernel
from ._core.checks import check_int, check_seed
from ._core.engine import apply_move, legal_moves, new_game
from ._core.messages import brief
from ._core.outcome import MAX_NUMBER, Outcome
from ._core.rules import RuleSet, to_rules
from ._core.state import GameState
from ._play.greedy import greedy_move, greedy_scores
from .protocol import DEFAULT_MAX_MOVES

__all__ = ["KEEP", "POLICIES", "SelfPlayGame", "play_out", "self_play"]

#: The policies :func:`self_play` plays, by name.
POLICIES = ("greedy", "fast", "random")
#: Which positions :func:`self_play` keeps: the first of every turn, every one before a move, none.
KEEP = ("turns", "moves", "none")

_SALT = 0x73656C66706C6179   # "selfplay"
_MASK = (1 << 64) - 1
# The kernel's numbers for the policies and the positions kept (csrc/selfplay.c).
_POLICY_CODE = {"random": 0, "fast": 1, "greedy": 2}
_KEEP_CODE = {"none": 0, "turns": 1, "moves": 2}


@attrs.frozen
class SelfPlayGame:
    """One game of :func:`self_play`: its deal's seed, the positions kept, how it ended, its length.

    ``outcome`` is None when ``max_moves`` cut the game short.

    >>> game = self_play("classic", games=1, seed=3, keep="none")[0]
    >>> game.seed, game.states, game.outcome.reason
    (3, (), EndReason.EMPTIED)
    """

    #: The game was dealt by ``new_game(rules, seed)``.
    seed: int
    #: The positions kept, in the order they were reached.
    states: tuple[GameState, ...]
    outcome: Outcome | None
    #: The moves played.
    moves: int


class _Stream:
    """SplitMix64: the random numbers of one game (csrc/play.c draws the same)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def unit(self) -> float:
        return (self.next() >> 11) * 2.0**-53


def _play(start: GameState, seed: int, policy: str, epsilon: float, max_moves: int, keep: str) -> SelfPlayGame:
    """One game in Python: what csrc/selfplay.c does in the kernel."""
    stream = _Stream(seed)
    state = start
    kept: list[GameState] = []
    previous = -1
    count = 0
    while not state.is_over and count < max_moves:
        if keep == "moves" or (keep == "turns" and state.current_player != previous):
            kept.append(state)
        previous = state.current_player
        moves = legal_moves(state)
        if len(moves) == 1:
            move = moves[0]
        elif policy == "random" or (epsilon > 0.0 and stream.unit() < epsilon):
            move = moves[stream.below(len(moves))]
        elif policy == "fast":
            move = greedy_move(state)
        else:
            scores = greedy_scores(state, moves)
            move = moves[scores.index(max(scores))]
        state = apply_move(state, move)
        count += 1
    return SelfPlayGame(0, tuple(kept), state.outcome, count)


def self_play(
    rules: RuleSet | str,
    games: int,
    *,
    seed: int = 0,
    policy: str = "greedy",
    epsilon: float = 0.0,
    max_moves: int = DEFAULT_MAX_MOVES,
    keep: str = "turns",
) -> list[SelfPlayGame]:
    """Play ``games`` games of self-play under ``rules``, dealt from seeds ``seed``, ``seed + 1``, ...

    Both players follow ``policy`` (one of :data:`POLICIES`); with probability
    ``epsilon`` a decision is a uniformly random legal move instead (a position
    with one legal move draws nothing). A game stops when it is over or after
    ``max_moves`` moves. ``keep`` (one of :data:`KEEP`) says which positions
    each :class:`SelfPlayGame` holds: the first of every turn (``"turns"``),
    every position before a move (``"moves"``), or none.

    >>> game = self_play("casual", games=1, policy="random", keep="moves", max_moves=50)[0]
    >>> len(game.states), game.moves, game.outcome
    (50, 50, None)

    :raises ValueError: if ``games`` or ``max_moves`` is negative, a seed out of
        range, ``policy`` or ``keep`` unknown, or ``epsilon`` not from 0 to 1.
    :raises TypeError: if an argument has the wrong type.
    """
    rules = to_rules(rules, "self_play()")
    games = check_int("games", games, 0)
    max_moves = check_int("max_moves", max_moves, 0)
    check_seed(seed)
    if games:
        check_seed(seed + games - 1)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {brief(policy)}: expected one of {', '.join(POLICIES)}")
    if keep not in KEEP:
        raise ValueError(f"keep must be one of {', '.join(KEEP)}, got {brief(keep)}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be a number from 0 to 1, got {brief(epsilon)}")
    epsilon = float(epsilon)
    deals = list(range(seed, seed + games))
    starts = [new_game(rules, deal) for deal in deals]
    streams = [deal ^ _SALT for deal in deals]
    found = kernel.self_play(starts, streams, _POLICY_CODE[policy], epsilon, min(max_moves, MAX_NUMBER), _KEEP_CODE[keep])
    if found is not None:
        return [SelfPlayGame(deal, *game) for deal, game in zip(deals, found)]
    return [
        attrs.evolve(_play(start, stream, policy, epsilon, max_moves, keep), seed=deal)
        for deal, start, stream in zip(deals, starts, streams)
    ]


def play_out(
    states: Sequence[GameState],
    *,
    seed: int = 0,
    policy: str = "greedy",
    epsilon: float = 0.0,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> list[SelfPlayGame]:
    """Play each of ``states`` on to its end with ``policy`` for both players: rollouts, in the kernel where it runs.

    As :func:`self_play`, but from given positions: state ``i`` draws its
    random numbers from the stream of ``seed + i`` and stops when its game is
    over or after ``max_moves`` more moves. The games keep no positions; each
    :class:`SelfPlayGame` has the seed ``seed + i``.

    >>> from crapette import new_game
    >>> ends = play_out([new_game("classic", seed=4)] * 2, seed=1)
    >>> [game.outcome is not None for game in ends], ends[0] == play_out([new_game("classic", seed=4)], seed=1)[0]
    ([True, True], True)

    :raises TypeError: if a state is not a :class:`~crapette.GameState`.
    :raises ValueError: as :func:`self_play` does for its arguments.
    """
    states = list(states)
    for state in states:
        if not isinstance(state, GameState):
            raise TypeError(f"play_out() expects GameStates, got {type(state).__name__}")
    max_moves = check_int("max_moves", max_moves, 0)
    check_seed(seed)
    if states:
        check_seed(seed + len(states) - 1)
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {brief(policy)}: expected one of {', '.join(POLICIES)}")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be a number from 0 to 1, got {brief(epsilon)}")
    seeds = [seed + i for i in range(len(states))]
    streams = [s ^ _SALT for s in seeds]
    found = kernel.self_play(states, streams, _POLICY_CODE[policy], float(epsilon), min(max_moves, MAX_NUMBER), 0)
    if found is not None:
        return [SelfPlayGame(s, *game) for s, game in zip(seeds, found)]
    return [
        attrs.evolve(_play(state, stream, policy, float(epsilon), max_moves, "none"), seed=s)
        for s, state, stream in zip(seeds, states, streams)
    ]
