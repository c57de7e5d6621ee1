"""Check that the engine keeps its invariants under any rule set: :func:`check_ruleset` and :func:`check_state`.

This module needs nothing beyond crapette itself. It is how crapette's own
test suite checks every preset and random combinations of options, and how a
user checks a variant of their own in one call:

>>> import attrs
>>> from crapette import RuleSet
>>> my_rules = attrs.evolve(RuleSet.classic(), stack_moves=False, move_limit=300)
>>> check_ruleset(my_rules, games=2, max_moves=100)
CheckSummary(games=2, moves=200, finished=0)

The invariants, each with the name that :attr:`InvariantViolation.invariant`
gives when it breaks:

================================  ==========================================================
``card-count``                    the piles hold the 104 cards, each exactly once
``foundations-ordered``           every foundation is an Ace, then the same suit upwards
``validate``                      :func:`~crapette.validate` accepts the state
``game-over``                     :attr:`~crapette.GameState.is_over`, an
                                  :attr:`~crapette.GameState.outcome` and an empty
                                  :func:`~crapette.legal_moves` go together; an outcome's
                                  winner and scores make sense; Pass is only ever the one
                                  legal move
``position-round-trip``           :func:`~crapette.parse_position` reads
                                  ``str(state)`` back to an
                                  equal state, with the same hash and the same legal moves
``legal-move-applies``            every legal move applies, adds one to the move count, and
                                  :func:`~crapette.explain_illegal` finds nothing wrong with it
``illegal-move-refused``          moves that are not legal (a sample of them) raise
                                  :class:`~crapette.IllegalMoveError`, and
                                  :func:`~crapette.explain_illegal` says why
``immutability``                  neither a legal nor a refused move changes the state it
                                  was applied to
================================  ==========================================================

Every legal move of a state is applied, not only the one played, and the
state it leads to is checked at once for the first two invariants, so an
engine that corrupts a state is caught on the move that did it.

:func:`check_game` does the same for any card game that implements
:class:`crapette.protocol.CardGame` (Crapette included, as
:class:`crapette.protocol.Crapette`): it checks what the protocol promises,
and its docstring lists those invariants.

.. versionadded:: 0.1.0
.. versionchanged:: 0.2.0
   :func:`check_game`.
"""

from __future__ import annotations

import random
from typing import Any

from ._core import engine as _engine
from ._core import explain as _explain
from ._core.cards import ALL_CARDS, check_seed
from ._core.checks import check_int
from ._core.messages import brief
from ._core.moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Move, MoveStack, Play
from ._core.rules import RuleSet
from ._core.state import ALL_PILES, EndReason, GameState, validate
from ._formats.position import parse_position
from .bots import GreedyBot
from .errors import IllegalMoveError, InvalidStateError, InvariantViolation
from .gamecheck import MAX_ILLEGAL_SAMPLES, CheckSummary, check_game

__all__ = ["check_game", "check_ruleset", "check_state", "InvariantViolation", "CheckSummary", "MAX_ILLEGAL_SAMPLES"]


_ALL_PLAYS: tuple[Play, ...] = tuple(p for row in PLAYS for p in row if p is not None)
_ALL_STACKS: tuple[MoveStack, ...] = tuple(STACKS.values())
_SINGLETONS: tuple[Move, ...] = (DRAW, END_TURN, PASS)


def _snapshot(state: GameState) -> tuple[Any, ...]:
    return (
        state.rules,
        state.piles,
        state.current_player,
        state.move_count,
        state.drawn,
        state.passes,
        state.exhausted,
        state.played,
        state.outcome,
        _engine.legal_moves(state),
    )


def _card_problem(state: GameState) -> str:
    indexes = [card.index for cards in state.piles for card in cards]
    if len(indexes) == len(ALL_CARDS) and len(set(indexes)) == len(ALL_CARDS):
        return ""
    seen: dict[object, object] = {}
    for pile, cards in zip(ALL_PILES, state.piles):
        for card in cards:
            if card in seen:
                return f"card {card} is in both {seen[card]} and {pile}"
            seen[card] = pile
    missing = [str(c) for c in ALL_CARDS if c not in seen]
    return f"the piles hold {len(indexes)} cards, not the 104; missing: {' '.join(missing[:8])}"


