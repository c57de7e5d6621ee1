"""Train MaskablePPO on Crapette for a given time, then measure the policy against the random and greedy bots.

Run ``python benchmarks/rl_train.py --minutes 20`` (needs the ``train`` extra
and PyTorch: see ``examples/train_ppo.py``). It trains with the recipe of
``examples/train_ppo.py`` (classic rules as the Gymnasium environment plays
them: ``revisits`` off, a player forfeits at 200 moves in one turn; the
opponent the random bot; the agent's seat alternating; the shaping reward of
weight ``--shaping``, 1 by default), with PyTorch limited
to one thread, for ``--minutes`` of wall-clock time. ``--minutes 20,40,80``
trains on to each total in turn and measures at each (the growth with 2x and
4x the training time); the time spent measuring is not training time.

Each measurement plays ``--deals`` deals (100 by default) twice, the policy
taking each seat once (deal-paired, seat-swapped: 200 games), through the
Gymnasium environment with the deal and the seat chosen at reset, against
each opponent (``random``, ``greedy``) with the policy's top choice
(deterministic) and sampling from it. For each it prints the games won, lost
and drawn as the rules ended them, forfeited by the policy (turn cap) or by
the opponent, and cut off by the environment (``max_moves``); the policy's
share of the decided games (won or lost, forfeits included) with a 95% Wilson
interval; and its mean return (1 a win, -1 a loss, a cut-off game settled by
penalties) with a 95% interval over the deals (a t-interval on the per-deal
mean of the two seats). ``--json FILE`` writes the figures too.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "examples"))

from train_ppo import RULES, PPOBot, _Deadline, make_env, new_model  # noqa: E402

from crapette.bots import GreedyBot, RandomBot  # noqa: E402
from crapette.gymnasium import CrapetteEnv  # noqa: E402

import torch  # noqa: E402
from stable_baselines3.common.vec_env import DummyVecEnv  # noqa: E402


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion ``wins / n``."""
    if n == 0:
        return (math.nan, math.nan)
    z = 1.959964
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation; 100 values or more)."""
    mean = statistics.fmean(values)
    half = 1.959964 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan
    return (mean, mean - half, mean + half)


def play(bot: PPOBot, opponent: Any, deal: int, seat: int) -> tuple[str, float, int]:
    """One game of ``bot`` in seat ``seat`` against ``opponent``: how it ended, the bot's return, its length."""
    env = CrapetteEnv(RULES, opponent=opponent)
    observation, _info = env.reset(seed=deal, options={"deal": deal, "seat": seat})
    while True:
        action = bot._policy(observation)
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break
    state = env.game_state
    if info["forfeit"] is not None:
        how = "forfeited" if info["forfeit"] == seat else "opponent forfeited"
    elif truncated:
        how = "cut off"
    elif state.outcome is not None and state.outcome.winner is None:
        how = "drawn"
    else:
        how = "won" if reward > 0 else "lost"
    return how, float(reward), state.move_count


KINDS = ("won", "lost", "drawn", "forfeited", "opponent forfeited", "cut off")


def measure(model: Any, deals: int, first_deal: int = 10**6) -> list[dict[str, Any]]:
    """The table rows: each opponent, each way of choosing, over ``deals`` deals played from both seats."""
    rows = []
    for opponent_name, opponent in (("random", RandomBot()), ("greedy", GreedyBot())):
        for deterministic in (True, False):
            bot = PPOBot(model=model, deterministic=deterministic, seed=1)
            counts = dict.fromkeys(KINDS, 0)
            per_deal = []
            lengths = []
            started = time.monotonic()
            for deal in range(first_deal, first_deal + deals):
                pair = []
                for seat in (0, 1):
                    how, reward, length = play(bot, opponent, deal, seat)
                    counts[how] += 1
                    pair.append(reward)
                    lengths.append(length)
                per_deal.append(statistics.fmean(pair))
            won = counts["won"] + counts["opponent forfeited"]
            decided = won + counts["lost"] + counts["forfeited"]
            low, high = wilson(won, decided)
            mean, mlow, mhigh = mean_interval(per_deal)
            rows.append(
                {
                    "opponent": opponent_name,
                    "policy": "deterministic" if deterministic else "sampling",
                    "games": 2 * deals,
                    **counts,
                    "win_share_of_decided": won / decided if decided else math.nan,
                    "win_share_95": [low, high],
                    "cut_off_share": counts["cut off"] / (2 * deals),
                    "mean_return": mean,
                    "mean_return_95": [mlow, mhigh],
                    "mean_moves": statistics.fmean(lengths),
                    "seconds": time.monotonic() - started,
                }
            )
    return rows


def show(minutes: float, steps: int, rows: list[dict[str, Any]]) -> str:
    lines = [f"after {minutes:g} minutes of training ({steps} agent moves):",
             f"{'opponent':8} {'policy':13} {'won':>4} {'lost':>4} {'drawn':>5} {'forf.':>5} {'opp.f.':>6} "
             f"{'cut':>4}  {'won/decided (95%)':24} {'cut off':>7}  {'mean return (95%)':24}"]
    for r in rows:
        low, high = r["win_share_95"]
        mlow, mhigh = r["mean_return_95"]
        lines.append(
            f"{r['opponent']:8} {r['policy']:13} {r['won']:4} {r['lost']:4} {r['drawn']:5} {r['forfeited']:5} "
            f"{r['opponent forfeited']:6} {r['cut off']:4}  "
            f"{r['win_share_of_decided']:6.1%} ({low:6.1%}-{high:6.1%})   {r['cut_off_share']:7.1%}  "
            f"{r['mean_return']:+.3f} ({mlow:+.3f} to {mhigh:+.3f})"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", default="20", help="training time in minutes, or totals such as 20,40,80")
    parser.add_argument("--deals", type=int, default=100, help="deals per measurement, each played from both seats")
    parser.add_argument("--envs", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--shaping", type=float, default=1.0, help="weight of the shaping reward (train_ppo.Shaped; default 1, 0 for none)"
    )
    parser.add_argument("--save", default=None, help="save the policy here after each stage (NAME-<minutes>.zip)")
    parser.add_argument("--json", default=None, help="write the figures to this file as JSON")
    args = parser.parse_args(argv)
    totals = [float(m) for m in args.minutes.split(",")]
    torch.set_num_threads(1)
    vec = DummyVecEnv([lambda i=i: make_env("random", seed=args.seed * 1000 + i, shaping=args.shaping) for i in range(args.envs)])
    model = new_model(vec, seed=args.seed)
    trained = 0.0
    results = []
    for total in totals:
        started = time.monotonic()
        model.learn(
            total_timesteps=10**12,
            callback=_Deadline(started + (total - trained) * 60, None),
            reset_num_timesteps=False,
        )
        trained = total
        steps = int(model.num_timesteps)
        if args.save:
            model.save(f"{args.save}-{total:g}.zip")
        rows = measure(model, args.deals)
        results.append({"minutes": total, "steps": steps, "rows": rows})
        print(show(total, steps, rows), flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps(results, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
