"""Hypothesis strategies for cards, rule sets, games and moves.

This module needs `Hypothesis <https://hypothesis.readthedocs.io>`_, which is
not a dependency of crapette itself: install it with ``pip install hypothesis``
(the ``test`` extra installs it too).

The strategies follow Hypothesis' own style: plural names, keyword-only
arguments, and strategies (not plain values) as arguments, so
``new_games(rules=st.just(my_rules))`` tests one variant and
``new_games(rules=rulesets())`` tests them all. Every strategy shrinks towards
simple examples: the casual preset, small option values, seed 0, short games,
and the first legal move. A failing example prints each state, rule set, card,
pile and move in the one line that rebuilds it (``parse_position('...')``,
``parse_rules('...')``, ``parse_card('9H0')``, ``parse_move('T1-T4')``), ready
to paste into a test.

Importing this module also registers the strategies for their types, so that
``st.from_type(Card)``, ``st.from_type(RuleSet)`` and ``st.from_type(GameState)``
(and ``st.builds`` of any type whose fields have these types) work:

>>> from hypothesis import given, strategies as st
>>> from crapette import GameState, validate
>>> import crapette.strategies
>>> @given(st.from_type(GameState))
... def test_reachable_states_are_valid(state):
...     validate(state)
>>> test_reachable_states_are_valid()

.. versionadded:: 0.1.0
"""

from __future__ import annotations

try:
    from hypothesis import strategies as st
    from hypothesis.errors import InvalidArgument
    from hypothesis.strategies import SearchStrategy
except ImportError as exc:  # pragma: no cover - exercised by a test that hides hypothesis
    raise ImportError(
        "crapette.strategies needs Hypothesis, which is not installed: "
        "install it with `pip install hypothesis` (the test extra of crapette installs it too)"
    ) from exc

from ._core.cards import ALL_CARDS, Card
from ._core.checks import check_seed
from ._core.engine import apply_move, legal_moves, new_game
from ._core.moves import Move
from ._core.rules import PRESETS, RuleSet
from ._core.state import GameState
from .errors import InvalidRulesError

__all__ = ["cards", "presets", "rulesets", "new_games", "game_states", "moves", "MAX_MOVES_LIMIT"]

#: The largest ``max_moves`` that :func:`game_states` accepts: each move is one
#: choice drawn from Hypothesis, and a test case may draw only so many.
MAX_MOVES_LIMIT = 1000

_SEEDS = st.integers(min_value=0, max_value=(1 << 64) - 1)


def cards() -> SearchStrategy[Card]:
    """A strategy for any of the 104 cards; shrinks towards the Ace of clubs of deck 0.

    >>> from hypothesis import given
    >>> from crapette import parse_card
    >>> @given(cards())
    ... def test_notation_round_trips(card):
    ...     assert parse_card(str(card)) is card
    >>> test_notation_round_trips()
    """
    return st.sampled_from(ALL_CARDS)


def presets() -> SearchStrategy[RuleSet]:
    """A strategy for the two presets, :meth:`RuleSet.casual() <crapette.RuleSet.casual>` and :meth:`RuleSet.classic() <crapette.RuleSet.classic>`.

    Shrinks towards casual.

    >>> from hypothesis import given
    >>> @given(presets())
    ... def test_is_a_preset(rules):
    ...     assert rules.preset_name in ("casual", "classic")
    >>> test_is_a_preset()
    """
    return st.sampled_from(tuple(PRESETS.values()))


def _build_rules(options: dict[str, object]) -> RuleSet | None:
    try:
        return RuleSet(**options)  # type: ignore[arg-type]
    except InvalidRulesError:
        return None


def _is_rules(value: RuleSet | None) -> bool:
    return value is not None


def _unwrap(value: RuleSet | None) -> RuleSet:
    assert value is not None
    return value


def rulesets() -> SearchStrategy[RuleSet]:
    """A strategy for any valid :class:`~crapette.RuleSet`: every option is drawn independently.

    Each option is drawn by the strategy its declaration gives
    (:meth:`Option.strategy <crapette.Option.strategy>`): ``reserve_size``
    from 1 to 48, ``move_limit`` None or 1 to 2000, every enum option any of
    its values, every rule part any of crapette's own parts of its kind (the
    built-in ones and those of :mod:`crapette.variants`), ``scoring`` None or a
    scoring with small numbers, ``endings`` up to two of crapette's endings
    beyond the built-in ones, ``revisits`` True or False. To test rules with parts of your own, draw them
    yourself (``st.just(my_rules)``) or use :func:`crapette.testing.check_ruleset`. The few combinations that :class:`~crapette.RuleSet` refuses
    (stack moves with no tableau that builds down in alternating colours) are
    filtered out. Shrinks towards small reserves and the first value of each
    option.

    >>> from hypothesis import given
    >>> from crapette import parse_rules
    >>> @given(rulesets())
    ... def test_rules_text_round_trips(rules):
    ...     assert parse_rules(str(rules)) == rules
    >>> test_rules_text_round_trips()

    .. versionchanged:: 0.3.0
       ``revisits`` is drawn False too: the positions a turn has reached are part of a state's value.
    """
    options = st.fixed_dictionaries({opt.name: opt.strategy() for opt in RuleSet.options()})
    return options.map(_build_rules).filter(_is_rules).map(_unwrap)


