"""``crapette play``: a game of a person against a bot in the terminal."""

from __future__ import annotations

import argparse
import os
import shlex
import sys
from collections.abc import Callable
from typing import IO, NamedTuple

from .. import (
    Draw,
    EndTurn,
    Game,
    GameRecord,
    GameState,
    IllegalMoveError,
    Move,
    ParseError,
    Pass,
    apply_move,
    parse_move,
    view,
)
from .._core.messages import brief
from .._play.progress import isatty
from ..bots import PlanningBot
from ..text import render_text
from ..wording import (
    describe_end,
    describe_illegal,
    describe_move,
    describe_played,
    group_moves,
)
from ._args import BotChoice, bot_of
from ._common import MAX_LINE, Fail, colour_wanted, one_line, visible
from ._files import read_record, shown_path, write_file, write_new

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
  moves        list your legal moves        hint       plan your turn
  undo         take back your last move     board      show the table again
  save FILE    save the game (JSON)         load FILE  continue a saved game
  help         this text                    quit       leave the game"""

_COMMANDS = ("moves", "hint", "undo", "board", "save", "load", "help", "quit")


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
            self.out.write(visible(line, 80) + "\n")
        return line


class _BotFailed(Exception):
    """The bot raised an exception or chose an illegal move."""


class Session:
    """An interactive game of a person against a bot."""

    def __init__(self, args: argparse.Namespace, stdin: IO[str], out: IO[str], err: IO[str]) -> None:
        self.out = out
        self.err = err
        self.human: int = args.player
        choice: BotChoice = args.bot
        self.bot_name = choice.label
        self.bot_subject = self.bot_name if choice.bot is not None else f"the {self.bot_name}"
        self.budget: int = args.budget
        self.colour = colour_wanted(args.colour, out)
        self.input = _Input(stdin, out, self.words)
        #: The record read by the last load, kept as read while its moves stand.
        self.loaded: GameRecord | None = None
        #: Whether you have moved (or undone a move) since the game was last saved or loaded.
        self.dirty = False
        #: The moves of the game when it was last saved or loaded.
        self.saved: tuple[Move, ...] = ()
        #: The games this session left for another (see :meth:`rewinds`).
        self.left: list[_Line] = []
        #: Whether the seed was given on the command line (else it is shown only once the game is over).
        self.seed_given = args.seed is not None
        if args.load:
            self.game, self.loaded = self._open(args.load)
            self.saved = self.game.history
        else:
            # 64 bits: too many deals to find the one in play by trying them against the cards in sight.
            seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(8), "little")
            self.game = Game(args.rules, seed)
            self.game.players = self.names
        seed = self.game.seed if self.game.seed is not None else 0
        self.bot = bot_of(choice, seed, self.budget)
        self.hinter = PlanningBot(seed=seed)

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
        record = read_record(path)
        try:
            # The undo policy of every game here: a move that turned a card face up stays made.
            game = Game.from_record(record)
        except ValueError as exc:
            raise Fail(f"{shown_path(path)} cannot be replayed: {exc}") from None
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
            path = write_new(self.record().to_json(indent=2) + "\n")
        except Fail as exc:
            return str(exc)
        except Exception as exc:  # saving is the last resort: it must not raise in its turn
            return f"the game could not be saved ({one_line(exc)})"
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
            problem = str(exc) if isinstance(exc, _BotFailed) else f"unexpected error: {one_line(exc)}"
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
        elif self.seed_given:
            where = f"seed {game.seed}"
        else:
            where = "a new deal"  # its seed is the whole deal: shown once the game is over
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
                raise _BotFailed(f"{subject} failed at move {before.move_count}: {one_line(exc)}") from exc
            self.say(f"  {str(move):<8} {describe_played(before, move, game.state, names=self.subjects)}")
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
        why = describe_end(outcome, names=self.subjects)
        score = ""
        if outcome.scores is not None:
            yours, theirs = outcome.scores[self.human], outcome.scores[1 - self.human]
            score = f"; score: you {yours}, {self.bot_subject} {theirs}"
        seed = self.game.seed
        deal = "" if seed is None or self.seed_given else f" The deal was seed {seed}."
        self.say(f"Game over: {verdict} ({why}){score}.{deal}")

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
        """Ask before ``action`` throws away moves not saved; True to go ahead.

        Only y, n or save FILE answer; anything else asks again (Ctrl-C is a no).
        """
        question = f"You have moved since the game was last saved. {action} anyway? (y: yes, n: no, save FILE: save first) "
        while True:
            try:
                answer = self.input.ask(question)
            except KeyboardInterrupt:
                answer = "n"
                self.say()
            if answer is None:  # the input ended: the loop saves the game
                return False
            word, _, rest = answer.strip().partition(" ")
            if word.lower() in ("y", "yes"):
                return True
            if word.lower() == "save":
                return self.save(_path_argument(rest))
            if word.lower() in ("n", "no"):
                self.say("The game goes on.")
                return False
            given = answer.strip()
            self.say(f"{brief(given, 40)} is not an answer: type y, n or save FILE." if given else "Type y, n or save FILE.")

    def list_moves(self) -> None:
        if self.game.is_over:
            self.say("The game is over: there are no moves.")
            return
        # Moves of one card to piles the words do not tell apart (any empty foundation, say) share a line.
        groups = group_moves(self.game.state, self.game.legal_moves, names=self.subjects)
        lines = [(group.numbers, group.notation, group.text) for group in groups]
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
        # From the view alone: following hints never leads back to a position of this turn.
        moves = self.hinter.hint(view(state))
        if len(moves) == 1:
            self.say(f"hint: {moves[0]} ({describe_move(state, moves[0], names=self.subjects)})")
            return
        # The plan to the end of the turn segment: no move but the last reveals a card.
        self.say(f"hint: {' '.join(str(move) for move in moves)}")
        for move in moves:
            self.say(f"  {str(move):<8} {describe_move(state, move, names=self.subjects)}")
            if move is not moves[-1]:
                state = apply_move(state, move)

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
            self.say(f"{describe_illegal(exc)} (type 'moves' for the legal moves)")
            return
        self.dirty = True
        after = self.game.state
        if isinstance(move, (Draw, EndTurn, Pass)):
            self.say(f"You {describe_played(before, move, after, names=self.subjects)}.")
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
        if len(game.history) - human_moves[-1] > game.undoable:
            self.say(
                "You cannot take back your last move: a card has been turned face up since "
                "(a draw or an uncovered reserve card), and taking it back would show it again."
            )
            return
        taken = game.history[human_moves[-1]]
        what = describe_move(states[human_moves[-1]], taken, names=self.subjects)
        while len(game.history) > human_moves[-1]:
            game.undo()
        self.dirty = True
        after = "" if not later else f" and the {later} move{'s' if later > 1 else ''} of {self.bot_subject} after it"
        self.say(f"Took back your last move, {taken} ({what}){after}.")
        self.board()

    def save(self, path: str) -> bool:
        if not path:
            self.say("save needs a file name: save FILE")
            return False
        try:
            write_file(path, self.record().to_json(indent=2) + "\n")
        except Fail as exc:
            self.say(f"{exc}; the game is not saved.")
            return False
        self.mark_saved()
        self.say(f"Saved to {shown_path(path)}.")
        return True

    def rewinds(self, game: Game) -> bool:
        """True if ``game``, just loaded, goes back before a card that this session saw turned face up.

        A game of the same start as the one in play, or one left earlier, whose
        moves part from that game's before one that revealed a card, while that
        game was not over (once it is, the whole deal is known).
        """
        for line in (_Line.of(self.game), *self.left):
            if line.start != game.start or line.over:
                continue
            common = 0
            for played, loaded in zip(line.moves, game.history):
                if played != loaded:
                    break
                common += 1
            if line.last_reveal >= common:
                return True
        return False

    def load(self, path: str) -> None:
        if not path:
            self.say("load needs a file name: load FILE")
            return
        try:  # read first: a file that cannot be loaded asks nothing
            game, loaded = self._open(path)
        except Fail as exc:
            self.say(str(exc))
            return
        if self.rewinds(game):
            self.say(
                f"{shown_path(path)} is an earlier point of a game played here: loading it would take "
                "back a card turned face up since, and a card turned up stays so. The game goes on."
            )
            return
        if self.unsaved and not self.confirm("Load"):
            return
        self.left.append(_Line.of(self.game))
        self.game, self.loaded = game, loaded
        self.seed_given = False
        self.mark_saved()
        self.say(f"Loaded {shown_path(path)}: move {self.game.state.move_count}.")
        self.board()


class _Line(NamedTuple):
    """A game as the session left it: where it started, its moves, the last that revealed a card (-1: none)."""

    start: GameState
    moves: tuple[Move, ...]
    last_reveal: int
    over: bool

    @classmethod
    def of(cls, game: Game) -> _Line:
        moves = game.history
        # Under the undo policy of the game ("unrevealed"), the moves undo can take back are those after the last reveal.
        return cls(game.start, moves, len(moves) - game.undoable - 1, game.is_over)


def _path_argument(text: str) -> str:
    """A file name typed after save or load: quotes around it and a leading ~ understood."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1]
    return os.path.expanduser(text) if text.startswith("~") else text
