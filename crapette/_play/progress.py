"""Progress reports of long jobs (a simulation, an analysis): tqdm's bar, lines of text, or a callable.

``progress(setting, total, unit, verb)`` turns what a user passed
(``True``, ``False`` or a function ``progress(done, total)``) into an object
with ``update(done)``, ``clear()`` (before other text is written to the
same stream) and ``close()``. ``True`` writes to stderr: tqdm's bar on a
terminal when tqdm is installed, else a line redrawn in place on a terminal,
or a line each tenth of the job (and at least every ten seconds) in a log.
"""

from __future__ import annotations

import importlib
import math
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from .._core.messages import brief

__all__ = ["Progress", "duration", "isatty", "progress"]


def isatty(stream: object) -> bool:
    """Whether ``stream`` is a terminal (False for a closed stream or one that cannot tell)."""
    check = getattr(stream, "isatty", None)
    try:
        return bool(check and check())
    except (OSError, ValueError):  # a closed stream
        return False


def duration(seconds: float) -> str:
    """A duration as a person reads it: ``4.2 s``, ``37 s``, ``3 min 05 s``, ``1 h 02 min``.

    >>> duration(4.23), duration(37.4), duration(185), duration(3725)
    ('4.2 s', '37 s', '3 min 05 s', '1 h 02 min')
    """
    if seconds < 9.95:
        return f"{seconds:.1f} s"
    if seconds < 59.5:
        return f"{seconds:.0f} s"
    minutes = round(seconds) // 60
    if minutes < 60:
        return f"{minutes} min {round(seconds) % 60:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


class _Callback:
    """A progress callable of the user's: ``progress(done, total)``."""

    def __init__(self, callback: Callable[[int, int], object], total: int) -> None:
        self.callback = callback
        self.total = total

    def update(self, done: int) -> None:
        self.callback(done, self.total)

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass


class _Bar:
    """tqdm's progress bar."""

    def __init__(self, tqdm: Any, total: int, unit: str, verb: str) -> None:
        self.bar = tqdm(total=total, unit=unit, desc=verb, leave=False)

    def update(self, done: int) -> None:
        self.bar.update(done - self.bar.n)

    def clear(self) -> None:
        self.bar.clear()

    def close(self) -> None:
        self.bar.close()


class _Lines:
    """Progress as text: one line redrawn in place on a terminal, else a line now and then.

    Not on a terminal (a log, a pipe), a line is written each time another
    tenth of the job is done, and at least every ``every`` seconds.
    """

    def __init__(
        self,
        stream: TextIO,
        total: int,
        terminal: bool,
        unit: str = "game",
        verb: str = "simulating",
        every: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = stream
        self.total = total
        self.terminal = terminal
        self.unit = unit
        self.verb = verb
        self.every = every
        self.clock = clock
        self.start = self.last = clock()
        self.tenths = 0
        self.width = 0

    def text(self, done: int, now: float) -> str:
        elapsed = now - self.start
        percent = done * 100 // self.total if self.total else 100
        text = f"{self.verb}: {done}/{self.total} {self.unit}s ({percent}%), {duration(elapsed)}"
        if 0 < done < self.total:
            text += f", about {duration(elapsed * (self.total - done) / done)} left"
        return text

    def update(self, done: int) -> None:
        now = self.clock()
        if self.terminal:
            # Redrawn at most ten times a second, and when the job is done.
            if self.width and done < self.total and now - self.last < 0.1:
                return
            text = self.text(done, now)
            self.write("\r" + text.ljust(self.width))
            self.width = len(text)
        else:
            tenths = done * 10 // self.total if self.total else 10
            if tenths <= self.tenths and now - self.last < self.every:
                return
            self.tenths = tenths
            self.write(self.text(done, now) + "\n")
        self.last = now

    def write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed stream, or a reader that has gone: stop showing
            self.terminal, self.every, self.tenths = False, math.inf, 10

    def clear(self) -> None:
        if self.terminal and self.width:  # leave the terminal as it was, as tqdm does
            self.write("\r" + " " * self.width + "\r")
            self.width = 0

    def close(self) -> None:
        self.clear()


class _Quiet:
    def update(self, done: int) -> None:
        pass

    def clear(self) -> None:
        pass

    def close(self) -> None:
        pass


Progress = _Callback | _Bar | _Lines | _Quiet


def progress(setting: object, total: int, unit: str = "game", verb: str = "simulating") -> Progress:
    """The progress report ``setting`` asks for (True, False or a function ``progress(done, total)``).

    :raises TypeError: if ``setting`` is none of those.
    """
    if setting is False:
        return _Quiet()
    if setting is True:
        stream = sys.stderr
        if stream is None:  # no stderr at all (pythonw)
            return _Quiet()
        terminal = isatty(stream)
        if terminal:
            try:
                return _Bar(importlib.import_module("tqdm").tqdm, total, unit, verb)
            except ImportError:
                pass
        return _Lines(stream, total, terminal, unit, verb)
    if callable(setting):
        return _Callback(setting, total)
    raise TypeError(f"progress must be True, False or a function progress(done, total), got {brief(setting)}")
