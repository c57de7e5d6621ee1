"""Piles, the game state, the outcome of a game, and validation of states."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from ._cards import ALL_CARDS, Card
from ._errors import InvalidStateError, ParseError
from ._rules import Build, LoadTarget, RuleSet

if TYPE_CHECKING:
    from ._moves import Move

__all__ = [
    "EndReason",
    "GameState",
    "Outcome",
    "Pile",
    "PileKind",
    "parse_pile",
    "validate",
]


class PileKind(enum.Enum):
    """The five kinds of pile. The value is the kind's letter in the notation.

    >>> Pile.tableau(3).kind, PileKind("R")
    (PileKind.TABLEAU, PileKind.RESERVE)
    """

    FOUNDATION = "F"
    TABLEAU = "T"
    RESERVE = "R"
    HAND = "H"
    WASTE = "W"

    def __repr__(self) -> str:
        return f"PileKind.{self.name}"


_KIND_BASE = {
    PileKind.FOUNDATION: (0, 8),
    PileKind.TABLEAU: (8, 8),
    PileKind.RESERVE: (16, 2),
    PileKind.HAND: (18, 2),
    PileKind.WASTE: (20, 2),
}

#: Number of piles on the table: 8 foundations, 8 tableau piles, and a reserve,
#: a hand and a waste for each player.
NUM_PILES = 22


@attrs.frozen(init=False, eq=False, repr=False)
class Pile:
    """The address of one of the 22 piles on the table.

    ``index`` is the foundation or tableau number (0-7), or the owning player
    (0 or 1) of a reserve, hand or waste. ``id`` is the pile's position in
    :attr:`GameState.piles`. Piles are interned like cards.

    >>> Pile.tableau(3)
    Pile.tableau(3)
    >>> str(Pile.reserve(1)), Pile.reserve(1).id
    ('R1', 17)
    >>> Pile(PileKind.WASTE, 0) is Pile.waste(0)
    True

    :raises ValueError: if the index is out of range for the kind.
    """

    kind: PileKind
    index: int
    id: int = attrs.field(init=False)

    def __new__(cls, kind: PileKind, index: int) -> Pile:
        if not isinstance(kind, PileKind):
            raise ValueError(f"kind must be a PileKind, got {kind!r}")
        base, count = _KIND_BASE[kind]
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < count:
            raise ValueError(f"a {kind.name.lower()} pile index must be 0 to {count - 1}, got {index!r}")
        return ALL_PILES[base + index]

    def __hash__(self) -> int:
        return self.id

    def __reduce__(self) -> tuple[Any, ...]:
        return (Pile, (self.kind, self.index))

    def __str__(self) -> str:
        return f"{self.kind.value}{self.index}"

    def __repr__(self) -> str:
        return f"Pile.{self.kind.name.lower()}({self.index})"

    @property
    def owner(self) -> int | None:
        """The player a reserve, hand or waste belongs to, or whose deck dealt a tableau pile.

        None for foundations.

        >>> Pile.tableau(5).owner
        1
        """
        if self.kind is PileKind.FOUNDATION:
            return None
        if self.kind is PileKind.TABLEAU:
            return self.index // 4
        return self.index

    @classmethod
    def foundation(cls, index: int) -> Pile:
        """Foundation ``index`` (0-7)."""
        return cls(PileKind.FOUNDATION, index)

    @classmethod
    def tableau(cls, index: int) -> Pile:
        """Tableau pile ``index`` (0-7; 0-3 dealt from player 0's deck, 4-7 from player 1's)."""
        return cls(PileKind.TABLEAU, index)

    @classmethod
    def reserve(cls, player: int) -> Pile:
        """The reserve of ``player``."""
        return cls(PileKind.RESERVE, player)

    @classmethod
    def hand(cls, player: int) -> Pile:
        """The hand of ``player``."""
        return cls(PileKind.HAND, player)

    @classmethod
    def waste(cls, player: int) -> Pile:
        """The waste of ``player``."""
        return cls(PileKind.WASTE, player)


def _make_piles() -> tuple[Pile, ...]:
    piles = []
    for kind, (base, count) in _KIND_BASE.items():
        for index in range(count):
            pile = object.__new__(Pile)
            object.__setattr__(pile, "kind", kind)
            object.__setattr__(pile, "index", index)
            object.__setattr__(pile, "id", base + index)
            piles.append(pile)
    return tuple(piles)


#: The 22 piles in :attr:`GameState.piles` order: F0-F7, T0-T7, R0, R1, H0, H1, W0, W1.
ALL_PILES: tuple[Pile, ...] = _make_piles()
_PILE_TEXT = {str(p): p for p in ALL_PILES}


def parse_pile(text: str) -> Pile:
    """Read a pile: a kind letter and a number, ``F0``-``F7``, ``T0``-``T7``, ``R0``, ``R1``, ``H0``, ``H1``, ``W0``, ``W1``.

    >>> parse_pile("t3")
    Pile.tableau(3)

    :raises ParseError: if the text is not a pile.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_pile() expects a str, got {type(text).__name__}")
    pile = _PILE_TEXT.get(text.strip().upper()) if len(text) < 64 else None
    if pile is None:
        raise ParseError(
            f"invalid pile {text[:64]!r}: expected F0-F7, T0-T7, R0, R1, H0, H1, W0 or W1"
        )
    return pile


