"""Crapette as a PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``.

This module needs PettingZoo: ``pip install "crapette[pettingzoo]"``.
:func:`env` makes the environment with PettingZoo's usual order-enforcing
wrapper, :class:`raw_env` without it. Each agent observes a dict: the
``"observation"`` is :func:`crapette.observation.encode` of the public view
for that agent, the ``"action_mask"`` is :func:`crapette.observation.action_mask`
for the agent to move (all zeros for the other agent and once the game is
over). Actions are the action numbers of :func:`crapette.move_to_action`. A
player often makes several moves in a row, so the same agent may be selected
several times running.

>>> import numpy as np
>>> from crapette.pettingzoo import env
>>> game = env(rules="casual", max_moves=50)
>>> game.reset(seed=42)
>>> rng = np.random.default_rng(0)
>>> for agent in game.agent_iter():
...     observation, reward, termination, truncation, info = game.last()
...     if termination or truncation:
...         action = None
...     else:
...         action = rng.choice(np.flatnonzero(observation["action_mask"]))
...     game.step(action)
>>> game.unwrapped.game_state.move_count, game.unwrapped.game_state.is_over
(50, False)

The game ends as the rules end it: every agent is then *terminated* with the
rewards of :func:`crapette.observation.rewards` (the scores' difference when
the rules score, else 1, -1 or 0). A game the rules have not ended after
``max_moves`` moves is stopped by the environment (ruling R10: under rules
without a move limit a game need not end): every agent is then *truncated*,
with reward 0.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crapette import (
    NUM_ACTIONS,
    GameState,
    IllegalMoveError,
    RuleSet,
    action_to_move,
    apply_move,
    new_game,
)
from crapette.text import render_text
from crapette.protocol import DEFAULT_MAX_MOVES

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('crapette.pettingzoo needs PettingZoo: pip install "crapette[pettingzoo]"') from error

from crapette.gymnasium import observation_space
from crapette.observation import _check_count, _check_reward, _reset_deal, _to_rules, action_mask, encode, rewards

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["AGENTS", "env", "raw_env"]

#: The agents' names: ``player_0`` plays as player 0, ``player_1`` as player 1.
AGENTS: tuple[str, str] = ("player_0", "player_1")

_PLAYERS = {agent: player for player, agent in enumerate(AGENTS)}
_RENDER_MODES = ("human", "ansi")
_MAX_DEAL = 2**64


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The Crapette AEC environment, without wrappers (see :func:`env`).

    :param rules: the rules: a :class:`~crapette.RuleSet`, or its text as
        :func:`~crapette.parse_rules` reads it (``"classic"``, ``"casual"``,
        ``"classic(move_limit=200)"``).
    :param max_moves: the environment stops a game after this many moves
        (truncation) if the rules have not ended it;
        :data:`crapette.protocol.DEFAULT_MAX_MOVES` by default.
    :param illegal_reward: what an illegal action earns the agent that plays
        it: it ends the game (every agent terminated, the others earning 0,
        ``infos[agent]["illegal_action"]`` True), as in PettingZoo's classic
        games. None raises :class:`~crapette.IllegalMoveError` instead.
    :param render_mode: None, ``"ansi"`` (:meth:`render` returns the table as
        text) or ``"human"`` (:meth:`render`, and every step, prints it).
    :raises TypeError: if an argument has the wrong type.
    :raises ValueError: if ``max_moves`` is below 1 or ``render_mode`` unknown.
    :raises crapette.ParseError: if the rules' text cannot be read.

    :meth:`reset` deals a new game. Its ``seed`` seeds the environment's
    generator, from which each reset draws the deal: the number given to
    :func:`~crapette.new_game`, kept in :attr:`deal`. ``options={"deal": n}``
    deals game ``n`` instead (:class:`TypeError` or :class:`ValueError` if
    ``n`` is not a deal number, 0 to ``2**64 - 1``); options that are not a
    dict are a :class:`TypeError`, and any other key is ignored with a
    :class:`UserWarning` naming it (PettingZoo's ``api_test`` requires that
    ``reset`` accept options it does not know). :attr:`game_state` is the current :class:`~crapette.GameState`.

    :meth:`step` plays the action of the selected agent: an action number
    (:class:`ValueError` if it is out of range), or None for an agent that is done.

    >>> game = raw_env(rules="classic", illegal_reward=None, render_mode="ansi")
    >>> game.reset(options={"deal": 1})
    >>> game.deal, game.agent_selection
    (1, 'player_0')
    >>> print(game.render().splitlines()[0])
    classic · move 0 · player 0 to move
    >>> from crapette import move_to_action, parse_move
    >>> game.step(move_to_action(parse_move("T0-F0")))
    Traceback (most recent call last):
    ...
    crapette.IllegalMoveError: action 0 of player_0: illegal move T0-F0: ...
    >>> game.step(move_to_action(parse_move("R0-T5")))
    >>> game.game_state.move_count, game.agent_selection
    (1, 'player_0')
    """

    metadata: dict[str, Any] = {
        "name": "crapette_v0",
        "render_modes": list(_RENDER_MODES),
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rules: RuleSet | str = "classic",
        *,
        max_moves: int = DEFAULT_MAX_MOVES,
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules: RuleSet = _to_rules(rules)
        self.max_moves: int = _check_count("max_moves", max_moves)
        self.illegal_reward = _check_reward(illegal_reward)
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = observation_space()
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._np_random: np.random.Generator | None = None
        #: The number of the game dealt by the last :meth:`reset`.
        self.deal: int = 0
        #: The current state of the game.
        self.game_state: GameState = new_game(self.rules, 0)
        self._start_episode(0)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent``: a dict of ``"observation"`` and ``"action_mask"`` boxes."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: game ``options["deal"]``, or one drawn from the generator ``seed`` seeds."""
        deal = _reset_deal(options, refuse_unknown=False)
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        if deal is None:
            deal = int(self._np_random.integers(_MAX_DEAL, dtype=np.uint64))
        self._start_episode(deal)

    def _start_episode(self, deal: int) -> None:
        self.game_state = new_game(self.rules, deal)
        self.deal = deal
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """What ``agent`` sees: ``{"observation": ..., "action_mask": ...}`` (new arrays)."""
        state = self.game_state
        live = agent == self.agent_selection and not (self.terminations[agent] or self.truncations[agent])
        mask = action_mask(state) if live else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode(state, _PLAYERS[agent]), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent (None once that agent is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is the action only of an agent that is done")
        try:
            state = apply_move(self.game_state, action_to_move(action))
        except IllegalMoveError as error:
            if self.illegal_reward is None:
                raise IllegalMoveError(f"action {int(action)} of {agent}: {error}") from None
            self._cumulative_rewards[agent] = 0.0
            self.rewards = {name: self.illegal_reward if name == agent else 0.0 for name in AGENTS}
            self.terminations = {name: True for name in AGENTS}
            self.infos[agent] = {"illegal_action": True}
            self._accumulate_rewards()
            return
        self.game_state = state
        # Rewards come only with the end of the game: until then they stay 0.
        self._cumulative_rewards[agent] = 0.0
        outcome = state.outcome
        if outcome is not None:
            self.rewards = dict(zip(AGENTS, rewards(outcome)))
            self.terminations = {name: True for name in AGENTS}
            self._accumulate_rewards()
        elif state.move_count >= self.max_moves:
            self.truncations = {name: True for name in AGENTS}
        self.agent_selection = AGENTS[state.current_player]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (mode ``"ansi"``), or print it (mode ``"human"``); see :func:`crapette.text.render_text`."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode: env(render_mode='ansi') returns text")
            return None
        text = render_text(self.game_state)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release."""


def env(
    rules: RuleSet | str = "classic",
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
    illegal_reward: float | None = -1.0,
    render_mode: str | None = None,
) -> AECEnv:
    """The Crapette AEC environment in PettingZoo's order-enforcing wrapper: see :class:`raw_env` for the arguments.

    >>> game = env(rules="classic")
    >>> game.reset(seed=1)
    >>> observation, reward, termination, truncation, info = game.last()
    >>> observation["observation"].shape, int(observation["action_mask"].sum()) > 0
    ((2104,), True)
    """
    return wrappers.OrderEnforcingWrapper(
        raw_env(rules, max_moves=max_moves, illegal_reward=illegal_reward, render_mode=render_mode)
    )
