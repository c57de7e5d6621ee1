"""The Gymnasium environment: Gymnasium's env checker, registration, the opponent, rewards, ends, errors."""

from __future__ import annotations

import random
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium", reason='the Gymnasium adapter needs Gymnasium: pip install ".[gymnasium]"')

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from crapette import (  # noqa: E402
    GameState,
    IllegalMoveError,
    Move,
    RuleSet,
    apply_move,
    legal_moves,
    move_to_action,
    new_game,
    parse_move,
)
from crapette.bots import GreedyBot, RandomBot  # noqa: E402
from crapette.text import render_text  # noqa: E402
from crapette.gymnasium import ENV_IDS, CrapetteEnv  # noqa: E402
from crapette.observation import action_mask, encode, rewards  # noqa: E402


def random_action(observation: dict[str, np.ndarray], rng: random.Random) -> int:
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


@pytest.mark.parametrize("env_id", sorted(ENV_IDS))
def test_gymnasium_check_env(env_id: str, capsys: pytest.CaptureFixture[str]) -> None:
    # check_env also makes the environment in each render mode ("human" prints).
    # max_moves=300 keeps a classic game, which has no move limit, short.
    env = gymnasium.make(env_id, max_moves=300)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(w.message) for w in caught] == []


def test_the_ids_are_registered_for_the_presets() -> None:
    for env_id, rules in ENV_IDS.items():
        env = gymnasium.make(env_id)
        assert isinstance(env.unwrapped, CrapetteEnv)
        assert env.unwrapped.rules == RuleSet.from_name(rules)
    made = gymnasium.make("crapette/Casual-v0", rules="classic(move_limit=90)", opponent="greedy", seat=1)
    assert made.unwrapped.rules.move_limit == 90 and made.unwrapped.seat == 1
    assert isinstance(made.unwrapped.opponent, GreedyBot)


def test_seeded_resets_deal_the_same_games() -> None:
    a, b = CrapetteEnv(), CrapetteEnv()
    obs_a, info_a = a.reset(seed=3)
    obs_b, info_b = b.reset(seed=3)
    assert info_a == info_b and a.game_state == b.game_state
    assert all(np.array_equal(obs_a[k], obs_b[k]) for k in obs_a)
    _obs, info_c = a.reset(seed=4)
    assert info_c["deal"] != info_a["deal"]
    _obs, info = a.reset(options={"deal": 12})
    assert info == {"deal": 12} and a.deal == 12


@pytest.mark.parametrize("seat", [0, 1])
def test_the_opponent_plays_until_the_agent_is_to_move(seat: int) -> None:
    env = CrapetteEnv("classic", seat=seat, max_moves=600, opponent=RandomBot(seed=3))
    rng = random.Random(seat)
    for deal in range(4):
        observation, _info = env.reset(options={"deal": deal})
        done = False
        while not done:
            assert env.game_state.current_player == seat
            assert np.array_equal(observation["observation"], encode(env.game_state, seat))
            assert np.array_equal(observation["action_mask"], action_mask(env.game_state))
            assert np.array_equal(env.action_masks(), action_mask(env.game_state).astype(bool))
            observation, _reward, terminated, truncated, _info = env.step(random_action(observation, rng))
            done = terminated or truncated
        assert not observation["action_mask"].any() and not env.action_masks().any()


def test_the_reward_is_the_outcome_for_the_agent_and_comes_at_the_end() -> None:
    for rules, seat in (("casual", 0), ("casual", 1), ("classic(move_limit=200)", 1)):
        env = CrapetteEnv(rules, seat=seat)
        observation, _info = env.reset(options={"deal": 5})
        rng = random.Random(5)
        step_rewards = []
        terminated = truncated = False
        while not (terminated or truncated):
            observation, reward, terminated, truncated, _info = env.step(random_action(observation, rng))
            step_rewards.append(reward)
        outcome = env.game_state.outcome
        assert terminated and not truncated and outcome is not None
        assert step_rewards[-1] == rewards(outcome)[seat]
        assert set(step_rewards[:-1]) <= {0.0}


