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
from collections.abc import Sequence
import types
from typing import Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from ._cards import Card
from ._engine import apply_move, legal_moves
from ._errors import brief
from ._moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Draw, EndTurn, Move, MoveStack, Play
from ._rules import LoadTarget, Scoring
from ._state import H0, R0, W0, GameState, PileKind
from ._view import PublicView, _unseen, view
from .protocol import CardGame, Crapette, _portable, _resolve, check_card_game, game_name, seeded_rng

__all__ = [
    "Bot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "TreeSearchBot",
    "SearchResult",
    "MoveValue",
    "LEVELS",
    "determinize",
    "make_bot",
    "BOT_NAMES",
]

_F, _T, _R, _W = PileKind.FOUNDATION, PileKind.TABLEAU, PileKind.RESERVE, PileKind.WASTE


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


def _check_seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, got {type(seed).__name__}")
    if not 0 <= seed < 2**64:
        raise ValueError(f"seed must be an int with 0 <= seed < 2**64, got {seed}")
    return seed


def _check_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"choose() expects a GameState, got {type(state).__name__}")
    if state.is_over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return state


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


_rng = Crapette.seeded_rng


def determinize(v: PublicView, rng: random.Random | None = None) -> GameState:
    """A full state that shows ``v``: the unseen cards dealt into the face-down slots.

    The unseen cards are the ones the view does not show (all 104 but those on
    the foundations, the tableau, the wastes and the reserve tops). They fill
    each reserve below its top card and each hand, shuffled by ``rng``; with
    ``rng=None`` they go in a fixed order (cards ascending), which serves a
    bot that only looks at moves that reveal nothing. A card goes to the other
    player's reserve or hand only if the rules could have put it there
    (loading), so the result is always a valid state.

    The result depends only on the view and the generator: it is the same
    whatever order the face-down cards of the real state are in.

    >>> import random
    >>> from crapette import new_game, view
    >>> state = new_game("classic", seed=5)
    >>> world = determinize(view(state), random.Random(0))
    >>> view(world) == view(state)
    True
    >>> world.hands[0] == state.hands[0]
    False

    :raises TypeError: if ``v`` is not a :class:`~crapette.PublicView`.
    """
    if not isinstance(v, PublicView):
        raise TypeError(f"determinize() expects a PublicView, got {type(v).__name__}")
    unseen = _unseen(v)
    rules = v.rules
    foreign = {
        _R: LoadTarget.RESERVE in rules.load_targets,
        PileKind.HAND: LoadTarget.WASTE in rules.load_targets,
    }
    # Slots: (player, kind, size). Slots that may hold only the owner's deck are filled first.
    slots = []
    for player in (0, 1):
        slots.append((player, _R, max(v.reserve_sizes[player] - 1, 0)))
        slots.append((player, PileKind.HAND, v.hand_sizes[player]))
    filled: dict[tuple[int, PileKind], list[Card]] = {}
    pool = unseen
    for deck in (0, 1):
        own = [(p, k, n) for p, k, n in slots if p == deck and not foreign[k] and n]
        if not own:
            continue
        cards = [c for c in pool if c.deck == deck]
        if rng is not None:
            rng.shuffle(cards)
        taken = 0
        for p, k, n in own:
            filled[(p, k)] = cards[taken : taken + n]
            taken += n
        used = set(cards[:taken])
        pool = [c for c in pool if c not in used]
    pool = list(pool)
    if rng is not None:
        rng.shuffle(pool)
    taken = 0
    for p, k, n in slots:
        if (p, k) not in filled:
            filled[(p, k)] = pool[taken : taken + n]
            taken += n
    reserves = []
    for player in (0, 1):
        top = v.reserve_tops[player]
        reserves.append(tuple(filled[(player, _R)]) + (() if top is None else (top,)))
    hands = [tuple(filled[(player, PileKind.HAND)]) for player in (0, 1)]
    piles = (*v.foundations, *v.tableau, *reserves, *hands, *v.wastes)
    return GameState(
        v.rules, piles, v.current_player, v.move_count, v.drawn, v.passes, v.exhausted, v.played, v.counters
    )


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
        self.seed = _check_seed(seed)
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
        return moves[seeded_rng(game, self.seed, v).randrange(len(moves))]


