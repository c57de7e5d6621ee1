"""A fixed yardstick: SearchBot(200) as it was at commit 4b7ca19, frozen, on the public API only.

The library's bots change; a strength figure needs an opponent that does
not. :class:`Yardstick` is a self-contained copy of ``crapette.bots.SearchBot``
as of commit 4b7ca19 (before the turn planner), with every helper it used:
the greedy scores (with and without look-ahead), the fast greedy move of the
playouts, the greedy playout to the end of the opponent's next turn, the
evaluation in cards, the dealing of the unseen cards (``determinize``) and
the generator seeded by the bot's seed and a checksum of the view. It uses
only ``crapette``'s public names (``view``, ``legal_moves``, ``apply_move``,
``GameState``, ``Pile``, the move classes, ``Scoring``, ``LoadTarget``,
``ALL_CARDS``), so it keeps playing the same moves while the private modules
change; only a change to the rules engine itself (the legal moves, their
order, what a move does) or to the fields of the public view it reads could
change its play. ``tests/benchmarks/test_yardstick.py`` pins its moves on about 30
positions.

>>> from crapette import legal_moves, new_game
>>> state = new_game("classic", seed=5)
>>> bot = Yardstick(seed=1)
>>> bot, bot.name
(Yardstick(seed=1, budget=200), 'yardstick')
>>> bot.choose(state) in legal_moves(state)
True
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Sequence

from crapette import (
    ALL_CARDS,
    Card,
    Draw,
    EndTurn,
    GameState,
    LoadTarget,
    Move,
    MoveStack,
    Pile,
    PileKind,
    Play,
    PublicView,
    Scoring,
    apply_move,
    legal_moves,
    view,
)

__all__ = ["Yardstick", "determinize", "greedy_scores"]

_F, _T, _R, _W, _H = PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE, PileKind.HAND
_R0, _H0, _W0 = Pile.reserve(0).id, Pile.hand(0).id, Pile.waste(0).id


def _check_seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed}")
    return seed


def _check_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"choose() expects a GameState, got {type(state).__name__}")
    if state.is_over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return state


# The generator of a position ---------------------------------------------------


def _view_key(v: PublicView) -> int:
    """A checksum of everything the view shows, to seed the bot's generator per position."""
    parts = [v.current_player, v.move_count, int(v.drawn), v.passes, *v.exhausted, *v.played]
    parts += [*v.reserve_sizes, *v.hand_sizes]
    for top in v.reserve_tops:
        parts.append(255 if top is None else top.index)
    for group in (v.foundations, v.tableau, v.wastes):
        for pile in group:
            parts.append(200 + len(pile))
            parts.extend(card.index for card in pile)
    data = b"".join(n.to_bytes(4, "little") for n in parts)
    return zlib.crc32(data)


def _rng(seed: int, v: PublicView) -> random.Random:
    return random.Random(seed * 4294967296 + _view_key(v))


# Dealing the unseen cards ------------------------------------------------------


def _unseen(v: PublicView) -> list[Card]:
    """The cards nobody can see in ``v``, in the order of ``ALL_CARDS``."""
    seen: set[Card] = set()
    for group in (v.foundations, v.tableau, v.wastes):
        for pile in group:
            seen.update(pile)
    seen.update(top for top in v.reserve_tops if top is not None)
    return [card for card in ALL_CARDS if card not in seen]


def determinize(v: PublicView, rng: random.Random | None = None) -> GameState:
    """A full state that shows ``v``: the unseen cards dealt into the face-down slots (as at 4b7ca19).

    Each deck whose unseen cards may go only to its owner's reserve or hand
    (the rules load neither) is shuffled and dealt there first; the rest are
    shuffled together into the remaining slots. ``rng=None`` keeps the cards
    in ascending order.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=5)
    >>> view(determinize(view(state), random.Random(0))) == view(state)
    True
    """
    unseen = _unseen(v)
    rules = v.rules
    foreign = {_R: LoadTarget.RESERVE in rules.load_targets, _H: LoadTarget.WASTE in rules.load_targets}
    slots = []
    for player in (0, 1):
        slots.append((player, _R, max(v.reserve_sizes[player] - 1, 0)))
        slots.append((player, _H, v.hand_sizes[player]))
    filled: dict[tuple[int, PileKind], list[Card]] = {}
    pool = unseen
    for deck in (0, 1):
        own = [(p, k, n) for p, k, n in slots if p == deck and not foreign[k] and n]
        if not own:
            continue
        cards = [c for c in pool if c.deck == deck]
        if rng is not None:
            rng.shuffle(cards)
        taken = 0
        for p, k, n in own:
            filled[(p, k)] = cards[taken : taken + n]
            taken += n
        used = set(cards[:taken])
        pool = [c for c in pool if c not in used]
    pool = list(pool)
    if rng is not None:
        rng.shuffle(pool)
    taken = 0
    for p, k, n in slots:
        if (p, k) not in filled:
            filled[(p, k)] = pool[taken : taken + n]
            taken += n
    reserves = []
    for player in (0, 1):
        top = v.reserve_tops[player]
        reserves.append(tuple(filled[(player, _R)]) + (() if top is None else (top,)))
    hands = [tuple(filled[(player, _H)]) for player in (0, 1)]
    piles = (*v.foundations, *v.tableau, *reserves, *hands, *v.wastes)
    return GameState(
        rules=v.rules,
        piles=piles,
        current_player=v.current_player,
        move_count=v.move_count,
        drawn=v.drawn,
        passes=v.passes,
        exhausted=v.exhausted,
        played=v.played,
        counters=v.counters,
    )


