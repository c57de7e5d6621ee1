"""The crapette command, driven through main(argv) with captured input and output."""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from crapette import GameRecord, apply_move, legal_moves, new_game
from crapette.bots import GreedyBot, RandomBot
from crapette.cli import main
from crapette.cli._args import _parser
from crapette.text import render_text

ESC = "\x1b["


@pytest.fixture(autouse=True)
def _in_a_temporary_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The game saves unsaved moves into the current directory when its input ends.
    monkeypatch.chdir(tmp_path)


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
    for command in ("play", "simulate", "show", "replay", "analyse"):
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
    assert err.startswith("crapette simulate: argument --bots: unknown bot 'chess'")
    assert err.endswith(" (see crapette simulate --help)\n") and err.count("\n") == 1
    code, _, err = run(["simulate", "--games", "zero"], capsys, monkeypatch)
    assert code == 2 and "expected a whole number" in err
    code, _, err = run(["play", "--rules", "chess"], capsys, monkeypatch)
    assert code == 2 and "unknown preset 'chess'" in err


# simulate -------------------------------------------------------------------------------------


def test_simulate_with_no_options_is_the_readme_command() -> None:
    args = _parser().parse_args(["simulate"])
    assert (args.rules.preset_name, args.games, args.bots, args.workers, args.seed) == (
        "classic", 200, (("greedy", None, None), ("random", None, None)), 1, 0,
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
    assert code == 2 and "unknown bot 'random:x'" in err and "NAME:N (N digits only) to seed one" in err
    code, _, err = run(["simulate", "--bots", f"random:{2**64},greedy"], capsys, monkeypatch)
    assert code == 2 and "a seed is from 0 to 2**64 - 1" in err


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


def test_show_svg_draws_move_arrows_only_with_moves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from crapette.svg import render

    state = new_game("classic", 7)
    plain, arrows = tmp_path / "plain.svg", tmp_path / "arrows.svg"
    run(["show", "--seed", "7", "--svg", str(plain)], capsys, monkeypatch)
    _, out, _ = run(["show", "--seed", "7", "--moves", "--svg", str(arrows), "--perspective", "1"], capsys, monkeypatch)
    assert plain.read_text(encoding="utf-8") == render(state, highlight=())
    assert arrows.read_text(encoding="utf-8") == render(state, perspective=1, highlight=legal_moves(state))
    assert "legal moves: " in out


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
    assert html.startswith("<!DOCTYPE html>") and "<svg" in html  # the page itself is tested with crapette.svg
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


def test_replay_does_not_keep_the_states(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The states are made again for each use: a long record's replay does not hold them all.
    kept: list[object] = []
    real = GameRecord.states

    def states(self: GameRecord) -> object:
        iterator = real(self)
        kept.append(iterator)
        return iterator

    monkeypatch.setattr(GameRecord, "states", states)
    code, out, _ = run(["replay", "--all", str(record_file), "--html", "game.html"], capsys, monkeypatch)
    assert code == 0 and out.count("F0 ") == 41
    assert all(not isinstance(iterator, (list, tuple)) for iterator in kept) and len(kept) >= 3
    assert Path("game.html").read_text(encoding="utf-8").count('"m":') == 40


# analyse ----------------------------------------------------------------------------------------


@pytest.fixture
def random_game(tmp_path: Path) -> Path:
    # A random bot's opening moves: the search finds better moves for some of them.
    state = new_game("classic", 3)
    states = [state]
    bot = RandomBot(seed=5)
    while len(states) <= 12:
        state = apply_move(state, bot.choose(state))
        states.append(state)
    path = tmp_path / "random.json"
    path.write_text(GameRecord.from_states(states, seed=3, players=("Ann", "Bob")).to_json(), encoding="utf-8")
    return path


def test_analyse_marks_mistakes_with_the_better_move_and_a_summary(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["analyse", str(random_game), "--playouts", "200"], capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "classic, seed 3, 12 moves, Ann (player 0) against Bob (player 1)"
    marks = [line for line in lines if "mistake: " in line]
    assert marks and all(" was better (value " in line and " points)" in line for line in marks)
    assert lines[-2].startswith("Ann: ") and lines[-1].startswith("Bob: ")
    assert f"{len(marks)} mistake" in lines[-2] + lines[-1] or "mistakes" in lines[-2]
    assert "analysing: 12/12 moves (100%)" in err  # progress, a line now and then off a terminal


def test_analyse_gives_the_same_marks_as_the_library_and_as_json(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from crapette.analysis import analyse
    from crapette.bots import TreeSearchBot

    code, out, _ = run(["analyse", str(random_game), "--playouts", "150", "--seed", "4", "--json", "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0
    report = json.loads(out)
    record = GameRecord.from_json(random_game.read_text(encoding="utf-8"))
    expected = analyse(record, bot=TreeSearchBot(seed=4, playouts=150))
    assert report["complete"] and report["playouts"] == 150
    assert [(r["index"], r["played"], r["best"], r["mistake"]) for r in report["reviews"]] == [
        (r.index, str(r.played), str(r.best), r.mistake) for r in expected
    ]


def test_analyse_one_player_and_every_move(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["analyse", str(random_game), "--playouts", "100", "--player", "1", "--all", "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0
    moves = [line for line in out.splitlines() if line.startswith("move ")]
    assert moves and all("(Bob)" in line for line in moves)
    assert out.splitlines()[-1].startswith("Bob: ") and "Ann: " not in out


def test_analyse_writes_a_replay_page_with_the_marks(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["analyse", str(random_game), "--playouts", "200", "--html", "marks.html", "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0 and "wrote marks.html" in out
    page = Path("marks.html").read_text(encoding="utf-8")
    ET.fromstring(page)
    marks = [line.split("mistake: ", 1)[1] for line in out.splitlines() if "mistake: " in line]
    assert marks and all(mark.split(" (")[0] in page for mark in marks)
    assert page.count('"m":') == 12


def test_analyse_keeps_what_it_found_when_interrupted(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from crapette import analysis

    real = analysis.reviews

    def stopped(*args: object, **kwargs: object) -> object:
        for count, review in enumerate(real(*args, **kwargs)):  # type: ignore[arg-type]
            if count == 3:
                raise KeyboardInterrupt
            yield review

    monkeypatch.setattr("crapette.cli._commands.reviews", stopped)
    code, out, err = run(["analyse", str(random_game), "--playouts", "50", "--all", "--no-progress"],
                         capsys, monkeypatch)
    assert code == 130
    assert sum(line.startswith("move ") for line in out.splitlines()) == 3
    assert out.splitlines()[-2].startswith("Ann: ") and "interrupted (analysed " in err and " of 12 moves)" in err


def test_analyse_stops_at_an_illegal_move_after_the_moves_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "illegal.json"
    path.write_text(GameRecord("classic", seed=3, moves=["T2-T3", "T7-T2", "R1-F0"]).to_json(), encoding="utf-8")
    code, out, err = run(["analyse", str(path), "--playouts", "50", "--all", "--no-progress"], capsys, monkeypatch)
    assert code == 1
    assert "move    2 (player 0): T7-T2" in out
    assert "stops being playable" in err and "illegal move R1-F0 at index 2" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threshold", "2"], "expected a number from 0 to 1, got 2"),
        (["--level", "hard"], "invalid choice: 'hard'"),
        (["--playouts", "0"], "expected a number of at least 1, got 0"),
    ],
)
def test_analyse_refuses_bad_options(
    random_game: Path, argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, _, err = run(["analyse", str(random_game), *argv], capsys, monkeypatch)
    assert code == 2 and message in err


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
    assert "Your legal moves (type the move or its number):\n  1-8  T3-F0 ... T3-F7  A♣ onto an empty foundation\n" in out
    assert "Type a move (e.g. draw)" in out
    assert "'foo' is neither a move nor a command" in out
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
    assert out.count("Took back your last move.") == 2
    assert "Nothing to undo: you have not moved yet." in out
    assert "F0 A♣" in out
    assert out.rstrip().endswith("bye")  # end of input, with nothing left unsaved


def test_play_gives_a_hint(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = play(["hint"], capsys, monkeypatch)
    hint = out.split("hint: ")[1].split()[0]
    assert hint in {str(m) for m in legal_moves(new_game("classic", 5))}


def test_play_saves_and_loads_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "saved.json"
    _, out = play(["1", f"save {path}", "save", f"load {tmp_path / 'none.json'}"], capsys, monkeypatch)
    assert f"Saved to {path}." in out
    assert "save needs a file name" in out
    assert "cannot read" in out
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.seed == 5 and [str(m) for m in record.moves][:1] == ["T3-F0"]
    assert record.players == ("you", "greedy bot")
    _, out = play([f"load {path}", "quit"], capsys, monkeypatch)
    assert f"Loaded {path}: move {len(record.moves)}." in out
    code, out, _ = run(["play", "--load", str(path)], capsys, monkeypatch, stdin="quit\n")
    assert code == 0 and "F0 A♣" in out


def test_play_a_whole_game_against_a_bot(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The casual rules end a game after 1000 moves at the latest.
    code, out = play(["1"] * 1000 + ["draw", "save"], capsys, monkeypatch, "--rules", "casual", "--bot", "random")
    assert code == 0
    assert "Game over: " in out
    assert "The game is over: type undo, save FILE, load FILE or quit." in out
    assert "save needs a file name" in out


def test_play_as_player_one_against_the_search_bot(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["moves", "quit"], capsys, monkeypatch, "--player", "1", "--bot", "search", "--budget", "10")
    assert code == 0
    assert "You are player 1, against the search bot" in out
    assert "search bot plays:" in out or "▶ you" in out
    assert out.index("search bot  R0") < out.index("▶ you")  # you sit at the bottom


# The terminal game reads well ---------------------------------------------------------------------


def test_play_shows_the_card_drawn_and_why_the_turn_ended(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 3: the first card of player 0's hand is K♦, which fits nowhere.
    _, out = play(["draw"], capsys, monkeypatch, "--seed", "3")
    assert "You drew K♦: it fits nowhere, so the turn ends." in out
    # ... and the bot's turn, move by move, ends the same way.
    bot_turn = out.split("The greedy bot plays:\n")[1]
    assert bot_turn.startswith("  T2-T3    Q♣ onto K♥\n")
    assert "  T2-R0    5♣ onto 6♣ on your reserve\n" in bot_turn
    assert "  draw     drew 4♦: it fits nowhere, so the turn ends\n" in bot_turn


def test_play_says_which_card_was_drawn_when_the_turn_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["draw", "draw", "end"], capsys, monkeypatch, "--seed", "3")
    assert "You drew J♦.\n" in out
    assert "you to move, the card drawn lies on the waste" in out
    assert "You left J♦ on the waste; the turn ends." in out


def test_messages_that_name_you_are_grammatical(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["quit"], capsys, monkeypatch, "--rules", "casual")
    assert "own tableau piles: T0-T3 you, T4-T7 greedy bot" in out
    assert "you's" not in out
    final = bot_game("classic", seed=4).replay()
    assert final.outcome is not None and final.outcome.winner is not None
    names = ("you", "greedy bot") if final.outcome.winner == 0 else ("greedy bot", "you")
    assert "game over: you win (" in render_text(final, names=names)
    assert "game over: greedy bot wins (" in render_text(final, names=names[::-1])
    path = tmp_path / "yours.json"
    path.write_text(GameRecord("casual", seed=1, moves=["T1-T0"], players=("you", "Bob")).to_json(), encoding="utf-8")
    _, out, _ = run(["replay", "--all", str(path)], capsys, monkeypatch)
    assert "move 1: you play T1-T0" in out and "you plays" not in out


def test_illegal_move_messages_write_cards_as_the_board_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["T6-T1"], capsys, monkeypatch, "--seed", "42")
    assert "illegal move T6-T1: A♠ does not go on 6♥: T1 builds down" in out
    assert "AS1" not in out and "6H0" not in out
    assert "T6 A♠" in out and "T1 6♥" in out  # as on the board


def test_play_uses_readline_only_on_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    prompts: list[str] = []
    lines = iter(["moves", "quit"])

    def fake_input(prompt: str) -> str:
        prompts.append(prompt)
        return next(lines)

    monkeypatch.setattr("builtins.input", fake_input)
    monkeypatch.setattr(sys, "stdin", Terminal())
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    assert main(["play", "--seed", "5", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert prompts == ["your move> ", "your move> "]
    assert "1-8  T3-F0 ... T3-F7" in out and "your move> moves" not in out  # the terminal echoes, not the game
    pytest.importorskip("readline")
    assert "readline" in sys.modules
    # From a stream (a pipe, a file, a test), no input(): the lines are read and echoed.
    monkeypatch.setattr("builtins.input", lambda prompt: pytest.fail("input() on a stream"))
    _, out = play(["moves"], capsys, monkeypatch)
    assert "your move> moves\nYour legal moves" in out


def test_quit_with_unsaved_moves_asks_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "You have moved since the game was last saved. Leave anyway?"
    code, out = play(["quit"], capsys, monkeypatch)
    assert code == 0 and question not in out and out.endswith("bye\n")
    code, out = play(["1", "quit", "n", "quit", "yes"], capsys, monkeypatch)
    assert code == 0 and out.count(question) == 2 and "The game goes on." in out
    assert out.endswith("bye\n") and not list(tmp_path.glob("*.json"))
    code, out = play(["1", "quit", "save kept.json"], capsys, monkeypatch)
    assert code == 0 and "Saved to kept.json." in out and out.endswith("bye\n")
    assert [str(m) for m in GameRecord.from_json((tmp_path / "kept.json").read_text("utf-8")).moves] == ["T3-F0"]
    code, out = play(["1", "save again.json", "quit"], capsys, monkeypatch)
    assert question not in out  # saved: nothing to ask


def test_the_end_of_the_input_saves_unsaved_moves_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["1", "undo"], capsys, monkeypatch)
    assert out.endswith("bye\n")  # back where the deal started: nothing to save
    code, out = play(["1"], capsys, monkeypatch)
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 0
    assert f"The input ended: the game is saved in {saved} (crapette play --load {saved} goes on with it)." in out
    record = GameRecord.from_json(saved.read_text(encoding="utf-8"))
    assert record.seed == 5 and [str(m) for m in record.moves] == ["T3-F0"]


# Bots of one's own --------------------------------------------------------------------------------

FIRST_BOT = """
from crapette import legal_moves

class FirstBot:
    name = "first"

    def choose(self, state):
        return legal_moves(state)[0]

instance = FirstBot()
not_a_bot = object()

class NeedsArguments:
    def __init__(self, depth):
        self.depth = depth

    def choose(self, state):
        return legal_moves(state)[0]

class Failing:
    def choose(self, state):
        raise RuntimeError("no idea")

class Impatient:
    # Plays the first legal move; the 25th time it is asked, Ctrl-C.
    asked = 0

    def choose(self, state):
        Impatient.asked += 1
        if Impatient.asked == 25:
            raise KeyboardInterrupt
        return legal_moves(state)[0]
"""


@pytest.fixture()
def user_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of bots in the current directory, as a user writes one; its name."""
    name = f"userbots_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(FIRST_BOT, encoding="utf-8")
    (tmp_path / "broken_module.py").write_text("1 / 0\n", encoding="utf-8")
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    for module in (name, "broken_module"):
        monkeypatch.delitem(sys.modules, module, raising=False)
    return name


def test_simulate_plays_a_bot_of_your_own_as_module_colon_class(
    user_bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "2", "--bots", f"{user_bots}:FirstBot,greedy:3", "--json"]
    code, out, err = run(argv, capsys, monkeypatch)
    assert code == 0, err
    assert json.loads(out)["bots"] == [f"{user_bots}:FirstBot", "GreedyBot()"]  # the same in every run
    code, out, _ = run(["simulate", "--games", "2", "--bots", f"random:5,{user_bots}:instance", "--json"], capsys, monkeypatch)
    assert code == 0 and json.loads(out)["bots"][0] == "RandomBot(seed=5)"


def test_simulate_prints_the_games_played_when_interrupted(
    user_bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = ["simulate", "--games", "6", "--max-moves", "20", "--bots", f"{user_bots}:Impatient,greedy", "--no-progress"]
    code, out, err = run(argv, capsys, monkeypatch)
    assert code == 130
    assert "classic, 1 game from seed 0" in out  # the first game finished before the 25th move of the bot
    assert err == "crapette simulate: interrupted after 1 of 6 games; the summary counts those games\n"


def test_play_against_a_bot_of_your_own(
    user_bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["draw", "quit"], capsys, monkeypatch, "--seed", "3", "--bot", f"{user_bots}:FirstBot")
    assert code == 0
    assert "You are player 0, against FirstBot." in out and "FirstBot plays:" in out
    assert "▶ you " in out and "  FirstBot  R1 " in out


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchmodule:Bot", "no module named 'nosuchmodule' in the current directory or on the Python path"),
        ("{m}:Missing", "the module '{m}' has no 'Missing'"),
        ("{m}:not_a_bot", "is not a bot: it has no choose(state) method"),
        ("{m}:NeedsArguments", "NeedsArguments() failed: TypeError:"),
        ("broken_module:Bot", "importing 'broken_module' failed: ZeroDivisionError: division by zero"),
        ("{m}:FirstBot:3", "a bot of your own takes no seed"),
        ("chess:3", "unknown bot 'chess': NAME:N seeds one of random, greedy, search"),
        ("random:x", "unknown bot 'random:x': expected one of random, greedy, search"),
        (":Bot", "expected module:Class for a bot of your own, got ':Bot'"),
    ],
)
def test_a_bot_that_cannot_be_loaded_is_a_one_line_usage_error(
    user_bots: str, spec: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, message = spec.format(m=user_bots), message.format(m=user_bots)
    for argv in (["simulate", "--bots", f"{spec},greedy"], ["play", "--bot", spec]):
        code, _, err = run(argv, capsys, monkeypatch)
        assert code == 2 and message in err, err
        assert "Traceback" not in err


def test_a_bot_of_your_own_that_fails_is_one_line_and_the_game_is_saved(
    tmp_path: Path, user_bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["simulate", "--games", "2", "--bots", f"{user_bots}:Failing,greedy"], capsys, monkeypatch)
    assert code == 1 and err.count("\n") == 1 and "no idea" in err and "Traceback" not in err
    code, out, err = run(["play", "--seed", "3", "--bot", f"{user_bots}:Failing"], capsys, monkeypatch, stdin="draw\n")
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("crapette play: Failing failed at move 1: RuntimeError: no idea; the game is saved in ")
    assert [str(m) for m in GameRecord.from_json(saved.read_text("utf-8")).moves] == ["draw"]


def test_hint_and_moves_describe_moves_without_telling_the_hidden_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 8: after the bot's first turn the hint is to draw, and the card is face down.
    _, out = play(["hint", "moves"], capsys, monkeypatch, "--seed", "8")
    assert "hint: draw (turn up the top card of your hand)\n" in out
    assert "  2  draw      turn up the top card of your hand\n" in out


def test_bot_names_with_a_level_and_a_seed_are_told_apart() -> None:
    from crapette.cli._args import _bot_spec

    assert _bot_spec("search:easy") == ("search:easy", None, None)
    assert _bot_spec(" Search:Strong:12 ") == ("search:strong", 12, None)
    assert _bot_spec("search:12") == ("search", 12, None)
    assert _bot_spec("search:strong").label == "strong search bot"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown bot 'search:hard'"):
        _bot_spec("search:hard")