# The greedy heuristic ---------------------------------------------------------

#: Scores of the greedy heuristic, by kind of move (higher is played first).
_FOUNDATION = 1000
_FOUNDATION_SOURCE = {_R: 30, _W: 20, _T: 10}
_RESERVE_TO = {_R: 540, _W: 530}
_RESERVE_TO_TABLEAU = 500
_WASTE_TO = {_R: 440, _W: 430}
_WASTE_TO_TABLEAU = 400
_TABLEAU_TO = {_R: 300, _W: 290}
_SHUFFLE_OPENS_FOUNDATION = 350
_SHUFFLE_OPENS_RESERVE = 340
_SHUFFLE_OPENS_WASTE = 240
_SHUFFLE_USELESS = -100
_DRAW = 100
_END_TURN = 50
_KEEP_EMPTY = 10


def _greedy_scores(world: GameState, moves: Sequence[Move], lookahead: bool = True) -> list[int]:
    """The greedy heuristic's score of each move (see :class:`GreedyBot`).

    Without ``lookahead`` moves between tableau piles all score as useless
    (the fast policy of the search bot's playouts).
    """
    piles = world.piles
    player = world.current_player
    scores = []
    legal_here: frozenset[Move] | None = None
    for move in moves:
        cls = move.__class__
        if cls is Play:
            source = move.source  # type: ignore[attr-defined]
            target = move.target  # type: ignore[attr-defined]
            skind, tkind = source.kind, target.kind
            if tkind is _F:
                scores.append(_FOUNDATION + _FOUNDATION_SOURCE[skind])
                continue
            keep = _KEEP_EMPTY if piles[target.id] else 0
            if skind is _R:
                score = _RESERVE_TO.get(tkind, _RESERVE_TO_TABLEAU + keep)
            elif skind is _W:
                score = _WASTE_TO.get(tkind, _WASTE_TO_TABLEAU + keep)
            elif tkind is not _T:
                score = _TABLEAU_TO[tkind]
            elif not lookahead:
                score = _SHUFFLE_USELESS
            else:
                if legal_here is None:
                    legal_here = frozenset(moves)
                score = _shuffle_score(world, move, legal_here, player)
            scores.append(score)
        elif cls is MoveStack:
            if not lookahead:
                scores.append(_SHUFFLE_USELESS)
                continue
            if legal_here is None:
                legal_here = frozenset(moves)
            scores.append(_shuffle_score(world, move, legal_here, player))
        elif cls is Draw:
            scores.append(_DRAW)
        elif cls is EndTurn:
            scores.append(_END_TURN)
        else:
            scores.append(0)
    return scores


def _shuffle_score(world: GameState, move: Move, before: frozenset[Move], player: int) -> int:
    """Score a move between tableau piles by what it opens up for the next move.

    Such a move reveals no hidden card, so looking at the state after it is fair.
    """
    after = apply_move(world, move)
    if after.current_player != player or after.is_over:
        return _SHUFFLE_USELESS
    best = _SHUFFLE_USELESS
    for new in legal_moves(after):
        if new in before or new.__class__ is not Play:
            continue
        skind = new.source.kind
        if new.target.kind is _F:
            return _SHUFFLE_OPENS_FOUNDATION
        if skind is _R:
            best = max(best, _SHUFFLE_OPENS_RESERVE)
        elif skind is _W:
            best = max(best, _SHUFFLE_OPENS_WASTE)
    return best


