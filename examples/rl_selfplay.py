# requires: pettingzoo
"""Self-play in the PettingZoo environment: a learning policy against frozen copies of itself.

The learner is a linear softmax policy over the legal actions, trained by
REINFORCE on the return of each game (+1 a win, -1 a loss). Every few games a
frozen copy of it becomes the opponent, and the learner's seat alternates from
game to game. The loop is the one any self-play trainer runs over the AEC
environment: one policy per agent, chosen afresh at each reset. (A linear
policy learns little; ``examples/train_ppo.py`` trains a real one.)
"""

import copy

import numpy as np

from crapette import NUM_ACTIONS
from crapette.observation import OBSERVATION_SIZE
from crapette.pettingzoo import env


class LinearPolicy:
    """A softmax over the legal actions of ``weights @ observation``."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.weights = np.zeros((NUM_ACTIONS, OBSERVATION_SIZE), dtype=np.float32)

    def probabilities(self, observation: dict) -> tuple[np.ndarray, np.ndarray]:
        legal = np.flatnonzero(observation["action_mask"])
        logits = self.weights[legal] @ observation["observation"]
        p = np.exp(logits - logits.max())
        return legal, p / p.sum()

    def act(self, observation: dict) -> int:
        legal, p = self.probabilities(observation)
        return int(self.rng.choice(legal, p=p))

    def learn(self, steps: list[tuple[dict, int]], ret: float, rate: float = 0.01) -> None:
        """REINFORCE: raise the log-probability of each action taken by ``rate * ret``."""
        for observation, action in steps:
            legal, p = self.probabilities(observation)
            grad = -p
            grad[np.flatnonzero(legal == action)[0]] += 1
            self.weights[legal] += rate * ret * np.outer(grad, observation["observation"])


def main(games: int = 6, freeze_every: int = 2) -> None:
    game = env(rules="casual", max_moves=600)
    learner = LinearPolicy(seed=0)
    frozen = copy.deepcopy(learner)
    for episode in range(games):
        if episode % freeze_every == 0:
            frozen = copy.deepcopy(learner)  # the opponent: the learner as it was
        seat = game.possible_agents[episode % 2]
        policies = {agent: learner if agent == seat else frozen for agent in game.possible_agents}
        game.reset(seed=episode)
        steps, ret = [], 0.0
        for agent in game.agent_iter():
            observation, reward, termination, truncation, info = game.last()
            if agent == seat:
                ret += reward
            if termination or truncation:
                game.step(None)
                continue
            action = policies[agent].act(observation)
            if agent == seat:
                steps.append((observation, action))
            game.step(action)
        learner.learn(steps, ret)
        state = game.unwrapped.game_state
        print(f"game {episode}: learner as {seat}, {state.move_count} moves, {state.outcome or 'cut off'}; return {ret:+g}")


if __name__ == "__main__":
    main()
