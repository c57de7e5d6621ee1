"""The ``crapette`` command: play against a bot, run simulations, show positions, replay games and analyse them.

``crapette --help`` lists the commands; ``python -m crapette`` is the same
program. :func:`main` takes the arguments as a list, so the command can be
driven from Python (and from tests):

>>> main(["show", "--rules", "casual", "--seed", "1", "--color", "never"])  # doctest: +ELLIPSIS
casual · move 0 · player 0 to move
...
0

The command is a package of private modules, one per job: ``_args`` (the
parser and the checks of each argument), ``_play`` (the terminal game),
``_commands`` (``simulate``, ``show``, ``replay``, ``analyse``), ``_files``
(reading records, writing files) and ``_common`` (defaults, limits, short
messages); :func:`main` is the entry point, and the defaults and limits
(``DEFAULT_GAMES``, ``MAX_LINE``, ...) are importable from here as before.
Drawing a state as text is :mod:`crapette.text`'s job.

.. versionchanged:: 0.3.0
   :func:`render_text` moved to :mod:`crapette.text`; ``crapette.cli.render_text``
   still works but warns (:class:`DeprecationWarning`).
"""

from __future__ import annotations

import importlib
import io
import os
import sys
import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING

from ._args import make_parser
from ._commands import run_analyse, run_replay, run_show, run_simulate
from ._common import ANALYSIS_LEVEL as ANALYSIS_LEVEL
from ._common import DEFAULT_BOT_SEED as DEFAULT_BOT_SEED
from ._common import DEFAULT_BOTS as DEFAULT_BOTS
from ._common import DEFAULT_GAMES as DEFAULT_GAMES
from ._common import DEFAULT_RULES as DEFAULT_RULES
from ._common import MAX_LINE as MAX_LINE
from ._common import MAX_RECORD_BYTES as MAX_RECORD_BYTES
from ._common import Fail, one_line, visible
from ._play import Session

if TYPE_CHECKING:  # type checkers see the deprecated name; at run time __getattr__ warns
    from ..text import render_text as render_text

__all__ = ["main"]

#: Public names that moved out of this module: where each lives now.
_MOVED = {"render_text": "crapette.text"}


def __getattr__(name: str) -> object:
    """``crapette.cli.render_text``, deprecated: it is :func:`crapette.text.render_text`.

    The private helpers of the one-file module ``crapette.cli`` was before
    0.3.0 are gone: they were never public.
    """
    if name in _MOVED:
        warnings.warn(
            f"crapette.cli.{name} is deprecated since 0.3.0: use {_MOVED[name]}.{name}",
            DeprecationWarning,
            stacklevel=2,
        )
        return getattr(importlib.import_module(_MOVED[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _tolerate_bad_characters() -> None:
    """Undecodable input becomes U+FFFD and unprintable output ``?``, never an exception."""
    for stream in (sys.stdin, sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            try:
                stream.reconfigure(errors="replace")
            except (ValueError, OSError, io.UnsupportedOperation):
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``crapette`` command with ``argv`` (default: the process's arguments).

    Returns the exit status: 0 on success, 1 when the input (a position, a
    record, a file, a bot of one's own) is wrong or fails, 2 for bad
    command-line arguments, 130 when interrupted (Ctrl-C). Errors are reported
    as one line on stderr, never as a traceback.
    """
    parser = make_parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # --help, --version, or bad arguments (argparse printed why)
        return exc.code if isinstance(exc.code, int) else 0
    _tolerate_bad_characters()
    out = sys.stdout
    try:
        if args.command is None:
            parser.print_help(out)
            return 0
        if args.command == "play":
            return Session(args, sys.stdin, out, sys.stderr).run()
        if args.command == "simulate":
            return run_simulate(args, out)
        if args.command == "show":
            return run_show(args, out)
        if args.command in ("analyse", "analyze"):
            args.command = "analyse"
            return run_analyse(args, out)
        return run_replay(args, sys.stdin, out)
    except Fail as exc:
        print(f"crapette {args.command}: {visible(str(exc), 1000)}", file=sys.stderr)
        return 1
    except KeyboardInterrupt as exc:
        done = f" ({exc})" if str(exc) else ""
        print(f"\ncrapette {args.command}: interrupted{done}", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader has gone (crapette show | head): leave quietly
        try:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
            pass
        return 1
    except Exception as exc:  # a user's bot that fails, or a bug: one line all the same
        print(f"crapette {args.command}: {one_line(exc)}", file=sys.stderr)
        return 1
