"""A terminal front end for any game of :mod:`crapette.protocol`: ``play``, ``simulate``, ``help``.

A game gives a :class:`Frontend` (how it draws a position, its rules in
short, its defaults) and :func:`main` runs its command line: ``play``
against the library's bots, ``simulate`` (random against search through
:func:`crapette.simulation.simulate`, with progress on stderr), the game's
own :class:`Command` s, and ``help``. The example games of
``examples/games/`` use it.

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from .bots import RandomBot, SearchBot
from .errors import IllegalMoveError
from .protocol import DEFAULT_MAX_MOVES
from .simulation import simulate

__all__ = ["Command", "Frontend", "default_bot", "main", "parser", "play", "positive_int", "seed_int", "simulation"]

# The terminal front end ----------------------------------------------------------------------

_HELP = """\
Type a move in the notation shown by 'moves', or one of:
  moves   list your legal moves
  hint    ask the bot which move it would play
  auto    let the bot play this move for you
  help    show this help (and the rules in short)
  quit    leave the game"""


class Command:
    """A command of a game's own beside ``play`` and ``simulate``: its help, its options, what it does."""

    def __init__(
        self,
        help: str,
        options: Callable[[argparse.ArgumentParser], None],
        run: Callable[[argparse.Namespace, IO[str]], int],
    ) -> None:
        self.help = help
        self.options = options
        self.run = run


class Frontend:
    """How one game shows itself in the terminal.

    ``render(state, player)`` draws what ``player`` sees; ``rules`` is the
    short reminder that ``help`` prints; ``bot(game, kind, seed, budget)``
    builds a bot of a kind in ``bots`` (by default the library's random and
    search bots; the last kind is the default of ``play --bot``, which also
    answers ``hint`` and ``auto``); ``game_for(players)`` the game for that
    many players, one of ``players`` (the first is the default); ``budget``
    and ``games`` the defaults of ``--budget`` and ``simulate --games``
    (for a game of one player, a number per kind of bot: the search bot is
    slow); ``commands`` the game's own commands.
    """

    def __init__(
        self,
        game: Any,
        *,
        render: Callable[[Any, int], str],
        rules: str,
        description: str,
        budget: int,
        games: int | Mapping[str, int],
        bot: Callable[[Any, str, int, int], Any] | None = None,
        bots: Sequence[str] = ("random", "search"),
        game_for: Callable[[int], Any] | None = None,
        players: Sequence[int] | None = None,
        commands: Mapping[str, Command] | None = None,
    ) -> None:
        self.game = game
        self.render = render
        self.rules = rules
        self.description = description
        self.budget = budget
        self.games = games if isinstance(games, int) else dict(games)
        self.make_bot = bot or default_bot
        self.bots = tuple(bots)
        self.game_for = game_for or (lambda players: game)
        self.players = tuple(players or (game.num_players,))
        self.commands = dict(commands or {})


def default_bot(game: Any, kind: str, seed: int, budget: int) -> Any:
    """The library's bot ``kind`` (``random`` or ``search``) for ``game``."""
    if kind == "random":
        return RandomBot(seed=seed, game=game)
    return SearchBot(seed=seed, budget=budget, game=game)


def _say(out: IO[str], text: str = "") -> None:
    print(text, file=out, flush=True)


#: The longest line read from piped input at the prompt (the rest of a longer one is read as more lines).
_MAX_LINE = 4096


def _reader(ask: Callable[[str], str], out: IO[str]) -> Callable[[str], str]:
    """``ask``; but :func:`input` on piped input reads the line and echoes it, so a transcript reads like a session."""
    stdin = sys.stdin
    if ask is not input or stdin is None or stdin.isatty():
        return ask

    def read(prompt: str) -> str:
        out.write(prompt)
        out.flush()
        line = stdin.readline(_MAX_LINE)
        if not line:
            raise EOFError
        line = line.rstrip("\r\n")
        _say(out, line)
        return line

    return read


