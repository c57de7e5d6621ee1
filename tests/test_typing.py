"""A program of one's own type-checks against crapette: the package ships py.typed, whatever the install mode (issue 24, item 2)."""

from __future__ import annotations

import importlib.util
import os
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


_NEEDS_MYPY = pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="needs mypy (the test extra)")
#: A program with one mistake: mypy must find it, so it really reads crapette's types.
WRONG_SCRIPT = "from crapette import new_game\nnew_game(5)\n"


@pytest.fixture(scope="module")
def mypy_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache for the mypy runs of this module, new in each test session: the second run reuses the first's
    reading of the standard library (and of crapette, where its files are the same)."""
    return tmp_path_factory.mktemp("mypy_cache")


def _mypy(folder: Path, *files: str, path: str | None, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "MYPYPATH"}
    if path is not None:
        env["MYPYPATH"] = path
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", f"--cache-dir={cache}", *files],
        cwd=folder, capture_output=True, text=True, timeout=300, env=env,
    )


@_NEEDS_MYPY
def test_a_users_script_type_checks_against_crapette_whatever_the_install_mode(tmp_path: Path, mypy_cache: Path) -> None:
    import crapette

    (tmp_path / "mine.py").write_text(USER_SCRIPT, encoding="utf-8")
    (tmp_path / "wrong.py").write_text(WRONG_SCRIPT, encoding="utf-8")
    # mypy is pointed at the crapette this test imports, so a plain editable
    # install (which mypy cannot follow) checks the same as any other; an
    # installed package (in site-packages, which mypy refuses on its path) it finds itself.
    source = Path(crapette.__file__).resolve().parent.parent
    path = None if source.name in ("site-packages", "dist-packages") else str(source)
    result = _mypy(tmp_path, "mine.py", "wrong.py", path=path, cache=mypy_cache)
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    assert len(errors) == 1 and errors[0].startswith("wrong.py:2:") and 'incompatible type "int"' in errors[0], (
        "mypy should find exactly the one mistake of wrong.py and none in mine.py; it said:\n" + result.stdout
    )


@_NEEDS_MYPY
def test_the_installed_package_is_visible_to_mypy_or_the_test_skips_saying_why(tmp_path: Path, mypy_cache: Path) -> None:
    (tmp_path / "wrong.py").write_text(WRONG_SCRIPT, encoding="utf-8")
    result = _mypy(tmp_path, "wrong.py", path=None, cache=mypy_cache)
    if "Cannot find implementation or library stub" in result.stdout:
        pytest.skip(
            "mypy cannot see the installed crapette: a plain `pip install -e .` makes an editable install "
            "that type checkers do not follow; install with `--config-settings editable_mode=strict` "
            "(as the README does) for programs of your own to type-check against it"
        )
    assert result.returncode == 1 and 'incompatible type "int"' in result.stdout, result.stdout


def test_the_package_ships_its_typing_marker() -> None:
    import crapette

    assert (Path(crapette.__file__).parent / "py.typed").is_file()
