"""A decision benchmark: positions from real games, the reference value of every candidate, and any evaluator scored on them.

An evaluator (anything with ``evaluate(state, player, rng)``, see
:mod:`crapette.evaluation`) is worth what the choices it makes are worth. This
benchmark measures that directly, before any match is spent on it: on a few
hundred positions where the player to move must choose how to end a turn
segment, it lets the evaluator pick one of the candidates and compares the
pick with reference values of every candidate, worked out once by long
playouts.

``python benchmarks/decisions.py make --rules classic --positions 300 --seed 0 --rollouts 256 --out FILE [--workers N]``
makes a data set:

* **Positions** come from games between ``PlanningBot(seed, 150)`` and, in
  turn, ``GreedyBot()`` and another ``PlanningBot(seed + 1, 150)``, seats
  swapped every other pair of games, each game on a fresh deal drawn from
  ``--seed``. A position is the start of a turn segment (the start of a turn,
  or the position after a move that revealed a card) at which the player to
  move has at least two candidates; ``--per-game`` (5) of them are taken from
  each game, one from each fifth of its segment starts, so they spread over
  the game. Either bot may be the one to move.
* **Candidates** are the position's :func:`crapette.bots.planner.segment_paths`:
  the moves to a position the turn can reach without revealing a card, then
  a move out of it (a draw, a reserve play that reveals a card, End turn,
  Pass), or the moves to the end of the game. All of them, or where there are
  more than ``--candidates`` (24), the best 24 by the
  :class:`~crapette.evaluation.FittedValue` ranking the planner uses (in its
  order); the file records how many there were.
* **The reference value** of a candidate is the mean result for the player to
  move (a win 1, a draw 1/2, a loss 0; a rollout cut short by the move cap
  counts as a draw) of ``--rollouts`` (256) greedy rollouts to the end of the
  game (:func:`crapette.selfplay.play_out` with ``policy="greedy"``, the
  compiled kernel where it runs), each in a world dealt from the view: the
  unseen cards dealt into the face-down slots. Two variance reductions:
  common random numbers (the same worlds and the same rollout seeds, world
  ``j`` with seed ``base + j``, for every candidate of a position, so their
  differences are measured in the same luck; the greedy policy draws no
  random numbers, so a rollout depends on its world alone), and stratified
  deals on the first card that play may reveal: where the mover's hand is
  face down (its order not known), the top card of the hand, the card a draw
  reveals, is not left to chance but cycled through the cards that may lie
  there, in an order shuffled once per position (world ``j`` gets the
  ``j % n``-th of the ``n``; the other unseen cards are dealt at random around
  it, so each world is drawn from the deal's distribution given that card,
  and the plain mean over the worlds stays unbiased). Where the hand's order
  is known (it was formed by turning the waste over) or the hand is empty,
  the card under the known top of the mover's reserve is stratified instead,
  else the same two of the opponent (whose turn follows End turn); where no
  such card is face down, or the rules may have moved cards between the
  decks' slots, nothing is. Each stored standard error is paired: that of
  the mean difference between the best candidate and this one over the
  worlds (0 for the best); it ignores the stratification, so it overstates
  the error a little. Greedy rollouts are chaotic (a card placed elsewhere
  changes the rest of the game), so the pairing helps less than one might
  hope: at 256 rollouts a difference between two candidates is known to
  about 4 points (one standard error).
* A position whose candidates all come to the same reference value (the
  game is decided whatever the player does, say) measures nothing: it is
  dropped, and more games are played until ``--positions`` positions are
  kept; the file records how many were dropped.

``python benchmarks/decisions.py score [--data FILE] EVALUATOR [EVALUATOR ...]``
scores evaluators on a data set (``benchmarks/data/decisions-classic.json`` by
default). An evaluator's value of a candidate is the mean of
``evaluator.evaluate(state after the candidate's moves, player, rng)`` over
the same ``--deals`` (16) deals of the unseen cards for every candidate of a
position (and for every evaluator), each evaluation of a deal given a
generator seeded alike (common random numbers for an evaluator that draws);
it picks the candidate of highest value, the earlier on a tie. For each
evaluator the command prints

* the **mean loss**: the reference value of the best candidate less that of
  its pick, in points of the chance to win (percentage points), averaged over
  the positions, with a 95% normal interval over the positions;
* how often it **picks a best candidate** (one whose reference value is the
  highest: candidates that come to the same results in every world tie),
  with a 95% Wilson interval;
* its **difference in mean loss** from the first evaluator named, paired by
  position, with a 95% interval: the figure to choose between two evaluators by;
* the **CPU seconds per position** of its evaluations (the moves to the
  candidates' ends are played once for all evaluators and not counted).

An evaluator is ``cardcount`` (:class:`~crapette.evaluation.CardCount`),
``fitted`` (:class:`~crapette.evaluation.FittedValue`), ``learned``
(:class:`crapette.value.LearnedValue`, the shipped network), ``playout``
(:class:`~crapette.evaluation.Playout`), ``rollout`` (one greedy rollout to the
end of the game: the reference's own judgement, to show how small a loss the
benchmark can see), ``first`` (the first candidate: the
FittedValue ranking's best turn end, with its first way out), ``random`` (a
candidate drawn uniformly), or ``module:name`` for one's own: an object with
``evaluate(state, player, rng)`` or a class or function that makes one with
no argument (the module must be importable, e.g. from ``PYTHONPATH``).

The data file is JSON (gzipped if its name ends in ``.gz``), small enough to ship (``benchmarks/data/``)::

    {"format": "crapette-decisions", "version": 1, "rules": "classic", "seed": 0,
     "rollouts": 256, "policy": "greedy", "max_candidates": 24, "dropped": 40, ...,
     "positions": [
       {"position": "<position string>", "deal": 123, "move_count": 40,
        "candidates_total": 37,
        "stratified": "H1",          # the pile whose face-down card was stratified, or null
        "candidates": [["T1-T2 R0-F3 draw", 0.5625, 0.0149], ...]},   # moves, value, standard error
       ...]}

A position is stored as the position string (:func:`crapette.parse_position`)
of the view the player sees, made whole by dealing the unseen cards in a
fixed order (:func:`crapette.bots.determinize` with no generator, the cards
ascending): it holds nothing the player could not see, and
``view(parse_position(text))`` gives the view back (:func:`load` checks it).
The candidates are the moves in :func:`crapette.parse_move` notation.
The same arguments always make the same file, whatever ``--workers``.
Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gzip
import importlib
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crapette import (
    Draw,
    EndTurn,
    GameState,
    Move,
    Pass,
    PublicView,
    apply_move,
    new_game,
    parse_move,
    parse_position,
    parse_rules,
    reveals,
    view,
)
from crapette._core.state import H0, R0, get_fields, raw_state
from crapette._views.view import Dealer, dealer
from crapette.bots import GreedyBot, PlanningBot
from crapette.bots.planner import segment_paths
from crapette.evaluation import CardCount, FittedValue, Playout
from crapette.protocol import DEFAULT_MAX_MOVES
from crapette.selfplay import play_out
from crapette.simulation import wilson_interval

__all__ = [
    "FORMAT",
    "Position",
    "load",
    "make_evaluator",
    "score",
    "segment_starts",
]

#: The ``format`` key of a data file, and its version.
FORMAT = "crapette-decisions"
VERSION = 1
#: The data set ``score`` reads by default.
DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "decisions-classic.json"
#: The evaluators known by name, besides ``first``, ``random`` and ``module:name``.
NAMED = ("cardcount", "fitted", "learned", "playout", "rollout")
#: The playing strength of the planning bots that play the games.
GAME_PLAYOUTS = 150


# The data ------------------------------------------------------------------------


@dataclass(frozen=True)
class Position:
    """One decision of a data set: the position, its candidates and their reference values."""

    #: The position string: the view, its unseen cards dealt in ascending order.
    text: str
    #: The candidates: the moves of each, from the position.
    paths: tuple[tuple[Move, ...], ...]
    #: The reference value of each candidate (the chance to win of the player to move).
    values: tuple[float, ...]
    #: The standard error of each, paired with the best candidate (0 for the best).
    errors: tuple[float, ...]
    #: How many candidates the position had (only the best ``len(paths)`` are kept).
    total: int

    @property
    def state(self) -> GameState:
        return parse_position(self.text)

    @property
    def best(self) -> float:
        return max(self.values)


def path_text(path: Sequence[Move]) -> str:
    """The moves of a candidate as text, separated by spaces."""
    return " ".join(str(move) for move in path)


def parse_path(text: str) -> tuple[Move, ...]:
    """The moves of a candidate's text."""
    return tuple(parse_move(word) for word in text.split())


