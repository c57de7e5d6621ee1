"""The crapette command under hostile input: files, arguments and lines at the game's prompt."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crapette import Game, GameRecord, apply_move, new_game
from crapette._record import MAX_RECORD_LENGTH
from crapette.bots import GreedyBot
from crapette.cli import MAX_LINE, MAX_RECORD_BYTES, main

from conftest import examples


@pytest.fixture(autouse=True)
def _in_a_temporary_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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


# Item 1: files are read with a bound, and only regular files -------------------------------------


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


@pytest.mark.skipif(not os.path.exists("/dev/zero") or os.name != "posix", reason="needs /dev/zero")
def test_replay_refuses_a_device_without_reading_it() -> None:
    result = run_limited(["replay", "/dev/zero"])
    assert result.returncode == 1
    assert result.stderr == "crapette replay: cannot read /dev/zero: it is a device, not a regular file\n"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_replay_and_play_refuse_a_pipe_without_waiting_for_it(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for argv in (["replay", str(fifo)], ["play", "--load", str(fifo)]):
        result = run_limited(argv)
        assert result.returncode == 1
        assert result.stderr.endswith(f"cannot read {fifo}: it is a pipe, not a regular file\n")


def test_replay_refuses_a_directory(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(["replay", str(tmp_path)], capsys, monkeypatch)
    assert code == 1 and err == f"crapette replay: cannot read {tmp_path}: it is a directory, not a regular file\n"


def test_replay_refuses_a_huge_file_before_reading_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as file:
        file.truncate(100_000_000)  # sparse: no disk, but 100 MB to read
    reads: list[int] = []
    real_open = open

    class Spy(io.BufferedReader):
        def read(self, size: int | None = -1) -> bytes:
            reads.append(-1 if size is None else size)
            return super().read(size)

    def spying_open(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        handle = real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]
        return Spy(handle.raw) if mode == "rb" else handle

    monkeypatch.setattr("builtins.open", spying_open)
    code, _, err = run(["replay", str(huge)], capsys, monkeypatch)
    assert code == 1
    assert err == f"crapette replay: {huge} is too large for a game record (at most 4,000,000 characters)\n"
    assert reads == []  # refused from its size


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("x" * (MAX_RECORD_LENGTH + 1), "is too large for a game record"),
        ("é" * (MAX_RECORD_LENGTH + 1), "is too large for a game record"),  # 2 bytes each: under the byte cap
        (b"\xff" * 10, "is not a text file (UTF-8): bad byte at offset 0"),
        ("\ufeff" + Game("casual", seed=1).to_record().to_json(), ""),  # a byte-order mark is fine
    ],
)
def test_play_load_reads_only_records_of_the_documented_size(
    tmp_path: Path,
    content: str | bytes,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "record.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    assert path.stat().st_size <= MAX_RECORD_BYTES
    code, out, err = run(["play", "--load", str(path)], capsys, monkeypatch, stdin="quit\n")
    if message:
        assert code == 1 and message in err and err.count("\n") == 1
        code, out, err = run(["play", "--seed", "1"], capsys, monkeypatch, stdin=f"load {path}\nquit\n")
        assert code == 0 and message in out and err == ""
    else:
        assert code == 0 and "Loaded" not in out and "a saved game at move 0" in out


# Item 3: no input at the prompt ends the game ---------------------------------------------------

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

    monkeypatch.setattr("crapette.cli._play._Session.list_moves", broken)
    code, _, err = run(["play", "--seed", "5"], capsys, monkeypatch, stdin="1\nmoves\n")
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 1 and err.count("\n") == 1
    assert err.startswith("crapette play: unexpected error: RuntimeError: a bug; the game is saved in ")
    assert [str(m) for m in GameRecord.from_json(saved.read_text("utf-8")).moves] == ["T3-F0"]


def test_the_game_saves_in_the_temporary_directory_when_the_current_one_is_read_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    readonly = tmp_path / "readonly"
    spare = tmp_path / "spare"
    readonly.mkdir()
    spare.mkdir()
    monkeypatch.chdir(readonly)
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(spare))
    real_open = open

    def refusing_open(file: object, mode: str = "r", *args: object, **kwargs: object) -> object:
        if mode == "x" and Path(str(file)).parent == readonly:
            raise PermissionError(13, "Permission denied")
        return real_open(file, mode, *args, **kwargs)  # type: ignore[call-overload]

    monkeypatch.setattr("builtins.open", refusing_open)
    _, out, _ = run(["play", "--seed", "5"], capsys, monkeypatch, stdin="1\n")
    (saved,) = spare.glob("crapette-*.json")
    assert f"the game is saved in {saved}" in out


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


# Item 8: bounded simulations ------------------------------------------------------------------


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


# Item 9: a record loaded and saved again keeps what was read ----------------------------------


@pytest.fixture()
def finished_record() -> GameRecord:
    state = new_game("classic", 4)
    states = [state]
    while not state.is_over:
        state = apply_move(state, GreedyBot().choose(state))
        states.append(state)
    moves = GameRecord.from_states(states, seed=4).moves
    # Finished, with no result written: saving it again must not fill one in.
    return GameRecord("classic", 4, moves, players=("Ann", "Bob"), date="2024-05-01", tags={"Event": "club"})


def test_loading_and_saving_a_record_keeps_its_names_and_result(
    tmp_path: Path, finished_record: GameRecord, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, copy, again = tmp_path / "game.json", tmp_path / "copy.json", tmp_path / "again.json"
    source.write_text(finished_record.to_json(), encoding="utf-8")
    code, out, _ = run(["play", "--load", str(source)], capsys, monkeypatch, stdin=f"save {copy}\nquit\n")
    assert code == 0 and "between Ann and Bob" in out
    assert GameRecord.from_json(copy.read_text("utf-8")) == finished_record
    run(["play", "--seed", "9"], capsys, monkeypatch, stdin=f"load {source}\nsave {again}\nquit\n")
    assert GameRecord.from_json(again.read_text("utf-8")) == finished_record


def test_playing_on_from_a_loaded_record_keeps_its_names_and_gives_the_result_of_the_game(
    tmp_path: Path, finished_record: GameRecord, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    source, changed = tmp_path / "game.json", tmp_path / "changed.json"
    marked = GameRecord(
        finished_record.rules, finished_record.seed, finished_record.moves, players=("Ann", "Bob"), result="*"
    )
    source.write_text(marked.to_json(), encoding="utf-8")
    # Taking back a move changes the game: it is no longer over, and its record says so.
    player = finished_record.initial_state().current_player
    argv = ["play", "--load", str(source), "--player", str(player)]
    run(argv, capsys, monkeypatch, stdin=f"undo\nsave {changed}\nquit\ny\n")
    record = GameRecord.from_json(changed.read_text("utf-8"))
    assert record.players == ("Ann", "Bob") and record.result is None
    assert len(record.moves) < len(marked.moves)
    # A record without names takes the names of the seats.
    unnamed = tmp_path / "unnamed.json"
    unnamed.write_text(GameRecord("classic", seed=5).to_json(), encoding="utf-8")
    run(["play", "--load", str(unnamed)], capsys, monkeypatch, stdin=f"1\nsave {changed}\n")
    assert GameRecord.from_json(changed.read_text("utf-8")).players == ("you", "greedy bot")


# Exit statuses ------------------------------------------------------------------------------------


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
