"""Every front end keeps what a state remembers: a game saved mid-turn and loaded plays on as before.

Classic seed 1 under ``revisits=false``: player 0 starts, and after T7-T1 the
only legal moves are R0-T5 and R0-T7 (T1-T7 would recreate the deal, and the
empty T7 must be filled before drawing).
"""

from __future__ import annotations

import copy
import json
import pickle
from pathlib import Path

import attrs
import pytest

from cli_helpers import run
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)
from crapette import Game, GameRecord, RuleSet, apply_move, legal_moves, move_to_action, new_game, parse_move
from crapette import parse_position, parse_record

RULES = attrs.evolve(RuleSet.classic(), revisits=False)
AFTER = ["R0-T5", "R0-T7"]


def _mid_turn() -> Game:
    game = Game(RULES, seed=1)
    game.push(parse_move("T7-T1"))
    assert [str(m) for m in game.legal_moves] == AFTER and game.state.turn_moves
    return game


def test_a_record_saved_mid_turn_replays_to_the_same_state() -> None:
    game = _mid_turn()
    for record in (GameRecord.from_json(game.to_record().to_json()), parse_record(str(game.to_record()))):
        loaded = Game.from_record(record)
        assert loaded.state == game.state and [str(m) for m in loaded.legal_moves] == AFTER


def test_a_record_that_starts_mid_turn_keeps_the_turns_positions() -> None:
    state = _mid_turn().state
    started = Game.from_state(state)
    record = GameRecord.from_json(started.to_record().to_json())
    assert record.start == state and str(record.start).endswith("M:deal,T7-T1")
    assert Game.from_record(record).state == state


def test_the_command_line_saves_mid_turn_and_loads_to_the_same_choices(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["play", "--rules", str(RULES), "--seed", "1", "--bot", "random"]
    code, out, err = run(argv, capsys, monkeypatch, stdin="T7-T1\nsave mid.json\nquit\n")
    assert code == 0 and err == "", out
    saved = GameRecord.from_json(Path("mid.json").read_text(encoding="utf-8"))
    assert saved.replay() == _mid_turn().state
    code, out, err = run(["play", "--load", "mid.json"], capsys, monkeypatch, stdin="moves\nT1-T7\nquit\ny\n")
    assert code == 0 and err == "", out
    assert "would recreate a position already reached in this turn" in out
    listed = out.split("Your legal moves")[1].split("your move>")[0]
    assert "R0-T5" in listed and "T1-T7" not in listed


def test_gymnasium_and_pettingzoo_environments_copied_mid_turn_offer_the_same_actions() -> None:
    pytest.importorskip("gymnasium", reason='the Gymnasium adapter needs Gymnasium: pip install ".[gymnasium]"')
    from crapette.gymnasium import CrapetteEnv

    env = CrapetteEnv("classic", seat=0)
    env.reset(options={"deal": 1})
    env.step(move_to_action(parse_move("T7-T1")))
    assert env.game_state.turn_moves == (parse_move("T7-T1"),)
    for twin in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
        assert twin.game_state == env.game_state
        assert (twin.action_masks() == env.action_masks()).all()
        assert twin.action_masks().sum() == 2


def test_an_openspiel_state_serialized_mid_turn_deserializes_with_the_same_choices() -> None:
    pyspiel = pytest.importorskip("pyspiel", reason='the OpenSpiel adapter needs OpenSpiel: pip install ".[openspiel]"')
    from crapette.openspiel import deal_actions  # (registers the game)

    game = pyspiel.load_game("crapette")
    state = game.new_initial_state()
    for action in deal_actions(0):  # the chance nodes deal crapette's game 0
        state.apply_action(action)
    # Play the first move between tableau piles that is legal, then compare.
    for _ in range(200):
        inner = parse_position(str(state))
        shuttles = [m for m in legal_moves(inner) if str(m).count("T") == 2]
        if shuttles:
            state.apply_action(move_to_action(shuttles[0]))
            break
        state.apply_action(state.legal_actions()[-1])
    assert parse_position(str(state)).turn_moves
    for twin in (game.deserialize_state(state.serialize()), state.clone()):
        assert str(twin) == str(state)
        assert twin.legal_actions() == state.legal_actions()
        assert twin.information_state_string(0) == state.information_state_string(0)


def test_a_position_string_of_a_mid_turn_state_rebuilds_it() -> None:
    state = _mid_turn().state
    text = json.dumps({"position": str(state)})
    assert parse_position(json.loads(text)["position"]) == state
    assert apply_move(new_game(RULES, seed=1), parse_move("T7-T1")) == state
