"""The second yardstick: PlanningBot(1000), the ``search`` bot of 0.3.0 before the learned value, frozen.

:class:`PlanYardstick` is a self-contained copy of
``crapette.bots.PlanningBot(seed, playouts=1000)`` as it played at commit
7c55308, with its default ranking and judgement: every turn end of the
current segment ranked by the fitted log-odds of seven public counts (the
weights of that commit), the 500 best candidates (an end and a move out of
it) tried by successive halving in deals of the unseen cards, each judged
by a greedy playout to the end of the opponent's next turn and the cards
left, and the moves of the best played one by one until a card is revealed.
Everything that decides its moves is written here: the planner's loop, the
ranking and its weights, the playout's greedy policy and its count of the
cards, the dealing of the unseen cards and the generator seeded by the bot's
seed and a checksum of the view. From the library it takes only the rules
engine and the public view (``legal_moves``, ``apply_move``, ``reveals``,
``turn_ends``, ``view``, the state's own pickling constructor for the deals,
which needs no check), and three entry points of the compiled kernel, the
reference-checked twins of code written here (the playout, the moves out of
a turn end) or of :meth:`random.Random.shuffle` (drawing the same numbers):
with the kernel off (``CRAPETTE_PURE=1``) the Python below runs and chooses
the same moves.

Later changes to the library's bots, evaluators, ranking weights or defaults
do not change its play; ``tests/benchmarks/test_plan_yardstick.py`` pins its moves, with
and without the kernel, in games against the greedy bot.

>>> from crapette import legal_moves, new_game
>>> state = new_game("classic", seed=5)
>>> bot = PlanYardstick(seed=1)
>>> bot, bot.name
(PlanYardstick(seed=1, playouts=1000), 'plan-yardstick')
>>> bot.choose(state) in legal_moves(state)
True
"""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable, Sequence
from typing import Any

from crapette import (
    ALL_CARDS,
    Card,
    Draw,
    EndTurn,
    GameState,
    LoadTarget,
    Move,
    Pass,
    Pile,
    PileKind,
    Play,
    PublicView,
    Scoring,
    apply_move,
    kernel,
    legal_moves,
    new_game,
    reveals,
    turn_ends,
    view,
)

__all__ = ["PlanYardstick", "fitted_value", "playout_value", "segment_paths"]

_F, _T, _R, _W = PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE
_R0, _H0, _W0, _T0 = Pile.reserve(0).id, Pile.hand(0).id, Pile.waste(0).id, Pile.tableau(0).id

#: The most playouts a plan may spend (as the library allowed at 7c55308).
MAX_PLAYOUTS = 1_000_000
#: The most candidates a plan tries.
MAX_CANDIDATES = 2000

# A state from its fields in GameState's order and its outcome, unchecked: the
# constructor that unpickling uses (GameState.__reduce__), for states valid by
# construction (a deal of a valid view, a valid state with the drawn card forgotten).
_RESTORE: Callable[..., GameState] = new_game("classic", 0).__reduce__()[0]


def _check_seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed}")
    return seed


def _check_playouts(playouts: object) -> int:
    if not isinstance(playouts, int) or isinstance(playouts, bool):
        raise TypeError(f"playouts must be an int, got {type(playouts).__name__}")
    if not 0 <= playouts <= MAX_PLAYOUTS:
        raise ValueError(f"playouts must be from 0 to {MAX_PLAYOUTS}, got {playouts}")
    return playouts


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
    try:
        data = struct.pack(f"<{len(parts)}I", *parts)
    except struct.error:
        data = b"".join(n.to_bytes(4, "little") for n in parts)
    return zlib.crc32(data)


def _rng(seed: int, v: PublicView) -> random.Random:
    return random.Random(seed * 4294967296 + _view_key(v))


# Dealing the unseen cards ------------------------------------------------------