class EndReason(str, enum.Enum):
    """Why a game ended. The value is the reason's word in texts and JSON.

    >>> EndReason("blocked"), str(EndReason.MOVE_LIMIT)
    (EndReason.BLOCKED, 'move-limit')
    """

    #: A player emptied reserve, hand and waste.
    EMPTIED = "emptied"
    #: Both players were marked exhausted (the classic stalemate rule).
    STALEMATE = "stalemate"
    #: Two passes in a row: nobody can ever move again (ruling R6).
    BLOCKED = "blocked"
    #: The rules' move limit was reached.
    MOVE_LIMIT = "move-limit"

    def __repr__(self) -> str:
        return f"EndReason.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


def _check_winner(_inst: object, _attr: object, value: int | None) -> None:
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value not in (0, 1)):
        raise ValueError(f"winner must be 0, 1 or None, got {value!r}")


def _to_reason(value: object) -> EndReason:
    if isinstance(value, EndReason):
        return value
    if isinstance(value, str):
        try:
            return EndReason(value)
        except ValueError:
            pass
    choices = ", ".join(repr(r.value) for r in EndReason)
    raise ValueError(f"reason must be an EndReason or one of {choices}, got {value!r}")


def _to_scores(value: object) -> tuple[int, int] | None:
    if value is None:
        return None
    if isinstance(value, (tuple, list)) and len(value) == 2:
        a, b = value
        if all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (a, b)):
            return (a, b)
    raise ValueError(f"scores must be None or a pair of ints >= 0 (player 0's, player 1's), got {value!r}")


@attrs.frozen
class Outcome:
    """How a game ended: the winner (or None), the reason, and the points each player scored.

    ``scores`` is None when the rules have no scoring. ``reason`` may be given
    as its string (``"emptied"``) and ``scores`` as a list.

    >>> outcome = Outcome(winner=0, reason=EndReason.EMPTIED, scores=(53, 0))
    >>> str(outcome)
    'player 0 wins (emptied), 53-0'
    >>> outcome.is_draw
    False

    :raises ValueError: if the winner is not 0, 1 or None, the reason not an
        :class:`EndReason`, or the scores not None or two ints >= 0.
    """

    winner: int | None = attrs.field(validator=_check_winner)
    reason: EndReason = attrs.field(converter=_to_reason)
    scores: tuple[int, int] | None = attrs.field(default=None, converter=_to_scores)

    @property
    def is_draw(self) -> bool:
        """True if nobody won."""
        return self.winner is None

    def __str__(self) -> str:
        head = "draw" if self.winner is None else f"player {self.winner} wins"
        tail = "" if self.scores is None else f", {self.scores[0]}-{self.scores[1]}"
        return f"{head} ({self.reason.value}){tail}"


