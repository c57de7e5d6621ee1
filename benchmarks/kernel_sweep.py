"""The differential sweep of the compiled kernel against the pure-Python engine, benchmark-sized.

Run ``python benchmarks/kernel_sweep.py [--positions 1000000] [--workers N]``.
Random games of random rule sets (every option drawn, ``revisits=False`` half
the time, a few rule sets with a further ending, which the kernel hands
to Python) are played with random moves, and every position met is checked by
``tests/kernel_sweep.py``'s ``check_position``: the legal moves and their order,
the state after every legal move (every field and the outcome), the moves
that leave a turn end, the greedy scores with and without look-ahead, the
greedy move, the evaluation for both players; the playouts for both players
every ``--playouts-every`` positions and the turn ends every ``--ends-every``.
The work is split into chunks of ten rule sets, each seeded by its number, so
a run is the same on any number of workers. Prints the positions and states
compared, and every disagreement found (none, the suite's smaller sweep says).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from kernel_sweep import sweep  # noqa: E402  (the tests' module, found through the path above)

from crapette import kernel  # noqa: E402


def chunk(number: int, moves: int, ends_every: int, playouts_every: int) -> tuple[int, int, str]:
    """Chunk ``number``: ten random rule sets, ``moves`` random moves each; (positions, states compared, failure)."""
    try:
        positions, compared = sweep(number, 10, moves, ends_every=ends_every, playouts_every=playouts_every)
    except AssertionError as exc:
        return 0, 0, f"chunk {number}: {str(exc)[:2000]}"
    return positions, compared, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--moves", type=int, default=300, help="random moves per game")
    parser.add_argument("--ends-every", type=int, default=150)
    parser.add_argument("--playouts-every", type=int, default=10)
    parser.add_argument("--first-chunk", type=int, default=0)
    args = parser.parse_args(argv)
    if not kernel.AVAILABLE:
        print(f"the kernel is not available: {kernel.REASON}", file=sys.stderr)
        return 1
    start = time.perf_counter()
    positions = compared = 0
    failures: list[str] = []
    number = args.first_chunk
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        pending: set[concurrent.futures.Future[tuple[int, int, str]]] = set()
        while positions < args.positions or pending:
            while positions < args.positions and len(pending) < 2 * args.workers:
                pending.add(pool.submit(chunk, number, args.moves, args.ends_every, args.playouts_every))
                number += 1
                # Chunks in flight count by an estimate until they come back.
                if positions + len(pending) * 2000 >= args.positions:
                    break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                p, c, failure = future.result()
                positions += p
                compared += c
                if failure:
                    failures.append(failure)
                    print(failure, flush=True)
            print(f"{positions:,} positions, {compared:,} states compared, {len(failures)} disagreements "
                  f"({time.perf_counter() - start:.0f} s)", flush=True)
            if positions >= args.positions and not pending:
                break
    print(f"chunks {args.first_chunk} to {number - 1}: {positions:,} positions, {compared:,} states compared, "
          f"{len(failures)} disagreements, {time.perf_counter() - start:.0f} s on {args.workers} workers")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
