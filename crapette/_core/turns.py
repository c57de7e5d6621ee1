"""Turns: which moves reveal a face-down card, and the positions a turn can reach before one does.

Within a turn a player sees everything that decides their choice until a move
turns a face-down card face up: a Draw, or a play of the reserve's top card
that uncovers the next one. :func:`reveals` says which moves do, and
:func:`turn_ends` lists every position the player to move can reach before
making one: the natural unit of a decision.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable
from typing import Any

import attrs

from .engine import apply_move, legal_moves
from .messages import brief
from .moves import Draw, Move, MoveStack, Play
from .shapes import pile_groups, shapes
from .state import H0, R0, T0, GameState

__all__ = ["DEFAULT_TURN_LIMIT", "MAX_TURN_LIMIT", "TurnEnd", "TurnEnds", "position_key", "reveals", "turn_ends"]

#: How many positions :func:`turn_ends` collects by default before it stops.
DEFAULT_TURN_LIMIT = 2000
#: The largest ``limit`` :func:`turn_ends` takes: the positions it holds (about 5 kB each) fit in 100 MB.
MAX_TURN_LIMIT = 20_000


def reveals(state: GameState, move: Move) -> bool:
    """True if ``move`` turns a card face up that nobody has seen in ``state``'s game.

    A Draw does unless the mover's hand is known (see
    :attr:`PublicView.known_hands <crapette.PublicView.known_hands>`): a hand
    formed by turning the waste over, or an empty hand, whose turnover draws
    the card that lay at the bottom of the (public) waste. A play of the
    reserve's top card does when a card lies under it that is not known (one
    loaded onto the reserve and then covered is known: see
    :attr:`PublicView.known_reserve_cards <crapette.PublicView.known_reserve_cards>`).
    No other move does: the cards of the waste, the tableau and the
    foundations are face up. Undoing a move that revealed a card would let
    a player see it again before deciding, so frontends undo only moves for
    which this is False (see :meth:`crapette.Game.undo`).

    >>> from crapette import new_game, parse_move
    >>> state = new_game("classic", seed=7)
    >>> reveals(state, parse_move("draw")), reveals(state, parse_move("T0-T1"))
    (True, False)

    The move need not be legal: only what it would turn over is looked at;
    what the game's history made known is not revealed again.

    .. versionadded:: 0.3.0
    """
    cls = type(move)
    if cls is Draw:
        player = state.current_player
        return bool(state.piles[H0 + player]) and not state.hand_known[player]
    if cls is Play:
        source = move.source.id  # type: ignore[attr-defined]
        player = state.current_player
        return source == R0 + player and len(state.piles[source]) > 1 and not state.reserve_known[player]
    return False


def position_key(state: GameState) -> Hashable:
    """What a position is within a turn: two states with equal keys offer the same choices for the rest of it.

    The key forgets the order of interchangeable piles (the foundations, and
    tableau piles that both players build on and move from alike: see
    :func:`turn_ends`), and what cannot change the choices left in a turn:
    the move count, what the game's history made known (within a turn it
    follows from the piles: loads and draws only add to it), and the
    positions the turn has reached (:attr:`~crapette.GameState.turn_moves`),
    which bar moves back to them but no position ahead. :func:`turn_ends`
    merges positions by it, and the bots know a position by it.

    >>> from crapette import apply_move, new_game, parse_move
    >>> state = new_game("classic", seed=7)
    >>> there = apply_move(state, parse_move("T5-F0"))
    >>> position_key(there) == position_key(state), position_key(there) == position_key(there)
    (False, True)

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.

    .. versionadded:: 0.3.0
    """
    if not isinstance(state, GameState):
        raise TypeError(f"position_key() expects a GameState, got {type(state).__name__}")
    return _key(state, pile_groups(state.rules), _same)


def _same(pile: tuple[Any, ...]) -> Any:
    return pile


def _key(state: GameState, groups: tuple[tuple[int, ...], ...], ident: Any) -> tuple[Any, ...]:
    # The one definition of the key; ``ident`` stands a pile for itself (turn_ends
    # passes a function that numbers the piles it has met, which hash faster).
    ids = [ident(p) for p in state.piles]
    empty = ident(())
    merged = tuple(frozenset(ids[i] for i in group if ids[i] != empty) for group in groups)
    flags = (state.current_player, state.drawn, state.passes, state.exhausted, state.played, state.counters)
    return (*merged, *ids[R0:], flags)


@attrs.frozen
class TurnEnd:
    """A position the player to move can reach without revealing a card, and one shortest way there.

    ``moves`` applied one by one with :func:`~crapette.apply_move` from the
    state given to :func:`turn_ends` lead to ``state``.

    >>> from crapette import apply_move, new_game
    >>> start = new_game("classic", seed=7)
    >>> end = turn_ends(start)[1]
    >>> [str(m) for m in end.moves], apply_move(start, end.moves[0]) == end.state
    (['T5-F0'], True)
    """

    #: The moves from the starting position, first to last (empty for the starting position itself).
    moves: tuple[Move, ...]
    #: The position they reach; the same player is to move unless the game is over.
    state: GameState


class TurnEnds(tuple[TurnEnd, ...]):
    """The tuple of :class:`TurnEnd` that :func:`turn_ends` returns, with :attr:`complete`.

    >>> from crapette import new_game
    >>> ends = turn_ends(new_game("classic", seed=7), limit=3)
    >>> len(ends), ends.complete
    (3, False)
    """

    #: False when the search stopped at its limit with positions left unexplored.
    complete: bool

    def __new__(cls, ends: list[TurnEnd], complete: bool) -> TurnEnds:
        self = super().__new__(cls, ends)
        self.complete = complete
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        return (list(self), self.complete)


def turn_ends(state: GameState, *, limit: int = DEFAULT_TURN_LIMIT) -> TurnEnds:
    """Every position the player to move can reach from ``state`` without revealing a card.

    The positions are those reached by moves for which :func:`reveals` is
    False and that keep the turn (so neither End turn, Pass, a reserve play
    that uncovers a card nobody has seen, nor a Draw unless the hand is known
    and the card drawn can be played), ``state`` itself first. From any of
    them the player goes on with a move that reveals a card or ends the turn.
    Each comes as a :class:`TurnEnd` with one shortest move sequence, in
    breadth-first order: by the number of moves, then by the order of
    :func:`~crapette.legal_moves` along the way. A move that wins the game
    gives a position too, which is not searched further.

    Positions with the same :func:`position_key` are merged, and the first
    one found stands for them (it has the fewest moves): positions that
    differ only in the order of interchangeable piles, which are the
    foundations (any card may go to any foundation that takes it) and
    tableau piles that every player builds on and moves from alike (all
    eight houses of the classic game; each player's four piles in the casual
    game), or in what cannot change the rest of the turn (the move count,
    what the history made known, the positions the turn has reached). Under
    rules with endings of one's own (``RuleSet.endings``), which may look at
    any pile, no piles are merged.

    The search stops after ``limit`` positions (:data:`DEFAULT_TURN_LIMIT`);
    then the result's :attr:`~TurnEnds.complete` is False and it holds the
    ``limit`` positions nearest to ``state``. ``limit`` is at most
    :data:`MAX_TURN_LIMIT`, which bounds the memory it takes.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=7)
    >>> ends = turn_ends(state)
    >>> len(ends), ends.complete, ends[0].state is state
    (7, True, True)
    >>> [str(m) for m in ends[2].moves]
    ['T5-F0', 'T2-T6']

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    :raises ValueError: if ``limit`` is not an int from 1 to :data:`MAX_TURN_LIMIT`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"turn_ends() expects a GameState, got {type(state).__name__}")
    if type(limit) is not int or not 1 <= limit <= MAX_TURN_LIMIT:
        raise ValueError(f"turn_ends(): limit must be an int from 1 to {MAX_TURN_LIMIT:,}, got {brief(limit)}")
    if _kernel is not None:
        found = _kernel(state, limit)
        if found is not None:
            return TurnEnds(*found)
    return python_turn_ends(state, limit)


