"""Bots: computer players that choose a move from what a player can see.

A bot is any object with a ``choose(state) -> Move`` method (the :class:`Bot`
protocol). The bots here look only at the public view of the state
(:func:`crapette.view`: the face-down cards of the reserves and hands are
counts), never at the face-down cards themselves, and they never decide on
their own whether a card may go somewhere: every move they consider comes from
:func:`~crapette.legal_moves`. Where a bot needs a whole state to look ahead,
it builds one from the view with :func:`determinize`, which deals the unseen
cards into the face-down slots with the bot's own random generator.

- :class:`RandomBot` (``random``) and :class:`GreedyBot` (``greedy``):
  :mod:`crapette.bots.simple`;
- :class:`SearchBot` (``montecarlo``): flat Monte Carlo over any game,
  :mod:`crapette.bots.montecarlo`;
- :class:`PlanningBot` (``plan``, and the levels ``plan:easy``,
  ``plan:normal``, ``plan:strong``): whole turn segments, Crapette's
  strongest, :mod:`crapette.bots.planner`;
- ``search`` and ``search:LEVEL`` are the names of the strongest bot of a
  game: the planning bot in Crapette, the Monte Carlo bot in another.

The searches take their judgement as an argument, an evaluator
(:mod:`crapette.evaluation`): a variant of a bot is an evaluator or an
argument, never a subclass. A bot's decision depends on the state, its seed
and its budget; what a bot keeps between decisions of one turn (the planning
bot's plan, the Monte Carlo bot's position) is pickled with it (see
:func:`choose_remembering`). Against moving cards to and fro there is one
rule, the engine's (``revisits=False``; see
:meth:`crapette.protocol.Crapette.strict_state`).

>>> from crapette import new_game, legal_moves
>>> state = new_game("classic", seed=5)
>>> bots = [RandomBot(seed=1), GreedyBot(), SearchBot(seed=1), make_bot("plan", seed=1)]
>>> all(bot.choose(state) in legal_moves(state) for bot in bots)
True

:class:`RandomBot` and :class:`SearchBot` also play any other game that
implements :class:`crapette.protocol.CardGame`: build them with ``game=`` that
game (a module or an object). They then see what the game's ``view`` shows
the player to move, and the search bot looks ahead in the states that the
game's ``determinize`` deals from that view. The other bots know Crapette only.

>>> from crapette.protocol import Crapette
>>> game = Crapette("casual")
>>> bot = SearchBot(seed=1, budget=20, game=game)
>>> bot.choose(game.new_game(2)) in game.legal_moves(game.new_game(2))
True

.. versionchanged:: 0.3.0
   A package: the bots in modules of their own, each reachable by its own
   name; the searches take an evaluator.
"""

from __future__ import annotations

import warnings
from typing import Any, Protocol, runtime_checkable

from .._core.checks import MAX_PLAYOUTS
from .._core.messages import brief
from .._core.moves import Move
from .._core.state import GameState
from .._views.view import determinize
from ..protocol import game_name, same_game
from ._base import CRAPETTE, check_game
from .montecarlo import RandomRollout, SearchBot
from .planner import PlanningBot
from .simple import GreedyBot, RandomBot
from .treesearch import MoveValue, SearchResult, TreeSearchBot

