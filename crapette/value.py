"""A learned value of a position: the chance that a player wins, from what both players see.

:class:`LearnedValue` is an evaluator (:mod:`crapette.evaluation`) that judges a
position by a small neural network trained on self-play, as backgammon programs
judge theirs: the searches rank the ends of a turn by it and judge their
playouts with it. Its input is :func:`encode`, about a hundred counts of what
the view shows: for each side the reserve, hand and waste, where the cards
that the foundations need next lie (on a reserve top, on the tableau and how
deep, on a waste, unseen), what each side could play if it were to move, the
tableau. :class:`ValueNet` holds the network's weights as integers, so that its
answer is exact and the same in Python and in the compiled kernel.

>>> from crapette import new_game
>>> state = new_game("classic", seed=7)
>>> value = LearnedValue()
>>> 0.0 < value.evaluate(state, 0) < 1.0
True
>>> len(encode(state, 0)) == len(FEATURES)
True

:mod:`crapette.training` makes the networks (self-play, labels, training); the
ones this package ships are listed in :data:`NETS`.

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import random
from collections.abc import Sequence
from importlib import resources
from typing import Any

import attrs

from . import kernel
from ._core.engine import legal_moves
from ._core.messages import brief
from ._core.moves import Draw, EndTurn, Move, MoveStack, Play
from ._core.piles import F0, H0, R0, T0, W0
from ._core.rules import RuleSet, to_rules
from ._core.state import GameState, raw_state
from ._play.greedy import greedy_scores

__all__ = ["FEATURES", "NETS", "SCALE_BITS", "LearnedValue", "ValueNet", "encode", "net_for"]

#: Distances to the foundations a card is counted at: 0 (it goes on a foundation now) to 5 and more.
_BUCKETS = 6
_SIDE = ("reserve", "hand", "waste", "reserve empty")
_WHERE = (
    "tableau top", "tableau under", "own reserve top", "opponent reserve top", "own waste top",
    "own waste under", "opponent waste top", "opponent waste under", "unseen",
)  # fmt: skip
_MOVES = (
    "reserve to foundation", "reserve to tableau", "reserve loaded", "waste to foundation",
    "waste to tableau", "waste loaded", "tableau to foundation", "between tableau piles", "stacks",
    "draw", "end turn",
)  # fmt: skip


def _names() -> tuple[str, ...]:
    names: list[str] = []
    for side in ("own", "opponent"):
        names += [f"{side} {what}" for what in _SIDE]
        names += [f"{side} reserve top at {d}" for d in range(_BUCKETS)]
        names += [f"{side} waste top at {d}" for d in range(_BUCKETS)]
        names += [f"{side} waste under at {d}" for d in range(_BUCKETS)]
        names += [f"{side} can: {what}" for what in _MOVES]
    names += [f"tableau tops at {d}" for d in range(_BUCKETS)]
    names += [f"tableau under at {d}" for d in range(_BUCKETS)]
    names += ["empty tableau piles", "tableau cards", "foundation cards", "foundations started"]
    names += [f"next card at {d}: {where}" for d in (0, 1) for where in _WHERE]
    names += ["cards over the next cards on the tableau", "own move", "drawn this turn"]
    return tuple(names)


#: The names of the counts :func:`encode` gives, in order. "At d" is a card's
#: distance to the foundations: 0 for a card that goes on one now, 1 for the
#: card after it, ... (the last bucket counts 5 and more); "own" is the side of
#: the player the position is judged for.
FEATURES = _names()


def _needs(piles: tuple[tuple[Any, ...], ...]) -> list[list[int]]:
    """Per suit, the ranks the foundations take next (the lowest first); [1, 1] for a suit not started."""
    tops: list[list[int]] = [[], [], [], []]
    for pile in piles[F0 : F0 + 8]:
        if pile:
            top = pile[-1].index
            tops[(top % 52) // 13].append(top % 13 + 1)
    needs = []
    for ranks in tops:
        ranks = sorted(ranks)
        while len(ranks) < 2:
            ranks.insert(0, 0)
        needs.append([ranks[0] + 1, ranks[1] + 1])
    return needs


def _distance(card: int, needs: list[list[int]]) -> int:
    """How far ``card`` (an index) is from the foundations: 0 if one takes it now."""
    rank = card % 13 + 1
    low, high = needs[(card % 52) // 13]
    d = rank - high if rank >= high else rank - low
    return d if d >= 0 else 0


def _moves_of(state: GameState, player: int) -> list[int]:
    """What ``player`` could play if it were to move now, counted by kind (see ``_MOVES``); none in a finished game."""
    if state.outcome is not None:
        return [0] * len(_MOVES)
    if state.current_player != player or state.drawn:
        state = raw_state(
            state.rules, state.piles, player, state.move_count, False, 0, state.exhausted, state.played,
            state.counters, state.hand_known, state.reserve_known, state.from_deal, (),
        )
    counts = [0] * len(_MOVES)
    reserve, waste = R0 + player, W0 + player
    for move in legal_moves(state):
        cls = move.__class__
        if cls is Play:
            source, target = move.source.id, move.target.id  # type: ignore[attr-defined]
            kind = 0 if target < T0 else 1 if target < R0 else 2
            if source == reserve:
                counts[kind] += 1
            elif source == waste:
                counts[3 + kind] += 1
            elif target < T0:
                counts[6] += 1
            elif target < R0:
                counts[7] += 1
        elif cls is MoveStack:
            counts[8] += 1
        elif cls is Draw:
            counts[9] += 1
        elif cls is EndTurn:
            counts[10] += 1
    return counts


def encode(state: GameState, player: int) -> tuple[int, ...]:
    """The counts of :data:`FEATURES` for ``state`` judged for ``player``: what both players see.

    A function of the public view: the face-down cards count only by their
    number, and a card nobody can see counts as unseen wherever it lies.

    >>> from crapette import new_game
    >>> counts = dict(zip(FEATURES, encode(new_game("classic", seed=7), 1)))
    >>> counts["own reserve"], counts["own hand"], counts["foundation cards"]
    (13, 35, 0)

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    :raises ValueError: if ``player`` is not 0 or 1.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"encode() expects a GameState, got {type(state).__name__}")
    if player not in (0, 1) or type(player) is not int:
        raise ValueError(f"player must be 0 or 1, got {brief(player)}")
    found = kernel.encode(state, player)
    if found is not None:
        return found
    return python_encode(state, player)


