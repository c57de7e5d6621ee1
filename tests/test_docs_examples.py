"""The README's Python blocks and the examples/ scripts run as written."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.py"))
#: The arguments that keep an example small here: it runs its every step, with fewer games.
SMALL = {"bot_match.py": ["--games", "4"], "rl_openspiel.py": ["--simulations", "8"]}


README_BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_readme_shows_python_code() -> None:
    assert len(README_BLOCKS) >= 3


@pytest.mark.parametrize("block", README_BLOCKS, ids=[f"block{i}" for i in range(len(README_BLOCKS))])
def test_each_readme_python_block_runs_as_pasted_on_its_own(block: str) -> None:
    # A new namespace for each block: a reader pastes one block, not the ones before it.
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


def test_readme_gives_exactly_two_setup_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands = re.findall(r"```text\n(pip install .*?)\n```", text)
    assert len(commands) == 2


def _missing_requirements(script: Path) -> list[str]:
    """The modules named on the script's ``# requires:`` line that cannot be imported here."""
    first = script.read_text(encoding="utf-8").splitlines()[:1]
    if not first or not first[0].startswith("# requires:"):
        return []
    names = [name.strip() for name in first[0].split(":", 1)[1].split(",") if name.strip()]
    return [name for name in names if importlib.util.find_spec(name) is None]


@pytest.mark.parametrize("script", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(script: Path) -> None:
    missing = _missing_requirements(script)
    if missing:
        pytest.skip(f"{script.name} needs {', '.join(missing)}, which is not installed (an optional extra)")
    result = subprocess.run(
        [sys.executable, str(script), *SMALL.get(script.name, [])], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr


def test_the_small_runs_name_examples_that_take_those_arguments() -> None:
    for name, args in SMALL.items():
        text = (ROOT / "examples" / name).read_text(encoding="utf-8")
        assert f'"{args[0]}"' in text, f"{name} has no {args[0]} option"


def test_install_hints_suit_an_install_from_the_checkout() -> None:
    # crapette is installed from a checkout: "crapette[extra]" names a package that pip would
    # look for elsewhere, and a plain ".[extra]" in a command to run would replace the
    # README's editable install with a copy.
    files = [ROOT / "README.md", *(ROOT / "crapette").rglob("*.py"), *(ROOT / "examples").rglob("*.py"),
             *(ROOT / "docs").glob("*.rst"), *(ROOT / "tests").glob("*.py")]
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""pip install ['"]?crapette\\?\[""", text), f"{path.name} names crapette[...]"
    rl = (ROOT / "docs" / "rl.rst").read_text(encoding="utf-8")
    commands = re.findall(r"^    (pip install .*)$", rl, flags=re.MULTILINE)
    assert commands and all("-e" in c for c in commands if ".[" in c), commands
