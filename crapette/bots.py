"""Bots: computer players that choose a move from what a player can see.

A bot is any object with a ``choose(state) -> Move`` method (the :class:`Bot`
protocol). The bots here look only at the public view of the state
(:func:`crapette.view`: the face-down cards of the reserves and hands are
counts), never at the face-down cards themselves, and they never decide on
their own whether a card may go somewhere: every move they consider comes from
:func:`~crapette.legal_moves`. Where a bot needs a whole state to look ahead,
it builds one from the view with :func:`determinize`, which deals the unseen
cards into the face-down slots with the bot's own random generator.

Every bot here is a pure function of its settings and the public view: the
same bot asked about the same position gives the same move, however many
games it has played before, and whatever order the face-down cards are in.

>>> from crapette import new_game, legal_moves
>>> from crapette.bots import GreedyBot, RandomBot, SearchBot
>>> state = new_game("classic", seed=5)
>>> bots = [RandomBot(seed=1), GreedyBot(), SearchBot(seed=1)]
>>> all(bot.choose(state) in legal_moves(state) for bot in bots)
True

:class:`RandomBot` and :class:`SearchBot` also play any other game that
implements :class:`crapette.protocol.CardGame`: build them with ``game=`` that
game (a module or an object). They then see what the game's ``view`` shows
the player to move, and the search bot looks ahead in the states that the
game's ``determinize`` deals from that view. :class:`GreedyBot` knows
Crapette only.

>>> from crapette.protocol import Crapette
>>> game = Crapette("casual")
>>> bot = SearchBot(seed=1, budget=20, game=game)
>>> bot.choose(game.new_game(2)) in game.legal_moves(game.new_game(2))
True
"""

from __future__ import annotations

import random
import types
from typing import Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from . import kernel
from ._checks import check_int, check_seed
from ._engine import apply_move, legal_moves
from ._shapes import shuttles
from ._errors import brief
from ._heuristics import FOUNDATION, checked_view, greedy_choice, greedy_scores, playout, seeded_rng
from ._ismcts import MoveValue, SearchResult, TreeSearchBot
from ._planner import PLANNING_LEVELS as LEVELS
from ._planner import PlanningBot
from ._moves import Move
from ._state import GameState
from ._turns import position_key
from ._view import PublicView, _Dealer, determinize
from .protocol import CardGame, Crapette, _portable, _resolve, check_card_game, game_name
from .protocol import seeded_rng as game_rng

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "TreeSearchBot",
    "PlanningBot",
    "SearchResult",
    "MoveValue",
    "LEVELS",
    "determinize",
    "make_bot",
    "choose_remembering",
    "BOT_NAMES",
]

@runtime_checkable
class Bot(Protocol):
    """Anything that chooses a move: ``choose(state)`` returns one of ``legal_moves(state)``.

    A bot for :func:`crapette.simulation.simulate` should also be picklable (to
    run in other processes) and should decide from the public view only
    (:func:`crapette.view`, or the ``view`` of the game it plays). Any class
    with a ``choose`` method will do:

    >>> from crapette import legal_moves, new_game
    >>> class FirstMoveBot:
    ...     def choose(self, state):
    ...         return legal_moves(state)[0]
    >>> isinstance(FirstMoveBot(), Bot)
    True
    >>> str(FirstMoveBot().choose(new_game("casual", seed=1)))
    'T1-T0'
    """

    def choose(self, state: GameState) -> Move:
        """The move to play in ``state`` (which is not over)."""
        ...


#: The game of a bot built without ``game=``: Crapette (the state carries its rules, so any rules).
_CRAPETTE = Crapette("classic")


def _check_game(game: object) -> CardGame[Any, Any, Any]:
    """The game a bot plays: Crapette for None, else the game, checked."""
    if game is None:
        return _CRAPETTE
    if isinstance(game, Crapette):
        return game
    return check_card_game(game)


def _check_game_state(game: CardGame[Any, Any, Any], state: Any) -> Any:
    try:
        over = state.is_over
    except AttributeError:
        raise TypeError(
            f"choose() expects a {'GameState' if isinstance(game, Crapette) else 'state'} of {game_name(game)}, "
            f"got {type(state).__name__}"
        ) from None
    if over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return state


