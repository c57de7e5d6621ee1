"""Write a bot of your own and measure it against the bots of crapette.bots.

A bot is any object with a choose(state) method returning one of legal_moves(state).
This one decides from the public view only (it cannot peek at face-down cards) and
asks the engine for the legal moves (it never decides by itself where a card may go).
"""

from crapette import GameState, Move, MoveStack, PileKind, Play, view
from crapette.bots import GreedyBot, RandomBot
from crapette.simulation import simulate

# The kind of pile a card comes from, best first: reserve cards are the hardest to get rid of.
SOURCE_ORDER = {PileKind.RESERVE: 0, PileKind.WASTE: 1, PileKind.TABLEAU: 2}
TARGET_ORDER = {PileKind.FOUNDATION: 0, PileKind.RESERVE: 1, PileKind.WASTE: 2, PileKind.TABLEAU: 3}


class ReserveFirstBot:
    """Plays from the reserve whenever it can, then from the waste, then draws.

    It moves cards between tableau piles only when nothing else is legal: a bot that
    prefers such moves to drawing can move one card to and fro for ever.
    """

    def choose(self, state: GameState) -> Move:
        seen = view(state)

        def rank(move: Move) -> tuple[int, int]:
            if isinstance(move, Play) and not (
                move.source.kind is PileKind.TABLEAU and move.target.kind is PileKind.TABLEAU
            ):
                return (SOURCE_ORDER[move.source.kind], TARGET_ORDER[move.target.kind])
            if isinstance(move, (Play, MoveStack)):
                return (4, 0)  # between tableau piles: last
            return (3, 0)  # draw, end turn, pass

        return min(seen.legal_moves, key=rank)

    def __repr__(self) -> str:
        return "ReserveFirstBot()"


if __name__ == "__main__":
    for opponent in (RandomBot(seed=1), GreedyBot()):
        report = simulate("classic", (ReserveFirstBot(), opponent), games=20, seed=7, max_moves=2000)
        print(report.summary())
        print()
