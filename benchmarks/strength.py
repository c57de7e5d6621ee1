"""How strong one bot is against another: seat-swapped, deal-paired games, with intervals and an Elo difference.

Run ``python benchmarks/strength.py --rules classic --bots search:normal,search --games 200 --workers 2``.
Every deal is played twice, once with each bot as player 0 (``crapette.simulation.simulate``),
so neither the deal nor the first move favours a bot. It prints:

* the games each bot won, the draws, and the share of the decided games the
  first bot won, with a 95% Wilson interval;
* the first bot's score (a win 1, a draw 1/2, a loss 0) over all games, with a
  95% interval, and the Elo difference that score means (with the same interval);
* the mean time a decision of each bot took, in process CPU time (so other
  work on the machine does not inflate it), over the positions of a few of
  the games, searched again.

``--table A,B,C,...`` plays every bot against every other (each pair as
above, the same deals for every pair) and prints one row per pair, the
scores as a cross table, and each bot's mean CPU seconds per decision over
all its timed games. Progress goes to stderr.

The same arguments always play the same games. ``--json`` prints the figures
as JSON. A bot is any name of ``crapette.bots.BOT_NAMES``; ``yardstick``, the
frozen SearchBot(200) of ``benchmarks/yardstick.py``, or ``plan-yardstick``, the
frozen PlanningBot(1000) of ``benchmarks/plan_yardstick.py`` (the ``search`` bot
before the learned value), fixed opponents while the library's bots change; or
``module:Class`` (built with ``seed=`` if its constructor takes one, else with no
argument; the module must be importable, e.g. from ``PYTHONPATH``). Each takes
``@SEED`` for a seed other than the default.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import importlib
import inspect
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from crapette import apply_move, legal_moves, new_game, parse_rules
from crapette.bots import BOT_NAMES, Bot, make_bot
from crapette.simulation import SimulationReport, simulate, wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the yardsticks beside this file, however it is run
from plan_yardstick import PlanYardstick  # noqa: E402
from yardstick import Yardstick  # noqa: E402


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


def make(spec: str, default_seed: int) -> Bot:
    """The bot a command-line spec names: a ``make_bot`` name, a yardstick or ``module:Class``, each with ``@SEED``.

    :raises ValueError: if the spec names no bot.
    """
    name, at, seed_text = spec.strip().partition("@")
    try:
        seed = int(seed_text) if at else default_seed
    except ValueError:
        raise ValueError(f"bad seed in bot {spec!r}: expected NAME@INTEGER") from None
    key = name.strip().lower()
    if key == "yardstick":
        return Yardstick(seed=seed)
    if key == "plan-yardstick":
        return PlanYardstick(seed=seed)
    if key in BOT_NAMES or ":" not in name:
        try:
            return make_bot(name, seed)
        except ValueError as exc:
            raise ValueError(f"{exc}, yardstick, plan-yardstick, or module:Class") from None
    module_name, _, class_name = name.strip().partition(":")
    try:
        module = importlib.import_module(module_name)
        cls = getattr(module, class_name)
    except (ImportError, AttributeError) as exc:
        raise ValueError(f"no bot {name!r}: {exc}") from None
    try:
        takes_seed = "seed" in inspect.signature(cls).parameters
    except (TypeError, ValueError):
        takes_seed = False
    bot = cls(seed=seed) if takes_seed else cls()
    if not callable(getattr(bot, "choose", None)):
        raise ValueError(f"{name!r} is not a bot: it has no choose(state) method")
    return bot  # type: ignore[no-any-return]


def _bot(spec: str, default_seed: int) -> Bot:
    return make(spec, default_seed)


def decision_totals(rules: Any, bots: tuple[Bot, Bot], deals: int, seed: int, moves: int = 400) -> list[tuple[float, int]]:
    """Each bot's CPU seconds and count of decisions (positions with more than one legal move), in this process."""
    spent = [0.0, 0.0]
    made = [0, 0]
    clock = time.process_time
    for deal in range(seed, seed + deals):
        for first in (0, 1):
            state = new_game(rules, deal)
            seats = (bots[first], bots[1 - first])
            while not state.is_over and state.move_count < moves:
                seat = state.current_player
                index = first if seat == 0 else 1 - first
                start = clock()
                move = seats[seat].choose(state)
                if len(legal_moves(state)) > 1:
                    spent[index] += clock() - start
                    made[index] += 1
                state = apply_move(state, move)
    return [(spent[i], made[i]) for i in (0, 1)]


