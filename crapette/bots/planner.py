"""PlanningBot: a player that decides whole turn segments, never single moves.

Within a turn everything that decides a choice is visible until a move
reveals a card, so the bot lists every position its turn can reach before a
reveal (:func:`~crapette.turn_ends`), ranks them with one evaluator, and
tries the few best, each followed by every move that leaves it (a draw, a
reserve play that uncovers a card, End turn, Pass), in worlds dealt from the
public view and judged by another (by default, played on to the end of the
opponent's next turn). It plays the first move towards the best of them.

The judgement is the same from every position of the segment: the deals are
seeded by what stays fixed until a card is revealed (the unseen cards and
the face-down places they may lie in), and each candidate is judged by
where it leads, whatever the way there. So the bot, deciding afresh from
each view, keeps heading for the same place, and never moves a card to and
fro, although it remembers nothing between decisions.
"""

from __future__ import annotations

import operator
import random
import struct
import time
import zlib
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any

from .._core.checks import MAX_PLAYOUTS, check_int, check_seconds, check_seed
from .._core.engine import apply_move
from .._core.messages import brief
from .._core.moves import Draw, EndTurn, Move, Pass
from .._core.shapes import pile_groups
from .._core.state import GameState, get_fields, raw_state
from .. import kernel
from .._core.turns import DEFAULT_TURN_LIMIT, TurnEnd, follow, position_key, segment_exits, turn_ends
from .._views.view import Dealer, PublicView, dealer
from ..evaluation import WEIGHTS, Evaluator, FittedValue, Playout, cards_left, evaluate_all
from ..protocol import Crapette, seeded_rng
from ._base import checked_view

__all__ = ["MAX_CANDIDATES", "PlanningBot", "path_outcomes", "path_values", "segment_paths", "segment_seed"]

#: The most candidates (a turn end and a move out of it) a plan tries, the best by the ranking.
MAX_CANDIDATES = 2000

_GAME = Crapette("classic")
_RANKER = FittedValue()
_JUDGE = Playout()


def _check_evaluator(name: str, value: object) -> Any:
    if value is not None and not callable(getattr(value, "evaluate", None)):
        raise TypeError(f"{name} must have an evaluate(state, player, rng) method, got {brief(value)}")
    return value


