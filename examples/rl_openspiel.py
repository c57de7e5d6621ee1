# requires: pyspiel, open_spiel
"""OpenSpiel's IS-MCTS bot plays a game of Crapette against OpenSpiel's uniform random bot.

IS-MCTS (information-set Monte Carlo tree search) searches over what the bot
knows: each simulation starts from a state the bot cannot tell from the real
one (``resample_from_infostate`` deals the unseen cards afresh), walks the
tree and ends with a rollout. OpenSpiel's ``mcts.RandomRolloutEvaluator``
would do; the evaluator below plays its random rollouts with the crapette
engine itself, outside pyspiel, which is several times faster. A move limit of
150 keeps the game short: the classic scoring then settles it by the cards
each side has left. ``--simulations N`` sets the IS-MCTS bot's simulations
per move (40 by default; the test suite runs fewer).
"""

import argparse
import random

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import crapette.openspiel  # noqa: F401  (registers the game "crapette")
from crapette import apply_move, legal_moves
from crapette.episode import rewards


class EngineRollouts(mcts.Evaluator):
    """Values a state by one random playout to the end of the game, played by the crapette engine."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state):
        game_state, cap = state.game_state, state.get_game().max_game_length()
        while game_state.outcome is None and game_state.move_count < cap:
            game_state = apply_move(game_state, self.rng.choice(legal_moves(game_state)))
        return np.array((0.0, 0.0) if game_state.outcome is None else rewards(game_state.outcome))

    def prior(self, state):
        actions = state.legal_actions()
        return [(action, 1 / len(actions)) for action in actions]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=40, help="IS-MCTS simulations per move (default 40)")
    simulations = parser.parse_args().simulations
    game = pyspiel.load_game("crapette", {"rules": "classic(move_limit=150)"})
    bots = [
        ismcts.ISMCTSBot(
            game, EngineRollouts(1), uct_c=2.0, max_simulations=simulations, random_state=np.random.RandomState(2)
        ),
        pyspiel.make_uniform_random_bot(1, 3),
    ]
    state = game.new_initial_state()
    rng = np.random.RandomState(4)
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes())
            state.apply_action(rng.choice(actions, p=probabilities))
        else:
            state.apply_action(bots[state.current_player()].step(state))
    print(f"{state.game_state.move_count} moves: {state.game_state.outcome}")
    print(f"returns: IS-MCTS {state.returns()[0]:+g}, random {state.returns()[1]:+g}")


if __name__ == "__main__":
    main()