def _quick_score(move: Move) -> tuple[int, int, int]:
    """The greedy score of ``move`` without look-ahead: (onto a non-empty pile, onto an empty one, the target's id)."""
    if type(move) is Play:
        skind, tkind, target = move.source.kind, move.target.kind, move.target.id
        if tkind is _F:
            score = _FOUNDATION + _FOUNDATION_SOURCE[skind]
            return score, score, target
        if skind is _R:
            table, tableau = _RESERVE_TO, _RESERVE_TO_TABLEAU
        elif skind is _W:
            table, tableau = _WASTE_TO, _WASTE_TO_TABLEAU
        elif tkind is _T:
            return _SHUFFLE_USELESS, _SHUFFLE_USELESS, target
        else:
            return _TABLEAU_TO[tkind], _TABLEAU_TO[tkind], target
        if tkind in table:
            return table[tkind], table[tkind], target
        return tableau + _KEEP_EMPTY, tableau, target
    score = {Draw: _DRAW, EndTurn: _END_TURN, MoveStack: _SHUFFLE_USELESS}.get(type(move), 0)
    return score, score, 0


#: The scores of :func:`_greedy_scores` without look-ahead, for every move, made once:
#: the playouts of the search bots read them instead of scoring each move anew.
_QUICK: dict[Move, tuple[int, int, int]] = {
    move: _quick_score(move)
    for move in (
        *(play for row in PLAYS for play in row if play is not None),
        *STACKS.values(),
        DRAW,
        END_TURN,
        PASS,
    )
}


def _fast_move(world: GameState) -> Move:
    """The greedy move without look-ahead: the first of the legal moves with the highest quick score."""
    moves = legal_moves(world)
    if len(moves) == 1:
        return moves[0]
    piles = world.piles
    quick = _QUICK
    best = moves[0]
    nonempty, empty, target = quick[best]
    top = nonempty if piles[target] else empty
    for move in moves:
        nonempty, empty, target = quick[move]
        score = nonempty if piles[target] else empty
        if score > top:
            best, top = move, score
    return best


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
        v = view(_check_state(state))
        moves = v.legal_moves
        if len(moves) == 1:
            return moves[0]
        world = determinize(v)
        scores = _greedy_scores(world, moves)
        return moves[scores.index(max(scores))]


# Search -------------------------------------------------------------------------

#: Moves a playout may make after the move it tests (a safety net: turns end long before).
_HORIZON = 200
_WIN = 10_000
#: A move between tableau piles that opens nothing must beat the others by this much on average
#: (in cards), so that sampling noise cannot make the bot move a card to and fro.
_PREFER_USEFUL = 0.5
#: The greedy score breaks ties between moves whose playouts come out equal.
_TIE_BREAK = 1e-6
#: The value of a reserve top card that the player to move can play at once.
_RESERVE_READY = 1.0
#: How cards left are weighed under rules without scoring: as the classic scoring does.
_HEURISTIC_SCORING = Scoring()


def _penalty(scoring: Scoring, piles: tuple[tuple[Card, ...], ...], player: int) -> int:
    return scoring.penalty(
        reserve=len(piles[R0 + player]), hand=len(piles[H0 + player]), waste=len(piles[W0 + player])
    )


def _evaluate(state: GameState, player: int) -> float:
    """How good ``state`` is for ``player``: the opponent's penalty minus the player's.

    Cards left are weighed by the rules' scoring (the classic one under rules
    without scoring); a finished game is
    worth a large bonus or malus; a reserve card the player can play at once
    is worth one card.
    """
    outcome = state.outcome
    if outcome is not None:
        if outcome.winner is None:
            return 0.0
        return float(_WIN if outcome.winner == player else -_WIN)
    piles = state.piles
    scoring = state.rules.scoring or _HEURISTIC_SCORING
    value = float(_penalty(scoring, piles, 1 - player) - _penalty(scoring, piles, player))
    if state.current_player == player:
        # The player is to move: a reserve card that can be played next is as good as gone.
        reserve = R0 + player
        for move in legal_moves(state):
            if move.__class__ is Play and move.source.id == reserve:
                return value + _RESERVE_READY
    return value