F0, T0, R0, H0, W0 = 0, 8, 16, 18, 20


def compute_outcome(
    rules: RuleSet,
    piles: tuple[tuple[Card, ...], ...],
    move_count: int,
    passes: int,
    exhausted: tuple[bool, bool],
) -> Outcome | None:
    """The outcome of a position, or None while the game goes on."""
    for player in (0, 1):
        if not (piles[R0 + player] or piles[H0 + player] or piles[W0 + player]):
            return emptied(rules, piles, player)
    if rules.stalemate and exhausted[0] and exhausted[1]:
        return settle(rules, piles, EndReason.STALEMATE)
    if passes >= 2:
        return settle(rules, piles, EndReason.BLOCKED)
    if rules.move_limit is not None and move_count >= rules.move_limit:
        return settle(rules, piles, EndReason.MOVE_LIMIT)
    return None


def emptied(rules: RuleSet, piles: tuple[tuple[Card, ...], ...], player: int) -> Outcome:
    """The outcome of a game that ``player`` won by emptying reserve, hand and waste."""
    scores = None
    if rules.scoring is not None:
        loser = 1 - player
        won = rules.scoring.points_for_win(
            reserve=len(piles[R0 + loser]), hand=len(piles[H0 + loser]), waste=len(piles[W0 + loser])
        )
        scores = (won, 0) if player == 0 else (0, won)
    return Outcome(player, EndReason.EMPTIED, scores)


def settle(rules: RuleSet, piles: tuple[tuple[Card, ...], ...], reason: EndReason) -> Outcome:
    """The outcome of a game that ended without a winner by emptying.

    With scoring, the lower penalty wins the difference; without, it is a draw.
    """
    scoring = rules.scoring
    if scoring is None:
        return Outcome(None, reason, None)
    pen = [
        scoring.penalty(
            reserve=len(piles[R0 + p]), hand=len(piles[H0 + p]), waste=len(piles[W0 + p])
        )
        for p in (0, 1)
    ]
    if pen[0] == pen[1]:
        return Outcome(None, reason, (0, 0))
    winner = 0 if pen[0] < pen[1] else 1
    diff = abs(pen[0] - pen[1])
    return Outcome(winner, reason, (diff, 0) if winner == 0 else (0, diff))


def _to_piles(value: Any) -> Any:
    try:
        return tuple(tuple(pile) for pile in value)
    except TypeError:
        return value


def _to_pair(value: Any) -> Any:
    try:
        return tuple(value)
    except TypeError:
        return value


