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
:func:`crapette.observation.rewards` (by default 1 for a win, -1 for a loss, 0
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
    raise ImportError(
        'crapette.gymnasium needs Gymnasium: pip install "gymnasium>=1.0,<2" numpy (the gymnasium extra of crapette)'
    ) from error

from crapette.observation import (
    DEFAULT_TURN_MOVES,
    HIGH,
    LOW,
    _adapter_rules,
    _check_count,
    _check_deal,
    _check_kind,
    _check_options,
    _check_reward,
    _check_turn_cap,
    action_mask,
    action_move,
    encode,
    forfeit,
    rewards,
    truncated_outcome,
)

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


def _check_seat(seat: object, name: str = "seat", modes: tuple[str, ...] = SEATS) -> int | str:
    """A seat: 0 or 1 as any integer type (NumPy's too, not a bool), or one of ``modes``."""
    expected = f"{name} must be 0, 1{''.join(f', {m!r}' for m in modes)}, got {seat!r}"
    if isinstance(seat, str):
        if seat in modes:
            return seat
        raise ValueError(expected)
    if isinstance(seat, (bool, np.bool_)) or not hasattr(seat, "__index__"):
        raise TypeError(expected)
    number = operator.index(seat)
    if number not in (0, 1):
        raise ValueError(expected)
    return number


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
        over :func:`~crapette.observation.score_scale`, within -1 and 1) or
        ``"points"`` (the score difference): see :func:`crapette.observation.rewards`.
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
        self.rules: RuleSet = _adapter_rules(rules, revisits)
        self.opponent: Bot = _to_opponent(opponent)
        #: How the agent's seat is chosen at each reset: 0, 1, "alternate" or "random".
        self.seat_mode: int | str = _check_seat(seat)
        #: The agent's seat in the current game.
        self.seat: int = 0 if isinstance(self.seat_mode, str) else self.seat_mode
        self.max_moves: int = _check_count("max_moves", max_moves)
        self.max_turn_moves: int | None = _check_turn_cap(max_turn_moves)
        #: The kind of reward: see :func:`crapette.observation.rewards`.
        self.reward_kind: str = _check_kind(rewards)
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
        self._resets = 0
        # The moves the player to move has made in this turn, and the seat that forfeited (or None).
        self._turn_moves = 0
        self._forfeit: int | None = None

    def _next_seat(self, options: Any) -> int:
        chosen = options.get("seat")
        if chosen is not None:
            return int(_check_seat(chosen, 'options["seat"]', ()))
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
        given = _check_options(options, _RESET_OPTIONS)
        chosen = given.get("deal")
        deal = None if chosen is None else _check_deal(chosen)
        super().reset(seed=seed)
        self._resets += 1
        self.seat = self._next_seat(given)
        if deal is not None:
            self.deal = deal
            self._start(new_game(self.rules, self.deal))
            if self._episode_over():
                raise ValueError(f"in deal {self.deal} the game ends before the agent's first move")
        else:
            for _ in range(_MAX_REDEALS):
                self.deal = int(self.np_random.integers(_MAX_DEAL, dtype=np.uint64))
                self._start(new_game(self.rules, self.deal))
                if not self._episode_over():
                    break
            else:
                raise RuntimeError(
                    f"in {_MAX_REDEALS} deals the game ended before the agent's first move: raise max_moves"
                )
        self._done = False
        if self.render_mode == "human":
            self.render()
        return self._observation(), {"deal": self.deal, "seat": self.seat}

    def _start(self, state: GameState) -> None:
        self._turn_moves, self._forfeit = 0, None
        self.game_state = self._play_opponent(state)

    def _count(self, before: GameState, after: GameState) -> None:
        """Count the move from ``before`` to ``after`` in the turn; a player at the cap forfeits."""
        if after.current_player != before.current_player:
            self._turn_moves = 0
            return
        self._turn_moves += 1
        cap = self.max_turn_moves
        if cap is not None and self._turn_moves >= cap and after.outcome is None:
            self._forfeit = before.current_player

    def step(self, action: SupportsIndex) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then the opponent's moves: observation, reward, terminated, truncated, info."""
        if self._done:
            raise RuntimeError("the episode is over: call reset() to deal a new game")
        before = self.game_state
        try:
            state = apply_move(before, action_move(action))
        except IllegalMoveError as error:
            if self.illegal_reward is None:
                raise IllegalMoveError(f"action {operator.index(action)}: {error}", move=error.move, reason=error.reason) from None
            self._done = True
            info = {"deal": self.deal, "seat": self.seat, "illegal_action": True, "forfeit": None}
            return self._observation(), self.illegal_reward, True, False, info
        self._count(before, state)
        if self._forfeit is None:
            state = self._play_opponent(state)
        self.game_state = state
        outcome = state.outcome
        reward = 0.0
        terminated = truncated = False
        if self._forfeit is not None:
            reward, terminated = forfeit(self._forfeit, self.reward_kind, rules=self.rules)[self.seat], True
        elif outcome is not None:
            reward, terminated = rewards(outcome, self.reward_kind, rules=self.rules)[self.seat], True
        elif state.move_count >= self.max_moves:
            truncated = True
            reward = rewards(truncated_outcome(state), self.reward_kind, rules=self.rules)[self.seat]
        self._done = terminated or truncated
        if self.render_mode == "human":
            self.render()
        info = {"deal": self.deal, "seat": self.seat, "illegal_action": False, "forfeit": self._forfeit}
        return self._observation(), reward, terminated, truncated, info

    def _episode_over(self) -> bool:
        state = self.game_state
        return state.outcome is not None or state.move_count >= self.max_moves or self._forfeit is not None

    def _play_opponent(self, state: GameState) -> GameState:
        seat, opponent, cap = self.seat, self.opponent, self.max_moves
        while state.current_player != seat and state.outcome is None and state.move_count < cap:
            move = opponent.choose(state)
            if not isinstance(move, Move):
                raise TypeError(f"the opponent {opponent!r} returned {move!r}, not a Move")
            try:
                after = apply_move(state, move)
            except IllegalMoveError as error:
                raise IllegalMoveError(
                    f"the opponent {opponent!r} chose an illegal move: {error}", move=error.move, reason=error.reason
                ) from None
            self._count(state, after)
            state = after
            if self._forfeit is not None:
                break
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
