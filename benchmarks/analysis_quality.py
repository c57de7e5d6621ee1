"""Is the analysis believable? Games of a stronger and a weaker bot, both sides analysed: the weaker should get more marks.

Run ``python benchmarks/analysis_quality.py --games 40 --workers 2``. For each
pair of bots (``search,greedy``, ``greedy,random`` and ``search,search:easy``
by default: the stronger first), it plays ``--games`` classic games,
seat-swapped and deal-paired (game ``i`` is dealt from seed ``--seed + i // 2``,
the stronger bot player ``i % 2``), up to ``--max-moves`` moves each, and
analyses every turn segment of both players with
:func:`crapette.analysis.reviews` under each judgement of ``--judges``, the
analysis's budget that of the planner at ``--level``, seeded apart from the
bots:

* ``value``: the default judgement, the learned value
  (:class:`crapette.value.LearnedValue`) where greedy play from the path's end
  stops, at the end of the opponent's next turn
  (:data:`crapette.analysis.VALUE`); a mark loses more than the threshold in
  winning chances, surely (the 95% interval above 0);
* ``immediate``: the same with ``evaluator=LearnedValue()``, the learned value
  right where the path leaves the game;
* ``playout``: the planner's playouts, in cards (``judge="playout"``).

It prints, for each pair, judgement and bot:

* the turn segments with a choice (decisions) and the marks (mistakes);
* the marks per game, with a 95% interval (a bootstrap over the games);
* the marks per decision, with a 95% interval (the same bootstrap, since the
  decisions of one game are not independent);
* the median loss of a mark (winning chances, or cards for ``playout``);

and for each pair and judgement the weaker bot's marks per game less the
stronger's in the same game, with a 95% interval: above 0 means the weaker
bot gets more marks.

The same arguments always give the same figures, whatever ``--workers``
(processes, each a whole game; the machine may be shared: 1 or 2). ``--json``
prints them as JSON. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any

from crapette import GameRecord, apply_move, new_game, parse_rules
from crapette.analysis import MISTAKE, MISTAKE_CHANCE, reviews
from crapette.bots import LEVELS, PlanningBot, make_bot
from crapette.evaluation import Evaluator
from crapette.value import LearnedValue

#: The seed of the analysis, apart from the bots' seeds.
ANALYSIS_SEED = 7919

#: The judgements: the arguments of :func:`crapette.analysis.reviews` each stands for.
JUDGES = ("value", "immediate", "playout")

DEFAULT_PAIRS = "search,greedy;greedy,random;search,search:easy"


def judgement(name: str) -> tuple[str, Evaluator | None]:
    """The ``judge`` and ``evaluator`` arguments of a judgement's name."""
    if name == "immediate":
        return "value", LearnedValue()
    return name, None


def play(rules: str, seed: int, names: Sequence[str], max_moves: int) -> GameRecord:
    """One game between the bots ``names`` (player 0 first), seeded by the deal's seed."""
    bots = [make_bot(name, seed) for name in names]
    state = new_game(rules, seed=seed)
    states = [state]
    while not state.is_over and len(states) <= max_moves:
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    return GameRecord.from_states(states, seed=seed, players=list(names))


def one_game(task: tuple[str, int, tuple[str, str], int, str, tuple[str, ...]]) -> dict[str, Any]:
    """Play one game and analyse it under each judgement: per judgement and seat, what each review found.

    By the value (``value``, ``immediate``) each review's loss and the half-width of
    its interval, so that the marks at any threshold can be counted; by the
    playouts whether it is a mistake at the default threshold, and its loss.
    """
    rules, seed, names, max_moves, level, judges = task
    record = play(rules, seed, names, max_moves)
    planner = PlanningBot.at_level(level, seed=ANALYSIS_SEED)
    found: dict[str, list[list[tuple[float, float]]]] = {}
    for name in judges:
        judge, evaluator = judgement(name)
        seats: list[list[tuple[float, float]]] = [[], []]
        for review in reviews(record, bot=planner, judge=judge, evaluator=evaluator):
            # By the playouts, a loss that is no mistake is kept as -1: it never makes a mark.
            seats[review.player].append(
                (review.cost, review.margin) if judge == "value" else (review.cost if review.mistake else -1.0, 0.0)
            )
        found[name] = seats
    return {"moves": len(record.moves), "names": list(names), "judges": found}