def play(
    frontend: Frontend,
    *,
    seed: int,
    seat: int,
    bot: str,
    budget: int,
    players: int,
    ask: Callable[[str], str] = input,
    out: IO[str] = sys.stdout,
) -> int:
    """Play one game in the terminal: the human at ``seat``, bots of kind ``bot`` elsewhere.

    ``ask(prompt)`` reads the human's lines; with ``input()`` (the default)
    on piped input, each line read is echoed after the prompt.
    """
    ask = _reader(ask, out)
    game = frontend.game_for(players)
    state = game.new_game(seed)
    bots = {p: frontend.make_bot(game, bot, seed + p + 1, budget) for p in range(game.num_players) if p != seat}
    helper = frontend.make_bot(game, bot, seed, budget)  # behind hint and auto
    if game.num_players == 2:
        _say(out, f"{game.name}, deal {seed}: you are player {seat}; the other is a {bot} bot. Type 'help' for help.")
    elif game.num_players > 2:
        _say(out, f"{game.name}, deal {seed}: you are player {seat}; the others are {bot} bots. Type 'help' for help.")
    else:
        _say(out, f"{game.name}, deal {seed}: a game for one. Type 'help' for help.")
    shown: object = None
    while not state.is_over:
        player = state.current_player
        if player != seat:
            move = bots[player].choose(state)
            _say(out, f"player {player} plays {move}")
            state = game.apply_move(state, move)
            continue
        if shown is not state:
            _say(out)
            _say(out, frontend.render(state, seat))
            shown = state
        try:
            line = ask("your move> ").strip()
        except (EOFError, KeyboardInterrupt):
            _say(out)
            _say(out, "bye: the game is left unfinished")
            return 0
        command = line.lower()
        if not command:
            continue
        if command in ("quit", "exit", "q"):
            _say(out, "bye: the game is left unfinished")
            return 0
        if command in ("help", "h", "?"):
            _say(out, _HELP)
            _say(out)
            _say(out, frontend.rules)
            continue
        if command in ("moves", "m"):
            _say(out, "your moves: " + "  ".join(str(m) for m in game.legal_moves(state)))
            continue
        if command in ("hint", "auto"):
            suggestion = helper.choose(state)
            if command == "hint":
                _say(out, f"hint: {suggestion}")
                continue
            _say(out, f"you play {suggestion}")
            state = game.apply_move(state, suggestion)
            continue
        try:
            move = game.parse_move(line)
        except ValueError as exc:
            _say(out, f"{exc}. Type 'moves' for your moves, 'help' for help.")
            continue
        try:
            state = game.apply_move(state, move)
        except IllegalMoveError as exc:
            _say(out, f"{exc}. Type 'moves' for your moves.")
    _say(out)
    _say(out, frontend.render(state, seat))
    outcome = state.outcome
    verdict = ""
    if game.num_players > 1 and outcome.winner is not None:
        verdict = " - you win!" if outcome.winner == seat else " - you lose."
    _say(out, f"game over: {outcome}{verdict}")
    return 0


def simulation(
    frontend: Frontend,
    *,
    games: int | None,
    seed: int,
    budget: int,
    players: int,
    max_moves: int,
    out: IO[str] = sys.stdout,
    progress: bool = True,
) -> int:
    """Random against search through :func:`crapette.simulation.simulate`, and print the report.

    A game for one player is played by each kind of bot in turn, one report each.
    ``games=None`` plays the frontend's default number of games. ``progress``
    shows how far the games have got on stderr (see :func:`~crapette.simulation.simulate`).
    """
    game = frontend.game_for(players)
    defaults = frontend.games

    def count(kind: str) -> int:
        if games is not None:
            return games
        return defaults if isinstance(defaults, int) else defaults[kind]

    if game.num_players == 1:
        runs = [([frontend.make_bot(game, kind, seed, budget)], count(kind)) for kind in frontend.bots]
    else:
        # The random bot against search bots in every other seat (seats rotate every game).
        roster = [frontend.make_bot(game, "random", seed + 1, budget)]
        roster += [frontend.make_bot(game, "search", seed + 1 + p, budget) for p in range(1, game.num_players)]
        runs = [(roster, count("search"))]
    for roster, number in runs:
        start = time.perf_counter()
        report = simulate(game, roster, games=number, seed=seed, max_moves=max_moves, progress=progress)
        _say(out, report.summary())
        _say(out, f"({time.perf_counter() - start:.1f} s)")
        _say(out)
    return 0


