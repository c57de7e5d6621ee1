"""The Gymnasium environment: Gymnasium's env checker, registration, the opponent, rewards, ends, errors."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import attrs
import warnings

import pytest

gymnasium = pytest.importorskip("gymnasium", reason='the Gymnasium adapter needs Gymnasium: pip install ".[gymnasium]"')

import numpy as np  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402

from crapette import (  # noqa: E402
    GameState,
    IllegalMoveError,
    Move,
    MoveStack,
    PileKind,
    Play,
    action_to_move,
    RuleSet,
    apply_move,
    legal_moves,
    move_to_action,
    new_game,
    parse_move,
)
from crapette.bots import GreedyBot, RandomBot  # noqa: E402
from crapette.text import render_text  # noqa: E402
from crapette.gymnasium import ENV_IDS, CrapetteEnv, PolicyBot  # noqa: E402
from crapette.episode import rewards  # noqa: E402
from crapette.observation import action_mask, encode  # noqa: E402
from crapette.protocol import Crapette  # noqa: E402

truncated_outcome = Crapette.cut_short


FIELDS_OBSERVER = slice(2080, 2082)


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
        # The adapters play the rules with revisits off unless told otherwise.
        assert env.unwrapped.rules == attrs.evolve(RuleSet.from_name(rules), revisits=False)
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
    assert info == {"deal": 12, "seat": 0, "illegal_action": False, "forfeit": None} and a.deal == 12


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
        assert step_rewards[-1] == rewards(outcome)[seat] and step_rewards[-1] in (-1.0, 0.0, 1.0)
        assert set(step_rewards[:-1]) <= {0.0}


def test_a_game_stopped_by_max_moves_is_truncated_and_settled_by_penalties() -> None:
    seen = set()
    for deal in range(8):
        for kind in ("win", "points"):
            env = CrapetteEnv("classic", max_moves=60, rewards=kind)
            observation, _info = env.reset(options={"deal": deal})
            rng = random.Random(deal)
            while True:
                observation, reward, terminated, truncated, _info = env.step(random_action(observation, rng))
                if terminated or truncated:
                    break
            state = env.game_state
            assert truncated and not terminated and state.outcome is None and state.move_count >= 60
            # Settled as the rules settle a move limit: the lower penalty wins (classic scores).
            settled = truncated_outcome(state)
            assert reward == rewards(settled, kind, rules=env.rules)[0]
            seen.add(reward)
    assert len(seen - {0.0}) >= 2  # some truncated games are won or lost, not all drawn
    casual = CrapetteEnv("casual", max_moves=30)  # no scoring: a truncated game is a draw
    observation, _info = casual.reset(options={"deal": 1})
    rng = random.Random(1)
    while True:
        observation, reward, terminated, truncated, _info = casual.step(random_action(observation, rng))
        if terminated or truncated:
            break
    assert truncated and reward == 0.0


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    env = CrapetteEnv("classic", illegal_reward=-3)
    env.reset(options={"deal": 1})
    before = env.game_state
    observation, reward, terminated, truncated, info = env.step(move_to_action(parse_move("T0-F0")))
    assert (reward, terminated, truncated) == (-3.0, True, False)
    assert info == {"deal": 1, "seat": 0, "illegal_action": True, "forfeit": None}
    assert env.game_state == before and not observation["action_mask"].any()
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(move_to_action(legal_moves(before)[0]))

    strict = CrapetteEnv("classic", illegal_reward=None)
    strict.reset(options={"deal": 1})
    with pytest.raises(IllegalMoveError, match="action 0: illegal move T0-F0"):
        strict.step(move_to_action(parse_move("T0-F0")))
    with pytest.raises(IllegalMoveError, match="action -1 is no move: actions are 0 to 902"):
        strict.step(-1)
    assert strict.game_state == new_game(strict.rules, 1)


@pytest.mark.parametrize("action", [-1, 903, 10**30, np.int64(5000)])
def test_an_out_of_range_action_counts_as_illegal(action: object) -> None:
    env = CrapetteEnv("classic")
    env.reset(options={"deal": 1})
    observation, reward, terminated, truncated, info = env.step(action)  # type: ignore[arg-type]
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    env.reset(options={"deal": 1})
    with pytest.raises(TypeError, match="an action is an integer, got str"):
        env.step("draw")  # type: ignore[arg-type]
    assert env.game_state == new_game(env.rules, 1)


def test_an_async_vector_env_stays_usable_after_an_out_of_range_action() -> None:
    from gymnasium.vector import AsyncVectorEnv

    envs = AsyncVectorEnv([lambda: CrapetteEnv("classic(move_limit=100)")] * 2)
    try:
        observations, _ = envs.reset(seed=1)
        legal = int(observations["action_mask"][1].nonzero()[0][0])
        _, rewards_, terminated, _, infos = envs.step(np.array([5000, legal]))
        assert terminated[0] and rewards_[0] == -1.0 and infos["illegal_action"][0]
        observations, _, _, _, _ = envs.step(np.array([
            int(observations["action_mask"][i].nonzero()[0][0]) for i in range(2)
        ]))  # the first environment was reset by the vector env: a legal action of its new game
        assert observations["observation"].shape[0] == 2
    finally:
        envs.close()


@pytest.mark.parametrize("seat", [np.int64(1), np.int8(0), 1])
def test_reset_takes_a_numpy_seat(seat: object) -> None:
    env = CrapetteEnv("classic")
    _, info = env.reset(options={"seat": seat})
    assert info["seat"] == int(seat) and type(info["seat"]) is int and env.seat == int(seat)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match="must be 0, 1"):
        env.reset(options={"seat": np.bool_(True)})
    with pytest.raises(ValueError, match="must be 0, 1"):
        env.reset(options={"seat": np.int64(2)})


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
    with pytest.raises(ValueError, match="seat must be 0, 1, 'alternate', 'random', got 2"):
        CrapetteEnv(seat=2)
    with pytest.raises(ValueError, match="seat must be 0, 1, 'alternate', 'random', got 'alternating'"):
        CrapetteEnv(seat="alternating")
    with pytest.raises(TypeError, match="seat must be 0, 1"):
        CrapetteEnv(seat=True)
    with pytest.raises(ValueError, match="rewards must be one of"):
        CrapetteEnv(rewards="scores")
    with pytest.raises(ValueError, match="max_turn_moves"):
        CrapetteEnv(max_turn_moves=0)
    with pytest.raises(TypeError, match="revisits must be True or False"):
        CrapetteEnv(revisits=None)  # type: ignore[arg-type]
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


def test_reset_options_are_checked_naming_the_bad_key() -> None:
    env = CrapetteEnv()
    with pytest.raises(TypeError, match="reset\\(\\) options must be a dict .* got \\[1\\]"):
        env.reset(options=[1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown reset\\(\\) option 'seet' \\(did you mean 'seat'\\?\\)"):
        env.reset(options={"seet": 1})
    with pytest.raises(ValueError, match="unknown reset\\(\\) option 'opponent': the options are 'deal'"):
        env.reset(options={"opponent": "greedy"})
    with pytest.raises(ValueError, match="options\\[\"seat\"\\] must be 0, 1, got 2"):
        env.reset(options={"seat": 2})
    _obs, info = env.reset(options={})
    assert info["seat"] == 0


def test_any_bot_may_be_the_opponent() -> None:
    class FirstMoveBot:
        def choose(self, state: GameState) -> Move:
            return legal_moves(state)[0]

    env = CrapetteEnv("casual", seat=1, opponent=FirstMoveBot())
    env.reset(options={"deal": 4})
    state = new_game(env.rules, 4)
    while state.current_player == 0:
        state = apply_move(state, legal_moves(state)[0])
    assert env.game_state == state


# Seats ------------------------------------------------------------------------------------


def test_the_seat_is_fixed_alternating_or_random_and_an_option_of_reset() -> None:
    fixed = CrapetteEnv("casual", seat=1)
    assert [fixed.reset(seed=i)[1]["seat"] for i in range(4)] == [1, 1, 1, 1]
    alternating = CrapetteEnv("casual", seat="alternate")
    seats = [alternating.reset(seed=i)[1]["seat"] for i in range(6)]
    assert seats == [0, 1, 0, 1, 0, 1]
    drawn = CrapetteEnv("casual", seat="random")
    drawn.reset(seed=5)
    seats = [drawn.reset()[1]["seat"] for _ in range(40)]
    assert {0, 1} == set(seats) and 8 <= sum(seats) <= 32
    again = CrapetteEnv("casual", seat="random")
    again.reset(seed=5)
    assert [again.reset()[1]["seat"] for _ in range(40)] == seats  # the generator draws the seats
    for env in (fixed, alternating, drawn):
        _obs, info = env.reset(options={"seat": 0, "deal": 3})
        assert info == {"deal": 3, "seat": 0, "illegal_action": False, "forfeit": None}
        assert env.seat == 0 and env.game_state.current_player == 0
        observation, info = env.reset(options={"seat": 1, "deal": 3})
        assert info["seat"] == 1 and env.game_state.current_player == 1
        assert observation["observation"][2081] == 1  # the observer field: the agent is player 1


# Stalling never pays ------------------------------------------------------------------------


def shuttling_action(observation: dict[str, np.ndarray], rng: random.Random) -> int:
    """A policy that stalls: a tableau-to-tableau move whenever there is one, never ending its turn if it can help it."""
    return shuttle(np.flatnonzero(observation["action_mask"]))


def shuttle(legal: np.ndarray) -> int:
    moves = [(int(a), action_to_move(int(a))) for a in legal]
    shuttles = [a for a, m in moves if isinstance(m, (Play, MoveStack)) and m.source.kind == m.target.kind == PileKind.TABLEAU]
    plays = [a for a, m in moves if isinstance(m, (Play, MoveStack))]
    return (shuttles or plays or [int(legal[0])])[0]


def test_stalling_never_pays_a_shuttling_policy_does_worse_than_a_random_one() -> None:
    returns: dict[str, list[float]] = {"shuttle": [], "random": []}
    forfeits = 0
    for name, policy in (("shuttle", shuttling_action), ("random", random_action)):
        env = CrapetteEnv("classic", max_moves=1500)
        for deal in range(6):
            for seat in (0, 1):
                observation, _info = env.reset(options={"deal": deal, "seat": seat})
                rng = random.Random(deal)
                while True:
                    observation, reward, terminated, truncated, info = env.step(policy(observation, rng))
                    if terminated or truncated:
                        break
                returns[name].append(reward)
                forfeits += name == "shuttle" and info["forfeit"] == seat
    assert np.mean(returns["shuttle"]) < np.mean(returns["random"])
    assert forfeits >= 6  # the shuttler loses by the turn cap, not by cutting the game off


class ShuttleBot:
    """An opponent that stalls as shuttle() does."""

    def choose(self, state: GameState) -> Move:
        return action_to_move(shuttle(np.array(sorted(move_to_action(m) for m in legal_moves(state)))))


def test_a_player_at_the_turn_cap_forfeits() -> None:
    outcomes = []
    for deal in range(6):
        env = CrapetteEnv("classic", seat=0, opponent=ShuttleBot(), max_turn_moves=4, max_moves=2000)
        observation, _info = env.reset(seed=deal)  # a drawn deal: one where the opponent forfeits at once is redealt
        while True:
            legal = np.flatnonzero(observation["action_mask"])
            action = 900 if 900 in legal else int(legal[0])  # the agent draws as soon as it may
            before = env.game_state.move_count
            observation, reward, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                break
        outcomes.append((info["forfeit"], reward))
        if info["forfeit"] == 1:  # the shuttling opponent forfeited: a win, though the game is not over by the rules
            assert terminated and reward == 1.0 and env.game_state.outcome is None
            assert env.game_state.move_count - before >= 4
            assert not observation["action_mask"].any()
    assert sum(forfeit == 1 for forfeit, _reward in outcomes) >= 2, outcomes
    assert CrapetteEnv("classic", max_turn_moves=None).max_turn_moves is None


def test_revisits_may_be_turned_back_on() -> None:
    env = CrapetteEnv("classic", revisits=True)
    assert env.rules == RuleSet.classic()
    assert CrapetteEnv(attrs.evolve(RuleSet.classic(), revisits=False)).rules.revisits is False


# Rewards, self-play, vectors -----------------------------------------------------------------


def test_score_rewards_are_scaled() -> None:
    env = CrapetteEnv("classic(move_limit=150)", rewards="score")
    results = []
    for deal in range(6):
        observation, _info = env.reset(options={"deal": deal})
        rng = random.Random(deal)
        while True:
            observation, reward, terminated, truncated, _info = env.step(random_action(observation, rng))
            if terminated or truncated:
                break
        outcome = env.game_state.outcome
        assert outcome is not None and outcome.scores is not None
        assert reward == (outcome.scores[0] - outcome.scores[1]) / 446 * (1 if env.seat == 0 else -1)
        results.append(reward)
    assert all(-1 <= r <= 1 for r in results) and any(r not in (-1.0, 0.0, 1.0) for r in results)


def test_a_policy_bot_makes_a_frozen_policy_the_opponent() -> None:
    calls = []

    def frozen(observation: dict[str, np.ndarray]) -> int:
        calls.append(observation["observation"][FIELDS_OBSERVER].tolist())
        return int(np.flatnonzero(observation["action_mask"])[0])

    env = CrapetteEnv("casual", seat=1, opponent=PolicyBot(frozen))
    env.reset(options={"deal": 2})
    assert calls and all(seen == [1.0, 0.0] for seen in calls)  # the bot observes as player 0, the one to move
    state = new_game(env.rules, 2)
    while state.current_player == 0:
        state = apply_move(state, action_to_move(min(move_to_action(m) for m in legal_moves(state))))
    assert env.game_state == state
    env.opponent = PolicyBot(lambda observation: 901)  # swapped between episodes; "end" is illegal at the deal
    with pytest.raises(IllegalMoveError, match="the policy chose action 901"):
        env.reset(options={"deal": 2})
    with pytest.raises(TypeError, match="policy must be callable"):
        PolicyBot(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("vector", ["sync", "async"])
def test_gymnasium_vector_envs(vector: str) -> None:
    make = lambda: gymnasium.make("crapette/Classic-v0", max_moves=200, seat="alternate")  # noqa: E731
    cls = gymnasium.vector.SyncVectorEnv if vector == "sync" else gymnasium.vector.AsyncVectorEnv
    envs = cls([make, make, make])
    try:
        observations, infos = envs.reset(seed=11)
        assert observations["observation"].shape == (3, 2104) and observations["action_mask"].shape == (3, 903)
        assert len(set(infos["deal"].tolist())) == 3 and infos["seat"].tolist() == [0, 0, 0]
        rng = np.random.default_rng(0)
        ended = 0
        for _ in range(400):
            actions = [int(rng.choice(np.flatnonzero(mask))) for mask in observations["action_mask"]]
            observations, rewards_, terminated, truncated, infos = envs.step(actions)
            assert ((observations["observation"] >= 0) & (observations["observation"] <= 1)).all()
            ended += int(np.sum(terminated | truncated))
            # The next step of an ended environment resets it (autoreset): its mask is for a new game.
            if (terminated | truncated).any():
                observations, rewards_, terminated, truncated, infos = envs.step(
                    [int(np.flatnonzero(mask)[0]) if mask.any() else 0 for mask in observations["action_mask"]]
                )
        assert ended >= 3
    finally:
        envs.close()


# The training recipe ---------------------------------------------------------------------------


def test_the_training_recipe_trains_saves_and_plays_as_a_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A smoke test of examples/train_ppo.py: a few hundred steps, not a player.
    pytest.importorskip("torch", reason='the training recipe needs PyTorch (a CPU build, then pip install ".[train]")')
    pytest.importorskip("sb3_contrib", reason='the training recipe needs sb3-contrib: pip install ".[train]"')
    import importlib.util
    import pickle
    import sys

    from crapette.simulation import simulate

    path = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_ppo", recipe)  # as `--bots train_ppo:PPOBot` imports it
    spec.loader.exec_module(recipe)
    saved = tmp_path / "policy.zip"
    model = recipe.train(steps=300, envs=1, save=saved)
    assert model.num_timesteps >= 300 and saved.exists()
    bot = recipe.PPOBot(saved)
    state = new_game(RuleSet.classic(), 3)
    state = attrs.evolve(state, rules=attrs.evolve(state.rules, revisits=False))
    assert bot.choose(state) in legal_moves(state)
    clone = pickle.loads(pickle.dumps(bot))  # a bot sent to another process loads the model there
    assert clone.choose(state) == bot.choose(state)
    report = simulate(attrs.evolve(RuleSet.classic(), revisits=False), [bot, RandomBot()], games=2, max_moves=300)
    assert report.games == 2


def _recipe_without_torch(monkeypatch: pytest.MonkeyPatch) -> Any:
    """examples/train_ppo.py imported over stand-ins for PyTorch and sb3-contrib: its plain logic, not the training."""
    import importlib.util
    import sys
    import types

    class BaseCallback:
        def __init__(self) -> None:
            self.num_timesteps = 0
            self.locals: dict[str, Any] = {}

    stand_ins = {
        "torch": {"set_num_threads": lambda n: None},
        "sb3_contrib": {"MaskablePPO": object},
        "sb3_contrib.common": {},
        "sb3_contrib.common.maskable": {},
        "sb3_contrib.common.maskable.utils": {"get_action_masks": None},
        "stable_baselines3": {},
        "stable_baselines3.common": {},
        "stable_baselines3.common.callbacks": {"BaseCallback": BaseCallback},
        "stable_baselines3.common.vec_env": {"DummyVecEnv": object},
    }
    for name, attributes in stand_ins.items():
        module = types.ModuleType(name)
        module.__dict__.update(attributes)
        monkeypatch.setitem(sys.modules, name, module)
    path = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"
    spec = importlib.util.spec_from_file_location("train_ppo", path)
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "train_ppo", recipe)  # as `--bot train_ppo:PPOBot` imports it
    spec.loader.exec_module(recipe)
    return recipe


def test_the_recipes_bot_without_a_trained_policy_says_so_before_the_game_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import io
    import sys

    from crapette.cli import main

    recipe = _recipe_without_torch(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CRAPETTE_PPO_MODEL", raising=False)
    with pytest.raises(FileNotFoundError, match=r"no trained policy at crapette_ppo\.zip: train one with python examples/train_ppo\.py"):
        recipe.PPOBot()
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    assert main(["play", "--bot", "train_ppo:PPOBot"]) == 2
    err = capsys.readouterr().err
    assert "cannot make the bot 'train_ppo:PPOBot': PPOBot() failed: FileNotFoundError: no trained policy at crapette_ppo.zip" in err
    assert ".zip.zip" not in err


def test_the_recipe_prints_a_line_of_progress_with_the_games_since_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    recipe = _recipe_without_torch(monkeypatch)
    callback = recipe._Deadline(deadline=float("inf"), self_play=None, every=4, total=100)
    lines = []
    monkeypatch.setattr("builtins.print", lambda text, **options: lines.append(text))
    finished = [  # two environments: a win (the unshaped reward), a loss, then a draw
        ([True, False], [{"unshaped_reward": 1.0}, {}]),
        ([False, True], [{}, {"unshaped_reward": -1.0}]),
        ([False, False], [{}, {}]),
        ([True, False], [{"unshaped_reward": 0.0}, {}]),
        ([False, False], [{}, {}]),
    ]
    for step, (dones, infos) in enumerate(finished, 1):
        callback.num_timesteps = 2 * step
        callback.locals = {"dones": dones, "infos": infos, "rewards": [0.3, -0.2]}
        assert callback._on_step() is True
    assert [line.split(" min: ")[1] for line in lines] == ["2 games (1 won, 1 lost, 0 drawn)", "1 game (0 won, 0 lost, 1 drawn)"]
    assert lines[0].startswith("4 of 100 steps, ") and lines[1].startswith("8 of 100 steps, ")


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ([1], TypeError, r"reset\(\) options must be a dict"),
        ("deal", TypeError, r"reset\(\) options must be a dict"),
        ({"player": 1}, ValueError, r"unknown reset\(\) option 'player': the options are 'deal'"),
        ({"Deal": 3}, ValueError, r"unknown reset\(\) option 'Deal' \(did you mean 'deal'\?\)"),
        ({"deal": "3"}, ValueError, r'options\["deal"\] \(a deal number'),
    ],
)
def test_reset_options_that_are_not_a_dict_or_hold_an_unknown_key_are_refused(
    options: object, error: type[Exception], message: str
) -> None:
    env = CrapetteEnv()
    with pytest.raises(error, match=message):
        env.reset(options=options)  # type: ignore[arg-type]
    assert env.reset(options={"deal": 3})[1] == {"deal": 3, "seat": 0, "illegal_action": False, "forfeit": None}