def canonical(v: PublicView) -> GameState:
    """The state that stands for the view ``v`` in a data file: its unseen cards dealt in ascending order."""
    return dealer(v).deal(None)


def load(path: str | Path) -> tuple[dict[str, Any], list[Position]]:
    """The header (every key but the positions) and the positions of a data file.

    :raises ValueError: if the file is not a decision data set, or a position is
        not the canonical state of its view (it would hold what the player cannot see).
    """
    raw = Path(path).read_bytes()
    if str(path).endswith(".gz"):
        raw = gzip.decompress(raw)
    data = json.loads(raw.decode("utf-8"))
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a decision data set (no \"format\": \"{FORMAT}\")")
    if data.get("version") != VERSION:
        raise ValueError(f"{path}: version {data.get('version')!r} of the format, this benchmark reads {VERSION}")
    positions = []
    for number, entry in enumerate(data["positions"], 1):
        state = parse_position(entry["position"])
        if canonical(view(state)) != state:
            raise ValueError(f"{path}: position {number} is not its view's canonical state (unseen cards ascending)")
        candidates = entry["candidates"]
        if len(candidates) < 2:
            raise ValueError(f"{path}: position {number} has fewer than 2 candidates")
        positions.append(
            Position(
                entry["position"],
                tuple(parse_path(moves) for moves, _, _ in candidates),
                tuple(float(value) for _, value, _ in candidates),
                tuple(float(error) for _, _, error in candidates),
                int(entry.get("candidates_total", len(candidates))),
            )
        )
    header = {key: value for key, value in data.items() if key != "positions"}
    return header, positions


