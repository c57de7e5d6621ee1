"""The commands ``simulate``, ``show``, ``replay`` and ``analyse``, driven through main(argv)."""

from __future__ import annotations

import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from crapette import GameRecord, apply_move, legal_moves, new_game
from crapette.bots import RandomBot
from crapette.cli._args import make_parser
from crapette.text import render_text

from cli_helpers import ESC, bot_game, run, user_bots
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)


# simulate ----------------------------------------------------------------------------------------


def test_simulate_with_no_options_is_the_readme_command() -> None:
    args = make_parser().parse_args(["simulate"])
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
    assert code == 0 and data["bots"] == ["PlanningBot(seed=1, playouts=8)", "GreedyBot()"]
    assert data["max_moves"] == 60 and data["lengths"]["max"] <= 60


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


def test_simulate_clamps_an_absurd_worker_count_with_a_message(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pools: list[int] = []

    class CountingPool:
        def __init__(self, max_workers: int) -> None:
            pools.append(max_workers)
            raise RuntimeError("no pool in this test")

    monkeypatch.setattr("concurrent.futures.ProcessPoolExecutor", CountingPool)
    monkeypatch.setattr("crapette.cli._commands._usable_cpus", lambda: 1)
    code, out, err = run(["simulate", "--games", "2", "--workers", "64", "--no-progress"], capsys, monkeypatch)
    assert code == 0 and pools == []  # one CPU: the games run here
    assert err == "crapette simulate: --workers 64 is more than the CPUs here (1): running 1 worker\n"
    monkeypatch.setattr("crapette.cli._commands._usable_cpus", lambda: 3)
    code, _, err = run(["simulate", "--games", "2", "--workers", "64"], capsys, monkeypatch)
    assert pools == [2]  # no more workers than games
    assert "more than the CPUs here (3): running 3 workers" in err and code == 1


def test_simulate_passes_a_large_game_count_as_a_number(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, object] = {}

    class Report:
        def summary(self) -> str:
            return "summary"

    def fake_simulate(rules: object, bots: object, **options: object) -> Report:
        seen.update(options)
        return Report()

    monkeypatch.setattr("crapette.cli._commands.simulate", fake_simulate)
    code, out, _ = run(["simulate", "--games", "100000000"], capsys, monkeypatch)
    assert code == 0 and out == "summary\n" and seen["games"] == 100_000_000
    code, _, err = run(["simulate", "--games", "1" + "0" * 40], capsys, monkeypatch)
    assert code == 2 and "is too large (at most 30 digits)" in err


# show --------------------------------------------------------------------------------------------


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


# replay ------------------------------------------------------------------------------------------


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


# analyse -----------------------------------------------------------------------------------------


@pytest.fixture
def random_game(tmp_path: Path) -> Path:
    # A random bot's opening moves (7 segments, 8 moves left unfinished): the planner finds better paths for some.
    state = new_game("classic", 3)
    states = [state]
    bot = RandomBot(seed=5)
    while len(states) <= 40:
        state = apply_move(state, bot.choose(state))
        states.append(state)
    path = tmp_path / "random.json"
    path.write_text(GameRecord.from_states(states, seed=3, players=("Ann", "Bob")).to_json(), encoding="utf-8")
    return path


def test_analyse_marks_mistakes_with_the_better_path_the_value_lost_and_a_summary(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["analyse", str(random_game), "--playouts", "200", "--threshold", "0.5%"], capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "classic, seed 3, 40 moves, Ann (player 0) against Bob (player 1)"
    assert lines[1].startswith("judging by the learned value, 200 values a turn segment; "
                               "a mistake loses more than 0.5%")
    marks = [line for line in lines if "mistake: " in line]
    pattern = re.compile(r"mistake: .+ was better \(lost \d+\.\d% ±\d+\.\d% of winning chances: "
                         r"\d+\.\d% against \d+\.\d%\)$")
    assert marks and all(pattern.search(line) for line in marks)
    assert lines[-2].startswith("Ann: ") and lines[-1].startswith("Bob: ")
    worst = re.compile(r"\(the worst: move \d+, \d+\.\d% ±\d+\.\d% of winning chances lost\)$")
    assert any(worst.search(line) for line in lines[-2:])
    assert "analysing: 40/40 moves (100%)" in err  # progress, a line now and then off a terminal


def test_analyse_by_the_playouts_marks_in_cards(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["analyse", str(random_game), "--playouts", "200", "--judge", "playout", "--no-progress"],
                         capsys, monkeypatch)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[1].startswith("planning with 200 playouts a turn segment")
    marks = [line for line in lines if "mistake: " in line]
    assert marks and all(" was better (" in line and " cards against " in line and " lost)" in line for line in marks)


def test_analyse_shows_every_segment_with_its_chance_to_win(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["analyse", str(random_game), "--playouts", "100", "--all", "--threshold", "1", "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0
    moves = [line for line in out.splitlines() if line.startswith("move ")]
    assert moves and all("% to win" in line and "mistake" not in line for line in moves)  # 100% lost is no mark
    better = [line for line in moves if ", best " in line]
    assert better and all(re.search(r" \(lost \d+\.\d% ±\d+\.\d%\)$", line) for line in better)


def test_analyse_gives_the_same_marks_as_the_library_and_as_json(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from crapette.analysis import analyse
    from crapette.bots import PlanningBot

    code, out, _ = run(["analyse", str(random_game), "--playouts", "150", "--seed", "4", "--json", "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0
    report = json.loads(out)
    record = GameRecord.from_json(random_game.read_text(encoding="utf-8"))
    expected = analyse(record, bot=PlanningBot(seed=4, playouts=150))
    assert report["complete"] and report["playouts"] == 150 and expected
    assert report["judge"] == "value" and report["threshold"] == 0.04
    assert [(r["index"], r["end"], r["played"], r["best"], r["mistake"]) for r in report["reviews"]] == [
        (r.index, r.end, " ".join(map(str, r.played)), " ".join(map(str, r.best)), r.mistake) for r in expected
    ]
    assert [(r["cost"], r["margin"]) for r in report["reviews"]] == [(r.cost, round(r.margin, 4)) for r in expected]


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
    code, out, _ = run(["analyse", str(random_game), "--playouts", "200", "--threshold", "0.5%", "--html", "marks.html",
                        "--no-progress"],
                       capsys, monkeypatch)
    assert code == 0 and "wrote marks.html" in out
    page = Path("marks.html").read_text(encoding="utf-8")
    ET.fromstring(page)
    marks = [line.split("mistake: ", 1)[1] for line in out.splitlines() if "mistake: " in line]
    assert marks and all(mark.split(" (")[0] in page for mark in marks)
    assert page.count('"m":') == 40


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
    assert out.splitlines()[-2].startswith("Ann: ") and "interrupted (analysed " in err and " of 40 moves)" in err


def test_analyse_stops_at_an_illegal_move_after_the_moves_before_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "illegal.json"
    path.write_text(GameRecord("classic", seed=3, moves=["T2-T3", "T3-T2", "draw", "R1-F0"]).to_json(), encoding="utf-8")
    code, out, err = run(["analyse", str(path), "--playouts", "50", "--all", "--no-progress"], capsys, monkeypatch)
    assert code == 1
    assert "move  1-3 (player 0): T2-T3 T3-T2 draw  " in out
    assert "stops being playable" in err and "illegal move R1-F0 at index 3" in err


def test_analyse_help_names_the_judgements_and_the_default_threshold(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["analyse", "--help"], capsys, monkeypatch)
    assert code == 0 and "--judge {value,playout}" in out and "(default: 4%; 0.04 or 4%)" in " ".join(out.split())


def test_analyse_refuses_a_threshold_in_cards_for_the_value(
    random_game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["analyse", str(random_game), "--threshold", "2"], capsys, monkeypatch)
    assert code == 1 and "--threshold is a share of winning chances for --judge value" in err
    code, out, _ = run(["analyse", str(random_game), "--threshold", "2", "--judge", "playout", "--playouts", "20",
                        "--no-progress"], capsys, monkeypatch)
    assert code == 0 and "loses more than 2 cards" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--threshold", "-2"], "or a number of cards from 0 to 1e6, got -2"),
        (["--threshold", "x%"], "expected a share of winning chances (0.04 or 4%)"),
        (["--judge", "cards"], "invalid choice: 'cards'"),
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
