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


def test_readme_python_blocks_run_in_order() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README shows Python code"
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in blocks:
        exec(compile(block, "README.md", "exec"), namespace)


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
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