def decision_times(rules: Any, bots: tuple[Bot, Bot], deals: int, seed: int, moves: int = 400) -> list[float]:
    """Each bot's mean CPU seconds per decision (positions with more than one legal move), in this process."""
    return [spent / made if made else 0.0 for spent, made in decision_totals(rules, bots, deals, seed, moves)]


def pair_figures(report: SimulationReport) -> dict[str, Any]:
    """The figures of one match: wins, draws, capped games, the first bot's share and score with intervals."""
    wins, draws = report.wins, report.draws
    decided = wins[0] + wins[1]
    low, high = wilson_interval(wins[0], decided)
    mean, score_low, score_high = score_interval(wins[0], draws, report.games)
    return {
        "rules": str(report.rules),
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
    }


def _play(rules: Any, bots: tuple[Bot, Bot], args: argparse.Namespace, executor: Any, progress: bool) -> SimulationReport:
    return simulate(
        rules, bots, games=args.games, seed=args.seed, executor=executor, max_moves=args.max_moves, progress=progress
    )


def _executor(workers: int) -> concurrent.futures.ProcessPoolExecutor | None:
    return concurrent.futures.ProcessPoolExecutor(workers) if workers > 1 else None


def _pair(args: argparse.Namespace, rules: Any, bots: tuple[Bot, Bot]) -> int:
    started = time.perf_counter()
    executor = _executor(args.workers)
    try:
        report = _play(rules, bots, args, executor, not args.json)
    finally:
        if executor is not None:
            executor.shutdown()
    elapsed = time.perf_counter() - started
    times = decision_times(rules, bots, args.timing_deals, args.seed) if args.timing_deals else [0.0, 0.0]
    figures = pair_figures(report)
    figures["seconds_per_decision"] = times
    figures["elapsed_seconds"] = elapsed
    if args.json:
        print(json.dumps(figures, indent=2))
        return 0
    wins, draws = report.wins, report.draws
    decided = wins[0] + wins[1]
    low, high = figures["decided_win_rate_interval"]
    mean, (score_low, score_high) = figures["score"], figures["score_interval"]
    a, b = report.bots
    print(f"{figures['rules']}: {a} against {b}, {report.games} games (deals paired, seats swapped)")
    print(f"  wins {wins[0]} - {wins[1]}, draws {draws} (capped {report.capped}), mean length {figures['mean_game_length']:.0f} moves")
    if decided:
        print(f"  {a} won {wins[0] / decided:.1%} of the decided games (95% interval {low:.1%}-{high:.1%})")
    print(
        f"  score {mean:.3f} (95% interval {score_low:.3f}-{score_high:.3f}); "
        f"Elo {elo(mean) + 0.0:+.0f} ({elo(score_low):+.0f} to {elo(score_high):+.0f})"
    )
    print(f"  seconds per decision: {a} {times[0]:.3f}, {b} {times[1]:.3f}; {elapsed:.0f} s in all")
    return 0


