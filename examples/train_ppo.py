# requires: sb3_contrib, torch
"""Train a MaskablePPO agent (sb3-contrib) to play Crapette on the CPU, save it, and play it as a crapette bot.

Install a CPU build of PyTorch first, then sb3-contrib (what the ``train`` extra
installs)::

    pip install torch --index-url https://download.pytorch.org/whl/cpu
    pip install "sb3-contrib>=2.3" "gymnasium>=1.0,<2" numpy

Then::

    python examples/train_ppo.py --minutes 20

trains against the random bot in the Gymnasium environment (the agent's seat
alternating from game to game, PyTorch on one thread, a potential-based
shaping reward of weight ``--shaping``, 1 by default), printing a line every
``--every`` agent steps (10,000 by default: the steps, the time, the games
finished since the line before and how they went), saves the policy to
``crapette_ppo.zip`` in the current directory (``--save`` for another file),
says where, and plays 20 games of it against the random bot. Without
``--minutes`` or ``--steps`` it trains 1,024 steps into a temporary file and
plays 2 games: a check that the recipe runs, not a player. The saved policy is a crapette bot: :class:`PPOBot`
loads it (from ``$CRAPETTE_PPO_MODEL``, else ``crapette_ppo.zip``) and plays
wherever a bot does::

    PYTHONPATH=examples crapette play --rules "classic(revisits=false)" --bot train_ppo:PPOBot
    PYTHONPATH=examples crapette simulate --rules "classic(revisits=false)" --bots train_ppo:PPOBot,random

Play it under the rules it learnt, with ``revisits=false``: under rules that
let a turn come back to a position, a policy's top choice may go round in
circles (the environment forbade that during training).

``--self-play K`` swaps in, every K steps, a frozen copy of the policy being
trained as the opponent (:class:`crapette.gymnasium.PolicyBot`), for half of
the environments. ``benchmarks/rl_train.py`` trains with this recipe and
measures the result.
"""

from __future__ import annotations

import argparse
import copy
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from crapette import GameState, Move, parse_rules
from crapette.gymnasium import CrapetteEnv, PolicyBot

try:
    import torch
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.vec_env import DummyVecEnv
except ImportError as error:  # pragma: no cover - depends on the environment
    raise SystemExit(
        "this example needs sb3-contrib and PyTorch: pip install torch --index-url "
        'https://download.pytorch.org/whl/cpu, then pip install "sb3-contrib>=2.3" (the train extra of crapette)'
    ) from error

DEFAULT_PATH = "crapette_ppo.zip"
RULES = "classic"
#: The rules as the environment plays them (revisits off), for playing the trained bot elsewhere.
PLAY_RULES = "classic(revisits=false)"
GAMMA = 0.997


class FlatObservation(gymnasium.ObservationWrapper):  # type: ignore[type-arg]
    """The environment with the observation vector alone (the mask goes to the agent by ``action_masks()``)."""

    def __init__(self, env: CrapetteEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["observation"]

    def observation(self, observation: dict[str, Any]) -> Any:
        return observation["observation"]

    def action_masks(self) -> Any:
        """The legal actions as booleans, which MaskablePPO asks for."""
        return self.env.unwrapped.action_masks()


class Shaped(gymnasium.Wrapper):  # type: ignore[type-arg]
    """Potential-based reward shaping: each step also earns ``gamma * phi(after) - phi(before)``.

    ``phi`` is ``weight`` times the opponent's penalty minus the agent's (the
    rules' weighted count of cards left, over 100), 0 once the episode is
    over. Shaping of this form leaves the best policies as they are (Ng et
    al., 1999) and gives the agent a signal at every step, not only at the end.
    """

    def __init__(self, env: Any, weight: float, gamma: float) -> None:
        super().__init__(env)
        self.weight, self.gamma = weight, gamma
        self.phi = 0.0

    def _phi(self) -> float:
        inner = self.env.unwrapped
        state, seat = inner.game_state, inner.seat
        scoring = state.rules.scoring

        def penalty(player: int) -> int:
            left = {"reserve": len(state.reserves[player]), "hand": len(state.hands[player]),
                    "waste": len(state.wastes[player])}
            return scoring.penalty(**left) if scoring is not None else sum(left.values())

        return self.weight * (penalty(1 - seat) - penalty(seat)) / 100

    def reset(self, **kwargs: Any) -> Any:
        result = self.env.reset(**kwargs)
        self.phi = self._phi()
        return result

    def step(self, action: Any) -> Any:
        observation, reward, terminated, truncated, info = self.env.step(action)
        info = {**info, "unshaped_reward": reward}  # how the game went, for the progress lines
        after = 0.0 if terminated or truncated else self._phi()
        reward += self.gamma * after - self.phi
        self.phi = after
        return observation, reward, terminated, truncated, info


def make_env(opponent: Any = "random", seed: int = 0, shaping: float = 1.0, **options: Any) -> FlatObservation:
    """One training environment: the agent's seat alternates between games; ``options`` go to CrapetteEnv.

    ``shaping`` > 0 adds :class:`Shaped` rewards of that weight.
    """
    env: Any = CrapetteEnv(RULES, opponent=opponent, seat="alternate", **options)
    if shaping:
        env = Shaped(env, shaping, GAMMA)
    env.reset(seed=seed)
    return FlatObservation(env)


def new_model(env: Any, seed: int = 0) -> MaskablePPO:
    """The agent: a masked PPO with a two-layer network, tuned for long episodes with a reward at the end."""
    return MaskablePPO(
        "MlpPolicy",
        env,
        learning_rate=3e-4,
        n_steps=512,
        batch_size=256,
        n_epochs=4,
        gamma=GAMMA,
        gae_lambda=0.95,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [256, 256]},
        seed=seed,
        device="cpu",
        verbose=0,
    )


