"""Pit the bots of crapette.bots against each other on two processes, and print the reports.

The same seed gives the same report, whether the games run here or on a process pool.
``--games N`` sets the size of the matches (40 games of greedy against random,
and 6 of search against greedy, by default; the test suite plays a few).
"""

import argparse
from concurrent.futures import ProcessPoolExecutor

from crapette.bots import GreedyBot, RandomBot, SearchBot
from crapette.simulation import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games of greedy against random (default 40)")
    games = parser.parse_args().games
    search_games = max(2, games * 3 // 20)  # 6 for 40: a search bot's game costs more
    with ProcessPoolExecutor(max_workers=2) as pool:
        greedy_vs_random = simulate("classic", (GreedyBot(), RandomBot(seed=1)), games=games, seed=1, executor=pool)
        search_vs_greedy = simulate(
            "classic", (SearchBot(seed=1, budget=50), GreedyBot()), games=search_games, seed=1, executor=pool
        )
    print(greedy_vs_random.summary())
    print()
    print(search_vs_greedy.summary())
    assert simulate("classic", (GreedyBot(), RandomBot(seed=1)), games=games, seed=1) == greedy_vs_random


if __name__ == "__main__":  # a process pool needs this guard where processes are spawned
    main()