def _known_reserve(v: PublicView, player: int) -> tuple[Card, ...]:
    """The known cards at the top of ``player``'s reserve (at least its top card)."""
    known = v.known_reserve_cards[player]
    top = v.reserve_tops[player]
    return known if known or top is None else (top,)


def _unseen(v: PublicView) -> list[Card]:
    """The cards nobody has seen in ``v``, in the order of ``ALL_CARDS``."""
    seen: set[Card] = set()
    for group in (v.foundations, v.tableau, v.wastes):
        for pile in group:
            seen.update(pile)
    for player in (0, 1):
        seen.update(_known_reserve(v, player))
        seen.update(v.known_hands[player] or ())
    return [card for card in ALL_CARDS if card not in seen]


class _Dealer:
    """Deals the unseen cards of a view into the face-down slots nobody has seen.

    A deck's unseen cards that may lie only in its owner's reserve or hand
    (the rules load neither, or the game was followed from its deal) are
    shuffled and dealt there first; the rest are shuffled together into the
    other slots. ``rng=None`` keeps the cards in ascending order.
    """

    def __init__(self, v: PublicView) -> None:
        self.view = v
        unseen = _unseen(v)
        known = (_known_reserve(v, 0), _known_reserve(v, 1))
        hands = v.known_hands
        slots = [
            [(_R0 + p, v.reserve_sizes[p] - len(known[p])), (_H0 + p, 0 if hands[p] is not None else v.hand_sizes[p])]
            for p in (0, 1)
        ]
        decks = [[c for c in unseen if c.deck == p] for p in (0, 1)]
        own_only = v.from_deal and all(len(decks[p]) == sum(n for _, n in slots[p]) for p in (0, 1))
        loaded = {
            _R0: not own_only and LoadTarget.RESERVE in v.rules.load_targets,
            _H0: not own_only and LoadTarget.WASTE in v.rules.load_targets,
        }
        self.own: list[tuple[int, list[Card], list[tuple[int, int]]]] = []
        self.shared: list[tuple[int, int]] = []
        self.rest: list[list[Card]] = []
        for player in (0, 1):
            own = [(pid, n) for pid, n in slots[player] if n and not loaded[pid - player]]
            self.shared += [(pid, n) for pid, n in slots[player] if n and loaded[pid - player]]
            if own:
                self.own.append((player, decks[player], own))
                self.rest.append([])
            else:
                self.rest.append(decks[player])
        self.tops = known
        self.base: list[tuple[Card, ...]] = [
            *v.foundations, *v.tableau, (), (), *(h or () for h in hands), *v.wastes,
        ]
        self.hand_known = (bool(hands[0]), bool(hands[1]))
        self.reserve_known = (max(0, len(known[0]) - 1), max(0, len(known[1]) - 1))

    def deal(self, rng: random.Random | None) -> GameState:
        """One deal, shuffled by ``rng`` (None: the cards in ascending order)."""
        v = self.view
        piles = self.base[:]
        rest = self.rest[:]
        for deck, cards, slots in self.own:
            if rng is not None:
                cards = cards[:]
                _shuffle(rng, cards)
            start = 0
            for pid, n in slots:
                piles[pid] = tuple(cards[start : start + n])
                start += n
            if start < len(cards):
                rest[deck] = sorted(cards[start:], key=_card_index)
        if self.shared:
            pool = rest[0] + rest[1]
            if rng is not None:
                _shuffle(rng, pool)
            start = 0
            for pid, n in self.shared:
                piles[pid] = tuple(pool[start : start + n])
                start += n
        piles[_R0] = piles[_R0] + self.tops[0]
        piles[_R0 + 1] = piles[_R0 + 1] + self.tops[1]
        return _RESTORE(
            v.rules, tuple(piles), v.current_player, v.move_count, v.drawn, v.passes, v.exhausted, v.played,
            v.counters, self.hand_known, self.reserve_known, v.from_deal, v.turn_moves, v.outcome,
        )


def _card_index(card: Card) -> int:
    return card.index