def _playout(world: GameState, player: int) -> float:
    """Play on greedily to the end of the opponent's next turn, then evaluate for ``player``."""
    state = world
    turns_left = 2 if state.current_player == player else 1
    last = state.current_player
    for _ in range(_HORIZON):
        if state.is_over:
            break
        state = apply_move(state, _fast_move(state))
        if state.current_player != last:
            last = state.current_player
            turns_left -= 1
            if turns_left == 0:
                break
    return _evaluate(state, player)


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
    plays the greedy choice without sampling.

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
        self.seed = _check_seed(seed)
        if not isinstance(budget, int) or isinstance(budget, bool):
            raise TypeError(f"budget must be an int, got {type(budget).__name__}")
        if budget < 1:
            raise ValueError(f"budget must be at least 1 playout, got {budget}")
        self.budget = budget
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
        v = view(_check_state(state))
        moves = v.legal_moves
        if len(moves) == 1:
            return moves[0]
        greedy = _greedy_scores(determinize(v), moves)
        if min(greedy) >= _FOUNDATION:
            # Only foundation plays (compulsory moves): the greedy order among them will do.
            return moves[greedy.index(max(greedy))]
        rng = _rng(self.seed, v)
        player = v.current_player
        samples = max(1, self.budget // len(moves))
        totals = [0.0] * len(moves)
        for _ in range(samples):
            world = determinize(v, rng)
            for i, move in enumerate(moves):
                totals[i] += _playout(apply_move(world, move), player)
        values = [
            total / samples + (_PREFER_USEFUL if score >= 0 else 0.0) + score * _TIE_BREAK
            for total, score in zip(totals, greedy)
        ]
        return moves[values.index(max(values))]

    def _choose_in(self, game: CardGame[StateT, MoveT, Any], state: StateT) -> MoveT:
        _check_game_state(game, state)
        moves = game.legal_moves(state)
        if len(moves) == 1:
            return moves[0]
        player = state.current_player  # type: ignore[attr-defined]
        v = game.view(state, player)
        rng = seeded_rng(game, self.seed, v)
        samples = max(1, self.budget // len(moves))
        totals = [0.0] * len(moves)
        for _ in range(samples):
            world = game.determinize(v, rng)
            for i, move in enumerate(moves):
                totals[i] += _game_playout(game, game.apply_move(world, move), player, rng)
        # A tie is broken at random: the first move in legal order may be one that changes nothing.
        best = max(totals)
        return moves[rng.choice([i for i, total in enumerate(totals) if total == best])]


#: The names :func:`make_bot` knows: ``search`` is :class:`SearchBot`, the
#: ``search:LEVEL`` names are :class:`TreeSearchBot` at the levels of :data:`~crapette.bots.LEVELS`.
BOT_NAMES = ("random", "greedy", "search", "search:easy", "search:normal", "search:strong")


def make_bot(name: str, seed: int = 0, *, game: object = None) -> Bot:
    """A bot by name (any case), seeded by ``seed``: one of :data:`BOT_NAMES`.

    ``"random"``, ``"greedy"`` and ``"search"`` are :class:`RandomBot`,
    :class:`GreedyBot` and :class:`SearchBot`; ``"search:easy"``,
    ``"search:normal"`` and ``"search:strong"`` the tree search,
    :class:`TreeSearchBot`, at those levels (each takes about four to eight
    times as long as the one before; the play page gives their measured strength).
    ``game`` is the game it plays (None for Crapette; see :class:`RandomBot`);
    the greedy bot and the tree search play Crapette only.

    >>> make_bot("search", seed=2)
    SearchBot(seed=2, budget=200)
    >>> make_bot("Search:Strong", seed=2)
    TreeSearchBot(seed=2, playouts=4800)
    >>> make_bot("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'chess': expected one of random, greedy, search, search:easy, search:normal, search:strong

    :raises ValueError: if there is no bot of that name, or it does not play ``game``.

    .. versionchanged:: 0.2.0
       The ``game`` argument.
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
        return SearchBot(seed=seed, game=checked)
    if key.startswith("search:") and key[7:] in LEVELS:
        if other is not None:
            raise ValueError(f"the tree search plays Crapette only, not {game_name(other)}: choose random or search")
        return TreeSearchBot.at_level(key[7:], seed=seed)
    raise ValueError(f"unknown bot {brief(name)}: expected one of {', '.join(BOT_NAMES)}")


from ._ismcts import LEVELS, MoveValue, SearchResult, TreeSearchBot  # noqa: E402  (it uses this module's heuristics)
