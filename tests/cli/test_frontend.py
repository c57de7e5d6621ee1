"""crapette.frontend: the terminal front end of any game of the protocol, its command line and its prompt.

Its own parts are tried on ``Capture``, the small game of conftest.py, shown by
a front end made here; what a player meets in a whole session is tried on the
example game Durak (examples/games/durak.py), as its script runs.
"""

from __future__ import annotations

import argparse
import io
import subprocess
import sys
from collections.abc import Iterable
from typing import IO, Any

import pytest
from conftest import CAPTURE, GAMES, Solo, State, run_game

import durak  # examples/games/durak.py: conftest.py puts its folder on sys.path
from crapette.bots import RandomBot, SearchBot
from crapette.frontend import (
    Command,
    Frontend,
    default_bot,
    main,
    parser,
    play,
    positive_int,
    seed_int,
    simulation,
)

# A front end for Capture -----------------------------------------------------------------------------


def render(state: State, player: int) -> str:
    hand = " ".join(str(card)[:-1] for card in state.hands[player])
    centre = str(state.centre[-1])[:-1] if state.centre else "-"
    return f"your hand: {hand}; the centre: {centre}"


def count_options(sub: argparse.ArgumentParser) -> None:
    sub.add_argument("--seed", type=seed_int, default=0)


def count_run(args: argparse.Namespace, out: IO[str]) -> int:
    print(f"deal {args.seed}: {len(CAPTURE.legal_moves(CAPTURE.new_game(args.seed)))} cards to play", file=out)
    return 3


def capture_frontend(game: Any = CAPTURE, **changes: Any) -> Frontend:
    settings: dict[str, Any] = {
        "render": render,
        "rules": "Capture, in short: a higher card captures the top of the centre.",
        "description": "Capture against crapette's bots.",
        "budget": 4,
        "games": 2,
        "commands": {"count": Command("count the cards to play", count_options, count_run)},
    }
    settings.update(changes)
    return Frontend(game, **settings)


def session(argv: list[str], inputs: Iterable[str], frontend: Frontend | None = None) -> str:
    """What ``main`` writes for ``argv``, the human typing ``inputs``."""
    return run_game(lambda argv, **streams: main(frontend or capture_frontend(), argv, **streams), argv, inputs)


# The command line ------------------------------------------------------------------------------------


def test_help_lists_play_simulate_the_games_own_commands_and_help() -> None:
    for argv in ([], ["help"]):
        text = session(argv, [])
        assert text.startswith("usage: capture.py [-h] {play,simulate,count,help}")
        assert "Capture against crapette's bots." in text and "count the cards to play" in text


def test_a_games_own_command_runs_with_its_options_and_gives_the_exit_status() -> None:
    out = io.StringIO()
    assert main(capture_frontend(), ["count", "--seed", "4"], out=out) == 3
    assert out.getvalue() == "deal 4: 4 cards to play\n"


def test_the_options_take_their_defaults_from_the_front_end() -> None:
    args = parser(capture_frontend(bots=("random", "search", "clever"), budget=9)).parse_args(["play"])
    assert (args.bot, args.seed, args.budget, args.seat) == ("clever", None, 9, 0)
    sim = parser(capture_frontend()).parse_args(["simulate"])
    assert (sim.games, sim.seed, sim.budget, sim.max_moves) == (None, 0, 4, 5000)
    assert not hasattr(sim, "players")
    several = parser(capture_frontend(players=(2, 3), game_for=lambda players: CAPTURE))
    assert several.parse_args(["play", "--players", "3"]).players == 3
    assert not hasattr(parser(capture_frontend(Solo())).parse_args(["play"]), "seat")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--seed", "-1"], "a seed is an int from 0 to 2**64 - 1, got -1"),
        (["play", "--budget", "0"], "expected a positive int, got 0"),
        (["play", "--bot", "clever"], "invalid choice: 'clever'"),
        (["play", "--seat", "2"], "--seat must be from 0 to 1"),
        (["simulate", "--games", "many"], "expected a positive int, got 'many'"),
    ],
)
def test_bad_options_are_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(capture_frontend(), argv, out=io.StringIO())
    assert info.value.code == 2 and message in capsys.readouterr().err


def test_seeds_and_positive_ints_are_argparse_types_that_say_what_they_want() -> None:
    assert (seed_int("0"), seed_int(str(2**64 - 1)), positive_int("7")) == (0, 2**64 - 1, 7)
    for bad in ("x", "-1", str(2**64), "1.5"):
        with pytest.raises(argparse.ArgumentTypeError, match="^a seed is an int from 0 to 2\\*\\*64 - 1, got"):
            seed_int(bad)
    for bad in ("0", "-3", "two"):
        with pytest.raises(argparse.ArgumentTypeError, match="^expected a positive int, got"):
            positive_int(bad)


def test_the_default_bots_are_the_librarys_random_and_search_bots_for_the_game() -> None:
    assert default_bot(CAPTURE, "random", 3, 10) == RandomBot(seed=3, game=CAPTURE)
    assert default_bot(CAPTURE, "search", 3, 10) == SearchBot(seed=3, budget=10, game=CAPTURE)


