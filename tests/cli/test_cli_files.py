"""The ``crapette`` command's files: records read with a bound and only from regular files, games saved and loaded."""

from __future__ import annotations

import fnmatch
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from crapette import Game, GameRecord, apply_move, new_game
from crapette._formats.record import MAX_RECORD_LENGTH
from crapette.bots import GreedyBot
from crapette.cli import MAX_RECORD_BYTES

from cli_helpers import bot_game, play, run, run_limited
from cli_helpers import _in_a_temporary_directory  # noqa: F401 (an autouse fixture)


# Reading: a bound, and only regular files --------------------------------------------------------


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


# Saving and loading a game -----------------------------------------------------------------------


def test_play_saves_and_loads_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "saved.json"
    _, out = play(["1", f"save {path}", "save", f"load {tmp_path / 'none.json'}"], capsys, monkeypatch)
    assert f"Saved to {path}." in out
    assert "save needs a file name" in out
    assert "cannot read" in out
    record = GameRecord.from_json(path.read_text(encoding="utf-8"))
    assert record.seed == 5 and [str(m) for m in record.moves][:1] == ["T3-F0"]
    assert record.players == ("you", "greedy bot")
    _, out = play([f"load {path}", "quit"], capsys, monkeypatch)
    assert f"Loaded {path}: move {len(record.moves)}." in out
    code, out, _ = run(["play", "--load", str(path)], capsys, monkeypatch, stdin="quit\n")
    assert code == 0 and "F0 A♣" in out


def test_the_end_of_the_input_saves_unsaved_moves_and_says_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["1", "undo"], capsys, monkeypatch)
    assert out.endswith("bye\n")  # back where the deal started: nothing to save
    code, out = play(["1"], capsys, monkeypatch)
    (saved,) = tmp_path.glob("crapette-*.json")
    assert code == 0
    assert f"The input ended: the game is saved in {saved} (crapette play --load {saved} goes on with it)." in out
    record = GameRecord.from_json(saved.read_text(encoding="utf-8"))
    assert record.seed == 5 and [str(m) for m in record.moves] == ["T3-F0"]


def test_loading_a_file_that_is_not_there_asks_nothing_and_keeps_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, out = play(["1", "load nothere.json", "moves", "quit", "y"], capsys, monkeypatch)
    assert "Load anyway?" not in out and "nothere.json" in out and "Leave anyway?" in out
    assert "Your legal moves" in out  # the game went on after the refusal
    good = tmp_path / "good.json"
    play(["1", "save good.json", "quit"], capsys, monkeypatch)
    _, out = play(["1", "load good.json", "y"], capsys, monkeypatch)
    assert out.count("Load anyway?") == 1 and "Loaded good.json: move 1." in out and good.exists()


