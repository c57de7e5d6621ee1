"""Speed of the turn planner: time per turn_ends() call and how many ends it finds.

Run ``python benchmarks/turns.py [--games N] [--rules classic] [--limit L]``.
The positions are every decision of games between two GreedyBots (seeded,
so the same run gives the same positions); each is searched once with
``turn_ends(state, limit=L)``. Prints the median, mean, 90th percentile and
worst time per call, the same for the number of ends, and how many calls
stopped at the limit. Times are the process's CPU time, so that other
work on the machine does not count.
"""

from __future__ import annotations

import argparse
import statistics
import time

from crapette import apply_move, new_game, turn_ends
from crapette.bots import GreedyBot


def positions(rules: str, games: int, max_moves: int) -> list:
    found = []
    for seed in range(games):
        state = new_game(rules, seed=seed)
        bots = (GreedyBot(), GreedyBot())
        while not state.is_over and state.move_count < max_moves:
            found.append(state)
            state = apply_move(state, bots[state.current_player].choose(state))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--max-moves", type=int, default=1500)
    args = parser.parse_args()
    states = positions(args.rules, args.games, args.max_moves)
    kwargs = {} if args.limit is None else {"limit": args.limit}
    times, counts, capped = [], [], 0
    for state in states:
        start = time.process_time()
        ends = turn_ends(state, **kwargs)
        times.append(time.process_time() - start)
        counts.append(len(ends))
        capped += not ends.complete
    times.sort()
    counts.sort()
    pct = lambda xs, q: xs[min(len(xs) - 1, int(q * len(xs)))]  # noqa: E731
    print(f"{args.rules}: {len(states)} positions from {args.games} GreedyBot games, limit {args.limit or 'default'}")
    print(
        f"time per call (ms): median {1000 * statistics.median(times):.2f}  mean {1000 * statistics.fmean(times):.2f}"
        f"  p90 {1000 * pct(times, 0.9):.2f}  worst {1000 * times[-1]:.1f}"
    )
    print(
        f"ends per call: median {statistics.median(counts):.0f}  mean {statistics.fmean(counts):.1f}"
        f"  p90 {pct(counts, 0.9)}  worst {counts[-1]}  stopped at the limit: {capped}"
    )


if __name__ == "__main__":
    main()