def _game_suffix(game: CardGame[Any, Any, Any]) -> str:
    return "" if isinstance(game, Crapette) else f", game={game_name(game)}"


def _same_game(a: object, b: object) -> bool:
    # Crapette under any rules is one game for a bot: the state carries its rules.
    return a is b or a == b or (isinstance(a, Crapette) and isinstance(b, Crapette))


def _game_key(game: CardGame[Any, Any, Any]) -> str:
    return "crapette" if isinstance(game, Crapette) else game_name(game)


#: The types of the states and moves of the game a bot plays.
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


class _GameBot(Generic[StateT, MoveT]):
    """What the bots that play any game share: their game, and how it travels."""

    game: CardGame[StateT, MoveT, Any]

    def __getstate__(self) -> dict[str, Any]:
        # A module does not pickle: it travels as its name (crapette.protocol).
        state = dict(self.__dict__)
        state["game"] = _portable(state.get("game"))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["game"] = _resolve(state.get("game"))
        self.__dict__.update(state)


class RandomBot(_GameBot[StateT, MoveT]):
    """Plays a legal move chosen uniformly at random.

    The choice is drawn from a generator seeded by ``seed`` and the public view
    of the position, so it is reproducible: the same bot chooses the same move
    in the same position, in any process and after any number of games.

    It plays any game: ``game`` is the game the bot plays, any
    :class:`~crapette.protocol.CardGame` (a module or an object); None (the
    default) is Crapette under any rules (:class:`~crapette.protocol.Crapette`).
    The bot asks the game for the legal moves and seeds its choice with the
    view of the player to move (:func:`crapette.protocol.seeded_rng`). It is a
    :class:`crapette.protocol.GameBot` of that game's states and moves.

    >>> from crapette import new_game
    >>> state = new_game("casual", seed=3)
    >>> RandomBot(seed=7).choose(state) is RandomBot(seed=7).choose(state)
    True
    >>> RandomBot(seed=7)
    RandomBot(seed=7)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    :raises TypeError: if ``game`` is not a card game.

    .. versionchanged:: 0.2.0
       The ``game`` argument: the bot plays any card game.
    """

    name = "random"

    @overload
    def __init__(self: RandomBot[GameState, Move], seed: int = 0, *, game: Crapette | None = None) -> None: ...
    @overload
    def __init__(self, seed: int = 0, *, game: CardGame[StateT, MoveT, Any]) -> None: ...
    @overload
    def __init__(self: RandomBot[Any, Any], seed: int = 0, *, game: types.ModuleType | object) -> None: ...

    def __init__(self, seed: int = 0, *, game: object = None) -> None:
        self.seed = check_seed(seed)
        self.game = _check_game(game)

    def __repr__(self) -> str:
        return f"RandomBot(seed={self.seed}{_game_suffix(self.game)})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is RandomBot and other.seed == self.seed and _same_game(other.game, self.game)
        )

    def __hash__(self) -> int:
        return hash(("RandomBot", self.seed, _game_key(self.game)))

    def choose(self, state: StateT) -> MoveT:
        """A legal move of ``state``, uniformly at random.

        :raises ValueError: if the game is over.
        :raises TypeError: if ``state`` is not a state of the bot's game.
        """
        game = self.game
        _check_game_state(game, state)
        moves = game.legal_moves(state)
        v = game.view(state, state.current_player)  # type: ignore[attr-defined]
        return moves[game_rng(game, self.seed, v).randrange(len(moves))]


