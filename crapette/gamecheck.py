"""Check any game of :mod:`crapette.protocol`: :func:`check_game`, importable from :mod:`crapette.testing` too.

It plays random games of a game and checks what the protocol promises after
every move; :class:`~crapette.testing.InvariantViolation` names the broken
promise and :class:`~crapette.testing.CheckSummary` says what was checked
(public in :mod:`crapette.testing`; the first lives in :mod:`crapette.errors`).

.. versionadded:: 0.3.0
   The module; :func:`check_game` came in 0.2.0, in :mod:`crapette.testing`.
"""

from __future__ import annotations

import collections
import copy
import math
import random
from collections.abc import Sequence
from typing import Any

import attrs

from ._core.cards import check_seed
from ._core.checks import check_int
from ._core.messages import brief
from .errors import IllegalMoveError, InvariantViolation
from .protocol import check_card_game, game_name

__all__ = ["check_game"]

#: The most moves that are not legal a check may try in each state: a few
#: milliseconds a state (a larger sample would mostly repeat itself).
MAX_ILLEGAL_SAMPLES = 1000


@attrs.frozen
class CheckSummary:
    """What :func:`check_ruleset` checked: games played, moves made, and how many games ended within the move cap.

    >>> CheckSummary(games=3, moves=250, finished=1).moves
    250
    """

    #: Games played.
    games: int
    #: Moves made in all; every state reached was checked.
    moves: int
    #: Games that ended (their state :attr:`~crapette.GameState.is_over`) before ``max_moves``.
    finished: int

    @property
    def capped(self) -> int:
        """Games stopped by ``max_moves`` before they ended, reported apart (ruling R10).

        >>> CheckSummary(games=3, moves=250, finished=1).capped
        2

        .. versionadded:: 0.2.0
        """
        return self.games - self.finished

    def __str__(self) -> str:
        """What was checked, in words, the capped games counted apart.

        >>> print(CheckSummary(games=3, moves=250, finished=1))
        3 games checked (250 moves): 1 ended, 2 capped by max_moves
        """
        games = "game" if self.games == 1 else "games"
        return f"{self.games} {games} checked ({self.moves} moves): {self.finished} ended, {self.capped} capped by max_moves"



# Any card game: check_game ------------------------------------------------------------------

#: Text that no game reads as a move.
_NOT_MOVES = ("", "?", "no such move at all", "\x00")


def _fail(invariant: str, detail: str, move: Any = None) -> InvariantViolation:
    return InvariantViolation(invariant, detail, move=move)


def _short(value: object, limit: int = 120) -> str:
    return brief(value, limit)


def _call(invariant: str, what: str, function: Any, *args: Any, move: Any = None) -> Any:
    """``function(*args)``, an exception becoming a violation of ``invariant``."""
    try:
        return function(*args)
    except InvariantViolation:
        raise
    except Exception as exc:
        raise _fail(invariant, f"{what} raised {exc!r}", move) from None


def _value_twin(state: Any, what: str) -> Any:
    """A deep copy of ``state``, after checking that it is a hashable value equal to its copy."""
    try:
        twin = copy.deepcopy(state)
        same = twin == state and hash(twin) == hash(state)
    except Exception as exc:
        raise _fail("value", f"{what} is not a hashable value that copies ({exc!r})") from None
    if not same:
        raise _fail("value", f"{what} differs from its deep copy, or hashes differently")
    return twin


def _card_count(game: Any, deck: collections.Counter[Any] | None, state: Any, what: str, move: Any = None) -> None:
    if deck is None:
        return
    found = collections.Counter(_call("card-count", "cards()", game.cards, state, move=move))
    if found != deck:
        extra = sorted(map(str, (found - deck).elements()))[:6]
        missing = sorted(map(str, (deck - found).elements()))[:6]
        held, wanted = sum(found.values()), sum(deck.values())
        size = "" if held == wanted else f" ({held} cards, not {wanted})"
        raise _fail(
            "card-count",
            f"{what} does not hold the cards of the deck{size}: "
            f"extra {' '.join(extra) or '-'}; missing {' '.join(missing) or '-'}",
            move,
        )


