"""Pit the bots of crapette.bots against each other on two processes, and print the reports.

The same seed gives the same report, whether the games run here or on a process pool.
"""

from concurrent.futures import ProcessPoolExecutor

from crapette.bots import GreedyBot, RandomBot, SearchBot
from crapette.simulation import simulate


def main() -> None:
    with ProcessPoolExecutor(max_workers=2) as pool:
        greedy_vs_random = simulate("classic", (GreedyBot(), RandomBot(seed=1)), games=40, seed=1, executor=pool)
        search_vs_greedy = simulate(
            "classic", (SearchBot(seed=1, budget=50), GreedyBot()), games=6, seed=1, executor=pool
        )
    print(greedy_vs_random.summary())
    print()
    print(search_vs_greedy.summary())
    assert simulate("classic", (GreedyBot(), RandomBot(seed=1)), games=40, seed=1) == greedy_vs_random


if __name__ == "__main__":  # a process pool needs this guard where processes are spawned
    main()
