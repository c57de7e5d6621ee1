"""The PettingZoo environment: PettingZoo's own API and seed tests, rewards, ends, observations, errors."""

from __future__ import annotations

import random
import warnings

import attrs

import pytest

pytest.importorskip("pettingzoo", reason='the PettingZoo adapter needs PettingZoo: pip install ".[pettingzoo]"')

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from conftest import random_states  # noqa: E402
from conftest import permute_unseen  # noqa: E402

from crapette import (  # noqa: E402
    IllegalMoveError,
    MoveStack,
    PileKind,
    Play,
    action_to_move,
    ParseError,
    RuleSet,
    legal_moves,
    move_to_action,
    new_game,
    parse_move,
)
from crapette.text import render_text  # noqa: E402
from crapette.episode import rewards  # noqa: E402
from crapette.observation import action_mask, encode  # noqa: E402
from crapette.protocol import Crapette  # noqa: E402

truncated_outcome = Crapette.cut_short
from crapette.pettingzoo import AGENTS, env, raw_env  # noqa: E402

# What api_test says of every environment whose observation is the usual dict of
# "observation" and "action_mask" (PettingZoo's own classic games are exempted by name).
DICT_OBSERVATION_WARNINGS = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or gymnasium.spaces.discrete",
    # api_test checks that reset takes options by passing one no environment knows.
    "reset() ignores the unknown option 'options': the only option is 'deal' (a deal number)",
}


CLASSIC = attrs.evolve(RuleSet.classic(), revisits=False)


def play_out(game, rng: random.Random) -> tuple[list[str], dict[str, tuple[float, bool, bool]]]:
    """Play random legal actions to the end: the agents selected in order, and each agent's last (reward, termination, truncation)."""
    selected = []
    final = {}
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
        if termination or truncation:
            final[agent] = (reward, termination, truncation)
            game.step(None)
            continue
        selected.append(agent)
        game.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return selected, final


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_pettingzoo_api_test(rules: str) -> None:
    # A classic game has no move limit: max_moves=300 stops it, so that api_test
    # plays through truncations as well as terminations in a few seconds.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(rules=rules, max_moves=300), num_cycles=1000)
    # api_test resets with an option no environment knows: ignored, with a warning naming it.
    unknown = "unknown reset() option 'options': the options are 'deal' (a deal number); it is ignored"
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_WARNINGS | {unknown}


def test_pettingzoo_seed_test() -> None:
    seed_test(lambda: env(rules="classic", max_moves=300), num_cycles=500)


def test_seeded_resets_deal_the_same_games_and_deal_options_choose_one() -> None:
    a, b = raw_env(), raw_env()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.deal == b.deal and a.game_state == b.game_state == new_game(CLASSIC, a.deal)
    a.reset()
    b.reset()
    assert a.deal == b.deal
    a.reset(seed=6)
    assert a.deal != b.deal
    with pytest.warns(UserWarning, match="unknown reset\\(\\) option 'unrelated'"):
        a.reset(options={"deal": 17, "unrelated": True})
    assert a.deal == 17 and a.game_state == new_game(CLASSIC, 17)
    assert a.agent_selection == AGENTS[a.game_state.current_player]


def test_terminal_rewards_are_the_outcome_and_sum_to_zero() -> None:
    for rules, deal in (("casual", 3), ("classic(move_limit=300)", 4)):
        game = env(rules=rules)
        game.reset(options={"deal": deal})
        totals = dict.fromkeys(AGENTS, 0.0)
        for agent in game.agent_iter():
            _observation, reward, termination, truncation, _info = game.last()
            totals[agent] += reward
            if termination or truncation:
                assert termination and not truncation
                game.step(None)
                continue
            mask = game.observe(agent)["action_mask"]
            game.step(int(np.flatnonzero(mask)[0]))
        state = game.unwrapped.game_state
        assert state.outcome is not None
        assert tuple(totals[a] for a in AGENTS) == rewards(state.outcome)
        assert game.agents == []