def _ending_problems(game: Any, state: Any, legal: Sequence[Any], players: int) -> None:
    over = _call("game-over", "is_over", lambda: state.is_over)
    outcome = _call("game-over", "outcome", lambda: state.outcome)
    if bool(over) != (outcome is not None) or bool(over) != (not legal):
        raise _fail(
            "game-over",
            f"is_over is {over!r}, the outcome is {outcome!r}, and there are {len(legal)} legal moves",
        )
    if outcome is None:
        player = _call("game-over", "current_player", lambda: state.current_player)
        if not isinstance(player, int) or isinstance(player, bool) or not 0 <= player < players:
            raise _fail("game-over", f"the player to move is {player!r}, not a player of 0-{players - 1}")
        return
    problems = []
    winner = getattr(outcome, "winner", "(none)")
    if winner is not None and (not isinstance(winner, int) or isinstance(winner, bool) or not 0 <= winner < players):
        problems.append(f"the winner is {winner!r}")
    scores = getattr(outcome, "scores", "(none)")
    if scores is not None and (not isinstance(scores, tuple) or len(scores) != players):
        problems.append(f"the scores are {scores!r}, not None or one per player")
    values = _call("game-over", "returns()", game.returns, state)
    try:
        numbers = [float(v) for v in values]
    except (TypeError, ValueError):
        numbers = []
    if len(numbers) != players or not all(math.isfinite(v) for v in numbers):
        problems.append(f"returns() gives {values!r}, not {players} finite numbers")
    if problems:
        raise _fail("game-over", f"outcome {outcome}: " + "; ".join(problems))


def _views(game: Any, state: Any, legal: Sequence[Any], players: int, rng: random.Random,
           deck: collections.Counter[Any] | None) -> None:
    over = state.is_over
    mover = None if over else state.current_player
    for player in range(players):
        seen = _call("view", f"view(state, {player})", game.view, state, player)
        _value_twin(seen, f"the view of player {player}")
        if _call("view", f"view(state, {player})", game.view, state, player) != seen:
            raise _fail("view", f"two calls of view(state, {player}) differ")
        world_rng = random.Random(rng.getrandbits(64))
        world = _call("view", f"determinize(view of player {player})", game.determinize, seen, world_rng)
        where = f"a state determinized from the view of player {player}"
        if _call("view", f"view({where})", game.view, world, player) != seen:
            raise _fail("view", f"{where} shows that player another view")
        if _call("view", f"view(state, {player})", game.view, state, player) != seen:
            raise _fail("view", f"determinize changed the view of player {player} it was given")
        if world.is_over != over or (not over and world.current_player != mover):
            raise _fail("view", f"{where} has another player to move, or another ending")
        if player == mover:
            again = list(_call("view", f"legal_moves({where})", game.legal_moves, world))
            if again != list(legal):
                raise _fail(
                    "view",
                    f"the legal moves of player {player} depend on cards the view hides: "
                    f"{[str(m) for m in legal][:8]} here, {[str(m) for m in again][:8]} in {where}",
                )
        _card_count(game, deck, world, where)


class _Pool:
    """Moves seen in other states of the game: candidates for moves that are not legal here."""

    def __init__(self, size: int = 2048) -> None:
        self.moves: list[Any] = []
        self.known: set[Any] = set()
        self.size = size

    def add(self, move: Any) -> None:
        if move not in self.known and len(self.moves) < self.size:
            self.known.add(move)
            self.moves.append(move)

    def sample(self, legal: Sequence[Any], rng: random.Random, count: int) -> list[Any]:
        if not self.moves or not count:
            return []
        legal_set = set(legal)
        picks = [self.moves[rng.randrange(len(self.moves))] for _ in range(count * 4)]
        chosen: list[Any] = []
        for move in picks:
            if move not in legal_set and move not in chosen:
                chosen.append(move)
                if len(chosen) == count:
                    break
        return chosen