def python_encode(state: GameState, player: int) -> tuple[int, ...]:
    """:func:`encode` worked out in Python: the reference the compiled kernel is held to."""
    piles = state.piles
    needs = _needs(piles)
    out: list[int] = []
    seen = [False] * 104
    where = [[0] * len(_WHERE) for _ in (0, 1)]
    for side, who in enumerate((player, 1 - player)):
        reserve, hand, waste = piles[R0 + who], piles[H0 + who], piles[W0 + who]
        out += [len(reserve), len(hand), len(waste), int(not reserve)]
        tops = [0] * (3 * _BUCKETS)
        if reserve:
            card = reserve[-1].index
            seen[card] = True
            d = _distance(card, needs)
            tops[min(d, _BUCKETS - 1)] = 1
            if d < 2:
                where[d][2 + side] += 1
        if waste:
            card = waste[-1].index
            d = _distance(card, needs)
            tops[_BUCKETS + min(d, _BUCKETS - 1)] = 1
            if d < 2:
                where[d][4 + 2 * side] += 1
            for c in waste:
                seen[c.index] = True
            for c in waste[:-1]:
                d = _distance(c.index, needs)
                tops[2 * _BUCKETS + min(d, _BUCKETS - 1)] += 1
                if d < 2:
                    where[d][5 + 2 * side] += 1
        out += tops
        out += _moves_of(state, who)
    tableau = [0] * (2 * _BUCKETS)
    empty = cards = over = 0
    for pile in piles[T0 : T0 + 8]:
        if not pile:
            empty += 1
            continue
        cards += len(pile)
        height = len(pile)
        for depth, c in enumerate(pile):
            seen[c.index] = True
            d = _distance(c.index, needs)
            top = depth == height - 1
            tableau[(0 if top else _BUCKETS) + min(d, _BUCKETS - 1)] += 1
            if d < 2:
                where[d][0 if top else 1] += 1
                if d == 0:
                    over += height - 1 - depth
    out += tableau
    founded = 0
    started = 0
    for pile in piles[F0 : F0 + 8]:
        founded += len(pile)
        started += bool(pile)
        for c in pile:
            seen[c.index] = True
    out += [empty, cards, founded, started]
    # The next cards (at 0 and 1) that nobody can see: in a hand or under a reserve's top.
    for d in (0, 1):
        unseen = 0
        for suit in range(4):
            for rank in {needs[suit][0] + d, needs[suit][1] + d}:
                if rank <= 13:
                    for deck in (0, 1):
                        card = deck * 52 + suit * 13 + rank - 1
                        if not seen[card] and _distance(card, needs) == d:
                            unseen += 1
        where[d][8] = unseen
        out += where[d]
    out += [over, int(state.current_player == player), int(state.drawn and state.current_player == player)]
    return tuple(out)


#: The fixed-point scale of the weights (and of the hidden units): 2**12.
SCALE_BITS = 12