def test_a_game_stopped_by_max_moves_is_truncated_and_settled_by_penalties() -> None:
    decided = 0
    for deal in range(6):
        game = env(rules="classic", max_moves=40)
        game.reset(options={"deal": deal})
        _selected, final = play_out(game, random.Random(deal))
        state = game.unwrapped.game_state
        assert state.move_count == 40 and state.outcome is None
        settled = rewards(truncated_outcome(state))
        assert final == {agent: (settled[i], False, True) for i, agent in enumerate(AGENTS)}
        assert game.agents == []
        decided += settled != (0.0, 0.0)
    assert decided >= 2
    casual = env(rules="casual", max_moves=40)  # no scoring: a draw
    casual.reset(options={"deal": 2})
    assert play_out(casual, random.Random(2))[1] == dict.fromkeys(AGENTS, (0.0, False, True))


def test_truncation_is_reported_to_both_agents() -> None:
    game = raw_env(rules="classic", max_moves=40)
    game.reset(options={"deal": 2})
    rng = random.Random(2)
    while not any(game.truncations.values()):
        game.step(int(rng.choice(np.flatnonzero(game.observe(game.agent_selection)["action_mask"]))))
    assert game.truncations == dict.fromkeys(AGENTS, True)
    assert game.terminations == dict.fromkeys(AGENTS, False)
    assert tuple(game.rewards.values()) == rewards(truncated_outcome(game.game_state))
    assert not game.observe(game.agent_selection)["action_mask"].any()


def test_the_player_to_move_is_selected_and_may_move_several_times() -> None:
    game = raw_env(rules="casual", max_moves=400)
    game.reset(options={"deal": 0})
    selected, _final = play_out(game, random.Random(0))
    assert any(a == b for a, b in zip(selected, selected[1:]))
    assert set(selected) == set(AGENTS)


def test_observations_are_the_encoding_and_the_mask_is_the_movers() -> None:
    game = raw_env(rules="classic")
    game.reset(options={"deal": 9})
    rng = random.Random(9)
    for _ in range(60):
        state = game.game_state
        mover = AGENTS[state.current_player]
        assert game.agent_selection == mover
        for player, agent in enumerate(AGENTS):
            observation = game.observe(agent)
            assert np.array_equal(observation["observation"], encode(state, player))
            if agent == mover:
                assert np.array_equal(observation["action_mask"], action_mask(state))
            else:
                assert not observation["action_mask"].any()
            assert game.observation_space(agent).contains(observation)
        game.step(move_to_action(rng.choice(legal_moves(state))))


def test_observations_do_not_show_face_down_cards() -> None:
    rng = random.Random(4)
    game = raw_env(rules="classic")
    for state in random_states("classic", 4, 500)[::50]:
        game.game_state = state
        first = game.observe("player_0")["observation"]
        game.game_state = permute_unseen(state, rng)
        assert np.array_equal(game.observe("player_0")["observation"], first)


def test_an_illegal_action_ends_the_game_with_the_illegal_reward() -> None:
    game = raw_env(rules="classic", illegal_reward=-5)
    game.reset(options={"deal": 1})
    game.step(move_to_action(parse_move("T0-F0")))
    assert game.terminations == dict.fromkeys(AGENTS, True)
    assert game.rewards == {"player_0": -5.0, "player_1": 0.0}
    assert game.infos["player_0"]["illegal_action"] is True and game.infos["player_1"]["illegal_action"] is True
    assert game.game_state == new_game(CLASSIC, 1)


def test_an_illegal_action_raises_when_asked_to() -> None:
    game = env(rules="classic", illegal_reward=None)
    game.reset(options={"deal": 1})
    with pytest.raises(IllegalMoveError, match=r"action 0 of player_0: illegal move T0-F0"):
        game.step(move_to_action(parse_move("T0-F0")))
    with pytest.raises(IllegalMoveError, match="action 903 is no move: actions are 0 to 902"):
        game.step(903)
    with pytest.raises(ValueError, match="None is the action only of an agent that is done"):
        game.step(None)
    assert game.unwrapped.game_state == new_game(CLASSIC, 1)


