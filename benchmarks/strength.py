"""How strong one bot is against another: seat-swapped, deal-paired games, with intervals and an Elo difference.

Run ``python benchmarks/strength.py --rules classic --bots search:normal,search --games 200 --workers 2``.
Every deal is played twice, once with each bot as player 0 (``crapette.simulation.simulate``),
so neither the deal nor the first move favours a bot. It prints:

* the games each bot won, the draws, and the share of the decided games the
  first bot won, with a 95% Wilson interval;
* the first bot's score (a win 1, a draw 1/2, a loss 0) over all games, with a
  95% interval, and the Elo difference that score means (with the same interval);
* the mean time a decision of each bot took, measured on the same machine in
  this run (over the positions of a few of the games, searched again).

The same arguments always play the same games. ``--json`` prints the figures
as JSON. A bot is any name of ``crapette.bots.BOT_NAMES``, or ``NAME@SEED``
for a seed other than the default.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import statistics
import sys
import time
from typing import Any

from crapette import apply_move, legal_moves, new_game, parse_rules
from crapette.bots import Bot, make_bot
from crapette.simulation import simulate, wilson_interval


def elo(score: float) -> float:
    """The Elo difference that an expected score means (infinite at 0 and 1, clipped to +-800)."""
    if score <= 0.0:
        return -800.0
    if score >= 1.0:
        return 800.0
    return max(-800.0, min(800.0, -400.0 * math.log10(1.0 / score - 1.0)))


def score_interval(wins: int, draws: int, games: int, z: float = 1.96) -> tuple[float, float, float]:
    """The mean score of ``games`` games and its normal-approximation interval (wins 1, draws 1/2)."""
    if not games:
        return (0.5, 0.0, 1.0)
    losses = games - wins - draws
    mean = (wins + 0.5 * draws) / games
    variance = (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / games
    spread = z * math.sqrt(variance / games)
    return (mean, max(0.0, mean - spread), min(1.0, mean + spread))


def _bot(spec: str, default_seed: int) -> Bot:
    name, _, seed = spec.partition("@")
    return make_bot(name, int(seed) if seed else default_seed)


def decision_times(rules: Any, bots: tuple[Bot, Bot], deals: int, seed: int, moves: int = 400) -> list[float]:
    """Each bot's mean seconds per decision (positions with more than one legal move), in this process."""
    spent = [0.0, 0.0]
    made = [0, 0]
    for deal in range(seed, seed + deals):
        for first in (0, 1):
            state = new_game(rules, deal)
            seats = (bots[first], bots[1 - first])
            while not state.is_over and state.move_count < moves:
                seat = state.current_player
                index = first if seat == 0 else 1 - first
                start = time.perf_counter()
                move = seats[seat].choose(state)
                if len(legal_moves(state)) > 1:
                    spent[index] += time.perf_counter() - start
                    made[index] += 1
                state = apply_move(state, move)
    return [spent[i] / made[i] if made[i] else 0.0 for i in (0, 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic", help="rules text (default: classic)")
    parser.add_argument("--bots", default="search:normal,search", help="two bots, comma-separated")
    parser.add_argument("--games", type=int, default=100, help="games in all (even: each deal twice)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from SEED + i // 2")
    parser.add_argument("--bot-seed", type=int, default=1, help="seed of the bots that draw at random")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on")
    parser.add_argument("--max-moves", type=int, default=3000, help="move cap of a game")
    parser.add_argument("--timing-deals", type=int, default=1, help="deals replayed to time the decisions")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rules = parse_rules(args.rules)
    names = tuple(args.bots.split(","))
    if len(names) != 2:
        parser.error("--bots takes two bots separated by a comma")
    bots = (_bot(names[0], args.bot_seed), _bot(names[1], args.bot_seed))
    started = time.perf_counter()
    executor = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        report = simulate(
            rules, bots, games=args.games, seed=args.seed, executor=executor, max_moves=args.max_moves,
            progress=not args.json,
        )
    finally:
        if executor is not None:
            executor.shutdown()
    elapsed = time.perf_counter() - started
    wins, draws = report.wins, report.draws
    decided = wins[0] + wins[1]
    low, high = wilson_interval(wins[0], decided)
    mean, score_low, score_high = score_interval(wins[0], draws, report.games)
    times = decision_times(rules, bots, args.timing_deals, args.seed) if args.timing_deals else [0.0, 0.0]
    figures = {
        "rules": str(rules),
        "bots": list(report.bots),
        "games": report.games,
        "wins": list(wins),
        "draws": draws,
        "capped": report.capped,
        "decided_win_rate": wins[0] / decided if decided else None,
        "decided_win_rate_interval": [low, high],
        "score": mean,
        "score_interval": [score_low, score_high],
        "elo": elo(mean),
        "elo_interval": [elo(score_low), elo(score_high)],
        "mean_game_length": statistics.fmean(report.lengths) if report.lengths else 0.0,
        "seconds_per_decision": times,
        "elapsed_seconds": elapsed,
    }
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    a, b = report.bots
    print(f"{figures['rules']}: {a} against {b}, {report.games} games (deals paired, seats swapped)")
    print(f"  wins {wins[0]} - {wins[1]}, draws {draws} (capped {report.capped}), mean length {figures['mean_game_length']:.0f} moves")
    if decided:
        print(f"  {a} won {wins[0] / decided:.1%} of the decided games (95% interval {low:.1%}-{high:.1%})")
    print(
        f"  score {mean:.3f} (95% interval {score_low:.3f}-{score_high:.3f}); "
        f"Elo {elo(mean):+.0f} ({elo(score_low):+.0f} to {elo(score_high):+.0f})"
    )
    print(f"  seconds per decision: {a} {times[0]:.3f}, {b} {times[1]:.3f}; {elapsed:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