class _Deadline(BaseCallback):  # type: ignore[misc]
    """Stops training at a wall-clock deadline; every ``self_play`` steps, freezes the policy as half the opponents.

    Every ``every`` steps (0: never) it prints a line: the steps so far, the
    minutes, and the games finished since the line before, won, lost and drawn.
    """

    def __init__(self, deadline: float, self_play: int | None, every: int = 0, total: int | None = None) -> None:
        super().__init__()
        self.deadline = deadline
        self.self_play = self_play
        self.last_freeze = 0
        self.every = every
        self.total = total
        self.started = time.monotonic()
        self.last_line = 0
        self.games = [0, 0, 0]  # won, lost, drawn since the last line

    def _on_step(self) -> bool:
        if self.self_play and self.num_timesteps - self.last_freeze >= self.self_play:
            self.last_freeze = self.num_timesteps
            frozen = PolicyBot(_Policy(self.model, deterministic=False))
            envs = self.training_env
            for i in range(0, envs.num_envs, 2):
                envs.env_method("set_wrapper_attr", "opponent", frozen, indices=[i])
        if self.every:
            self._count(self.locals.get("dones", ()), self.locals.get("infos", ()), self.locals.get("rewards", ()))
            if self.num_timesteps - self.last_line >= self.every:
                self.last_line = self.num_timesteps
                print(self.line(), flush=True)
        return time.monotonic() < self.deadline

    def _count(self, dones: Any, infos: Any, rewards: Any) -> None:
        for done, info, reward in zip(dones, infos, rewards):
            if done:
                result = info.get("unshaped_reward", reward)
                self.games[0 if result > 0 else 1 if result < 0 else 2] += 1

    def line(self) -> str:
        """How far training has come: steps, minutes, and the games since the line before."""
        steps = f"{self.num_timesteps:,}" + (f" of {self.total:,}" if self.total else "")
        won, lost, drawn = self.games
        self.games = [0, 0, 0]
        played = won + lost + drawn
        record = f"{played} game{'s' if played != 1 else ''} ({won} won, {lost} lost, {drawn} drawn)" if played else "no game finished"
        return f"{steps} steps, {(time.monotonic() - self.started) / 60:.1f} min: {record}"


class _Policy:
    """A frozen copy of a model's policy, as a function of an observation dict."""

    def __init__(self, model: MaskablePPO, deterministic: bool) -> None:
        self.policy = copy.deepcopy(model.policy)
        self.policy.set_training_mode(False)
        self.deterministic = deterministic

    def __call__(self, observation: dict[str, Any]) -> int:
        action, _ = self.policy.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool),
            deterministic=self.deterministic,
        )
        return int(action)


def train(
    *,
    minutes: float | None = None,
    steps: int | None = None,
    envs: int = 4,
    seed: int = 0,
    opponent: Any = "random",
    self_play: int | None = None,
    shaping: float = 1.0,
    save: str | Path | None = DEFAULT_PATH,
    every: int = 0,
) -> MaskablePPO:
    """Train for ``minutes`` of wall-clock time or ``steps`` agent moves (whichever comes first), save, return the model.

    ``every`` > 0 prints a line of progress every so many steps.
    """
    torch.set_num_threads(1)
    vec = DummyVecEnv([lambda i=i: make_env(opponent, seed=seed * 1000 + i, shaping=shaping) for i in range(envs)])
    model = new_model(vec, seed=seed)
    deadline = time.monotonic() + (minutes * 60 if minutes is not None else 1e12)
    callback = _Deadline(deadline, self_play, every, steps)
    model.learn(total_timesteps=steps if steps is not None else 10**12, callback=callback)
    if save is not None:
        model.save(str(save))
    return model