def _check_game_state(
    game: Any,
    state: Any,
    rng: random.Random,
    pool: _Pool,
    samples: int,
    deck: collections.Counter[Any] | None,
    players: int,
) -> dict[Any, Any]:
    """Check ``state`` and every move from it; return the state each legal move leads to."""
    twin = _value_twin(state, "the state")
    shown = repr(state)
    legal = _call("legal-move-applies", "legal_moves(state)", game.legal_moves, state)
    if isinstance(legal, (str, bytes)) or not isinstance(legal, Sequence):
        raise _fail("legal-move-applies", f"legal_moves() returned a {type(legal).__name__}, not a sequence")
    try:
        distinct = len(set(legal))
    except TypeError as exc:
        raise _fail("value", f"a legal move is not hashable ({exc})") from None
    if distinct != len(legal):
        raise _fail("legal-move-applies", f"legal_moves() lists a move twice: {[str(m) for m in legal]}")
    if list(_call("legal-move-applies", "legal_moves(state)", game.legal_moves, state)) != list(legal):
        raise _fail("legal-move-applies", "two calls of legal_moves(state) differ")
    _ending_problems(game, state, legal, players)
    _card_count(game, deck, state, "the state")

    def unchanged(what: str, move: Any) -> None:
        if state != twin or repr(state) != shown:
            raise _fail("immutability", f"{what} changed the state it was given", move)

    successors: dict[Any, Any] = {}
    for move in legal:
        text = str(move)
        back = _call("notation", f"parse_move({text!r})", game.parse_move, text, move=move)
        if back != move:
            raise _fail("notation", f"parse_move({text!r}) reads {_short(back)}, not the move written", move)
        after = _call("legal-move-applies", f"{text}, listed as legal,", game.apply_move, state, move, move=move)
        unchanged(f"applying {text}", move)
        _card_count(game, deck, after, f"the state after {text}", move)
        successors[move] = after
        pool.add(move)
    for move in pool.sample(legal, rng, samples):
        try:
            game.apply_move(state, move)
        except IllegalMoveError:
            pass
        except Exception as exc:
            raise _fail(
                "illegal-move-refused", f"{move} is not legal and should raise IllegalMoveError, but raised {exc!r}",
                move,
            ) from None
        else:
            raise _fail("illegal-move-refused", f"{move} is not a legal move, yet apply_move accepted it", move)
        unchanged(f"refusing {move}", move)
    _views(game, state, legal, players, rng, deck)
    return successors


def _check_new_game(game: Any, seed: int) -> Any:
    state = _call("new-game", f"new_game({seed})", game.new_game, seed)
    if _call("new-game", f"new_game({seed})", game.new_game, seed) != state:
        raise _fail("new-game", f"two calls of new_game({seed}) deal different states")
    return state


def _check_bad_input(game: Any) -> None:
    for bad in (-1, 2**64):
        try:
            game.new_game(bad)
        except ValueError:
            continue
        except Exception as exc:
            raise _fail("new-game", f"new_game({bad}) should raise ValueError, but raised {exc!r}") from None
        raise _fail("new-game", f"new_game({bad}) dealt a game: a seed must be from 0 to 2**64 - 1")
    for text in _NOT_MOVES:
        try:
            game.parse_move(text)
        except ValueError:
            continue
        except Exception as exc:
            raise _fail("notation", f"parse_move({text!r}) should raise ValueError, but raised {exc!r}") from None
        raise _fail("notation", f"parse_move({text!r}) read a move from text that is none")