def test_a_game_stopped_by_max_moves_is_truncated() -> None:
    env = CrapetteEnv("classic", max_moves=60)
    observation, _info = env.reset(options={"deal": 8})
    rng = random.Random(8)
    while True:
        observation, reward, terminated, truncated, _info = env.step(random_action(observation, rng))
        if terminated or truncated:
            break
    assert truncated and not terminated and reward == 0.0
    assert env.game_state.outcome is None and env.game_state.move_count >= 60


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = CrapetteEnv("classic", illegal_reward=-3)
    env.reset(options={"deal": 1})
    before = env.game_state
    observation, reward, terminated, truncated, info = env.step(move_to_action(parse_move("T0-F0")))
    assert (reward, terminated, truncated, info) == (-3.0, True, False, {"deal": 1, "illegal_action": True})
    assert env.game_state == before and not observation["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(move_to_action(legal_moves(before)[0]))

    strict = CrapetteEnv("classic", illegal_reward=None)
    strict.reset(options={"deal": 1})
    with pytest.raises(IllegalMoveError, match="action 0: illegal move T0-F0"):
        strict.step(move_to_action(parse_move("T0-F0")))
    with pytest.raises(ValueError, match="action index"):
        strict.step(-1)
    assert strict.game_state == new_game("classic", 1)


def test_a_game_over_before_the_agents_first_move_is_dealt_again() -> None:
    env = CrapetteEnv("classic", seat=1, max_moves=3)
    for seed in range(10):
        _observation, info = env.reset(seed=seed)
        assert env.game_state.current_player == 1 and env.game_state.move_count < 3
        assert info["deal"] == env.deal
    never = CrapetteEnv("casual", seat=1, max_moves=1)  # player 0 always starts: its first move ends every game
    with pytest.raises(RuntimeError, match="raise max_moves"):
        never.reset(seed=0)
    with pytest.raises(ValueError, match="in deal 4 the game ends before the agent's first move"):
        never.reset(options={"deal": 4})


class WrongBot:
    def __init__(self, move: object) -> None:
        self.move = move

    def choose(self, state: GameState) -> object:
        return self.move

    def __repr__(self) -> str:
        return "WrongBot()"


def test_a_misbehaving_opponent_is_reported() -> None:
    env = CrapetteEnv("casual", seat=1, opponent=WrongBot("draw"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="WrongBot.* returned 'draw', not a Move"):
        env.reset(options={"deal": 1})
    env = CrapetteEnv("casual", seat=1, opponent=WrongBot(parse_move("end")))  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="WrongBot.* chose an illegal move"):
        env.reset(options={"deal": 1})


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    env = CrapetteEnv("casual", seat=1, render_mode="ansi")
    env.reset(options={"deal": 2})
    assert env.render() == render_text(env.game_state, perspective=1)
    human = CrapetteEnv("casual", render_mode="human")
    human.reset(options={"deal": 2})
    assert capsys.readouterr().out == render_text(human.game_state) + "\n"
    assert human.render() is None
    with pytest.warns(UserWarning, match="render_mode"):
        assert CrapetteEnv().render() is None


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat must be 0 or 1"):
        CrapetteEnv(seat=2)
    with pytest.raises(TypeError, match="seat must be 0 or 1"):
        CrapetteEnv(seat=True)
    with pytest.raises(TypeError, match="opponent must be a bot"):
        CrapetteEnv(opponent=42)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown bot"):
        CrapetteEnv(opponent="chess")
    with pytest.raises(ValueError, match="render_mode"):
        CrapetteEnv(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_moves"):
        CrapetteEnv(max_moves=0)
    with pytest.raises(TypeError, match="illegal_reward"):
        CrapetteEnv(illegal_reward="low")  # type: ignore[arg-type]
    env = CrapetteEnv()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(900)
    with pytest.raises(ValueError, match="deal number"):
        env.reset(options={"deal": -1})
    with pytest.raises(ValueError, match="deal number"):  # a bad seed of any kind, as new_game says
        env.reset(options={"deal": "7"})


def test_any_bot_may_be_the_opponent() -> None:
    class FirstMoveBot:
        def choose(self, state: GameState) -> Move:
            return legal_moves(state)[0]

    env = CrapetteEnv("casual", seat=1, opponent=FirstMoveBot())
    env.reset(options={"deal": 4})
    state = new_game("casual", 4)
    while state.current_player == 0:
        state = apply_move(state, legal_moves(state)[0])
    assert env.game_state == state


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ([1], TypeError, r"reset\(\) options must be a dict"),
        ("deal", TypeError, r"reset\(\) options must be a dict"),
        ({"seat": 1}, ValueError, r"unknown reset\(\) option 'seat': the only option is 'deal'"),
        ({"Deal": 3}, ValueError, r"unknown reset\(\) option 'Deal'"),
        ({"deal": "3"}, ValueError, r'options\["deal"\] \(a deal number'),
    ],
)
def test_reset_options_that_are_not_a_dict_or_hold_an_unknown_key_are_refused(
    options: object, error: type[Exception], message: str
) -> None:
    env = CrapetteEnv()
    with pytest.raises(error, match=message):
        env.reset(options=options)  # type: ignore[arg-type]
    assert env.reset(options={"deal": 3})[1] == {"deal": 3}
