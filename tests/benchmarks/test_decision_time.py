"""benchmarks/decision_time.py: the CPU time of each bot's decisions, as figures."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import decision_time  # noqa: E402


def test_each_bot_gets_a_line_of_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert decision_time.main(["--bots", "greedy,playouts=4", "--deals", "1", "--moves", "40", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    rows = {row["bot"]: row for row in found["bots"]}
    assert set(rows) == {"greedy", "playouts=4"} and found["deals"] == 1
    for row in rows.values():
        assert row["decisions"] > 5 and 0 <= row["median_ms"] <= row["p90_ms"]
    assert rows["greedy"]["against_first"] == 1.0


def test_the_text_and_bad_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert decision_time.main(["--bots", "greedy", "--deals", "1", "--moves", "20"]) == 0
    assert "ms a decision" in capsys.readouterr().out
    for argv in (["--bots", "nobot"], ["--deals", "0"]):
        with pytest.raises(SystemExit) as exc:
            decision_time.main(argv)
        assert exc.value.code == 2
