"""Crapette as a PettingZoo AEC environment: two agents, ``player_0`` and ``player_1``.

This module needs PettingZoo: ``pip install "pettingzoo>=1.24.3,<2" "gymnasium>=1.0,<2" numpy``
(what the ``pettingzoo`` extra installs).
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
rewards of :func:`crapette.episode.rewards` (by default 1 for a win, -1
for a loss, 0 for a draw; ``rewards="score"`` for the scaled score
difference). A game the rules have not ended after ``max_moves`` moves is
stopped by the environment (ruling R10: under rules without a move limit a
game need not end): every agent is then *truncated*, and the game settled by
the rules' penalties as every ending but a win is (ruling R9; a draw without
scoring).

Stalling never pays: the environment plays the rules with ``revisits`` off
unless told otherwise (a move may not recreate a position already reached in
the same turn), and an agent that makes ``max_turn_moves`` moves (200) in one
turn forfeits the game: every agent is terminated, the one that forfeited
earning -1 (``infos[agent]["forfeit"]`` True).

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

from crapette import (
    NUM_ACTIONS,
    GameState,
    RuleSet,
)
from crapette.protocol import DEFAULT_MAX_MOVES
from crapette.text import render_text

try:
    import gymnasium
    import numpy as np
    from pettingzoo import AECEnv  # type: ignore[import-untyped, import-not-found, unused-ignore]
    from pettingzoo.utils import wrappers  # type: ignore[import-untyped, import-not-found, unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        'crapette.pettingzoo needs PettingZoo: pip install "pettingzoo>=1.24.3,<2" "gymnasium>=1.0,<2" numpy '
        "(the pettingzoo extra of crapette)"
    ) from error

from crapette.episode import (
    DEFAULT_TURN_MOVES,
    Episode,
    EpisodeSettings,
    check_deal,
    check_reset_options,
)
from crapette.gymnasium import observation_space
from crapette.observation import action_mask, encode

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["AGENTS", "env", "raw_env"]

#: The agents' names: ``player_0`` plays as player 0, ``player_1`` as player 1.
AGENTS: tuple[str, str] = ("player_0", "player_1")

_PLAYERS = {agent: player for player, agent in enumerate(AGENTS)}
_RENDER_MODES = ("human", "ansi")
_MAX_DEAL = 2**64
_RESET_OPTIONS = {"deal": "a deal number"}
#: The option PettingZoo's api_test resets with to see that reset() takes options: passed over in silence.
_API_TEST_OPTION = ("options",)


class raw_env(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """The Crapette AEC environment, without wrappers (see :func:`env`).

    :param rules: the rules: a :class:`~crapette.RuleSet`, or its text as
        :func:`~crapette.parse_rules` reads it (``"classic"``, ``"casual"``,
        ``"classic(move_limit=200)"``).
    :param max_moves: the environment stops a game after this many moves
        (truncation) if the rules have not ended it, settled by the rules'
        penalties; :data:`crapette.protocol.DEFAULT_MAX_MOVES` by default.
    :param max_turn_moves: an agent that makes this many moves in one turn
        forfeits the game (None: no cap).
    :param revisits: the ``revisits`` option of the rules played (False: a
        move may not recreate a position reached earlier in the same turn).
    :param rewards: ``"win"``, ``"score"`` or ``"points"``: see
        :func:`crapette.episode.rewards`.
    :param illegal_reward: what an illegal action earns the agent that plays
        it: it ends the game (every agent terminated, the others earning 0,
        ``infos[agent]["illegal_action"]`` True), as in PettingZoo's classic
        games. None raises :class:`~crapette.IllegalMoveError` instead.
    :param render_mode: None, ``"ansi"`` (:meth:`render` returns the table as
        text) or ``"human"`` (:meth:`render`, and every step, prints it).
    :raises TypeError: if an argument has the wrong type.
    :raises ValueError: if ``max_moves`` or ``max_turn_moves`` is below 1,
        ``rewards`` or ``render_mode`` unknown.
    :raises crapette.ParseError: if the rules' text cannot be read.

    :meth:`reset` deals a new game. Its ``seed`` seeds the environment's
    generator, from which each reset draws the deal: the number given to
    :func:`~crapette.new_game`, kept in :attr:`deal`. ``options={"deal": n}``
    deals game ``n`` instead (:class:`TypeError` or :class:`ValueError` if
    ``n`` is not a deal number, 0 to ``2**64 - 1``). Options that are not a
    dict are a :class:`TypeError`; a key close to ``"deal"`` (``"dael"``) a
    :class:`ValueError` naming it; any other key is ignored with a
    :class:`UserWarning` naming it (PettingZoo's ``api_test`` requires that
    ``reset`` accept options it does not know). :attr:`game_state` is the
    current :class:`~crapette.GameState`.

    :meth:`step` plays the action of the selected agent: an action number
    (:class:`ValueError` if it is out of range), or None for an agent that is done.

    >>> game = raw_env(rules="classic", illegal_reward=None, render_mode="ansi")
    >>> game.reset(options={"deal": 1})
    >>> game.deal, game.agent_selection
    (1, 'player_0')
    >>> print(game.render().splitlines()[0])
    classic(revisits=false) · move 0 · player 0 to move
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
        max_turn_moves: int | None = DEFAULT_TURN_MOVES,
        revisits: bool = False,
        rewards: str = "win",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        #: How episodes end and pay (the rules, the caps, the rewards): see :class:`crapette.episode.EpisodeSettings`.
        self.settings = EpisodeSettings.of(
            rules, max_moves=max_moves, max_turn_moves=max_turn_moves, revisits=revisits,
            rewards=rewards, illegal_reward=illegal_reward,
        )
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        space = observation_space()
        self.observation_spaces = {agent: space for agent in AGENTS}
        self.action_spaces = {agent: gymnasium.spaces.Discrete(NUM_ACTIONS) for agent in AGENTS}
        self._np_random: np.random.Generator | None = None
        #: The episode under way (see :class:`crapette.episode.Episode`).
        self.episode: Episode = Episode.start(self.settings, 0)
        self._start_episode(0)

    @property
    def rules(self) -> RuleSet:
        """The rules played."""
        return self.settings.rules

    @property
    def max_moves(self) -> int:
        """The moves after which a game the rules have not ended is truncated."""
        return self.settings.max_moves

    @property
    def max_turn_moves(self) -> int | None:
        """The moves in one turn at which a player forfeits (None: no cap)."""
        return self.settings.max_turn_moves

    @property
    def reward_kind(self) -> str:
        """The kind of reward: see :func:`crapette.episode.rewards`."""
        return self.settings.rewards

    @property
    def illegal_reward(self) -> float | None:
        """What an illegal action earns (None: it raises)."""
        return self.settings.illegal_reward

    @property
    def deal(self) -> int:
        """The number of the game dealt by the last :meth:`reset`."""
        return self.episode.deal or 0

    @property
    def game_state(self) -> GameState:
        """The current state of the game (set it to play on from another position of the same rules)."""
        return self.episode.state

    @game_state.setter
    def game_state(self, state: GameState) -> None:
        self.episode = attrs.evolve(self.episode, state=state)

    def observation_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The observation space of ``agent``: a dict of ``"observation"`` and ``"action_mask"`` boxes."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space[Any]:
        """The action space of ``agent``: ``Discrete(NUM_ACTIONS)``."""
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game: game ``options["deal"]``, or one drawn from the generator ``seed`` seeds."""
        given = check_reset_options(options, _RESET_OPTIONS, warn_unknown=True, ignore=_API_TEST_OPTION)
        deal = given.get("deal")
        deal = None if deal is None else check_deal(deal)
        if seed is not None or self._np_random is None:
            self._np_random, _ = gymnasium.utils.seeding.np_random(seed)
        if deal is None:
            deal = int(self._np_random.integers(_MAX_DEAL, dtype=np.uint64))
        self._start_episode(deal)

    def _start_episode(self, deal: int) -> None:
        self.episode = Episode.start(self.settings, deal)
        self.agents = list(AGENTS)
        self.rewards = {agent: 0.0 for agent in AGENTS}
        self._cumulative_rewards = {agent: 0.0 for agent in AGENTS}
        self.terminations = {agent: False for agent in AGENTS}
        self.truncations = {agent: False for agent in AGENTS}
        self.infos: dict[str, dict[str, Any]] = {agent: self.episode.info(seat) for agent, seat in _PLAYERS.items()}
        self.agent_selection = AGENTS[self.game_state.current_player]

    def observe(self, agent: str) -> dict[str, NDArray[Any]]:
        """What ``agent`` sees: ``{"observation": ..., "action_mask": ...}`` (new arrays).

        :raises ValueError: if ``agent`` is not ``"player_0"`` or ``"player_1"``.
        """
        if agent not in _PLAYERS:
            raise ValueError(f"unknown agent {agent!r}: the agents are {', '.join(AGENTS)}")
        state = self.game_state
        live = (
            agent == self.agent_selection
            and agent in self.agents
            and not (self.terminations[agent] or self.truncations[agent])
        )
        mask = action_mask(state) if live else np.zeros(NUM_ACTIONS, dtype=np.int8)
        return {"observation": encode(state, _PLAYERS[agent]), "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """What the selected agent observes, its reward since it last moved, whether it is done, and its info.

        :raises RuntimeError: once every agent is done (the game is over: call :meth:`reset`).
        """
        agent = self._selected("last()")
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _selected(self, what: str) -> str:
        agent = self.agent_selection
        if agent not in self.agents:
            raise RuntimeError(f"{what}: the game is over and every agent is done: call reset() to deal a new game")
        return agent

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent (None once that agent is done).

        An action that is not a legal move, out of range included, is an
        illegal action (see ``illegal_reward``).

        :raises RuntimeError: once every agent is done (the game is over: call :meth:`reset`).
        :raises TypeError: if ``action`` is not an integer.
        """
        agent = self._selected("step()")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: None is the action only of an agent that is done")
        episode = self.episode = self.episode.act(action, who=f"of {agent}")
        # Rewards come only with the end of the game: until then they stay 0.
        self._cumulative_rewards[agent] = 0.0
        self.infos = {name: episode.info(seat) for name, seat in _PLAYERS.items()}
        if episode.over:
            self.rewards = dict(zip(AGENTS, episode.returns()))
            done = {name: True for name in AGENTS}
            if episode.terminated:
                self.terminations = done
            else:
                self.truncations = done
            self._accumulate_rewards()
        if episode.illegal is None:
            self.agent_selection = AGENTS[episode.state.current_player]
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


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # PettingZoo ships no type information
    """PettingZoo's order-enforcing wrapper, with the attributes a play loop reads each step forwarded directly.

    The wrapper forwards every attribute through ``__getattr__``, which costs
    more per step than building the observation does; the loop's own reads
    (``agent_selection``, ``agents``, ``last()``) go straight to the
    environment here, with the same checks.
    """

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        selection: str = self.env.agent_selection
        return selection

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """What the selected agent observes, its reward since it last moved, whether it is done, and its info."""
        env = self.env
        if not self._has_reset:
            raise AttributeError("last() cannot be called before reset")
        agent = env._selected("last()")
        return (
            env.observe(agent) if observe else None,
            env._cumulative_rewards[agent],
            env.terminations[agent],
            env.truncations[agent],
            env.infos[agent],
        )


def env(
    rules: RuleSet | str = "classic",
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
    max_turn_moves: int | None = DEFAULT_TURN_MOVES,
    revisits: bool = False,
    rewards: str = "win",
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
    return _OrderEnforcing(
        raw_env(
            rules,
            max_moves=max_moves,
            max_turn_moves=max_turn_moves,
            revisits=revisits,
            rewards=rewards,
            illegal_reward=illegal_reward,
            render_mode=render_mode,
        )
    )
