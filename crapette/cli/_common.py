"""What the ``crapette`` command's modules share: its defaults and limits, its user error, and short messages."""

from __future__ import annotations

import os
from typing import IO

from .._core.messages import brief
from .._formats.record import MAX_RECORD_LENGTH
from .._play.progress import isatty

#: What ``crapette simulate`` does with no options (the README's first command).
DEFAULT_RULES = "classic"
DEFAULT_GAMES = 200
DEFAULT_BOTS = "greedy,random"
DEFAULT_BOT_SEED = 1
#: The level ``crapette analyse`` searches at unless told otherwise.
ANALYSIS_LEVEL = "strong"

#: The most bytes a game record file may hold: MAX_RECORD_LENGTH characters of up to 4 bytes (UTF-8).
MAX_RECORD_BYTES = 4 * MAX_RECORD_LENGTH
#: The longest line read at the game's prompt, in characters; a longer line is refused.
MAX_LINE = 1000


def colour_wanted(choice: str, stream: IO[str]) -> bool:
    """Colour for ``always``; never for ``never``; for ``auto``: a terminal, and NO_COLOR unset."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    return isatty(stream)


def visible(text: str, limit: int = 60) -> str:
    """``text`` for a message: control characters escaped, at most ``limit`` characters."""
    return brief(text, limit, quote=False)


def one_line(exc: BaseException) -> str:
    """An exception as one short line: its type and the first line of its message."""
    return brief(exc, 300)


class Fail(Exception):
    """A user error: the message is shown without a traceback."""