# The greedy heuristic ------------------------------------------------------------

_FOUNDATION = 1000
_FOUNDATION_SOURCE = {_R: 30, _W: 20, _T: 10}
_RESERVE_TO = {_R: 540, _W: 530}
_RESERVE_TO_TABLEAU = 500
_WASTE_TO = {_R: 440, _W: 430}
_WASTE_TO_TABLEAU = 400
_TABLEAU_TO = {_R: 300, _W: 290}
_SHUFFLE_OPENS_FOUNDATION = 350
_SHUFFLE_OPENS_RESERVE = 340
_SHUFFLE_OPENS_WASTE = 240
_SHUFFLE_USELESS = -100
_DRAW = 100
_END_TURN = 50
_KEEP_EMPTY = 10


def greedy_scores(world: GameState, moves: Sequence[Move], lookahead: bool = True) -> list[int]:
    """The greedy heuristic's score of each move (GreedyBot's, as at 4b7ca19).

    Without ``lookahead`` moves between tableau piles all score as useless.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=1)
    >>> greedy_scores(state, legal_moves(state))
    [510, 340, 100]
    """
    piles = world.piles
    player = world.current_player
    scores = []
    legal_here: frozenset[Move] | None = None
    for move in moves:
        if isinstance(move, Play):
            skind, tkind = move.source.kind, move.target.kind
            if tkind is _F:
                scores.append(_FOUNDATION + _FOUNDATION_SOURCE[skind])
                continue
            keep = _KEEP_EMPTY if piles[move.target.id] else 0
            if skind is _R:
                score = _RESERVE_TO.get(tkind, _RESERVE_TO_TABLEAU + keep)
            elif skind is _W:
                score = _WASTE_TO.get(tkind, _WASTE_TO_TABLEAU + keep)
            elif tkind is not _T:
                score = _TABLEAU_TO[tkind]
            elif not lookahead:
                score = _SHUFFLE_USELESS
            else:
                if legal_here is None:
                    legal_here = frozenset(moves)
                score = _shuffle_score(world, move, legal_here, player)
            scores.append(score)
        elif isinstance(move, MoveStack):
            if not lookahead:
                scores.append(_SHUFFLE_USELESS)
                continue
            if legal_here is None:
                legal_here = frozenset(moves)
            scores.append(_shuffle_score(world, move, legal_here, player))
        elif isinstance(move, Draw):
            scores.append(_DRAW)
        elif isinstance(move, EndTurn):
            scores.append(_END_TURN)
        else:
            scores.append(0)
    return scores


def _shuffle_score(world: GameState, move: Move, before: frozenset[Move], player: int) -> int:
    """Score a move between tableau piles by what it opens up for the next move."""
    after = apply_move(world, move)
    if after.current_player != player or after.is_over:
        return _SHUFFLE_USELESS
    best = _SHUFFLE_USELESS
    for new in legal_moves(after):
        if new in before or not isinstance(new, Play):
            continue
        skind = new.source.kind
        if new.target.kind is _F:
            return _SHUFFLE_OPENS_FOUNDATION
        if skind is _R:
            best = max(best, _SHUFFLE_OPENS_RESERVE)
        elif skind is _W:
            best = max(best, _SHUFFLE_OPENS_WASTE)
    return best


def _quick_score(move: Move) -> tuple[int, int, int]:
    """The greedy score without look-ahead: (onto a non-empty pile, onto an empty one, the target's id)."""
    if isinstance(move, Play):
        skind, tkind, target = move.source.kind, move.target.kind, move.target.id
        if tkind is _F:
            score = _FOUNDATION + _FOUNDATION_SOURCE[skind]
            return score, score, target
        if skind is _R:
            table, tableau = _RESERVE_TO, _RESERVE_TO_TABLEAU
        elif skind is _W:
            table, tableau = _WASTE_TO, _WASTE_TO_TABLEAU
        elif tkind is _T:
            return _SHUFFLE_USELESS, _SHUFFLE_USELESS, target
        else:
            return _TABLEAU_TO[tkind], _TABLEAU_TO[tkind], target
        if tkind in table:
            return table[tkind], table[tkind], target
        return tableau + _KEEP_EMPTY, tableau, target
    if isinstance(move, Draw):
        score = _DRAW
    elif isinstance(move, EndTurn):
        score = _END_TURN
    elif isinstance(move, MoveStack):
        score = _SHUFFLE_USELESS
    else:
        score = 0
    return score, score, 0


