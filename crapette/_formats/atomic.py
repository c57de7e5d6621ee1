"""Files written whole or not at all: the one writer of every file the package saves (the command's, the training's)."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["replacing"]


def _direct(path: str, binary: bool) -> Iterator[IO[Any]]:
    """A stream writing straight into ``path``, which is not a regular file (a pipe, a device)."""
    # Non-blocking to open: a pipe that nobody reads is refused (ENXIO) instead of waited for.
    fd = os.open(path, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    stream = open(fd, "wb") if binary else open(fd, "w", encoding="utf-8", newline="")
    with stream as file:
        if hasattr(os, "O_NONBLOCK"):
            os.set_blocking(fd, True)
        yield file


@contextlib.contextmanager
def replacing(path: str | os.PathLike[str], *, binary: bool = False) -> Iterator[IO[Any]]:
    """A stream (text in UTF-8, or bytes with ``binary``) whose content replaces ``path`` once the ``with`` block ends without error.

    The content goes to a new hidden file in the same folder
    (``.NAME.XXXXXXXX.tmp``), flushed to the disk and then renamed over
    ``path`` in one step: a write that fails midway (a full disk, a file size
    limit), an exception in the block, Ctrl-C or a kill leaves the file that
    was there as it was (a kill may leave the hidden file behind). A file that
    may not be written stays as it is, even in a folder that may be, and keeps
    its permissions when replaced; a link is followed, and the file it names
    replaced. A path that is not a regular file (a pipe, a device such as
    ``/dev/stdout``) is written straight through, and a pipe that nobody
    reads is refused instead of waited for.

    >>> import os, tempfile
    >>> folder = tempfile.mkdtemp()
    >>> path = os.path.join(folder, "notes.txt")
    >>> with replacing(path) as file:
    ...     _ = file.write("whole")
    >>> with open(path) as file:
    ...     file.read(), os.listdir(folder)
    ('whole', ['notes.txt'])

    :raises OSError: if the file cannot be written; its ``strerror`` says why
        (``"it is a directory"``, ``"a file name cannot hold a null character"``, the system's reason).
    """
    if "\0" in os.fspath(path):
        raise OSError(errno.EINVAL, "a file name cannot hold a null character")
    target = os.path.realpath(path)  # through a link: the file it names is replaced, the link stays
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a directory")
    if info is not None and not stat.S_ISREG(info.st_mode):
        yield from _direct(target, binary)
        return
    if info is not None and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
    folder, name = os.path.split(target)
    temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        stream = open(fd, "wb") if binary else open(fd, "w", encoding="utf-8", newline="")
        with stream as file:
            if info is not None and hasattr(os, "fchmod"):
                os.fchmod(fd, stat.S_IMODE(info.st_mode))  # the file keeps its permissions
            yield file
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
