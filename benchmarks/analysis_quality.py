"""Is the analysis believable? Games between a strong and a weak bot, both sides analysed: the weak one should err more.

Run ``python benchmarks/analysis_quality.py --games 40``. For each pair of bots
(``search,greedy`` and ``greedy,random`` by default: the stronger first), it
plays ``--games`` classic games, seat-swapped and deal-paired (game ``i`` is
dealt from seed ``--seed + i // 2``, the stronger bot player ``i % 2``), up to
``--max-moves`` moves each, analyses every turn segment of both players with
:func:`crapette.analysis.reviews` (the planner at ``--level``, seeded apart
from the bots), and prints for each bot:

* the turn segments with a choice (the decisions) and the mistakes marked;
* the mistakes per decision, with a 95% interval (a bootstrap over the games,
  since the decisions of one game are not independent);
* the median loss of a mistake, in cards (a median: a missed win counts
  10,000 cards in the deals where it wins).

The same arguments always give the same figures. ``--json`` prints them as JSON.
Progress goes to stderr. One process: the machine may be shared.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Sequence

from crapette import GameRecord, apply_move, new_game, parse_rules
from crapette.analysis import MISTAKE, reviews
from crapette.bots import LEVELS, PlanningBot, make_bot

#: The seed of the analysing planner, apart from the bots' seeds.
ANALYSIS_SEED = 7919


def play(rules: str, seed: int, names: Sequence[str], max_moves: int) -> GameRecord:
    """One game between the bots ``names`` (player 0 first), seeded by the deal's seed."""
    bots = [make_bot(name, seed) for name in names]
    state = new_game(rules, seed=seed)
    states = [state]
    while not state.is_over and len(states) <= max_moves:
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    return GameRecord.from_states(states, seed=seed, players=list(names))


def bootstrap(per_game: Sequence[tuple[int, int]], draws: int = 2000, seed: int = 0) -> tuple[float, float]:
    """A 95% percentile interval of sum(mistakes) / sum(decisions), resampling whole games."""
    rng = random.Random(seed)
    ratios = []
    for _ in range(draws):
        sample = [per_game[rng.randrange(len(per_game))] for _ in per_game]
        decisions = sum(d for d, _ in sample)
        ratios.append(sum(m for _, m in sample) / decisions if decisions else 0.0)
    ratios.sort()
    return ratios[int(0.025 * draws)], ratios[int(0.975 * draws) - 1]


def measure(pair: tuple[str, str], args: argparse.Namespace) -> dict[str, object]:
    """Play and analyse the games of one pair; the figures of each bot."""
    planner = PlanningBot.at_level(args.level, seed=ANALYSIS_SEED)
    tallies: dict[str, list[tuple[int, int]]] = {pair[0]: [], pair[1]: []}
    losses: dict[str, list[float]] = {pair[0]: [], pair[1]: []}
    started = time.monotonic()
    for game in range(args.games):
        strong_seat = game % 2
        names = (pair[0], pair[1]) if strong_seat == 0 else (pair[1], pair[0])
        record = play(args.rules, args.seed + game // 2, names, args.max_moves)
        counts = {0: [0, 0], 1: [0, 0]}
        for review in reviews(record, bot=planner, threshold=args.threshold):
            counts[review.player][0] += 1
            counts[review.player][1] += review.mistake
            if review.mistake:
                losses[names[review.player]].append(review.cost)
        for seat in (0, 1):
            tallies[names[seat]].append((counts[seat][0], counts[seat][1]))
        print(f"{pair[0]} vs {pair[1]}: game {game + 1}/{args.games}, {len(record.moves)} moves, "
              f"{time.monotonic() - started:.0f} s", file=sys.stderr, flush=True)
    out: dict[str, object] = {}
    for name, per_game in tallies.items():
        decisions = sum(d for d, _ in per_game)
        mistakes = sum(m for _, m in per_game)
        low, high = bootstrap(per_game)
        out[name] = {
            "decisions": decisions,
            "mistakes": mistakes,
            "per_decision": mistakes / decisions if decisions else 0.0,
            "interval": [low, high],
            "median_loss": statistics.median(losses[name]) if losses[name] else 0.0,
        }
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per pair (default: 40)")
    parser.add_argument("--pairs", default="search,greedy;greedy,random",
                        help="pairs of bots, the stronger first, separated by ';' (default: search,greedy;greedy,random)")
    parser.add_argument("--rules", default="classic", help="the rules (default: classic)")
    parser.add_argument("--level", choices=tuple(LEVELS), default="normal",
                        help="the analysing planner's level (default: normal)")
    parser.add_argument("--threshold", type=float, default=MISTAKE,
                        help=f"the loss in cards that makes a mistake (default: {MISTAKE})")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed SEED + i // 2 (default: 0)")
    parser.add_argument("--max-moves", type=int, default=1000, help="move cap of a game (default: 1000)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    parse_rules(args.rules)
    pairs = [tuple(p.split(",")) for p in args.pairs.split(";")]
    results = {}
    for pair in pairs:
        if len(pair) != 2:
            parser.error(f"a pair is two bots separated by a comma, got {pair!r}")
        results[",".join(pair)] = measure((pair[0], pair[1]), args)
    if args.json:
        print(json.dumps({"games": args.games, "level": args.level, "threshold": args.threshold,
                          "rules": args.rules, "pairs": results}, indent=2))
        return 0
    print(f"{args.rules}, {args.games} games a pair, analysis at {args.level}, a mistake loses more than "
          f"{args.threshold:g} cards")
    print(f"{'pair':<16} {'bot':<8} {'decisions':>9} {'mistakes':>8} {'per decision':>12} {'95% interval':>15} "
          f"{'median loss':>11}")
    for pair_name, figures in results.items():
        for name, row in figures.items():  # type: ignore[attr-defined]
            low, high = row["interval"]
            print(f"{pair_name:<16} {name:<8} {row['decisions']:>9} {row['mistakes']:>8} "
                  f"{row['per_decision']:>12.3f} {f'{low:.3f}-{high:.3f}':>15} {row['median_loss']:>11.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
