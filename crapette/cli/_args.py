"""The ``crapette`` command's arguments: the parser, the checks of each argument, and the bots named on the command line."""

from __future__ import annotations

import argparse
import importlib
import math
import os
import re
import sys
from typing import NamedTuple, NoReturn, cast

from .. import GameState, Move, RuleSet, parse_rules
from .._core.messages import brief
from ..analysis import JUDGES, MISTAKE, MISTAKE_CHANCE
from ..bots import BOT_NAMES, LEVELS, MAX_PLAYOUTS, Bot, PlanningBot, make_bot
from ..simulation import DEFAULT_MAX_MOVES
from ._common import (
    ANALYSIS_LEVEL,
    DEFAULT_BOT_SEED,
    DEFAULT_BOTS,
    DEFAULT_GAMES,
    DEFAULT_RULES,
    one_line,
    visible,
)

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


def _playouts(text: str) -> int:
    """A number of playouts: from 1 to MAX_PLAYOUTS (more would think for hours)."""
    value = _positive(text)
    if value > MAX_PLAYOUTS:
        raise argparse.ArgumentTypeError(f"at most {MAX_PLAYOUTS:,} playouts, got {brief(text)}")
    return value


def _seed(text: str) -> int:
    value = _number(text)
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 2**64 - 1, got {value}")
    return value


def _loss(text: str) -> float:
    """A loss that makes a mistake: a number from 0 to 1e6, or a percentage (``4%`` is 0.04)."""
    body = text.strip()
    scale = 100.0 if body.endswith("%") else 1.0
    try:
        value = float(body[:-1] if scale != 1.0 else body) / scale
    except ValueError:
        value = math.nan
    if not 0 <= value <= 1e6:
        raise argparse.ArgumentTypeError(
            f"expected a share of winning chances (0.04 or 4%) or a number of cards from 0 to 1e6, got {visible(text)}"
        )
    return value


def _player(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"a player is 0 or 1, got {brief(text)}")
    return int(text)


class BotChoice(NamedTuple):
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


def _bot_spec(text: str) -> BotChoice:
    """A built-in bot: a name of BOT_NAMES, then ``:N`` for a seed (digits only); or ``module:Class``."""
    spec = text.strip()
    head, colon, tail = (part.strip() for part in spec.rpartition(":"))
    if spec.split(":")[0].strip().lower() in {name.split(":")[0] for name in BOT_NAMES}:
        if spec.lower() in BOT_NAMES:
            return BotChoice(spec.lower())
        if head.lower() in BOT_NAMES and tail.isascii() and tail.isdigit():
            return BotChoice(head.lower(), _seed(tail))
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
    return BotChoice(spec, None, _load_bot(spec))


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
        raise argparse.ArgumentTypeError(f"importing {brief(module_name)} failed: {one_line(exc)}") from None
    except (Exception, SystemExit) as exc:
        raise argparse.ArgumentTypeError(f"importing {brief(module_name)} failed: {one_line(exc)}") from None
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
                f"cannot make the bot {shown}: {attribute}() failed: {one_line(exc)}"
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


def _bot_pair(text: str) -> tuple[BotChoice, BotChoice]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(
            f"expected two bots separated by a comma, e.g. greedy,random; got {brief(text)}"
        )
    return (_bot_spec(parts[0]), _bot_spec(parts[1]))


def bot_of(choice: BotChoice, seed: int, budget: int) -> Bot:
    """The bot chosen: a user's as made, a built-in one seeded with its own seed, else ``seed``."""
    if choice.bot is not None:
        return choice.bot
    if choice.seed is not None:
        seed = choice.seed
    if choice.name == "search":
        return PlanningBot(seed=seed, playouts=budget)
    return make_bot(choice.name, seed)


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line, pointing to --help."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {visible(message, 1000)} (see {self.prog} --help)\n")


def make_parser() -> argparse.ArgumentParser:
    from .. import __version__

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
                      help="the deal (default: a new one each time, whose seed is shown once the game is over)")
    play.add_argument("--bot", type=_bot_spec, default=BotChoice("greedy"),
                      help=f"your opponent: {bots} (default: greedy), seeded with the deal's seed; "
                      "NAME:N seeds it with N; module:Class plays a bot of your own")
    play.add_argument("--player", type=_player, default=0, help="the seat you take: 0 (default) or 1")
    play.add_argument("--load", metavar="FILE", help="continue a saved game record")
    play.add_argument("--budget", type=_playouts, default=LEVELS["normal"],
                      help=f"playouts per plan of the search bot (default: {LEVELS['normal']}; "
                      f"at most {MAX_PLAYOUTS:,})")
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
    sim.add_argument("--budget", type=_playouts, default=LEVELS["normal"],
                     help=f"playouts per plan of a search bot (default: {LEVELS['normal']}; at most {MAX_PLAYOUTS:,})")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                     help="show progress on stderr (default): a bar on a terminal (tqdm's with "
                     "pip install tqdm), else a line each tenth of the games or 10 seconds")

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
        description="Replay a game record turn segment by turn segment (the moves up to one that "
        "reveals a card or ends the turn) and, where the player had a choice, judge the path the player "
        "took and every other way to end the segment by the learned value (the chance to win where the "
        "path leaves the game, over the same deals of the cards that player could not see); mark each "
        "segment whose path lost more than --threshold of winning chances against the best, when the 95% "
        "interval of the loss lies above 0, with the better path and the loss. --judge playout judges in "
        "cards instead, with the turn planner's playouts. Prints the marks and a summary per player; "
        "--html writes a replay page that shows them. The same options always give the same marks.",
    )
    analyse.add_argument("record", help="a game record file (JSON, or the text form)")
    analyse.add_argument("--judge", choices=JUDGES, default="value",
                         help="judge by the learned value (value, the default) or by the planner's playouts in "
                         "cards (playout)")
    analyse.add_argument("--level", choices=tuple(LEVELS), default=ANALYSIS_LEVEL,
                         help=f"the budget (default: {ANALYSIS_LEVEL}, "
                         + ", ".join(f"{name} {n}" for name, n in LEVELS.items())
                         + " values, or playouts, a segment)")
    analyse.add_argument("--playouts", type=_playouts, default=None,
                         help=f"values, or playouts, per turn segment, instead of a level (at most {MAX_PLAYOUTS:,})")
    analyse.add_argument("--threshold", type=_loss, default=None,
                         help=f"the loss that makes a mistake: a share of winning chances for --judge value "
                         f"(default: {MISTAKE_CHANCE * 100:g}%%; 0.04 or 4%%), cards for --judge playout (default: "
                         f"{MISTAKE:g}, against a path that wins as often)")
    analyse.add_argument("--player", type=_player, default=None,
                         help="analyse only this player's moves (0 or 1; default: both)")
    analyse.add_argument("--all", action="store_true",
                         help="print every segment analysed with its chance to win (or cards), not only the mistakes")
    analyse.add_argument("--seed", type=_seed, default=0, help="the analysis's seed (default: 0)")
    analyse.add_argument("--json", action="store_true", help="print the marks as JSON")
    analyse.add_argument("--html", metavar="FILE",
                         help="write an HTML page that steps through the game with the marks")
    analyse.add_argument("--perspective", type=_player, default=0,
                         help="the player at the bottom of the page's pictures (default: 0)")
    analyse.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                         help="show how far the analysis has got on stderr (default: shown; "
                         "not on a terminal, a line each tenth of the moves)")
    return parser