def _foundation_problem(state: GameState) -> str:
    for index, cards in enumerate(state.foundations):
        previous = None
        for card in cards:
            if previous is None:
                if card.rank != 1:
                    return f"foundation F{index} starts with {card}, not an Ace"
            elif card.suit is not previous.suit or card.rank != previous.rank + 1:
                return f"foundation F{index} has {card} on {previous}"
            previous = card
    return ""


def _structure(
    state: GameState, *, after: GameState | None = None, move: Move | None = None, full: bool = True
) -> None:
    """Check the structural invariants of ``state`` (reached from ``after`` by ``move``, if given).

    ``full=False`` skips :func:`validate`, for the states of the moves not played:
    the state of the move played is checked in full as the next state visited.
    """
    where = "" if move is None else f"after {move}, "
    origin = state if after is None else after
    if not isinstance(state, GameState):
        raise InvariantViolation(
            "legal-move-applies",
            f"apply_move returned {type(state).__name__}, not a GameState",
            state=origin,
            move=move,
        )
    for name, check in (("card-count", _card_problem), ("foundations-ordered", _foundation_problem)):
        try:
            problem = check(state)
        except Exception as exc:
            problem = f"the piles cannot be read ({exc!r})"
        if problem:
            raise InvariantViolation(name, where + problem, state=origin, move=move)
    if not full:
        return
    try:
        validate(state)
    except InvalidStateError as exc:
        raise InvariantViolation("validate", where + str(exc), state=origin, move=move) from None


def _game_over(state: GameState, legal: tuple[Move, ...]) -> None:
    outcome = state.outcome
    over = state.is_over
    if over != (outcome is not None) or over != (not legal):
        raise InvariantViolation(
            "game-over",
            f"is_over is {over}, the outcome is {outcome}, and there are {len(legal)} legal moves",
            state=state,
        )
    if PASS in legal and len(legal) != 1:
        raise InvariantViolation(
            "game-over", f"Pass is legal alongside {len(legal) - 1} other moves", state=state
        )
    if outcome is None:
        return
    problems = []
    if outcome.winner not in (None, 0, 1):
        problems.append(f"the winner is {outcome.winner!r}")
    if (outcome.scores is None) != (state.rules.scoring is None):
        problems.append(f"the scores are {outcome.scores} under scoring {state.rules.scoring}")
    if outcome.winner is not None and outcome.reason is EndReason.EMPTIED:
        won = outcome.winner
        if state.reserves[won] or state.hands[won] or state.wastes[won]:
            problems.append(f"player {won} won by emptying but still has cards")
    if problems:
        raise InvariantViolation("game-over", f"outcome {outcome}: " + "; ".join(problems), state=state)


def _round_trip(state: GameState, legal: tuple[Move, ...]) -> None:
    try:
        text = str(state)
        back = parse_position(text)
    except ValueError as exc:
        raise InvariantViolation(
            "position-round-trip", f"the position string cannot be read back: {exc}", state=state
        ) from None
    if back != state or hash(back) != hash(state):
        raise InvariantViolation(
            "position-round-trip", "the state read back differs from the original", state=state
        )
    again = _engine.legal_moves(back)
    if again != legal:
        raise InvariantViolation(
            "position-round-trip",
            f"the state read back has legal moves {[str(m) for m in again]}, "
            f"not {[str(m) for m in legal]}",
            state=state,
        )


