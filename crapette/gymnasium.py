"""Crapette as a Gymnasium environment: the agent plays one seat against a bot.

This module needs Gymnasium: ``pip install "crapette[gymnasium]"``. Importing
it registers two environment ids, ``crapette/Classic-v0`` and
``crapette/Casual-v0`` (the two presets; any other rules are a keyword
argument away):

>>> import gymnasium
>>> import crapette.gymnasium
>>> env = gymnasium.make("crapette/Classic-v0", opponent="greedy", max_moves=400)
>>> observation, info = env.reset(seed=7)
>>> total, done = 0.0, False
>>> while not done:
...     action = env.unwrapped.np_random.choice(observation["action_mask"].nonzero()[0])
...     observation, reward, terminated, truncated, info = env.step(action)
...     total, done = total + reward, terminated or truncated
>>> env.unwrapped.game_state.move_count <= 400
True

The agent sees a dict: the ``"observation"`` is
:func:`crapette.observation.encode` of the public view for the agent's seat,
the ``"action_mask"`` is :func:`crapette.observation.action_mask` (all zeros
once the episode is over); :meth:`CrapetteEnv.action_masks` gives the mask
too, as the maskable agents of sb3-contrib ask for it. An action is an action
number of :func:`crapette.move_to_action`; one step plays the agent's move,
then the opponent's moves until it is the agent's turn again.

The episode ends as the game does: *terminated*, with the agent's reward from
:func:`crapette.observation.rewards` (the scores' difference when the rules
score, else 1, -1 or 0); or *truncated*, reward 0, when the environment stops
a game the rules have not ended after ``max_moves`` moves (ruling R10: under
rules without a move limit a game need not end). Every other step earns 0.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import operator
from typing import TYPE_CHECKING, Any, SupportsIndex

from crapette import (
    NUM_ACTIONS,
    GameState,
    IllegalMoveError,
    Move,
    RuleSet,
    action_to_move,
    apply_move,
    new_game,
)
from crapette.bots import Bot, RandomBot, make_bot
from crapette.text import render_text
from crapette.protocol import DEFAULT_MAX_MOVES

try:
    import gymnasium
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('crapette.gymnasium needs Gymnasium: pip install "crapette[gymnasium]"') from error

from crapette.observation import (
    HIGH,
    LOW,
    _check_count,
    _reset_deal,
    _check_reward,
    _to_rules,
    action_mask,
    encode,
    rewards,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["ENV_IDS", "CrapetteEnv", "observation_space"]

#: The registered ids and the rules they play.
ENV_IDS: dict[str, str] = {"crapette/Classic-v0": "classic", "crapette/Casual-v0": "casual"}

_RENDER_MODES = ("human", "ansi")
_MAX_DEAL = 2**64
# Deals in which the game ends before the agent's first move are dealt again, this many times at most.
_MAX_REDEALS = 1000

# The observation: {"observation": ..., "action_mask": ...}.
Observation = dict[str, Any]


def observation_space() -> gymnasium.spaces.Dict:
    """The space of the observations of both adapters: ``"observation"`` and ``"action_mask"`` boxes.

    >>> observation_space()["observation"].shape, observation_space()["action_mask"].shape
    ((2104,), (903,))
    """
    return gymnasium.spaces.Dict(
        {
            "observation": gymnasium.spaces.Box(LOW, HIGH, dtype=np.float32),
            "action_mask": gymnasium.spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
        }
    )


def _to_opponent(opponent: object) -> Bot:
    if opponent is None:
        return RandomBot()
    if isinstance(opponent, str):
        return make_bot(opponent)
    if isinstance(opponent, Bot):
        return opponent
    raise TypeError(
        f"opponent must be a bot (an object with a choose(state) method) or a bot's name, got {opponent!r}"
    )


class CrapetteEnv(gymnasium.Env[Observation, np.int64]):
    """Crapette for one agent, who plays seat ``seat`` against ``opponent``.

    :param rules: the rules: a :class:`~crapette.RuleSet`, or its text as
        :func:`~crapette.parse_rules` reads it (``"classic"``, ``"casual"``,
        ``"classic(move_limit=200)"``).
    :param opponent: the other player: any :class:`crapette.bots.Bot`, or a
        name for :func:`crapette.bots.make_bot` (``"random"``, ``"greedy"``,
        ``"search"``); None for a :class:`~crapette.bots.RandomBot`.
    :param seat: the player the agent is, 0 or 1.
    :param max_moves: the environment stops a game after this many moves in
        all (truncation) if the rules have not ended it;
        :data:`crapette.protocol.DEFAULT_MAX_MOVES` by default.
    :param illegal_reward: what an illegal action earns: it ends the episode
        (terminated, with ``info["illegal_action"]`` True), as in PettingZoo's
        classic games. None raises :class:`~crapette.IllegalMoveError` instead.
    :param render_mode: None, ``"ansi"`` (:meth:`render` returns the table as
        text, the agent's seat at the bottom) or ``"human"`` (:meth:`render`,
        and every step, prints it).
    :raises TypeError: if an argument has the wrong type.
    :raises ValueError: if ``seat`` is not 0 or 1, ``max_moves`` below 1, or
        ``render_mode`` unknown.

    :meth:`reset` deals a new game. Its ``seed`` seeds the environment's
    generator, from which each reset draws the deal: the number given to
    :func:`~crapette.new_game`, returned in ``info["deal"]`` and kept in
    :attr:`deal`. ``options={"deal": n}`` deals game ``n`` instead; any
    other option is refused (:class:`ValueError`), options that are not a dict
    too (:class:`TypeError`). If the opponent moves first, it plays its turn before
    :meth:`reset` returns. A drawn deal in which the game ends before the
    agent's first move (which only a very small ``max_moves`` makes likely) is
    replaced by the next one drawn; a chosen one raises :class:`ValueError`.
    The opponent's choices depend only on the position (the bots of
    :mod:`crapette.bots` are pure functions of the public view), so the same
    seed and the same actions replay the same game.

    >>> from crapette import move_to_action, parse_move
    >>> env = CrapetteEnv("casual", seat=1, render_mode="ansi")
    >>> observation, info = env.reset(options={"deal": 1})
    >>> info["deal"], env.game_state.current_player, env.game_state.move_count > 0
    (1, 1, True)
    >>> observation, reward, terminated, truncated, info = env.step(move_to_action(parse_move("end")))
    >>> reward, terminated, info["illegal_action"]
    (-1.0, True, True)
    """

    metadata: dict[str, Any] = {"render_modes": list(_RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        rules: RuleSet | str = "classic",
        *,
        opponent: Bot | str | None = None,
        seat: int = 0,
        max_moves: int = DEFAULT_MAX_MOVES,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.rules: RuleSet = _to_rules(rules)
        self.opponent: Bot = _to_opponent(opponent)
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise TypeError(f"seat must be 0 or 1, got {seat!r}")
        if seat not in (0, 1):
            raise ValueError(f"seat must be 0 or 1, got {seat!r}")
        self.seat: int = seat
        self.max_moves: int = _check_count("max_moves", max_moves)
        self.illegal_reward = _check_reward(illegal_reward)
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        #: The number of the game dealt by the last :meth:`reset`.
        self.deal: int = 0
        #: The current state of the game.
        self.game_state: GameState = new_game(self.rules, 0)
        self._done = True

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play the opponent's moves until the agent is to move."""
        chosen = _reset_deal(options)
        super().reset(seed=seed)
        if chosen is not None:
            self.deal = chosen
            self.game_state = self._play_opponent(new_game(self.rules, self.deal))
            if self._episode_over():
                raise ValueError(f"in deal {self.deal} the game ends before the agent's first move")
        else:
            for _ in range(_MAX_REDEALS):
                self.deal = int(self.np_random.integers(_MAX_DEAL, dtype=np.uint64))
                self.game_state = self._play_opponent(new_game(self.rules, self.deal))
                if not self._episode_over():
                    break
            else:
                raise RuntimeError(
                    f"in {_MAX_REDEALS} deals the game ended before the agent's first move: raise max_moves"
                )
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"deal": self.deal}

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the opponent's moves: observation, reward, terminated, truncated, info."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() to deal a new game")
        move = action_to_move(action)
        try:
            state = apply_move(self.game_state, move)
        except IllegalMoveError as error:
            if self.illegal_reward is None:
                raise IllegalMoveError(f"action {operator.index(action)}: {error}") from None
            self._done = True
            info = {"deal": self.deal, "illegal_action": True}
            return self._observation(), self.illegal_reward, True, False, info
        self.game_state = state = self._play_opponent(state)
        outcome = state.outcome
        reward = 0.0 if outcome is None else rewards(outcome)[self.seat]
        terminated = outcome is not None
        truncated = not terminated and state.move_count >= self.max_moves
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, truncated, {"deal": self.deal, "illegal_action": False}

    def _episode_over(self) -> bool:
        state = self.game_state
        return state.outcome is not None or state.move_count >= self.max_moves

    def _play_opponent(self, state: GameState) -> GameState:
        seat, opponent, cap = self.seat, self.opponent, self.max_moves
        while state.current_player != seat and state.outcome is None and state.move_count < cap:
            move = opponent.choose(state)
            if not isinstance(move, Move):
                raise TypeError(f"the opponent {opponent!r} returned {move!r}, not a Move")
            try:
                state = apply_move(state, move)
            except IllegalMoveError as error:
                raise IllegalMoveError(f"the opponent {opponent!r} chose an illegal move: {error}") from None
        return state

    def _mask(self) -> NDArray[np.int8]:
        if self._done:
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return action_mask(self.game_state)

    def _observation(self) -> Observation:
        return {"observation": encode(self.game_state, self.seat), "action_mask": self._mask()}

    def action_masks(self) -> NDArray[np.bool_]:
        """The legal actions as booleans (the method sb3-contrib's maskable agents call)."""
        mask: NDArray[np.bool_] = self._mask().astype(np.bool_)
        return mask

    def render(self) -> str | None:
        """The table as text (mode ``"ansi"``), or print it (mode ``"human"``); see :func:`crapette.text.render_text`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: make the env with render_mode='ansi'")
            return None
        text = render_text(self.game_state, perspective=self.seat)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def _register() -> None:
    for env_id, rules in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="crapette.gymnasium:CrapetteEnv", kwargs={"rules": rules})


_register()
