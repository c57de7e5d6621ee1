# requires: pettingzoo
"""Random agents play both seats of the PettingZoo environment: the loop every PettingZoo agent runs.

Each agent picks uniformly among the legal actions that its observation's
action mask shows. A classic game has no move limit, so the environment stops
one that lasts 2000 moves (truncation).
"""

import numpy as np

from crapette.pettingzoo import env


def main() -> None:
    game = env(rules="classic", max_moves=2000)
    rng = np.random.default_rng(0)
    for episode in range(3):
        game.reset(seed=episode)
        returns = dict.fromkeys(game.possible_agents, 0.0)
        for agent in game.agent_iter():
            observation, reward, termination, truncation, info = game.last()
            returns[agent] += reward
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(observation["action_mask"]))
            game.step(action)
        state = game.unwrapped.game_state
        ending = state.outcome or "stopped by the environment"
        print(f"deal {game.unwrapped.deal}: {state.move_count} moves, {ending}; returns {returns}")


if __name__ == "__main__":
    main()