def _illegal_sample(
    state: GameState, legal: tuple[Move, ...], rng: random.Random, size: int
) -> list[Move]:
    # Near misses are likelier to expose a bug than moves from empty piles, so
    # the sample holds plays of cards that exist and stacks no taller than their pile.
    piles = state.piles
    legal_set = set(legal)
    chosen: list[Move] = []
    seen: set[Move] = set()
    for _ in range(size * 16):
        if len(chosen) >= size:
            break
        pool = rng.random()
        if pool < 0.7:
            play = rng.choice(_ALL_PLAYS)
            if not piles[play.source.id]:
                continue
            move: Move = play
        elif pool < 0.9:
            stack = rng.choice(_ALL_STACKS)
            if stack.count > len(piles[stack.source.id]):
                continue
            move = stack
        else:
            move = rng.choice(_SINGLETONS)
        if move not in legal_set and move not in seen:
            seen.add(move)
            chosen.append(move)
    return chosen


def _check(state: GameState, rng: random.Random, illegal_samples: int) -> dict[Move, GameState]:
    """Check ``state`` and every move from it; return the state each legal move leads to."""
    _structure(state)
    try:
        legal = _engine.legal_moves(state)
    except Exception as exc:
        raise InvariantViolation("game-over", f"legal_moves raised {exc!r}", state=state) from None
    _game_over(state, legal)
    _round_trip(state, legal)
    before = _snapshot(state)
    count = state.move_count
    successors: dict[Move, GameState] = {}
    for move in legal:
        try:
            after = _engine.apply_move(state, move)
        except Exception as exc:
            raise InvariantViolation(
                "legal-move-applies", f"{move} is listed as legal but raised {exc!r}", state=state, move=move
            ) from None
        if _snapshot(state) != before:
            raise InvariantViolation(
                "immutability", f"apply_move changed the state it was given when playing {move}",
                state=state, move=move,
            )
        _structure(after, after=state, move=move, full=False)
        if after.move_count != count + 1:
            raise InvariantViolation(
                "legal-move-applies",
                f"after {move} the move count is {after.move_count}, not {count + 1}",
                state=state, move=move,
            )
        reason = _explain.explain_illegal(state, move)
        if reason:
            raise InvariantViolation(
                "legal-move-applies", f"{move} is listed as legal but explain_illegal says {reason!r}",
                state=state, move=move,
            )
        successors[move] = after
    for move in _illegal_sample(state, legal, rng, illegal_samples):
        try:
            _engine.apply_move(state, move)
        except IllegalMoveError:
            pass
        except Exception as exc:
            raise InvariantViolation(
                "illegal-move-refused",
                f"{move} is not legal and should raise IllegalMoveError, but raised {exc!r}",
                state=state, move=move,
            ) from None
        else:
            raise InvariantViolation(
                "illegal-move-refused", f"{move} is not a legal move, yet apply_move accepted it",
                state=state, move=move,
            )
        if _snapshot(state) != before:
            raise InvariantViolation(
                "immutability", f"refusing {move} changed the state", state=state, move=move
            )
        if not _explain.explain_illegal(state, move):
            raise InvariantViolation(
                "illegal-move-refused", f"explain_illegal gives no reason why {move} is illegal",
                state=state, move=move,
            )
    return successors