def test_the_saves_of_unsaved_moves_are_ignored_by_git(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    play(["1"], capsys, monkeypatch)
    (saved,) = tmp_path.glob("crapette-*.json")
    ignored = (Path(__file__).resolve().parents[2] / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert any(fnmatch.fnmatch(saved.name, line.strip()) for line in ignored if line and not line.startswith("#"))


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


# Writing: whole or not at all ---------------------------------------------------------------------


def _limited_run(argv: list[str], stdin: str = "", file_size: int = 4096) -> subprocess.CompletedProcess[str]:
    """``python -m crapette`` in a process that may write files of at most ``file_size`` bytes (``ulimit -f``)."""

    def limit() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return subprocess.run(
        [sys.executable, "-m", "crapette", *argv], input=stdin, capture_output=True, text=True, timeout=120,
        preexec_fn=limit,
    )


needs_rlimit = pytest.mark.skipif(os.name != "posix", reason="needs resource limits (POSIX)")


@needs_rlimit
def test_a_failed_save_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    good, keep = tmp_path / "good.json", tmp_path / "keep.json"
    good.write_text(bot_game(moves=600).to_json(indent=2), encoding="utf-8")
    assert good.stat().st_size > 4096
    previous = GameRecord("classic", seed=3).to_json()
    keep.write_text(previous, encoding="utf-8")
    result = _limited_run(["play", "--load", str(good)], stdin=f"save {keep}\nquit\ny\n")
    assert f"cannot write {keep}: File too large; the game is not saved." in result.stdout
    assert keep.read_text(encoding="utf-8") == previous
    assert sorted(p.name for p in tmp_path.iterdir()) == ["good.json", "keep.json"]  # no temporary file left


@needs_rlimit
@pytest.mark.parametrize("command", ["show --svg", "replay --html", "replay --svg-dir", "analyse --html"])
def test_a_failed_picture_or_page_leaves_the_previous_file_intact(tmp_path: Path, command: str) -> None:
    record = tmp_path / "game.json"
    record.write_text(bot_game(moves=30).to_json(), encoding="utf-8")
    name, option = command.split()
    target = tmp_path / ("pictures" if option == "--svg-dir" else "out")
    if option == "--svg-dir":
        target.mkdir()
        (target / "state-00000.svg").write_text("previous", encoding="utf-8")
    else:
        target.write_text("previous", encoding="utf-8")
    argv = {"show": ["show", "--seed", "3"], "replay": ["replay", str(record)],
            "analyse": ["analyse", str(record), "--playouts", "20", "--no-progress"]}[name]
    result = _limited_run([*argv, option, str(target)], file_size=2048)
    assert result.returncode == 1 and "File too large" in result.stderr
    kept = target / "state-00000.svg" if option == "--svg-dir" else target
    assert kept.read_text(encoding="utf-8") == "previous"
    assert not [p for p in tmp_path.rglob(".*.tmp")]


KILLED_MIDWAY = """
import os, signal, sys
from crapette.cli._files import write_file, writing

write_file(sys.argv[1], "the previous save\\n")
with writing(sys.argv[1]) as file:
    file.write("half of a new save" * 10000)
    file.flush()
    os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(os, "kill") or os.name != "posix", reason="needs SIGKILL")
def test_a_save_killed_midway_leaves_the_previous_file_intact(tmp_path: Path) -> None:
    import signal

    path = tmp_path / "keep.json"
    result = subprocess.run([sys.executable, "-c", KILLED_MIDWAY, str(path)], capture_output=True, timeout=60)
    assert result.returncode == -signal.SIGKILL
    assert path.read_text(encoding="utf-8") == "the previous save\n"
    (left,) = [p for p in tmp_path.iterdir() if p != path]  # the hidden temporary file stays behind
    assert left.name.startswith(".keep.json.") and left.name.endswith(".tmp")


def test_a_save_keeps_the_files_permissions_and_a_link_stays_a_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real, link = tmp_path / "real.json", tmp_path / "link.json"
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link.symlink_to(real)
    _, out = play(["1", f"save {link}"], capsys, monkeypatch)
    assert f"Saved to {link}." in out
    assert link.is_symlink() and GameRecord.from_json(real.read_text("utf-8")).seed == 5
    assert real.stat().st_mode & 0o777 == 0o640


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root writes any file")
def test_a_read_only_file_is_not_replaced(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept = tmp_path / "kept.json"
    kept.write_text("old", encoding="utf-8")
    kept.chmod(0o444)
    _, out = play(["1", f"save {kept}", "quit", "y"], capsys, monkeypatch)
    assert f"cannot write {kept}: Permission denied; the game is not saved." in out
    assert kept.read_text(encoding="utf-8") == "old"


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_is_written_straight_through(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, _ = run(["show", "--seed", "3", "--svg", "/dev/null"], capsys, monkeypatch)
    assert code == 0 and "wrote /dev/null" in out and os.path.exists("/dev/null")


# Loading never takes back a reveal -----------------------------------------------------------------


def test_a_loaded_save_keeps_the_undo_policy_a_reveal_stays_final(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Classic, seed 3: the draw turns K♦ face up (it fits nowhere: the turn ends).
    path = tmp_path / "saved.json"
    _, out = play(["draw", f"save {path}", "undo"], capsys, monkeypatch, "--seed", "3")
    refusal = "You cannot take back your last move: a card has been turned face up since"
    assert out.count(refusal) == 1
    code, out, _ = run(["play", "--load", str(path)], capsys, monkeypatch, stdin="undo\nquit\n")
    assert code == 0 and refusal in out and "Took back" not in out
    _, out = play([f"load {path}", "undo"], capsys, monkeypatch)
    assert refusal in out and "Took back" not in out


def test_loading_an_earlier_save_of_the_game_in_play_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    start, other = tmp_path / "start.json", tmp_path / "other.json"
    other.write_text(GameRecord("casual", seed=9).to_json(), encoding="utf-8")
    refusal = f"{start} is an earlier point of a game played here: loading it would take back a card turned face up"
    # Before any card is turned up, going back is an undo: allowed.
    _, out = play([f"save {start}", "T2-T3", f"load {start}", "y"], capsys, monkeypatch, "--seed", "3")
    assert refusal not in out and f"Loaded {start}: move 0." in out
    # After the draw, neither directly, nor by way of another game.
    lines = [f"save {start}", "draw", f"load {start}", "y", f"load {other}", "y", f"load {start}", "quit"]
    _, out = play(lines, capsys, monkeypatch, "--seed", "3")
    assert out.count(refusal) == 2 and f"Loaded {other}" in out and f"Loaded {start}" not in out


def test_the_seed_is_shown_only_once_the_game_is_over(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    # One move ends the game, whoever makes it (a random deal: either player may start).
    argv = ["play", "--rules", "classic(move_limit=1)", "--color", "never"]
    code, out, _ = run(argv, capsys, monkeypatch, stdin=f"1\nsave {path}\nquit\n")
    seed = GameRecord.from_json(path.read_text("utf-8")).seed
    assert code == 0 and "a new deal" in out and seed is not None and seed >= 0
    before, _, after = out.partition("Game over:")
    assert str(seed) not in before and f"The deal was seed {seed}." in after
    # A seed given on the command line is no secret: it is shown at once.
    _, out, _ = run(["play", "--seed", "7"], capsys, monkeypatch, stdin="quit\n")
    assert out.startswith("crapette: classic rules, seed 7.")
