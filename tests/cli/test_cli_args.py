"""The ``crapette`` command as a program: help, version, usage errors, exit statuses, and the bots named on the command line."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crapette import GameRecord

from cli_helpers import run, user_bots
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)


# The command itself ------------------------------------------------------------------------------


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


def test_exit_statuses_are_the_documented_ones(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(["show"], capsys, monkeypatch)[0] == 0
    assert run(["replay", str(tmp_path / "missing.json")], capsys, monkeypatch)[0] == 1
    assert run(["show", "not a position"], capsys, monkeypatch)[0] == 1
    assert run(["simulate", "--workers", "0"], capsys, monkeypatch)[0] == 2
    assert run(["play", "--seed", "-3"], capsys, monkeypatch)[0] == 2
    assert run(["play", "--seed", "²"], capsys, monkeypatch)[0] == 2
    record = tmp_path / "game.json"
    record.write_text(GameRecord("casual", seed=1, moves=["T1-T0"]).to_json(), encoding="utf-8")
    code, _, err = run(["replay", "--html", "a\0b", str(record)], capsys, monkeypatch)
    assert code == 1 and err == "crapette replay: cannot write 'a\\x00b': a file name cannot hold a null character\n"


def test_undecodable_input_and_an_ascii_output_give_no_traceback() -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii"}
    result = subprocess.run(
        [sys.executable, "-m", "crapette", "play", "--seed", "3"],
        input=b"\xff\xfe\nmoves\nquit\n",
        capture_output=True,
        timeout=60,
        env=env,
    )
    out = result.stdout.decode("ascii")
    assert result.returncode == 0 and result.stderr == b""
    assert "is neither a move nor a command" in out and "1  T2-T3     Q? onto K?" in out


# Bots named on the command line ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("nosuchmodule:Bot", "no module named 'nosuchmodule' in the current directory or on the Python path"),
        ("{m}:Missing", "the module '{m}' has no 'Missing'"),
        ("{m}:not_a_bot", "is not a bot: it has no choose(state) method"),
        ("{m}:NeedsArguments", "NeedsArguments() failed: TypeError:"),
        ("broken_module:Bot", "importing 'broken_module' failed: ZeroDivisionError: division by zero"),
        ("{m}:FirstBot:3", "a bot of your own takes no seed"),
        ("chess:3", "unknown bot 'chess': NAME:N seeds one of random, greedy, montecarlo, plan"),
        ("random:x", "unknown bot 'random:x': expected one of random, greedy, montecarlo, plan"),
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


def test_bot_names_with_a_level_and_a_seed_are_told_apart() -> None:
    from crapette.cli._args import _bot_spec

    assert _bot_spec("search:easy") == ("search:easy", None, None)
    assert _bot_spec(" Search:Strong:12 ") == ("search:strong", 12, None)
    assert _bot_spec("search:12") == ("search", 12, None)
    assert _bot_spec("search:strong").label == "strong search bot"
    with pytest.raises(argparse.ArgumentTypeError, match="unknown bot 'search:hard'"):
        _bot_spec("search:hard")


@pytest.mark.parametrize("argv", [
    ["simulate", "--games", "1", "--bots", "search,random", "--budget", "9" * 30],
    ["play", "--budget", "1000001"],
    ["analyse", "x.json", "--playouts", "1000001"],
])
def test_budgets_on_the_command_line_are_bounded(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(argv, capsys, monkeypatch)
    assert code == 2 and "at most 1,000,000 playouts" in err and err.count("\n") == 1
