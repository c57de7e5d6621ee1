"""``crapette play``: the terminal game against a bot, its messages, and what it does with bad lines, Ctrl-C and failing bots."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crapette import GameRecord, apply_move, legal_moves, new_game, reveals
from crapette.bots import GreedyBot, PlanningBot
from crapette.cli import MAX_LINE, main
from crapette.text import render_text

from cli_helpers import answers, bot_game, play, run, user_bots
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)
from conftest import examples


# Playing -----------------------------------------------------------------------------------------


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
    assert out.count("Took back your last move, T3-F0 (A♣ onto an empty foundation).") == 2
    assert "Nothing to undo: you have not moved yet." in out
    assert "F0 A♣" in out
    assert out.rstrip().endswith("bye")  # end of input, with nothing left unsaved


def test_play_gives_a_hint(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, out = play(["hint"], capsys, monkeypatch)
    hint = out.split("hint: ")[1].split()[0]
    assert hint in {str(m) for m in legal_moves(new_game("classic", 5))}


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


def test_play_against_a_bot_of_your_own(
    user_bots: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out = play(["draw", "quit"], capsys, monkeypatch, "--seed", "3", "--bot", f"{user_bots}:FirstBot")
    assert code == 0
    assert "You are player 0, against FirstBot." in out and "FirstBot plays:" in out
    assert "▶ you " in out and "  FirstBot  R1 " in out


def test_hint_and_moves_describe_moves_without_telling_the_hidden_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 8: the plan ends with a draw, and the card to come is face down.
    _, out = play(["hint", "moves"], capsys, monkeypatch, "--seed", "8")
    hint = out[out.index("hint: ") :].split("your move>")[0]
    assert "draw" in hint and "turn up the top card of your hand" in hint
    assert new_game("classic", 8).hands[0][-1].symbol not in hint
    assert "  2  draw      turn up the top card of your hand\n" in out


def test_hint_shows_the_planned_moves_to_the_end_of_the_turn_segment(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 3: Q♣ onto K♥ empties T2, and the reserve's 6♣ fills it (uncovering a card).
    _, out = play(["hint"], capsys, monkeypatch, "--seed", "3")
    assert "hint: T2-T3 R0-T2\n  T2-T3    Q♣ onto K♥\n  R0-T2    6♣ onto an empty pile\n" in out
    state = new_game("classic", 3)
    planned = PlanningBot(seed=3).hint(state)
    assert [str(m) for m in planned] == ["T2-T3", "R0-T2"]
    assert not reveals(state, planned[0]) and reveals(apply_move(state, planned[0]), planned[1])


class _FollowHints:
    """A player at the terminal who asks for a hint, plays its first move, and asks again."""

    def __init__(self, capsys: pytest.CaptureFixture[str], moves: int) -> None:
        self.capsys, self.left, self.asked = capsys, moves, False

    def readline(self, size: int = -1) -> str:
        out = self.capsys.readouterr().out
        sys.__stdout__.flush()
        if self.left == 0:
            return ""  # the end of the input: the game is left as it is
        if not self.asked:
            self.asked = True
            return "hint\n"
        self.asked = False
        self.left -= 1
        return out.rsplit("hint: ", 1)[1].split()[0] + "\n"


def test_following_the_hints_never_returns_to_a_position_of_the_same_turn(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 6: hints planned afresh at each move used to send cards to and fro
    # (T4-T0 T0-T4 T6-T0 T0-T6 ...); with the game so far, a hint never leads back.
    from crapette import Game, position_key

    played: list[tuple[int, object]] = []
    push = Game.push

    def recording(self: Game, move: object) -> None:
        push(self, move)  # type: ignore[arg-type]
        played.append((self.state.current_player, position_key(self.state)))

    monkeypatch.setattr(Game, "push", recording)
    monkeypatch.setattr(sys, "stdin", _FollowHints(capsys, 40))
    main(["play", "--seed", "6", "--bot", "greedy"])
    mine = 0
    seen: set[object] = set()
    for player, key in played:
        if player != 0:
            seen = set()
            continue
        mine += 1
        if key in seen:
            pytest.fail(f"back to a position of the turn after {mine} moves")
        seen.add(key)
    assert mine >= 30


# The terminal game reads well --------------------------------------------------------------------


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
    # Any other answer asks again: it neither leaves nor silently cancels.
    code, out = play(["1", "quit", "maybe", "", "n", "board", "quit", "y"], capsys, monkeypatch)
    assert out.count(question) == 4 and "'maybe' is not an answer: type y, n or save FILE." in out
    assert "Type y, n or save FILE." in out and "bye" not in out.split("The game goes on.")[0]
    assert out.endswith("bye\n") and not list(tmp_path.glob("*.json"))
    code, out = play(["1", "quit", "save kept.json"], capsys, monkeypatch)
    assert code == 0 and "Saved to kept.json." in out and out.endswith("bye\n")
    assert [str(m) for m in GameRecord.from_json((tmp_path / "kept.json").read_text("utf-8")).moves] == ["T3-F0"]
    code, out = play(["1", "save again.json", "quit"], capsys, monkeypatch)
    assert question not in out  # saved: nothing to ask


# No line at the prompt ends the game -------------------------------------------------------------


BAD_LINES = [
    "²",  # a digit for str.isdigit, not for int
    "٣",  # an Arabic-Indic three: not a move number here
    "9" * 900,  # a long number
    "9" * 5000,  # longer than Python's int() limit, and than a line
    "0",
    "-1",
    "99999999999999999999",
    "save a\0b",
    "load a\0b",
    "load /dev/zero",
    "load .",
    "save .",
    "load no/such/file.json",
    "save no/such/folder/x.json",
    "save",
    "load",
    "x" * 100_000,
    "\x1b[4~",  # the End key, without line editing
    "\x00",
    "\ud800",  # a lone surrogate
    "é\u0301",
    "R0-F9",
    "T0-T0",
    "draw draw",
    "T1-T2x99",
    "end",
    "pass",
    "   \t ",
    "?" * 3,
]


def test_play_answers_every_bad_line_in_one_line_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "".join(f"{line}\n" for line in BAD_LINES) + "moves\nquit\n"
    code, out, err = run(["play", "--seed", "3", "--color", "never"], capsys, monkeypatch, stdin=stdin)
    assert code == 0 and err == ""
    replies = answers(out)
    assert len(replies) == len(BAD_LINES) + 1
    for line, reply in zip(BAD_LINES, replies):
        assert len(reply) == 1, (line, reply)
        assert len(reply[0]) < 300 and "Traceback" not in reply[0]
    assert replies[-1] == [  # the game goes on, unchanged
        "Your legal moves (type the move or its number):",
        "  1  T2-T3     Q♣ onto K♥",
        "  2  draw      turn up the top card of your hand",
    ]
    assert out.endswith("your move> quit\nbye\n")
    assert not any(p.name.startswith("crapette-") for p in Path.cwd().iterdir())


def test_the_game_never_reads_more_than_a_line_of_the_documented_length(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Stream(io.StringIO):
        def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
            assert 0 < size <= MAX_LINE + 1
            return super().readline(size)

    stdin = Stream("y" * 10_000_000 + "\nmoves\n")
    code, out, _ = run(["play", "--seed", "3"], capsys, monkeypatch, stdin=stdin)
    assert code == 0 and "That line is too long" in out and "1  T2-T3     Q♣ onto K♥" in out


@settings(
    max_examples=examples(1),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(lines=st.lists(st.text(max_size=40), max_size=6))
def test_no_line_at_the_prompt_crashes_the_game(
    lines: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Files are another test's business: no save or load of made-up names here.
    typed = [line for line in lines if "save" not in line.lower() and "load" not in line.lower()]
    stdin = "".join(f"{line}\n" for line in typed)
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(["play", "--seed", "3", "--rules", "casual"])
    out, err = capsys.readouterr()
    assert code in (0, 1) and "Traceback" not in out + err
    assert err == "" or "the game is saved in " in err


# Ctrl-C and failures: the game is saved ----------------------------------------------------------


class Interrupting(io.StringIO):
    """A stream whose reader presses Ctrl-C before the lines it holds."""

    def __init__(self, text: str, interrupts: int = 1) -> None:
        super().__init__(text)
        self.interrupts = interrupts

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        if self.interrupts:
            self.interrupts -= 1
            raise KeyboardInterrupt
        return super().readline(size)


def test_ctrl_c_at_the_prompt_cancels_the_line_and_the_game_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(["play", "--seed", "3"], capsys, monkeypatch, stdin=Interrupting("moves\nquit\n"))
    assert code == 0 and err == ""
    assert "(interrupted: type quit to leave)" in out and "1  T2-T3     Q♣ onto K♥" in out


def test_ctrl_c_while_the_bot_thinks_saves_the_game_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(self: GreedyBot, state: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(GreedyBot, "choose", interrupted)
    code, _, err = run(["play", "--seed", "3"], capsys, monkeypatch, stdin="draw\n")
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 130
    assert err == f"\ncrapette play: interrupted; the game is saved in {saved} (crapette play --load {saved} goes on with it)\n"
    assert [str(m) for m in GameRecord.from_json(saved.read_text("utf-8")).moves] == ["draw"]


def test_an_unexpected_error_saves_the_game_first_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(self: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("crapette.cli._play.Session.list_moves", broken)
    code, _, err = run(["play", "--seed", "5"], capsys, monkeypatch, stdin="1\nmoves\n")
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("crapette play: unexpected error: RuntimeError: a bug; the game is saved in ")
    assert [str(m) for m in GameRecord.from_json(saved.read_text("utf-8")).moves] == ["T3-F0"]


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


def test_undo_never_takes_back_a_draw_so_the_drawn_card_stays_unseen_until_drawn_again(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue: draw, undo and draw again showed the same card, so the order of the hand leaked.
    state = new_game("classic", 3)
    human = state.current_player
    code, out, _ = run(
        ["play", "--seed", "3", "--player", str(human), "--color", "never"], capsys, monkeypatch, stdin="draw\nundo\nquit\ny\n"
    )
    assert code == 0
    assert "cannot take back your last move" in out
    assert "Took back" not in out