@attrs.frozen
class ValueNet:
    """A small network's weights, as integers: one hidden layer of clipped rectified units.

    ``hidden`` holds, per hidden unit, its bias then one weight per feature of
    :data:`FEATURES`; ``output`` the output's bias then one weight per hidden
    unit; all scaled by 4,096 (:data:`SCALE_BITS`) and rounded. A unit is
    ``min(max(bias + sum(w * x), 0), 4096 * clip)``; the output, divided by
    4,096 squared, is the log-odds that
    the player the position is judged for wins. ``name`` says what the
    network was trained on, ``made`` how (the command that made it).

    >>> net = net_for("classic")
    >>> net.name, len(net.hidden[0]) == len(FEATURES) + 1
    ('classic', True)

    :raises ValueError: if the weights do not fit :data:`FEATURES`.
    """

    name: str
    hidden: tuple[tuple[int, ...], ...]
    output: tuple[int, ...]
    clip: int = 8
    made: str = ""

    def __attrs_post_init__(self) -> None:
        width = len(FEATURES) + 1
        if not self.hidden or any(len(row) != width for row in self.hidden):
            raise ValueError(f"each hidden unit needs {width} weights (a bias and one per feature)")
        if len(self.output) != len(self.hidden) + 1:
            raise ValueError(f"the output needs {len(self.hidden) + 1} weights (a bias and one per hidden unit)")
        if not all(type(w) is int for row in (*self.hidden, self.output) for w in row):
            raise ValueError("every weight must be an int")
        if type(self.clip) is not int or self.clip < 1:
            raise ValueError(f"clip must be a positive int, got {brief(self.clip)}")

    @property
    def digest(self) -> str:
        """The first 12 hex digits of the SHA-256 of the weights and the clip: two networks that differ differ here.

        >>> net_for("classic").digest == net_for("classic").digest != net_for("casual").digest
        True

        .. versionadded:: 0.4.0
        """
        weights = json.dumps([self.clip, self.output, self.hidden], separators=(",", ":"))
        return hashlib.sha256(weights.encode("ascii")).hexdigest()[:12]

    def __repr__(self) -> str:
        """The name, the shape (hidden units, features), the clip and the :attr:`digest`: one short line, whatever the weights.

        >>> repr(net_for("classic"))  # doctest: +ELLIPSIS
        "ValueNet(name='classic', units=32, features=103, clip=8, digest='...')"

        .. versionchanged:: 0.4.0
           Short: the weights are summarised by their digest.
        """
        shape = f"units={len(self.hidden)}, features={len(self.hidden[0]) - 1}"
        return f"ValueNet(name={self.name!r}, {shape}, clip={self.clip}, digest={self.digest!r})"

    @functools.cached_property
    def _columns(self) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
        # The biases, and per feature the weights of every hidden unit: a feature adds its column.
        biases = tuple(row[0] for row in self.hidden)
        columns = tuple(tuple(row[i + 1] for row in self.hidden) for i in range(len(FEATURES)))
        return biases, columns

    def raw(self, counts: Sequence[int]) -> int:
        """The output for ``counts`` (:func:`encode`'s), scaled by 4,096 squared: exact integer arithmetic."""
        biases, columns = self._columns
        acc = list(biases)
        for x, column in zip(counts, columns):
            if x:
                acc = [a + x * w for a, w in zip(acc, column)]
        top = self.clip << SCALE_BITS
        out = self.output
        total = out[0] << SCALE_BITS
        for a, w in zip(acc, out[1:]):
            if a > 0:
                total += w * (a if a < top else top)
        return total

    def logit(self, counts: Sequence[int]) -> float:
        """The log-odds of a win for the counts."""
        return self.raw(counts) / (1 << (2 * SCALE_BITS))

    @functools.cached_property
    def handle(self) -> Any:
        """The kernel's copy of the weights: None without the kernel, or for a network whose sums
        the kernel's 64-bit integers might not hold (Python then works out the same value)."""
        return kernel.value_net(self.hidden, self.output, self.clip) if self._fits_kernel() else None

    def _fits_kernel(self) -> bool:
        # The kernel (csrc/value.c) takes up to 256 units, a clip up to 2**16 and weights up to 2**40;
        # a count is under 2**11 (cards, or moves of the action table), so a unit's sum holds, and
        # the output's sum must hold too.
        if len(self.hidden) > 256 or self.clip > 1 << 16:
            return False
        if any(abs(w) > 1 << 40 for row in (*self.hidden, self.output) for w in row):
            return False
        top = self.clip << SCALE_BITS
        bound = (abs(self.output[0]) << SCALE_BITS) + sum(abs(w) for w in self.output[1:]) * top
        return bound < 1 << 62

    def to_json(self) -> str:
        """The network as JSON (what :meth:`from_json` reads back)."""
        return json.dumps(
            {"name": self.name, "clip": self.clip, "made": self.made, "features": list(FEATURES),
             "hidden": [list(r) for r in self.hidden], "output": list(self.output)},
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str) -> ValueNet:
        """The network written by :meth:`to_json`.

        :raises ValueError: if the text is not such a network, or was made for other features.
        """
        try:
            data = json.loads(text)
        except RecursionError:
            raise ValueError("not a value network: nested too deeply") from None
        except (ValueError, TypeError) as exc:  # not JSON (or not text), or a number too long to read
            raise ValueError(f"not a value network: {brief(exc)}") from None
        try:
            if data["features"] != list(FEATURES):
                raise ValueError("the network was made for other features")
            return cls(
                str(data["name"]), tuple(tuple(r) for r in data["hidden"]), tuple(data["output"]),
                data.get("clip", 8), str(data.get("made", "")),
            )
        except RecursionError:
            raise ValueError("not a value network: nested too deeply") from None
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not a value network: {brief(exc)}") from None


