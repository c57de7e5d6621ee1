"""The ``crapette`` command: play against a bot, run simulations, show positions and replay games.

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
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from ._cards import Card, Colour
from ._engine import legal_moves, new_game
from ._errors import IllegalMoveError, ParseError, brief
from ._game import Game
from ._moves import Move, parse_move
from ._position import parse_position
from ._record import GameRecord, parse_record
from ._rules import RuleSet, TableauSources, parse_rules
from ._state import GameState
from .bots import BOT_NAMES, Bot, GreedyBot, RandomBot, SearchBot
from .simulation import DEFAULT_MAX_MOVES, simulate

__all__ = ["main", "render_text"]

#: What ``crapette simulate`` does with no options (the README's first command).
DEFAULT_RULES = "classic"
DEFAULT_GAMES = 200
DEFAULT_BOTS = "greedy,random"
DEFAULT_BOT_SEED = 1

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
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


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
        status = f"game over: {outcome}"
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
        lines.append(paint(_DIM, f"  T0-T3 are {names[0]}'s piles, T4-T7 {names[1]}'s"))
    for i, pile in enumerate(state.tableau):
        cards = " ".join(paint.card(c) for c in pile) if pile else "-"
        lines.append(f"  T{i} {cards}")
    lines.append(player_line(perspective))
    return "\n".join(lines)


# Arguments ------------------------------------------------------------------------


class _Fail(Exception):
    """A user error: the message is shown without a traceback."""


def _rules_arg(text: str) -> RuleSet:
    try:
        return parse_rules(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {brief(text)}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number of at least 1, got {value}")
    return value


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {brief(text)}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 2**64 - 1, got {value}")
    return value


def _player(text: str) -> int:
    if text not in ("0", "1"):
        raise argparse.ArgumentTypeError(f"a player is 0 or 1, got {brief(text)}")
    return int(text)


def _bot_name(text: str) -> str:
    name = text.strip().lower()
    if name not in BOT_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown bot {brief(text)}: expected one of {', '.join(BOT_NAMES)}"
        )
    return name


def _bot_spec(text: str) -> tuple[str, int | None]:
    """``name`` or ``name:seed``."""
    name, colon, seed = text.partition(":")
    if not colon:
        return (_bot_name(name), None)
    return (_bot_name(name), _seed(seed.strip()))


def _bot_pair(text: str) -> tuple[tuple[str, int | None], tuple[str, int | None]]:
    parts = text.split(",")
    if len(parts) != 2:
        raise argparse.ArgumentTypeError(
            f"expected two bots separated by a comma, e.g. greedy,random; got {brief(text)}"
        )
    return (_bot_spec(parts[0]), _bot_spec(parts[1]))


def _make_bot(name: str, seed: int, budget: int) -> Bot:
    if name == "random":
        return RandomBot(seed=seed)
    if name == "greedy":
        return GreedyBot()
    return SearchBot(seed=seed, budget=budget)


def _parser() -> argparse.ArgumentParser:
    from . import __version__

    parser = argparse.ArgumentParser(
        prog="crapette",
        description="Crapette (Russian Bank): play against a bot, simulate games between bots, "
        "show positions and replay recorded games.",
        epilog="Run 'crapette COMMAND --help' for a command's options. "
        "With no options, 'crapette simulate' plays 200 classic games, greedy bot against random bot.",
    )
    parser.add_argument("--version", action="version", version=f"crapette {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

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
        "type 'help' during the game for the commands.",
    )
    play.add_argument("--rules", type=_rules_arg, default=RuleSet.classic(),
                      help="rules: classic (default), casual, or rules text such as "
                      "'classic(foundation_plays=optional)'")
    play.add_argument("--seed", type=_seed, default=None,
                      help="the deal (default: a new one each time)")
    play.add_argument("--bot", type=_bot_name, default="greedy",
                      help=f"your opponent: {', '.join(BOT_NAMES)} (default: greedy)")
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
                     help=f"rules: classic (default), casual, or rules text")
    sim.add_argument("--games", type=_positive, default=DEFAULT_GAMES,
                     help=f"number of games (default: {DEFAULT_GAMES})")
    sim.add_argument("--bots", type=_bot_pair, default=_bot_pair(DEFAULT_BOTS),
                     help=f"the two bots, comma-separated (default: {DEFAULT_BOTS}); "
                     f"bots: {', '.join(BOT_NAMES)}; NAME:N seeds one bot with N")
    sim.add_argument("--seed", type=_seed, default=0,
                     help="game i is dealt from seed SEED + i // 2 (default: 0)")
    sim.add_argument("--bot-seed", type=_seed, default=DEFAULT_BOT_SEED,
                     help=f"seed of the random and search bots (default: {DEFAULT_BOT_SEED})")
    sim.add_argument("--workers", type=_positive, default=1,
                     help="processes to run the games on (default: 1, this process)")
    sim.add_argument("--max-moves", type=_positive, default=DEFAULT_MAX_MOVES,
                     help=f"move cap of a game (default: {DEFAULT_MAX_MOVES})")
    sim.add_argument("--budget", type=_positive, default=SearchBot.DEFAULT_BUDGET,
                     help=f"playouts per move of a search bot (default: {SearchBot.DEFAULT_BUDGET})")
    sim.add_argument("--json", action="store_true", help="print the report as JSON")
    sim.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                     help="show a progress bar (needs tqdm: pip install 'crapette[cli]'); "
                     "default: when tqdm is installed and stderr is a terminal")

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
    show.add_argument("--moves", action="store_true", help="list the legal moves too")
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
    return parser


# Commands -------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``crapette`` command with ``argv`` (default: the process's arguments).

    Returns the exit status: 0 on success, 1 when the input (a position, a
    record, a file) is wrong, 2 for bad command-line arguments. Errors are
    reported as one line on stderr, never as a traceback.
    """
    parser = _parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:  # --help, --version, or bad arguments (argparse printed why)
        return exc.code if isinstance(exc.code, int) else 0
    out = sys.stdout
    try:
        if args.command is None:
            parser.print_help(out)
            return 0
        if args.command == "play":
            return _play(args, sys.stdin, out)
        if args.command == "simulate":
            return _simulate(args, out)
        if args.command == "show":
            return _show(args, out)
        return _replay(args, sys.stdin, out)
    except _Fail as exc:
        print(f"crapette {args.command}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


def _simulate(args: argparse.Namespace, out: IO[str]) -> int:
    bots = tuple(
        _make_bot(name, args.bot_seed if seed is None else seed, args.budget) for name, seed in args.bots
    )
    progress = args.progress
    if progress is None:
        progress = importlib.util.find_spec("tqdm") is not None and sys.stderr.isatty()
    executor: concurrent.futures.Executor | None = None
    try:
        if args.workers > 1:
            executor = concurrent.futures.ProcessPoolExecutor(max_workers=args.workers)
        report = simulate(
            args.rules,
            bots,
            games=args.games,
            seed=args.seed,
            executor=executor,
            progress=progress,
            max_moves=args.max_moves,
        )
    except ImportError as exc:
        raise _Fail(str(exc)) from None
    except ValueError as exc:
        raise _Fail(str(exc)) from None
    finally:
        if executor is not None:
            executor.shutdown(cancel_futures=True)
    if args.json:
        print(json.dumps(report.to_dict(), indent=2), file=out)
    else:
        print(report.summary(), file=out)
    return 0


def _read_record(path: str) -> GameRecord:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise _Fail(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise _Fail(f"{path} is not a text file (UTF-8)") from None
    try:
        return parse_record(text)
    except ValueError as exc:
        raise _Fail(f"{path} is not a valid game record: {exc}") from None


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
    if args.moves and not state.is_over:
        print("legal moves: " + " ".join(str(m) for m in legal_moves(state)), file=out)
    if args.svg:
        from .svg import render

        _write(args.svg, render(state, perspective=args.perspective, highlight=legal_moves(state)))
        print(f"wrote {args.svg}", file=out)
    return 0


def _write(path: str | Path, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _Fail(f"cannot write {path}: {exc.strerror or exc}") from None


def _replay(args: argparse.Namespace, stdin: IO[str], out: IO[str]) -> int:
    record = _read_record(args.record)
    states: list[GameState] = []
    problem = ""
    try:
        for state in record.states():
            states.append(state)
    except ValueError as exc:
        problem = str(exc)
    moves = record.moves[: len(states) - 1]
    colour = _colour_wanted(args.colour, out)
    names = record.players or ("player 0", "player 1")
    head = f"{str(record.rules)}, " + (
        f"seed {record.seed}" if record.seed is not None else "from a position"
    )
    head += f", {len(record.moves)} moves"
    if record.players:
        head += f", {names[0]} (player 0) against {names[1]} (player 1)"
    if record.result:
        head += f", result {record.result}"
    print(head, file=out)
    if args.step:
        _step(states, moves, names, colour, stdin, out)
    elif args.all:
        print(render_text(states[0], colour=colour, names=names), file=out)
        for i, move in enumerate(moves):
            print(f"\nmove {i + 1}: {names[states[i].current_player]} plays {move}", file=out)
            print(render_text(states[i + 1], colour=colour, names=names), file=out)
    else:
        turn: list[str] = []
        number = 0
        for i, move in enumerate(moves):
            turn.append(str(move))
            if states[i + 1].current_player != states[i].current_player or i == len(moves) - 1:
                number += 1
                print(f"{number:>4}. {names[states[i].current_player]}: {' '.join(turn)}", file=out)
                turn = []
        print(render_text(states[-1], colour=colour, names=names), file=out)
    if args.svg_dir:
        from .svg import render

        folder = Path(args.svg_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise _Fail(f"cannot create {folder}: {exc.strerror or exc}") from None
        for i, state in enumerate(states):
            highlight = (moves[i],) if i < len(moves) else ()
            _write(folder / f"state-{i:05d}.svg", render(state, perspective=args.perspective, highlight=highlight))
        print(f"wrote {len(states)} pictures to {folder}", file=out)
    if args.html:
        from .svg import render_html

        title = f"crapette: {head}"
        _write(args.html, render_html(states, moves, perspective=args.perspective, title=title))
        print(f"wrote {args.html}", file=out)
    if problem:
        raise _Fail(f"the record stops being playable: {problem}")
    return 0


def _step(
    states: list[GameState],
    moves: Sequence[Move],
    names: tuple[str, str],
    colour: bool,
    stdin: IO[str],
    out: IO[str],
) -> None:
    print(render_text(states[0], colour=colour, names=names), file=out)
    for i, move in enumerate(moves):
        out.write(f"[Enter: move {i + 1} of {len(moves)}, q: stop] ")
        out.flush()
        line = stdin.readline()
        if not line or line.strip().lower() in ("q", "quit"):
            print(file=out)
            return
        print(f"move {i + 1}: {names[states[i].current_player]} plays {move}", file=out)
        print(render_text(states[i + 1], colour=colour, names=names), file=out)


# Playing --------------------------------------------------------------------------

_HELP = """\
Type a move in the notation, or its number in the 'moves' list:
  R0-F3     a card from pile R0 onto pile F3
  T2-T5x3   the top 3 cards of T2 onto T5 (a stack move)
  draw      turn the top card of your hand onto your waste
  end       leave the card you drew and end your turn (classic rules)
  pass      the only move when you have no other
Piles: F0-F7 foundations, T0-T7 tableau, R reserve, H hand, W waste;
R0 H0 W0 are player 0's, R1 H1 W1 player 1's.
Commands:
  moves        list your legal moves        hint       ask the search bot
  undo         take back your last move     board      show the table again
  save FILE    save the game record (JSON)  load FILE  continue a saved game
  help         this text                    quit       leave the game"""


class _Session:
    """An interactive game of a person against a bot."""

    def __init__(self, args: argparse.Namespace, stdin: IO[str], out: IO[str]) -> None:
        self.stdin = stdin
        self.out = out
        self.human = args.player
        self.bot_name = args.bot
        self.budget = args.budget
        self.colour = _colour_wanted(args.colour, out)
        if args.load:
            self.game = self._load(args.load)
        else:
            seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
            self.game = Game(args.rules, seed)
        seed = self.game.seed if self.game.seed is not None else 0
        self.bot = _make_bot(self.bot_name, seed, self.budget)
        self.hinter = SearchBot(seed=seed, budget=self.budget)
        self.game.players = self.names

    @property
    def names(self) -> tuple[str, str]:
        bot = f"{self.bot_name} bot"
        return ("you", bot) if self.human == 0 else (bot, "you")

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def _load(self, path: str) -> Game:
        record = _read_record(path)
        try:
            return Game.from_record(record)
        except ValueError as exc:
            raise _Fail(f"{path} cannot be replayed: {exc}") from None

    def board(self) -> None:
        self.say(
            render_text(self.game.state, colour=self.colour, names=self.names, perspective=self.human)
        )

    def run(self) -> int:
        game = self.game
        where = f"seed {game.seed}" if game.seed is not None else "a saved position"
        self.say(
            f"crapette: {str(game.state.rules)} rules, {where}. You are player {self.human}, "
            f"against the {self.bot_name} bot. Type 'help' for help."
        )
        self.board()
        announced = False
        while True:
            game = self.game
            if game.is_over:
                if not announced:
                    self.finish()
                    announced = True
                prompt = "game over (undo, save FILE, quit)> "
            elif game.state.current_player != self.human:
                self.bot_turn()
                continue
            else:
                announced = False
                prompt = "your move> "
            self.out.write(prompt)
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\nbye")
                return 0
            if not self.command(line.strip()):
                return 0

    def bot_turn(self) -> None:
        game = self.game
        played = []
        while not game.is_over and game.state.current_player != self.human:
            move = self.bot.choose(game.state)
            game.push(move)
            played.append(str(move))
        self.say(f"{self.bot_name} bot plays: {' '.join(played)}")
        self.board()

    def finish(self) -> None:
        outcome = self.game.outcome
        assert outcome is not None
        if outcome.winner is None:
            verdict = "a draw"
        elif outcome.winner == self.human:
            verdict = "you win"
        else:
            verdict = f"the {self.bot_name} bot wins"
        self.say(f"game over: {verdict} ({outcome.reason.value})"
                 + ("" if outcome.scores is None else f", score {outcome.scores[0]}-{outcome.scores[1]}"))

    def command(self, line: str) -> bool:
        """Handle one line of input; False to leave."""
        if not line:
            self.say("Type a move (e.g. draw), 'moves' for the legal moves, or 'help'.")
            return True
        word, _, rest = line.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word in ("quit", "exit", "q"):
            self.say("bye")
            return False
        if word in ("help", "?", "h"):
            self.say(_HELP)
        elif word in ("moves", "m", "ls"):
            self.list_moves()
        elif word == "hint":
            self.say(f"hint: {self.hinter.choose(self.game.state)}")
        elif word == "undo":
            self.undo()
        elif word in ("board", "b", "show"):
            self.board()
        elif word == "save":
            self.save(rest)
        elif word == "load":
            self.load(rest)
        elif self.game.is_over:
            self.say("the game is over: type undo, save FILE or quit")
        else:
            self.move(line)
        return True

    def list_moves(self) -> None:
        moves = self.game.legal_moves
        self.say("legal moves: " + "  ".join(f"{i}:{m}" for i, m in enumerate(moves, 1)))

    def move(self, text: str) -> None:
        moves = self.game.legal_moves
        if text.isdigit():
            number = int(text)
            if not 1 <= number <= len(moves):
                self.say(f"there are {len(moves)} legal moves: type a number from 1 to {len(moves)}, "
                         "or 'moves' to list them")
                return
            move = moves[number - 1]
        else:
            try:
                move = parse_move(text)
            except ParseError as exc:
                self.say(f"{exc} (type 'moves' for the legal moves, 'help' for help)")
                return
        try:
            self.game.push(move)
        except IllegalMoveError as exc:
            self.say(f"{exc} (type 'moves' for the legal moves)")
            return
        if not self.game.is_over and self.game.state.current_player == self.human:
            self.board()

    def undo(self) -> None:
        game = self.game
        states = game.states
        human_moves = [i for i in range(len(game.history)) if states[i].current_player == self.human]
        if not human_moves:
            self.say("nothing to undo: you have not moved yet")
            return
        while len(game.history) > human_moves[-1]:
            game.undo()
        self.say(f"took back {len(states) - 1 - human_moves[-1]} move(s)")
        self.board()

    def save(self, path: str) -> None:
        if not path:
            self.say("save needs a file name: save FILE")
            return
        try:
            _write(path, self.game.to_record().to_json(indent=2) + "\n")
        except _Fail as exc:
            self.say(str(exc))
            return
        self.say(f"saved to {path}")

    def load(self, path: str) -> None:
        if not path:
            self.say("load needs a file name: load FILE")
            return
        try:
            game = self._load(path)
        except _Fail as exc:
            self.say(str(exc))
            return
        self.game = game
        self.game.players = self.names
        self.say(f"loaded {path}: move {game.state.move_count}")
        self.board()


def _play(args: argparse.Namespace, stdin: IO[str], out: IO[str]) -> int:
    return _Session(args, stdin, out).run()