__all__ = [
    "BOT_NAMES",
    "Bot",
    "GreedyBot",
    "LEVELS",
    "MAX_PLAYOUTS",
    "MoveValue",
    "PlanningBot",
    "RandomBot",
    "RandomRollout",
    "SearchBot",
    "SearchResult",
    "TreeSearchBot",
    "choose_remembering",
    "determinize",
    "make_bot",
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


#: The planning bot's levels (:attr:`PlanningBot.LEVELS`): playouts per plan.
LEVELS = PlanningBot.LEVELS


def choose_remembering(bot: Bot, state: GameState) -> tuple[Move, Bot]:
    """``bot.choose(state)``, and the bot itself as it is after choosing.

    For frontends that run a bot in another process (a worker pool pickles
    the bot for every call): keep the bot that comes back, and a bot that
    remembers its turn (:class:`PlanningBot`'s plan, :class:`SearchBot`'s
    position of the turn: both are pickled with the bot) plays on as it
    would in one process.

    >>> from crapette import new_game
    >>> move, bot = choose_remembering(PlanningBot(seed=1, playouts=50), new_game("classic", seed=4))
    >>> type(bot).__name__, move == PlanningBot(seed=1, playouts=50).choose(new_game("classic", seed=4))
    ('PlanningBot', True)

    .. versionadded:: 0.3.0
    """
    return bot.choose(state), bot


#: The names :func:`make_bot` knows: each bot's own name (``random``, ``greedy``, ``montecarlo``,
#: ``plan`` and its levels), and ``search``, the strongest bot of the game (``search:LEVEL`` the
#: planning bot's levels).
BOT_NAMES = (
    "random",
    "greedy",
    "montecarlo",
    "plan",
    "plan:easy",
    "plan:normal",
    "plan:strong",
    "search",
    "search:easy",
    "search:normal",
    "search:strong",
)


def make_bot(name: str, seed: int = 0, *, game: object = None) -> Bot:
    """A bot by name (any case), seeded by ``seed``: one of :data:`BOT_NAMES`.

    ``"random"``, ``"greedy"``, ``"montecarlo"`` and ``"plan"`` are
    :class:`RandomBot`, :class:`GreedyBot`, :class:`SearchBot` and
    :class:`PlanningBot` (``"plan:easy"``, ``"plan:normal"``,
    ``"plan:strong"``: the planning bot at its levels, each spending several
    times the playouts of the one before; the play page gives their measured
    strength). ``"search"`` is the strongest bot of the game, an alias: the
    planning bot in Crapette (``"search:LEVEL"`` its levels), the Monte Carlo
    bot in another game (``game``; None for Crapette, see :class:`RandomBot`),
    where only ``random``, ``montecarlo`` and ``search`` play. ``"tree"`` makes
    the deprecated :class:`TreeSearchBot`.

    >>> make_bot("search", seed=2)
    PlanningBot(seed=2, playouts=1000)
    >>> make_bot("Plan:Strong", seed=2)
    PlanningBot(seed=2, playouts=8000)
    >>> make_bot("montecarlo", seed=2)
    SearchBot(seed=2, budget=200)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'chess': expected one of random, greedy, montecarlo, plan, plan:easy, plan:normal, plan:strong, search, search:easy, search:normal, search:strong

    :raises ValueError: if there is no bot of that name, or it does not play ``game``.
    :raises TypeError: if ``name`` is not a str, or ``game`` not a card game.

    .. versionchanged:: 0.2.0
       The ``game`` argument.
    .. versionchanged:: 0.3.0
       ``search`` and its levels are the planning bot in Crapette; each bot has
       its own name (``montecarlo``, ``plan``).
    """
    if not isinstance(name, str):
        raise TypeError(f"a bot name must be a str, got {type(name).__name__}")
    key = name.strip().lower()
    checked = check_game(game)
    crapette = same_game(checked, CRAPETTE)
    if key == "search":
        key = "plan" if crapette else "montecarlo"
    elif key.startswith("search:"):
        key = "plan:" + key[7:]
    if key == "random":
        return RandomBot(seed=seed, game=checked)
    if key == "montecarlo":
        return SearchBot(seed=seed, game=checked)
    level = key[5:] if key.startswith("plan:") else "normal" if key == "plan" else None
    if key in ("greedy", "tree") or (level is not None and level in PlanningBot.LEVELS):
        if not crapette:
            raise ValueError(
                f"the {name.strip()} bot plays Crapette only, not {game_name(checked)}: choose random, montecarlo or search"
            )
        if key == "greedy":
            return GreedyBot()
        if key == "tree":
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", DeprecationWarning)
                bot: Any = TreeSearchBot(seed=seed)
            warnings.warn(
                "the tree search bot is deprecated since 0.3.0: use plan or montecarlo", DeprecationWarning, stacklevel=2
            )
            return bot  # type: ignore[no-any-return]
        return PlanningBot.at_level(level or "normal", seed=seed)
    raise ValueError(f"unknown bot {brief(name)}: expected one of {', '.join(BOT_NAMES)}")