def _shuffle(rng: random.Random, items: list[Card]) -> None:
    """``rng.shuffle(items)``: in the kernel where it runs (drawing the same numbers), else in Python."""
    if not kernel.shuffle(rng, items):
        rng.shuffle(items)


# The ranking: the fitted log-odds of seven public counts -----------------------

#: The weights of the seven counts (own reserve, own hand and waste, opponent reserve, opponent
#: hand and waste, own reserve top playable, opponent reserve top playable, empty tableau piles),
#: as fitted at 7c55308 by a logistic regression on the turns of 400 greedy classic games.
WEIGHTS = (-0.0291, -0.0325, 0.0304, 0.0242, 0.0174, 0.0, 0.0)


def _reserve_playable(state: GameState, player: int) -> bool:
    """Whether ``player``'s reserve top could be played if ``player`` were to move now (no drawn card)."""
    if state.current_player != player or state.drawn:
        state = _RESTORE(
            state.rules, state.piles, player, state.move_count, False, 0, state.exhausted, state.played,
            state.counters, state.hand_known, state.reserve_known, state.from_deal, (), None,
        )
    reserve = _R0 + player
    for move in legal_moves(state):
        if type(move) is Play and move.source.id == reserve:
            return True
    return False


def fitted_value(state: GameState, player: int) -> float:
    """The ranking of a turn end: the fitted log-odds (up to a constant) that ``player`` wins, 1e9 for a win.

    >>> state = new_game("classic", seed=7)
    >>> round(fitted_value(state, 1), 4)
    -0.2736
    """
    outcome = state.outcome
    if outcome is not None:
        return 0.0 if outcome.winner is None else (1e9 if outcome.winner == player else -1e9)
    piles = state.piles
    other = 1 - player
    own = bool(piles[_R0 + player]) and bool(WEIGHTS[4]) and _reserve_playable(state, player)
    theirs = bool(piles[_R0 + other]) and bool(WEIGHTS[5]) and _reserve_playable(state, other)
    counts = (
        float(len(piles[_R0 + player])),
        float(len(piles[_H0 + player]) + len(piles[_W0 + player])),
        float(len(piles[_R0 + other])),
        float(len(piles[_H0 + other]) + len(piles[_W0 + other])),
        float(own),
        float(theirs),
        float(sum(1 for pile in piles[_T0 : _T0 + 8] if not pile)),
    )
    return sum(w * x for w, x in zip(WEIGHTS, counts))


# The judgement: greedy play to the end of the opponent's next turn, then the cards left

_FOUNDATION = 1000
_FOUNDATION_SOURCE = {_R: 30, _W: 20, _T: 10}
_RESERVE_TO = {_R: 540, _W: 530}
_RESERVE_TO_TABLEAU = 500
_WASTE_TO = {_R: 440, _W: 430}
_WASTE_TO_TABLEAU = 400
_TABLEAU_TO = {_R: 300, _W: 290}
_USELESS = -100
_DRAW = 100
_END_TURN = 50
_KEEP_EMPTY = 10
#: What a finished game is worth: won, or (negated) lost, in cards.
_WIN = 10_000.0
#: Moves a playout may make (a safety net: turns end long before).
_HORIZON = 200
_CLASSIC = Scoring()


def _quick_score(move: Move) -> tuple[int, int, int]:
    """The greedy score without look-ahead: (onto a non-empty pile, onto an empty one, the target's id)."""
    if type(move) is Play:
        skind, tkind, target = move.source.kind, move.target.kind, move.target.id
        if tkind is _F:
            score = _FOUNDATION + _FOUNDATION_SOURCE[skind]
            return score, score, target
        if skind is _R:
            table, tableau = _RESERVE_TO, _RESERVE_TO_TABLEAU
        elif skind is _W:
            table, tableau = _WASTE_TO, _WASTE_TO_TABLEAU
        elif tkind is _T:
            return _USELESS, _USELESS, target
        else:
            return _TABLEAU_TO[tkind], _TABLEAU_TO[tkind], target
        if tkind in table:
            return table[tkind], table[tkind], target
        return tableau + _KEEP_EMPTY, tableau, target
    if type(move) is Draw:
        score = _DRAW
    elif type(move) is EndTurn:
        score = _END_TURN
    else:
        score = _USELESS if move.between_tableau else 0
    return score, score, 0