class GreedyBot:
    """Plays the move its fixed heuristic scores highest; the first such in legal order on a tie.

    The heuristic, from the highest score to the lowest:

    1. Foundation plays (1000): from the reserve first, then the waste, then
       the tableau. They rid the player of a card for good.
    2. Plays from the reserve (500-540): onto the opponent's reserve, then
       onto the opponent's waste (loading the opponent is worth more than
       placing the card), then onto a tableau pile, a non-empty one before an
       empty one (empty piles are kept for later).
    3. Plays from the waste (400-440; under the classic rules only the card
       just drawn may be played from there): loading first, then the
       tableau, in the same order.
    4. Loading the opponent from the tableau (290-300): onto the reserve,
       then onto the waste.
    5. Moves between tableau piles (single cards and stacks) only when they
       open something: the next position has a new foundation play (350), a
       new play from the reserve (340) or from the waste (240). Otherwise they
       score -100, below drawing, so the bot never shuffles cards back and
       forth.
    6. Draw (100): only when no useful move remains.
    7. End turn (50), then Pass.

    The bot asks :func:`~crapette.legal_moves` for everything; to score a move
    between tableau piles it applies the move to a state built from the
    public view (such a move uncovers no face-down card) and compares the
    legal moves before and after.

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=1)
    >>> [str(m) for m in legal_moves(state)]
    ['R0-T5', 'T7-T1', 'draw']
    >>> GreedyBot().choose(state)
    parse_move('R0-T5')
    """

    name = "greedy"

    def __repr__(self) -> str:
        return "GreedyBot()"

    def __eq__(self, other: object) -> bool:
        return type(other) is GreedyBot

    def __hash__(self) -> int:
        return hash("GreedyBot")

    def choose(self, state: GameState) -> Move:
        """The legal move of ``state`` that the heuristic scores highest.

        :raises ValueError: if the game is over.
        """
        if not isinstance(state, GameState) or state.is_over:
            checked_view(state)  # raises, saying what is wrong
        moves = legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        # The heuristic reads only what the view shows (tops, sizes, the turn's moves), so the
        # kernel scores the state itself as the Python heuristic scores a world dealt from its view.
        scores = kernel.greedy_scores(state, moves, True)
        if scores is None:
            return greedy_choice(checked_view(state), moves)
        return moves[scores.index(max(scores))]


# Search -------------------------------------------------------------------------

#: A move between tableau piles that opens nothing must beat the others by this much on average
#: (in cards), so that sampling noise cannot make the bot move a card to and fro.
_PREFER_USEFUL = 0.5
#: The greedy score breaks ties between moves whose playouts come out equal.
_TIE_BREAK = 1e-6


#: Moves a playout of another game may make before it is cut short (and scored 0).
_GAME_HORIZON = 1000


def _game_playout(game: CardGame[Any, Any, Any], state: Any, player: int, rng: random.Random) -> float:
    """Play on at random to the end of the game; what it is worth to ``player`` (0 if cut short)."""
    legal = game.legal_moves
    apply = game.apply_move
    choice = rng.choice
    for _ in range(_GAME_HORIZON):
        if state.is_over:
            return float(game.returns(state)[player])
        state = apply(state, choice(legal(state)))
    return float(game.returns(state)[player]) if state.is_over else 0.0


