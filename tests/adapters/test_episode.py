"""One RL episode for the three adapters: the caps, the forfeit, truncation, illegal actions, rewards, info."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from crapette import IllegalMoveError, legal_actions, legal_moves, move_to_action, new_game, parse_move
from crapette.episode import Episode, EpisodeSettings, check_reset_options, check_seat, rewards
from crapette.protocol import Crapette


def _first_legal(episode: Episode) -> int:
    return min(legal_actions(episode.state))


def test_an_episode_steps_by_actions_and_ends_as_the_rules_or_the_caps_say() -> None:
    settings = EpisodeSettings.of("classic", max_moves=40, max_turn_moves=None)
    episode = Episode.start(settings, deal=3)
    assert episode.state == new_game(settings.rules, 3) and not settings.rules.revisits
    while not episode.over:
        episode = episode.act(_first_legal(episode))
    assert episode.truncated and not episode.terminated and episode.state.move_count == 40
    assert episode.returns() == rewards(Crapette.cut_short(episode.state))
    with pytest.raises(RuntimeError, match="the episode is over"):
        episode.act(900)
    assert pickle.loads(pickle.dumps(episode)) == episode


def test_a_player_at_the_turn_cap_forfeits_and_loses_the_most() -> None:
    episode = Episode.start(EpisodeSettings.of("classic", max_turn_moves=2, rewards="points"), deal=1)
    mover = episode.state.current_player
    while not episode.over:
        moves = [m for m in legal_moves(episode.state) if m.between_tableau] or list(legal_moves(episode.state))
        episode = episode.play(moves[0])
    assert episode.forfeit == mover and episode.terminated
    assert episode.returns() == ((-446.0, 446.0) if mover == 0 else (446.0, -446.0))
    assert episode.info(mover) == {"deal": 1, "seat": mover, "illegal_action": False, "forfeit": mover}


def test_an_illegal_action_ends_the_episode_or_raises() -> None:
    episode = Episode.start(EpisodeSettings.of("casual", illegal_reward=-5), deal=1)
    for action in (901, 903, -1, 10**30):
        after = episode.act(action)
        assert after.terminated and after.illegal == 0 and after.returns() == (-5.0, 0.0)
        assert after.info(1)["illegal_action"] is True
    strict = Episode.start(EpisodeSettings.of("casual", illegal_reward=None), deal=1)
    with pytest.raises(IllegalMoveError, match=r"^action 901 of player_0: illegal move end") as info:
        strict.act(901, who="of player_0")
    assert info.value.move == parse_move("end")
    with pytest.raises(TypeError, match="an action is an integer, got str"):
        strict.act("900")


def test_settings_are_checked_as_the_adapters_take_them() -> None:
    with pytest.raises(ValueError, match="max_moves must be at least 1"):
        EpisodeSettings.of(max_moves=0)
    with pytest.raises(TypeError, match="revisits must be True or False"):
        EpisodeSettings.of(revisits=None)
    with pytest.raises(ValueError, match="rewards must be one of"):
        EpisodeSettings.of(rewards="money")
    with pytest.raises(ValueError, match="illegal_reward must be finite"):
        EpisodeSettings.of(illegal_reward=float("inf"))
    with pytest.raises(ValueError, match=r"did you mean 'seat'\?"):
        check_reset_options({"seet": 1}, {"deal": "a deal number", "seat": "0 or 1"})
    with pytest.raises(TypeError, match="seat must be 0, 1"):
        check_seat(True)


Pick = Any  # a list of legal action numbers -> the one to play


def _gymnasium_infos(deal: int, steps: int, pick: Pick) -> list[dict[str, Any]]:
    pytest.importorskip("gymnasium", reason='the Gymnasium adapter needs Gymnasium: pip install ".[gymnasium]"')
    from crapette.bots import Bot
    from crapette.gymnasium import CrapetteEnv

    class Picks(Bot):
        def choose(self, state: Any) -> Any:
            action = pick(sorted(legal_actions(state)))
            return next(m for m in legal_moves(state) if move_to_action(m) == action)

    env = CrapetteEnv("classic", opponent=Picks(), seat=0, max_moves=steps, max_turn_moves=6)
    _, info = env.reset(options={"deal": deal})
    infos = [info]
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(pick(env.action_masks().nonzero()[0].tolist()))
        infos.append(info)
        done = terminated or truncated
    return infos


def _pettingzoo_infos(deal: int, steps: int, pick: Pick) -> list[dict[str, Any]]:
    pytest.importorskip("pettingzoo", reason='the PettingZoo adapter needs PettingZoo: pip install ".[pettingzoo]"')
    from crapette.pettingzoo import raw_env

    game = raw_env("classic", max_moves=steps, max_turn_moves=6)
    game.reset(options={"deal": deal})
    infos = []
    while not (any(game.terminations.values()) or any(game.truncations.values())):
        agent = game.agent_selection
        if agent == "player_0":
            infos.append(dict(game.infos[agent]))
        game.step(pick(game.observe(agent)["action_mask"].nonzero()[0].tolist()))
    infos.append(dict(game.infos["player_0"]))
    return infos


def _openspiel_infos(deal: int, steps: int, pick: Pick) -> list[dict[str, Any]]:
    pyspiel = pytest.importorskip("pyspiel", reason='the OpenSpiel adapter needs OpenSpiel: pip install ".[openspiel]"')
    from crapette.openspiel import deal_actions

    game = pyspiel.load_game("crapette", {"max_moves": steps, "max_turn_moves": 6})
    state = game.new_initial_state()
    for action in deal_actions(deal):
        state.apply_action(action)
    infos = []
    while not state.is_terminal():
        if state.current_player() == 0:
            infos.append(state.info(0))
        state.apply_action(pick(sorted(state.legal_actions())))
    infos.append(state.info(0))
    return infos


@pytest.mark.parametrize(
    ("deal", "steps", "pick", "how"),
    [(1, 400, min, "forfeit"), (3, 60, max, "truncated"), (6, 60, max, "truncated")],
)
def test_the_three_adapters_report_the_same_info_for_the_same_episode(deal: int, steps: int, pick: Pick, how: str) -> None:
    # The same deal, the same moves for both players, the same caps: at every decision of player 0,
    # and at the end, the same keys and values (OpenSpiel deals at its chance nodes, with no deal
    # number: its "deal" is None).
    gym = _gymnasium_infos(deal, steps, pick)
    zoo = _pettingzoo_infos(deal, steps, pick)
    spiel = _openspiel_infos(deal, steps, pick)
    assert len(gym) == len(zoo) == len(spiel) > 2
    assert gym == zoo
    assert [{**info, "deal": deal} for info in spiel] == gym
    assert {key for info in gym for key in info} == {"deal", "seat", "illegal_action", "forfeit"}
    assert (gym[-1]["forfeit"] is not None) == (how == "forfeit")
    assert not gym[-1]["illegal_action"]