class _Quick(dict[Move, tuple[int, int, int]]):
    """The quick scores, worked out the first time each move is met."""

    def __missing__(self, move: Move) -> tuple[int, int, int]:
        score = self[move] = _quick_score(move)
        return score


_QUICK = _Quick()


def _fast_move(world: GameState) -> Move:
    """The greedy move without look-ahead: the first legal move with the highest quick score."""
    moves = legal_moves(world)
    if len(moves) == 1:
        return moves[0]
    piles = world.piles
    quick = _QUICK
    best = moves[0]
    nonempty, empty, target = quick[best]
    top = nonempty if piles[target] else empty
    for move in moves:
        nonempty, empty, target = quick[move]
        score = nonempty if piles[target] else empty
        if score > top:
            best, top = move, score
    return best


# Search ---------------------------------------------------------------------------

_HORIZON = 200
_WIN = 10_000
_PREFER_USEFUL = 0.5
_TIE_BREAK = 1e-6
_RESERVE_READY = 1.0
_HEURISTIC_SCORING = Scoring()


def _penalty(scoring: Scoring, piles: tuple[tuple[Card, ...], ...], player: int) -> int:
    return scoring.penalty(
        reserve=len(piles[_R0 + player]), hand=len(piles[_H0 + player]), waste=len(piles[_W0 + player])
    )


def _evaluate(state: GameState, player: int) -> float:
    """The opponent's penalty minus the player's, +-10000 for a finished game, +1 for a playable reserve top."""
    outcome = state.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return float(_WIN if outcome.winner == player else -_WIN)
    piles = state.piles
    scoring = state.rules.scoring or _HEURISTIC_SCORING
    value = float(_penalty(scoring, piles, 1 - player) - _penalty(scoring, piles, player))
    if state.current_player == player:
        reserve = _R0 + player
        for move in legal_moves(state):
            if isinstance(move, Play) and move.source.id == reserve:
                return value + _RESERVE_READY
    return value


def _playout(world: GameState, player: int) -> float:
    """Play on greedily to the end of the opponent's next turn, then evaluate for ``player``."""
    state = world
    turns_left = 2 if state.current_player == player else 1
    last = state.current_player
    for _ in range(_HORIZON):
        if state.is_over:
            break
        state = apply_move(state, _fast_move(state))
        if state.current_player != last:
            last = state.current_player
            turns_left -= 1
            if turns_left == 0:
                break
    return _evaluate(state, player)


class Yardstick:
    """SearchBot as of commit 4b7ca19: flat Monte Carlo over greedy playouts, ``budget`` playouts a decision.

    In ``budget // len(moves)`` (at least one) worlds dealt from the public
    view, every legal move is played out greedily to the end of the
    opponent's next turn and scored in cards; the best average wins. A move
    between tableau piles that the greedy heuristic finds useless must win by
    half a card; exact ties go to the greedy favourite; when every move is a
    foundation play the greedy choice is played without sampling.

    >>> from crapette import new_game
    >>> state = new_game("casual", seed=3)
    >>> Yardstick(seed=2).choose(state) == Yardstick(seed=2).choose(state)
    True
    >>> Yardstick(budget=0)
    Traceback (most recent call last):
    ...
    ValueError: budget must be at least 1 playout, got 0
    """

    name = "yardstick"

    #: The number of playouts per decision of the frozen SearchBot.
    DEFAULT_BUDGET = 200

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET) -> None:
        self.seed = _check_seed(seed)
        if not isinstance(budget, int) or isinstance(budget, bool):
            raise TypeError(f"budget must be an int, got {type(budget).__name__}")
        if budget < 1:
            raise ValueError(f"budget must be at least 1 playout, got {budget}")
        self.budget = budget

    def __repr__(self) -> str:
        return f"Yardstick(seed={self.seed}, budget={self.budget})"

    def __eq__(self, other: object) -> bool:
        return type(other) is Yardstick and (other.seed, other.budget) == (self.seed, self.budget)

    def __hash__(self) -> int:
        return hash(("Yardstick", self.seed, self.budget))

    def choose(self, state: GameState) -> Move:
        """The legal move of ``state`` with the best average playout.

        :raises TypeError: if ``state`` is not a GameState.
        :raises ValueError: if the game is over.
        """
        v = view(_check_state(state))
        moves = v.legal_moves
        if len(moves) == 1:
            return moves[0]
        greedy = greedy_scores(determinize(v), moves)
        if min(greedy) >= _FOUNDATION:
            return moves[greedy.index(max(greedy))]
        rng = _rng(self.seed, v)
        player = v.current_player
        samples = max(1, self.budget // len(moves))
        totals = [0.0] * len(moves)
        for _ in range(samples):
            world = determinize(v, rng)
            for i, move in enumerate(moves):
                totals[i] += _playout(apply_move(world, move), player)
        values = [
            total / samples + (_PREFER_USEFUL if score >= 0 else 0.0) + score * _TIE_BREAK
            for total, score in zip(totals, greedy)
        ]
        return moves[values.index(max(values))]