def _table(args: argparse.Namespace, rules: Any, specs: Sequence[str], bots: Sequence[Bot]) -> int:
    pairs = [(i, j) for i in range(len(bots)) for j in range(i + 1, len(bots))]
    started = time.perf_counter()
    executor = _executor(args.workers)
    results: list[dict[str, Any]] = []
    spent_by = [0.0] * len(bots)
    made_by = [0] * len(bots)
    try:
        for k, (i, j) in enumerate(pairs, 1):
            print(f"[{k}/{len(pairs)}] {specs[i]} against {specs[j]}, {args.games} games", file=sys.stderr, flush=True)
            figures = pair_figures(_play(rules, (bots[i], bots[j]), args, executor, True))
            figures["specs"] = [specs[i], specs[j]]
            results.append(figures)
        if args.timing_deals:
            print(f"timing the decisions over {args.timing_deals} deal(s) a pair", file=sys.stderr, flush=True)
            jobs = [(rules, (bots[i], bots[j]), args.timing_deals, args.seed) for i, j in pairs]
            if executor is None:
                timed = [decision_totals(*job) for job in jobs]
            else:
                timed = [future.result() for future in [executor.submit(decision_totals, *job) for job in jobs]]
            for (i, j), both in zip(pairs, timed):
                for index, (spent, made) in zip((i, j), both):
                    spent_by[index] += spent
                    made_by[index] += made
    finally:
        if executor is not None:
            executor.shutdown()
    elapsed = time.perf_counter() - started
    times = [spent / made if made else 0.0 for spent, made in zip(spent_by, made_by)]
    scores: list[list[float | None]] = [[None] * len(bots) for _ in bots]
    for (i, j), figures in zip(pairs, results):
        scores[i][j] = figures["score"]
        scores[j][i] = 1.0 - figures["score"]
    if args.json:
        print(json.dumps({
            "rules": str(rules),
            "bots": list(specs),
            "games_per_pair": args.games,
            "pairs": results,
            "scores": scores,
            "seconds_per_decision": dict(zip(specs, times)),
            "decisions_timed": dict(zip(specs, made_by)),
            "elapsed_seconds": elapsed,
        }, indent=2))
        return 0
    width = max(9, *(len(spec) for spec in specs))
    print(f"{rules}: {len(bots)} bots, {args.games} games a pair (deals paired, seats swapped, 95% intervals)")
    head = (
        f"{'A':<{width}}  {'B':<{width}}  games  wins A-B  draws  capped  "
        f"{'A share of decided':<21}  {'A score':<19}  Elo A-B"
    )
    print(head)
    for (i, j), f in zip(pairs, results):
        low, high = f["decided_win_rate_interval"]
        share = f"{f['decided_win_rate']:.1%} ({low:.0%}-{high:.0%})" if f["decided_win_rate"] is not None else "-"
        slow, shigh = f["score_interval"]
        wins = f"{f['wins'][0]}-{f['wins'][1]}"
        print(
            f"{specs[i]:<{width}}  {specs[j]:<{width}}  {f['games']:>5}  {wins:>8}  {f['draws']:>5}  {f['capped']:>6}  "
            f"{share:<21}  {f['score']:.3f} ({slow:.3f}-{shigh:.3f})  {f['elo'] + 0.0:+.0f}"
        )
    print()
    print("Score of the row's bot against the column's:")
    print(f"{'':<{width}}  " + "  ".join(f"{spec:>{width}}" for spec in specs) + f"  {'mean':>6}")
    for i, spec in enumerate(specs):
        row = [scores[i][j] for j in range(len(specs)) if j != i]
        cells = "  ".join(f"{'-' if s is None else format(s, '.3f'):>{width}}" for s in scores[i])
        print(f"{spec:<{width}}  {cells}  {statistics.fmean(s for s in row if s is not None):>6.3f}")
    print()
    if args.timing_deals:
        print("CPU seconds per decision (over all its timed games):")
        for spec, t, made in zip(specs, times, made_by):
            print(f"  {spec:<{width}}  {t:.4f}  ({made} decisions)")
    print(f"{elapsed:.0f} s in all")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="classic", help="rules text (default: classic)")
    parser.add_argument("--bots", default="search:normal,search", help="two bots, comma-separated")
    parser.add_argument("--table", default=None, help="bots, comma-separated: every one against every other")
    parser.add_argument("--games", type=int, default=100, help="games in all, a pair (even: each deal twice)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from SEED + i // 2")
    parser.add_argument("--bot-seed", type=int, default=1, help="seed of the bots that draw at random")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on")
    parser.add_argument("--max-moves", type=int, default=3000, help="move cap of a game")
    parser.add_argument("--timing-deals", type=int, default=1, help="deals replayed (a pair) to time the decisions")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    rules = parse_rules(args.rules)
    names = tuple(args.table.split(",") if args.table else args.bots.split(","))
    if args.table is not None and len(names) < 2:
        parser.error("--table takes at least two bots separated by commas")
    if args.table is None and len(names) != 2:
        parser.error("--bots takes two bots separated by a comma")
    if args.table is not None and len(set(names)) != len(names):
        parser.error("--table names a bot twice")
    try:
        bots = [make(name, args.bot_seed) for name in names]
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    if args.table is not None:
        return _table(args, rules, names, bots)
    return _pair(args, rules, (bots[0], bots[1]))


if __name__ == "__main__":
    sys.exit(main())
