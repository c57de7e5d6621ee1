"""What the tests of the ``crapette`` command share: running it, recorded games, bots of one's own.

Every ``test_cli_*.py`` imports the autouse fixture ``_in_a_temporary_directory``:
the game saves unsaved moves into the current directory.
"""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from crapette import GameRecord, apply_move, new_game
from crapette.bots import GreedyBot, RandomBot
from crapette.cli import main

ESC = "\x1b["


@pytest.fixture(autouse=True)
def _in_a_temporary_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The game saves unsaved moves into the current directory when its input ends.
    monkeypatch.chdir(tmp_path)


def run(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, stdin: object = ""
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin) if isinstance(stdin, str) else stdin)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def answers(out: str, prompt: str = "your move> ") -> list[list[str]]:
    """What the game printed after each line it read (the echoed line removed)."""
    return [chunk.split("\n")[1:-1] for chunk in out.split(prompt)[1:-1]]


def bot_game(rules: str = "classic", seed: int = 4, moves: int | None = None) -> GameRecord:
    state = new_game(rules, seed)
    states = [state]
    bots = (GreedyBot(), RandomBot(seed=2))
    while not state.is_over and (moves is None or len(states) <= moves):
        state = apply_move(state, bots[state.current_player].choose(state))
        states.append(state)
    return GameRecord.from_states(states, seed=seed, players=("Ann", "Bob"))


def play(
    lines: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *options: str
) -> tuple[int, str]:
    code, out, err = run(["play", "--seed", "5", *options], capsys, monkeypatch, stdin="".join(f"{line}\n" for line in lines))
    assert err == ""
    return code, out


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


def run_limited(argv: list[str]) -> subprocess.CompletedProcess[str]:
    """``python -m crapette`` in a process with 1 GB of address space that must end within a minute."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    return subprocess.run(
        [sys.executable, "-m", "crapette", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=limit,
    )
