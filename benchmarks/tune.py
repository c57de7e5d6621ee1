"""Tune the planning bot's judgement by matches: SPSA over the weights of the card count it judges playouts by.

Run ``python benchmarks/tune.py --rules classic --iterations 300 --out tuned-classic.json``.
The judgement tuned is that of the ``search`` bot (``PlanningBot``): greedy play to the
end of the opponent's next turn, then the cards left. Here the cards left are a linear
count over the features of ``crapette.value.encode`` (each side's reserve, hand and waste
cards, and the reserve plays the player to move has), squashed into a chance to win by a
logistic of slope ``temperature`` a card, and run in the compiled kernel as a one-unit
``ValueNet`` (so a playout costs what the stock one does):

``value = sigmoid(temperature * (opponent's count - own count + playable * own reserve plays))``

where a count is ``reserve * reserve cards + hand cards + waste * waste cards``; a finished
game is worth 1, 1/2 or 0. The stock judgement is close to ``reserve=2, waste=1,
playable=1`` with a small temperature (the classic scoring, a win worth more than any count).

Simultaneous perturbation stochastic approximation, as fishtest tunes chess engines: at
step ``k`` every parameter is moved by ``+c_k`` or ``-c_k`` at random (``delta``), the two
bots ``theta + c_k delta`` and ``theta - c_k delta`` play ``--pairs`` deal pairs (fresh deals,
seats swapped), and ``theta`` moves by ``a_k / c_k * (score - 1/2) * delta`` per parameter,
``score`` the first bot's mean score, with ``a_k = a / (k + A) ** 0.602`` and ``c_k = c / k ** 0.101``.
Each step is one line of ``--log`` (JSON); ``--out`` gets the final parameters, which
``benchmarks/sprt.py --bots tuned=FILE,plan-yardstick`` then tests. ``--seconds`` bounds
the run in time, ``--iterations`` in steps. The same arguments give the same steps.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

import attrs

from crapette import parse_rules
from crapette.bots import PlanningBot
from crapette.evaluation import Playout
from crapette.simulation import simulate
from crapette.value import FEATURES, LearnedValue, ValueNet

#: The names of the tuned parameters, in order.
NAMES = ("reserve", "waste", "playable", "log_temperature")
#: How far each parameter is moved to either side at the first step (``c`` of SPSA, per parameter).
SPREAD = (0.5, 0.3, 0.5, 0.25)
_INDEX = {name: i for i, name in enumerate(FEATURES)}
_MID = 1 << 15


@attrs.frozen
class Params:
    """The weights of the linear card count (a hand card weighs 1) and the log10 of its logistic slope a card."""

    reserve: float = 2.0
    waste: float = 1.0
    playable: float = 1.0
    log_temperature: float = -1.3

    def vector(self) -> list[float]:
        """The parameters in the order of :data:`NAMES`."""
        return [float(getattr(self, name)) for name in NAMES]

    @classmethod
    def from_vector(cls, values: list[float]) -> Params:
        """The parameters of a vector in the order of :data:`NAMES`."""
        return cls(*values)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Params:
        """The parameters of a dict keyed by :data:`NAMES` (missing keys take their defaults)."""
        return cls(**{name: float(data[name]) for name in NAMES if name in data})

    def net(self) -> ValueNet:
        """The count as a one-unit network: a unit that never clips, so the output is linear in the counts."""
        weights = [0.0] * len(FEATURES)
        for side, sign in (("own", -1.0), ("opponent", 1.0)):
            weights[_INDEX[f"{side} reserve"]] = sign * self.reserve
            weights[_INDEX[f"{side} hand"]] = sign
            weights[_INDEX[f"{side} waste"]] = sign * self.waste
        for kind in ("reserve to foundation", "reserve to tableau"):
            weights[_INDEX[f"own can: {kind}"]] = self.playable
        row = (_MID << 12, *(round(w * 4096) for w in weights))
        slope = max(1, round(10.0 ** self.log_temperature * 4096))
        return ValueNet("linear count", (row,), (-slope * _MID, slope), clip=1 << 16, made=json.dumps(attrs.asdict(self)))


def planner(params: Params, seed: int = 1, playouts: int = 1000) -> PlanningBot:
    """The planning bot judging its playouts by the count of ``params``."""
    return PlanningBot(seed, playouts, evaluator=Playout(leaf=LearnedValue(params.net())))


def _score(report: Any) -> float:
    wins, draws = report.wins, report.draws
    return (wins[0] + 0.5 * draws) / report.games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rules", default="classic", help="rules text (default: classic)")
    parser.add_argument("--iterations", type=int, default=200, help="SPSA steps at most")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this many seconds")
    parser.add_argument("--pairs", type=int, default=1, help="deal pairs a step")
    parser.add_argument("--playouts", type=int, default=1000, help="playouts of the tuned bots (default 1000, normal)")
    parser.add_argument("--a", type=float, default=0.4, help="a of SPSA, in units of c squared (default 0.4)")
    parser.add_argument("--big-a", type=float, default=20.0, help="A of SPSA: steps the gain waits for (default 20)")
    parser.add_argument("--start", default=None, help="starting parameters as JSON (default: the stock count)")
    parser.add_argument("--seed", type=int, default=500_000, help="deals of step k from SEED + (k - 1) * PAIRS")
    parser.add_argument("--workers", type=int, default=1, help="processes to play on")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="moves after which a game is cut short (default: the simulation's cap)")
    parser.add_argument("--log", default=None, help="file to append a JSON line a step to")
    parser.add_argument("--out", default=None, help="file to write the final parameters to (JSON)")
    args = parser.parse_args(argv)
    rules = parse_rules(args.rules)
    theta = Params.from_dict(json.loads(args.start)) if args.start else Params()
    values = theta.vector()
    rng = random.Random(args.seed)
    executor = concurrent.futures.ProcessPoolExecutor(args.workers) if args.workers > 1 else None
    log = open(args.log, "a", encoding="utf-8") if args.log else None
    started = time.perf_counter()
    games = 0
    k = 0
    try:
        for k in range(1, args.iterations + 1):
            if args.seconds is not None and time.perf_counter() - started > args.seconds:
                k -= 1
                break
            c_k = [c / k**0.101 for c in SPREAD]
            a_k = [args.a * c * c / (k + args.big_a) ** 0.602 for c in SPREAD]
            delta = [rng.choice((-1, 1)) for _ in values]
            plus = Params.from_vector([v + c * d for v, c, d in zip(values, c_k, delta)])
            minus = Params.from_vector([v - c * d for v, c, d in zip(values, c_k, delta)])
            report = simulate(
                rules, (planner(plus, 1, args.playouts), planner(minus, 1, args.playouts)),
                games=2 * args.pairs, seed=args.seed + (k - 1) * args.pairs, executor=executor,
                **({} if args.max_moves is None else {"max_moves": args.max_moves}),
            )
            games += report.games
            score = _score(report)
            values = [v + a / c * (score - 0.5) * d for v, a, c, d in zip(values, a_k, c_k, delta)]
            line = {"step": k, "games": games, "score": score, "delta": delta, "theta": dict(zip(NAMES, values)),
                    "seconds": round(time.perf_counter() - started, 1)}
            if log is not None:
                log.write(json.dumps(line) + "\n")
                log.flush()
            print(json.dumps(line), file=sys.stderr, flush=True)
    finally:
        if executor is not None:
            executor.shutdown()
        if log is not None:
            log.close()
    final = {
        "rules": str(rules),
        "params": dict(zip(NAMES, values)),
        "playouts": args.playouts,
        "steps": k,
        "games": games,
        "command": "python benchmarks/tune.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    text = json.dumps(final, indent=2)
    if args.out:
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
