"""A program of one's own type-checks against crapette: the package ships py.typed and its install is visible to mypy."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

USER_SCRIPT = '''
from crapette import GameState, Move, apply_move, legal_moves, new_game
from crapette.bots import GreedyBot, TreeSearchBot
from crapette.simulation import SimulationReport, simulate


def first_moves(seed: int) -> list[Move]:
    state: GameState = new_game("classic", seed=seed)
    played = []
    for _ in range(5):
        move = legal_moves(state)[0]
        state = apply_move(state, move)
        played.append(move)
    return played


def match() -> SimulationReport:
    return simulate("classic", (TreeSearchBot.at_level("easy"), GreedyBot()), games=2)


print(first_moves(1), TreeSearchBot.at_level("easy"), match)
'''


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="needs mypy (the test extra)")
def test_a_users_script_outside_the_repository_type_checks_against_the_installed_package(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(USER_SCRIPT, encoding="utf-8")
    # A mistake is found, so mypy really reads crapette's types.
    (tmp_path / "wrong.py").write_text("from crapette import new_game\nnew_game(5)\n", encoding="utf-8")
    wrong = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "wrong.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
    )
    assert wrong.returncode == 1 and 'incompatible type "int"' in wrong.stdout
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "mine.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, (
        result.stdout
        + "\n(crapette must be installed so that type checkers see it: the README installs it with "
        "--config-settings editable_mode=strict)"
    )


def test_the_package_ships_its_typing_marker() -> None:
    import crapette

    assert (Path(crapette.__file__).parent / "py.typed").is_file()
