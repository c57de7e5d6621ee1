"""The crapette command, driven through main(argv) with captured input and output."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from crapette import GameRecord, apply_move, legal_moves, new_game
from crapette.bots import GreedyBot, RandomBot
from crapette.cli import _parser, main, render_text

ESC = "\x1b["


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: str = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def bot_game(rules: str = "classic", seed: int = 4, moves: int | None = None) -> GameRecord:
    state = new_game(rules, seed)
    states = [state]
    bots = (GreedyBot(), RandomBot(seed=2))
    while not state.is_over and (moves is None or len(states) <= moves):
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    return GameRecord.from_states(states, seed=seed, players=("Ann", "Bob"))


# The command itself -----------------------------------------------------------------------------


def test_python_dash_m_crapette_help_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "crapette", "--help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0
    for command in ("play", "simulate", "show", "replay"):
        assert command in result.stdout


def test_help_and_version_return_zero(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["--version"], capsys, monkeypatch)
    assert code == 0 and out.startswith("crapette ")
    code, out, _ = run([], capsys, monkeypatch)
    assert code == 0 and "usage: crapette" in out


def test_a_bad_option_is_a_usage_error_without_a_traceback(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["simulate", "--bots", "greedy,chess"], capsys, monkeypatch)
    assert code == 2
    assert "unknown bot 'chess'" in err and "Traceback" not in err
    code, _, err = run(["simulate", "--games", "zero"], capsys, monkeypatch)
    assert code == 2 and "expected a whole number" in err
    code, _, err = run(["play", "--rules", "chess"], capsys, monkeypatch)
    assert code == 2 and "unknown preset 'chess'" in err


# simulate -------------------------------------------------------------------------------------


def test_simulate_with_no_options_is_the_readme_command() -> None:
    args = _parser().parse_args(["simulate"])
    assert (args.rules.preset_name, args.games, args.bots, args.workers, args.seed) == (
        "classic", 200, (("greedy", None), ("random", None)), 1, 0,
    )
    assert args.bot_seed == 1


def test_simulate_prints_a_summary_table(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["simulate", "--games", "4", "--seed", "3", "--no-progress"], capsys, monkeypatch)
    assert code == 0 and err == ""
    assert "classic, 4 games from seed 3" in out
    assert "GreedyBot()" in out and "RandomBot(seed=1)" in out


def test_simulate_json_is_the_same_on_two_processes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--rules", "casual", "--games", "4", "--bots", "random,greedy", "--json"]
    code, serial, _ = run(argv, capsys, monkeypatch)
    assert code == 0
    code, parallel, _ = run(argv + ["--workers", "2"], capsys, monkeypatch)
    assert code == 0
    data = json.loads(serial)
    assert json.loads(parallel) == data
    assert data["rules"] == "casual" and data["games"] == 4
    assert data["bots"] == ["RandomBot(seed=1)", "GreedyBot()"]


def test_simulate_shows_a_progress_bar_then_the_table(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["simulate", "--games", "2", "--progress"], capsys, monkeypatch)
    assert code == 0
    assert "simulating" in err
    assert "2 games from seed 0" in out


def test_simulate_seeds_each_bot_as_told(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    argv = ["simulate", "--games", "2", "--bots", "random:7,random", "--bot-seed", "3", "--json"]
    code, out, _ = run(argv, capsys, monkeypatch)
    assert code == 0 and json.loads(out)["bots"] == ["RandomBot(seed=7)", "RandomBot(seed=3)"]
    code, _, err = run(["simulate", "--bots", "random:x,greedy"], capsys, monkeypatch)
    assert code == 2 and "expected a whole number, got 'x'" in err


def test_simulate_with_a_search_bot_and_a_budget(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "1", "--bots", "search,greedy", "--budget", "8", "--max-moves", "60"]
    code, out, _ = run(argv + ["--json"], capsys, monkeypatch)
    data = json.loads(out)
    assert code == 0 and data["bots"] == ["SearchBot(seed=1, budget=8)", "GreedyBot()"]
    assert data["max_moves"] == 60 and data["lengths"]["max"] <= 60


# show -------------------------------------------------------------------------------------------


def test_show_draws_a_deal_with_unicode_suits(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run(["show", "--rules", "casual", "--seed", "1", "--moves"], capsys, monkeypatch)
    assert code == 0
    assert out == render_text(new_game("casual", 1)) + "\nlegal moves: T1-T0 draw\n"
    assert any(suit in out for suit in "♣♦♥♠")
    assert ESC not in out


def test_show_reads_a_position_quoted_or_as_words(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    state = apply_move(new_game("classic", 42), legal_moves(new_game("classic", 42))[0])
    text = str(state)
    _, quoted, _ = run(["show", text], capsys, monkeypatch)
    _, words, _ = run(["show", *text.split()], capsys, monkeypatch)
    assert quoted == words == render_text(state) + "\n"


def test_show_explains_a_bad_position(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(["show", "classic 0 0 - F:-"], capsys, monkeypatch)
    assert code == 1 and out == ""
    assert err.startswith("crapette show: invalid position") and "9 fields" in err
    assert "Traceback" not in err


def test_show_writes_an_svg_picture(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "deal.svg"
    code, out, _ = run(["show", "--seed", "7", "--svg", str(target)], capsys, monkeypatch)
    assert code == 0 and f"wrote {target}" in out
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_colour_follows_the_terminal_and_no_color(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, always, _ = run(["show", "--color", "always"], capsys, monkeypatch)
    assert ESC + "31m" in always
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    _, tty, _ = run(["show"], capsys, monkeypatch)
    assert ESC in tty
    monkeypatch.setenv("NO_COLOR", "1")
    _, no_color, _ = run(["show"], capsys, monkeypatch)
    assert ESC not in no_color


# replay -----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return bot_game(moves=40)


@pytest.fixture()
def record_file(tmp_path: Path, record: GameRecord) -> Path:
    path = tmp_path / "game.json"
    path.write_text(record.to_json(indent=2), encoding="utf-8")
    return path


def test_replay_prints_the_turns_and_the_last_position(
    record: GameRecord, record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["replay", str(record_file)], capsys, monkeypatch)
    assert code == 0
    assert out.startswith("classic, seed 4, 40 moves, Ann (player 0) against Bob (player 1)")
    first_turn = " ".join(str(m) for m in record.turns()[0])
    assert f"   1. {('Ann', 'Bob')[new_game('classic', 4).current_player]}: {first_turn}" in out
    assert out.endswith(render_text(record.replay(), names=("Ann", "Bob")) + "\n")


def test_replay_reads_the_text_form_too(
    tmp_path: Path, record: GameRecord, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(str(record), encoding="utf-8")
    code, out, _ = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 0 and "40 moves" in out


def test_replay_all_draws_every_position(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["replay", "--all", str(record_file)], capsys, monkeypatch)
    assert code == 0
    assert out.count("F0 ") == 41
    assert "move 40: " in out


def test_replay_steps_through_a_game_on_enter(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["replay", "--step", str(record_file)], capsys, monkeypatch, stdin="\n\nq\n")
    assert code == 0
    assert "move 2: " in out and "move 3: " not in out
    assert out.count("F0 ") == 3


def test_replay_writes_pictures_and_a_page(
    tmp_path: Path, record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "pictures"
    page = tmp_path / "game.html"
    argv = ["replay", str(record_file), "--svg-dir", str(folder), "--html", str(page)]
    code, out, _ = run(argv, capsys, monkeypatch)
    assert code == 0
    pictures = sorted(folder.glob("*.svg"))
    assert len(pictures) == 41 and pictures[0].name == "state-00000.svg"
    ET.fromstring(pictures[-1].read_text(encoding="utf-8"))
    html = page.read_text(encoding="utf-8")
    assert html.count("<svg ") == 41 and "move 40: " in html
    assert f"wrote 41 pictures to {folder}" in out and f"wrote {page}" in out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "is not a valid game record: invalid record JSON"),
        ('[Rules "classic"]\n[Seed "3"]\n\n1. draw T9-F0 *', "line 4"),
    ],
)
def test_replay_explains_a_bad_record(
    tmp_path: Path,
    content: str | None,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code, _, err = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 1 and message in err and "Traceback" not in err


def test_replay_shows_a_record_up_to_its_first_illegal_move(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "illegal.json"
    path.write_text(GameRecord("casual", seed=1, moves=["T1-T0", "R1-F0"]).to_json(), encoding="utf-8")
    code, out, err = run(["replay", str(path)], capsys, monkeypatch)
    assert code == 1
    assert "1. player 0: T1-T0" in out
    assert "illegal move R1-F0 at index 1" in err


# play -------------------------------------------------------------------------------------------


def play(
    lines: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[int, str]:
    code, out, err = run(["play", "--seed", "5", *options], capsys, monkeypatch, stdin="".join(f"{line}\n" for line in lines))
    assert err == ""
    return code, out


def test_play_lists_moves_explains_mistakes_and_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["help", "moves", "", "foo", "R9-F1", "R1-F0", "99", "quit"], capsys, monkeypatch)
    assert code == 0
    assert "You are player 0, against the greedy bot" in out
    assert "T2-T5x3" in out  # the help
    assert "legal moves: 1:T3-F0  2:T3-F1" in out
    assert "Type a move (e.g. draw)" in out
    assert "invalid move 'foo'" in out
    assert "invalid pile 'R9'" in out
    assert "illegal move R1-F0: R1 is player 1's reserve" in out
    assert "type a number from 1 to 8" in out
    assert out.rstrip().endswith("bye")
    assert "Traceback" not in out


def test_play_takes_a_move_by_notation_or_number_and_undoes_it(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["T3-F0", "undo", "1", "undo", "undo", "board"], capsys, monkeypatch)
    assert code == 0
    assert out.count("took back 1 move(s)") == 2
    assert "nothing to undo: you have not moved yet" in out
    assert "F0 A♣" in out
    assert out.rstrip().endswith("bye")  # end of input


def test_play_gives_a_hint(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = play(["hint"], capsys, monkeypatch)
    hint = out.split("hint: ")[1].split()[0]
    assert hint in {str(m) for m in legal_moves(new_game("classic", 5))}


def test_play_saves_and_loads_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "saved.json"
    _, out = play(["1", f"save {path}", "save", f"load {tmp_path / 'none.json'}"], capsys, monkeypatch)
    assert f"saved to {path}" in out
    assert "save needs a file name" in out
    assert "cannot read" in out
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.seed == 5 and [str(m) for m in record.moves][:1] == ["T3-F0"]
    assert record.players == ("you", "greedy bot")
    _, out = play([f"load {path}", "quit"], capsys, monkeypatch)
    assert f"loaded {path}: move {len(record.moves)}" in out
    code, out, _ = run(["play", "--load", str(path)], capsys, monkeypatch, stdin="quit\n")
    assert code == 0 and "F0 A♣" in out


def test_play_a_whole_game_against_a_bot(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The casual rules end a game after 1000 moves at the latest.
    code, out = play(["1"] * 1000 + ["draw", "save"], capsys, monkeypatch, "--rules", "casual", "--bot", "random")
    assert code == 0
    assert "game over: " in out
    assert "the game is over: type undo, save FILE or quit" in out
    assert "save needs a file name" in out


def test_play_as_player_one_against_the_search_bot(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["moves", "quit"], capsys, monkeypatch, "--player", "1", "--bot", "search", "--budget", "10")
    assert code == 0
    assert "You are player 1, against the search bot" in out
    assert "search bot plays:" in out or "▶ you" in out
    assert out.index("search bot  R0") < out.index("▶ you")  # you sit at the bottom