def follow(state: GameState, path: Sequence[Move]) -> GameState:
    """``state`` after the moves of ``path`` (they stop if the game ends)."""
    for move in path:
        if state.is_over:
            break
        state = apply_move(state, move)
    return state


# Making a data set: the games ----------------------------------------------------


def _bots(game: int, deal: int) -> tuple[Any, Any]:
    """The players of game ``game``: the planner against the greedy bot or another planner, seats swapped in pairs."""
    planner = PlanningBot(deal, GAME_PLAYOUTS)
    other = GreedyBot() if game % 2 == 0 else PlanningBot(deal + 1, GAME_PLAYOUTS)
    return (planner, other) if (game // 2) % 2 == 0 else (other, planner)


def segment_starts(rules: Any, deal: int, bots: Sequence[Any], max_moves: int = DEFAULT_MAX_MOVES) -> list[GameState]:
    """The positions of the game ``bots`` play on the deal ``deal`` at which a turn segment starts.

    A segment starts at the deal, after a move that revealed a card or ended
    the turn, and whenever the player to move changes. Finished positions are
    left out.
    """
    state = new_game(rules, deal)
    starts = []
    start = True
    for _ in range(max_moves):
        if state.is_over:
            break
        if start:
            starts.append(state)
        move = bots[state.current_player].choose(state)
        start = type(move) in (Draw, EndTurn, Pass) or reveals(state, move)
        after = apply_move(state, move)
        start = start or after.current_player != state.current_player
        state = after
    return starts


def _game_positions(task: tuple[str, int, int, int, int, int]) -> list[dict[str, Any]]:
    """Up to ``per_game`` decisions of one game, one from each equal share of its segment starts."""
    rules_text, seed, game, deal, per_game, max_candidates = task
    rules = parse_rules(rules_text)
    starts = segment_starts(rules, deal, _bots(game, deal))
    pick = random.Random(f"decisions-pick:{seed}:{game}")
    found = []
    for share in range(per_game):
        chunk = starts[share * len(starts) // per_game : (share + 1) * len(starts) // per_game]
        pick.shuffle(chunk)
        for state in chunk:
            v = view(state)
            paths = segment_paths(v)
            if len(paths) >= 2:
                found.append(
                    {
                        "position": str(canonical(v)),
                        "deal": deal,
                        "game": game,
                        "move_count": state.move_count,
                        "candidates_total": len(paths),
                        "paths": [path_text(path) for path in paths[:max_candidates]],
                    }
                )
                break
    return found


# Making a data set: the reference values ------------------------------------------


def _stratum(deal: Dealer, v: PublicView) -> tuple[int, int, list[tuple[int, int]], list[Any]] | None:
    """What to stratify the deals of ``v`` on: (pile, index from the bottom, the slots of its cards, the cards).

    The first face-down card that play from ``v`` may reveal: the top of the
    mover's hand, else the card under the known top of the mover's reserve,
    else the same of the opponent (whose turn comes after End turn). Only a
    slot filled from one deck's unseen cards that fill exactly the slots of
    that deck counts (any of them may lie there, each equally likely). None
    where there is no such slot.
    """
    player = v.current_player
    groups = [(cards, slots) for _, cards, slots in deal.own if sum(n for _, n in slots) == len(cards)]
    for pid in (H0 + player, R0 + player, H0 + 1 - player, R0 + 1 - player):
        for cards, slots in groups:
            size = dict(slots).get(pid)
            if size:
                return (pid, size - 1, slots, sorted(cards, key=lambda card: card.index))
    return None


def _with_card(world: GameState, pid: int, index: int, slots: list[tuple[int, int]], card: Any) -> GameState:
    """``world`` with ``card`` swapped into the place ``index`` of pile ``pid`` from where it lies in ``slots``."""
    piles = list(world.piles)
    if piles[pid][index] == card:
        return world
    for qid, n in slots:
        pile = piles[qid]
        if card in pile[:n]:
            j = pile.index(card)
            moved = list(pile)
            moved[j] = piles[pid][index]
            piles[qid] = tuple(moved)
            target = list(piles[pid])
            target[index] = card
            piles[pid] = tuple(target)
            fields = get_fields(world)
            return raw_state(*(fields[0], tuple(piles), *fields[2:], world.outcome))
    raise AssertionError(f"{card} is not among the cards of the stratified slots")


def worlds_for(v: PublicView, count: int, rng: random.Random) -> tuple[list[GameState], str | None]:
    """``count`` deals of the unseen cards of ``v``, stratified where possible, and the pile stratified (or None)."""
    deal = dealer(v)
    stratum = _stratum(deal, v)
    worlds = [deal.deal(rng) for _ in range(count)]
    if stratum is None:
        return worlds, None
    pid, index, slots, cards = stratum
    order = cards[:]
    rng.shuffle(order)
    worlds = [_with_card(world, pid, index, slots, order[j % len(order)]) for j, world in enumerate(worlds)]
    name = ("H" if pid >= H0 else "R") + str(pid - (H0 if pid >= H0 else R0))
    return worlds, name


def _result(outcome: Any, player: int) -> float:
    if outcome is None or outcome.winner is None:
        return 0.5
    return 1.0 if outcome.winner == player else 0.0


def reference(text: str, paths: Sequence[tuple[Move, ...]], rollouts: int, seed: int) -> tuple[list[list[float]], str | None]:
    """The result (1, 1/2, 0) for the player to move of each of ``rollouts`` greedy rollouts of each path.

    The same worlds and the same rollout seeds for every path. Returns the
    results (one list per path) and the pile stratified.
    """
    state = parse_position(text)
    v = view(state)
    player = v.current_player
    rng = random.Random(f"decisions-worlds:{seed}:{text}")
    worlds, stratified = worlds_for(v, rollouts, rng)
    base = rng.getrandbits(48)
    results = []
    for path in paths:
        games = play_out([follow(world, path) for world in worlds], seed=base, policy="greedy")
        results.append([_result(game.outcome, player) for game in games])
    return results, stratified


def summarize(results: Sequence[Sequence[float]]) -> tuple[list[float], list[float]]:
    """The mean of each candidate's results and its standard error paired with the best candidate's."""
    count = len(results[0])
    values = [sum(r) / count for r in results]
    best = values.index(max(values))
    errors = []
    for r in results:
        if r is results[best] or count < 2:
            errors.append(0.0)
        else:
            errors.append(statistics.stdev([a - b for a, b in zip(results[best], r)]) / math.sqrt(count))
    return values, errors


def _reference_task(task: tuple[dict[str, Any], int, int]) -> dict[str, Any]:
    entry, rollouts, seed = task
    paths = [parse_path(text) for text in entry["paths"]]
    results, stratified = reference(entry["position"], paths, rollouts, seed)
    values, errors = summarize(results)
    out = {key: value for key, value in entry.items() if key != "paths"}
    out["stratified"] = stratified
    out["candidates"] = [[text, round(value, 4), round(error, 4)] for text, value, error in zip(entry["paths"], values, errors)]
    return out


def _progress(what: str, done: int, total: int, started: float) -> None:
    elapsed = time.monotonic() - started
    left = elapsed / done * (total - done) if done else 0.0
    print(f"\r{what}: {done}/{total}, {elapsed:.0f} s, about {left:.0f} s left   ", end="", file=sys.stderr, flush=True)


def _run(executor: concurrent.futures.Executor | None, function: Any, tasks: list[Any], what: str) -> list[Any]:
    """``function`` of every task, in order, on ``executor`` (None: here), with progress on stderr."""
    started = time.monotonic()
    results: list[Any] = [None] * len(tasks)
    if executor is None:
        for i, task in enumerate(tasks):
            results[i] = function(task)
            _progress(what, i + 1, len(tasks), started)
    else:
        futures = {executor.submit(function, task): i for i, task in enumerate(tasks)}
        for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
            results[futures[future]] = future.result()
            _progress(what, done, len(tasks), started)
    print(file=sys.stderr)
    return results


def make(args: argparse.Namespace) -> dict[str, Any]:
    """The data set the arguments of ``make`` describe."""
    rules = parse_rules(args.rules)
    started = time.monotonic()
    executor = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        deals = random.Random(args.seed)
        kept: list[dict[str, Any]] = []
        game = dropped = 0
        while len(kept) < args.positions:
            count = -(-(args.positions - len(kept)) // args.per_game)
            tasks = [
                (str(rules), args.seed, g, deals.randrange(2**32), args.per_game, args.candidates)
                for g in range(game, game + count)
            ]
            game += count
            entries = [entry for found in _run(executor, _game_positions, tasks, f"games {game - count + 1}-{game}")
                       for entry in found]
            for done in _run(executor, _reference_task, [(entry, args.rollouts, args.seed) for entry in entries], "positions"):
                values = [value for _, value, _ in done["candidates"]]
                if max(values) > min(values):
                    kept.append(done)
                else:
                    dropped += 1
    finally:
        if executor is not None:
            executor.shutdown()
    print(f"made in {time.monotonic() - started:.0f} s", file=sys.stderr)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": str(rules),
        "seed": args.seed,
        "rollouts": args.rollouts,
        "policy": "greedy",
        "max_candidates": args.candidates,
        "per_game": args.per_game,
        "games": game,
        "dropped": dropped,
        "command": (
            f"python benchmarks/decisions.py make --rules {args.rules} --positions {args.positions} --seed {args.seed} "
            f"--rollouts {args.rollouts} --candidates {args.candidates} --per-game {args.per_game}"
        ),
        "positions": kept[: args.positions],
    }


def dump(data: dict[str, Any]) -> str:
    """The data set as JSON text: the header, then one position a line."""
    head = {key: value for key, value in data.items() if key != "positions"}
    lines = [json.dumps(entry, separators=(",", ":")) for entry in data["positions"]]
    return json.dumps(head)[:-1] + ', "positions": [\n' + ",\n".join(lines) + "\n]}\n"


# Scoring -------------------------------------------------------------------------


def make_evaluator(spec: str) -> Any:
    """The evaluator a command-line name stands for: one of :data:`NAMED`, ``first``, ``random`` or ``module:name``.

    ``first`` and ``random`` come back as those strings (they pick without evaluating).

    :raises ValueError: if the spec names no evaluator.
    """
    name = spec.strip()
    if name in ("first", "random"):
        return name
    if name == "cardcount":
        return CardCount()
    if name == "fitted":
        return FittedValue()
    if name == "playout":
        return Playout()
    if name == "rollout":
        return GreedyRollout()
    if name == "learned":
        from crapette.value import LearnedValue

        return LearnedValue()
    module_name, colon, attribute = name.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"unknown evaluator {spec!r}: expected one of {', '.join(NAMED)}, first, random or module:name")
    try:
        found = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as error:
        raise ValueError(f"cannot load evaluator {spec!r}: {error}") from None
    if isinstance(found, type) or (callable(found) and not hasattr(found, "evaluate")):
        found = found()
    if not callable(getattr(found, "evaluate", None)):
        raise ValueError(f"evaluator {spec!r} has no evaluate(state, player, rng) method")
    return found


class GreedyRollout:
    """One greedy rollout to the end of the game, its result for ``player`` (1, 1/2, 0): the reference's own judgement.

    Scored with ``--deals 16`` it is a 16-rollout estimate of what the
    reference measures with ``--rollouts``: it shows how small a loss the
    benchmark can see, at a cost no search could pay at every candidate.
    """

    def __eq__(self, other: object) -> bool:
        return type(other) is GreedyRollout

    def __hash__(self) -> int:
        return hash("GreedyRollout")

    def evaluate(self, state: GameState, player: int, rng: random.Random) -> float:
        return _result(play_out([state], seed=rng.getrandbits(63), policy="greedy")[0].outcome, player)


@dataclass
class Score:
    """What an evaluator scored: per position, the loss of its pick and whether it was a best candidate."""

    name: str
    losses: list[float]
    hits: list[bool]
    seconds: float

    def summary(self, baseline: Score | None = None) -> dict[str, Any]:
        """The figures, with 95% intervals: mean loss and its difference from ``baseline``'s in points, share of best picks."""
        n = len(self.losses)
        mean, low, high = _mean_interval(self.losses)
        hits = sum(self.hits)
        share_low, share_high = wilson_interval(hits, n)
        out = {
            "evaluator": self.name,
            "positions": n,
            "mean_loss": 100 * mean,
            "mean_loss_interval": [100 * low, 100 * high],
            "best_share": hits / n if n else 0.0,
            "best_share_interval": [share_low, share_high],
            "seconds_per_position": self.seconds / n if n else 0.0,
        }
        if baseline is not None and baseline is not self:
            diff, d_low, d_high = _mean_interval([a - b for a, b in zip(self.losses, baseline.losses)])
            out["difference"] = {"from": baseline.name, "points": 100 * diff, "interval": [100 * d_low, 100 * d_high]}
        return out


def _mean_interval(xs: Sequence[float], z: float = 1.96) -> tuple[float, float, float]:
    if not xs:
        return (0.0, 0.0, 0.0)
    mean = sum(xs) / len(xs)
    spread = z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return (mean, mean - spread, mean + spread)


def _values(evaluator: Any, after: list[list[GameState]], player: int, seeds: list[int]) -> list[float]:
    """The mean value of each candidate over the deals: ``after[k][d]`` is candidate ``k`` in deal ``d``."""
    totals = [0.0] * len(after)
    many = getattr(evaluator, "evaluate_many", None)
    for d, seed in enumerate(seeds):
        if many is not None:
            found = many([states[d] for states in after], player, random.Random(seed))
            for k, value in enumerate(found):
                totals[k] += float(value)
        else:
            for k, states in enumerate(after):
                totals[k] += float(evaluator.evaluate(states[d], player, random.Random(seed)))
    return [total / len(seeds) for total in totals]


def score(
    positions: Sequence[Position],
    evaluators: Sequence[tuple[str, Any]],
    *,
    deals: int = 16,
    seed: int = 0,
    progress: bool = False,
) -> list[Score]:
    """Score each ``(name, evaluator)`` on ``positions``: the loss of its pick and whether it was a best one.

    Every evaluator sees the same ``deals`` deals of each position, the same
    for every candidate. ``"first"`` picks the first candidate, ``"random"``
    one drawn uniformly (seeded by ``seed``).
    """
    scores = [Score(name, [], [], 0.0) for name, _ in evaluators]
    started = time.monotonic()
    for index, position in enumerate(positions):
        state = position.state
        v = view(state)
        player = v.current_player
        rng = random.Random(f"decisions-score:{seed}:{index}")
        deal = dealer(v)
        worlds = [deal.deal(rng) for _ in range(deals)]
        seeds = [rng.getrandbits(64) for _ in range(deals)]
        after = [[follow(world, path) for world in worlds] for path in position.paths]
        best = position.best
        for (name, evaluator), result in zip(evaluators, scores):
            clock = time.process_time()
            if isinstance(evaluator, str) and evaluator == "first":
                pick = 0
            elif isinstance(evaluator, str) and evaluator == "random":
                pick = random.Random(f"decisions-random:{seed}:{index}").randrange(len(position.paths))
            else:
                values = _values(evaluator, after, player, seeds)
                pick = values.index(max(values))
            result.seconds += time.process_time() - clock
            result.losses.append(best - position.values[pick])
            result.hits.append(position.values[pick] >= best)
        if progress:
            _progress("positions", index + 1, len(positions), started)
    if progress:
        print(file=sys.stderr)
    return scores


def _table(summaries: list[dict[str, Any]]) -> str:
    rows = [("evaluator", "mean loss, points (95%)", "picks a best (95%)", "loss - " + summaries[0]["evaluator"] + " (95%)", "CPU s/position")]
    for s in summaries:
        low, high = s["mean_loss_interval"]
        share_low, share_high = s["best_share_interval"]
        diff = s.get("difference")
        rows.append(
            (
                s["evaluator"],
                f"{s['mean_loss']:.2f} ({low:.2f} to {high:.2f})",
                f"{100 * s['best_share']:.1f}% ({100 * share_low:.1f}%-{100 * share_high:.1f}%)",
                "" if diff is None else f"{diff['points']:+.2f} ({diff['interval'][0]:+.2f} to {diff['interval'][1]:+.2f})",
                f"{s['seconds_per_position']:.4f}",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows)


# The command line ----------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    maker = commands.add_parser("make", help="make a data set: positions from games and the reference values of their candidates")
    maker.add_argument("--rules", default="classic", help="the rules (a rules text; default classic)")
    maker.add_argument("--positions", type=int, default=300, help="how many positions (default 300)")
    maker.add_argument("--seed", type=int, default=0, help="the seed of the deals and the rollouts (default 0)")
    maker.add_argument("--rollouts", type=int, default=256, help="rollouts per candidate (default 256)")
    maker.add_argument("--candidates", type=int, default=24, help="the most candidates kept per position (default 24)")
    maker.add_argument("--per-game", type=int, default=5, help="positions taken from each game (default 5)")
    maker.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    maker.add_argument("--out", required=True, help="the JSON file to write (compressed if its name ends in .gz)")
    scorer = commands.add_parser("score", help="score evaluators on a data set")
    scorer.add_argument("evaluators", nargs="+", metavar="EVALUATOR",
                        help=f"{', '.join(NAMED)}, first, random or module:name")
    scorer.add_argument("--data", default=str(DEFAULT_DATA), help="the data set (default: the shipped classic one)")
    scorer.add_argument("--deals", type=int, default=16, help="deals of the unseen cards per position (default 16)")
    scorer.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    scorer.add_argument("--positions", type=int, default=None, help="score only the first N positions")
    scorer.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.command == "make":
        for name in ("positions", "rollouts", "candidates", "per_game", "workers"):
            if getattr(args, name) < (2 if name == "candidates" else 1):
                parser.error(f"--{name.replace('_', '-')} must be at least {2 if name == 'candidates' else 1}")
        data = make(args)
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        text = dump(data).encode("utf-8")
        Path(args.out).write_bytes(gzip.compress(text, mtime=0) if args.out.endswith(".gz") else text)
        print(f"{len(data['positions'])} positions from {data['games']} games written to {args.out}")
        return 0
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    try:
        evaluators = [(spec, make_evaluator(spec)) for spec in args.evaluators]
    except ValueError as error:
        parser.error(str(error))
    header, positions = load(args.data)
    if args.positions is not None:
        positions = positions[: args.positions]
    scores = score(positions, evaluators, deals=args.deals, seed=args.seed, progress=True)
    summaries = [s.summary(scores[0]) for s in scores]
    if args.json:
        print(json.dumps({"data": args.data, "deals": args.deals, "seed": args.seed, "scores": summaries}, indent=1))
        return 0
    candidates = sum(len(p.paths) for p in positions) / max(1, len(positions))
    errors = sorted(e for p in positions for e in p.errors if e > 0) or [0.0]
    print(
        f"{args.data}: {len(positions)} positions ({header.get('rules')}), {candidates:.1f} candidates a position, "
        f"reference: {header.get('rollouts')} {header.get('policy')} rollouts a candidate (paired standard error "
        f"{100 * errors[len(errors) // 2]:.1f} points, the median); {args.deals} deals a position"
    )
    print(_table(summaries))
    return 0


if __name__ == "__main__":
    sys.exit(main())