def _default_rules() -> SearchStrategy[RuleSet]:
    return presets() | rulesets()


def _check_strategy(name: str, value: object) -> None:
    if not isinstance(value, SearchStrategy):
        raise InvalidArgument(
            f"{name} must be a Hypothesis strategy (e.g. st.just(RuleSet.classic())), got {value!r}"
        )


def new_games(
    *,
    rules: SearchStrategy[RuleSet] | None = None,
    seeds: SearchStrategy[int] | None = None,
) -> SearchStrategy[GameState]:
    """A strategy for freshly dealt games: :func:`~crapette.new_game` of a drawn rule set and seed.

    ``rules`` draws the rule set (default: :func:`presets` or :func:`rulesets`,
    shrinking towards the casual preset); ``seeds`` draws the deal's seed
    (default: any valid seed, shrinking towards 0).

    >>> from hypothesis import given, strategies as st
    >>> from crapette import RuleSet
    >>> @given(new_games(rules=st.just(RuleSet.classic())))
    ... def test_classic_reserves_hold_13(state):
    ...     assert [len(r) for r in state.reserves] == [13, 13]
    >>> test_classic_reserves_hold_13()

    :raises hypothesis.errors.InvalidArgument: if an argument is not a strategy.
    """
    if rules is None:
        rules = _default_rules()
    if seeds is None:
        seeds = _SEEDS
    _check_strategy("rules", rules)
    _check_strategy("seeds", seeds)
    return st.builds(new_game, rules, seeds.map(check_seed))


def _check_moves(name: str, value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidArgument(f"{name} must be an int, got {value!r}")
    if not 0 <= value <= MAX_MOVES_LIMIT:
        raise InvalidArgument(f"{name} must be from 0 to {MAX_MOVES_LIMIT}, got {value!r}")
    return value


@st.composite
def _played_games(
    draw: st.DrawFn, games: SearchStrategy[GameState], min_moves: int, max_moves: int
) -> GameState:
    state = draw(games)
    # The number of moves and each choice come from Hypothesis, so a failing
    # example shrinks towards fewer moves and towards the first legal move.
    count = draw(st.integers(min_value=min_moves, max_value=max_moves))
    for _ in range(count):
        legal = legal_moves(state)
        if not legal:
            break
        choice = draw(st.integers(min_value=0, max_value=len(legal) - 1))
        state = apply_move(state, legal[choice])
    return state


def game_states(
    *,
    rules: SearchStrategy[RuleSet] | None = None,
    min_moves: int = 0,
    max_moves: int = 100,
) -> SearchStrategy[GameState]:
    """A strategy for states reached by random legal play from a new game.

    A game is dealt as by :func:`new_games` (``rules`` as there), then
    ``min_moves`` to ``max_moves`` legal moves are played, each chosen by
    Hypothesis among :func:`~crapette.legal_moves`; play stops early if the
    game ends, so a drawn state may be over. Failing examples shrink towards
    short games and towards the first legal move at each step.
    ``max_moves`` is at most :data:`MAX_MOVES_LIMIT`: every move is one
    choice drawn from Hypothesis, and a test case can hold only so many.

    >>> from hypothesis import given
    >>> from crapette import GameState
    >>> from crapette import parse_position
    >>> @given(game_states(max_moves=50))
    ... def test_positions_round_trip(state):
    ...     assert parse_position(str(state)) == state
    >>> test_positions_round_trip()

    :raises hypothesis.errors.InvalidArgument: if ``rules`` is not a strategy or
        the move bounds are not ints with ``0 <= min_moves <= max_moves <= 1000``.
    """
    low = _check_moves("min_moves", min_moves)
    high = _check_moves("max_moves", max_moves)
    if low > high:
        raise InvalidArgument(f"min_moves={low} must not exceed max_moves={high}")
    return _played_games(new_games(rules=rules), low, high)


def moves(state: GameState) -> SearchStrategy[Move]:
    """A strategy for the legal moves of ``state``; shrinks towards the first of :func:`~crapette.legal_moves`.

    A finished game has no legal move: the strategy is then
    :func:`hypothesis.strategies.nothing`, and a test that draws from it is
    discarded, as with a failed ``assume``. Use it with :func:`hypothesis.strategies.data`
    to walk a game:

    >>> from hypothesis import given, strategies as st
    >>> from crapette import apply_move
    >>> @given(new_games(), st.data())
    ... def test_legal_moves_apply(state, data):
    ...     for _ in range(20):
    ...         if state.is_over:
    ...             break
    ...         state = apply_move(state, data.draw(moves(state)))
    >>> test_legal_moves_apply()

    :raises hypothesis.errors.InvalidArgument: if ``state`` is not a :class:`~crapette.GameState`.
    """
    if not isinstance(state, GameState):
        raise InvalidArgument(f"moves() needs a GameState, got {type(state).__name__}")
    legal = legal_moves(state)
    return st.sampled_from(legal) if legal else st.nothing()


st.register_type_strategy(Card, cards())
st.register_type_strategy(RuleSet, rulesets())
st.register_type_strategy(GameState, game_states())