@attrs.frozen(repr=False)
class GameState:
    """A position: the rules, every pile, whose turn it is and the counters the rules need.

    States are immutable; :func:`~crapette.apply_move` returns a new one and shares
    the unchanged piles with the old one. ``piles`` holds the 22 piles in the
    order of :data:`ALL_PILES`, each a tuple of cards from bottom to top.
    Build a state with :func:`~crapette.new_game`, or by hand with
    :meth:`from_piles` (or this constructor), which validates it.

    >>> from crapette import new_game
    >>> state = new_game(RuleSet.casual(), seed=1)
    >>> state.current_player, state.move_count, state.is_over
    (0, 0, False)
    >>> len(state.reserves[0]), len(state.hands[0]), [len(p) for p in state.tableau]
    (12, 36, [1, 1, 1, 1, 1, 1, 1, 1])

    :raises InvalidStateError: listing every broken invariant (see :func:`validate`).
    """

    rules: RuleSet
    piles: tuple[tuple[Card, ...], ...] = attrs.field(converter=_to_piles)
    #: The player to move (0 or 1).
    current_player: int = 0
    #: Moves made so far, every kind counted.
    move_count: int = 0
    #: True while the card on top of the current player's waste was drawn this turn.
    drawn: bool = False
    #: Consecutive passes just made (0, 1, or 2 when the game ended blocked).
    passes: int = 0
    #: Per player: marked exhausted by the stalemate rule (RULES.md section 9).
    exhausted: tuple[bool, bool] = attrs.field(default=(False, False), converter=_to_pair)
    #: Per player: played a hand (waste) or reserve card since the last turnover of the waste.
    played: tuple[bool, bool] = attrs.field(default=(False, False), converter=_to_pair)
    _outcome: Outcome | None = attrs.field(init=False, default=None, eq=False)
    _legal: tuple[Move, ...] | None = attrs.field(init=False, default=None, eq=False)
    _hash: int | None = attrs.field(init=False, default=None, eq=False)
    # Indexes of the foundations and tableau piles by the card they accept,
    # built by the move generator and handed on to the next state while the
    # piles they describe are unchanged.
    _found: Any = attrs.field(init=False, default=None, eq=False)
    _tabx: Any = attrs.field(init=False, default=None, eq=False)

    def __attrs_post_init__(self) -> None:
        problems = _problems(self)
        if problems:
            raise InvalidStateError(problems)
        # Cards are interned, so the piles hold the shared instances already.
        object.__setattr__(
            self,
            "_outcome",
            compute_outcome(self.rules, self.piles, self.move_count, self.passes, self.exhausted),
        )

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = hash(self._fields())
            object.__setattr__(self, "_hash", h)
        return h

    def _fields(self) -> tuple[Any, ...]:
        """The fields that make the state: what equality compares, in the order of ``__init__``."""
        return (
            self.rules,
            self.piles,
            self.current_player,
            self.move_count,
            self.drawn,
            self.passes,
            self.exhausted,
            self.played,
        )

    def __repr__(self) -> str:
        from ._position import to_position

        return f"GameState.from_position({to_position(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Only the fields travel: the caches are rebuilt on demand, and a cached
        # hash would be wrong in another process (Python salts str hashes).
        return (_restore, (*self._fields(), self._outcome))

    @classmethod
    def from_piles(
        cls,
        rules: RuleSet,
        *,
        foundations: Sequence[Sequence[Card]] = (),
        tableau: Sequence[Sequence[Card]] = (),
        reserves: Sequence[Sequence[Card]] = (),
        hands: Sequence[Sequence[Card]] = (),
        wastes: Sequence[Sequence[Card]] = (),
        current_player: int = 0,
        move_count: int = 0,
        drawn: bool = False,
        passes: int = 0,
        exhausted: tuple[bool, bool] = (False, False),
        played: tuple[bool, bool] = (False, False),
    ) -> GameState:
        """Build a state from piles grouped by kind, each pile listed bottom to top.

        Missing piles are empty: ``foundations`` and ``tableau`` take up to 8
        piles, ``reserves``, ``hands`` and ``wastes`` up to 2 (player 0's first).

        >>> from crapette import ALL_CARDS, legal_moves, parse_card
        >>> ace, two = parse_card("AH0"), parse_card("2H0")
        >>> rest = [c for c in ALL_CARDS if c not in (ace, two)]
        >>> state = GameState.from_piles(
        ...     RuleSet.casual(), foundations=[[ace]], reserves=[[two]], hands=[rest[:50], rest[50:]]
        ... )
        >>> state.top(Pile.reserve(0)), [str(m) for m in legal_moves(state)][:2]
        (parse_card('2H0'), ['R0-F0', 'R0-T0'])

        :raises InvalidStateError: if the state breaks an invariant (see :func:`validate`).
        """
        groups = (
            ("foundations", foundations, 8),
            ("tableau", tableau, 8),
            ("reserves", reserves, 2),
            ("hands", hands, 2),
            ("wastes", wastes, 2),
        )
        piles: list[Any] = []
        for name, group, size in groups:
            group = list(group)
            if len(group) > size:
                raise InvalidStateError([f"{name} takes at most {size} piles, got {len(group)}"])
            piles.extend(group + [()] * (size - len(group)))
        return cls(
            rules, tuple(piles), current_player, move_count, drawn, passes, exhausted, played
        )

    # Position strings -------------------------------------------------------

    def to_position(self) -> str:
        """The whole state as one line of text; :meth:`from_position` reads it back.

        >>> from crapette import new_game
        >>> text = new_game(RuleSet.casual(), seed=1).to_position()
        >>> text[:40]
        'casual 0 0 - F:-/-/-/-/-/-/-/- T:3C0/2D0'
        >>> GameState.from_position(text) == new_game(RuleSet.casual(), seed=1)
        True
        """
        from ._position import to_position

        return to_position(self)

    @classmethod
    def from_position(cls, text: str) -> GameState:
        """Read a position string: nine fields separated by spaces.

        ``<rules> <player> <move count> <flags> F:<piles> T:<piles> R:<piles> H:<piles> W:<piles>``

        - rules: a preset name, optionally followed by the options that differ
          from it in parentheses: ``classic(foundation_plays=optional,move_limit=500)``
          (see :func:`~crapette.rules_to_text`);
        - player: the player to move, ``0`` or ``1``; move count: moves made so far;
        - flags: ``-`` or any of ``d`` (the waste top was drawn this turn),
          ``p`` or ``pp`` (consecutive passes), ``x0``/``x1`` (player marked
          exhausted), ``a0``/``a1`` (player played a hand or reserve card since
          the last turnover);
        - the piles of each kind in the order of :data:`~crapette.ALL_PILES`,
          separated by ``/``; each pile lists its cards bottom to top,
          separated by commas, or is ``-`` when empty.

        ``GameState.from_position(state.to_position()) == state`` for every state.

        :raises ParseError: if the text is malformed (the message says which field).
        :raises InvalidStateError: if it describes an impossible state (duplicate
            or missing cards, an unordered foundation, ...).
        :raises InvalidRulesError: if the rules' options make no sense together.
        """
        from ._position import from_position

        return from_position(text)

    # Derived views -----------------------------------------------------------

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended, or None while it goes on."""
        return self._outcome

    @property
    def is_over(self) -> bool:
        """True once the game has ended: then there is no legal move."""
        return self._outcome is not None

    @property
    def foundations(self) -> tuple[tuple[Card, ...], ...]:
        """The 8 foundations, each bottom to top."""
        return self.piles[0:8]

    @property
    def tableau(self) -> tuple[tuple[Card, ...], ...]:
        """The 8 tableau piles, each bottom to top."""
        return self.piles[8:16]

    @property
    def reserves(self) -> tuple[tuple[Card, ...], ...]:
        """Both reserves (player 0's first), each bottom to top: the last card is face up."""
        return self.piles[16:18]

    @property
    def hands(self) -> tuple[tuple[Card, ...], ...]:
        """Both hands, each bottom to top: the last card is drawn next."""
        return self.piles[18:20]

    @property
    def wastes(self) -> tuple[tuple[Card, ...], ...]:
        """Both wastes, each bottom to top."""
        return self.piles[20:22]

    def cards(self, pile: Pile) -> tuple[Card, ...]:
        """The cards of ``pile``, bottom to top.

        >>> from crapette import new_game
        >>> new_game(RuleSet.casual(), seed=1).cards(Pile.tableau(0))
        (parse_card('3C0'),)

        :raises TypeError: if ``pile`` is not a :class:`Pile` (read text with :func:`parse_pile`).
        """
        try:
            return self.piles[pile.id]
        except AttributeError:
            raise _not_a_pile(pile) from None

    def top(self, pile: Pile) -> Card | None:
        """The top card of ``pile``, or None if it is empty.

        >>> from crapette import new_game
        >>> state = new_game(RuleSet.casual(), seed=1)
        >>> state.top(Pile.reserve(0)), state.top(Pile.waste(0))
        (parse_card('KD0'), None)

        :raises TypeError: if ``pile`` is not a :class:`Pile` (read text with :func:`parse_pile`).
        """
        try:
            cards = self.piles[pile.id]
        except AttributeError:
            raise _not_a_pile(pile) from None
        return cards[-1] if cards else None

    def _repr_svg_(self) -> str:
        """The table as an SVG picture, for Jupyter (see :func:`crapette.svg.render`).

        >>> from crapette import new_game
        >>> new_game("casual", seed=1)._repr_svg_()[:40]
        '<svg xmlns="http://www.w3.org/2000/svg" '
        """
        from .svg import render

        return render(self)


def _not_a_pile(pile: object) -> TypeError:
    return TypeError(f"expected a Pile, got {type(pile).__name__} {pile!r} (use parse_pile to read text)")


def _restore(
    rules: RuleSet,
    piles: tuple[tuple[Card, ...], ...],
    current_player: int,
    move_count: int,
    drawn: bool,
    passes: int,
    exhausted: tuple[bool, bool],
    played: tuple[bool, bool],
    outcome: Outcome | None,
) -> GameState:
    """Unpickle a state: the fields of a valid state, with empty caches."""
    state = object.__new__(GameState)
    for name, value in (
        ("rules", rules),
        ("piles", piles),
        ("current_player", current_player),
        ("move_count", move_count),
        ("drawn", drawn),
        ("passes", passes),
        ("exhausted", exhausted),
        ("played", played),
        ("_outcome", outcome),
        ("_legal", None),
        ("_hash", None),
        ("_found", None),
        ("_tabx", None),
    ):
        object.__setattr__(state, name, value)
    return state


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


def _fits(build: Build, below: Card, above: Card) -> bool:
    if build is Build.DOWN_ALTERNATING:
        return above._colour_rank == below._alt_accepts
    return abs(above._suit_rank - below._suit_rank) == 1


def _problems(state: GameState) -> list[str]:
    problems: list[str] = []
    rules = state.rules
    if not isinstance(rules, RuleSet):
        return [f"rules must be a RuleSet, got {type(rules).__name__}"]
    piles = state.piles
    if not isinstance(piles, tuple) or len(piles) != NUM_PILES:
        return [f"piles must be {NUM_PILES} sequences of cards (F0-F7, T0-T7, R0, R1, H0, H1, W0, W1)"]
    for pile, cards in zip(ALL_PILES, piles):
        for card in cards:
            if not isinstance(card, Card):
                return [f"pile {pile} holds {card!r}, which is not a Card"]
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
    for t in range(8):
        cards = piles[T0 + t]
        builds = {rules.own_tableau_build, rules.opponent_tableau_build}
        for below, above in zip(cards, cards[1:]):
            if not any(_fits(build, below, above) for build in builds):
                problems.append(f"tableau pile T{t} has {above} on {below}, which no building rule allows")
                break
    # Personal piles hold the opponent's cards only where they can be loaded.
    for p in (0, 1):
        allowed = {
            "reserve": LoadTarget.RESERVE in rules.load_targets,
            "hand": LoadTarget.WASTE in rules.load_targets,
            "waste": LoadTarget.WASTE in rules.load_targets,
        }
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

    def is_int(v: object) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if state.current_player not in (0, 1) or not is_int(state.current_player):
        problems.append(f"current_player must be 0 or 1, got {state.current_player!r}")
    if not is_int(state.move_count) or state.move_count < 0:
        problems.append(f"move_count must be an int >= 0, got {state.move_count!r}")
    elif rules.move_limit is not None and state.move_count > rules.move_limit:
        problems.append(f"move_count {state.move_count} is past the move limit {rules.move_limit}")
    if not is_int(state.passes) or not 0 <= state.passes <= 2:
        problems.append(f"passes must be 0, 1 or 2, got {state.passes!r}")
    if not isinstance(state.drawn, bool):
        problems.append(f"drawn must be True or False, got {state.drawn!r}")
    for name in ("exhausted", "played"):
        pair = getattr(state, name)
        if not (isinstance(pair, tuple) and len(pair) == 2 and all(isinstance(b, bool) for b in pair)):
            problems.append(f"{name} must be a pair of bools, got {pair!r}")
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
    return problems
