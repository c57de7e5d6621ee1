"""Speed of the engine: random self-play, per-call latency and memory.

Run ``python benchmarks/bench.py`` (``pip install -e ".[bench]"`` adds
python-chess, whose random playouts are timed in the same process as the
reference). Prints a table; ``--json`` prints the figures as JSON instead.
``--against PATH`` also times the presets' random self-play of another
checkout of crapette (an earlier release, say: ``git worktree add ../old v0.2.0``)
in turn with this one, each block in a fresh process, CPU time.

The workload (issue 5): from ``new_game(rules, seed=i)``, pick uniformly among
``legal_moves(state)`` with ``random.Random(i)`` and ``apply_move`` until the
game is over or 2000 moves; count moves per second in one process. python-chess:
uniform choice among ``list(board.legal_moves)``, ``push``, until
``board.is_game_over()`` or 300 plies.

The protocol row plays the same workload through ``crapette.protocol.Crapette``,
as the generic tools play any game (``game.new_game(seed)``,
``game.legal_moves(state)``, ``game.apply_move(state, move)``), interleaved in
blocks with the direct calls on the same seeds in the same run, so that both
see the same machine: the ratio shows what playing through the protocol costs.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
import warnings
from typing import Any

import attrs

from crapette import RuleSet, apply_move, legal_moves, new_game, parse_position

from crapette.protocol import Crapette

PRESETS = ("casual", "classic")


def crapette_playouts(rules: RuleSet, seconds: float) -> tuple[int, float]:
    """Random self-play for about ``seconds``; returns (moves, elapsed)."""
    moves = 0
    seed = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        choice = rng.choice
        count = 0
        while not state.is_over and count < 2000:
            state = apply_move(state, choice(legal_moves(state)))
            count += 1
        moves += count
        seed += 1
        elapsed = time.perf_counter() - start
    return moves, elapsed


def _direct_block(rules: RuleSet, seeds: range) -> tuple[int, float]:
    moves = 0
    start = time.perf_counter()
    for seed in seeds:
        state = new_game(rules, seed=seed)
        choice = random.Random(seed).choice
        count = 0
        while not state.is_over and count < 2000:
            state = apply_move(state, choice(legal_moves(state)))
            count += 1
        moves += count
    return moves, time.perf_counter() - start


def _protocol_block(game: Crapette, seeds: range) -> tuple[int, float]:
    moves = 0
    start = time.perf_counter()
    for seed in seeds:
        state = game.new_game(seed)
        choice = random.Random(seed).choice
        count = 0
        while not state.is_over and count < 2000:
            state = game.apply_move(state, choice(game.legal_moves(state)))
            count += 1
        moves += count
    return moves, time.perf_counter() - start


def protocol_overhead(rules: RuleSet, seconds: float) -> tuple[float, float]:
    """Random self-play direct and through the protocol, interleaved; returns both moves/s.

    Blocks of four seeds are played both ways in turn, the order alternating,
    for about ``seconds`` in all; both ways play exactly the same games.
    """
    game = Crapette(rules)
    totals = {"direct": [0, 0.0], "protocol": [0, 0.0]}
    seed = 0
    while totals["direct"][1] + totals["protocol"][1] < seconds:
        block = range(seed, seed + 4)
        runs = [("direct", lambda: _direct_block(rules, block)), ("protocol", lambda: _protocol_block(game, block))]
        if seed % 8:
            runs.reverse()
        played = []
        for name, run in runs:
            moves, elapsed = run()
            totals[name][0] += moves
            totals[name][1] += elapsed
            played.append(moves)
        assert played[0] == played[1], "the protocol played other games than the direct calls"
        seed += 4
    return (
        totals["direct"][0] / totals["direct"][1],
        totals["protocol"][0] / totals["protocol"][1],
    )


def _cpu_block(rules: RuleSet, seeds: range) -> tuple[int, float]:
    """Random self-play of ``seeds`` (as :func:`crapette_playouts`); returns (moves, CPU seconds)."""
    moves = 0
    start = time.process_time()
    for seed in seeds:
        state = new_game(rules, seed=seed)
        choice = random.Random(seed).choice
        count = 0
        while not state.is_over and count < 2000:
            state = apply_move(state, choice(legal_moves(state)))
            count += 1
        moves += count
    return moves, time.process_time() - start


def revisits_cost(rules: RuleSet, seconds: float) -> tuple[float, float]:
    """CPU microseconds per move of random self-play under ``rules`` and under ``rules`` with ``revisits=False``.

    Blocks of three seeds are played under both, in turn, the order
    alternating, for about ``seconds`` in all; the games differ (revisits=false
    removes moves), so the figure is per move.
    """
    strict = attrs.evolve(rules, revisits=False)
    totals = {True: [0, 0.0], False: [0, 0.0]}
    seed = 0
    while totals[True][1] + totals[False][1] < seconds:
        block = range(seed, seed + 3)
        order = (True, False) if seed % 6 else (False, True)
        for allowed in order:
            moves, cpu = _cpu_block(rules if allowed else strict, block)
            totals[allowed][0] += moves
            totals[allowed][1] += cpu
        seed += 3
    return totals[True][1] / totals[True][0] * 1e6, totals[False][1] / totals[False][0] * 1e6


_AGAINST = """
import random, sys, time
sys.path.insert(0, sys.argv[1])
from crapette import RuleSet, apply_move, legal_moves, new_game
rules = RuleSet.from_name(sys.argv[2])
moves = 0
start = time.process_time()
for seed in range(int(sys.argv[3]), int(sys.argv[4])):
    state = new_game(rules, seed=seed)
    choice = random.Random(seed).choice
    count = 0
    while not state.is_over and count < 2000:
        state = apply_move(state, choice(legal_moves(state)))
        count += 1
    moves += count