def seed_int(text: str) -> int:
    """An argparse type: a deal's seed, from 0 to 2**64 - 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is an int from 0 to 2**64 - 1, got {text!r}") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"a seed is an int from 0 to 2**64 - 1, got {text}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: an int from 1 up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive int, got {value}")
    return value


def parser(frontend: Frontend) -> argparse.ArgumentParser:
    """The command line of a game: ``play``, ``simulate``, the game's own commands, ``help``."""
    names = ["play", "simulate", *frontend.commands, "help"]
    top = argparse.ArgumentParser(prog=f"{frontend.game.name}.py", description=frontend.description)
    commands = top.add_subparsers(dest="command", metavar="{" + ",".join(names) + "}")
    budget, games, players = frontend.budget, frontend.games, frontend.players
    play_ = commands.add_parser("play", help="play a game in the terminal")
    role = "the bot behind hint and auto" if max(players) == 1 else "the other players, also behind hint and auto"
    play_.add_argument(
        "--bot", choices=frontend.bots, default=frontend.bots[-1], help=f"{role} (default {frontend.bots[-1]})"
    )
    play_.add_argument("--seed", type=seed_int, default=None, help="the deal (default: a new one each time)")
    play_.add_argument("--budget", type=positive_int, default=budget,
                       help=f"playouts per search decision (default {budget})")
    if max(players) > 1:
        play_.add_argument("--seat", type=int, default=0, help="the player you are, from 0 (default 0)")
    sim = commands.add_parser(
        "simulate",
        help="the random bot against the search bot" if max(players) > 1 else "each bot alone on the same deals",
    )
    shown = games if isinstance(games, int) else ", ".join(f"{n} for {kind}" for kind, n in games.items())
    sim.add_argument("--games", type=positive_int, default=None, help=f"games to play (default {shown})")
    sim.add_argument("--seed", type=seed_int, default=0, help="the first deal (default 0)")
    sim.add_argument("--budget", type=positive_int, default=budget,
                     help=f"playouts per search decision (default {budget})")
    sim.add_argument("--max-moves", type=positive_int, default=DEFAULT_MAX_MOVES,
                     help=f"the cap on a game's length (default {DEFAULT_MAX_MOVES})")
    if len(players) > 1:
        for sub in (play_, sim):
            sub.add_argument("--players", type=int, choices=players, default=players[0],
                             help=f"the number of players (default {players[0]})")
    for name, command in frontend.commands.items():
        command.options(commands.add_parser(name, help=command.help))
    commands.add_parser("help", help="show this help")
    return top


def main(
    frontend: Frontend,
    argv: Sequence[str] | None = None,
    *,
    ask: Callable[[str], str] = input,
    out: IO[str] = sys.stdout,
) -> int:
    """Run a game's command line (``argv``, by default ``sys.argv[1:]``); return the exit status."""
    top = parser(frontend)
    args = top.parse_args(list(sys.argv[1:] if argv is None else argv))
    if args.command in (None, "help"):
        top.print_help(out)
        return 0
    if args.command in frontend.commands:
        return frontend.commands[args.command].run(args, out)
    players = getattr(args, "players", frontend.players[0])
    if args.command == "simulate":
        return simulation(frontend, games=args.games, seed=args.seed, budget=args.budget, players=players,
                          max_moves=args.max_moves, out=out)
    seat = getattr(args, "seat", 0)
    if not 0 <= seat < players:
        top.error(f"--seat must be from 0 to {players - 1}")
    seed = args.seed if args.seed is not None else time.time_ns() % 2**32
    return play(frontend, seed=seed, seat=seat, bot=args.bot, budget=args.budget, players=players,
                ask=ask, out=out)
