"""The game state, how a game ends, and validation of states (the piles are in ``crapette._core.piles``)."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Union, cast

import attrs

from ..errors import InvalidRulesError, InvalidStateError, ParseError
from .cards import ALL_CARDS, Card, parse_card
from .messages import brief, repr_pretty
from .moves import Move
from .outcome import MAX_NUMBER, EndReason, Outcome, check_number
from .piles import ALL_PILES, F0, H0, NUM_PILES, R0, T0, W0, Pile, PileKind, parse_pile
from .rules import LoadTarget, RuleSet, to_rules

__all__ = [
    "ALL_PILES",
    "EndReason",
    "F0",
    "GameState",
    "H0",
    "MAX_TURN_MOVES",
    "NUM_PILES",
    "Outcome",
    "Pile",
    "PileKind",
    "R0",
    "T0",
    "W0",
    "game_end",
    "parse_pile",
    "settle",
    "validate",
]


def game_end(state: GameState) -> Outcome | None:
    """How the game ends in ``state``, or None while it goes on: the one place that decides it.

    A player whose reserve, hand and waste are all empty wins. Otherwise the
    endings in force (:attr:`RuleSet.ending_rules <crapette.RuleSet.ending_rules>`:
    stalemate, R6, the rules' own endings, the move limit) are asked in that
    order and the first that fires decides (ruling R9); last, a game that has
    reached move :data:`~crapette.MAX_NUMBER` ends as by a move limit. The engine calls this
    after a move that may have ended the game; :class:`GameState` calls it when
    it is built.
    """
    rules = state.rules
    piles = state.piles
    for player in (0, 1):
        if not (piles[R0 + player] or piles[H0 + player] or piles[W0 + player]):
            return won(rules, piles, player)
    counters = state.counters
    # The rules' own endings follow the built-in stalemate and R6 and keep the counters.
    first = 2 if rules.stalemate else 1
    for i, ending in enumerate(rules.ending_rules):
        j = i - first
        count = counters[j] if 0 <= j < len(counters) else 0
        if ending.ends(count, state):
            # An ending of the rules' own names itself in the outcome (Outcome.ending).
            return settle(rules, piles, ending.reason, str(ending) if 0 <= j < len(rules.endings) else None)
    if state.move_count >= MAX_NUMBER:
        # The bound on the move count ends any game as a move limit would (docs/rules.rst).
        return settle(rules, piles, EndReason.MOVE_LIMIT)
    return None


def _left(piles: tuple[tuple[Card, ...], ...], player: int) -> dict[str, int]:
    return {"reserve": len(piles[R0 + player]), "hand": len(piles[H0 + player]), "waste": len(piles[W0 + player])}


def _points(rules: RuleSet, what: str, value: object) -> int:
    problem = check_number(f"the {what} of the scoring {rules.scoring}", value)
    if problem:
        raise InvalidRulesError(problem)
    return int(cast(int, value))


def won(rules: RuleSet, piles: tuple[tuple[Card, ...], ...], player: int) -> Outcome:
    """The outcome of a game that ``player`` won by emptying reserve, hand and waste."""
    scores = None
    if rules.scoring is not None:
        points = _points(rules, "points for a win", rules.scoring.points_for_win(**_left(piles, 1 - player)))
        scores = (points, 0) if player == 0 else (0, points)
    return Outcome(player, EndReason.EMPTIED, scores)


def settle(
    rules: RuleSet, piles: tuple[tuple[Card, ...], ...], reason: EndReason, ending: str | None = None
) -> Outcome:
    """The outcome of a game that ended without a winner by emptying (``ending``: see :attr:`Outcome.ending`).

    With scoring, the lower penalty wins the difference; without, it is a draw.
    """
    scoring = rules.scoring
    if scoring is None:
        return Outcome(None, reason, None, ending)
    pen = [_points(rules, "penalty", scoring.penalty(**_left(piles, p))) for p in (0, 1)]
    if pen[0] == pen[1]:
        return Outcome(None, reason, (0, 0), ending)
    winner = 0 if pen[0] < pen[1] else 1
    diff = abs(pen[0] - pen[1])
    return Outcome(winner, reason, (diff, 0) if winner == 0 else (0, diff), ending)


def _to_rules(value: object) -> RuleSet:
    try:
        return to_rules(value, "GameState()")
    except TypeError as exc:
        raise InvalidStateError(str(exc)) from None


def _to_piles(value: Any) -> Any:
    if isinstance(value, (str, bytes)):
        return value
    try:
        return tuple(pile if type(pile) is tuple else tuple(pile) for pile in value)
    except TypeError:
        return value


def _to_tuple(value: Any) -> Any:
    if isinstance(value, (str, bytes)):
        return value
    try:
        return tuple(value)
    except TypeError:
        return value


class _EngineSlot:
    # The engine's own slot, outside the attrs fields: a list made for each
    # state (never shared) holding what the engine derives from the fields.
    __slots__ = ("_engine",)
    _engine: list[Any]


# Positions in a state's engine list, all derived from the fields: how the game
# ended, the legal moves, the hash, the engine's foundation index, its tableau
# index for each player, and under revisits=false the shape keys of the
# tableaux the turn has reached before this one (SEEN) and of this one (SHAPE)
# (see crapette._core.engine.shape_key). raw_state builds the list.
OUTCOME, LEGAL, HASH, FOUND, TAB0, TAB1, SEEN, SHAPE = CACHE_LAYOUT = range(8)

#: The most moves between tableau piles a turn may make in a row under
#: ``revisits=False`` (see :attr:`GameState.turn_moves`): far beyond any real
#: turn, it bounds what a state remembers, so every state can be written.
MAX_TURN_MOVES = 1000

# The state's memory is checked against the rules by the engine (it replays the
# turn's moves), which this module cannot import: the engine registers the check.
_turn_checks: list[Callable[[GameState], str]] = []


def register_turn_check(check: Callable[[GameState], str]) -> None:
    """Let :func:`validate` ask ``check(state)`` what is wrong with ``state.turn_moves`` ("" if nothing).

    The engine registers its replay of the turn's moves when it is imported.
    """
    _turn_checks[:] = [check]


#: A pile written for :meth:`GameState.from_piles`: cards (or their notation), or one string of card notations.
PileSpec = Union[str, Iterable[Union[Card, str]]]
#: A group of piles for :meth:`GameState.from_piles`: a sequence (pile 0, 1, ...) or a mapping from index to pile.
GroupSpec = Union[Sequence[PileSpec], Mapping[int, PileSpec]]

_REST_KINDS = {"hand": H0, "waste": W0, "reserve": R0}


@attrs.frozen(repr=False)
class GameState(_EngineSlot):
    """A position: the rules, every pile, whose turn it is and the counters the rules need.

    States are immutable; :func:`~crapette.apply_move` returns a new one and shares
    the unchanged piles with the old one. ``piles`` holds the 22 piles in the
    order of :data:`ALL_PILES`, each a tuple of cards from bottom to top.
    Build a state with :func:`~crapette.new_game`, by hand with
    :meth:`from_piles`, from text with :func:`~crapette.parse_position`, or
    with this constructor; all of them validate it. ``str(state)`` is its
    position string.

    >>> from crapette import new_game
    >>> state = new_game(RuleSet.casual(), seed=1)
    >>> state.current_player, state.move_count, state.is_over
    (0, 0, False)
    >>> len(state.reserves[0]), len(state.hands[0]), [len(p) for p in state.tableau]
    (12, 36, [1, 1, 1, 1, 1, 1, 1, 1])

    A state also remembers what the public history showed and, under
    ``revisits=False``, the positions its turn has reached (the last four
    fields, :ref:`section 12 of the rules <rules-12>`): they are part of its
    value, so two equal states play alike in every respect and a state read
    back from its position string plays as the original. Left out, nothing is
    remembered beyond what the piles show.

    :raises InvalidStateError: listing every broken invariant (see :func:`validate`).

    .. versionchanged:: 0.3.0
       ``hand_known``, ``reserve_known``, ``from_deal`` and ``turn_moves``.
    """

    #: The rules in force (a rules text is read with :func:`~crapette.parse_rules`).
    rules: RuleSet = attrs.field(converter=_to_rules)
    #: The 22 piles in :data:`ALL_PILES` order, each bottom to top.
    piles: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_piles)
    #: The player to move (0 or 1).
    current_player: int = 0
    #: Moves made so far, every kind counted.
    move_count: int = 0
    #: True while the card on top of the current player's waste was drawn this turn.
    drawn: bool = False
    #: Consecutive passes just made (0, 1, or 2 when the game ended blocked).
    passes: int = 0
    #: Per player: marked exhausted by the stalemate rule (:ref:`section 9 of the rules <rules-9>`).
    exhausted: tuple[bool, bool] = attrs.field(default=(False, False), converter=_to_tuple)
    #: Per player: played a hand (waste) or reserve card since the last turnover of the waste.
    played: tuple[bool, bool] = attrs.field(default=(False, False), converter=_to_tuple)
    #: The count each ending of ``rules.endings`` keeps, in order (see
    #: :class:`~crapette.Ending`); empty when the rules have none. Left empty,
    #: it is filled with zeros.
    counters: tuple[int, ...] = attrs.field(default=(), converter=_to_tuple)
    #: Per player: True when the order of the hand is known to both players,
    #: because the hand was formed by turning the (face-up) waste over; always
    #: False for an empty hand (:ref:`section 12 of the rules <rules-12>`).
    hand_known: tuple[bool, bool] = attrs.field(default=(False, False), converter=_to_tuple)
    #: Per player: how many cards under the reserve's face-up top card are known,
    #: because they lay face up on top before cards loaded onto the reserve
    #: covered them; 0 for an empty reserve, at most its size less one.
    reserve_known: tuple[int, int] = attrs.field(default=(0, 0), converter=_to_tuple)
    #: True when the game was followed from its deal (:func:`~crapette.new_game`,
    #: then moves): every card nobody has seen then lies where it was dealt, in
    #: its owner's reserve or hand. False for a position known only by its piles.
    from_deal: bool = False
    #: Under ``revisits=False``: the moves between tableau piles made in a row
    #: since the turn's last other move, first to last. They name the positions
    #: the turn has reached, which no move may recreate; always empty under
    #: ``revisits=True`` (at most :data:`MAX_TURN_MOVES`).
    turn_moves: tuple[Move, ...] = attrs.field(default=(), converter=_to_tuple)

    def __attrs_post_init__(self) -> None:
        if self.counters == () and isinstance(self.rules, RuleSet) and self.rules.endings:
            object.__setattr__(self, "counters", (0,) * len(self.rules.endings))
        problems = _problems(self)
        if problems:
            raise InvalidStateError(problems)
        object.__setattr__(self, "_engine", [None] * len(CACHE_LAYOUT))
        self._engine[OUTCOME] = game_end(self)

    def __hash__(self) -> int:
        cache = self._engine
        h = cache[HASH]
        if h is None:
            h = cache[HASH] = hash(self._fields())
        return h  # type: ignore[no-any-return]

    def _fields(self) -> tuple[Any, ...]:
        """The fields that make the state: what equality compares, in the order of ``__init__``."""
        fields: tuple[Any, ...] = get_fields(self)
        return fields

    def __str__(self) -> str:
        from .._formats.position import to_position

        return to_position(self)

    def __repr__(self) -> str:
        return f"parse_position({str(self)!r})"

    _repr_pretty_ = repr_pretty

    def __copy__(self) -> GameState:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> GameState:
        # A state never changes, so a copy of it is itself.
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        # Only the fields and the outcome travel: the rest of the engine's list
        # is rebuilt on demand, and a cached hash would be wrong in another
        # process (Python salts str hashes).
        return (restore_state, (*self._fields(), self._engine[OUTCOME]))

    @classmethod
    def from_piles(
        cls,
        rules: RuleSet | str,
        *,
        foundations: GroupSpec = (),
        tableau: GroupSpec = (),
        reserves: GroupSpec = (),
        hands: GroupSpec = (),
        wastes: GroupSpec = (),
        rest: str | None = None,
        current_player: int = 0,
        move_count: int = 0,
        drawn: bool = False,
        passes: int = 0,
        exhausted: tuple[bool, bool] = (False, False),
        played: tuple[bool, bool] = (False, False),
        counters: tuple[int, ...] = (),
        hand_known: tuple[bool, bool] = (False, False),
        reserve_known: tuple[int, int] = (0, 0),
        from_deal: bool = False,
        turn_moves: tuple[Move, ...] = (),
    ) -> GameState:
        """Build a state from the piles you name, grouped by kind, each pile listed bottom to top.

        Each group is a sequence (pile 0, 1, ...) or a mapping from a pile's
        index to the pile: ``foundations`` and ``tableau`` take indexes 0-7,
        ``reserves``, ``hands`` and ``wastes`` 0 and 1 (the player). A pile is
        a sequence of :class:`~crapette.Card` values or notations, or one string
        of notations (``"AH0 2H0"``); piles not named are empty.

        With ``rest=None`` every one of the 104 cards must be placed. With
        ``rest="hand"`` (or ``"waste"``, ``"reserve"``) each card you do not
        place goes under the named cards of that pile of its deck's player, in
        the order of :data:`~crapette.ALL_CARDS`: under the hand, it is drawn
        only after the hand cards you named, and it counts in the pile's size,
        so in scores, in who has emptied their piles, and for the stalemate
        rule; nothing else. The rules may be a :class:`~crapette.RuleSet` or a
        rules text. The other arguments are the fields of :class:`GameState`
        of the same names; left out, nothing is known beyond what the piles
        show.

        >>> from crapette import legal_moves
        >>> state = GameState.from_piles(
        ...     "casual", foundations={0: "AH0"}, reserves=["2H0", "5D1"],
        ...     tableau={0: "KS0", 4: "KD1"}, rest="hand",
        ... )
        >>> state.top(Pile.reserve(0)), [str(m) for m in legal_moves(state)][:3]
        (parse_card('2H0'), ['R0-F0', 'R0-T1', 'R0-T2'])
        >>> len(state.hands[0]), len(state.hands[1])
        (48, 49)

        :raises InvalidStateError: if a pile is malformed, a card is placed
            twice, cards are missing with ``rest=None``, or the state breaks an
            invariant (see :func:`validate`).
        :raises InvalidRulesError: if ``rules`` is a rules text naming impossible rules.
        :raises ParseError: if ``rules`` or a card's notation is malformed.
        """
        rules = to_rules(rules, "from_piles()")
        groups = (
            ("foundations", foundations, F0, 8),
            ("tableau", tableau, T0, 8),
            ("reserves", reserves, R0, 2),
            ("hands", hands, H0, 2),
            ("wastes", wastes, W0, 2),
        )
        piles: list[tuple[Card, ...]] = [()] * NUM_PILES
        for name, group, base, size in groups:
            for index, spec in _group_items(name, group, size):
                piles[base + index] = _pile_cards(f"{name}[{index}]", spec)
        if rest is not None:
            under = _REST_KINDS.get(rest) if isinstance(rest, str) else None
            if under is None:
                raise InvalidStateError(f"rest must be None, 'hand', 'waste' or 'reserve', got {brief(rest)}")
            placed = {card for pile in piles for card in pile}
            for player in (0, 1):
                left = tuple(c for c in ALL_CARDS[52 * player : 52 * player + 52] if c not in placed)
                piles[under + player] = left + piles[under + player]
        return cls(
            rules, tuple(piles), current_player, move_count, drawn, passes, exhausted, played, counters,
            hand_known, reserve_known, from_deal, turn_moves,
        )

    # Position strings -------------------------------------------------------

    def to_position(self) -> str:
        """The position string: the same as ``str(state)``.

        .. deprecated:: 0.2.0
           Write ``str(state)``; :func:`~crapette.parse_position` reads it.
        """
        deprecated("GameState.to_position()", "str(state)")
        return str(self)

    @classmethod
    def from_position(cls, text: str) -> GameState:
        """Read a position string: the same as :func:`~crapette.parse_position`.

        .. deprecated:: 0.2.0
           Use :func:`~crapette.parse_position`.
        """
        from .._formats.position import parse_position

        deprecated("GameState.from_position()", "parse_position(text)")
        return parse_position(text)

    # Derived views -----------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on (ruling R9)."""
        return self._engine[OUTCOME]  # type: ignore[no-any-return]

    @property
    def is_over(self) -> bool:
        """True once the game has ended: then there is no legal move."""
        return self._engine[OUTCOME] is not None

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        """The 8 foundations, each bottom to top."""
        return self.piles[F0 : F0 + 8]

    @property
    def tableau(self) -> tuple[tuple[Card, ...], ...]:
        """The 8 tableau piles, each bottom to top."""
        return self.piles[T0 : T0 + 8]

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        """Both reserves (player 0's first), each bottom to top: the last card is face up."""
        return self.piles[R0 : R0 + 2]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Both hands, each bottom to top: the last card is drawn next."""
        return self.piles[H0 : H0 + 2]

    @property
    def wastes(self) -> tuple[tuple[Card, ...], ...]:
        """Both wastes, each bottom to top."""
        return self.piles[W0 : W0 + 2]

    def cards(self, pile: Pile) -> tuple[Card, ...]:
        """The cards of ``pile``, bottom to top.

        >>> from crapette import new_game
        >>> new_game(RuleSet.casual(), seed=1).cards(Pile.tableau(0))
        (parse_card('3C0'),)

        :raises TypeError: if ``pile`` is not a :class:`Pile` (read text with :func:`parse_pile`).
        """
        if type(pile) is not Pile:
            raise _not_a_pile(pile)
        return self.piles[pile.id]

    def top(self, pile: Pile) -> Card | None:
        """The top card of ``pile``, or None if it is empty.

        >>> from crapette import new_game
        >>> state = new_game(RuleSet.casual(), seed=1)
        >>> state.top(Pile.reserve(0)), state.top(Pile.waste(0))
        (parse_card('KD0'), None)

        :raises TypeError: if ``pile`` is not a :class:`Pile` (read text with :func:`parse_pile`).
        """
        if type(pile) is not Pile:
            raise _not_a_pile(pile)
        cards = self.piles[pile.id]
        return cards[-1] if cards else None

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, for Jupyter (see :func:`crapette.svg.render`).

        >>> from crapette import new_game
        >>> new_game("casual", seed=1)._repr_svg_()[:40]
        '<svg xmlns="http://www.w3.org/2000/svg" '
        """
        from ..svg import render

        return render(self)


# The raw constructor ---------------------------------------------------------------
# GameState's fields are declared once, by the class; everything else that
# builds or takes apart a state goes through these, in the class's order.

#: The fields of a state as a tuple, in the order of ``GameState.__init__``.
get_fields = operator.attrgetter(*(field.name for field in attrs.fields(GameState)))
_new = object.__new__
(
    _set_rules,
    _set_piles,
    _set_player,
    _set_count,
    _set_drawn,
    _set_passes,
    _set_exhausted,
    _set_played,
    _set_counters,
    _set_hand_known,
    _set_reserve_known,
    _set_from_deal,
    _set_turn_moves,
) = (getattr(GameState, field.name).__set__ for field in attrs.fields(GameState))
_set_engine = getattr(GameState, "_engine").__set__
#: Sets a state's ``counters`` in place: for the engine, on a state it has just made.
set_counters = _set_counters


def raw_state(
    rules: RuleSet,
    piles: tuple[tuple[Card, ...], ...],
    current_player: int,
    move_count: int,
    drawn: bool,
    passes: int,
    exhausted: tuple[bool, bool],
    played: tuple[bool, bool],
    counters: tuple[int, ...],
    hand_known: tuple[bool, bool],
    reserve_known: tuple[int, int],
    from_deal: bool,
    turn_moves: tuple[Move, ...],
    outcome: Outcome | None = None,
    found: Any = None,
    tab0: Any = None,
    tab1: Any = None,
    seen: Any = None,
    shape: Any = None,
) -> GameState:
    """A state from the fields of a valid one, positionally, without validation or attrs.

    The one way the engine, unpickling and the search build states: the
    fields in :class:`GameState`'s order, then what the engine list starts
    with (the outcome if known, and what the engine carries over from the
    state before: its foundation and tableau indexes, and the shape keys of
    the turn's tableaux; the rest is worked out on demand). Nothing is
    checked: the caller vouches for a valid state.
    """
    state = _new(GameState)
    _set_rules(state, rules)
    _set_piles(state, piles)
    _set_player(state, current_player)
    _set_count(state, move_count)
    _set_drawn(state, drawn)
    _set_passes(state, passes)
    _set_exhausted(state, exhausted)
    _set_played(state, played)
    _set_counters(state, counters)
    _set_hand_known(state, hand_known)
    _set_reserve_known(state, reserve_known)
    _set_from_deal(state, from_deal)
    _set_turn_moves(state, turn_moves)
    _set_engine(state, [outcome, None, None, found, tab0, tab1, seen, shape])
    return state


def restore_state(*args: Any) -> GameState:
    """A state from the fields and the outcome that ``GameState.__reduce__`` gives: unpickling."""
    return raw_state(*args)


def _raw_state(*args: Any) -> GameState:
    # What pickles made by 0.2 name: the nine fields of then, the outcome, three
    # engine indexes and (since 0.2.1) what the history made known, as
    # (hand 0 known, hand 1 known, known reserve 0 cards, reserve 1's, from the deal).
    fields, outcome = args[:9], args[9] if len(args) > 9 else None
    piles = fields[1]
    h0, h1, k0, k1, dealt = args[13] if len(args) > 13 and args[13] is not None else (False, False, 1, 1, False)
    known = (bool(h0 and piles[H0]), bool(h1 and piles[H0 + 1]))
    counts = (max(0, min(k0, len(piles[R0])) - 1), max(0, min(k1, len(piles[R0 + 1])) - 1))
    return raw_state(*(*fields, known, counts, dealt, (), outcome))


#: What the oldest pickles name.
_restore = _raw_state


def deprecated(old: str, new: str) -> None:
    import warnings

    warnings.warn(f"{old} is deprecated since 0.2.0: use {new}", DeprecationWarning, stacklevel=3)


def _group_items(name: str, group: object, size: int) -> list[tuple[int, object]]:
    if isinstance(group, Mapping):
        items = list(group.items())
    elif isinstance(group, (str, bytes)) or not isinstance(group, Iterable):
        raise InvalidStateError(f"{name} must be a sequence of piles or a mapping from index to pile, got {type(group).__name__}")
    else:
        items = list(enumerate(group))
    if len(items) > size:
        raise InvalidStateError(f"{name} takes at most {size} piles, got {len(items)}")
    for index, _ in items:
        if type(index) is not int or not 0 <= index < size:
            raise InvalidStateError(f"{name} has piles 0 to {size - 1}, got index {brief(index)}")
    return items


def _pile_cards(where: str, spec: object) -> tuple[Card, ...]:
    if isinstance(spec, str):
        spec = spec.replace(",", " ").split()
    if isinstance(spec, bytes) or not isinstance(spec, Iterable):
        raise InvalidStateError(f"{where} must be cards or a string of card notations, got {type(spec).__name__}")
    cards = []
    for item in spec:
        if isinstance(item, Card):
            cards.append(item)
        elif isinstance(item, str):
            try:
                cards.append(parse_card(item))
            except ParseError as exc:
                raise InvalidStateError(f"{where}: {exc}") from None
        else:
            raise InvalidStateError(f"{where} holds {type(item).__name__} {brief(item)}, which is not a card")
    return tuple(cards)




def _not_a_pile(pile: object) -> TypeError:
    return TypeError(f"expected a Pile, got {type(pile).__name__} {brief(pile)} (use parse_pile to read text)")


def validate(state: GameState) -> None:
    """Check every invariant of ``state``; raise :class:`InvalidStateError` listing all that fail.

    The invariants: each of the 104 cards lies in exactly one pile; every
    foundation is an Ace then the same suit upwards; every tableau pile is built
    by the rules' building rules; a reserve, hand or waste holds the opponent's
    cards only where the rules let them be loaded; the counters are in range
    and consistent with each other and with the rules.

    States made by :func:`~crapette.new_game`, :func:`~crapette.apply_move` and
    the constructors always pass; this is for checking states made some other
    way (and for testing the engine itself).

    >>> from crapette import new_game
    >>> validate(new_game(RuleSet.classic(), seed=3))  # passes silently

    :raises InvalidStateError: listing every broken invariant.
    :raises TypeError: if ``state`` is not a :class:`GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"validate() expects a GameState, got {type(state).__name__}")
    problems = _problems(state)
    if problems:
        raise InvalidStateError(problems)


def _is_int(value: object, low: int, high: int) -> bool:
    return type(value) is int and low <= value <= high


def _problems(state: GameState) -> list[str]:
    problems: list[str] = []
    rules = state.rules
    if not isinstance(rules, RuleSet):
        return [f"rules must be a RuleSet, got {type(rules).__name__}"]
    piles = state.piles
    if type(piles) is not tuple or len(piles) != NUM_PILES or any(type(p) is not tuple for p in piles):
        return [f"piles must be {NUM_PILES} sequences of cards (F0-F7, T0-T7, R0, R1, H0, H1, W0, W1)"]
    for pile, cards in zip(ALL_PILES, piles):
        for card in cards:
            if type(card) is not Card:
                return [f"pile {pile} holds {brief(card)}, which is not a Card"]
    # Card conservation.
    seen: dict[Card, Pile] = {}
    for pile, cards in zip(ALL_PILES, piles):
        for card in cards:
            if card in seen:
                problems.append(f"card {card} is in both {seen[card]} and {pile}")
            else:
                seen[card] = pile
    if len(seen) != len(ALL_CARDS):
        missing = [str(c) for c in ALL_CARDS if c not in seen]
        problems.append(f"{len(missing)} card(s) missing: {' '.join(missing[:12])}"
                        + (" ..." if len(missing) > 12 else ""))
    # Foundations: an Ace, then the same suit upwards.
    for f in range(8):
        cards = piles[F0 + f]
        if cards and cards[0].rank != 1:
            problems.append(f"foundation F{f} starts with {cards[0]}, not an Ace")
        for below, above in zip(cards, cards[1:]):
            if above.suit is not below.suit or above.rank != below.rank + 1:
                problems.append(f"foundation F{f} has {above} on {below}")
                break
    # Tableau: every card on the one below it by a building rule that applies to the pile.
    builds = (rules.own_tableau_build, rules.opponent_tableau_build)
    for t in range(8):
        cards = piles[T0 + t]
        for below, above in zip(cards, cards[1:]):
            if not any(build.accepts(below, above) for build in builds):
                problems.append(f"tableau pile T{t} has {above} on {below}, which no building rule allows")
                break
    # Personal piles hold the opponent's cards only where they can be loaded.
    allowed = {
        "reserve": LoadTarget.RESERVE in rules.load_targets,
        "hand": LoadTarget.WASTE in rules.load_targets,
        "waste": LoadTarget.WASTE in rules.load_targets,
    }
    for p in (0, 1):
        for name, base in (("reserve", R0), ("hand", H0), ("waste", W0)):
            if allowed[name]:
                continue
            foreign = [str(c) for c in piles[base + p] if c.deck != p]
            if foreign:
                problems.append(
                    f"player {p}'s {name} holds {' '.join(foreign)} from the other deck, "
                    "which these rules never put there"
                )
    # Counters.
    before = len(problems)
    if not _is_int(state.current_player, 0, 1):
        problems.append(f"current_player must be 0 or 1, got {brief(state.current_player)}")
    if not _is_int(state.move_count, 0, MAX_NUMBER):
        big = type(state.move_count) is int and state.move_count > MAX_NUMBER
        problems.append(check_number("move_count", state.move_count) if big else f"move_count must be an int >= 0, got {brief(state.move_count)}")
    elif rules.move_limit is not None and state.move_count > rules.move_limit:
        problems.append(f"move_count {state.move_count} is past the move limit {rules.move_limit}")
    if not _is_int(state.passes, 0, 2):
        problems.append(f"passes must be 0, 1 or 2, got {brief(state.passes)}")
    if type(state.drawn) is not bool:
        problems.append(f"drawn must be True or False, got {brief(state.drawn)}")
    for name in ("exhausted", "played"):
        pair = getattr(state, name)
        if not (type(pair) is tuple and len(pair) == 2 and all(type(b) is bool for b in pair)):
            problems.append(f"{name} must be a pair of bools, got {brief(pair)}")
    for name, pair, kind in (("hand_known", state.hand_known, bool), ("reserve_known", state.reserve_known, int)):
        if not (type(pair) is tuple and len(pair) == 2 and all(type(x) is kind for x in pair)):
            problems.append(f"{name} must be a pair of {kind.__name__}s, got {brief(pair)}")
    if type(state.from_deal) is not bool:
        problems.append(f"from_deal must be True or False, got {brief(state.from_deal)}")
    if type(state.turn_moves) is not tuple:
        problems.append(f"turn_moves must be a tuple of moves, got {brief(state.turn_moves)}")
    counters = state.counters
    if not (type(counters) is tuple and all(_is_int(c, 0, MAX_NUMBER) for c in counters)):
        problems.append(f"counters must be a tuple of ints from 0 to {MAX_NUMBER}, got {brief(counters)}")
    elif len(counters) != len(rules.endings):
        problems.append(
            f"counters holds {len(counters)} count(s) but the rules have {len(rules.endings)} ending(s) that keep one"
        )
    if len(problems) > before:
        # The checks below need well-typed counters; the card checks above do not.
        return problems
    player = state.current_player
    if state.drawn and not piles[W0 + player]:
        problems.append(f"drawn is set but player {player}'s waste is empty")
    if state.drawn and state.passes:
        problems.append("drawn is set although the last move was a pass")
    if not rules.stalemate and (any(state.exhausted) or any(state.played)):
        problems.append("exhausted and played marks are kept only under the stalemate rule, which is off")
    for p in (0, 1):
        if state.exhausted[p] and state.played[p]:
            problems.append(f"player {p} is marked exhausted but has played a card since the turnover")
        if not (piles[R0 + p] or piles[H0 + p] or piles[W0 + p]) and not (
            piles[R0 + 1 - p] or piles[H0 + 1 - p] or piles[W0 + 1 - p]
        ):
            problems.append("both players have emptied reserve, hand and waste")
            break
    return problems + _memory_problems(state, sound=not problems)


def _memory_problems(state: GameState, sound: bool) -> list[str]:
    """What is impossible in what ``state`` remembers, given its piles and rules (section 12 of the rules)."""
    problems: list[str] = []
    rules, piles = state.rules, state.piles
    for p in (0, 1):
        hand, reserve = piles[H0 + p], piles[R0 + p]
        if state.hand_known[p] and not hand:
            problems.append(f"hand_known[{p}] is set but player {p}'s hand is empty")
        known = state.reserve_known[p]
        if not 0 <= known <= max(0, len(reserve) - 1):
            problems.append(
                f"reserve_known[{p}] is {known}, but player {p}'s reserve has {len(reserve)} card(s): "
                f"at most {max(0, len(reserve) - 1)} can be known under its top"
            )
        elif known and LoadTarget.RESERVE not in rules.load_targets:
            problems.append(
                f"reserve_known[{p}] is {known}, but only a card loaded onto a reserve covers a known card, "
                "and these rules never load a reserve"
            )
        elif state.from_deal:
            # Followed from the deal, a card nobody has seen lies where it was dealt.
            unseen = reserve[: len(reserve) - 1 - known] + (() if state.hand_known[p] else hand)
            foreign = [str(c) for c in unseen if c.deck != p]
            if foreign:
                problems.append(
                    f"from_deal is set, but player {p}'s face-down cards that nobody has seen hold "
                    f"{' '.join(foreign[:6])}{' ...' if len(foreign) > 6 else ''} from the other deck, "
                    "which only a seen load could have put there"
                )
    moves = state.turn_moves
    if moves:
        if rules.revisits:
            problems.append("turn_moves is kept only under revisits=false")
        elif len(moves) > MAX_TURN_MOVES:
            problems.append(f"turn_moves holds {len(moves)} moves, more than MAX_TURN_MOVES ({MAX_TURN_MOVES})")
        elif state.passes:
            problems.append("turn_moves is not empty although the last move was a pass")
        elif len(moves) > state.move_count:
            problems.append(f"turn_moves holds {len(moves)} moves but only {state.move_count} were made")
        elif sound and not problems:
            # The turn's moves are replayed only on a state sound in every other respect.
            for check in _turn_checks:
                problem = check(state)
                if problem:
                    problems.append(problem)
    return problems
