"""Edges met by a client built from the docs: short reprs, progress in a pipe, names on the pages, bots of one's own."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

from crapette import GameRecord, new_game
from crapette.bots import PlanningBot
from crapette.evaluation import Playout
from crapette.svg import render_html
from crapette.value import LearnedValue, net_for

from cli_helpers import bot_game, run
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)

# Reprs ------------------------------------------------------------------------------


def test_a_bot_holding_a_network_has_a_short_repr_that_is_the_same_in_every_process() -> None:
    bot = PlanningBot(evaluator=LearnedValue(net_for("classic")))
    text = repr(bot)
    assert len(text) < 200 and "units=32" in text and "digest=" in text
    code = "from crapette.bots import PlanningBot; from crapette.value import LearnedValue, net_for; "
    code += "print(repr(PlanningBot(evaluator=LearnedValue(net_for('classic')))))"
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert other.stdout.strip() == text


def test_a_networks_digest_tells_its_weights_apart() -> None:
    net = net_for("classic")
    row = (net.hidden[0][0] + 1, *net.hidden[0][1:])
    changed = attrs.evolve(net, hidden=(row, *net.hidden[1:]))
    assert changed.digest != net.digest and len(net.digest) == 12
    assert repr(changed) != repr(net) and repr(changed).startswith("ValueNet(name='classic', units=32, features=")


def test_a_playout_names_its_policy_by_its_qualified_name() -> None:
    assert repr(Playout()) == "Playout(leaf=CardCount(), policy=crapette.evaluation.greedy_move)"

    def first(state: object) -> object:
        raise AssertionError

    assert "0x" not in repr(Playout(policy=first))  # type: ignore[arg-type]
    assert repr(Playout(policy=first)).endswith("test_a_playout_names_its_policy_by_its_qualified_name.<locals>.first)")  # type: ignore[arg-type]


# Progress in a pipe ---------------------------------------------------------------------


def test_progress_into_a_pipe_is_a_few_whole_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    from crapette._play.progress import progress

    pipe = io.StringIO()  # not a terminal
    monkeypatch.setattr(sys, "stderr", pipe)
    shown = progress(True, 300, "position", "positions")
    for done in range(1, 301):
        shown.update(done)
    shown.close()
    text = pipe.getvalue()
    lines = text.splitlines()
    assert "\r" not in text and text.endswith("\n")
    assert 2 <= len(lines) <= 11 and lines[-1].startswith("positions: 300/300 positions (100%)")


# Names on the pages ---------------------------------------------------------------------


def test_the_replay_page_names_the_players_on_their_plates() -> None:
    first = new_game("casual", seed=1)
    page = render_html([first], names=("Ann <3", "a very long name indeed"))
    assert "Player 0" not in page and "Player 1" not in page
    assert "Ann &lt;3" in page and "a very long n&#8230;" in page
    assert "Player 0" in render_html([first])
    with pytest.raises(TypeError, match="names must be None or a tuple of two str"):
        render_html([first], names=["Ann", "Bob"])  # type: ignore[arg-type]


def test_the_replay_and_analysis_commands_name_the_records_players(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = bot_game(moves=30)
    record = GameRecord(record.rules, record.seed, record.moves, players=("Ann", "Bob"))
    Path("game.json").write_text(record.to_json(), encoding="utf-8")
    code, _, err = run(["replay", "game.json", "--html", "replay.html"], capsys, monkeypatch)
    assert code == 0, err
    page = Path("replay.html").read_text(encoding="utf-8")
    assert "Ann" in page and "Bob" in page and "Player 0" not in page
    code, _, err = run(["analyse", "game.json", "--playouts", "20", "--html", "marks.html"], capsys, monkeypatch)
    assert code == 0, err
    page = Path("marks.html").read_text(encoding="utf-8")
    assert "Ann" in page and "Bob" in page and "Player 0" not in page


# Bots of one's own ---------------------------------------------------------------------

SUBCLASS = """
from crapette.bots import PlanningBot


class MyBot(PlanningBot):
    def __init__(self):
        super().__init__(seed=3, playouts=20)


class Loud:
    def choose(self, state):
        raise RuntimeError("no idea " + "x" * 250 + " the end")
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_subclass_of_a_library_bot_made_with_no_arguments_plays_on_workers(
    workers: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"ownbots_{tmp_path.name.replace('-', '_')}"
    Path(f"{name}.py").write_text(SUBCLASS, encoding="utf-8")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, name, raising=False)
    argv = ["simulate", "--games", "2", "--bots", f"{name}:MyBot,greedy", "--max-moves", "60", "--workers", str(workers)]
    code, out, err = run([*argv, "--json", "--no-progress"], capsys, monkeypatch)
    assert code == 0, err
    assert json.loads(out)["bots"] == [f"{name}:MyBot", "GreedyBot()"] and "Traceback" not in err


def test_a_simulation_that_fails_says_so_in_one_whole_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    name = f"ownbots_{tmp_path.name.replace('-', '_')}"
    Path(f"{name}.py").write_text(SUBCLASS, encoding="utf-8")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    monkeypatch.delitem(sys.modules, name, raising=False)
    code, _, err = run(["simulate", "--games", "2", "--bots", f"{name}:Loud,greedy", "--no-progress"], capsys, monkeypatch)
    assert code == 1
    assert err.count("\n") == 1 and err.startswith("crapette simulate: BotError: ") and err.rstrip().endswith(" the end")