# A game in the terminal ------------------------------------------------------------------------------


def test_a_game_answers_help_moves_hint_bad_text_and_illegal_moves_and_plays_to_the_end() -> None:
    state = CAPTURE.new_game(2)
    hand = [str(card)[:-1] for card in state.hands[0]]
    elsewhere = next(str(card)[:-1] for card in state.hands[1])
    inputs = ["", "help", "moves", "ZZ", elsewhere, "hint", hand[0]] + ["auto"] * 3
    text = session(["play", "--seed", "2", "--bot", "random"], inputs)
    assert text.startswith("capture, deal 2: you are player 0; the other is a random bot. Type 'help' for help.\n")
    assert "your hand: " + " ".join(hand) + "; the centre: -" in text
    assert "Type a move in the notation shown by 'moves'" in text and "Capture, in short" in text
    assert "your moves: " + "  ".join(hand) in text
    assert "not a move: 'ZZ'. Type 'moves' for your moves, 'help' for help." in text
    assert f"illegal move {elsewhere}. Type 'moves' for your moves." in text
    assert "hint: " in text and "you play " in text and text.count("player 1 plays ") == 4
    last = text.rstrip().splitlines()[-1]
    assert last.startswith("game over: Result(") and last.endswith(("you win!", "you lose.", ")"))


def test_the_human_may_sit_in_any_seat_and_leave_with_quit() -> None:
    text = session(["play", "--seed", "2", "--seat", "1", "--bot", "random"], ["quit"])
    assert "you are player 1" in text and text.count("player 0 plays ") == 1
    assert text.rstrip().endswith("your move> bye: the game is left unfinished")


def test_ctrl_c_at_the_prompt_leaves_the_game_quietly() -> None:
    def interrupted(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    assert play(capture_frontend(), seed=1, seat=0, bot="random", budget=2, players=2, ask=interrupted, out=out) == 0
    assert out.getvalue().endswith("\n\nbye: the game is left unfinished\n")


def test_the_verdict_says_who_won_and_a_game_for_one_has_none() -> None:
    solo = session(["play", "--seed", "1"], ["auto"] * 8, capture_frontend(Solo()))
    assert solo.startswith("solo, deal 1: a game for one. Type 'help' for help.")
    assert solo.rstrip().splitlines()[-1].startswith("game over: ") and "you win" not in solo and "you lose" not in solo
    verdicts = set()
    for seed in range(14):  # the second player wins most deals of Capture
        last = session(["play", "--seed", str(seed), "--bot", "random"], ["auto"] * 4).rstrip().splitlines()[-1]
        winner = last.removeprefix("game over: Result(winner=").split(",")[0]
        verdict = {"0": " - you win!", "1": " - you lose.", "None": ")"}[winner]
        assert last.endswith(verdict)
        verdicts.add(verdict)
    assert verdicts == {" - you win!", " - you lose.", ")"}


# Random against search -----------------------------------------------------------------------------


def test_a_simulation_prints_the_report_of_random_against_search() -> None:
    out = io.StringIO()
    assert simulation(capture_frontend(), games=None, seed=3, budget=2, players=2, max_moves=50, out=out,
                      progress=False) == 0
    text = out.getvalue()
    assert text.startswith("capture, 2 games from seed 3")
    assert "RandomBot(seed=4, game=capture)" in text and "SearchBot(seed=5, budget=2, game=capture)" in text


def test_a_game_for_one_is_simulated_once_for_each_kind_of_bot() -> None:
    out = io.StringIO()
    solo = capture_frontend(Solo(), games={"random": 3, "search": 1})
    simulation(solo, games=None, seed=0, budget=2, players=1, max_moves=50, out=out, progress=False)
    reports = out.getvalue().split("\n\n")
    assert reports[0].startswith("solo, 3 games from seed 0") and "RandomBot(seed=0, game=solo)" in reports[0]
    assert reports[1].startswith("solo, 1 game from seed 0") and "SearchBot(seed=0, budget=2, game=solo)" in reports[1]


# A session of Durak ------------------------------------------------------------------------------------


def run_main(argv: list[str], inputs: Iterable[str]) -> str:
    return run_game(durak.main, argv, inputs)


def test_the_terminal_leaves_quietly_at_the_end_of_input() -> None:
    assert run_main(["play", "--seed", "1"], []).rstrip().endswith("bye: the game is left unfinished")


def test_the_prompt_echoes_piped_input() -> None:
    # With input() on a pipe the typed line would be missing from the transcript.
    result = subprocess.run(
        [sys.executable, str(GAMES / "durak.py"), "play", "--seed", "1", "--bot", "random"],
        input="moves\nquit\n", capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "your move> moves\nyour moves: " in result.stdout and "your move> quit\nbye" in result.stdout


def test_the_two_player_intro_names_the_one_other_bot() -> None:
    text = run_main(["play", "--seed", "1", "--bot", "random"], [])
    assert "you are player 0; the other is a random bot" in text and "the others" not in text


def test_simulate_shows_its_progress() -> None:
    result = subprocess.run(
        [sys.executable, str(GAMES / "durak.py"), "simulate", "--games", "2", "--budget", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "2/2" in result.stderr