class _Quick(dict[Move, tuple[int, int, int]]):
    """The quick scores, worked out the first time each move is met."""

    def __missing__(self, move: Move) -> tuple[int, int, int]:
        score = self[move] = _quick_score(move)
        return score


_QUICK = _Quick()


def _fast_move(world: GameState) -> Move:
    """The greedy move without look-ahead: the first of the legal moves with the highest quick score."""
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


def _penalty(scoring: Scoring, piles: tuple[tuple[Card, ...], ...], player: int) -> int:
    return scoring.penalty(
        reserve=len(piles[_R0 + player]), hand=len(piles[_H0 + player]), waste=len(piles[_W0 + player])
    )


def _card_count(state: GameState, player: int) -> float:
    """The opponent's penalty minus the player's, +1 for a reserve top the player to move can play; +-WIN at the end."""
    outcome = state.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return _WIN if outcome.winner == player else -_WIN
    piles = state.piles
    scoring = state.rules.scoring or _CLASSIC
    value = float(_penalty(scoring, piles, 1 - player) - _penalty(scoring, piles, player))
    if state.current_player == player:
        reserve = _R0 + player
        for move in legal_moves(state):
            if move.__class__ is Play and move.source.id == reserve:
                return value + 1.0
    return value


def playout_value(state: GameState, player: int) -> float:
    """The judgement of a candidate: greedy play to the end of the opponent's next turn, then the cards left.

    In the compiled kernel where it runs (the same value), else in the Python below.

    >>> playout_value(new_game("classic", seed=7), 1)
    -1.0
    """
    found = kernel.playout(state, player)
    if found is not None:
        return found
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
    return _card_count(state, player)


# The plan -------------------------------------------------------------------------

_EXIT_ORDER: dict[type[Move], int] = {Draw: 1, EndTurn: 2, Pass: 3}


def _exits(state: GameState) -> list[Move]:
    """The legal moves that leave a turn end: they reveal a card or end the turn (in the kernel where it runs)."""
    found = kernel.exits(state)
    if found is not None:
        return list(found)
    return [m for m in legal_moves(state) if type(m) in (Draw, EndTurn, Pass) or reveals(state, m)]


def segment_paths(v: PublicView) -> list[tuple[Move, ...]]:
    """Every way to end the current turn segment from ``v``: the moves to a turn end, then a move out of it.

    Best first by :func:`fitted_value` of the end, fewer moves first on a
    tie; the moves out of an end in the order: plays of the reserve that
    reveal a card, Draw, End turn, Pass.

    >>> [" ".join(map(str, path)) for path in segment_paths(view(new_game("classic", seed=3)))[:2]]
    ['T2-T3 R0-T2', 'draw']
    """
    player = v.current_player
    world = _Dealer(v).deal(None)
    ways: list[tuple[tuple[Move, ...], GameState, list[Move]]] = []
    for end in turn_ends(world):
        exits = [] if end.state.is_over else _exits(end.state)
        if exits or end.state.is_over:
            ways.append((end.moves, end.state, exits))
    values = [fitted_value(state, player) for _, state, _ in ways]
    order = sorted(range(len(ways)), key=lambda i: (-values[i], len(ways[i][0]), i))
    paths: list[tuple[Move, ...]] = []
    for i in order:
        moves, state, exits = ways[i]
        if state.is_over:
            paths.append(moves)
        else:
            exits.sort(key=lambda m: _EXIT_ORDER.get(type(m), 0))
            paths.extend((*moves, x) for x in exits)
    return paths