#: The compiled kernel's twin of :func:`python_turn_ends` (see :func:`install`), or None.
_kernel: Any = None


def install(twin: Any = None) -> None:
    """Make :func:`turn_ends` ask ``twin(state, limit)`` first: ``(ends, complete)``, or None for this module's search.

    :mod:`crapette.kernel` installs its twin this way; None takes it away.
    """
    global _kernel
    _kernel = twin


def python_turn_ends(state: GameState, limit: int = DEFAULT_TURN_LIMIT) -> TurnEnds:
    """:func:`turn_ends` worked out by this module: the reference the compiled kernel is held to."""
    classes = pile_groups(state.rules)
    res = R0 + state.current_player
    memo: dict[int, tuple[tuple[Any, ...], int]] = {}
    contents: dict[tuple[Any, ...], int] = {}

    def pile_id(pile: tuple[Any, ...]) -> int:
        # Piles are shared between states, so each tuple object is hashed once;
        # the memo keeps the tuple alive, so its id is not reused meanwhile.
        entry = memo.get(id(pile))
        if entry is None:
            found = contents.get(pile)
            if found is None:
                found = contents[pile] = len(contents)
            memo[id(pile)] = (pile, found)
            return found
        return entry[1]

    def position(s: GameState) -> tuple[Any, ...]:
        return _key(s, classes, pile_id)

    ends = [TurnEnd((), state)]
    seen = {position(state)}
    if state.is_over:
        return TurnEnds(ends, True)
    queue: deque[tuple[GameState, tuple[Move, ...]]] = deque([(state, ())])
    twins = shapes(state.rules).twins
    # A move between tableau piles clears the pass count, and a rule part's
    # counters may count it: then undoing it, or moving a lone card to a twin
    # empty pile, makes a new position, so those are pruned only where neither can be.
    plain = not state.rules.endings
    while queue:
        here, path = queue.popleft()
        last = path[-1] if plain and path and (len(path) > 1 or not state.passes) else None
        lone = plain and (bool(path) or not state.passes)
        piles = here.piles
        for move in legal_moves(here):
            cls = type(move)
            if cls is Play:
                source = move.source.id  # type: ignore[attr-defined]
                target = move.target.id  # type: ignore[attr-defined]
                if source == res and len(piles[source]) > 1 and reveals(here, move):
                    continue
                if move.between_tableau:
                    if last is not None and _undoes(move, last):
                        continue
                    if lone and len(piles[source]) == 1 and not piles[target] and twins[source - T0] >> (target - T0) & 1:
                        continue
            elif cls is MoveStack:
                source = move.source.id  # type: ignore[attr-defined]
                target = move.target.id  # type: ignore[attr-defined]
                if last is not None and _undoes(move, last):
                    continue
                if lone and len(piles[source]) == move.count and not piles[target] and twins[source - T0] >> (target - T0) & 1:  # type: ignore[attr-defined]
                    continue
            elif cls is Draw and not reveals(here, move):
                child = apply_move(here, move)
                if child.current_player != here.current_player and not child.is_over:
                    continue  # the drawn card cannot be played: the turn ended
            else:
                continue  # End turn, Pass and a Draw that reveals a card
            if cls is not Draw:
                child = apply_move(here, move)
            key = position(child)
            if key in seen:
                continue
            seen.add(key)
            moves = (*path, move)
            ends.append(TurnEnd(moves, child))
            if len(ends) >= limit:
                return TurnEnds(ends, False)
            if not child.is_over:
                queue.append((child, moves))
    return TurnEnds(ends, True)


def _undoes(move: Move, last: Move) -> bool:
    """True if ``move`` puts back what ``last`` moved between two tableau piles."""
    if type(last) is Play:
        return (
            type(move) is Play
            and move.source is last.target
            and move.target is last.source
            and T0 <= last.source.id < R0
        )
    if type(last) is MoveStack:
        return (
            type(move) is MoveStack
            and move.source is last.target
            and move.target is last.source
            and move.count == last.count
        )
    return False
