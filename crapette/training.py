"""Training the learned value of :mod:`crapette.value`: self-play, labels, a network fitted with NumPy.

The pipeline has three steps, each a function and a subcommand of
``python -m crapette.training``:

1. :func:`generate` plays games of self-play and keeps the positions a
   search judges (the first position of every turn, and every turn end a
   player stopped at before revealing a card or ending the turn), each seen
   from both sides and labelled by who went on to win (1, 0, or 0.5 for a
   draw). The first generation plays the greedy heuristic (in the compiled
   kernel, thousands of games a minute); a later one plays the turn planner
   ranking the turn ends by the previous network (``policy="value"``), with a
   share of random moves. Games are dealt from consecutive seeds and split
   over any :mod:`concurrent.futures` executor, so the same arguments give the
   same samples on one process or a cluster.
2. :func:`fit` trains the network (one hidden layer of clipped rectified
   units, the log loss of the labels, Adam) on all but a held-out tenth of the
   deals, then writes its weights as the integers of a
   :class:`~crapette.value.ValueNet`.
3. :func:`log_loss` measures a network on samples it was not trained on.

>>> import numpy as np
>>> samples = generate("classic", games=2, seed=5)
>>> samples.features.shape[1] == len(FEATURES), set(np.unique(samples.labels)) <= {0.0, 0.5, 1.0}
(True, True)

Needs NumPy (``pip install numpy``, or the ``learn`` extra: ``pip install -e
".[learn]"`` in a checkout). The command that made each network this package
ships is in its ``made`` field (see :doc:`/learning`).

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import argparse
import concurrent.futures
import math
import shlex
import sys
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from ._core.checks import MAX_PLAYOUTS, SEED_LIMIT, check_int, check_seed
from ._core.engine import apply_move, legal_moves, new_game
from ._core.messages import brief
from ._core.rules import RuleSet, to_rules
from ._core.state import H0, R0, GameState
from ._core.turns import leaves_segment, segment_exits, turn_ends
from ._formats.atomic import replacing
from ._play.progress import progress as progress_report
from ._views.view import determinize, view
from .bots.planner import PlanningBot
from .evaluation import Playout
from .protocol import DEFAULT_MAX_MOVES, Crapette
from .selfplay import play_out, self_play
from .value import FEATURES, SCALE_BITS, LearnedValue, ValueNet, encode

try:
    import numpy as np
except ImportError as _error:  # pragma: no cover - the extra is missing
    raise ImportError(f"crapette.training needs NumPy ({_error}): pip install numpy (the learn extra of crapette)") from None

__all__ = ["POLICIES", "Samples", "fit", "generate", "log_loss", "main"]

#: How :func:`generate` makes its samples: the positions of greedy games labelled by their result
#: (``"greedy"``); of games of the turn planner ranking by a network, likewise (``"value"``); or
#: positions of greedy games and turn ends reachable from them, each labelled by the mean result
#: of greedy rollouts from deals of its unseen cards (``"rollouts"``); or the positions of games of the
#: planning bot with its playouts, judging by the card count or by a network (``"planner"``).
POLICIES = ("greedy", "value", "rollouts", "planner")
# The largest count a sample file may hold (encode()'s counts are far below: they fit the int16 of the samples),
# and the largest network file the command reads, in bytes (the shipped networks are a few kilobytes).
_MAX_COUNT = 2**15 - 1
_MAX_NET_BYTES = 16 * 2**20


@attrs.frozen(eq=False)
class Samples:
    """Positions and their labels: ``features`` (one row of :func:`~crapette.value.encode` counts
    each), ``labels`` (1 won, 0 lost, 0.5 drawn, for the side the row is judged for), ``deals``
    (the seed of the game each came from, which keeps a game's positions on one side of a split)
    and ``made``, the commands that generated them (the command line records its own; :meth:`save`
    and :meth:`load` keep them, and ``fit`` puts them before its own in the network's ``made``)."""

    features: np.ndarray
    labels: np.ndarray
    deals: np.ndarray
    made: tuple[str, ...] = ()

    def __len__(self) -> int:
        return int(self.labels.shape[0])

    @classmethod
    def join(cls, parts: Sequence[Samples]) -> Samples:
        """The samples of ``parts``, one after the other."""
        if not parts:
            return cls(np.zeros((0, len(FEATURES)), np.int16), np.zeros(0, np.float32), np.zeros(0, np.int64))
        return cls(
            np.concatenate([p.features for p in parts]),
            np.concatenate([p.labels for p in parts]),
            np.concatenate([p.deals for p in parts]),
            tuple(dict.fromkeys(command for p in parts for command in p.made)),
        )

    def save(self, path: str) -> None:
        """Write the samples to ``path``, that name exactly (NumPy's compressed ``.npz``), whole or not at all.

        The samples go to a hidden file beside ``path`` that then replaces it
        in one step, as the ``crapette`` command saves its files: a write
        that fails midway, or is interrupted, leaves the file that was there.

        :raises OSError: if the file cannot be written.
        """
        with replacing(path, binary=True) as out:  # a name given to NumPy would get ".npz" added
            np.savez_compressed(
                out, features=self.features, labels=self.labels, deals=self.deals, made=np.array(self.made, dtype=str)
            )

    @classmethod
    def load(cls, path: str) -> Samples:
        """The samples :meth:`save` wrote.

        The counts must be whole numbers from 0 to 32,767, the labels numbers
        from 0 to 1, the deals whole numbers.

        :raises OSError: if the file cannot be read.
        :raises ValueError: if it holds no samples, samples of other features, or values out of range.
        """
        try:
            with np.load(path, allow_pickle=False) as data:
                features, labels, deals = data["features"], data["labels"], data["deals"]
                made = data["made"] if "made" in data.files else np.array([], dtype=str)
        except OSError:
            raise
        except Exception as exc:  # NumPy and zipfile say "malformed" in many ways (zlib.error, MemoryError, ...)
            raise ValueError(f"{path} holds no samples: {brief(exc)}") from None
        if not all(isinstance(a, np.ndarray) for a in (features, labels, deals)):
            raise ValueError(f"{path} holds no samples: not arrays")
        if features.ndim != 2:
            raise ValueError(f"{path} holds counts of shape {features.shape}, not (samples, {len(FEATURES)})")
        if features.shape[1] != len(FEATURES):
            raise ValueError(f"{path} holds samples of {features.shape[1]} features, not {len(FEATURES)}")
        if labels.shape != (len(features),) or deals.shape != (len(features),):
            raise ValueError(f"{path} holds {len(features)} samples but other numbers of labels or deals")
        if features.dtype.kind not in "iu" or deals.dtype.kind not in "iu" or labels.dtype.kind not in "iuf":
            raise ValueError(f"{path} holds samples of the wrong types (counts {features.dtype}, labels "
                             f"{labels.dtype}, deals {deals.dtype})")
        if features.size and not (features.min() >= 0 and features.max() <= _MAX_COUNT):
            raise ValueError(f"{path} holds counts out of range (0 to {_MAX_COUNT})")
        if labels.size and not (np.all(np.isfinite(labels)) and labels.min() >= 0 and labels.max() <= 1):
            raise ValueError(f"{path} holds labels out of range (0 to 1)")
        if not isinstance(made, np.ndarray) or made.ndim != 1 or made.dtype.kind != "U":
            raise ValueError(f"{path} holds samples whose commands are not a list of texts")
        return cls(features.astype(np.int16), labels, deals.astype(np.int64), tuple(str(command) for command in made))


def _exit(before: GameState, after: GameState) -> bool:
    """Whether the move from ``before`` to ``after`` left a turn segment: it ended the turn or the game, drew,
    or played the reserve's top with a card under it (the samples' own test, read from the two states: the
    games of self-play keep no moves)."""
    player = before.current_player
    if after.current_player != player or after.is_over:
        return True
    hand, reserve = H0 + player, R0 + player
    if len(after.piles[hand]) < len(before.piles[hand]):
        return True  # a draw
    # A reserve play that uncovered a card.
    return len(after.piles[reserve]) < len(before.piles[reserve]) and bool(after.piles[reserve])


def _label(outcome: Any, player: int) -> float:
    return 0.5 if outcome.winner is None else float(outcome.winner == player)


def _rows(kept: list[GameState], outcome: Any, deal: int) -> tuple[list[tuple[int, ...]], list[float], list[int]]:
    rows, labels = [], []
    for state in kept:
        for player in (0, 1):
            rows.append(encode(state, player))
            labels.append(_label(outcome, player))
    return rows, labels, [deal] * len(rows)


def _greedy_games(rules: RuleSet, start: int, count: int, epsilon: float, max_moves: int) -> Samples:
    rows: list[tuple[int, ...]] = []
    labels: list[float] = []
    deals: list[int] = []
    for game in self_play(rules, count, seed=start, policy="greedy", epsilon=epsilon, max_moves=max_moves, keep="moves"):
        states = game.states
        if not states:
            continue
        last = states[-1]
        outcome = game.outcome
        if outcome is None:
            outcome = Crapette.cut_short(last)
        kept = []
        for i, state in enumerate(states):
            turn_start = i == 0 or states[i - 1].current_player != state.current_player
            turn_end = i + 1 < len(states) and _exit(state, states[i + 1])
            if turn_start or turn_end:
                kept.append(state)
        r, l, d = _rows(kept, outcome, game.seed)
        rows += r
        labels += l
        deals += d
    return _arrays(rows, labels, deals)


def _value_games(rules: RuleSet, start: int, count: int, epsilon: float, max_moves: int, net: str) -> Samples:
    value = LearnedValue(ValueNet.from_json(net))
    return _bot_games(rules, start, count, epsilon, max_moves,
                      lambda deal: (PlanningBot(deal, 0, ranker=value), PlanningBot(deal + 1, 0, ranker=value)))


def _planner_games(rules: RuleSet, start: int, count: int, epsilon: float, max_moves: int, net: str, playouts: int) -> Samples:
    judge = Playout(leaf=LearnedValue(ValueNet.from_json(net))) if net else None
    return _bot_games(rules, start, count, epsilon, max_moves,
                      lambda deal: (PlanningBot(deal, playouts, evaluator=judge), PlanningBot(deal + 1, playouts, evaluator=judge)))


def _bot_games(
    rules: RuleSet, start: int, count: int, epsilon: float, max_moves: int, bots_for: Callable[[int], tuple[PlanningBot, PlanningBot]]
) -> Samples:
    """The samples of games between the two bots ``bots_for(deal)`` makes: turn starts and segment exits."""
    import random

    rows: list[tuple[int, ...]] = []
    labels: list[float] = []
    deals: list[int] = []
    for deal in range(start, start + count):
        rng = random.Random(deal)
        bots = bots_for(deal)
        state = new_game(rules, deal)
        kept: list[GameState] = []
        previous = -1
        moves = 0
        while not state.is_over and moves < max_moves:
            if state.current_player != previous:
                kept.append(state)
            previous = state.current_player
            legal = legal_moves(state)
            if len(legal) > 1 and epsilon and rng.random() < epsilon:
                move = legal[rng.randrange(len(legal))]
            else:
                move = bots[state.current_player].choose(state)
            if leaves_segment(state, move):
                kept.append(state)
            state = apply_move(state, move)
            moves += 1
        outcome = state.outcome if state.outcome is not None else Crapette.cut_short(state)
        r, l, d = _rows(kept, outcome, deal)
        rows += r
        labels += l
        deals += d
    return _arrays(rows, labels, deals)


def _rollout_mean(state: GameState, exit: Any, player: int, rollouts: int, rng: Any, seed: int, max_moves: int) -> float:
    """The mean result for ``player`` of greedy rollouts from deals of ``state``'s unseen cards, after ``exit``."""
    v = view(state)
    worlds = []
    for _ in range(rollouts):
        world = determinize(v, rng)
        worlds.append(apply_move(world, exit) if exit is not None else world)
    total = 0.0
    for world, game in zip(worlds, play_out(worlds, seed=seed, policy="greedy", max_moves=max_moves)):
        outcome = world.outcome if world.is_over else game.outcome
        total += 0.5 if outcome is None else _label(outcome, player)
    return total / rollouts


def _rollout_games(
    rules: RuleSet, start: int, count: int, epsilon: float, max_moves: int, rollouts: int, per_game: int
) -> Samples:
    import random

    rows: list[tuple[int, ...]] = []
    labels: list[float] = []
    deals: list[int] = []
    for game in self_play(rules, count, seed=start, policy="greedy", epsilon=epsilon, max_moves=max_moves, keep="turns"):
        rng = random.Random(game.seed)
        turns = [s for s in game.states if not s.is_over]
        picks = sorted(rng.sample(range(len(turns)), min(len(turns), max(1, per_game // 3))))
        for n, i in enumerate(picks):
            state = turns[i]
            player = state.current_player
            chosen: list[tuple[GameState, Any]] = [(state, None)]
            ends = [e for e in turn_ends(state, limit=500) if e.moves]
            for end in rng.sample(ends, min(len(ends), 2)):
                exits = [] if end.state.is_over else segment_exits(end.state)
                chosen.append((end.state, exits[0] if exits else None))
            for k, (position, exit) in enumerate(chosen):
                seed = (game.seed * 1000 + n * 10 + k) & 0xFFFFFFFF
                mean = _rollout_mean(position, exit, player, rollouts, rng, seed, max_moves)
                rows += [encode(position, player), encode(position, 1 - player)]
                labels += [mean, 1.0 - mean]
                deals += [game.seed, game.seed]
    return _arrays(rows, labels, deals)


def _arrays(rows: list[tuple[int, ...]], labels: list[float], deals: list[int]) -> Samples:
    return Samples(
        np.array(rows, dtype=np.int16).reshape(-1, len(FEATURES)),
        np.array(labels, dtype=np.float32),
        np.array(deals, dtype=np.int64),
    )


def _chunk(
    rules: str, start: int, count: int, policy: str, epsilon: float, max_moves: int, net: str, rollouts: int, per_game: int,
    playouts: int = 150,
) -> Samples:
    """One executor task: the samples of ``count`` games dealt from ``start``."""
    ruleset = to_rules(rules, "generate()")
    if policy == "greedy":
        return _greedy_games(ruleset, start, count, epsilon, max_moves)
    if policy == "rollouts":
        return _rollout_games(ruleset, start, count, epsilon, max_moves, rollouts, per_game)
    if policy == "planner":
        return _planner_games(ruleset, start, count, epsilon, max_moves, net, playouts)
    return _value_games(ruleset, start, count, epsilon, max_moves, net)


def generate(
    rules: RuleSet | str,
    games: int,
    *,
    seed: int = 0,
    policy: str = "greedy",
    net: ValueNet | None = None,
    epsilon: float = 0.05,
    max_moves: int = DEFAULT_MAX_MOVES,
    executor: concurrent.futures.Executor | None = None,
    chunk: int = 20,
    rollouts: int = 16,
    per_game: int = 12,
    playouts: int = 150,
    progress: Callable[[int, int], None] | None = None,
) -> Samples:
    """The samples of ``games`` games of self-play under ``rules``, dealt from ``seed``, ``seed + 1``, ...

    ``policy`` is ``"greedy"`` (the greedy heuristic for both players) or
    ``"value"`` (the turn planner ranking the turn ends by ``net``, without
    playouts) or ``"planner"`` (the planning bot with ``playouts`` playouts,
    each judged by the card count, or by ``net`` where one is given: the
    playouts' leaf, as ``Playout(leaf=LearnedValue(net))``); ``epsilon`` is
    the share of decisions made at random instead.
    With ``"rollouts"``, each game gives about ``per_game`` positions (each a
    sample from both sides): turn starts and turn ends reachable from them
    (each left by its first move out), labelled by the mean result of
    ``rollouts`` greedy rollouts to the end from deals of the unseen cards.
    The games go to ``executor`` (any :class:`concurrent.futures.Executor`) by
    ``chunk`` at a time, or are played here; ``progress(done, games)`` is
    called as chunks finish. The samples are in the order of the deals.

    :raises ValueError: for a policy that is not one of :data:`POLICIES`, a
        ``"value"`` policy without ``net``, a seed out of range (the samples
        keep each game's seed as a signed 64-bit integer: ``seed + games`` at
        most ``2**63``), an ``epsilon`` that is not a number from 0 to 1, or
        counts out of range.
    :raises TypeError: if a count is not an int, or ``net`` not a
        :class:`~crapette.value.ValueNet`.
    """
    ruleset = to_rules(rules, "generate()")
    games = check_int("games", games, 0)
    chunk = check_int("chunk", chunk, 1)
    max_moves = check_int("max_moves", max_moves, 1)
    rollouts = check_int("rollouts", rollouts, 1)
    per_game = check_int("per_game", per_game, 1)
    playouts = check_int("playouts", playouts, 0, MAX_PLAYOUTS)
    seed = check_seed(seed)
    if seed + games > SEED_LIMIT // 2:
        raise ValueError(f"seed + games must be at most 2**63 (the samples keep the seeds), got {brief(seed + games)}")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {brief(policy)}: expected one of {', '.join(POLICIES)}")
    if net is not None and not isinstance(net, ValueNet):
        raise TypeError(f"net must be a ValueNet, got {type(net).__name__}")
    if policy == "value" and net is None:
        raise ValueError("the value policy needs a net")
    if isinstance(epsilon, bool) or not isinstance(epsilon, (int, float)) or not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must be a number from 0 to 1, got {brief(epsilon)}")
    text = str(ruleset)
    payload = net.to_json() if net is not None else ""
    starts = list(range(seed, seed + games, chunk))
    tasks = [
        (text, start, min(chunk, seed + games - start), policy, epsilon, max_moves, payload, rollouts, per_game, playouts)
        for start in starts
    ]
    parts: list[Samples] = []
    done = 0
    if executor is None:
        for task in tasks:
            parts.append(_chunk(*task))
            done += task[2]
            if progress is not None:
                progress(done, games)
    else:
        futures = [executor.submit(_chunk, *task) for task in tasks]
        for task, future in zip(tasks, futures):
            parts.append(future.result())
            done += task[2]
            if progress is not None:
                progress(done, games)
    return Samples.join(parts)


def _split(samples: Samples, holdout: float) -> tuple[np.ndarray, np.ndarray]:
    """Indexes of the training and held-out samples: every deal whose hash falls in the held-out share."""
    key = (samples.deals * 2654435761) % 1000
    held = key < int(holdout * 1000)
    return np.nonzero(~held)[0], np.nonzero(held)[0]


def _forward(x: np.ndarray, w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float, clip: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = x @ w1 + b1
    h = np.clip(a, 0.0, clip)
    return a, h, h @ w2 + b2


def _bce(z: np.ndarray, y: np.ndarray) -> float:
    # log(1 + e^z) - y z, computed stably
    return float(np.mean(np.logaddexp(0.0, z) - y * z))


def fit(
    samples: Samples,
    *,
    hidden: int = 32,
    clip: int = 8,
    epochs: int = 20,
    batch: int = 256,
    rate: float = 1e-3,
    l2: float = 1e-5,
    seed: int = 0,
    holdout: float = 0.1,
    name: str = "classic",
    made: str = "",
    td_lambda: float | None = None,
    start: ValueNet | None = None,
    progress: Callable[[int, float, float], None] | None = None,
) -> tuple[ValueNet, dict[str, float]]:
    """A :class:`~crapette.value.ValueNet` fitted to ``samples``, and its log losses.

    The deals are split (a ``holdout`` share held out); the inputs are
    scaled by their spread for training and the scales folded into the first
    layer before the weights are rounded to integers. Returns the network and
    ``{"train": ..., "held_out": ..., "held_out_rounded": ..., "base": ...}``:
    the log losses of the float network, of the integer one, and of the
    labels' mean alone (NaN where nothing is held out), ``"samples"``, the
    number of samples trained on, and ``"epoch"``, the epoch whose weights are
    returned: the one with the least held-out loss (the last where nothing is
    held out). ``progress(epoch, train, held_out)`` is called after each epoch.

    With ``td_lambda`` (a number from 0 to 1) the network is trained twice
    ``epochs`` epochs: first on the results, then on TD(lambda) targets, each
    epoch's targets worked out by the network as it stands. Along the positions
    of one game seen from one side, the target of a position is ``(1 -
    td_lambda)`` times the network's chance at the next position plus
    ``td_lambda`` times the next position's target, the last position's being
    the result: a mix of the result and of what later positions of the same
    game say, with less of the noise of the result alone (``td_lambda=1`` is
    the result). A game's samples are the consecutive ones of its deal, two a
    position (the two sides), as :func:`generate` writes them for the
    ``"greedy"``, ``"value"`` and ``"planner"`` policies (samples of
    ``"rollouts"`` are no games: ``td_lambda`` refuses samples whose ``made``
    says so; samples joined from two runs must not deal the same seeds). The
    held-out losses are measured against the results in both phases.

    ``start`` (a :class:`~crapette.value.ValueNet` over the same features)
    is where the training starts instead of random weights: a generation
    trained on from the one before it. Its hidden units and ``clip`` are then
    the network's, whatever ``hidden`` and ``clip`` say.

    :raises ValueError: if no sample is left to train on, a count is out of
        range, ``rate`` is not positive, ``l2`` negative, or ``holdout`` not
        from 0 to less than 1.
    :raises TypeError: if ``samples`` is not :class:`Samples`, or a count not an int.
    """
    if not isinstance(samples, Samples):
        raise TypeError(f"fit() expects Samples, got {type(samples).__name__}")
    hidden = check_int("hidden", hidden, 1)
    clip = check_int("clip", clip, 1)
    epochs = check_int("epochs", epochs, 0)
    batch = check_int("batch", batch, 1)
    seed = check_seed(seed)
    for what, value, low in (("rate", rate, None), ("l2", l2, 0.0), ("holdout", holdout, 0.0)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value == value:
            raise ValueError(f"{what} must be a number, got {brief(value)}")
        if (low is None and not value > 0) or (low is not None and value < low):
            raise ValueError(f"{what} must be {'positive' if low is None else 'at least 0'}, got {brief(value)}")
    if holdout >= 1:
        raise ValueError(f"holdout must be less than 1, got {brief(holdout)}")
    if td_lambda is not None and (
        isinstance(td_lambda, bool) or not isinstance(td_lambda, (int, float)) or not 0.0 <= td_lambda <= 1.0
    ):
        raise ValueError(f"td_lambda must be a number from 0 to 1, got {brief(td_lambda)}")
    if start is not None:
        if not isinstance(start, ValueNet):
            raise TypeError(f"start must be a ValueNet, got {type(start).__name__}")
        hidden, clip = len(start.hidden), start.clip
    if td_lambda is not None and any("--policy rollouts" in command for command in samples.made):
        raise ValueError("td_lambda needs the samples of games (greedy, value or planner), not of rollouts")
    train, held = _split(samples, holdout)
    if len(train) == 0:
        raise ValueError("no samples to train on")
    rng = np.random.default_rng(seed)
    x_all = samples.features.astype(np.float32)
    y_all = samples.labels.astype(np.float32)
    scale = np.maximum(x_all[train].std(axis=0), 0.5).astype(np.float32)
    x = x_all / scale
    n_in = x.shape[1]
    w1 = (rng.standard_normal((n_in, hidden)) * np.sqrt(2.0 / n_in)).astype(np.float32)
    b1 = np.full(hidden, 0.5, np.float32)
    w2 = (rng.standard_normal(hidden) * np.sqrt(1.0 / hidden)).astype(np.float32)
    b2 = np.float32(0.0)
    if start is not None:
        # The integer weights back to floats, the first layer unfolded from the inputs' scales.
        one = float(1 << SCALE_BITS)
        rows = np.array(start.hidden, np.float64)
        b1 = (rows[:, 0] / one).astype(np.float32)
        w1 = (rows[:, 1:].T / one * scale[:, None]).astype(np.float32)
        w2 = (np.array(start.output[1:], np.float64) / one).astype(np.float32)
        b2 = np.float32(start.output[0] / one)
    params = [w1, b1, w2, np.array([b2], np.float32)]
    m = [np.zeros_like(p) for p in params]
    v = [np.zeros_like(p) for p in params]
    step = 0
    beta1, beta2 = 0.9, 0.999
    # The weights of the epoch with the least held-out loss are the ones returned (the last epoch's where
    # nothing is held out).
    best: list[np.ndarray] | None = None
    best_loss, best_epoch = float("inf"), epochs * (2 if td_lambda is not None else 1)
    outcomes = y_all
    games = _games(samples.deals) if td_lambda is not None else []
    for epoch in range(epochs * (2 if td_lambda is not None else 1)):
        if epoch >= epochs and td_lambda is not None:
            w1, b1, w2, b2a = params
            chances = 1.0 / (1.0 + np.exp(-_forward(x, w1, b1, w2, float(b2a[0]), clip)[2]))
            y_all = _td_targets(chances, outcomes, games, float(td_lambda))
        order = rng.permutation(train)
        for i in range(0, len(order), batch):
            idx = order[i : i + batch]
            xb, yb = x[idx], y_all[idx]
            w1, b1, w2, b2a = params
            a, h, z = _forward(xb, w1, b1, w2, float(b2a[0]), clip)
            dz = (1.0 / (1.0 + np.exp(-z)) - yb) / len(idx)
            gw2 = h.T @ dz + l2 * w2
            gb2 = np.array([dz.sum()], np.float32)
            dh = np.outer(dz, w2) * ((a > 0) & (a < clip))
            gw1 = xb.T @ dh + l2 * w1
            gb1 = dh.sum(axis=0)
            step += 1
            for j, g in enumerate((gw1, gb1, gw2, gb2)):
                m[j] = beta1 * m[j] + (1 - beta1) * g
                v[j] = beta2 * v[j] + (1 - beta2) * g * g
                mhat = m[j] / (1 - beta1**step)
                vhat = v[j] / (1 - beta2**step)
                params[j] = (params[j] - rate * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)
        held_loss = _loss(x[held], outcomes[held], params, clip) if len(held) else float("nan")
        if progress is not None:
            progress(epoch + 1, _loss(x[train], outcomes[train], params, clip), held_loss)
        if len(held) and held_loss < best_loss:
            best, best_loss, best_epoch = [q.copy() for q in params], held_loss, epoch + 1
    if best is not None:
        params = best
    y_all = outcomes
    w1, b1, w2, b2a = params
    one = 1 << SCALE_BITS
    folded = w1 / scale[:, None]
    hidden_rows = tuple(
        (int(round(float(b1[j]) * one)), *(int(round(float(folded[i, j]) * one)) for i in range(n_in)))
        for j in range(hidden)
    )
    output = (int(round(float(b2a[0]) * one)), *(int(round(float(w2[j]) * one)) for j in range(hidden)))
    net = ValueNet(name, hidden_rows, output, clip, made)
    mean = float(np.clip(y_all[train].mean(), 1e-6, 1 - 1e-6))
    base_z = np.full(len(held), np.log(mean / (1 - mean)), np.float32)
    report = {
        "train": _loss(x[train], y_all[train], params, clip),
        "held_out": _loss(x[held], y_all[held], params, clip) if len(held) else float("nan"),
        "held_out_rounded": log_loss(net, Samples(samples.features[held], samples.labels[held], samples.deals[held]))
        if len(held)
        else float("nan"),
        "base": _bce(base_z, y_all[held]) if len(held) else float("nan"),
        "samples": float(len(train)),
        "epoch": float(best_epoch),
    }
    return net, report


def _games(deals: np.ndarray) -> list[tuple[int, int]]:
    """The games of samples: (start, stop) of each run of consecutive samples of one deal, two a position."""
    if len(deals) == 0:
        return []
    cuts = np.nonzero(deals[1:] != deals[:-1])[0] + 1
    bounds = [0, *cuts.tolist(), len(deals)]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if (b - a) % 2 == 0]


def _td_targets(chances: np.ndarray, outcomes: np.ndarray, games: list[tuple[int, int]], lam: float) -> np.ndarray:
    """TD(lambda) targets: along each game, for each side, ``(1 - lam) * chance[next] + lam * target[next]``,
    the last position's target its result (samples outside ``games`` keep their result)."""
    targets: np.ndarray = outcomes.astype(np.float32).copy()
    for start, stop in games:
        for side in (start, start + 1):
            rows = np.arange(side, stop, 2)
            following = outcomes[rows[-1]]
            for row in rows[-2::-1]:
                following = (1.0 - lam) * chances[row + 2] + lam * following
                targets[row] = following
    return targets


def _loss(x: np.ndarray, y: np.ndarray, params: list[np.ndarray], clip: float) -> float:
    if len(y) == 0:
        return float("nan")
    w1, b1, w2, b2a = params
    return _bce(_forward(x, w1, b1, w2, float(b2a[0]), clip)[2], y)


def _fits_int64(net: ValueNet, largest: int) -> bool:
    """True if no sum of the network over counts up to ``largest`` can leave 64 bits (with room)."""
    top = net.clip << SCALE_BITS
    units = max(abs(row[0]) + sum(abs(w) for w in row[1:]) * largest for row in net.hidden)
    output = (abs(net.output[0]) << SCALE_BITS) + sum(abs(w) for w in net.output[1:]) * top
    return max(units, output, top) < 1 << 62


def _as_float(total: int, scale: int) -> float:
    """``total / scale`` as a float, the largest float where it is larger (a log-odds beyond any doubt)."""
    try:
        return total / scale
    except OverflowError:
        return math.copysign(sys.float_info.max, total)


def logits(net: ValueNet, features: np.ndarray) -> np.ndarray:
    """The integer network's log-odds for each row of ``features``, exactly as :meth:`ValueNet.raw` gives them.

    Sums that 64-bit integers hold are worked out by NumPy in them; a network
    whose weights are too large for that is worked out in Python's integers,
    slowly, and a log-odds beyond the largest float is that float.

    >>> from crapette.value import net_for
    >>> float(logits(net_for("classic"), np.zeros((1, len(FEATURES)), np.int16))[0]) == net_for("classic").logit(
    ...     [0] * len(FEATURES))
    True
    """
    one = 1 << SCALE_BITS
    largest = int(np.abs(features).max()) if features.size else 0
    if _fits_int64(net, largest):
        w1 = np.array([row[1:] for row in net.hidden], dtype=np.int64).T
        b1 = np.array([row[0] for row in net.hidden], dtype=np.int64)
        acc = features.astype(np.int64) @ w1 + b1
        h = np.clip(acc, 0, net.clip * one)
        total = h @ np.array(net.output[1:], dtype=np.int64) + net.output[0] * one
        result: np.ndarray = total.astype(np.float64) / (one * one)
        return result
    return np.array([_as_float(net.raw([int(x) for x in row]), one * one) for row in features], dtype=np.float64)


def log_loss(net: ValueNet, samples: Samples) -> float:
    """The log loss of ``net``'s win chances against the labels of ``samples`` (natural logarithm)."""
    if len(samples) == 0:
        return float("nan")
    return _bce(logits(net, samples.features), samples.labels.astype(np.float64))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m crapette.training",
        description="Train the learned value of crapette.value: generate samples by self-play, fit a network "
        "to them, measure a network's log loss.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="{generate,fit,loss}")
    gen = commands.add_parser(
        "generate", help="play games of self-play and save their samples",
        description="Play games of self-play and save their positions, each labelled by who went on to win "
        "(or by greedy rollouts): the same samples for the same arguments, whatever --workers.",
    )
    gen.add_argument("--rules", default="classic",
                     help="the rules: a preset or a rules text such as 'classic(reserve_size=10)' (default: %(default)s)")
    gen.add_argument("--games", type=int, default=1000, help="how many games to play (default: %(default)s)")
    gen.add_argument("--seed", type=int, default=0,
                     help="the first game's deal; game i is dealt from seed + i (default: %(default)s)")
    gen.add_argument("--policy", choices=POLICIES, default="greedy",
                     help="greedy: the greedy heuristic plays, positions labelled by the result; value: the turn "
                     "planner ranking by --net plays; rollouts: positions labelled by greedy rollouts; planner: the planning bot plays with "
                     "--playouts, its playouts judged by --net if given (default: %(default)s)")
    gen.add_argument("--net", help="the network the value policy ranks by, or the planner policy's playouts "
                     "judge by: a JSON file written by fit")
    gen.add_argument("--epsilon", type=float, default=0.05,
                     help="the share of moves played at random instead (default: %(default)s)")
    gen.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES,
                     help="the moves after which a game is cut short (default: %(default)s)")
    gen.add_argument("--workers", type=int, default=1,
                     help="processes to play on; the samples do not depend on it (default: %(default)s)")
    gen.add_argument("--rollouts", type=int, default=16,
                     help="the rollouts policy's rollouts per position (default: %(default)s)")
    gen.add_argument("--per-game", type=int, default=12,
                     help="about how many positions the rollouts policy labels per game (default: %(default)s)")
    gen.add_argument("--playouts", type=int, default=150,
                     help="the planner policy's playouts per plan (default: %(default)s)")
    gen.add_argument("--out", required=True, help="the file to write the samples to (NumPy's .npz)")
    fitter = commands.add_parser(
        "fit", help="fit a network to saved samples",
        description="Fit a network to samples written by generate (a tenth of the deals held out), write it "
        "as JSON with the commands that made it (those that generated the samples, then this one) in its "
        "made field, and print its log losses. The weights written are those of the epoch with the least "
        "held-out loss.",
    )
    fitter.add_argument("data", nargs="+", help="sample files written by generate")
    fitter.add_argument("--hidden", type=int, default=32, help="hidden units (default: %(default)s)")
    fitter.add_argument("--epochs", type=int, default=20,
                        help="passes over the training samples (default: %(default)s)")
    fitter.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate (default: %(default)s)")
    fitter.add_argument("--seed", type=int, default=0,
                        help="the seed of the first weights and of the order of the samples (default: %(default)s)")
    fitter.add_argument("--td-lambda", type=float,
                        help="after --epochs on the results, as many on TD(lambda) targets with this lambda, "
                        "from 0 to 1 (default: the results only)")
    fitter.add_argument("--start", help="a network to train on from (a JSON file written by fit) instead of "
                        "random weights; its size is kept")
    fitter.add_argument("--name", default="classic",
                        help="the network's name: the rules it was trained on (default: %(default)s)")
    fitter.add_argument("--out", required=True, help="the file to write the network to (JSON)")
    measure = commands.add_parser(
        "loss", help="the log loss of a network on saved samples",
        description="Print the log loss of a network's chances of a win against the labels of samples it "
        "was not trained on (lower is better; 0.693 is a coin's).",
    )
    measure.add_argument("net", help="the network: a JSON file written by fit")
    measure.add_argument("data", nargs="+", help="sample files written by generate")
    return parser


def _read_net(path: str) -> ValueNet:
    with open(path, "rb") as file:
        data = file.read(_MAX_NET_BYTES + 1)
    if len(data) > _MAX_NET_BYTES:
        raise ValueError(f"{path} is too large for a network (at most {_MAX_NET_BYTES:,} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path} is not a text file (UTF-8): bad byte at offset {exc.start}") from None
    try:
        return ValueNet.from_json(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m crapette.training``: generate samples, fit a network, measure it.

    Returns the exit status: 0, or 1 after a one-line message on standard
    error for an argument or a file it cannot use.
    """
    args = _parser().parse_args(argv)
    command = "python -m crapette.training " + shlex.join(argv if argv is not None else sys.argv[1:])
    try:
        _run(args, command)
    except (ValueError, TypeError, OSError) as exc:
        print(f"python -m crapette.training {args.command}: {exc}", file=sys.stderr)
        return 1
    return 0


def _run(args: argparse.Namespace, command: str) -> None:
    if args.command == "generate":
        net = _read_net(args.net) if args.net else None
        pool = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
        # On a terminal a line redrawn in place; in a pipe or a log a line now and then.
        shown = progress_report(True, args.games, "game", "generating")
        try:
            samples = generate(args.rules, args.games, seed=args.seed, policy=args.policy, net=net,
                               epsilon=args.epsilon, max_moves=args.max_moves, executor=pool,
                               progress=lambda done, _total: shown.update(done),
                               rollouts=args.rollouts, per_game=args.per_game, playouts=args.playouts)
        finally:
            shown.close()
            if pool is not None:
                pool.shutdown()
        samples = attrs.evolve(samples, made=(command,))
        samples.save(args.out)
        print(f"{len(samples)} samples from {args.games} games -> {args.out}")
    elif args.command == "fit":
        samples = Samples.join([Samples.load(path) for path in args.data])

        def epoch_said(epoch: int, train: float, held: float) -> None:
            print(f"epoch {epoch}: train {train:.4f}, held out {held:.4f}", file=sys.stderr, flush=True)

        start = _read_net(args.start) if args.start else None
        # A network trained on from another carries the commands that made that one first.
        made = (start.made,) if start is not None and start.made else ()
        net, report = fit(samples, hidden=args.hidden, epochs=args.epochs, rate=args.rate, seed=args.seed,
                          name=args.name, td_lambda=args.td_lambda,
                          start=start, made=" && ".join((*made, *samples.made, command)), progress=epoch_said)
        with replacing(args.out) as out:
            out.write(net.to_json() + "\n")
        print(" ".join(f"{k} {v:.4f}" for k, v in report.items()))
    else:
        net = _read_net(args.net)
        samples = Samples.join([Samples.load(path) for path in args.data])
        print(f"log loss {log_loss(net, samples):.4f} over {len(samples)} samples")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