def _follow(deal: GameState, path: Sequence[Move]) -> GameState:
    """The state after ``path`` in ``deal`` (the moves stop if the game ends)."""
    state = deal
    for move in path:
        if state.is_over:
            break
        state = apply_move(state, move)
    return state


class PlanYardstick:
    """PlanningBot(playouts=1000) as of commit 7c55308: plans whole turn segments, ranked and played out.

    At the start of each turn segment (the start of its turn, or after a
    move that revealed a card) it lists every position the turn can reach
    without revealing a card and every move out of each, ranks the ends by
    :func:`fitted_value`, keeps the best ``max(8, min(2000, playouts // 2))``
    candidates and shares ``playouts`` among them by successive halving, in
    the same deals for every candidate, each judged by
    :func:`playout_value`. It then plays the moves of the best candidate one
    by one, without thinking again until a card is revealed. With
    ``playouts=0`` it goes to the end its ranking puts first.

    >>> state = new_game("casual", seed=3)
    >>> PlanYardstick(seed=2).choose(state) == PlanYardstick(seed=2).choose(state)
    True
    >>> PlanYardstick(playouts=-1)
    Traceback (most recent call last):
    ...
    ValueError: playouts must be from 0 to 1000000, got -1
    """

    name = "plan-yardstick"

    #: The playouts per plan of the frozen bot (PlanningBot's "normal" level).
    DEFAULT_PLAYOUTS = 1000

    def __init__(self, seed: int = 0, playouts: int = DEFAULT_PLAYOUTS) -> None:
        self.seed = _check_seed(seed)
        self.playouts = _check_playouts(playouts)
        # The plan being played: the move to make from each view it passes through.
        self._plan: dict[PublicView, Move] = {}

    def __repr__(self) -> str:
        return f"PlanYardstick(seed={self.seed}, playouts={self.playouts})"

    def __eq__(self, other: object) -> bool:
        return type(other) is PlanYardstick and (other.seed, other.playouts) == (self.seed, self.playouts)

    def __hash__(self) -> int:
        return hash(("PlanYardstick", self.seed, self.playouts))

    def choose(self, state: GameState) -> Move:
        """The next move of the bot's plan for the current turn segment.

        :raises TypeError: if ``state`` is not a GameState.
        :raises ValueError: if the game is over.
        """
        if not isinstance(state, GameState):
            raise TypeError(f"choose() expects a GameState, got {type(state).__name__}")
        if state.is_over:
            raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
        v = view(state)
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
        rng = _rng(self.seed, v)
        paths = segment_paths(v)[: max(8, min(MAX_CANDIDATES, self.playouts // 2))]
        if not paths:
            # No reachable position lets the turn end: there is nothing to plan.
            return (v.legal_moves[0],)
        if len(paths) == 1 or self.playouts == 0:
            return paths[0]
        deal = _Dealer(v)
        totals = [0.0] * len(paths)
        alive = list(range(len(paths)))
        # Successive halving: each round shares its part of the budget among the candidates
        # left, every one tried in the same deals, then drops the worse half.
        rounds = max(1, (len(paths) - 1).bit_length())
        for _ in range(rounds):
            sums = dict.fromkeys(alive, 0.0)
            for _ in range(max(1, self.playouts // (rounds * len(alive)))):
                world = deal.deal(rng)
                for i in alive:
                    sums[i] += playout_value(_follow(world, paths[i]), player)
            for i in alive:
                totals[i] += sums[i]
            if len(alive) <= 2:
                break
            alive.sort(key=lambda i: (-totals[i], i))
            alive = alive[: max(2, (len(alive) + 1) // 2)]
        return paths[min(alive, key=lambda i: (-totals[i], i))]

    def __getstate__(self) -> dict[str, Any]:
        # The plan travels too: a bot handed to another process and back plays it on.
        return {"seed": self.seed, "playouts": self.playouts, "plan": self._plan}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["seed"], state["playouts"])  # type: ignore[misc]
        self._plan.update(state.get("plan", {}))
