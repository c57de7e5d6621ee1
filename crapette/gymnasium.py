"""Crapette as a Gymnasium environment: the agent plays one seat against a bot.

This module needs Gymnasium: ``pip install "gymnasium>=1.0,<2" numpy`` (what the
``gymnasium`` extra installs). Importing
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
:func:`crapette.episode.rewards` (by default 1 for a win, -1 for a loss, 0
for a draw; ``rewards="score"`` for the scaled score difference); or
*truncated* when the environment stops a game the rules have not ended after
``max_moves`` moves (ruling R10: under rules without a move limit a game need
not end), settled by the rules' penalties as every ending but a win is
(ruling R9; a draw without scoring). Every other step earns 0.

**Stalling never pays.** The environment plays the rules with ``revisits``
off unless told otherwise (a move may not recreate a position already reached
in the same turn), and a player who makes ``max_turn_moves`` moves (200) in
one turn forfeits the game: it loses, whatever the cards (``info["forfeit"]``
names the seat). So shuttling cards inside a turn never beats playing on.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, SupportsIndex

import attrs

from crapette import (
    NUM_ACTIONS,
    GameState,
    IllegalMoveError,
    Move,
    RuleSet,
    action_to_move,
)
from crapette.bots import Bot, RandomBot, make_bot
from crapette.episode import (
    DEFAULT_TURN_MOVES,
    Episode,
    EpisodeSettings,
    check_deal,
    check_reset_options,
    check_seat,
)
from crapette.protocol import DEFAULT_MAX_MOVES
from crapette.text import render_text

try:
    import gymnasium
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        'crapette.gymnasium needs Gymnasium: pip install "gymnasium>=1.0,<2" numpy (the gymnasium extra of crapette)'
    ) from error

from crapette.observation import HIGH, LOW, action_mask, encode

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["ENV_IDS", "SEATS", "CrapetteEnv", "PolicyBot", "observation_space"]

#: The registered ids and the rules they play.
ENV_IDS: dict[str, str] = {"crapette/Classic-v0": "classic", "crapette/Casual-v0": "casual"}

_RENDER_MODES = ("human", "ansi")
# Drawn deals are below 2**63, so that info["deal"] fits the int64 arrays of gymnasium.vector.
_MAX_DEAL = 2**63
# Deals in which the game ends before the agent's first move are dealt again, this many times at most.
_MAX_REDEALS = 1000

# The observation: {"observation": ..., "action_mask": ...}.
Observation = dict[str, Any]

#: The seat choices of :class:`CrapetteEnv` besides 0 and 1: the agent's seat alternates, or is drawn, at each reset.
SEATS: tuple[str, str] = ("alternate", "random")
_RESET_OPTIONS = {"deal": "a deal number", "seat": "0 or 1, the agent's seat in this game"}


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


class PolicyBot:
    """A bot that plays as a policy over observations says: ``policy(observation) -> action``.

    ``observation`` is the dict an environment gives (``"observation"``, the
    :func:`~crapette.observation.encode` of the position for the player to
    move, and ``"action_mask"``); the policy returns an action number. Use it
    to make an opponent of a policy, such as a frozen copy of the one being
    trained (self-play), or to let the CLI, the web frontend and simulations
    play a trained policy (``examples/train_ppo.py`` wraps its MaskablePPO so).
    An action the mask does not allow is refused with
    :class:`~crapette.IllegalMoveError`.

    >>> from crapette import legal_moves, new_game
    >>> first_legal = PolicyBot(lambda obs: int(obs["action_mask"].nonzero()[0][0]))
    >>> state = new_game("classic", seed=1)
    >>> first_legal.choose(state) in legal_moves(state)
    True

    :raises TypeError: if ``policy`` is not callable.
    """

    def __init__(self, policy: Callable[[Observation], SupportsIndex]) -> None:
        if not callable(policy):
            raise TypeError(f"policy must be callable: policy(observation) -> action, got {policy!r}")
        #: The policy: observation dict in, action number out.
        self.policy = policy

    def __repr__(self) -> str:
        return f"PolicyBot({self.policy!r})"

    def choose(self, state: GameState) -> Move:
        """The move the policy picks for the player to move in ``state``."""
        mask = action_mask(state)
        action = operator.index(self.policy({"observation": encode(state, state.current_player), "action_mask": mask}))
        if not 0 <= action < NUM_ACTIONS or not mask[action]:
            raise IllegalMoveError(f"the policy chose action {action}, which is not legal here")
        return action_to_move(action)


class CrapetteEnv(gymnasium.Env[Observation, np.int64]):
    """Crapette for one agent, who plays seat ``seat`` against ``opponent``.

    :param rules: the rules: a :class:`~crapette.RuleSet`, or its text as
        :func:`~crapette.parse_rules` reads it (``"classic"``, ``"casual"``,
        ``"classic(move_limit=200)"``).
    :param opponent: the other player: any :class:`crapette.bots.Bot` (a
        :class:`PolicyBot` for a policy, such as a frozen copy of the one
        being trained), or a name for :func:`crapette.bots.make_bot`
        (``"random"``, ``"greedy"``, ``"search"``); None for a
        :class:`~crapette.bots.RandomBot`. ``opponent`` may be changed
        between episodes.
    :param seat: the player the agent is: 0 or 1, ``"alternate"`` (0 at the
        first reset, then 1, 0, ...) or ``"random"`` (drawn at each reset from
        the environment's generator). ``reset(options={"seat": s})`` sets it
        for one game.
    :param max_moves: the environment stops a game after this many moves in
        all (truncation) if the rules have not ended it, settled by the rules'
        penalties; :data:`crapette.protocol.DEFAULT_MAX_MOVES` by default.
    :param max_turn_moves: a player who makes this many moves in one turn
        forfeits the game (None: no cap).
    :param revisits: the ``revisits`` option of the rules played (False: a
        move may not recreate a position reached earlier in the same turn).
    :param rewards: ``"win"`` (1, -1 or 0), ``"score"`` (the score difference
        over :func:`~crapette.episode.score_scale`, within -1 and 1) or
        ``"points"`` (the score difference): see :func:`crapette.episode.rewards`.
    :param illegal_reward: what an illegal action earns: it ends the episode
        (terminated, with ``info["illegal_action"]`` True), as in PettingZoo's
        classic games. None raises :class:`~crapette.IllegalMoveError` instead.
    :param render_mode: None, ``"ansi"`` (:meth:`render` returns the table as
        text, the agent's seat at the bottom) or ``"human"`` (:meth:`render`,
        and every step, prints it).
    :raises TypeError: if an argument has the wrong type.
    :raises ValueError: if ``seat`` is not one of the above, ``max_moves`` or
        ``max_turn_moves`` below 1, ``rewards`` or ``render_mode`` unknown.

    :meth:`reset` deals a new game. Its ``seed`` seeds the environment's
    generator, from which each reset draws the deal: the number given to
    :func:`~crapette.new_game`, returned in ``info["deal"]`` and kept in
    :attr:`deal`. Its options are ``"deal"`` (deal that game instead) and
    ``"seat"`` (0 or 1); any other key is a :class:`ValueError` naming it,
    options that are not a dict a :class:`TypeError`. ``info["seat"]`` and
    :attr:`seat` give the agent's seat. If the opponent moves first, it plays
    its turn before :meth:`reset` returns. A drawn deal in which the game ends
    before the agent's first move (which only a very small ``max_moves`` makes
    likely) is replaced by the next one drawn; a chosen one raises
    :class:`ValueError`. The opponent's choices depend only on the position
    (the bots of :mod:`crapette.bots` are pure functions of the public view),
    so the same seed and the same actions replay the same game.

    >>> from crapette import move_to_action, parse_move
    >>> env = CrapetteEnv("casual", seat=1, render_mode="ansi")
    >>> observation, info = env.reset(options={"deal": 1})
    >>> info["deal"], info["seat"], env.game_state.current_player, env.game_state.move_count > 0
    (1, 1, 1, True)
    >>> observation, reward, terminated, truncated, info = env.step(move_to_action(parse_move("end")))
    >>> reward, terminated, info["illegal_action"]
    (-1.0, True, True)
    >>> env.reset(options={"seet": 0})
    Traceback (most recent call last):
    ...
    ValueError: unknown reset() option 'seet' (did you mean 'seat'?): the options are 'deal' (a deal number), ...
    """

    metadata: dict[str, Any] = {"render_modes": list(_RENDER_MODES), "render_fps": 2}

    def __init__(
        self,
        rules: RuleSet | str = "classic",
        *,
        opponent: Bot | str | None = None,
        seat: int | str = 0,
        max_moves: int = DEFAULT_MAX_MOVES,
        max_turn_moves: int | None = DEFAULT_TURN_MOVES,
        revisits: bool = False,
        rewards: str = "win",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
    ) -> None:
        #: How episodes end and pay (the rules, the caps, the rewards): see :class:`crapette.episode.EpisodeSettings`.
        self.settings = EpisodeSettings.of(
            rules, max_moves=max_moves, max_turn_moves=max_turn_moves, revisits=revisits,
            rewards=rewards, illegal_reward=illegal_reward,
        )
        self.opponent: Bot = _to_opponent(opponent)
        #: How the agent's seat is chosen at each reset: 0, 1, "alternate" or "random".
        self.seat_mode: int | str = check_seat(seat, modes=SEATS)
        #: The agent's seat in the current game.
        self.seat: int = 0 if isinstance(self.seat_mode, str) else self.seat_mode
        if render_mode is not None and render_mode not in _RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi', got {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = observation_space()
        self.action_space = gymnasium.spaces.Discrete(NUM_ACTIONS)
        #: The episode under way (see :class:`crapette.episode.Episode`).
        self.episode: Episode = Episode.start(self.settings, 0)
        self._done = True
        self._resets = 0

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

    def _next_seat(self, options: Any) -> int:
        chosen = options.get("seat")
        if chosen is not None:
            return int(check_seat(chosen, 'options["seat"]'))
        mode = self.seat_mode
        if mode == "alternate":
            return (self._resets - 1) % 2
        if mode == "random":
            return int(self.np_random.integers(2))
        return int(mode)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal a new game and play the opponent's moves until the agent is to move."""
        given = check_reset_options(options, _RESET_OPTIONS)
        chosen = given.get("deal")
        deal = None if chosen is None else check_deal(chosen)
        super().reset(seed=seed)
        self._resets += 1
        self.seat = self._next_seat(given)
        if deal is not None:
            self.episode = self._play_opponent(Episode.start(self.settings, deal))
            if self.episode.over:
                raise ValueError(f"in deal {deal} the game ends before the agent's first move")
        else:
            for _ in range(_MAX_REDEALS):
                drawn = int(self.np_random.integers(_MAX_DEAL, dtype=np.uint64))
                self.episode = self._play_opponent(Episode.start(self.settings, drawn))
                if not self.episode.over:
                    break
            else:
                raise RuntimeError(
                    f"in {_MAX_REDEALS} deals the game ended before the agent's first move: raise max_moves"
                )
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), self.episode.info(self.seat)

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the opponent's moves: observation, reward, terminated, truncated, info."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() to deal a new game")
        episode = self.episode.act(action)
        if not episode.over:
            episode = self._play_opponent(episode)
        self.episode = episode
        self._done = episode.over
        if self.render_mode == "human":
            self.render()
        reward = episode.returns()[self.seat]
        return self._observation(), reward, episode.terminated, episode.truncated, episode.info(self.seat)

    def _play_opponent(self, episode: Episode) -> Episode:
        opponent = self.opponent
        while not episode.over and episode.state.current_player != self.seat:
            state = episode.state
            move = opponent.choose(state)
            if not isinstance(move, Move):
                raise TypeError(f"the opponent {opponent!r} returned {move!r}, not a Move")
            try:
                episode = episode.play(move, strict=True)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"the opponent {opponent!r} chose an illegal move: {error}", move=error.move, reason=error.reason
                ) from None
        return episode

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