def marks(found: Sequence[tuple[float, float]], threshold: float | None) -> list[float]:
    """The losses of the reviews ``found`` that are marks at ``threshold`` (None: those the playouts marked)."""
    if threshold is None:
        return [cost for cost, _ in found if cost >= 0]
    return [cost for cost, margin in found if cost > threshold and cost - margin > 0]


def bootstrap(per_game: Sequence[tuple[float, float]], draws: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of sum(a) / sum(b), resampling whole games (b = 1 each for a mean)."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(draws):
        sample = [per_game[rng.randrange(len(per_game))] for _ in per_game]
        total = sum(b for _, b in sample)
        ratios.append(sum(a for a, _ in sample) / total if total else 0.0)
    ratios.sort()
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def _gap(rates: Sequence[tuple[int, int, int, int]]) -> float:
    """The weaker bot's marks per decision less the stronger's, over the games ``rates`` (weak marks, decisions,
    strong marks, decisions)."""
    weak = sum(r[1] for r in rates)
    strong = sum(r[3] for r in rates)
    return (sum(r[0] for r in rates) / weak if weak else 0.0) - (sum(r[2] for r in rates) / strong if strong else 0.0)


def _gap_interval(rates: Sequence[tuple[int, int, int, int]], draws: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of :func:`_gap`, resampling whole games."""
    rng = random.Random(seed)
    gaps = sorted(_gap([rates[rng.randrange(len(rates))] for _ in rates]) for _ in range(draws))
    return gaps[int(0.025 * draws)], gaps[int(0.975 * draws) - 1]


def measure(
    pair: tuple[str, str], args: argparse.Namespace, pool: concurrent.futures.Executor | None
) -> dict[str, Any]:
    """Play and analyse the games of one pair; the figures of each judgement (at each threshold) and bot."""
    judges = tuple(args.judges)
    tasks = []
    for game in range(args.games):
        names = (pair[0], pair[1]) if game % 2 == 0 else (pair[1], pair[0])
        tasks.append((args.rules, args.seed + game // 2, names, args.max_moves, args.level, judges))
    started = time.monotonic()
    games: list[dict[str, Any]] = []
    results = pool.map(one_game, tasks) if pool is not None else map(one_game, tasks)
    for done, game in enumerate(results, 1):
        games.append(game)
        print(f"{pair[0]} vs {pair[1]}: game {done}/{args.games}, {game['moves']} moves, "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    out: dict[str, Any] = {}
    for name in judges:
        for threshold in args.thresholds if name != "playout" else [None]:
            label = name if threshold is None else f"{name}@{threshold:g}"
            # Per game: the weaker bot's marks and decisions, then the stronger's.
            rates = []
            losses: dict[str, list[float]] = {pair[0]: [], pair[1]: []}
            for game in games:
                row = []
                for bot in (pair[1], pair[0]):
                    found = game["judges"][name][game["names"].index(bot)]
                    marked = marks(found, threshold)
                    losses[bot] += marked
                    row += [len(marked), len(found)]
                rates.append((row[0], row[1], row[2], row[3]))
            figures: dict[str, Any] = {}
            for bot, at in ((pair[0], 2), (pair[1], 0)):
                decisions = sum(r[at + 1] for r in rates)
                count = sum(r[at] for r in rates)
                figures[bot] = {
                    "decisions": decisions,
                    "marks": count,
                    "per_game": count / len(rates),
                    "per_game_interval": list(bootstrap([(r[at], 1) for r in rates])),
                    "per_decision": count / decisions if decisions else 0.0,
                    "per_decision_interval": list(bootstrap([(r[at], r[at + 1]) for r in rates])),
                    "median_loss": statistics.median(losses[bot]) if losses[bot] else 0.0,
                }
            gaps = [r[0] - r[2] for r in rates]
            out[label] = {
                "bots": figures,
                "gap_per_game": statistics.fmean(gaps),
                "gap_interval": list(bootstrap([(g, 1) for g in gaps])),
                "gap_per_decision": _gap(rates),
                "gap_per_decision_interval": list(_gap_interval(rates)),
            }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair (default: 40)")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS,
                        help=f"pairs of bots, the stronger first, separated by ';' (default: {DEFAULT_PAIRS})")
    parser.add_argument("--judges", default="value",
                        help=f"the judgements to analyse with, separated by ',' ({', '.join(JUDGES)}; default: value)")
    parser.add_argument("--rules", default="classic", help="the rules (default: classic)")
    parser.add_argument("--level", choices=tuple(LEVELS), default="normal",
                        help="the analysis's budget, the planner's at that level (default: normal)")
    parser.add_argument("--thresholds", default=f"{MISTAKE_CHANCE:g}",
                        help="the losses of winning chances that make a mark by the value, separated by ',' "
                        f"(default: {MISTAKE_CHANCE:g}; the playouts mark at {MISTAKE:g} cards)")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed SEED + i // 2 (default: 0)")
    parser.add_argument("--max-moves", type=int, default=1000, help="move cap of a game (default: 1000)")
    parser.add_argument("--workers", type=int, default=1, help="processes, each a whole game (default: 1)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    parse_rules(args.rules)
    args.judges = args.judges.split(",")
    if any(name not in JUDGES for name in args.judges):
        parser.error(f"--judges takes {', '.join(JUDGES)}, got {','.join(args.judges)}")
    args.thresholds = [float(t) for t in args.thresholds.split(",")]
    if any(not 0 <= t <= 1 for t in args.thresholds):
        parser.error(f"--thresholds are shares of winning chances from 0 to 1, got {args.thresholds}")
    pairs = [tuple(p.split(",")) for p in args.pairs.split(";")]
    for pair in pairs:
        if len(pair) != 2:
            parser.error(f"a pair is two bots separated by a comma, got {pair!r}")
    results = {}
    started = time.monotonic()
    pool = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    try:
        for pair in pairs:
            results[",".join(pair)] = measure((pair[0], pair[1]), args, pool)
    finally:
        if pool is not None:
            pool.shutdown()
    elapsed = time.monotonic() - started
    if args.json:
        print(json.dumps({"games": args.games, "level": args.level, "thresholds": args.thresholds, "rules": args.rules,
                          "seconds": round(elapsed), "pairs": results}, indent=2))
        return 0
    print(f"{args.rules}, {args.games} games a pair, analysis at {args.level}, {elapsed / 60:.0f} min "
          f"(judge@threshold: a mark loses more than that share of winning chances, surely; playout: "
          f"{MISTAKE:g} cards)")
    print(f"{'pair':<20} {'judge':<16} {'bot':<12} {'decisions':>9} {'marks':>6} {'a game':>7} {'95% interval':>13} "
          f"{'a decision':>10} {'95% interval':>13} {'median loss':>11}")
    for pair_name, by_judge in results.items():
        for judge, figures in by_judge.items():
            for name, row in figures["bots"].items():
                low, high = row["per_game_interval"]
                dlow, dhigh = row["per_decision_interval"]
                loss = row["median_loss"]
                print(f"{pair_name:<20} {judge:<16} {name:<12} {row['decisions']:>9} {row['marks']:>6} "
                      f"{row['per_game']:>7.2f} {f'{low:.2f}-{high:.2f}':>13} {row['per_decision']:>10.3f} "
                      f"{f'{dlow:.3f}-{dhigh:.3f}':>13} "
                      f"{f'{loss:.1f} cards' if judge == 'playout' else f'{loss:.1%}':>11}")
    print()
    print("the weaker bot's marks less the stronger's, with 95% intervals (above 0: the weaker gets more):")
    print(f"{'pair':<20} {'judge':<16} {'a game':>22} {'a decision':>25}")
    for pair_name, by_judge in results.items():
        for judge, figures in by_judge.items():
            low, high = figures["gap_interval"]
            dlow, dhigh = figures["gap_per_decision_interval"]
            print(f"{pair_name:<20} {judge:<16} {figures['gap_per_game']:+6.2f} ({low:+6.2f} to {high:+6.2f}) "
                  f"{figures['gap_per_decision']:+7.3f} ({dlow:+7.3f} to {dhigh:+7.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
