"""The ``crapette`` command: play against a bot, run simulations, show positions, replay games and analyse them.

``crapette --help`` lists the commands; ``python -m crapette`` is the same
program. :func:`main` takes the arguments as a list, so the command can be
driven from Python (and from tests):

>>> main(["show", "--rules", "casual", "--seed", "1", "--color", "never"])  # doctest: +ELLIPSIS
casual · move 0 · player 0 to move
...
0
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import errno
import importlib
import io
import itertools
import json
import math
import os
import re
import shlex
import stat
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO, NamedTuple, NoReturn, TextIO, cast

import attrs

from . import (
    Card,
    Colour,
    Draw,
    EndTurn,
    Game,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    MoveStack,
    Outcome,
    ParseError,
    Pass,
    Pile,
    PileKind,
    Play,
    RecordError,
    RuleSet,
    TableauSources,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
)
from ._errors import brief
from ._record import MAX_RECORD_LENGTH
from ._progress import isatty, progress
from .analysis import MISTAKE, Review, reviews
from .bots import BOT_NAMES, LEVELS, Bot, SearchBot, TreeSearchBot, make_bot
from .simulation import DEFAULT_MAX_MOVES, SimulationError, SimulationInterrupted, SimulationReport, simulate

__all__ = ["main", "render_text"]

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

_RED = "\x1b[31m"
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
_RESET = "\x1b[0m"


class _Paint:
    """ANSI colour, or none."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if self.enabled else text

    def card(self, card: Card) -> str:
        text = card.symbol
        return self(_RED, text) if card.colour is Colour.RED else text


def _colour_wanted(choice: str, stream: IO[str]) -> bool:
    """Colour for ``always``; never for ``never``; for ``auto``: a terminal, and NO_COLOR unset."""
    if choice == "always":
        return True
    if choice == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    return isatty(stream)


# Words ----------------------------------------------------------------------------

_CARD_NOTATION = re.compile(r"\b[A2-9TJQK][CDHS][01]\b")


def _symbols(text: str) -> str:
    """``text`` with every card written as the table shows it: ``AS1`` becomes ``A♠``."""
    return _CARD_NOTATION.sub(lambda m: parse_card(m.group()).symbol, text)


def _visible(text: str, limit: int = 60) -> str:
    """``text`` for a message: control characters escaped, at most ``limit`` characters."""
    return brief(text, limit, quote=False)


def _one_line(exc: BaseException) -> str:
    """An exception as one short line: its type and the first line of its message."""
    return brief(exc, 300)


# A player named "you" is spoken to in the second person.


def _possessive(name: str) -> str:
    return "your" if name == "you" else f"{name}'s"


def _verb(name: str, verb: str) -> str:
    return f"{name} {verb}" if name == "you" else f"{name} {verb}s"


def _result_text(outcome: Outcome, names: tuple[str, str]) -> str:
    head = "draw" if outcome.winner is None else _verb(names[outcome.winner], "win")
    tail = "" if outcome.scores is None else f", {outcome.scores[0]}-{outcome.scores[1]}"
    return f"{head} ({outcome.reason.value}){tail}"


def render_text(
    state: GameState,
    *,
    colour: bool = False,
    names: tuple[str, str] = ("player 0", "player 1"),
    perspective: int = 0,
) -> str:
    """The table of ``state`` as text with Unicode suits, as ``crapette`` shows it in a terminal.

    The ``perspective`` player (0 by default) is at the bottom, the other at
    the top; each shows the reserve
    (top card and count), the hand (a count: it is face down) and the waste
    (top card and count). Foundations show their top card, tableau piles all
    their cards from bottom to top. ``▶`` marks the player to move. With
    ``colour``, red suits are red and the player to move is bold (ANSI codes).
    A player named ``"you"`` is spoken to in the second person ("you win").

    >>> from crapette import new_game
    >>> print(render_text(new_game("classic", seed=1)))
    classic · move 0 · player 0 to move
      player 1  R1 J♠ [13]   H1 [35]   W1 - [0]
      F0 -   F1 -   F2 -   F3 -   F4 -   F5 -   F6 -   F7 -
      T0 2♦
      T1 J♥
      T2 5♥
      T3 7♥
      T4 9♣
      T5 4♦
      T6 7♦
      T7 T♣
    ▶ player 0  R0 3♣ [13]   H0 [35]   W0 - [0]
    """
    if not isinstance(state, GameState):
        raise TypeError(f"render_text() expects a GameState, got {type(state).__name__}")
    if perspective not in (0, 1) or isinstance(perspective, bool):
        raise ValueError(f"perspective must be 0 or 1 (the player at the bottom), got {brief(perspective)}")
    width = max(len(names[0]), len(names[1]))
    paint = _Paint(colour)
    rules = state.rules
    outcome = state.outcome
    if outcome is None:
        status = f"{names[state.current_player]} to move"
        if state.drawn:
            status += ", the card drawn lies on the waste"
    else:
        status = f"game over: {_result_text(outcome, names)}"
    lines = [f"{str(rules)} · move {state.move_count} · {status}"]

    def player_line(player: int) -> str:
        reserve = state.reserves[player]
        waste = state.wastes[player]
        top = paint.card(reserve[-1]) if reserve else "-"
        wtop = paint.card(waste[-1]) if waste else "-"
        mark = "▶ " if outcome is None and state.current_player == player else "  "
        name = names[player]
        text = (
            f"{name:<{width}}  R{player} {top} [{len(reserve)}]   H{player} [{len(state.hands[player])}]   "
            f"W{player} {wtop} [{len(waste)}]"
        )
        if mark.strip():
            text = paint(_BOLD, text)
        return mark + text

    lines.append(player_line(1 - perspective))
    foundations = [
        f"F{i} {paint.card(pile[-1]) if pile else '-'}" for i, pile in enumerate(state.foundations)
    ]
    lines.append("  " + "   ".join(foundations))
    if rules.tableau_sources is TableauSources.OWN:
        lines.append(paint(_DIM, f"  own tableau piles: T0-T3 {names[0]}, T4-T7 {names[1]}"))
    for i, pile in enumerate(state.tableau):
        cards = " ".join(paint.card(c) for c in pile) if pile else "-"
        lines.append(f"  T{i} {cards}")
    lines.append(player_line(perspective))
    return "\n".join(lines)


# Arguments ------------------------------------------------------------------------


class _Fail(Exception):
    """A user error: the message is shown without a traceback."""


_WHOLE_NUMBER = re.compile(r"\s*[+-]?[0-9]+\s*")


