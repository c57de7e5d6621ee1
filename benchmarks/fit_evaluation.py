"""Fit the planning bot's position evaluation (crapette/evaluation.py) by self-play.

Run ``python benchmarks/fit_evaluation.py --games 400 [--rules classic]``
(needs NumPy). It plays games between two GreedyBots (seeded deals, so the
same arguments give the same data), and at the last position of every turn
(the position the mover leaves to the opponent) records the features of
``crapette.evaluation.features`` from the mover's side and whether the mover
went on to win. A logistic regression (Newton's method, a small ridge
penalty) fits the log-odds of winning; the script prints the weights, ready
to paste into ``WEIGHTS``, with the held-out log loss and accuracy (every
fifth deal held out) against the card count alone.
"""

from __future__ import annotations

import argparse
import sys

from crapette import apply_move, new_game
from crapette.evaluation import FITTED_FEATURES, features
from crapette.bots import GreedyBot

try:
    import numpy as np
except ImportError:  # pragma: no cover
    sys.exit("this script needs NumPy: pip install numpy")


def collect(rules: str, games: int, max_moves: int) -> tuple[list[tuple[float, ...]], list[int], list[int]]:
    rows: list[tuple[float, ...]] = []
    labels: list[int] = []
    deals: list[int] = []
    bot = GreedyBot()
    for deal in range(games):
        state = new_game(rules, seed=deal)
        pending: list[tuple[tuple[float, ...], int]] = []
        while not state.is_over and state.move_count < max_moves:
            after = apply_move(state, bot.choose(state))
            if after.current_player != state.current_player and not after.is_over:
                # A turn starts: the position from the side of the player to move,
                # as the planning bot sees the ends of its turn before moving on.
                pending.append((features(after, after.current_player), after.current_player))
            state = after
        outcome = state.outcome
        if outcome is None or outcome.winner is None:
            continue
        for row, player in pending:
            rows.append(row)
            labels.append(int(outcome.winner == player))
            deals.append(deal)
        if (deal + 1) % 25 == 0 or deal + 1 == games:
            print(f"\r{deal + 1}/{games} games, {len(rows)} positions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return rows, labels, deals


def fit(x: np.ndarray, y: np.ndarray, ridge: float = 1e-3) -> np.ndarray:
    """Logistic regression with an intercept (the last weight)."""
    x1 = np.hstack([x, np.ones((len(x), 1))])
    w = np.zeros(x1.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-x1 @ w))
        gradient = x1.T @ (p - y) + ridge * w
        hessian = (x1 * (p * (1 - p))[:, None]).T @ x1 + ridge * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    return w


def loss(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    x1 = np.hstack([x, np.ones((len(x), 1))])
    p = np.clip(1 / (1 + np.exp(-x1 @ w)), 1e-9, 1 - 1e-9)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p))), float(np.mean((p > 0.5) == (y == 1)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--max-moves", type=int, default=3000)
    args = parser.parse_args()
    rows, labels, deals = collect(args.rules, args.games, args.max_moves)
    x = np.array(rows)
    y = np.array(labels, dtype=float)
    held = np.array([d % 5 == 0 for d in deals])
    w = fit(x[~held], y[~held])
    # The card count alone: the penalty difference as the classic scoring weighs it.
    cards = (2 * (x[:, 2] - x[:, 0]) + (x[:, 3] - x[:, 1]))[:, None]
    wc = fit(cards[~held], y[~held])
    print(f"{len(rows)} positions from {args.games} {args.rules} games ({int(held.sum())} held out)")
    for name, weight in zip(FITTED_FEATURES, w):
        print(f"  {name:32s} {weight:+.4f}")
    print(f"  {'intercept':32s} {w[-1]:+.4f}")
    full, acc = loss(x[held], y[held], w)
    base, acc0 = loss(cards[held], y[held], wc)
    print(f"held-out log loss {full:.4f} (card count alone {base:.4f}), accuracy {acc:.3f} ({acc0:.3f})")
    print("WEIGHTS = (" + ", ".join(f"{weight:.4f}" for weight in w[:-1]) + ")")


if __name__ == "__main__":
    main()