def check_state(state: GameState, *, seed: int = 0, illegal_samples: int = 8) -> None:
    """Check every invariant of ``state`` and of the moves from it; raise :class:`InvariantViolation` at the first broken one.

    Checks ``state`` itself (the structural invariants, the game-over
    invariants and the position round trip), applies every legal move
    (checking each result's structure and that ``state`` is unchanged), and
    tries ``illegal_samples`` moves that are not legal (at most
    :data:`MAX_ILLEGAL_SAMPLES`, each about the cost of a refused
    ``apply_move``), picked at random from ``seed``. See the module's table
    for the invariants.

    >>> from crapette import RuleSet, new_game
    >>> check_state(new_game(RuleSet.classic(), seed=8))  # passes silently

    :raises InvariantViolation: at the first broken invariant.
    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    :raises ValueError: if ``illegal_samples`` is negative or above :data:`MAX_ILLEGAL_SAMPLES`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"check_state() needs a GameState, got {type(state).__name__}")
    samples = check_int("illegal_samples", illegal_samples, 0, MAX_ILLEGAL_SAMPLES)
    _check(state, random.Random(seed), samples)


def check_ruleset(
    rules: RuleSet | str,
    *,
    games: int = 10,
    seed: int = 0,
    max_moves: int = 1000,
    illegal_samples: int = 4,
    greedy: float = 0.9,
) -> CheckSummary:
    """Play games under ``rules`` and check every invariant after every move.

    Game ``i`` (from 0) is dealt by ``new_game(rules, seed=seed + i)`` and
    played with ``random.Random(seed + i)``: each move is, with probability
    ``greedy``, the one :class:`crapette.bots.GreedyBot` chooses, and otherwise
    one chosen uniformly among the legal moves, until the game ends or
    ``max_moves`` moves have been made. Uniform random play seldom ends a
    classic game (it shuttles cards for ever, ruling R10), so its endings and
    scoring would go unchecked; with the defaults every classic game of the
    first hundred seeds ends, in 220 to 520 moves. Every state reached is
    checked as by :func:`check_state`: so every legal move of every state is
    applied and checked, not only the one played. The same arguments always
    play and check the same games. Checking costs about a millisecond per
    move, so the defaults take some seconds (about ten on a busy two-core machine).

    >>> from crapette import RuleSet
    >>> summary = check_ruleset(RuleSet.classic(), games=2, seed=100)
    >>> summary.finished, summary.capped
    (2, 0)
    >>> check_ruleset(RuleSet.casual(), games=3, max_moves=40, seed=100, greedy=0)
    CheckSummary(games=3, moves=120, finished=0)

    :param rules: a :class:`~crapette.RuleSet` or the name of a preset.
    :param games: how many games to play.
    :param seed: the first game's seed; ``seed + games - 1`` must be below ``2**64``.
    :param max_moves: the most moves to play in one game.
    :param illegal_samples: how many moves that are not legal to try in each
        state, at most :data:`MAX_ILLEGAL_SAMPLES`; each costs about one
        refused ``apply_move``.
    :param greedy: the share of moves the greedy bot chooses, from 0 (uniform
        random play) to 1.
    :returns: how many games and moves were checked, and how many games
        ended and how many were capped.
    :raises InvariantViolation: at the first broken invariant, with the game's
        seed, the moves that led there and the position string.
    :raises TypeError: if an argument has the wrong type.
    :raises ValueError: if a count is negative, or a seed out of range.
    """
    if isinstance(rules, str):
        rules = RuleSet.from_name(rules)
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet or a preset name, got {type(rules).__name__}")
    count = check_int("games", games, 0)
    cap = check_int("max_moves", max_moves, 0)
    samples = check_int("illegal_samples", illegal_samples, 0, MAX_ILLEGAL_SAMPLES)
    if isinstance(greedy, bool) or not isinstance(greedy, (int, float)):
        raise TypeError(f"greedy must be a number from 0 to 1, got {type(greedy).__name__}")
    if not 0 <= greedy <= 1:
        raise ValueError(f"greedy must be from 0 to 1, got {brief(greedy)}")
    check_seed(seed)
    if count:
        check_seed(seed + count - 1)
    bot = GreedyBot()
    total = finished = 0
    for game in range(count):
        game_seed = seed + game
        rng = random.Random(game_seed)
        state = _engine.new_game(rules, game_seed)
        history: list[Move] = []
        try:
            successors = _check(state, rng, samples)
            while successors and len(history) < cap:
                if greedy and rng.random() < greedy:
                    move = bot.choose(state)
                else:
                    move = rng.choice(list(successors))
                history.append(move)
                state = successors[move]
                successors = _check(state, rng, samples)
        except InvariantViolation as exc:
            raise exc._in_game(game_seed, history) from None
        total += len(history)
        if state.is_over:
            finished += 1
    return CheckSummary(games=count, moves=total, finished=finished)
