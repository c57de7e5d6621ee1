"""How often each bot comes back, within one turn, to a position it already had.

Run ``python benchmarks/revisits.py --games 50 --bots search,greedy`` (any
names of ``crapette.bots.make_bot``, or ``SearchBot`` / ``TreeSearchBot`` for
those classes at their defaults). Each bot plays ``--games`` games against
GreedyBot, seats swapped every game, from seeded deals; the script counts the
moves of the bot and the moves after which the position (everything but the
move count) is one the bot already had earlier in the same turn.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from crapette import GameState, apply_move, new_game
from crapette.bots import GreedyBot, SearchBot, TreeSearchBot, make_bot


def _position(state: GameState) -> tuple[Any, ...]:
    return (state.piles, state.current_player, state.drawn, state.passes, state.exhausted, state.played)


def _bot(name: str, seed: int) -> Any:
    if name == "SearchBot":
        return SearchBot(seed)
    if name == "TreeSearchBot":
        return TreeSearchBot(seed)
    return make_bot(name, seed)


def count(name: str, rules: str, games: int, max_moves: int) -> tuple[int, int]:
    moves = revisits = 0
    for game in range(games):
        seat = game % 2
        bots = [GreedyBot(), GreedyBot()]
        bots[seat] = _bot(name, 1)
        state = new_game(rules, seed=game // 2)
        turn: set[tuple[Any, ...]] = set()
        while not state.is_over and state.move_count < max_moves:
            player = state.current_player
            after = apply_move(state, bots[player].choose(state))
            if player == seat:
                moves += 1
                turn.add(_position(state))
                if after.current_player == player and _position(after) in turn:
                    revisits += 1
            if after.current_player != player:
                turn = set()
            state = after
        print(f"\r{name}: {game + 1}/{games} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return moves, revisits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--bots", default="search,greedy")
    parser.add_argument("--max-moves", type=int, default=1000)
    args = parser.parse_args()
    for name in args.bots.split(","):
        moves, revisits = count(name, args.rules, args.games, args.max_moves)
        print(f"{args.rules} {name}: {revisits} returns to a position of the same turn in {moves} moves ({args.games} games)")


if __name__ == "__main__":
    main()
