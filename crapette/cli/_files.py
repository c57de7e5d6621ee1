"""The files of the ``crapette`` command: game records read with limits, and files written whole or not at all."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO, cast

from .. import GameRecord, parse_record
from .._core.messages import brief
from .._formats.atomic import replacing
from .._formats.record import MAX_RECORD_LENGTH
from ._common import MAX_RECORD_BYTES, Fail


def shown_path(path: str | Path) -> str:
    text = str(path)
    return text if text.isprintable() and len(text) <= 100 else brief(text)


def why_failed(exc: OSError) -> str:
    if exc.errno == errno.ENXIO:
        return "it is a pipe that nobody reads"
    return exc.strerror or str(exc)


_FILE_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a pipe"),
    (stat.S_ISCHR, "a device"),
    (stat.S_ISBLK, "a device"),
    (stat.S_ISSOCK, "a socket"),
)


def _read_record_text(path: str) -> str:
    """The text of a record file: a regular file of at most MAX_RECORD_LENGTH characters (UTF-8).

    Never reads more than MAX_RECORD_BYTES + 1 bytes, and never waits: a pipe
    or a device is refused before it is read.
    """
    shown = shown_path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise Fail(f"cannot read {shown}: {why_failed(exc)}") from None
    except ValueError:
        raise Fail(f"cannot read {shown}: a file name cannot hold a null character") from None
    too_large = f"{shown} is too large for a game record (at most {MAX_RECORD_LENGTH:,} characters)"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _FILE_KINDS if test(info.st_mode)), "not a file")
            raise Fail(f"cannot read {shown}: it is {kind}, not a regular file")
        if info.st_size > MAX_RECORD_BYTES:
            raise Fail(too_large)
        with open(fd, "rb", closefd=False) as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise Fail(f"cannot read {shown}: {why_failed(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_RECORD_BYTES:
        raise Fail(too_large)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise Fail(f"{shown} is not a text file (UTF-8): bad byte at offset {exc.start}") from None
    if len(text) > MAX_RECORD_LENGTH:
        raise Fail(too_large)
    return text


def read_record(path: str) -> GameRecord:
    text = _read_record_text(path)
    try:
        return parse_record(text)
    except ValueError as exc:
        raise Fail(f"{shown_path(path)} is not a valid game record: {exc}") from None


@contextlib.contextmanager
def writing(path: str | Path) -> Iterator[TextIO]:
    """A text stream (UTF-8) whose text replaces ``path`` once the ``with`` block ends without error.

    Every file the command writes goes through here, and through
    :func:`crapette._formats.atomic.replacing`: the text goes to a new hidden file in the same folder
    (``.NAME.XXXXXXXX.tmp``), flushed to the disk and then renamed over
    ``path`` in one step: a write that fails midway (a full disk, a file size
    limit), Ctrl-C or a kill leaves the file that was there as it was (a kill
    may leave the hidden file behind). A file that may not be written stays as
    it is, even in a folder that may be. A path that is not a regular file (a
    pipe, a device such as ``/dev/stdout``) is written straight through, and a
    pipe that nobody reads is refused instead of waited for. A failure is a
    :class:`Fail` that says why.
    """
    shown = shown_path(path)
    try:
        with replacing(path) as file:
            yield cast(TextIO, file)  # a text stream: not binary
    except OSError as exc:
        raise Fail(f"cannot write {shown}: {why_failed(exc)}") from None


def write_file(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8), replacing it whole or not at all (see :func:`writing`)."""
    with writing(path) as file:
        file.write(text)


def write_new(text: str) -> Path:
    """Write ``text`` to a new file ``crapette-DATE-TIME.json`` here, else in the temporary directory."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    folders: list[Path] = []
    try:
        folders.append(Path.cwd())
    except OSError:
        pass
    folders.append(Path(tempfile.gettempdir()))
    problem = "no folder"
    for folder in folders:
        for n in range(1, 100):
            path = folder / (f"crapette-{stamp}.json" if n == 1 else f"crapette-{stamp}-{n}.json")
            try:
                with open(path, "x", encoding="utf-8"):
                    pass  # the name is ours now; the text replaces the empty file whole
            except FileExistsError:
                continue
            except OSError as exc:
                problem = f"{shown_path(folder)}: {why_failed(exc)}"
                break
            try:
                write_file(path, text)
            except Fail as exc:
                with contextlib.suppress(OSError):
                    os.unlink(path)
                problem = str(exc).removeprefix("cannot write ")
                break
            return path
    raise Fail(f"the game could not be saved ({problem})")
