"""Speed of the PettingZoo, Gymnasium and OpenSpiel adapters against the raw engine, in one run.

Run ``python benchmarks/adapters.py`` (with the ``pettingzoo``, ``gymnasium``
and ``openspiel`` extras installed; an adapter whose framework is missing is
skipped). Prints a table; ``--json`` prints the figures as JSON instead.

The workload is random self-play, as in ``benchmarks/bench.py``: deal
``i``, pick uniformly among the legal moves with ``random.Random(i)``, play
until the game is over or 2000 moves. The raw engine calls ``legal_moves``
and ``apply_move``. Each adapter runs the loop its users write, the random
choice included:

* PettingZoo: ``agent_iter()``, ``last()`` (the observation and action mask
  are built at every step), a choice among the mask's nonzero entries
  (``mask.nonzero()[0].tolist()``), ``step()``; once through ``env()``
  (PettingZoo's order-enforcing wrapper) and once on ``raw_env`` alone.
* Gymnasium: ``step()`` with the same choice from the mask; the opponent is a bot
  making the same uniform choice as the raw engine, so that the figure per
  move is the environment's, not a bot's. A step is one agent move and the
  opponent's reply; the overhead is per move, both sides counted.
* OpenSpiel: ``legal_actions()``, a choice, ``apply_action()`` on the
  registered Python game.

Every loop plays the preset with ``revisits`` off, as the adapters do by
default (``--revisits`` plays it on, in every loop). The overhead is the time per move through the adapter divided by the raw
engine's time per move; the goal is at most 3. The loops take turns over
several rounds and each keeps its best round, so that a burst of other work
on the machine does not count against one loop only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

import attrs  # noqa: E402
from bench import crapette_playouts  # noqa: E402

from crapette import GameState, Move, RuleSet, legal_moves  # noqa: E402

PRESETS = ("casual", "classic")
MAX_MOVES = 2000

# Each runner plays for about ``seconds`` and returns (environment steps, moves, elapsed seconds).
Runner = Callable[[RuleSet, float], "tuple[int, int, float]"]


def pettingzoo_runner(wrapped: bool) -> Runner | None:
    try:
        from crapette.pettingzoo import env, raw_env
    except ImportError:
        return None

    def run(rules: RuleSet, seconds: float) -> tuple[int, int, float]:
        make = env if wrapped else raw_env
        game = make(rules, max_moves=MAX_MOVES, revisits=rules.revisits)
        steps = deal = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game.reset(options={"deal": deal})
            choice = random.Random(deal).choice
            for _agent in game.agent_iter():
                observation, _reward, termination, truncation, _info = game.last()
                if termination or truncation:
                    game.step(None)
                    continue
                game.step(choice(observation["action_mask"].nonzero()[0].tolist()))
                steps += 1
            deal += 1
        return steps, steps, time.perf_counter() - start

    return run


class UniformBot:
    """A uniform random choice among the legal moves: the raw engine's own choice, as a bot."""

    def __init__(self, seed: int) -> None:
        self.choice = random.Random(seed).choice

    def choose(self, state: GameState) -> Move:
        return self.choice(legal_moves(state))


def gymnasium_runner() -> Runner | None:
    try:
        from crapette.gymnasium import CrapetteEnv
    except ImportError:
        return None

    def run(rules: RuleSet, seconds: float) -> tuple[int, int, float]:
        env = CrapetteEnv(rules, opponent=UniformBot(0), max_moves=MAX_MOVES, revisits=rules.revisits)
        steps = moves = deal = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            observation, _info = env.reset(options={"deal": deal})
            choice = random.Random(deal).choice
            done = False
            while not done:
                action = choice(observation["action_mask"].nonzero()[0].tolist())
                observation, _reward, terminated, truncated, _info = env.step(action)
                done = terminated or truncated
                steps += 1
            moves += env.game_state.move_count
            deal += 1
        return steps, moves, time.perf_counter() - start

    return run


def openspiel_runner() -> Runner | None:
    try:
        import pyspiel

        from crapette.openspiel import deal_actions
    except ImportError:
        return None

    def run(rules: RuleSet, seconds: float) -> tuple[int, int, float]:
        game = pyspiel.load_game(
            "crapette", {"rules": str(rules), "max_moves": MAX_MOVES, "revisits": rules.revisits}
        )
        steps = deal = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_initial_state()
            for action in deal_actions(deal):
                state.apply_action(action)
            choice = random.Random(deal).choice
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                steps += 1
            deal += 1
        return steps, steps, time.perf_counter() - start

    return run


def _keep_best(best: dict[str, tuple[float, float]], loop: str, steps: int, moves: int, elapsed: float) -> None:
    us = elapsed / moves * 1e6
    if loop not in best or us < best[loop][1]:
        best[loop] = (steps / elapsed, us)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per row (default 3)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds the time is split into (default 5)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument(
        "--revisits", action="store_true", help="play the presets with revisits on (the adapters' default is off)"
    )
    args = parser.parse_args(argv)

    runners: dict[str, Runner | None] = {
        "pettingzoo env()": pettingzoo_runner(wrapped=True),
        "pettingzoo raw_env": pettingzoo_runner(wrapped=False),
        "gymnasium": gymnasium_runner(),
        "openspiel": openspiel_runner(),
    }
    results: dict[str, Any] = {"python": sys.version.split()[0], "seconds": args.seconds, "revisits": args.revisits}
    share = args.seconds / args.rounds
    for name in PRESETS:
        # The rules as the adapters play them by default (revisits off), for every loop alike.
        rules = attrs.evolve(RuleSet.from_name(name), revisits=args.revisits)
        best: dict[str, tuple[float, float]] = {}  # loop -> (steps per second, us per move) of its best round
        for _round in range(args.rounds):
            moves, elapsed = crapette_playouts(rules, share)
            _keep_best(best, "raw engine", moves, moves, elapsed)
            for adapter, runner in runners.items():
                if runner is not None:
                    _keep_best(best, adapter, *runner(rules, share))
        raw_us = best["raw engine"][1]
        rows: dict[str, Any] = {}
        for loop in ("raw engine", *runners):
            if loop not in best:
                rows[loop] = None
                continue
            steps_per_s, us = best[loop]
            rows[loop] = {"steps_per_s": steps_per_s, "us_per_move": us, "overhead": us / raw_us}
        results[name] = rows
    if args.json:
        print(json.dumps(results, indent=2))
        return 0
    print(
        f"Python {results['python']}; random self-play for {args.seconds:g} s per row "
        f"in {args.rounds} rounds, the best kept; revisits {'on' if args.revisits else 'off'}; goal: overhead <= 3x\n"
    )
    header = f"{'preset':<8} {'loop':<20} {'steps/s':>10} {'us/move':>9} {'overhead':>9}"
    print(header)
    print("-" * len(header))
    for name in PRESETS:
        for adapter, row in results[name].items():
            if row is None:
                print(f"{name:<8} {adapter:<20} {'not installed':>30}")
                continue
            print(
                f"{name:<8} {adapter:<20} {row['steps_per_s']:>10,.0f} {row['us_per_move']:>9.2f} "
                f"{row['overhead']:>8.2f}x"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