def check_game(
    game: Any,
    *,
    games: int = 10,
    seed: int = 0,
    max_moves: int = 500,
    illegal_samples: int = 4,
) -> CheckSummary:
    """Play random games of any card game and check the protocol's invariants after every move.

    ``game`` is anything that implements :class:`crapette.protocol.CardGame`:
    a module (``check_game(durak)``) or an object
    (``check_game(Crapette("classic"))``). Game ``i`` (from 0) is dealt by
    ``game.new_game(seed + i)`` and played by choosing uniformly among the
    legal moves with ``random.Random(seed + i)``, until it ends or
    ``max_moves`` moves have been made: a game that the cap stops is
    reported apart, as :attr:`CheckSummary.capped` (ruling R10). Every legal
    move of every state reached is applied and checked, and the views of
    every player are determinized and checked. The same arguments always
    play and check the same games.

    The invariants, with their names in :attr:`InvariantViolation.invariant`:

    ========================  ================================================================
    ``new-game``              the same seed deals equal states; seeds -1 and ``2**64`` raise
                              :class:`ValueError`
    ``value``                 states, moves and views are hashable values, equal to a deep
                              copy of themselves with the same hash
    ``game-over``             ``is_over``, an ``outcome`` and no legal move go together; the
                              player to move is a player; the winner, the scores and
                              ``returns`` fit the number of players
    ``card-count``            if the game declares ``deck`` and ``cards(state)``: every
                              state (and every determinized state) holds exactly the deck
    ``notation``              ``parse_move(str(move)) == move`` for every legal move; text
                              that is no move raises :class:`ValueError`
    ``legal-move-applies``    ``legal_moves`` gives a sequence without repeats, the same
                              twice; every legal move applies
    ``illegal-move-refused``  a move seen legal elsewhere but not legal here (a sample of
                              them) raises :class:`~crapette.IllegalMoveError`
    ``immutability``          neither a legal nor a refused move changes the state (its
                              equality and its ``repr``)
    ``view``                  each player's view is the same twice; ``determinize`` deals a
                              state with that view again, the same player to move, the same
                              ending and (for the player to move) the same legal moves
    ========================  ================================================================

    >>> from crapette.protocol import Crapette
    >>> check_game(Crapette("casual"), games=2, max_moves=30)
    CheckSummary(games=2, moves=60, finished=0)

    :param game: the game to check.
    :param games: how many games to play.
    :param seed: the first game's seed; ``seed + games - 1`` must be below ``2**64``.
    :param max_moves: the most moves to play in one game.
    :param illegal_samples: how many moves that are not legal to try in each
        state, at most :data:`MAX_ILLEGAL_SAMPLES`; each costs about one
        refused ``apply_move``.
    :returns: how many games and moves were checked, and how many games ended.
    :raises InvariantViolation: at the first broken invariant, with the game's
        name and seed and the moves that led there (its ``game``, ``seed`` and
        ``moves``).
    :raises TypeError: if ``game`` is not a card game, or an argument has the wrong type.
    :raises ValueError: if a count is negative, or a seed out of range.

    .. versionadded:: 0.2.0
    """
    checked = check_card_game(game)
    count = check_int("games", games, 0)
    cap = check_int("max_moves", max_moves, 0)
    samples = check_int("illegal_samples", illegal_samples, 0, MAX_ILLEGAL_SAMPLES)
    check_seed(seed)
    if count:
        check_seed(seed + count - 1)
    name = game_name(checked)
    players = checked.num_players
    deck_cards = getattr(checked, "deck", None)
    deck = (
        collections.Counter(deck_cards)
        if deck_cards is not None and callable(getattr(checked, "cards", None))
        else None
    )
    pool = _Pool()
    total = finished = 0
    for index in range(count):
        game_seed = seed + index
        rng = random.Random(game_seed)
        history: list[Any] = []
        try:
            if index == 0:
                _check_bad_input(checked)
            state = _check_new_game(checked, game_seed)
            successors = _check_game_state(checked, state, rng, pool, samples, deck, players)
            while successors and len(history) < cap:
                move = rng.choice(list(successors))
                history.append(move)
                state = successors[move]
                successors = _check_game_state(checked, state, rng, pool, samples, deck, players)
        except InvariantViolation as exc:
            raise exc._in_game(game_seed, history, name) from None
        total += len(history)
        if state.is_over:
            finished += 1
    return CheckSummary(games=count, moves=total, finished=finished)


CheckSummary.__module__ = "crapette.testing"