def test_render_modes() -> None:
    game = raw_env(rules="casual", render_mode="ansi")
    game.reset(options={"deal": 3})
    assert game.render() == render_text(new_game(game.rules, 3))
    human = raw_env(rules="casual", render_mode="human")
    human.reset(options={"deal": 3})
    assert human.render() is None
    silent = raw_env(rules="casual")
    silent.reset(options={"deal": 3})
    with pytest.warns(UserWarning, match="render_mode"):
        assert silent.render() is None


def test_render_prints_every_step_in_human_mode(capsys: pytest.CaptureFixture[str]) -> None:
    game = raw_env(rules="casual", render_mode="human")
    game.reset(options={"deal": 3})
    game.step(move_to_action(legal_moves(game.game_state)[0]))
    assert capsys.readouterr().out == render_text(game.game_state) + "\n"


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="max_moves must be at least 1"):
        raw_env(max_moves=0)
    with pytest.raises(TypeError, match="max_moves must be an int"):
        raw_env(max_moves=10.0)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rules must be a RuleSet"):
        raw_env(rules=42)  # type: ignore[arg-type]
    with pytest.raises(ParseError):
        raw_env(rules="chess")
    with pytest.raises(TypeError, match="illegal_reward"):
        raw_env(illegal_reward="-1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="illegal_reward must be finite"):
        raw_env(illegal_reward=float("nan"))
    with pytest.raises(ValueError, match="deal number"):
        raw_env().reset(options={"deal": 2**64})
    with pytest.raises(ValueError, match="deal number"):  # a bad seed of any kind, as new_game says
        raw_env().reset(options={"deal": 1.5})


def test_rules_may_be_a_ruleset_or_a_text() -> None:
    rules = attrs.evolve(RuleSet.casual(), revisits=False)
    assert raw_env(rules=rules).rules is rules
    assert raw_env(rules=RuleSet.casual()).rules == rules  # revisits off unless told otherwise
    assert raw_env(rules=RuleSet.casual(), revisits=True).rules == RuleSet.casual()
    assert raw_env(rules="classic(move_limit=200)").rules.move_limit == 200


def test_reset_options_are_checked() -> None:
    game = raw_env()
    with pytest.raises(TypeError, match="reset\\(\\) options must be a dict .* got \\[1\\]"):
        game.reset(options=[1])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown reset\\(\\) option 'dael' \\(did you mean 'deal'\\?\\)"):
        game.reset(options={"dael": 3})
    with pytest.warns(UserWarning, match="unknown reset\\(\\) option 'seat'.*it is ignored"):
        game.reset(options={"seat": 1})


def shuttle(legal: np.ndarray) -> int:
    """A policy that stalls: a tableau-to-tableau move whenever there is one, never ending its turn if it can help it."""
    moves = [(int(a), action_to_move(int(a))) for a in legal]
    shuttles = [a for a, m in moves if isinstance(m, (Play, MoveStack)) and m.source.kind == m.target.kind == PileKind.TABLEAU]
    plays = [a for a, m in moves if isinstance(m, (Play, MoveStack))]
    return (shuttles or plays or [int(legal[0])])[0]


def test_stalling_never_pays_a_shuttling_policy_does_worse_than_a_random_one() -> None:
    # One agent shuttles, or plays at random, against a random other agent, over the same deals and seats.
    returns: dict[str, list[float]] = {"shuttle": [], "random": []}
    forfeits = 0
    for name in returns:
        for deal in range(10):
            for seat in AGENTS:
                game = env(rules="classic", max_moves=1500)
                game.reset(options={"deal": deal})
                rng = random.Random(deal)
                for agent in game.agent_iter():
                    observation, reward, termination, truncation, info = game.last()
                    if termination or truncation:
                        if agent == seat:
                            returns[name].append(reward)
                            forfeits += info.get("forfeit") is not None
                        game.step(None)
                        continue
                    legal = np.flatnonzero(observation["action_mask"])
                    stalls = agent == seat and name == "shuttle"
                    game.step(shuttle(legal) if stalls else int(rng.choice(legal)))
    assert np.mean(returns["shuttle"]) < np.mean(returns["random"])
    assert forfeits >= 10  # the shuttler loses by the turn cap, not by cutting the game off


def test_an_agent_at_the_turn_cap_forfeits() -> None:
    game = raw_env(rules="classic", max_turn_moves=3)
    game.reset(options={"deal": 1})
    mover = game.agent_selection
    for _ in range(3):
        assert not any(game.terminations.values())
        game.step(shuttle(np.flatnonzero(game.observe(mover)["action_mask"])))
        assert game.agent_selection == mover
    assert game.terminations == dict.fromkeys(AGENTS, True)
    other = AGENTS[1 - AGENTS.index(mover)]
    assert game.rewards == {mover: -1.0, other: 1.0} and game.infos[mover]["forfeit"] == AGENTS.index(mover)
    assert game.game_state.outcome is None and game.game_state.move_count == 3


def test_self_play_loop_with_one_policy_for_both_agents() -> None:
    # The loop of the RL page: one policy (here the first legal action) plays both agents.
    game = env(rules="casual", rewards="score")
    game.reset(seed=0)
    totals = dict.fromkeys(AGENTS, 0.0)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, _info = game.last()
        totals[agent] += reward
        action = None if termination or truncation else int(np.flatnonzero(observation["action_mask"])[0])
        game.step(action)
    assert sum(totals.values()) == 0 and -1 <= totals["player_0"] <= 1


@pytest.mark.parametrize(
    ("options", "error", "message"),
    [
        ([1], TypeError, r"reset\(\) options must be a dict"),
        ({"deal": -1}, ValueError, r'options\["deal"\] \(a deal number'),
    ],
)
def test_reset_options_that_are_not_a_dict_or_a_bad_deal_are_refused(
    options: object, error: type[Exception], message: str
) -> None:
    game = raw_env()
    with pytest.raises(error, match=message):
        game.reset(options=options)  # type: ignore[arg-type]
    game.reset(options={"deal": 3})
    assert game.deal == 3


def test_an_unknown_reset_option_is_named_in_a_warning_not_silently_ignored() -> None:
    # Not an error: PettingZoo's api_test resets with options={"options": 1}.
    game = raw_env()
    with pytest.warns(UserWarning, match=r"unknown reset\(\) option 'seat': the options are 'deal' .*; it is ignored"):
        game.reset(options={"seat": 1, "deal": 5})
    assert game.deal == 5


@pytest.mark.parametrize("wrapped", [False, True])
def test_after_the_end_step_and_last_say_the_game_is_over(wrapped: bool) -> None:
    game = env(rules="casual", max_moves=4) if wrapped else raw_env(rules="casual", max_moves=4)
    game.reset(seed=1)
    while game.agents:
        observation, _, termination, truncation, _ = game.last()
        done = termination or truncation
        game.step(None if done else int(observation["action_mask"].nonzero()[0][0]))
    # PettingZoo's order-enforcing wrapper answers a step after the end with a warning of its own.
    calls = [lambda: game.last()] + ([] if wrapped else [lambda: game.step(None), lambda: game.step(0)])
    for call in calls:
        with pytest.raises(RuntimeError, match="the game is over and every agent is done: call reset"):
            call()
    assert game.observe("player_0")["observation"].shape == (2104,)  # a known agent still observes the table
    game.reset(seed=2)
    assert game.last()[0] is not None


def test_an_unknown_agent_is_a_clear_error() -> None:
    game = raw_env()
    game.reset(seed=1)
    with pytest.raises(ValueError, match="unknown agent 'player_9': the agents are player_0, player_1"):
        game.observe("player_9")


@pytest.mark.parametrize("action", [-1, 903, 10**30])
def test_an_out_of_range_action_is_an_illegal_action(action: int) -> None:
    game = raw_env(rules="classic")
    game.reset(seed=1)
    agent = game.agent_selection
    game.step(action)
    assert game.terminations[agent] and game.infos[agent]["illegal_action"] is True
    assert game.rewards[agent] == -1.0