print(moves, time.process_time() - start)
"""


def against(path: str, name: str, seconds: float) -> tuple[float, float]:
    """Random self-play moves/s (CPU time) of this crapette and of the one at ``path``, block by block in turn.

    Each block runs in a fresh process for both, so they meet the same
    machine; the games are the same where both engines deal and play alike.
    """
    import subprocess
    from pathlib import Path

    here = str(Path(__file__).resolve().parent.parent)
    totals = {here: [0, 0.0], path: [0, 0.0]}
    seed = 0
    while totals[here][1] + totals[path][1] < seconds:
        order = (here, path) if seed % 8 else (path, here)
        for root in order:
            out = subprocess.run(
                [sys.executable, "-c", _AGAINST, root, name, str(seed), str(seed + 4)],
                capture_output=True, text=True, check=True,
            ).stdout.split()
            totals[root][0] += int(out[0])
            totals[root][1] += float(out[1])
        seed += 4
    return totals[here][0] / totals[here][1], totals[path][0] / totals[path][1]


def chess_playouts(seconds: float) -> tuple[int, float] | None:
    """python-chess random playouts for about ``seconds``, or None if it is not installed."""
    try:
        import chess
    except ImportError:
        return None
    moves = 0
    seed = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        board = chess.Board()
        rng = random.Random(seed)
        plies = 0
        while plies < 300 and not board.is_game_over():
            board.push(rng.choice(list(board.legal_moves)))
            plies += 1
        moves += plies
        seed += 1
        elapsed = time.perf_counter() - start
    return moves, elapsed


def midgame_positions(rules: RuleSet, count: int = 200) -> list[str]:
    """Position strings of a fixed set of mid-game states (moves 40-80 of seeds 0, 1, ...)."""
    positions: list[str] = []
    seed = 0
    while len(positions) < count:
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.move_count < 80:
            if state.move_count >= 40 and state.move_count % 8 == 0:
                positions.append(str(state))
            state = apply_move(state, rng.choice(legal_moves(state)))
        seed += 1
    return positions[:count]


def latencies(rules: RuleSet, repeats: int = 5) -> tuple[float, float]:
    """Median microseconds of legal_moves (on a state not seen before) and apply_move."""
    positions = midgame_positions(rules)
    lm: list[float] = []
    am: list[float] = []
    clock = time.perf_counter_ns
    for _ in range(repeats):
        fresh = [parse_position(p) for p in positions]
        for state in fresh:
            t0 = clock()
            moves = legal_moves(state)
            t1 = clock()
            move = moves[len(moves) // 2]
            t2 = clock()
            apply_move(state, move)
            t3 = clock()
            lm.append((t1 - t0) / 1000)
            am.append((t3 - t2) / 1000)
    return statistics.median(lm), statistics.median(am)


def search_playouts(rules: RuleSet, seconds: float) -> tuple[float, float | None]:
    """What the search bots spend their time on, for about ``seconds`` each.

    Returns the greedy playout moves per second (the policy both search bots play
    on with, ``fast_move`` then ``apply_move``, from the mid-game positions of
    :func:`midgame_positions` to the end of the game or 300 moves) and the tree
    search's iterations per second at the root of those positions (None where
    :class:`~crapette.bots.TreeSearchBot` does not exist).
    """
    from crapette import bots

    # The private playout policy: what the searches spend their time in.
    try:
        from crapette._play.greedy import fast_move
    except ImportError:  # before the greedy policy had a module of its own
        try:
            from crapette._heuristics import fast_move  # type: ignore[no-redef]
        except ImportError:
            fast_move = bots._fast_move  # type: ignore[attr-defined]
    starts = [parse_position(p) for p in midgame_positions(rules)]

    def playout(state: Any) -> int:
        count = 0
        while not state.is_over and count < 300:
            state = apply_move(state, fast_move(state))
            count += 1
        return count

    playout_rate = _per_second(seconds, starts, playout)
    tree = getattr(bots, "TreeSearchBot", None)
    if tree is None:
        return playout_rate, None
    with warnings.catch_warnings():  # deprecated since 0.3.0, still timed while it ships
        warnings.simplefilter("ignore", DeprecationWarning)
        searcher = tree(seed=0, playouts=100)
    return playout_rate, _per_second(seconds, starts, lambda state: searcher.search(state).playouts)


def _per_second(seconds: float, starts: list[Any], work: Any) -> float:
    """How many units ``work(state)`` gets done a second, cycling through ``starts`` for about ``seconds``."""
    done = 0
    start = time.perf_counter()
    elapsed = 0.0
    index = 0
    while elapsed < seconds:
        state = starts[index % len(starts)]
        index += 1
        if not state.is_over:
            done += work(state)
        elapsed = time.perf_counter() - start
    return done / elapsed


def memory_of_long_game(rules: RuleSet, length: int = 1000) -> tuple[int, int]:
    """Bytes allocated to keep every state of a ``length``-move game; returns (bytes, seed)."""
    seed = 0
    while True:
        state = new_game(rules, seed=seed)
        rng = random.Random(seed)
        while not state.is_over and state.move_count < length:
            state = apply_move(state, rng.choice(legal_moves(state)))
        if state.move_count >= length:
            break
        seed += 1
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    kept = [state]
    while state.move_count < length:
        state = apply_move(state, rng.choice(legal_moves(state)))
        kept.append(state)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    del kept
    return used, seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per playout run (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--against", metavar="PATH",
        help="also time the presets' random self-play of the crapette checked out at PATH, in turn with this one",
    )
    args = parser.parse_args(argv)

    results: dict[str, Any] = {"python": sys.version.split()[0]}
    chess_run = chess_playouts(args.seconds)
    chess_rate = None if chess_run is None else chess_run[0] / chess_run[1]
    results["python_chess_moves_per_s"] = chess_rate
    for name in PRESETS:
        rules = RuleSet.from_name(name)
        moves, elapsed = crapette_playouts(rules, args.seconds)
        rate = moves / elapsed
        lm, am = latencies(rules)
        mem, seed = memory_of_long_game(rules)
        direct, protocol = protocol_overhead(rules, args.seconds)
        playout_rate, iteration_rate = search_playouts(rules, args.seconds)
        allowed, strict = revisits_cost(rules, 2 * args.seconds)
        results[name] = {
            "moves_per_s": rate,
            "ratio_to_python_chess": None if chess_rate is None else rate / chess_rate,
            "legal_moves_median_us": lm,
            "apply_move_median_us": am,
            "memory_1000_states_bytes": mem,
            "memory_game_seed": seed,
            "interleaved_direct_moves_per_s": direct,
            "protocol_moves_per_s": protocol,
            "protocol_ratio": protocol / direct,
            "greedy_playout_moves_per_s": playout_rate,
            "tree_search_iterations_per_s": iteration_rate,
            "revisits_true_us_per_move": allowed,
            "revisits_false_us_per_move": strict,
            "revisits_false_ratio": strict / allowed,
        }
        if args.against:
            mine, theirs = against(args.against, name, 2 * args.seconds)
            results[name]["against"] = {"path": args.against, "moves_per_s": mine, "their_moves_per_s": theirs}
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(f"Python {results['python']}; random self-play for {args.seconds:g} s per row\n")
    if chess_rate is None:
        print("python-chess not installed (pip install -e '.[bench]'): no reference ratio\n")
    else:
        print(f"python-chess random playouts: {chess_rate:>10,.0f} moves/s\n")
    header = f"{'preset':<8} {'moves/s':>10} {'x chess':>8} {'legal_moves':>12} {'apply_move':>11} {'1000 states':>12}"
    print(header)
    print("-" * len(header))
    for name in PRESETS:
        row = results[name]
        ratio = "-" if row["ratio_to_python_chess"] is None else f"{row['ratio_to_python_chess']:.2f}x"
        print(
            f"{name:<8} {row['moves_per_s']:>10,.0f} {ratio:>8} "
            f"{row['legal_moves_median_us']:>10.2f}us {row['apply_move_median_us']:>9.2f}us "
            f"{row['memory_1000_states_bytes'] / 1e6:>9.2f} MB"
        )
    print("\nrandom self-play through the protocol (crapette.protocol.Crapette), interleaved with")
    print("the direct calls on the same games in the same run:")
    for name in PRESETS:
        row = results[name]
        print(
            f"{name:<8} {row['protocol_moves_per_s']:>10,.0f} moves/s through the protocol, "
            f"{row['interleaved_direct_moves_per_s']:>10,.0f} direct: {row['protocol_ratio']:.3f}x"
        )
    print("\nrandom self-play under the preset and under the preset with revisits=false, interleaved")
    print("(CPU time per move; revisits=false compares each move's result with the turn's positions):")
    for name in PRESETS:
        row = results[name]
        print(
            f"{name:<8} {row['revisits_true_us_per_move']:>7.2f} us/move, revisits=false "
            f"{row['revisits_false_us_per_move']:>7.2f} us/move: {row['revisits_false_ratio']:.2f}x"
        )
    if args.against:
        print(f"\nrandom self-play of this crapette and of the one at {args.against}, in turn (CPU time):")
        for name in PRESETS:
            row = results[name]["against"]
            print(
                f"{name:<8} {row['moves_per_s']:>10,.0f} moves/s here, {row['their_moves_per_s']:>10,.0f} there: "
                f"{row['moves_per_s'] / row['their_moves_per_s']:.2f}x"
            )
    print("\nwhat the search bots spend their time on: greedy playout moves (the policy they")
    print("play on with) and the tree search's iterations, from mid-game positions:")
    for name in PRESETS:
        row = results[name]
        iterations = row["tree_search_iterations_per_s"]
        tree = "-" if iterations is None else f"{iterations:,.0f}"
        print(f"{name:<8} {row['greedy_playout_moves_per_s']:>10,.0f} playout moves/s, {tree:>7} tree search iterations/s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
