# requires: gymnasium
"""A random agent plays the Gymnasium environment against the greedy bot.

The agent picks uniformly among the legal actions of the observation's action
mask; the environment plays the opponent's moves between the agent's.
"""

import gymnasium
import numpy as np

import crapette.gymnasium

gymnasium.register_envs(crapette.gymnasium)


def main() -> None:
    env = gymnasium.make("crapette/Classic-v0", opponent="greedy", max_moves=2000)
    rng = np.random.default_rng(0)
    for episode in range(3):
        observation, info = env.reset(seed=episode)
        total, steps, done = 0.0, 0, False
        while not done:
            action = rng.choice(np.flatnonzero(observation["action_mask"]))
            observation, reward, terminated, truncated, info = env.step(action)
            total, steps, done = total + reward, steps + 1, terminated or truncated
        state = env.unwrapped.game_state
        ending = state.outcome or "stopped by the environment"
        print(f"deal {info['deal']}: {steps} steps ({state.move_count} moves), {ending}; reward {total:+g}")
    env.close()


if __name__ == "__main__":
    main()