class SearchBot(_GameBot[StateT, MoveT]):
    """Looks ahead by playing out each legal move in sampled worlds, and plays the best on average.

    The bot cannot see the face-down cards, so it samples: it deals the unseen
    cards at random into the face-down slots (:func:`determinize`), several
    times, with its own generator. In each such world it tries every legal
    move, then plays on for both sides with the :class:`GreedyBot` heuristic
    (less its look-ahead: moves between tableau piles are left out, which
    keeps a playout fast) until the end of the opponent's next turn, so it
    sees what its move leaves the opponent. It scores the result: the
    opponent's penalty minus its own, as ``rules.scoring`` weighs the cards
    left (the classic weights, reserve cards counting double, under rules
    without scoring), one point more if its reserve top can be played at
    once, and a large bonus or malus if the game has ended. Every move is tried in the same worlds; the
    best average wins. A move between tableau piles that the greedy heuristic
    finds useless must win by half a card, so that sampling noise cannot make
    the bot move a card to and fro; exact ties go to the move the greedy
    heuristic prefers. When every legal move is a foundation play, the bot
    plays the greedy choice without sampling. The bot remembers the positions
    it has had in the current turn (by :func:`~crapette.position_key`) and
    never moves between tableau piles back to one of them: the one thing it
    keeps between decisions, which travels with it when it is pickled (see
    :func:`choose_remembering`). Under ``revisits=False`` the state itself
    remembers them, and the legal moves already leave such moves out.

    ``budget`` is the number of playouts per decision, shared among the legal
    moves (at least one world each): a count, not a time, so the bot plays the
    same on any machine. With the default, a decision takes a few
    milliseconds on average and well under a second at worst. A position
    with a single legal move costs nothing.

    It plays any game (a :class:`crapette.protocol.GameBot` of the states and
    moves of its ``game``; None is Crapette): in Crapette it uses Crapette's
    heuristics, as above. With ``game=`` another
    :class:`~crapette.protocol.CardGame`, the bot does the same with what that game offers: it deals worlds from the view
    of the player to move with the game's ``determinize``, tries every legal
    move in each, plays on at random to the end of the game (at most 1000
    moves, else the playout counts 0) and plays the move whose worlds the
    game's ``returns`` value best on average for the bot (one of them at
    random, from its generator, on a tie). The cost of a decision is
    ``budget`` random games to the end.

    >>> from crapette import new_game
    >>> bot = SearchBot(seed=3, budget=24)
    >>> state = new_game("classic", seed=5)
    >>> bot.choose(state) is SearchBot(seed=3, budget=24).choose(state)
    True
    >>> bot
    SearchBot(seed=3, budget=24)

    :raises ValueError: if ``seed`` is out of range or ``budget`` is not a positive int.
    :raises TypeError: if ``game`` is not a card game.

    .. versionchanged:: 0.2.0
       The ``game`` argument: the bot plays any card game.
    """

    name = "search"

    #: The default number of playouts per decision.
    DEFAULT_BUDGET = 200

    @overload
    def __init__(
        self: SearchBot[GameState, Move], seed: int = 0, budget: int = DEFAULT_BUDGET, *, game: Crapette | None = None
    ) -> None: ...
    @overload
    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, *, game: CardGame[StateT, MoveT, Any]) -> None: ...
    @overload
    def __init__(
        self: SearchBot[Any, Any], seed: int = 0, budget: int = DEFAULT_BUDGET, *, game: types.ModuleType | object
    ) -> None: ...

    def __init__(self, seed: int = 0, budget: int = DEFAULT_BUDGET, *, game: object = None) -> None:
        self.seed = check_seed(seed)
        self.budget = check_int("budget", budget, 1)
        self.game = _check_game(game)

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed}, budget={self.budget}{_game_suffix(self.game)})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is SearchBot
            and (other.seed, other.budget) == (self.seed, self.budget)
            and _same_game(other.game, self.game)
        )

    def __hash__(self) -> int:
        return hash(("SearchBot", self.seed, self.budget, _game_key(self.game)))

    def choose(self, state: StateT) -> MoveT:
        """The legal move of ``state`` with the best average playout.

        :raises ValueError: if the game is over.
        :raises TypeError: if ``state`` is not a state of the bot's game.
        """
        game = self.game
        if not isinstance(game, Crapette):
            return self._choose_in(game, state)
        v = checked_view(state)
        moves = v.legal_moves
        if len(moves) == 1:
            return moves[0]
        dealer = _Dealer(v)
        moves = self._unvisited(v, dealer, moves)
        if len(moves) == 1:
            return moves[0]
        greedy = greedy_scores(dealer.deal(None), moves)
        if min(greedy) >= FOUNDATION:
            # Only foundation plays (compulsory moves): the greedy order among them will do.
            return moves[greedy.index(max(greedy))]
        rng = seeded_rng(self.seed, v)
        player = v.current_player
        samples = max(1, self.budget // len(moves))
        worlds = [dealer.deal(rng) for _ in range(samples)]
        totals = kernel.try_paths(worlds, [(move,) for move in moves], player)
        if totals is None:
            totals = [0.0] * len(moves)
            for world in worlds:
                for i, move in enumerate(moves):
                    totals[i] += playout(apply_move(world, move), player)
        values = [
            total / samples + (_PREFER_USEFUL if score >= 0 else 0.0) + score * _TIE_BREAK
            for total, score in zip(totals, greedy)
        ]
        return moves[values.index(max(values))]

    def _unvisited(self, v: PublicView, dealer: _Dealer, moves: tuple[Move, ...]) -> tuple[Move, ...]:
        """``moves`` less those that lead back to a position the bot had earlier in this turn."""
        base = dealer.deal(None)
        here = (v.current_player, position_key(base))
        turn: set[tuple[Any, ...]] = self.__dict__.setdefault("_turn", set())
        if not turn or next(iter(turn))[0] != v.current_player or len(turn) > 10_000:
            turn.clear()
        turn.add(here)
        kept = tuple(
            m
            for m in moves
            if not (shuttles(m) and (v.current_player, position_key(apply_move(base, m))) in turn)
        )
        return kept or moves

    def _choose_in(self, game: CardGame[StateT, MoveT, Any], state: StateT) -> MoveT:
        _check_game_state(game, state)
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        player = state.current_player  # type: ignore[attr-defined]
        v = game.view(state, player)
        rng = game_rng(game, self.seed, v)
        samples = max(1, self.budget // len(moves))
        totals = [0.0] * len(moves)
        for _ in range(samples):
            world = game.determinize(v, rng)
            for i, move in enumerate(moves):
                totals[i] += _game_playout(game, game.apply_move(world, move), player, rng)
        # A tie is broken at random: the first move in legal order may be one that changes nothing.
        best = max(totals)
        return moves[rng.choice([i for i, total in enumerate(totals) if total == best])]


def choose_remembering(bot: Bot, state: GameState) -> tuple[Move, Bot]:
    """``bot.choose(state)``, and the bot itself as it is after choosing.

    For frontends that run a bot in another process (a worker pool pickles
    the bot for every call): keep the bot that comes back, and a bot that
    remembers its turn (:class:`PlanningBot`'s plan, :class:`SearchBot`'s
    positions of the turn: both are pickled with the bot) plays on as it
    would in one process.

    >>> from crapette import new_game
    >>> move, bot = choose_remembering(PlanningBot(seed=1, playouts=50), new_game("classic", seed=4))
    >>> type(bot).__name__, move == PlanningBot(seed=1, playouts=50).choose(new_game("classic", seed=4))
    ('PlanningBot', True)

    .. versionadded:: 0.3.0
    """
    return bot.choose(state), bot


#: The names :func:`make_bot` knows: in Crapette, ``search`` and the ``search:LEVEL`` names are
#: :class:`PlanningBot` at the levels of :data:`~crapette.bots.LEVELS` (``search`` is ``search:normal``).
BOT_NAMES = ("random", "greedy", "search", "search:easy", "search:normal", "search:strong")


def make_bot(name: str, seed: int = 0, *, game: object = None) -> Bot:
    """A bot by name (any case), seeded by ``seed``: one of :data:`BOT_NAMES`.

    ``"random"`` and ``"greedy"`` are :class:`RandomBot` and
    :class:`GreedyBot`. In Crapette, ``"search"`` is :class:`PlanningBot` at
    its normal level, and ``"search:easy"``, ``"search:normal"`` and
    ``"search:strong"`` the planning bot at those levels (each spends several
    times the playouts of the one before; the play page gives their measured
    strength). In another game (``game``; None for Crapette, see
    :class:`RandomBot`), ``"search"`` is :class:`SearchBot`; the greedy bot
    and the levels play Crapette only.

    >>> make_bot("search", seed=2)
    PlanningBot(seed=2, playouts=1000)
    >>> make_bot("Search:Strong", seed=2)
    PlanningBot(seed=2, playouts=8000)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'chess': expected one of random, greedy, search, search:easy, search:normal, search:strong

    :raises ValueError: if there is no bot of that name, or it does not play ``game``.

    .. versionchanged:: 0.2.0
       The ``game`` argument.
    .. versionchanged:: 0.3.0
       ``search`` and its levels are the planning bot in Crapette.
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot name must be a str, got {type(name).__name__}")
    key = name.strip().lower()
    checked = _check_game(game)
    other = None if isinstance(checked, Crapette) else checked
    if key == "random":
        return RandomBot(seed=seed, game=checked)
    if key == "greedy":
        if other is not None:
            raise ValueError(
                f"the greedy bot plays Crapette only, not {game_name(other)}: choose random or search"
            )
        return GreedyBot()
    if key == "search":
        if other is not None:
            return SearchBot(seed=seed, game=checked)
        return PlanningBot.at_level("normal", seed=seed)
    if key.startswith("search:") and key[7:] in LEVELS:
        if other is not None:
            raise ValueError(f"the search levels play Crapette only, not {game_name(other)}: choose random or search")
        return PlanningBot.at_level(key[7:], seed=seed)
    raise ValueError(f"unknown bot {brief(name)}: expected one of {', '.join(BOT_NAMES)}")
