"""The CPU time a bot takes to decide, in milliseconds: the figure the strength goals cap.

Run ``python benchmarks/decision_time.py --bots search:easy,search,plan-yardstick --deals 4``.

Each bot plays ``--deals`` deals from both seats against the greedy bot (the
same positions for every bot up to where their moves part), and the CPU time
(``time.process_time``) of each of its decisions with more than one legal
move is counted, in this process, the moves capped at ``--moves`` a game. The
bots are named as for ``benchmarks/sprt.py`` (a ``make_bot`` name,
``plan-yardstick``, ``playouts=N``, ``seconds=S``, ``leaf=FILE``, ...). Prints
a line a bot: the mean, the median and the 90th percentile of its decisions,
and its mean against the first bot's; ``--json`` prints them as JSON.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from crapette import apply_move, legal_moves, new_game, parse_rules
from crapette.bots import Bot, GreedyBot

sys.path.insert(0, str(Path(__file__).resolve().parent))  # sprt.py, strength.py and the yardsticks beside this file
from sprt import bot as make  # noqa: E402


def decision_times(rules: Any, chooser: Bot, deals: int, seed: int, moves: int) -> list[float]:
    """The CPU seconds of each decision with a choice ``chooser`` made against the greedy bot."""
    times: list[float] = []
    clock = time.process_time
    for deal in range(seed, seed + deals):
        for first in (0, 1):
            state = new_game(rules, deal)
            other = GreedyBot()
            while not state.is_over and state.move_count < moves:
                if state.current_player == first:
                    start = clock()
                    move = chooser.choose(state)
                    spent = clock() - start
                    if len(legal_moves(state)) > 1:
                        times.append(spent)
                else:
                    move = other.choose(state)
                state = apply_move(state, move)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--bots", default="search:easy,search,plan-yardstick", help="bots, comma-separated")
    parser.add_argument("--rules", default="classic", help="rules text (default: classic)")
    parser.add_argument("--deals", type=int, default=2, help="deals, each played from both seats (default: 2)")
    parser.add_argument("--seed", type=int, default=7000, help="the first deal (default: 7000)")
    parser.add_argument("--moves", type=int, default=400, help="moves a game at most (default: 400)")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.moves < 1:
        parser.error("--deals and --moves take at least 1")
    try:
        rules = parse_rules(args.rules)
        bots = [(name, make(name, 1)) for name in args.bots.split(",")]
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    found: list[dict[str, Any]] = []
    for name, chooser in bots:
        times = sorted(decision_times(rules, chooser, args.deals, args.seed, args.moves))
        found.append({
            "bot": name,
            "decisions": len(times),
            "mean_ms": 1000 * statistics.fmean(times) if times else 0.0,
            "median_ms": 1000 * statistics.median(times) if times else 0.0,
            "p90_ms": 1000 * times[int(0.9 * (len(times) - 1))] if times else 0.0,
        })
    first = found[0]["mean_ms"] or 1.0
    for row in found:
        row["against_first"] = row["mean_ms"] / first
    if args.json:
        print(json.dumps({"rules": str(rules), "deals": args.deals, "seed": args.seed, "bots": found}, indent=2))
    else:
        for row in found:
            print(f"{row['bot']:>24}: {row['mean_ms']:6.2f} ms a decision (median {row['median_ms']:.2f}, "
                  f"90% under {row['p90_ms']:.2f}; {row['against_first']:.2f}x the first) over {row['decisions']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
