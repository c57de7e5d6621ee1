"""What the example games share: one 52-card deck in crapette's cards, and the terminal front end.

The games of this directory (``durak.py``, ``archeologitaire.py``, ``bank.py``)
import this module as ``gamekit``: running one of them as a script puts this
directory on ``sys.path``; to import them from elsewhere, put it there first.

**Cards.** Each game plays with one deck (52 cards, or Durak's 36). The cards
are crapette's own :class:`crapette.Card` values from deck 0 (the first 52 of
:data:`crapette.ALL_CARDS`): interned, with their rank, suit and colour, and
dealt by crapette's version-stable shuffle (:func:`crapette.shuffled_deck`),
so a seed deals the same game in every release. A single deck needs no deck
digit, so the games write a card as its rank and suit only: ``QS``, ``TD``
(``10D`` is read too), or with a suit symbol, ``Q♠``.

**The terminal.** :func:`main` gives each game the same commands:
``play`` (against the library's bots), ``simulate`` (random against search
through :func:`crapette.simulation.simulate`) and ``help``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from crapette import ALL_CARDS, Card, IllegalMoveError, ParseError, parse_card, shuffled_deck
from crapette.bots import RandomBot, SearchBot
from crapette.simulation import DEFAULT_MAX_MOVES, simulate

__all__ = [
    "DECK",
    "Command",
    "Frontend",
    "MoveText",
    "card_text",
    "default_bot",
    "main",
    "parse_one_deck_card",
    "positive_int",
    "seed_int",
    "shuffled",
    "sorted_cards",
]

#: One 52-card deck, in crapette's order: clubs, diamonds, hearts, spades; Ace to King in each.
DECK: tuple[Card, ...] = ALL_CARDS[:52]


class MoveText:
    """A move whose repr is the call that reads its notation back, ``parse_move('...')``.

    A game's move classes derive from it and write their notation with ``__str__``.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return f"parse_move({str(self)!r})"


def card_text(card: Card) -> str:
    """The card's notation without crapette's deck digit: ``QS``, ``TD``, ``AH``."""
    return str(card)[:-1]


def parse_one_deck_card(text: str) -> Card:
    """The card written ``text`` (``QS``, ``10d``, ``q♠``), from deck 0.

    :raises ParseError: if the text is not a card.
    """
    if not isinstance(text, str):
        raise TypeError(f"a card must be written as a str, got {type(text).__name__}")
    raw = text.strip()
    if not 2 <= len(raw) <= 3:
        raise ParseError(f"invalid card {text[:20]!r}: expected a rank and a suit, e.g. 'QS' or '10D'")
    try:
        return parse_card(raw + "0")
    except ParseError:
        raise ParseError(
            f"invalid card {text[:20]!r}: expected a rank (A, 2-9, T or 10, J, Q, K) and a suit "
            f"(C, D, H, S), e.g. 'QS' or '10D'"
        ) from None


def shuffled(seed: int) -> tuple[Card, ...]:
    """The 52 cards as game ``seed`` shuffles them (:func:`crapette.shuffled_deck`), first dealt first.

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed!r}")
    return shuffled_deck(seed, 0)


def sorted_cards(cards: Sequence[Card] | set[Card] | frozenset[Card]) -> tuple[Card, ...]:
    """The cards in deck order (suit, then rank): the canonical order of a hand."""
    return tuple(sorted(cards, key=_index))


def _index(card: Card) -> int:
    return card.index


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
    """Play one game in the terminal: the human at ``seat``, bots of kind ``bot`` elsewhere."""
    game = frontend.game_for(players)
    state = game.new_game(seed)
    bots = {p: frontend.make_bot(game, bot, seed + p + 1, budget) for p in range(game.num_players) if p != seat}
    helper = frontend.make_bot(game, bot, seed, budget)  # behind hint and auto
    if game.num_players > 1:
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
) -> int:
    """Random against search through :func:`crapette.simulation.simulate`, and print the report.

    A game for one player is played by each kind of bot in turn, one report each.
    ``games=None`` plays the frontend's default number of games.
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
        report = simulate(game, roster, games=number, seed=seed, max_moves=max_moves)
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
