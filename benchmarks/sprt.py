"""Decide whether one bot is stronger than another: a sequential probability ratio test over deal pairs.

Run ``python benchmarks/sprt.py --bots search,plan-yardstick --elo0 0 --elo1 30 --workers 2``.
The bots play deal pairs (every deal twice, seats swapped: ``crapette.simulation.simulate``)
in batches of ``--batch`` games; after each batch the test (``crapette.sprt``) looks at
the pentanomial of the pairs so far and stops as soon as the log-likelihood ratio of
``elo = ELO1`` against ``elo = ELO0`` leaves Wald's bounds for ``--alpha`` and ``--beta``,
or when ``--max-games`` are played. It prints:

* the games, the first bot's wins, draws and losses, and the pentanomial (the pairs in
  which it made 0, 1/2, 1, 3/2 and 2 points);
* its score with the Elo difference that means and the 95% interval (from the pairs),
  and the likelihood of superiority;
* the log-likelihood ratio with its bounds, and the decision: ``accept`` (the first bot
  is at least ELO1 stronger: H1), ``reject`` (it is not stronger than ELO0: H0) or
  ``inconclusive`` (the games ran out first).

A line of progress after each batch goes to stderr. The bots are named as in
``benchmarks/strength.py`` (a ``make_bot`` name, ``yardstick``, ``plan-yardstick``,
``module:Class``, each with ``@SEED``), ``leaf=FILE`` (the planning bot whose playouts are
judged by the network in ``FILE``, written by ``python -m crapette.training fit``), ``ranker=FILE``
(the planning bot ranking the turn ends by it), each with ``#PLAYOUTS`` (default 1000),
``playouts=N`` (the planning bot with N playouts), ``careful=N`` (the same, its playouts
played on by the greedy heuristic with its look-ahead), ``seconds=S`` (the planning bot
that plays as many playouts as S seconds a decision allow), or
``tuned=FILE``, the planning bot with the
judgement of a result file of ``benchmarks/tune.py``. The same arguments always play
the same games: game ``i`` is dealt from ``SEED + i // 2``. ``--json`` prints the
figures as JSON.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

from crapette import parse_rules
from crapette.bots import Bot, PlanningBot
from crapette.simulation import simulate
from crapette.sprt import elo_interval, game_counts, los, pair_counts, sprt_bounds, sprt_decision, sprt_llr

sys.path.insert(0, str(Path(__file__).resolve().parent))  # strength.py and the yardsticks beside this file
from strength import make  # noqa: E402


def bot(spec: str, default_seed: int) -> Bot:
    """The bot a spec names: ``tuned=FILE`` (a result of ``tune.py``) or any spec of ``strength.make``.

    :raises ValueError: if the spec names no bot.
    """
    name, at, seed_text = spec.strip().partition("@")
    if name.startswith("tuned="):
        from tune import Params, planner  # noqa: PLC0415

        try:
            seed = int(seed_text) if at else default_seed
            data = json.loads(Path(name[len("tuned="):]).read_text(encoding="utf-8"))
            return planner(Params.from_dict(data["params"]), seed, int(data.get("playouts", 1000)))
        except (OSError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad tuned bot {spec!r}: {exc}") from None
    if name.startswith(("playouts=", "seconds=", "careful=")):
        from crapette.bots import MAX_PLAYOUTS  # noqa: PLC0415
        from crapette.evaluation import Playout, careful_move  # noqa: PLC0415

        try:
            seed = int(seed_text) if at else default_seed
            kind, _, amount = name.partition("=")
            if kind == "playouts":
                return PlanningBot(seed, int(amount))
            if kind == "careful":
                return PlanningBot(seed, int(amount), evaluator=Playout(policy=careful_move))
            return PlanningBot(seed, MAX_PLAYOUTS, seconds=float(amount))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"bad bot {spec!r}: {exc}") from None
    for kind in ("leaf=", "ranker="):
        if name.startswith(kind):
            from crapette.evaluation import Playout  # noqa: PLC0415
            from crapette.value import LearnedValue, ValueNet  # noqa: PLC0415

            path, _, playouts = name[len(kind):].partition("#")
            try:
                seed = int(seed_text) if at else default_seed
                value = LearnedValue(ValueNet.from_json(Path(path).read_text(encoding="utf-8")))
                budget = int(playouts) if playouts else PlanningBot.LEVELS["normal"]
                if kind == "leaf=":
                    return PlanningBot(seed, budget, evaluator=Playout(leaf=value))
                return PlanningBot(seed, budget, ranker=value)
            except (OSError, TypeError, ValueError) as exc:
                raise ValueError(f"bad {kind[:-1]} bot {spec!r}: {exc}") from None
    return make(spec, default_seed)


def _elo_text(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else ("+inf" if value > 0 else "-inf")


def figures(counts: tuple[int, ...], games: tuple[int, int, int], args: argparse.Namespace) -> dict[str, Any]:
    """The test's figures for a pentanomial ``counts`` and the games' ``(lost, drawn, won)``."""
    elo, low, high = elo_interval(counts)
    llr = sprt_llr(counts, args.elo0, args.elo1)
    lower, upper = sprt_bounds(args.alpha, args.beta)
    pairs = sum(counts)
    score = (0.25 * counts[1] + 0.5 * counts[2] + 0.75 * counts[3] + counts[4]) / pairs if pairs else 0.5
    return {
        "games": sum(games),
        "lost_drawn_won": list(games),
        "pentanomial": list(counts),
        "score": score,
        "elo": elo,
        "elo_interval": [low, high],
        "los": los(counts),
        "llr": llr,
        "llr_bounds": [lower, upper],
        "elo0": args.elo0,
        "elo1": args.elo1,
        "alpha": args.alpha,
        "beta": args.beta,
        "decision": sprt_decision(llr, args.alpha, args.beta),
    }


def _line(f: dict[str, Any]) -> str:
    low, high = f["elo_interval"]
    lower, upper = f["llr_bounds"]
    lost, drawn, won = f["lost_drawn_won"]
    return (
        f"{f['games']} games, +{won} ={drawn} -{lost}, pairs {f['pentanomial']}: score {f['score']:.3f}, "
        f"Elo {_elo_text(f['elo'])} ({_elo_text(low)} to {_elo_text(high)}), "
        f"LLR {f['llr']:.2f} ({lower:.2f}, {upper:.2f})"
    )


def run(args: argparse.Namespace, bots: tuple[Bot, Bot]) -> dict[str, Any]:
    """Play batches of deal pairs until the test decides or ``--max-games`` are played; the final figures."""
    rules = parse_rules(args.rules)
    executor = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    results: list[Any] = []
    started = time.perf_counter()
    found: dict[str, Any] = {}
    try:
        while len(results) < args.max_games:
            batch = min(args.batch, args.max_games - len(results))
            report = simulate(
                rules, bots, games=batch, seed=args.seed + len(results) // 2, executor=executor,
                max_moves=args.max_moves,
            )
            results.extend(report.results)
            found = figures(pair_counts(results), game_counts(results), args)
            if not args.quiet:
                print(f"  {_line(found)}", file=sys.stderr, flush=True)
            if found["decision"] != "continue":
                break
    finally:
        if executor is not None:
            executor.shutdown()
    if found["decision"] == "continue":
        found["decision"] = "inconclusive"
    found["rules"] = str(rules)
    found["bots"] = [str(b) for b in bots]
    found["seed"] = args.seed
    found["elapsed_seconds"] = time.perf_counter() - started
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="classic", help="rules text: classic, casual, ... (default: classic)")
    parser.add_argument("--bots", default="search,plan-yardstick", help="two bots, comma-separated: the tested one first")
    parser.add_argument("--elo0", type=float, default=0.0, help="Elo of the null hypothesis H0 (default 0)")
    parser.add_argument("--elo1", type=float, default=30.0, help="Elo of the alternative H1 (default 30)")
    parser.add_argument("--alpha", type=float, default=0.05, help="chance of accepting at ELO0 (default 0.05)")
    parser.add_argument("--beta", type=float, default=0.05, help="chance of rejecting at ELO1 (default 0.05)")
    parser.add_argument("--max-games", type=int, default=2000, help="games at most, then inconclusive (even)")
    parser.add_argument("--batch", type=int, default=20, help="games between two looks at the test (even)")
    parser.add_argument("--seed", type=int, default=100_000, help="game i is dealt from SEED + i // 2")
    parser.add_argument("--bot-seed", type=int, default=1, help="seed of the bots that draw at random")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on")
    parser.add_argument("--max-moves", type=int, default=3000, help="move cap of a game")
    parser.add_argument("--quiet", action="store_true", help="no progress lines")
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args(argv)
    if args.max_games < 2 or args.max_games % 2 or args.batch < 2 or args.batch % 2:
        parser.error("--max-games and --batch take even numbers of games, at least 2 (deal pairs)")
    if args.workers < 1:
        parser.error("--workers takes at least 1")
    names = args.bots.split(",")
    if len(names) != 2:
        parser.error("--bots takes two bots separated by a comma")
    try:
        sprt_bounds(args.alpha, args.beta)
        if not args.elo0 < args.elo1:
            raise ValueError(f"--elo0 must be below --elo1, got {args.elo0} and {args.elo1}")
        bots = (bot(names[0], args.bot_seed), bot(names[1], args.bot_seed))
        parse_rules(args.rules)
    except (ValueError, TypeError) as exc:
        parser.error(str(exc))
    if not args.quiet and not args.json:
        lower, upper = sprt_bounds(args.alpha, args.beta)
        print(
            f"SPRT {names[0]} against {names[1]} ({args.rules}): H0 elo {args.elo0:+g}, H1 elo {args.elo1:+g}, "
            f"alpha {args.alpha}, beta {args.beta}, bounds {lower:.2f} {upper:.2f}, at most {args.max_games} games",
            file=sys.stderr, flush=True,
        )
    found = run(args, bots)
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    low, high = found["elo_interval"]
    lower, upper = found["llr_bounds"]
    lost, drawn, won = found["lost_drawn_won"]
    print(f"{found['rules']}: {names[0]} against {names[1]}, {found['games']} games (deals paired, seats swapped)")
    print(f"  wins {won}, draws {drawn}, losses {lost}; pairs by points 0-1/2-1-3/2-2: {found['pentanomial']}")
    print(
        f"  score {found['score']:.3f}; Elo {_elo_text(found['elo'])} (95% interval {_elo_text(low)} to "
        f"{_elo_text(high)}); likelihood of superiority {found['los']:.1%}"
    )
    print(
        f"  LLR {found['llr']:.2f} (bounds {lower:.2f}, {upper:.2f}; H0 elo {args.elo0:+g}, H1 elo {args.elo1:+g}, "
        f"alpha {args.alpha}, beta {args.beta})"
    )
    print(f"  decision: {found['decision']}; {found['elapsed_seconds']:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