def _number(text: str) -> int:
    """A whole number in ASCII digits, of at most 30 digits (no seed or count needs more)."""
    if not _WHOLE_NUMBER.fullmatch(text):
        raise argparse.ArgumentTypeError(f"expected a whole number, got {brief(text)}")
    if len(text.strip().lstrip("+-")) > 30:
        raise argparse.ArgumentTypeError(f"the number {brief(text)} is too large (at most 30 digits)")
    return int(text)


def _rules_arg(text: str) -> RuleSet:
    try:
        return parse_rules(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    value = _number(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    value = _number(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 2**64 - 1, got {value}")
    return value


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1:
        raise argparse.ArgumentTypeError(f"expected a number from 0 to 1, got {_visible(text)}")
    return value


def _player(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"a player is 0 or 1, got {brief(text)}")
    return int(text)


class _BotChoice(NamedTuple):
    """A bot named on the command line: a built-in one by ``name`` (and ``seed``), or a user's ``bot``."""

    name: str
    seed: int | None = None
    bot: Bot | None = None

    @property
    def label(self) -> str:
        """What the game calls the bot: ``greedy bot``, or the user's class name."""
        if self.bot is None:
            kind, _, level = self.name.partition(":")
            return f"{level} {kind} bot" if level else f"{kind} bot"
        return self.name.rpartition(":")[2].rpartition(".")[2]


_USER_BOT = "a bot of your own is module:Class"


def _bot_spec(text: str) -> _BotChoice:
    """A built-in bot: a name of BOT_NAMES, then ``:N`` for a seed (digits only); or ``module:Class``."""
    spec = text.strip()
    head, colon, tail = (part.strip() for part in spec.rpartition(":"))
    if spec.split(":")[0].strip().lower() in {name.split(":")[0] for name in BOT_NAMES}:
        if spec.lower() in BOT_NAMES:
            return _BotChoice(spec.lower())
        if head.lower() in BOT_NAMES and tail.isascii() and tail.isdigit():
            return _BotChoice(head.lower(), _seed(tail))
        raise argparse.ArgumentTypeError(
            f"unknown bot {brief(text)}: expected one of {', '.join(BOT_NAMES)}, "
            f"and NAME:N (N digits only) to seed one"
        )
    if not colon:
        raise argparse.ArgumentTypeError(
            f"unknown bot {brief(text)}: expected one of {', '.join(BOT_NAMES)} ({_USER_BOT})"
        )
    if tail.isascii() and tail.isdigit():
        if ":" in head:
            raise argparse.ArgumentTypeError(
                f"a bot of your own takes no seed, got {brief(text)}: NAME:N seeds a built-in bot only"
            )
        raise argparse.ArgumentTypeError(
            f"unknown bot {brief(head)}: NAME:N seeds one of {', '.join(BOT_NAMES)}"
        )
    return _BotChoice(spec, None, _load_bot(spec))


def _load_bot(spec: str) -> Bot:
    """The bot ``module:Class`` (made with no arguments) or ``module:object``.

    The module is imported with the current directory on the path, as
    ``python -m`` does.
    """
    module_name, _, attribute = (part.strip() for part in spec.partition(":"))
    shown = brief(spec)
    if not module_name or not attribute:
        raise argparse.ArgumentTypeError(f"expected module:Class for a bot of your own, got {shown}")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            raise argparse.ArgumentTypeError(
                f"no module named {brief(module_name)} in the current directory or on the "
                f"Python path, for the bot {shown}"
            ) from None
        raise argparse.ArgumentTypeError(f"importing {brief(module_name)} failed: {_one_line(exc)}") from None
    except (Exception, SystemExit) as exc:
        raise argparse.ArgumentTypeError(f"importing {brief(module_name)} failed: {_one_line(exc)}") from None
    found: object = module
    for part in attribute.split("."):
        try:
            found = getattr(found, part)
        except Exception:
            raise argparse.ArgumentTypeError(
                f"the module {brief(module_name)} has no {brief(attribute)} (for the bot {shown})"
            ) from None
    bot = found
    if isinstance(found, type):
        try:
            bot = found()
        except Exception as exc:
            raise argparse.ArgumentTypeError(
                f"cannot make the bot {shown}: {attribute}() failed: {_one_line(exc)}"
            ) from None
    try:
        choose = getattr(bot, "choose", None)
    except Exception:
        choose = None
    if not callable(choose):
        raise argparse.ArgumentTypeError(f"{shown} is not a bot: it has no choose(state) method")
    if type(bot).__repr__ is object.__repr__:
        return _Named(cast(Bot, bot), spec)
    return cast(Bot, bot)


class _Named:
    """A bot of one's own whose repr says nothing (``<module.Class object at 0x...>``), named as it was given.

    Reports name bots by their repr: this one's is the same in every run.
    """

    def __init__(self, bot: Bot, name: str) -> None:
        self.bot = bot
        self.label = name

    def choose(self, state: GameState) -> Move:
        return self.bot.choose(state)

    def __repr__(self) -> str:
        return self.label


def _bot_pair(text: str) -> tuple[_BotChoice, _BotChoice]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(
            f"expected two bots separated by a comma, e.g. greedy,random; got {brief(text)}"
        )
    return (_bot_spec(parts[0]), _bot_spec(parts[1]))


def _make_bot(choice: _BotChoice, seed: int, budget: int) -> Bot:
    """The bot chosen: a user's as made, a built-in one seeded with its own seed, else ``seed``."""
    if choice.bot is not None:
        return choice.bot
    if choice.seed is not None:
        seed = choice.seed
    if choice.name == "search":
        return SearchBot(seed=seed, budget=budget)
    return make_bot(choice.name, seed)


def _usable_cpus() -> int:
    """The number of CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# Files ----------------------------------------------------------------------------


def _shown_path(path: str | Path) -> str:
    text = str(path)
    return text if text.isprintable() and len(text) <= 100 else brief(text)


def _why(exc: OSError) -> str:
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
    shown = _shown_path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise _Fail(f"cannot read {shown}: {_why(exc)}") from None
    except ValueError:
        raise _Fail(f"cannot read {shown}: a file name cannot hold a null character") from None
    too_large = f"{shown} is too large for a game record (at most {MAX_RECORD_LENGTH:,} characters)"
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _FILE_KINDS if test(info.st_mode)), "not a file")
            raise _Fail(f"cannot read {shown}: it is {kind}, not a regular file")
        if info.st_size > MAX_RECORD_BYTES:
            raise _Fail(too_large)
        with open(fd, "rb", closefd=False) as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as exc:
        raise _Fail(f"cannot read {shown}: {_why(exc)}") from None
    finally:
        os.close(fd)
    if len(data) > MAX_RECORD_BYTES:
        raise _Fail(too_large)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _Fail(f"{shown} is not a text file (UTF-8): bad byte at offset {exc.start}") from None
    if len(text) > MAX_RECORD_LENGTH:
        raise _Fail(too_large)
    return text


def _read_record(path: str) -> GameRecord:
    text = _read_record_text(path)
    try:
        return parse_record(text)
    except ValueError as exc:
        raise _Fail(f"{_shown_path(path)} is not a valid game record: {exc}") from None


@contextlib.contextmanager
def _writing(path: str | Path) -> Iterator[TextIO]:
    """A text stream (UTF-8) writing ``path``, replacing it; never waits for a pipe that nobody reads."""
    shown = _shown_path(path)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        raise _Fail(f"cannot write {shown}: {_why(exc)}") from None
    except ValueError:
        raise _Fail(f"cannot write {shown}: a file name cannot hold a null character") from None
    try:
        with open(fd, "w", encoding="utf-8", newline="") as file:
            if hasattr(os, "O_NONBLOCK"):
                os.set_blocking(fd, True)
            yield file
    except OSError as exc:
        raise _Fail(f"cannot write {shown}: {_why(exc)}") from None


def _write(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path`` (UTF-8), replacing it."""
    with _writing(path) as file:
        file.write(text)


def _write_new(text: str) -> Path:
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
                with open(path, "x", encoding="utf-8") as file:
                    file.write(text)
                return path
            except FileExistsError:
                continue
            except OSError as exc:
                problem = f"{_shown_path(folder)}: {_why(exc)}"
                break
    raise _Fail(f"the game could not be saved ({problem})")


# The parser -----------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, pointing to --help."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {_visible(message, 1000)} (see {self.prog} --help)\n")


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = _Parser(
        prog="crapette",
        description="Crapette (Russian Bank): play against a bot, simulate games between bots, "
        "show positions, replay recorded games and analyse them.",
        epilog="Run 'crapette COMMAND --help' for a command's options. "
        "With no options, 'crapette simulate' plays 200 classic games, greedy bot against random bot. "
        "Exit status: 0 done, 1 bad input (a file, a position, a bot that fails), "
        "2 bad arguments, 130 interrupted.",
    )
    parser.add_argument("--version", action="version", version=f"crapette {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    bots = ", ".join(BOT_NAMES)

    def colour_option(sub: argparse.ArgumentParser) -> None:
        sub.add_argument(
            "--color",
            "--colour",
            dest="colour",
            choices=("auto", "always", "never"),
            default="auto",
            help="colour the suits: auto (default) colours a terminal unless NO_COLOR is set",
        )

    play = commands.add_parser(
        "play",
        help="play a game against a bot in the terminal",
        description="Play a game against a bot. Type moves in the move notation (R0-F3, "
        "T2-T5x3, draw, end, pass) or their number in the list of legal moves; "
        "type 'help' during the game for the commands. Moves not saved are never lost: "
        "quit asks first, and the end of the input (or an error) saves them in a new file "
        "crapette-DATE-TIME.json in the current directory, and says where.",
    )
    play.add_argument("--rules", type=_rules_arg, default=RuleSet.classic(),
                      help="rules: classic (default), casual, or rules text such as "
                      "'classic(foundation_plays=optional)'")
    play.add_argument("--seed", type=_seed, default=None,
                      help="the deal (default: a new one each time)")
    play.add_argument("--bot", type=_bot_spec, default=_BotChoice("greedy"),
                      help=f"your opponent: {bots} (default: greedy), seeded with the deal's seed; "
                      "NAME:N seeds it with N; module:Class plays a bot of your own")
    play.add_argument("--player", type=_player, default=0, help="the seat you take: 0 (default) or 1")
    play.add_argument("--load", metavar="FILE", help="continue a saved game record")
    play.add_argument("--budget", type=_positive, default=SearchBot.DEFAULT_BUDGET,
                      help="playouts per move of the search bot and the hint")
    colour_option(play)

    sim = commands.add_parser(
        "simulate",
        help="play many games between two bots and print the results",
        description="Play many games between two bots, swapping seats every game, and print "
        "a summary table (or JSON). The same options always give the same results.",
    )
    sim.add_argument("--rules", type=_rules_arg, default=RuleSet.from_name(DEFAULT_RULES),
                     help="rules: classic (default), casual, or rules text")
    sim.add_argument("--games", type=_positive, default=DEFAULT_GAMES,
                     help=f"number of games (default: {DEFAULT_GAMES})")
    sim.add_argument("--bots", type=_bot_pair, default=_bot_pair(DEFAULT_BOTS),
                     help=f"the two bots, comma-separated (default: {DEFAULT_BOTS}): {bots}, "
                     "NAME:N for one seeded with N, or module:Class for a bot of your own")
    sim.add_argument("--seed", type=_seed, default=0,
                     help="game i is dealt from seed SEED + i // 2 (default: 0)")
    sim.add_argument("--bot-seed", type=_seed, default=DEFAULT_BOT_SEED,
                     help=f"seed of the random and search bots not given NAME:N (default: {DEFAULT_BOT_SEED})")
    sim.add_argument("--workers", type=_positive, default=1,
                     help="processes to run the games on (default: 1, this process; "
                     "at most the number of CPUs)")
    sim.add_argument("--max-moves", type=_positive, default=DEFAULT_MAX_MOVES,
                     help=f"move cap of a game (default: {DEFAULT_MAX_MOVES})")
    sim.add_argument("--budget", type=_positive, default=SearchBot.DEFAULT_BUDGET,
                     help=f"playouts per move of a search bot (default: {SearchBot.DEFAULT_BUDGET})")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                     help="show progress on stderr (default): a bar on a terminal (tqdm's with "
                     "pip install 'crapette[cli]'), else a line each tenth of the games or 10 seconds")

    show = commands.add_parser(
        "show",
        help="draw a position",
        description="Draw a position given as a position string (quote it, or give its "
        "fields as separate words), or the deal of --rules and --seed.",
    )
    show.add_argument("position", nargs="*", help="a position string (default: a fresh deal)")
    show.add_argument("--rules", type=_rules_arg, default=RuleSet.classic(),
                      help="rules of the deal when no position is given (default: classic)")
    show.add_argument("--seed", type=_seed, default=0, help="seed of the deal (default: 0)")
    show.add_argument("--moves", action="store_true",
                      help="list the legal moves, and draw them as arrows in the --svg picture")
    show.add_argument("--svg", metavar="FILE", help="also write the picture as an SVG file")
    show.add_argument("--perspective", type=_player, default=0,
                      help="the player at the bottom of the SVG picture (default: 0)")
    colour_option(show)

    replay = commands.add_parser(
        "replay",
        help="print or step through a recorded game",
        description="Print a game record (JSON or text): its moves turn by turn and the final "
        "position, every position with --all, or step through it with --step.",
    )
    replay.add_argument("record", help="a game record file (JSON, or the text form)")
    mode = replay.add_mutually_exclusive_group()
    mode.add_argument("--all", action="store_true", help="draw the table after every move")
    mode.add_argument("--step", action="store_true",
                      help="step through the game: Enter for the next move, q to stop")
    replay.add_argument("--svg-dir", metavar="DIR",
                        help="write one SVG picture per position into DIR")
    replay.add_argument("--html", metavar="FILE",
                        help="write an HTML page that steps through the game")
    replay.add_argument("--perspective", type=_player, default=0,
                        help="the player at the bottom of the pictures (default: 0)")
    colour_option(replay)

    analyse = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="mark the mistakes of a recorded game",
        description="Replay a game record and search every position in which the player to move "
        "had a choice, with the tree search bot seeing what that player saw; mark each move that "
        "the search finds worse than its best move by at least --threshold, with the better move "
        "and what the mistake cost. Prints the marks and a summary per player; --html writes a "
        "replay page that shows them. The same options always give the same marks.",
    )
    analyse.add_argument("record", help="a game record file (JSON, or the text form)")
    analyse.add_argument("--level", choices=tuple(LEVELS), default=ANALYSIS_LEVEL,
                         help=f"the search's level (default: {ANALYSIS_LEVEL}, "
                         + ", ".join(f"{name} {n} playouts" for name, n in LEVELS.items()) + ")")
    analyse.add_argument("--playouts", type=_positive, default=None,
                         help="playouts per position, instead of a level")
    analyse.add_argument("--threshold", type=_fraction, default=MISTAKE,
                         help=f"the value a move must lose to be a mistake, from 0 to 1 (default: {MISTAKE})")
    analyse.add_argument("--player", type=_player, default=None,
                         help="analyse only this player's moves (0 or 1; default: both)")
    analyse.add_argument("--all", action="store_true",
                         help="print every move analysed with its value, not only the mistakes")
    analyse.add_argument("--seed", type=_seed, default=0, help="the search's seed (default: 0)")
    analyse.add_argument("--json", action="store_true", help="print the marks as JSON")
    analyse.add_argument("--html", metavar="FILE",
                         help="write an HTML page that steps through the game with the marks")
    analyse.add_argument("--perspective", type=_player, default=0,
                         help="the player at the bottom of the page's pictures (default: 0)")
    analyse.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                         help="show how far the analysis has got on stderr (default: shown; "
                         "not on a terminal, a line each tenth of the moves)")
    return parser


# Commands -------------------------------------------------------------------------


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
    parser = _parser()
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
            return _Session(args, sys.stdin, out, sys.stderr).run()
        if args.command == "simulate":
            return _simulate(args, out)
        if args.command == "show":
            return _show(args, out)
        if args.command in ("analyse", "analyze"):
            args.command = "analyse"
            return _analyse(args, out)
        return _replay(args, sys.stdin, out)
    except _Fail as exc:
        print(f"crapette {args.command}: {_visible(str(exc), 1000)}", file=sys.stderr)
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
        print(f"crapette {args.command}: {_one_line(exc)}", file=sys.stderr)
        return 1


def _workers(asked: int, games: int) -> int:
    """The processes to run: at most the CPUs this process may use (saying so), and the games."""
    cpus = _usable_cpus()
    if asked > cpus:
        print(
            f"crapette simulate: --workers {asked} is more than the CPUs here ({cpus}): "
            f"running {cpus} worker{'s' if cpus != 1 else ''}",
            file=sys.stderr,
        )
    return min(asked, cpus, games)


def _simulate(args: argparse.Namespace, out: IO[str]) -> int:
    bots = tuple(_make_bot(choice, args.bot_seed, args.budget) for choice in args.bots)
    workers = _workers(args.workers, args.games)
    executor: concurrent.futures.Executor | None = None
    try:
        if workers > 1:
            executor = concurrent.futures.ProcessPoolExecutor(max_workers=workers)
        report = simulate(
            args.rules,
            bots,
            games=args.games,
            seed=args.seed,
            executor=executor,
            progress=args.progress,
            max_moves=args.max_moves,
        )
    except SimulationInterrupted as stop:
        _print_report(stop.report, args.json, out)
        print(f"crapette simulate: {stop}; the summary counts those games", file=sys.stderr)
        return 130
    except SimulationError as error:  # before ValueError: IllegalBotMoveError is one
        if error.report.games:
            _print_report(error.report, args.json, out)
        print(f"crapette simulate: {_one_line(error)}", file=sys.stderr)
        return 1
    except (ValueError, TypeError) as exc:
        raise _Fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    _print_report(report, args.json, out)
    return 0


def _print_report(report: SimulationReport, as_json: bool, out: IO[str]) -> None:
    if as_json:
        print(json.dumps(report.to_dict(), indent=2), file=out)
    else:
        print(report.summary(), file=out)


def _show(args: argparse.Namespace, out: IO[str]) -> int:
    if args.position:
        try:
            state = parse_position(" ".join(args.position))
        except ValueError as exc:
            message = str(exc)
            raise _Fail(message if message.startswith("invalid position") else f"invalid position: {message}") from None
    else:
        state = new_game(args.rules, args.seed)
    print(render_text(state, colour=_colour_wanted(args.colour, out)), file=out)
    moves = legal_moves(state) if args.moves and not state.is_over else ()
    if moves:
        print("legal moves: " + " ".join(str(m) for m in moves), file=out)
    if args.svg:
        from .svg import render

        _write(args.svg, render(state, perspective=args.perspective, highlight=moves))
        print(f"wrote {_shown_path(args.svg)}", file=out)
    return 0


def _playable(record: GameRecord) -> tuple[int, str]:
    """How many states of ``record`` replay (the moves up to the first illegal one), and why it stops there."""
    count = 0
    try:
        for _ in record.states():
            count += 1
    except RecordError as exc:
        return count, str(exc)
    return count, ""


def _head(record: GameRecord) -> str:
    """The first line of a replay or an analysis: the rules, the deal, the moves, the players, the result."""
    names = record.players or ("player 0", "player 1")
    head = f"{str(record.rules)}, " + (f"seed {record.seed}" if record.seed is not None else "from a position")
    head += f", {len(record.moves)} moves"
    if record.players:
        head += f", {names[0]} (player 0) against {names[1]} (player 1)"
    if record.result:
        head += f", result {record.result}"
    return head


def _replay(args: argparse.Namespace, stdin: IO[str], out: IO[str]) -> int:
    record = _read_record(args.record)
    # The states are made again for each use rather than kept: a replay's memory does not grow with the game.
    playable, problem = _playable(record)
    moves = record.moves[: playable - 1]

    def states() -> Iterator[GameState]:
        return itertools.islice(record.states(), playable)

    colour = _colour_wanted(args.colour, out)
    names = record.players or ("player 0", "player 1")
    head = _head(record)
    print(head, file=out)
    if args.step:
        _step(states(), moves, names, colour, stdin, out)
    elif args.all:
        for i, (before, after) in enumerate(itertools.pairwise(states())):
            if i == 0:
                print(render_text(before, colour=colour, names=names), file=out)
            print(f"\nmove {i + 1}: {_verb(names[before.current_player], 'play')} {moves[i]}", file=out)
            print(render_text(after, colour=colour, names=names), file=out)
        if not moves:
            print(render_text(record.initial_state(), colour=colour, names=names), file=out)
    else:
        turn: list[str] = []
        number = 0
        last = None
        for i, (before, after) in enumerate(itertools.pairwise(states())):
            turn.append(str(moves[i]))
            if after.current_player != before.current_player or i == len(moves) - 1:
                number += 1
                print(f"{number:>4}. {names[before.current_player]}: {' '.join(turn)}", file=out)
                turn = []
            last = after
        print(render_text(last or record.initial_state(), colour=colour, names=names), file=out)
    if args.svg_dir:
        from .svg import render

        folder = Path(args.svg_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as exc:
            why = _why(exc) if isinstance(exc, OSError) else "a folder name cannot hold a null character"
            raise _Fail(f"cannot create {_shown_path(folder)}: {why}") from None
        for i, state in enumerate(states()):
            highlight = (moves[i],) if i < len(moves) else ()
            _write(folder / f"state-{i:05d}.svg", render(state, perspective=args.perspective, highlight=highlight))
        print(f"wrote {playable} pictures to {_shown_path(folder)}", file=out)
    if args.html:
        _write_page(args.html, states(), moves, None, args.perspective, f"crapette: {head}")
        print(f"wrote {_shown_path(args.html)}", file=out)
    if problem:
        raise _Fail(f"the record stops being playable: {problem}")
    return 0


def _write_page(
    path: str,
    states: Iterable[GameState],
    moves: Sequence[Move],
    notes: Iterable[str | None] | None,
    perspective: int,
    title: str,
) -> None:
    """Write the HTML replay page to ``path`` as the states come, never holding it in memory."""
    from .svg import write_html

    with _writing(path) as file:
        write_html(states, moves, file, notes=notes, perspective=perspective, title=title)


def _step(
    states: Iterable[GameState],
    moves: Sequence[Move],
    names: tuple[str, str],
    colour: bool,
    stdin: IO[str],
    out: IO[str],
) -> None:
    positions = iter(states)
    state = next(positions)
    print(render_text(state, colour=colour, names=names), file=out)
    for i, (move, after) in enumerate(zip(moves, positions)):
        out.write(f"[Enter: move {i + 1} of {len(moves)}, q: stop] ")
        out.flush()
        line = stdin.readline(MAX_LINE)
        if not line or line.strip().lower() in ("q", "quit"):
            print(file=out)
            return
        print(f"move {i + 1}: {_verb(names[state.current_player], 'play')} {move}", file=out)
        print(render_text(after, colour=colour, names=names), file=out)
        state = after


def _analyse(args: argparse.Namespace, out: IO[str]) -> int:
    """Print the marks of an analysis as they come; on Ctrl-C or an illegal move, what was found so far."""
    record = _read_record(args.record)
    playable, problem = _playable(record)
    moves = record.moves[: playable - 1]
    bot = (
        TreeSearchBot(seed=args.seed, playouts=args.playouts)
        if args.playouts is not None
        else TreeSearchBot.at_level(args.level, seed=args.seed)
    )
    names = record.players or ("player 0", "player 1")
    if not args.json:
        print(_head(record), file=out)
        print(f"searching {bot.playouts} playouts a position, a mistake loses {args.threshold:g} or more", file=out)
    found: list[Review] = []
    truncated = attrs.evolve(record, moves=moves) if problem else record
    shown = progress(args.progress, len(moves), unit="move", verb="analysing")
    interrupted = False
    try:
        for review in reviews(truncated, bot=bot, threshold=args.threshold, players=args.player):
            found.append(review)
            shown.update(review.index + 1)
            if not args.json and (review.mistake or args.all):
                shown.clear()
                print(_review_line(review, names), file=out, flush=True)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        shown.close()
    if args.json:
        print(json.dumps(_analysis_json(record, bot, args.threshold, found, interrupted), indent=2), file=out)
    else:
        for line in _analysis_summary(found, names, args.player):
            print(line, file=out)
    if args.html:
        notes = [""] * len(moves)
        for review in found:
            notes[review.index] = review.note
        title = f"crapette analysis: {_head(record)}"
        _write_page(args.html, itertools.islice(record.states(), playable), moves, notes, args.perspective, title)
        print(f"wrote {_shown_path(args.html)}", file=sys.stderr if args.json else out)
    if interrupted:
        done = found[-1].index + 1 if found else 0
        raise KeyboardInterrupt(f"analysed {done} of {len(moves)} moves")
    if problem:
        raise _Fail(f"the record stops being playable (the moves before were analysed): {problem}")
    return 0


def _review_line(review: Review, names: tuple[str, str]) -> str:
    text = f"move {review.index + 1:>4} ({names[review.player]}): {str(review.played):<8}"
    if review.mistake:
        return f"{text} {review.note}"
    return f"{text} value {review.value:.2f}" + ("" if review.best == review.played else f", best {review.best} {review.best_value:.2f}")


def _analysis_summary(found: Sequence[Review], names: tuple[str, str], only: int | None) -> list[str]:
    lines = []
    for player in (0, 1) if only is None else (only,):
        mine = [r for r in found if r.player == player]
        mistakes = [r for r in mine if r.mistake]
        cost = sum(r.cost_in_points for r in mistakes)
        line = f"{names[player]}: {len(mine)} move{'s' if len(mine) != 1 else ''} with a choice, "
        line += f"{len(mistakes)} mistake{'s' if len(mistakes) != 1 else ''}"
        if mistakes:
            worst = max(mistakes, key=lambda r: r.cost)
            line += f" costing about {cost:.1f} points in all (the worst: move {worst.index + 1}, {worst.played})"
        lines.append(line)
    return lines


def _analysis_json(
    record: GameRecord, bot: TreeSearchBot, threshold: float, found: Sequence[Review], interrupted: bool
) -> dict[str, object]:
    return {
        "rules": str(record.rules),
        "seed": record.seed,
        "moves": len(record.moves),
        "playouts": bot.playouts,
        "threshold": threshold,
        "complete": not interrupted,
        "reviews": [
            {
                "index": r.index,
                "player": r.player,
                "played": str(r.played),
                "best": str(r.best),
                "value": round(r.value, 4),
                "best_value": round(r.best_value, 4),
                "cost": r.cost,
                "cost_in_points": round(r.cost_in_points, 2),
                "mistake": r.mistake,
            }
            for r in found
        ],
    }


# Playing --------------------------------------------------------------------------

_HELP = """\
Type a move, or its number in the 'moves' list:
  R0-F3     the top card of pile R0 onto pile F3
  T2-T5x3   the top 3 cards of T2 onto T5 (a stack move)
  draw      turn the top card of your hand onto your waste
  end       leave the card you drew and end your turn (classic rules)
  pass      the only move when you have no other
Piles: F0-F7 foundations, T0-T7 tableau; R reserve, H hand, W waste with the
player's number: R0 H0 W0 are player 0's, R1 H1 W1 player 1's.
Cards: rank (A, 2-9, T for ten, J, Q, K) and suit: T♥ is the ten of hearts.
Commands:
  moves        list your legal moves        hint       ask the search bot
  undo         take back your last move     board      show the table again
  save FILE    save the game (JSON)         load FILE  continue a saved game
  help         this text                    quit       leave the game"""

_COMMANDS = ("moves", "hint", "undo", "board", "save", "load", "help", "quit")


def _describe(before: GameState, move: Move, after: GameState, names: tuple[str, str]) -> str:
    """What ``move`` did, in words: the cards that moved, the card drawn, why the turn ended.

    ``names`` are the players as a sentence names them (``you``, ``the greedy bot``).
    """
    mover = before.current_player
    ended = after.outcome is None and after.current_player != mover
    if isinstance(move, Draw):
        turned = "" if before.cards(Pile.hand(mover)) else "turned the waste over and "
        text = f"{turned}drew {_card(after.top(Pile.waste(mover)))}"
        return text + (": it fits nowhere, so the turn ends" if ended else "")
    if isinstance(move, EndTurn):
        text = f"left {_card(before.top(Pile.waste(mover)))} on the waste"
    elif isinstance(move, Pass):
        text = "passed (there was no other move)"
    else:
        text = _preview(before, move, names)
    return text + ("; the turn ends" if ended else "")


def _preview(state: GameState, move: Move, names: tuple[str, str]) -> str:
    """What ``move`` would do, said to the player to move, telling nothing that player may not see."""
    if isinstance(move, Play):
        return f"{_card(state.top(move.source))} {_onto(state, move.target, names)}"
    if isinstance(move, MoveStack):
        cards = state.cards(move.source)[-move.count :]
        return f"{' '.join(c.symbol for c in cards)} {_onto(state, move.target, names)}"
    if isinstance(move, Draw):
        if state.cards(Pile.hand(state.current_player)):
            return "turn up the top card of your hand"
        return "turn your waste over and draw"
    if isinstance(move, EndTurn):
        return f"leave {_card(state.top(Pile.waste(state.current_player)))} on your waste and end your turn"
    if isinstance(move, Pass):
        return "you have no other move"
    return str(move)


def _card(card: Card | None) -> str:
    return "-" if card is None else card.symbol


def _onto(state: GameState, target: Pile, names: tuple[str, str]) -> str:
    top = state.top(target)
    if target.kind is PileKind.FOUNDATION:
        return f"onto {top.symbol}" if top else "onto an empty foundation"
    if target.kind is PileKind.TABLEAU:
        return f"onto {top.symbol}" if top else "onto an empty pile"
    owner = target.owner if target.owner is not None else 0
    pile = "reserve" if target.kind is PileKind.RESERVE else "waste"
    return f"onto {_card(top)} on {_possessive(names[owner])} {pile}"


class _Input:
    """The lines typed at the game's prompt.

    From a terminal: with line editing, history and Tab completion (readline,
    where Python has it). Otherwise read from the stream and echoed, so that
    a transcript reads like a session. Lines longer than MAX_LINE are cut there
    (the caller refuses them); the end of the input stays the end.
    """

    def __init__(self, stdin: IO[str], out: IO[str], words: Callable[[], list[str]]) -> None:
        self.stdin = stdin
        self.out = out
        self.ended = False
        self.terminal = stdin is sys.stdin and out is sys.stdout and isatty(stdin) and isatty(out)
        self.echo = not isatty(stdin)
        self._restore: Callable[[], None] | None = None
        if self.terminal:
            self._use_readline(words)

    def _use_readline(self, words: Callable[[], list[str]]) -> None:
        try:
            import readline
        except ImportError:  # Windows, or a Python built without it: plain input()
            return

        def complete(text: str, index: int) -> str | None:
            found = [w for w in words() if w.startswith(text)]
            return found[index] if index < len(found) else None

        old_completer = readline.get_completer()
        old_delims = readline.get_completer_delims()
        readline.set_completer(complete)
        readline.set_completer_delims(" \t\n")
        if "libedit" in (readline.__doc__ or ""):
            readline.parse_and_bind("bind ^I rl_complete")
        else:
            readline.parse_and_bind("tab: complete")

        def restore() -> None:
            readline.set_completer(old_completer)
            readline.set_completer_delims(old_delims)

        self._restore = restore

    def close(self) -> None:
        if self._restore is not None:
            self._restore()
            self._restore = None

    def ask(self, prompt: str) -> str | None:
        """The next line without its line end, or None at the end of the input.

        :raises KeyboardInterrupt: on Ctrl-C.
        """
        if self.ended:
            return None
        if self.terminal:
            try:
                return input(prompt)
            except EOFError:
                self.ended = True
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline(MAX_LINE + 1)
        if not line:
            self.ended = True
            return None
        if len(line) > MAX_LINE and not line.endswith("\n"):
            while True:  # skip the rest of the line, a bounded piece at a time
                rest = self.stdin.readline(MAX_LINE + 1)
                if not rest or rest.endswith("\n"):
                    break
        line = line.rstrip("\r\n")
        if self.echo:
            self.out.write(_visible(line, 80) + "\n")
        return line


class _BotFailed(Exception):
    """The bot raised an exception or chose an illegal move."""


class _Session:
    """An interactive game of a person against a bot."""

    def __init__(self, args: argparse.Namespace, stdin: IO[str], out: IO[str], err: IO[str]) -> None:
        self.out = out
        self.err = err
        self.human: int = args.player
        choice: _BotChoice = args.bot
        self.bot_name = choice.label
        self.bot_subject = self.bot_name if choice.bot is not None else f"the {self.bot_name}"
        self.budget: int = args.budget
        self.colour = _colour_wanted(args.colour, out)
        self.input = _Input(stdin, out, self.words)
        #: The record read by the last load, kept as read while its moves stand.
        self.loaded: GameRecord | None = None
        #: Whether you have moved (or undone a move) since the game was last saved or loaded.
        self.dirty = False
        #: The moves of the game when it was last saved or loaded.
        self.saved: tuple[Move, ...] = ()
        if args.load:
            self.game, self.loaded = self._open(args.load)
            self.saved = self.game.history
        else:
            seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
            self.game = Game(args.rules, seed)
            self.game.players = self.names
        seed = self.game.seed if self.game.seed is not None else 0
        self.bot = _make_bot(choice, seed, self.budget)
        self.hinter = SearchBot(seed=seed, budget=self.budget)

    @property
    def names(self) -> tuple[str, str]:
        """The players as the table shows them."""
        return ("you", self.bot_name) if self.human == 0 else (self.bot_name, "you")

    @property
    def subjects(self) -> tuple[str, str]:
        """The players as a sentence names them."""
        return ("you", self.bot_subject) if self.human == 0 else (self.bot_subject, "you")

    @property
    def unsaved(self) -> bool:
        """True if you have changed the game since it was last saved or loaded (or dealt)."""
        return self.dirty and self.game.history != self.saved

    def words(self) -> list[str]:
        """What Tab completes: the commands, and the notation of the legal moves."""
        moves = [] if self.game.is_over else [str(m) for m in self.game.legal_moves]
        return [*_COMMANDS, *moves]

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    # The record ---------------------------------------------------------------

    def _open(self, path: str) -> tuple[Game, GameRecord]:
        record = _read_record(path)
        try:
            game = Game.from_record(record)
        except ValueError as exc:
            raise _Fail(f"{_shown_path(path)} cannot be replayed: {exc}") from None
        # A result read is the record's while its moves stand (see record()).
        game.result = None
        if game.players is None:
            game.players = self.names
        return game, record

    def record(self) -> GameRecord:
        """The game's record: the one loaded, as read, while its moves are the game's moves."""
        if self.loaded is not None and self.game.history == self.loaded.moves:
            return self.loaded
        return self.game.to_record()

    def save_somewhere(self) -> str:
        """Save the game in a new file; a sentence saying where (or why not)."""
        try:
            path = _write_new(self.record().to_json(indent=2) + "\n")
        except _Fail as exc:
            return str(exc)
        except Exception as exc:  # saving is the last resort: it must not raise in its turn
            return f"the game could not be saved ({_one_line(exc)})"
        self.mark_saved()
        return f"the game is saved in {path} (crapette play --load {shlex.quote(str(path))} goes on with it)"

    # The loop -----------------------------------------------------------------

    def run(self) -> int:
        try:
            return self.loop()
        except BrokenPipeError:  # nobody reads the game any more
            if self.unsaved:
                print(f"crapette play: the output was closed; {self.save_somewhere()}", file=self.err)
            raise
        except KeyboardInterrupt:  # not at the prompt: while the bot thinks
            where = self.save_somewhere() if self.unsaved else "the game had no unsaved moves"
            print(f"\ncrapette play: interrupted; {where}", file=self.err)
            return 130
        except Exception as exc:  # a bot that fails, or a bug: save the game first
            where = self.save_somewhere() if self.game.history else "the game had no moves to save"
            problem = str(exc) if isinstance(exc, _BotFailed) else f"unexpected error: {_one_line(exc)}"
            print(f"crapette play: {problem}; {where}", file=self.err)
            return 1
        finally:
            self.input.close()

    def loop(self) -> int:
        self.intro()
        announced = False
        while True:
            game = self.game
            if game.is_over:
                if not announced:
                    self.finish()
                    announced = True
                prompt = "game over (undo, save FILE, load FILE, quit)> "
            elif game.state.current_player != self.human:
                self.bot_turn()
                continue
            else:
                announced = False
                prompt = "your move> "
            try:
                line = self.input.ask(prompt)
                if line is None:
                    return self.end_of_input()
                if len(line) > MAX_LINE:
                    self.say(f"That line is too long: a move or a command has at most {MAX_LINE} characters.")
                elif not self.command(line.strip()):
                    return 0
            except KeyboardInterrupt:
                self.say("\n(interrupted: type quit to leave)")

    def intro(self) -> None:
        game = self.game
        if self.loaded is not None:
            where = f"a saved game at move {game.state.move_count}"
            if self.loaded.players:
                where += f" between {self.loaded.players[0]} and {self.loaded.players[1]}"
        else:
            where = f"seed {game.seed}"
        self.say(
            f"crapette: {str(game.state.rules)} rules, {where}. You are player {self.human}, "
            f"against {self.bot_subject}. Type 'help' for help."
        )
        self.board()

    def board(self) -> None:
        self.say(
            render_text(self.game.state, colour=self.colour, names=self.names, perspective=self.human)
        )

    def mark_saved(self) -> None:
        self.dirty = False
        self.saved = self.game.history

    def end_of_input(self) -> int:
        if not self.unsaved:
            self.say("\nbye")
            return 0
        self.say(f"\nThe input ended: {self.save_somewhere()}.")
        return 1 if self.unsaved else 0

    def bot_turn(self) -> None:
        game = self.game
        subject = self.bot_subject
        self.say(f"{subject[:1].upper()}{subject[1:]} plays:")
        while not game.is_over and game.state.current_player != self.human:
            before = game.state
            try:
                move = self.bot.choose(before)
                game.push(move)
            except Exception as exc:
                raise _BotFailed(f"{subject} failed at move {before.move_count}: {_one_line(exc)}") from exc
            self.say(f"  {str(move):<8} {_describe(before, move, game.state, self.subjects)}")
        self.board()

    def finish(self) -> None:
        outcome = self.game.outcome
        assert outcome is not None
        if outcome.winner is None:
            verdict = "a draw"
        elif outcome.winner == self.human:
            verdict = "you win"
        else:
            verdict = f"{self.bot_subject} wins"
        why = _ENDINGS.get(outcome.reason.value, outcome.reason.value)
        if outcome.reason.value == "emptied":
            why = f"{'your' if outcome.winner == self.human else 'its'} {why}"
        score = ""
        if outcome.scores is not None:
            yours, theirs = outcome.scores[self.human], outcome.scores[1 - self.human]
            score = f"; score: you {yours}, {self.bot_subject} {theirs}"
        self.say(f"Game over: {verdict} ({why}){score}.")

    # Commands -----------------------------------------------------------------

    def command(self, line: str) -> bool:
        """Handle one line of input; False to leave."""
        if not line:
            self.say("Type a move (e.g. draw), 'moves' for the legal moves, or 'help'.")
            return True
        word, _, rest = line.partition(" ")
        word = word.lower()
        path = _path_argument(rest)
        if word in ("quit", "exit", "q"):
            if self.unsaved and not self.confirm("Leave"):
                return True
            self.say("bye")
            return False
        if word in ("help", "?", "h"):
            self.say(_HELP)
        elif word in ("moves", "m", "ls"):
            self.list_moves()
        elif word == "hint":
            self.hint()
        elif word == "undo":
            self.undo()
        elif word in ("board", "b", "show"):
            self.board()
        elif word == "save":
            self.save(path)
        elif word == "load":
            self.load(path)
        elif self.game.is_over:
            self.say("The game is over: type undo, save FILE, load FILE or quit.")
        else:
            self.move(line)
        return True

    def confirm(self, action: str) -> bool:
        """Ask before ``action`` throws away moves not saved; True to go ahead."""
        try:
            answer = self.input.ask(
                f"You have moved since the game was last saved. {action} anyway? "
                "(y: yes, n: no, save FILE: save first) "
            )
        except KeyboardInterrupt:
            answer = ""
            self.say()
        if answer is None:  # the input ended: the loop saves the game
            return False
        word, _, rest = answer.strip().partition(" ")
        if word.lower() in ("y", "yes"):
            return True
        if word.lower() == "save":
            return self.save(_path_argument(rest))
        self.say("The game goes on.")
        return False

    def list_moves(self) -> None:
        if self.game.is_over:
            self.say("The game is over: there are no moves.")
            return
        state = self.game.state
        # Moves of one card to equivalent piles (any empty foundation, say) share a line.
        rows: list[tuple[list[int], list[Move], str]] = []
        for number, move in enumerate(self.game.legal_moves, 1):
            text = _preview(state, move, self.subjects)
            source = getattr(move, "source", None)
            last = rows[-1][1][-1] if rows else None
            if rows and rows[-1][2] == text and source is not None and getattr(last, "source", None) is source:
                rows[-1][0].append(number)
                rows[-1][1].append(move)
            else:
                rows.append(([number], [move], text))
        lines = []
        for numbers, moves, text in rows:
            shown = str(numbers[0]) if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
            notation = " ".join(str(m) for m in moves) if len(moves) <= 2 else f"{moves[0]} ... {moves[-1]}"
            lines.append((shown, notation, text))
        left = max(len(shown) for shown, _, _ in lines)
        middle = max(8, *(len(notation) for _, notation, _ in lines))
        self.say("Your legal moves (type the move or its number):")
        for shown, notation, text in lines:
            self.say(f"  {shown:>{left}}  {notation:<{middle}}  {text}")

    def hint(self) -> None:
        if self.game.is_over:
            self.say("The game is over: there are no moves.")
            return
        state = self.game.state
        move = self.hinter.choose(state)
        self.say(f"hint: {move} ({_preview(state, move, self.subjects)})")

    def move(self, text: str) -> None:
        moves = self.game.legal_moves
        if text.isascii() and text.isdigit():
            number = int(text) if len(text) <= 6 else 0
            if not 1 <= number <= len(moves):
                self.say(f"There {'is 1 legal move' if len(moves) == 1 else f'are {len(moves)} legal moves'}: "
                         f"type a number from 1 to {len(moves)}, or 'moves' to list them.")
                return
            move = moves[number - 1]
        else:
            try:
                move = parse_move(text)
            except ParseError as exc:
                if "-" in text or " " in text:
                    self.say(f"{exc} (type 'moves' for the legal moves, 'help' for help)")
                else:
                    self.say(f"{brief(text)} is neither a move nor a command: type 'moves' for "
                             "the legal moves, 'help' for the commands")
                return
        before = self.game.state
        try:
            self.game.push(move)
        except IllegalMoveError as exc:
            self.say(f"{_symbols(str(exc))} (type 'moves' for the legal moves)")
            return
        self.dirty = True
        after = self.game.state
        if isinstance(move, (Draw, EndTurn, Pass)):
            self.say(f"You {_describe(before, move, after, self.subjects)}.")
        if self.game.is_over or after.current_player == self.human:
            self.board()

    def undo(self) -> None:
        game = self.game
        states = game.states
        human_moves = [i for i in range(len(game.history)) if states[i].current_player == self.human]
        if not human_moves:
            self.say("Nothing to undo: you have not moved yet.")
            return
        later = len(game.history) - 1 - human_moves[-1]
        while len(game.history) > human_moves[-1]:
            game.undo()
        self.dirty = True
        after = "" if not later else f" and the {later} move{'s' if later > 1 else ''} of {self.bot_subject} after it"
        self.say(f"Took back your last move{after}.")
        self.board()

    def save(self, path: str) -> bool:
        if not path:
            self.say("save needs a file name: save FILE")
            return False
        try:
            _write(path, self.record().to_json(indent=2) + "\n")
        except _Fail as exc:
            self.say(f"{exc}; the game is not saved.")
            return False
        self.mark_saved()
        self.say(f"Saved to {_shown_path(path)}.")
        return True

    def load(self, path: str) -> None:
        if not path:
            self.say("load needs a file name: load FILE")
            return
        if self.unsaved and not self.confirm("Load"):
            return
        try:
            self.game, self.loaded = self._open(path)
        except _Fail as exc:
            self.say(str(exc))
            return
        self.mark_saved()
        self.say(f"Loaded {_shown_path(path)}: move {self.game.state.move_count}.")
        self.board()


_ENDINGS = {
    "emptied": "reserve, hand and waste are empty",
    "stalemate": "stalemate: neither player can make progress",
    "blocked": "neither player can move",
    "move-limit": "the move limit is reached",
}


def _path_argument(text: str) -> str:
    """A file name typed after save or load: quotes around it and a leading ~ understood."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return os.path.expanduser(text) if text.startswith("~") else text