class PlanningBot:
    """Plans whole turn segments: the best position its turn can reach, then the best way on from it.

    From the view it is given the bot lists every position it can reach
    without revealing a card (:func:`~crapette.turn_ends`) and every move that
    leaves each (a draw, a reserve play that uncovers a card, End turn or
    Pass). It ranks the ends with ``ranker``
    (:class:`~crapette.evaluation.FittedValue` by default), keeps the best,
    and tries each candidate (an end and a move out of it) in deals of the
    unseen cards, the same deals for every candidate, judging the result with
    ``evaluator`` (:class:`~crapette.evaluation.Playout` by default: greedy
    play to the end of the opponent's next turn, then the cards left).
    ``playouts`` is shared by successive halving: every candidate is tried,
    the worse half dropped, the rest tried again, so the deals go to the
    best. The bot plays the first move towards the best candidate. With
    ``playouts=0`` it goes to the end its ranking puts first.

    **A move is a function of the view.** :meth:`choose` and :meth:`hint`
    depend only on the bot's parameters (its seed, budget, evaluators) and
    the view, a :class:`~crapette.PublicView` or the :class:`~crapette.GameState`
    that shows it: the bot keeps nothing between decisions that changes a
    move, so a fresh bot and one that played a thousand games choose alike,
    and ``choose(x) == hint(x)[0]``. The judgement is the same from every
    position of a turn segment: the deals are seeded by ``seed`` and what
    stays fixed until a card is revealed (the unseen cards and the face-down
    places they may lie in), each candidate is judged by the position it
    leads to (interchangeable piles put in one order, the move count the
    view's), whatever the way there, and the candidates are ranked and tried
    in an order of their own. Two positions that can reach each other have
    the same candidates, so the bot heads for the same end from both, one
    move nearer each time: following its moves (or its hints) from view to
    view never comes back to a position of the turn, under any rules,
    ``revisits`` on or off. A cache of the last plans saves the work of
    asking again about the same view; it never changes a choice.

    ``playouts`` is at most :data:`~crapette.bots.MAX_PLAYOUTS`, and the bot
    keeps one deal at a time, so its memory does not grow with the budget.
    ``seconds`` (None: no limit) bounds the time a plan takes whatever the
    position and the rules. Within it the bot plans as the bot with 128
    playouts would, then with 256, and so on, doubling up to ``playouts``
    (the values of candidates worked out for a plan are kept for the next),
    and plays the plan of the largest budget that finished in time: so with
    ``playouts=MAX_PLAYOUTS`` it plays as well as the budget the machine
    affords in that time, and with time enough exactly as ``playouts`` does.
    A plan cut short stops trying candidates (each round of its halving
    within its share of the time) and counts only if none finished, the turn
    end its ranking puts first if none was tried; the listing of the turn's
    positions is bounded by :data:`~crapette.DEFAULT_TURN_LIMIT` positions
    (and, in the pure-Python engine, stops at the time limit). With a time
    limit the bot plays as fast as the machine lets it, so two runs may
    differ, and a plan cut short may head elsewhere than the last; a server
    that must answer in time uses it. A variant of the bot is an evaluator or
    a ranking, never a subclass.

    >>> from crapette import legal_moves, new_game, view
    >>> state = new_game("classic", seed=5)
    >>> bot = PlanningBot(seed=1, playouts=100)
    >>> bot.choose(state) in legal_moves(state), bot.choose(view(state)) == bot.hint(state)[0]
    (True, True)
    >>> PlanningBot.at_level("strong")
    PlanningBot(seed=0, playouts=8000)

    :raises ValueError: if ``seed`` is out of range, ``playouts`` negative or over
        :data:`~crapette.bots.MAX_PLAYOUTS`, or ``seconds`` not above 0 and at most 3600.
    :raises TypeError: if ``playouts`` is not an int, ``seconds`` not a number, or an
        evaluator has no ``evaluate``.

    .. versionadded:: 0.3.0
    .. versionchanged:: 0.4.0
       A move is a function of the view: the bot keeps no plan between
       decisions, and takes a :class:`~crapette.PublicView` as well as a state.

    .. versionchanged:: 0.5.0
       With ``seconds``, plans of doubling budgets: the largest that finishes in time decides.
    """

    name = "plan"
    #: The game the bot plays: Crapette, under any rules (each state carries its rules).
    game = _GAME
    #: The levels: playouts per plan.
    LEVELS = {"easy": 64, "normal": 1000, "strong": 8000}

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
        # The last plans, by view: a plan is a function of the view and the
        # parameters, so this only saves asking twice (never kept with a time limit).
        self._plans: dict[PublicView, tuple[Move, ...]] = {}
        # What candidates were worth in the deals of the last segments (see plan): the same
        # from every position of a segment, so this only saves working it out again.
        self._values: dict[tuple[int, int | None], tuple[dict[tuple[Any, ...], int], dict[tuple[int, int], float]]] = {}

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
        # The parameters (and a subclass's own attributes), not the caches: they decide no move.
        return {k: value for k, value in self.__dict__.items() if k not in ("_plans", "_values")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        # PlanningBot's own checks, whatever a subclass's __init__ takes; a bot pickled by
        # 0.3.0 also carries its plan ("plan", "_plan"): it decides nothing now.
        PlanningBot.__init__(
            self, state["seed"], state["playouts"], seconds=state.get("seconds"),
            evaluator=state.get("evaluator"), ranker=state.get("ranker"),
        )
        self.__dict__.update({k: value for k, value in state.items() if k not in ("plan", "_plan", "_plans", "_values")})

    def choose(self, state: GameState | PublicView) -> Move:
        """The first move of the bot's plan from ``state``: ``hint(state)[0]``.

        ``state`` is a :class:`~crapette.GameState` or the
        :class:`~crapette.PublicView` of one: the bot sees only the view.

        :raises TypeError: if ``state`` is neither.
        :raises ValueError: if the game is over.
        """
        v = checked_view(state, "choose")
        moves = v.legal_moves
        if len(moves) == 1:
            return moves[0]
        return self._planned(v)[0]

    def hint(self, state: GameState | PublicView, reached: Iterable[GameState] = ()) -> tuple[Move, ...]:
        """The moves the bot would play from ``state`` to the end of the turn segment, for a hint.

        The planned path to the best turn end, then the move out of it that
        reveals a card or ends the turn (or the moves to the end of the game).
        Its first move is :meth:`choose`'s, and a player who follows the first
        move of each hint, asking again from each view, never comes back to a
        position of the turn (see the class). ``state`` is a
        :class:`~crapette.GameState` or its :class:`~crapette.PublicView`.

        ``reached`` (optional, and not needed to follow hints) is the game so
        far (:attr:`Game.states <crapette.Game.states>`, oldest first): then
        the hint also keeps clear of the positions the current turn has been
        in, for a player who moved on their own. Only the states of the
        current turn at the end of ``reached`` count.

        >>> from crapette import Game, view
        >>> game = Game("classic", seed=3)
        >>> bot = PlanningBot(seed=1, playouts=200)
        >>> hint = bot.hint(view(game.state))
        >>> " ".join(str(move) for move in hint)
        'T2-T3 R0-T2'
        >>> game.push(hint[0])
        >>> " ".join(str(move) for move in bot.hint(view(game.state)))
        'R0-T2'

        :raises TypeError: if ``state`` is neither, or one of ``reached`` is not a :class:`~crapette.GameState`.
        :raises ValueError: if the game is over.

        .. versionchanged:: 0.3.0
           ``reached``.
        .. versionchanged:: 0.4.0
           A view as well as a state; following hints needs no ``reached``.
        """
        v = checked_view(state, "hint")
        if len(v.legal_moves) == 1:
            return (v.legal_moves[0],)
        here = state if isinstance(state, GameState) else dealer(v).deal(None)
        barred = _turn_positions(here, reached)
        if not barred:
            return self._planned(v)
        return self.plan(v, keep=lambda path: _clear_of(here, path, barred))

    def _planned(self, v: PublicView) -> tuple[Move, ...]:
        """:meth:`plan` of ``v``, from the cache of the last plans when it is there."""
        if self.seconds is not None:
            return self.plan(v)
        found = self._plans.get(v)
        if found is None:
            found = self.plan(v)
            if len(self._plans) >= _CACHED_PLANS:
                self._plans.pop(next(iter(self._plans)))
            self._plans[v] = found
        return found

    def plan(
        self, v: PublicView, *, keep: Callable[[tuple[Move, ...]], bool] | None = None
    ) -> tuple[Move, ...]:
        """The moves the bot means to play from the position ``v`` shows: to the best end, then out of it.

        ``keep``, if given, says which candidate paths may be chosen (all of
        them if it keeps none).
        """
        if self.seconds is None:
            return self._plan(v, keep, self.playouts, None, {})[0]
        # Under a time limit: plans of doubling budgets, each as the bot with that budget makes it (the
        # values of candidates worked out for the smaller kept for the larger), until one does not finish
        # in time; the last that finished decides (the first, if none did).
        deadline = time.monotonic() + self.seconds
        listings: dict[str, Any] = {}
        budget = min(self.playouts, _FIRST_BUDGET)
        found: tuple[Move, ...] | None = None
        while True:
            path, finished = self._plan(v, keep, budget, deadline, listings)
            if finished or found is None:
                found = path
            if not finished or budget >= self.playouts:
                return found
            budget = min(self.playouts, 2 * budget)

    def _plan(
        self,
        v: PublicView,
        keep: Callable[[tuple[Move, ...]], bool] | None,
        playouts: int,
        deadline: float | None,
        listings: dict[str, Any],
    ) -> tuple[tuple[Move, ...], bool]:
        """:meth:`plan` with ``playouts``: the path, and whether the plan finished before ``deadline``.

        A plan that no budget would change counts as not finished (there is no point in a larger one).
        ``listings`` keeps the candidates listed for the plans of one view, by how many were asked for.
        """
        player = v.current_player
        deal = self._dealer(v)
        seed = segment_seed(self.seed, v)
        rng = random.Random(seed)
        groups = pile_groups(v.rules)
        count = v.move_count
        wanted = self._candidates(playouts)
        # Without ``keep`` only the candidates that may be tried are built (one, with no budget).
        most = None if keep is not None else 1 if playouts == 0 else wanted
        listed = listings.get("listed")
        if listed is not None and (listed[0] is None or (most is not None and listed[0] >= most)):
            candidates, complete = listed[1], listed[2]
        else:
            if most is not None and deadline is not None:
                most = max(most, self._candidates(4 * playouts))  # room for the next, larger plans
            candidates, complete = _segment_candidates(v, deal, self.ranker, rng, groups, deadline, most)
            listings["listed"] = (most, candidates, complete)
        if keep is not None:
            candidates = [c for c in candidates if keep(c.path)] or candidates
        candidates = candidates[:wanted]
        if not candidates:
            # No reachable position lets the turn end (only moves between tableau
            # piles are legal anywhere, ruling R10): there is nothing to plan.
            return (v.legal_moves[0],), False
        if len(candidates) == 1 or playouts == 0 or not complete:
            # A turn with more positions than the listing takes: from another of them the
            # listing holds others, so only a judgement of each end by itself, the ranking,
            # heads for the same end from each (or a better one, never back).
            return candidates[0].path, False
        judge = self.evaluator or _JUDGE
        shared = judge is not _JUDGE
        # What a candidate is worth in deal k is a function of the segment, the candidate and k
        # (and of the move count under a move limit): kept, it spares the next plan of the segment.
        rules = v.rules
        names, known = self._worth(seed, count if rules.move_limit is not None or rules.endings else None)
        # Each candidate by a number, the same in every plan of the segment (its key is hashed once).
        ids = [names.setdefault(c.key, len(names)) for c in candidates]
        totals = [0.0] * len(candidates)
        alive = list(range(len(candidates)))
        # Successive halving: each round shares its part of the budget among the
        # candidates left, every one tried in the same deals, then drops the worse half.
        # One deal at a time, every candidate left tried in it: memory stays flat.
        rounds = max(1, (len(candidates) - 1).bit_length())
        k = 0  # the deals are numbered across the rounds
        # Under a time limit each round also has its share of the time left: a round that would outlast
        # its share (a budget of playouts too large for the time) stops early, so the halving still happens.
        started = time.monotonic()
        cut = False
        for round_number in range(rounds):
            sums = dict.fromkeys(alive, 0.0)
            out_of_time = False
            round_over = None if deadline is None else started + (deadline - started) * (round_number + 1) / rounds
            for deal_number in range(max(1, playouts // (rounds * len(alive)))):
                if round_over is not None and deal_number and time.monotonic() > round_over:
                    cut = True  # a round stopped at its share of the time: the plan is not the budget's
                    break
                world: GameState | None = None
                tried = []
                for i in alive:
                    entry = (ids[i], k)
                    worth = known.get(entry)
                    if worth is None:
                        if world is None:
                            # Dealt only when a value is not known: the deal is a function of the seed alone.
                            chance = random.Random(seed + k * _DEAL_STEP)
                            world = deal.deal(chance)
                            # Each end followed once in this deal, whatever its ways out.
                            reached: dict[int, GameState] = {}
                            if shared:
                                after = chance.getstate()
                        if shared:  # the default judge draws nothing: no need to share the draws
                            chance.setstate(after)
                            worth = judge.evaluate(candidates[i].judged(world, count, reached), player, chance)
                        else:
                            # The stock judgement, in the kernel from the deal itself: the same value.
                            candidate = candidates[i]
                            worth = kernel.path_playout(world, candidate.path, candidate.swaps, count, player)
                            if worth is None:
                                worth = judge.evaluate(candidate.judged(world, count, reached), player, chance)
                        if len(known) < _CACHED_VALUES:
                            known[entry] = worth
                    tried.append(worth)
                    if deadline is not None and time.monotonic() > deadline:
                        out_of_time = True
                        break
                k += 1
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
        finished = not (out_of_time or cut) and (deadline is None or time.monotonic() <= deadline)
        return candidates[min(alive, key=lambda i: (-totals[i], i))].path, finished

    def _candidates(self, playouts: int) -> int:
        """How many candidates a plan of ``playouts`` tries (a variant of the bot may try fewer)."""
        return _candidates_for(playouts)

    def _dealer(self, v: PublicView) -> Dealer:
        """Where the deals of the unseen cards of ``v`` come from (a measure of the judgement may deal the true one)."""
        return dealer(v)

    def _worth(self, seed: int, count: int | None) -> tuple[dict[tuple[Any, ...], int], dict[tuple[int, int], float]]:
        """For a segment (``seed``): a number for each candidate, and their values by (number, deal); the last few kept."""
        key = (seed, count)
        found = self._values.get(key)
        if found is None:
            if len(self._values) >= _CACHED_SEGMENTS:
                self._values.pop(next(iter(self._values)))
            found = self._values[key] = ({}, {})
        return found


def _candidates_for(playouts: int) -> int:
    """How many candidates a plan of ``playouts`` tries, the best by the ranking: each at least twice."""
    return max(8, min(MAX_CANDIDATES, playouts // 2))


#: The first budget of the plans a bot with a time limit makes, doubling (see PlanningBot.plan).
_FIRST_BUDGET = 128
#: How many plans a bot keeps, by view (see PlanningBot._planned).
_CACHED_PLANS = 8
#: How many segments' values of candidates a bot keeps (see PlanningBot.plan).
_CACHED_SEGMENTS = 4
#: How many values of candidates a bot keeps for one segment, whatever its budget.
_CACHED_VALUES = 20_000
#: The seed of deal k of a segment is the segment's seed plus k times this.
_DEAL_STEP = 1 << 100
_INDEX = operator.attrgetter("index")
#: raw_state, given a state's fields and its outcome in one list.
_RAW_STATE: Callable[..., GameState] = raw_state


def segment_seed(seed: int, v: PublicView) -> int:
    """The seed of the deals of a bot seeded ``seed`` in the turn segment of ``v``: the same from every position of it.

    It takes what no move of the segment changes: the player to move, the
    unseen cards and the face-down places they may lie in.

    >>> from crapette import apply_move, new_game, parse_move, view
    >>> state = new_game("classic", seed=7)
    >>> after = apply_move(state, parse_move("T5-F0"))
    >>> segment_seed(1, view(state)) == segment_seed(1, view(after)), segment_seed(1, view(state)) == segment_seed(2, view(state))
    (True, False)

    :raises InvalidStateError: if ``v`` is not a view that a valid state shows.

    .. versionadded:: 0.4.0
    """
    deal = dealer(v)
    parts = [v.current_player]
    for deck, cards, slots in deal.own:
        parts += [1000 + deck, *map(_INDEX, cards)]
        for pid, n in slots:
            parts += [2000 + pid, n]
    for pid, n in deal.shared:
        parts += [3000 + pid, n]
    for cards in deal.rest:
        parts += [4000, *map(_INDEX, cards)]
    return seed * 4294967296 + zlib.crc32(struct.pack(f"<{len(parts)}I", *parts))


class _Candidate:
    """A way out of the turn segment: ``path`` from the position, and where it leads, as the bot judges it.

    ``key`` is what the candidate is, whatever the way there: the turn end in
    the view's own deal, interchangeable piles in one order, and the move out
    of it in that order. ``swaps`` put the piles in that order (they are face
    up, so the same in every deal).
    """

    __slots__ = ("end", "key", "path", "swaps")

    def __init__(
        self, path: tuple[Move, ...], key: tuple[Any, ...], swaps: tuple[tuple[int, int], ...], end: tuple[Move, ...]
    ) -> None:
        self.path = path
        self.key = key
        self.swaps = swaps
        #: The moves to the turn end (the path but its way out), shared by the candidates of that end.
        self.end = end

    def judged(self, world: GameState, count: int, reached: dict[int, GameState] | None = None) -> GameState:
        """The state the candidate leads to in ``world``, as it is judged: piles in order, ``count`` moves made.

        ``reached`` keeps the turn ends followed in ``world`` (by their moves' id), for the other ways out of them.
        """
        path = self.path
        if reached is None or path is self.end:
            return _arranged(follow(world, path), self.swaps, count)
        end = self.end
        there = reached.get(id(end))
        if there is None:
            there = reached[id(end)] = follow(world, end)
        return _arranged(follow(there, path[len(end):]), self.swaps, count)


class _Keys:
    """Where a state's interchangeable piles go to put them in one order, and its key in that order.

    A pile's key is its cards' indices as bytes (they order and compare as the
    tuple of them would, and hash once), worked out once per pile
    (the states of a turn share their piles).
    """

    __slots__ = ("groups", "kept", "memo", "tuples")

    def __init__(self, groups: tuple[tuple[int, ...], ...]) -> None:
        self.memo: dict[int, bytes] = {}
        # The piles met: kept alive, so that their ids are not reused meanwhile.
        self.kept: list[tuple[Any, ...]] = []
        # Each group of more than one pile, as given and in ascending order.
        self.groups = [(list(group), sorted(group)) for group in groups if len(group) > 1]
        #: The same as tuples, for the compiled kernel.
        self.tuples = [(tuple(group), tuple(ascending)) for group, ascending in self.groups]

    def arrange(self, state: GameState) -> tuple[tuple[Any, ...], tuple[tuple[int, int], ...]]:
        """The key of ``state`` (all it holds but its move count) with its piles in order, and the (to, from) swaps."""
        piles = state.piles
        memo = self.memo
        ids: list[Any] = list(map(memo.get, map(id, piles)))
        if None in ids:
            kept = self.kept
            for i, known in enumerate(ids):
                if known is None:
                    pile = piles[i]
                    kept.append(pile)
                    ids[i] = memo[id(pile)] = bytes(map(_INDEX, pile))
        swaps: list[tuple[int, int]] = []
        if not state.turn_moves:  # turn moves name piles: then the order stays
            for group, ascending in self.groups:
                # By pile, then by place (a stable sort of the places in ascending order).
                order = sorted(ascending, key=ids.__getitem__)
                if order != group:
                    old = ids[:]
                    for to, src in zip(group, order):
                        if to != src:
                            ids[to] = old[src]
                            swaps.append((to, src))
        key = (
            tuple(ids), state.current_player, state.drawn, state.passes, state.exhausted, state.played,
            state.counters, state.hand_known, state.reserve_known, tuple(map(str, state.turn_moves)),
        )
        return key, tuple(swaps)


#: The kinds of move out of a turn end, for the key of a way out (a play that reveals a card is 0).
_EXIT_ORDER: dict[type[Move], int] = {Draw: 1, EndTurn: 2, Pass: 3}


def _exit_key(move: Move, where: dict[int, int]) -> tuple[int, ...]:
    """What a move out of a turn end is, its target in the end's order of piles (``where``: from a pile to its place)."""
    kind = _EXIT_ORDER.get(type(move), 0)
    target = getattr(move, "target", None)
    if target is None:
        return (kind,)
    source: int = move.source.id  # type: ignore[attr-defined]
    to: int = target.id
    return (kind, where.get(source, source), where.get(to, to))


def _arranged(state: GameState, swaps: tuple[tuple[int, int], ...], count: int) -> GameState:
    """``state`` with the piles moved by ``swaps`` and ``count`` moves made."""
    fields = list(get_fields(state))
    if swaps:
        old = state.piles
        piles = list(old)
        for to, src in swaps:
            piles[to] = old[src]
        fields[1] = tuple(piles)
    fields[3] = count
    fields.append(state.outcome)  # the engine's first entry: a finished game stays finished
    return _RAW_STATE(*fields)


def _segment_candidates(
    v: PublicView,
    deal: Dealer,
    ranker: Evaluator | None,
    rng: random.Random,
    groups: tuple[tuple[int, ...], ...],
    deadline: float | None,
    most: int | None = None,
) -> tuple[list[_Candidate], bool]:
    """The candidates of :meth:`PlanningBot.plan` from ``v``, best first, and whether the turn's positions are all listed.

    The same candidates in the same order from any position that reaches the same ones.
    ``most`` (None: all) is how many of the best are wanted (the first alone
    when the listing is not complete).

    The ends are ranked by ``ranker``'s value (in their own order), then by
    their keys; each end's ways out by kind (revealing plays of the reserve
    first, then Draw, End turn, Pass), then by their piles in the end's order.
    """
    player = v.current_player
    world = deal.deal(None)
    count = v.move_count
    keys = _Keys(groups)
    ends: list[tuple[tuple[Any, ...], TurnEnd, Sequence[Move], tuple[tuple[int, int], ...], GameState]] = []
    if (ranker is None or type(ranker) is FittedValue) and most is not None:
        # The stock ranking counts cards by kind of pile and asks whether the reserve's top plays:
        # the same for an end as for its piles put in order (they are interchangeable). So the ends are
        # ranked as listed, and only those that may be among the ``most`` best candidates are asked
        # for their keys (which order the ends of equal value).
        best, complete = _stock_ends(world, player, most, deadline, keys)
        ranked: list[float] = []
        for end, exits, value, key, swaps in best:
            ends.append((key, end, exits, swaps, end.state))
            ranked.append(value)
        if not complete:
            most = 1
    else:
        listed = turn_ends(world)
        complete = listed.complete
        if most is not None and not complete:
            most = 1
        for end in listed:
            if deadline is not None and ends and time.monotonic() > deadline:
                break
            exits = [] if end.state.is_over else segment_exits(end.state)
            if exits or end.state.is_over:
                key, swaps = keys.arrange(end.state)
                ends.append((key, end, exits, swaps, _arranged(end.state, swaps, count)))
        ends.sort(key=lambda e: e[0])
        ranked = evaluate_all(ranker or _RANKER, [e[4] for e in ends], player, rng)
    order = sorted(range(len(ends)), key=lambda i: (-ranked[i], ends[i][0]))
    found: list[_Candidate] = []
    for i in order:
        if most is not None and len(found) >= most:
            break
        key, end, exits, swaps, _ = ends[i]
        if end.state.is_over:
            found.append(_Candidate(end.moves, (key,), swaps, end.moves))
            continue
        # Each way out in the end's order of piles: what follows it is then the same whatever the way to the end.
        where = {src: to for to, src in swaps}
        for exit_key, x in sorted(((_exit_key(x, where), x) for x in exits), key=lambda w: w[0]):
            found.append(_Candidate((*end.moves, x), (key, exit_key), swaps, end.moves))
    return found, complete


def _stock_ends(
    world: GameState, player: int, most: int, deadline: float | None, keys: _Keys, limit: int = DEFAULT_TURN_LIMIT
) -> tuple[list[tuple[TurnEnd, Sequence[Move], float, tuple[Any, ...], tuple[tuple[int, int], ...]]], bool]:
    """The turn ends of ``world`` the stock ranking may put among the ``most`` best candidates, and whether all were listed.

    Each end with its ways out and its value, best first and in the listing's
    order among equals, with its key and swaps (``keys.arrange``); an end
    with no way out that does not finish the game left out; until the ways out
    reach ``most`` (1 where the listing is not complete), then every end of the
    same value as the last. The compiled kernel does it all where it runs.
    """
    # The kernel lists and ranks in about a millisecond (the listing is bounded by ``limit``): a deadline
    # is for the Python engine's listing, which stops at it.
    found = kernel.ranked_ends(world, limit, WEIGHTS, most, keys.tuples)
    if found is not None:
        return found
    listed = turn_ends(world, limit=limit)
    if not listed.complete:
        most = 1
    states: list[GameState] = []
    for end in listed:
        if deadline is not None and states and time.monotonic() > deadline:
            break
        states.append(end.state)
    values = [_RANKER.evaluate(state, player) for state in states]
    best: list[tuple[TurnEnd, Sequence[Move], float, tuple[Any, ...], tuple[tuple[int, int], ...]]] = []
    wanted = 0
    cutoff = None
    for i in sorted(range(len(states)), key=values.__getitem__, reverse=True):
        value = values[i]
        if cutoff is not None and value != cutoff:
            break
        end = listed[i]
        over = end.state.is_over
        # An end with no way out (only more moves that reveal nothing) is no place to stop.
        exits = () if over else segment_exits(end.state)
        if not (exits or over):
            continue
        best.append((end, exits, value, *keys.arrange(end.state)))
        wanted += 1 if over else len(exits)
        if cutoff is None and wanted >= most:
            cutoff = value  # the ends of the same value are needed too, for their order
    return best, listed.complete


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
        for i, value in enumerate(evaluate_all(judge, [follow(world, path) for path in paths], player, rng)):
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
            end = _JUDGE.play_on(follow(world, path), player)
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
        exits = [] if end.state.is_over else segment_exits(end.state)
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
            # Revealing plays of the reserve first (they empty it), then Draw, End turn, Pass: legal order.
            paths.extend((*end.moves, x) for x in exits)
    return paths