#: The networks this package ships, by the rules they were trained on.
NETS = ("classic", "casual")


@functools.lru_cache(maxsize=None)
def _shipped(name: str) -> ValueNet:
    text = (resources.files("crapette") / "data" / f"value-{name}.json").read_text(encoding="utf-8")
    return ValueNet.from_json(text)


def net_for(rules: RuleSet | str) -> ValueNet:
    """The shipped network for ``rules``: the one trained on them, else the closer preset's.

    Rules with a scoring are judged by the classic network, others by the
    casual one.

    >>> net_for("classic").name, net_for("casual(reserve_size=10)").name
    ('classic', 'casual')

    :raises TypeError: if ``rules`` is neither a RuleSet nor a rules text.
    :raises ~crapette.ParseError: if ``rules`` is a malformed rules text.
    :raises ~crapette.InvalidRulesError: if it is a rules text naming impossible rules.
    """
    return _net_of(to_rules(rules, "net_for()"))


@functools.lru_cache(maxsize=64)
def _net_of(rules: RuleSet) -> ValueNet:
    if rules == RuleSet.casual():
        return _shipped("casual")
    return _shipped("classic" if rules == RuleSet.classic() or rules.scoring is not None else "casual")


_JUDGED = (None, 1.0, 0.0, 0.5)
_ONE = 1 << (2 * SCALE_BITS)  # the network's raw output for a log-odds of 1


def _chance(found: tuple[int, int, int]) -> float:
    """The chance of a win from the kernel's ``(code, mine, theirs)`` (see :data:`crapette.kernel.value`):
    the logistic of half the difference of the two sides' log-odds."""
    code, mine, theirs = found
    return _sigmoid((mine - theirs) / (2 * _ONE)) if code == 0 else _JUDGED[code]  # type: ignore[return-value]


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


@attrs.frozen
class LearnedValue:
    """The chance that ``player`` wins from ``state``, by a :class:`ValueNet`: an evaluator.

    ``net`` is the network (by default the shipped one for the state's rules,
    :func:`net_for`). The network reads the position from each player's side
    (:func:`encode`); the chance is the logistic of half the difference of the
    two log-odds, so the two players' chances of a position add up to 1. A
    finished game is worth 1 (won), 0 (lost) or 0.5. The prior of a move is the
    greedy heuristic's score, which breaks ties.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=7)
    >>> round(LearnedValue().evaluate(state, 0), 3) == round(LearnedValue(net_for("classic")).evaluate(state, 0), 3)
    True
    >>> round(LearnedValue().evaluate(state, 0) + LearnedValue().evaluate(state, 1), 12)
    1.0
    """

    net: ValueNet | None = None

    def evaluate(self, state: GameState, player: int, rng: random.Random | None = None) -> float:
        """The chance that ``player`` wins (``rng`` is not used: the value is exact)."""
        net = self.net or net_for(state.rules)
        if net.handle is not None:
            found = kernel.value(state, player, net.handle)
            if found is not None:
                return _chance(found)
        outcome = state.outcome
        if outcome is not None:
            return 0.5 if outcome.winner is None else float(outcome.winner == player)
        return _sigmoid(self.logit(state, player))

    def compiled_playout(self, state: GameState, player: int) -> float | None:
        """The chance that ``player`` wins where the greedy play-on of :class:`~crapette.evaluation.Playout`
        stops, worked out in the compiled kernel; None where it does not run (Playout then plays on in Python)."""
        net = self.net or net_for(state.rules)
        if net.handle is None:
            return None
        found = kernel.value_playout(state, player, net.handle)
        return None if found is None else _chance(found)

    def logit(self, state: GameState, player: int) -> float:
        """The log-odds that ``player`` wins (the game must go on): half the difference of the
        network's log-odds from ``player``'s side and from the opponent's."""
        net = self.net or net_for(state.rules)
        return (net.raw(encode(state, player)) - net.raw(encode(state, 1 - player))) / (2 * _ONE)

    def prior(self, state: GameState, moves: Sequence[Move]) -> list[int]:
        """The greedy heuristic's score of each move."""
        return greedy_scores(state, moves)