class PPOBot:
    """A policy trained by :func:`train` as a crapette bot: ``choose(state) -> Move``.

    ``PPOBot()`` loads ``$CRAPETTE_PPO_MODEL`` (else ``crapette_ppo.zip``), so
    ``crapette play --bot train_ppo:PPOBot`` plays it. ``deterministic``
    plays the policy's top choice; False samples from it (seeded by ``seed``).
    """

    def __init__(self, path: str | Path | None = None, *, deterministic: bool = True, seed: int = 0,
                 model: MaskablePPO | None = None) -> None:
        self.path = str(path or os.environ.get("CRAPETTE_PPO_MODEL", DEFAULT_PATH))
        if model is None and not os.path.isfile(self.path):
            # Said now, not at the first move (where the loader would look for PATH.zip.zip).
            raise FileNotFoundError(
                f"no trained policy at {self.path}: train one with python examples/train_ppo.py --minutes 20 "
                f"(it saves {DEFAULT_PATH} in the current directory), or point $CRAPETTE_PPO_MODEL at a saved policy"
            )
        self.deterministic = deterministic
        self.seed = seed
        self._model = model
        self._bot: PolicyBot | None = None

    def __repr__(self) -> str:
        return f"PPOBot({self.path!r}, deterministic={self.deterministic})"

    def __getstate__(self) -> dict[str, Any]:
        # A bot sent to another process loads the model again there.
        return {"path": self.path, "deterministic": self.deterministic, "seed": self.seed, "_model": None, "_bot": None}

    def _policy(self, observation: dict[str, Any]) -> int:
        assert self._model is not None
        action, _ = self._model.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool),
            deterministic=self.deterministic,
        )
        return int(action)

    def choose(self, state: GameState) -> Move:
        """The policy's move for the player to move in ``state``."""
        if self._bot is None:
            torch.set_num_threads(1)
            if self._model is None:
                self._model = MaskablePPO.load(self.path, device="cpu")
            if not self.deterministic:
                self._model.set_random_seed(self.seed)
            self._bot = PolicyBot(self._policy)
        return self._bot.choose(state)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=None, help="train for this long (wall clock)")
    parser.add_argument("--steps", type=int, default=None, help="or for this many agent moves")
    parser.add_argument("--envs", type=int, default=4, help="environments stepped together (default 4)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--self-play", type=int, default=None, metavar="K",
                        help="every K steps, a frozen copy of the policy becomes half the opponents")
    parser.add_argument("--shaping", type=float, default=1.0,
                        help="weight of the shaping reward (the change in the penalties' difference; default 1, 0 for none)")
    parser.add_argument("--save", default=None, help=f"where to save the policy (default {DEFAULT_PATH})")
    parser.add_argument("--games", type=int, default=None, help="games against the random bot afterwards (20)")
    parser.add_argument("--every", type=int, default=None, metavar="N",
                        help="a line of progress every N agent steps (default 10000; 0 for none)")
    args = parser.parse_args(argv)
    check = args.minutes is None and args.steps is None
    with tempfile.TemporaryDirectory() as scratch:
        if check:  # no length given: a quick check that the recipe runs
            args.steps, args.envs = 1024, 1
            args.save = args.save or os.path.join(scratch, DEFAULT_PATH)
            args.games = args.games or 2
            args.every = 256 if args.every is None else args.every
        save = os.path.abspath(args.save or DEFAULT_PATH)
        length = f"{args.minutes} minutes" if args.minutes is not None else f"{args.steps:,} steps"
        print(f"training against the random bot for {length}, {args.envs} environment(s)", flush=True)
        model = train(minutes=args.minutes, steps=args.steps, envs=args.envs, seed=args.seed,
                      self_play=args.self_play, shaping=args.shaping, save=save,
                      every=10_000 if args.every is None else args.every)
        if check:
            print(f"trained {model.num_timesteps:,} steps, a check that the recipe runs: the policy went to a "
                  "temporary file, removed at the end; give --minutes or --steps to keep one")
        else:
            print(f"trained {model.num_timesteps:,} steps; the policy is saved in {save}")
            where = "" if os.path.abspath(DEFAULT_PATH) == save else f"CRAPETTE_PPO_MODEL={save} "
            print(f'play it: {where}PYTHONPATH=examples crapette play --rules "{PLAY_RULES}" --bot train_ppo:PPOBot')
        from crapette.bots import RandomBot
        from crapette.simulation import simulate

        bots = [PPOBot(save), RandomBot()]
        print(simulate(parse_rules(PLAY_RULES), bots, games=args.games or 20, seed=1, max_moves=3000))


if __name__ == "__main__":
    main()
