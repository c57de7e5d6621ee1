"""Rule parts: the named pieces of a rule set that users may write and register.

Four kinds of part plug into a :class:`~crapette.RuleSet`, each a small class
with a registered ``name`` and one or two hooks:

- :class:`Build`: how a card builds on a pile (``accepts(below, card)``);
- :class:`FirstPlayer`: who moves first (``who_starts(deal, seed)``);
- :class:`Scoring`: how cards left are weighed and a match is won (``penalty``);
- :class:`Ending`: a condition that ends the game (``ends(count, state)``).

A part is a value: immutable, equal to another of the same class with the
same parameters, and written in texts as its name followed by its parameters
(``weighted:30:2:1:1:150``; a bare name takes every default). :func:`register`
makes a part class known by its name, so that rules texts, positions and
records can name it.

The hooks of a part of one's own are checked wherever they are called: an
exception they raise, or an answer of the wrong type or out of range, is a
:class:`~crapette.RulePartError` naming the part and the hook. A building
rule is tried on every pair of cards and a scoring on a grid of counts when a
:class:`~crapette.RuleSet` is made; a first-player rule and endings on a few
deals (each dealt twice: the answers must agree) and a few moves the first
time the engine plays the rules (:func:`~crapette.new_game`,
:func:`~crapette.legal_moves`), before a game of them goes on. crapette's own
parts are trusted and called as they are, so they cost nothing more.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

import attrs

from ..errors import InvalidRulesError
from .cards import ALL_CARDS, Card
from .hooks import CHECKS, guard, hook_error
from .messages import brief, repr_pretty
from .outcome import EndReason, check_number

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from .moves import Move
    from .state import GameState

__all__ = [
    "Blocked",
    "Build",
    "DownAlternating",
    "Ending",
    "FirstPlayer",
    "LowerReserve",
    "MoveLimit",
    "PlayerOne",
    "PlayerZero",
    "RulePart",
    "Scoring",
    "Stalemate",
    "SuitUpOrDown",
    "param_text",
    "param_types",
    "register",
    "registered",
]

_NAME_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
_MAX_NAME = 40

_P = TypeVar("_P", bound="RulePart")


class RulePart:
    """The base of the four kinds of rule part: :class:`Build`, :class:`FirstPlayer`, :class:`Scoring` and :class:`Ending`.

    A part's parameters are its attrs fields (ints or bools); a part without
    parameters needs no attrs at all. ``str(part)`` is its text:
    the name, then each parameter after a colon.

    >>> str(Build.DOWN_ALTERNATING), str(Scoring())
    ('down-alternating', 'weighted:30:2:1:1:150')
    """

    #: The registered name, written in rules texts: lower-case letters and
    #: digits in words joined by hyphens, at most 40 characters.
    name: ClassVar[str] = ""
    #: What this kind of part is called in messages.
    kind: ClassVar[str] = "rule part"

    #: The names of the parameters the part writes in texts, in order, or None
    #: for the default: every attrs field, except that a scoring whose
    #: :meth:`~Scoring.penalty` replaces the weighted one leaves out the three
    #: weights it ignores. A field left out must have a default.
    written: ClassVar[tuple[str, ...] | None] = None

    @property
    def parameters(self) -> tuple[int | bool, ...]:
        """The part's parameters as its text writes them (empty for a part without); equality and hashing compare these.

        >>> Scoring(win_bonus=10).parameters
        (10, 2, 1, 1, 150)
        """
        return tuple(getattr(self, name) for name in _written_names(type(self)))

    def __str__(self) -> str:
        return ":".join([self.name, *(param_text(v) for v in self.parameters)])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.parameters == self.parameters

    def __hash__(self) -> int:
        return hash((type(self).__qualname__, self.parameters))

    def __repr__(self) -> str:
        cls = type(self)
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in _written_names(cls))
        return f"{cls.__qualname__}({args})"

    _repr_pretty_ = repr_pretty

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    @classmethod
    def strategy(cls: type[_P]) -> SearchStrategy[_P]:
        """A Hypothesis strategy for values of this part (for :mod:`crapette.strategies`).

        The default is ``st.just(cls())``; a part with parameters that have no
        defaults, or that wants its parameters drawn, overrides it.
        """
        from hypothesis import strategies as st

        return st.just(cls())


def param_text(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


# Registry ---------------------------------------------------------------------------

_REGISTRY: dict[type[RulePart], dict[str, type[RulePart]]] = {}
_END_REASONS = (EndReason.STALEMATE, EndReason.BLOCKED, EndReason.MOVE_LIMIT)


def _kind_of(cls: type) -> type[RulePart] | None:
    for base in _REGISTRY:
        if issubclass(cls, base):
            return base
    return None


_WEIGHTS = ("reserve_weight", "hand_weight", "waste_weight")


_WRITTEN: dict[type, tuple[str, ...]] = {}


def _written_names(cls: type[RulePart]) -> tuple[str, ...]:
    """The parameters ``cls`` writes in texts (see :attr:`RulePart.written`)."""
    found = _WRITTEN.get(cls)
    if found is None:
        found = _WRITTEN[cls] = _find_written(cls)
    return found


def _find_written(cls: type[RulePart]) -> tuple[str, ...]:
    written = cls.written
    if not attrs.has(cls):
        return ()
    if written is not None:
        return written
    names = tuple(f.name for f in attrs.fields(cls))
    scoring = _REGISTRY.get(Scoring) is not None and issubclass(cls, Scoring)
    if scoring and getattr(cls, "penalty") is not Scoring.penalty:
        return tuple(n for n in names if n not in _WEIGHTS)
    return names


def param_types(cls: type[RulePart]) -> tuple[tuple[str, type], ...]:
    """The written parameters of ``cls`` and their types (int or bool).

    :raises InvalidRulesError: if a parameter is neither, or :attr:`RulePart.written`
        names a field that does not exist or leaves out one without a default.
    """
    written = cls.written
    names = _written_names(cls)
    if not attrs.has(cls):
        return ()
    fields = {f.name: f for f in attrs.fields(cls)}
    if written is not None and (not isinstance(written, tuple) or any(n not in fields for n in written)):
        _WRITTEN.pop(cls, None)
        raise InvalidRulesError(f"{cls.__qualname__}.written must be a tuple of its field names, got {brief(written)}")
    for name, field in fields.items():
        if name not in names and field.default is attrs.NOTHING:
            raise InvalidRulesError(
                f"{cls.__qualname__}: parameter {name!r} is not written in texts, so it needs a default"
            )
    out = []
    for field in (fields[n] for n in names):
        kind = {"int": int, "bool": bool}.get(field.type, field.type) if isinstance(field.type, str) else field.type
        if kind not in (int, bool):
            raise InvalidRulesError(
                f"{cls.__qualname__}: parameter {field.name!r} must be annotated int or bool "
                f"(rules texts carry whole numbers and true/false), got {field.type!r}"
            )
        out.append((field.name, kind))
    return tuple(out)


#: The part classes crapette defines itself (and :mod:`crapette.variants`): their
#: hooks are trusted, so the engine calls them unwrapped, and no other class may
#: take their names.
_BUILT_IN: set[type[RulePart]] = set()
#: True while crapette's own modules register their parts (see :func:`seal_built_ins`).
_loading_built_ins = True


def seal_built_ins() -> None:
    """End the registration of crapette's own parts: every part registered after this is one of a user's, and checked."""
    global _loading_built_ins
    _loading_built_ins = False


def is_built_in_class(cls: type) -> bool:
    """True if ``cls`` is one of crapette's own part classes (built in or from :mod:`crapette.variants`)."""
    return cls in _BUILT_IN


def is_built_in(part: object) -> bool:
    """True if ``part`` is one of crapette's own parts (trusted: its hooks are not checked)."""
    return type(part) in _BUILT_IN


def _guard_hooks(cls: type[RulePart], base: type[RulePart]) -> None:
    """Wrap each hook ``cls`` takes from outside crapette's own classes (see :func:`_guard`)."""
    for hook, check in CHECKS.get(base.kind, {}).items():
        owner = next(c for c in cls.__mro__ if hook in c.__dict__)
        func = owner.__dict__[hook]
        if owner in _BUILT_IN or getattr(func, "__crapette_guarded__", False) or not callable(func):
            continue
        type.__setattr__(cls, hook, guard(hook, func, check))


def register(cls: type[_P]) -> type[_P]:
    """Make a rule part class known by its ``name``, so texts can name it; use it as a class decorator.

    The class must subclass :class:`Build`, :class:`FirstPlayer`,
    :class:`Scoring` or :class:`Ending`, define the hooks of its kind, and have
    a ``name`` not yet taken by another class of that kind (registering the
    same class again, as a re-imported module does, is allowed). Its
    parameters, if any, are attrs fields annotated ``int`` or ``bool``.

    Register a part in the module that defines it; a program that reads a
    rules text, position or record naming it must import that module first.
    The class's hooks are wrapped so that their exceptions and wrong answers
    raise :class:`~crapette.RulePartError`; a name held by one of crapette's
    own parts cannot be taken, whatever the class's ``__module__``.

    >>> import attrs
    >>> from crapette import Build, Card, RuleSet, register
    >>> @register
    ... class DownAnySuit(Build):
    ...     '''One rank lower, whatever the suit.'''
    ...     name = "down-any-suit"
    ...     description = "down, any suit"
    ...     def accepts(self, below: Card, card: Card) -> bool:
    ...         return card.rank == below.rank - 1
    >>> registered(Build)["down-any-suit"] is DownAnySuit
    True
    >>> attrs.evolve(RuleSet.casual(), own_tableau_build="down-any-suit").own_tableau_build
    DownAnySuit()

    :raises InvalidRulesError: if the class is not a rule part, lacks a hook,
        has a malformed name or one another class holds, or a parameter that is
        not an int or bool.
    """
    if not isinstance(cls, type):
        raise TypeError(f"register() expects a rule part class, got {type(cls).__name__}")
    base = _kind_of(cls)
    if base is None:
        raise InvalidRulesError(
            f"{cls.__qualname__} is not a rule part: subclass Build, FirstPlayer, Scoring or Ending"
        )
    name = cls.__dict__.get("name")
    if not isinstance(name, str) or len(name) > _MAX_NAME or not _NAME_RE.fullmatch(name) or name == "none":
        raise InvalidRulesError(
            f"{cls.__qualname__}.name must be lower-case words of letters and digits joined by "
            f"hyphens, at most {_MAX_NAME} characters, and not 'none'; got {name!r}"
        )
    for hook in base._hooks:  # type: ignore[attr-defined]
        if getattr(cls, hook) is getattr(base, hook):
            raise InvalidRulesError(f"{cls.__qualname__} must define {hook}(), the hook of a {base.kind}")
    param_types(cls)
    if base.kind == "ending" and getattr(cls, "reason", None) not in _END_REASONS:
        raise InvalidRulesError(
            f"{cls.__qualname__}.reason must be EndReason.STALEMATE, BLOCKED or MOVE_LIMIT "
            "(emptying is a win, not an ending)"
        )
    description = getattr(cls, "description", "")
    if not isinstance(description, str):
        raise InvalidRulesError(f"{cls.__qualname__}.description must be a str, got {brief(description)}")
    table = _REGISTRY[base]
    held = table.get(name)
    # A module imported again registers its classes again (new class objects of
    # the same module and name): allowed, but never over one of crapette's own.
    if held is not None and held is not cls and (
        held in _BUILT_IN
        or (held.__module__, held.__qualname__) != (cls.__module__, cls.__qualname__)
    ):
        raise InvalidRulesError(
            f"the {base.kind} name {name!r} is already registered by "
            f"{held.__module__}.{held.__qualname__}"
            + (" (one of crapette's own parts)" if held in _BUILT_IN else "")
        )
    if _loading_built_ins:
        _BUILT_IN.add(cls)
    else:
        _guard_hooks(cls, base)
    written = _written_names(cls)
    if attrs.has(cls) and len(written) != len(attrs.fields(cls)):
        # The parameters left out of the text are left out of equality too, so texts round-trip.
        for method in ("__eq__", "__hash__", "__repr__"):
            type.__setattr__(cls, method, getattr(RulePart, method))
    table[name] = cls
    return cls


def registered(kind: type[RulePart]) -> Mapping[str, type[RulePart]]:
    """The registered part classes of ``kind`` (:class:`Build`, :class:`FirstPlayer`, :class:`Scoring` or :class:`Ending`) by name.

    >>> sorted(registered(FirstPlayer))[:3]
    ['higher-reserve', 'lower-reserve', 'player-0']

    :raises TypeError: if ``kind`` is not one of the four kinds.
    """
    table = _REGISTRY.get(kind)
    if table is None:
        raise TypeError(f"registered() expects Build, FirstPlayer, Scoring or Ending, got {brief(kind)}")
    return MappingProxyType(table)


# Building rules ----------------------------------------------------------------------


class Build(RulePart):
    """How a card builds on a pile: a tableau pile (by whose deck dealt it) or, when loading, an opponent's reserve or waste.

    Write one by subclassing, naming it, and defining :meth:`accepts`; then
    :func:`register` it and select it by name or value in a
    :class:`~crapette.RuleSet` (``own_tableau_build``,
    ``opponent_tableau_build``, ``load_build``). The engine asks the hook once
    per pair of cards and keeps the answers in tables, so a building rule of
    your own costs nothing more per move than a built-in one. The hook must
    not depend on the deck of the card being placed (the two decks' copies of
    a card build alike). An empty tableau pile takes any card whatever the
    building rule, and a stack (:class:`~crapette.MoveStack`) goes only onto a
    pile built by :attr:`DOWN_ALTERNATING` (:ref:`section 8 of the rules <rules-8>`).

    >>> from crapette import parse_card
    >>> Build.DOWN_ALTERNATING.accepts(parse_card("3C0"), parse_card("2D1"))
    True
    >>> Build.SUIT_UP_OR_DOWN.accepts(parse_card("3C0"), parse_card("4C1"))
    True
    """

    kind: ClassVar[str] = "building rule"
    _hooks: ClassVar[tuple[str, ...]] = ("accepts",)
    #: How the rule reads in a message: ``"T3 builds <description> for player 0"``.
    description: ClassVar[str] = ""
    #: Down in alternating colours (both presets' own tableau; classic's houses).
    DOWN_ALTERNATING: ClassVar[Build]
    #: The same suit, one rank up or down (casual's opponent piles; loading).
    SUIT_UP_OR_DOWN: ClassVar[Build]

    def accepts(self, below: Card, card: Card) -> bool:
        """True if ``card`` may go onto a pile whose top card is ``below``."""
        raise NotImplementedError

    @property
    def described(self) -> str:
        """:attr:`description`, or the name when there is none."""
        return self.description or f"by the rule {self.name}"


_REGISTRY[Build] = {}


@functools.lru_cache(maxsize=64)
def accepted_masks(build: Build) -> tuple[int, ...]:
    """For each card (by index) on top of a pile, the bit mask (by card index) of the cards ``build`` lets go onto it.

    The engine compiles its tables from these masks, and a rule set checks its
    building rules through them when it is made.

    :raises InvalidRulesError: if the rule treats the two decks' copies of a
        card differently, or its hook raises or does not answer True or False.
    """
    masks = []
    accepts = build.accepts
    for below in ALL_CARDS:
        mask = 0
        for card in ALL_CARDS:
            try:
                answer = accepts(below, card)
            except Exception as exc:
                raise hook_error(build, "accepts", f"raised {exc!r} on {card} over {below}") from exc
            if answer is True:
                mask |= 1 << card.index
            elif answer is not False:
                raise hook_error(build, "accepts", f"answered {brief(answer)} on {card} over {below}, not True or False")
        low, high = mask & ((1 << 52) - 1), mask >> 52
        if low != high:
            card = ALL_CARDS[(low ^ high).bit_length() - 1]
            raise InvalidRulesError(
                f"the building rule {build} treats {card} and {ALL_CARDS[card.index + 52]} differently "
                f"on {below}: a building rule must not depend on the deck of the card placed"
            )
        masks.append(mask)
    return tuple(masks)


@register
class DownAlternating(Build):
    """One rank lower and the opposite colour: the 2 of diamonds on the 3 of clubs.

    >>> from crapette import parse_card
    >>> DownAlternating().accepts(parse_card("3C0"), parse_card("2D0")), Build.DOWN_ALTERNATING
    (True, DownAlternating())
    """

    name = "down-alternating"
    description = "down in alternating colours"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.rank == below.rank - 1 and card.colour is not below.colour


@register
class SuitUpOrDown(Build):
    """The same suit, one rank higher or lower: the 4 or the 2 of clubs on the 3 of clubs.

    >>> from crapette import parse_card
    >>> [SuitUpOrDown().accepts(parse_card("3C0"), parse_card(c)) for c in ("4C1", "2C0", "2H0")]
    [True, True, False]
    """

    name = "suit-up-or-down"
    description = "up or down in suit"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.suit is below.suit and abs(card.rank - below.rank) == 1


Build.DOWN_ALTERNATING = DownAlternating()
Build.SUIT_UP_OR_DOWN = SuitUpOrDown()


# First player ---------------------------------------------------------------------------


class FirstPlayer(RulePart):
    """Who moves first, decided from the deal (:ref:`section 3 of the rules <rules-3>`).

    :meth:`who_starts` sees the dealt state (with player 0 to move) and the
    game's seed, and returns 0 or 1.

    >>> from crapette import RuleSet
    >>> RuleSet.classic().first_player
    LowerReserve()
    """

    kind: ClassVar[str] = "first-player rule"
    _hooks: ClassVar[tuple[str, ...]] = ("who_starts",)
    #: Player 0 starts (casual).
    PLAYER_0: ClassVar[FirstPlayer]
    #: Player 1 starts.
    PLAYER_1: ClassVar[FirstPlayer]
    #: The lower reserve top starts (classic).
    LOWER_RESERVE: ClassVar[FirstPlayer]

    def who_starts(self, deal: GameState, seed: int) -> int:
        """The player (0 or 1) who moves first in ``deal``, the game dealt from ``seed``."""
        raise NotImplementedError


_REGISTRY[FirstPlayer] = {}


@register
class PlayerZero(FirstPlayer):
    """Player 0 always starts (casual).

    >>> from crapette import RuleSet
    >>> RuleSet.casual().first_player, str(PlayerZero())
    (PlayerZero(), 'player-0')
    """

    name = "player-0"

    def who_starts(self, deal: GameState, seed: int) -> int:
        return 0


@register
class PlayerOne(FirstPlayer):
    """Player 1 always starts.

    >>> import attrs
    >>> from crapette import RuleSet, new_game
    >>> new_game(attrs.evolve(RuleSet.casual(), first_player="player-1"), seed=4).current_player
    1
    """

    name = "player-1"

    def who_starts(self, deal: GameState, seed: int) -> int:
        return 1


def compare_deal(deal: GameState, lower_starts: bool) -> int:
    """Compare the reserve tops, then the tableau cards in dealing order: the player with the lower (or higher) rank starts; player 0 if all tie."""
    pairs = [(deal.reserves[0][-1:], deal.reserves[1][-1:])]
    pairs += [(deal.tableau[i][:1], deal.tableau[4 + i][:1]) for i in range(4)]
    for a, b in pairs:
        if a and b and a[0].rank != b[0].rank:
            return 0 if (a[0].rank < b[0].rank) == lower_starts else 1
    return 0


@register
class LowerReserve(FirstPlayer):
    """The lower reserve top card starts; ties go to the tableau cards in dealing order (``T0`` with ``T4``, ...), then player 0 (classic).

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=1)
    >>> [str(r[-1]) for r in state.reserves], state.current_player
    (['3C0', 'JS1'], 0)
    """

    name = "lower-reserve"

    def who_starts(self, deal: GameState, seed: int) -> int:
        return compare_deal(deal, lower_starts=True)


FirstPlayer.PLAYER_0 = PlayerZero()
FirstPlayer.PLAYER_1 = PlayerOne()
FirstPlayer.LOWER_RESERVE = LowerReserve()


# Scoring -------------------------------------------------------------------------------


def _weight(name: str, low: int = 0) -> Any:
    def check(_inst: object, _attr: object, value: object) -> None:
        problem = check_number(name, value, low)
        if problem:
            raise InvalidRulesError(problem)

    return check


@attrs.frozen
class Scoring(RulePart):
    """How a game is scored and when a match is won (:ref:`section 11 of the rules <rules-11>`); the weighted scoring of the classic game.

    The winner by emptying scores ``win_bonus`` plus the loser's cards left,
    weighted: ``reserve_weight`` per reserve card, ``hand_weight`` per hand card
    and ``waste_weight`` per waste card. A game that ends without such a winner
    is settled by penalties (each side's cards left, weighted the same way): the
    lower penalty scores the difference, without the bonus. The first player to
    reach ``match_target`` points wins the match.

    A scoring of your own subclasses this class, gives itself a ``name``,
    overrides :meth:`penalty` (and :meth:`points_for_win` if the bonus is not
    simply added), and is registered with :func:`~crapette.register`. The
    weighted scoring's text is its name and its five numbers,
    ``weighted:30:2:1:1:150``; a scoring that replaces :meth:`penalty` writes
    only ``win_bonus``, ``match_target`` and its own fields (``name:30:150``;
    set :attr:`~crapette.RulePart.written` to choose otherwise), and a bare name
    (``weighted``) takes every default. A text may also name the parameters it
    sets (``weighted:match_target=60``, ``name:my_field=4``): the others take
    their defaults.

    >>> Scoring().points_for_win(reserve=5, hand=10, waste=3)
    53
    >>> from crapette import parse_rules
    >>> parse_rules("classic(scoring=weighted)").scoring == Scoring()
    True

    :raises InvalidRulesError: if a weight is negative or the target not positive.
    """

    name: ClassVar[str] = "weighted"
    kind: ClassVar[str] = "scoring"
    _hooks: ClassVar[tuple[str, ...]] = ()

    win_bonus: int = attrs.field(default=30, validator=_weight("win_bonus"))
    reserve_weight: int = attrs.field(default=2, validator=_weight("reserve_weight"))
    hand_weight: int = attrs.field(default=1, validator=_weight("hand_weight"))
    waste_weight: int = attrs.field(default=1, validator=_weight("waste_weight"))
    match_target: int = attrs.field(default=150, validator=_weight("match_target", 1))

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        """The weighted count of cards a player has left.

        >>> Scoring().penalty(reserve=2, hand=3, waste=4)
        11
        """
        return self.reserve_weight * reserve + self.hand_weight * hand + self.waste_weight * waste

    def points_for_win(self, *, reserve: int, hand: int, waste: int) -> int:
        """What a winner by emptying scores, given the loser's cards left: the bonus plus the loser's penalty."""
        return self.win_bonus + self.penalty(reserve=reserve, hand=hand, waste=waste)

    @classmethod
    def strategy(cls) -> SearchStrategy[Scoring]:
        from hypothesis import strategies as st

        weights = st.integers(min_value=0, max_value=5)
        return st.builds(
            cls,
            win_bonus=st.integers(min_value=0, max_value=100),
            reserve_weight=weights,
            hand_weight=weights,
            waste_weight=weights,
            match_target=st.integers(min_value=1, max_value=500),
        )


_REGISTRY[Scoring] = {}
register(Scoring)


# Endings --------------------------------------------------------------------------------


class Ending(RulePart):
    """A condition that ends the game without a winner by emptying (:ref:`section 9 <rules-9>` and ruling :ref:`R9 <R9>` of the rules).

    An ending may keep one whole number in the state, its *count* (see
    :attr:`GameState.counters <crapette.GameState.counters>`): :meth:`start`
    gives it at the deal, :meth:`update` after every move, and :meth:`ends`
    says from the count and the state after a move whether the game ends
    there. A game it ends is settled as :attr:`reason` says (by penalties with
    scoring, else a draw). The hooks must be pure functions of their arguments.

    The built-in endings are selected by options of
    :class:`~crapette.RuleSet`: :class:`Stalemate` by ``stalemate``,
    :class:`Blocked` (R6) always, :class:`MoveLimit` by ``move_limit``. Endings
    of your own go in the ``endings`` option. When one move meets several
    endings, the first in :attr:`RuleSet.ending_rules
    <crapette.RuleSet.ending_rules>` decides (ruling R9).

    >>> from crapette import new_game, parse_rules
    >>> rules = parse_rules("classic(endings=no-progress:3)")
    >>> rules.endings, new_game(rules, seed=2).counters
    ((NoProgress(turns=3),), (0,))

    An ending in the ``endings`` option names itself in the outcome of a game
    it ends (:attr:`Outcome.ending <crapette.Outcome.ending>`), and
    :attr:`described` says why in words.

    .. versionchanged:: 0.3.0
       :attr:`description` and :attr:`described`; the outcome names the ending.
    """

    kind: ClassVar[str] = "ending"
    _hooks: ClassVar[tuple[str, ...]] = ("ends",)
    #: How a game this ending ends is settled and counted: STALEMATE, BLOCKED or
    #: MOVE_LIMIT. An ending in the ``endings`` option names itself too, in the
    #: outcome's :attr:`Outcome.ending <crapette.Outcome.ending>`.
    reason: ClassVar[EndReason] = EndReason.STALEMATE
    #: Why the game ended, as a sentence says it after "Game over: ..."
    #: (``"a foundation was completed"``); "" to say the ending's name.
    description: ClassVar[str] = ""

    @property
    def described(self) -> str:
        """Why a game this ending ended, in words: :attr:`description`, or the ending's text when there is none.

        The wording of the outcome (:func:`crapette.wording.describe_end`) says
        this; a part with parameters may override it to name them.

        >>> from crapette.variants import NoProgress
        >>> NoProgress(turns=12).described
        'no reserve or hand card was played for 12 turns in a row'
        """
        return self.description or f"the ending {self}"

    def start(self, deal: GameState) -> int:
        """The count at the deal (0 unless overridden)."""
        return 0

    def update(self, count: int, before: GameState, move: Move, after: GameState) -> int:
        """The count after ``move`` took ``before`` to ``after`` (unchanged unless overridden).

        ``after`` has the old counts and no outcome yet.
        """
        return count

    def ends(self, count: int, state: GameState) -> bool:
        """True if the game ends in ``state``, this ending's count being ``count``."""
        raise NotImplementedError


_REGISTRY[Ending] = {}


@register
class Stalemate(Ending):
    """Both players are marked exhausted (the classic stalemate rule, :ref:`section 9 <rules-9>` and ruling :ref:`R8 <R8>` of the rules).

    The engine keeps the marks in :attr:`GameState.exhausted
    <crapette.GameState.exhausted>` and :attr:`~crapette.GameState.played`;
    selected by ``RuleSet(stalemate=True)``.

    >>> from crapette import RuleSet
    >>> RuleSet.classic().stalemate, Stalemate() in RuleSet.classic().ending_rules
    (True, True)
    """

    name = "stalemate"
    reason = EndReason.STALEMATE
    description = "stalemate: neither player can make progress"

    def ends(self, count: int, state: GameState) -> bool:
        return state.exhausted[0] and state.exhausted[1]


@register
class Blocked(Ending):
    """Two passes in a row (ruling R6): always in force.

    >>> from crapette import RuleSet
    >>> all(Blocked() in rules.ending_rules for rules in (RuleSet.casual(), RuleSet.classic()))
    True
    """

    name = "blocked"
    reason = EndReason.BLOCKED
    description = "neither player can move"

    def ends(self, count: int, state: GameState) -> bool:
        return state.passes >= 2


@register
@attrs.frozen
class MoveLimit(Ending):
    """The game ends after ``moves`` moves in all (casual: 1000); selected by ``RuleSet(move_limit=...)``.

    >>> from crapette import RuleSet
    >>> RuleSet.casual().ending_rules[-1], str(MoveLimit(500))
    (MoveLimit(moves=1000), 'move-limit:500')
    """

    name = "move-limit"
    reason = EndReason.MOVE_LIMIT
    description = "the move limit is reached"
    moves: int = attrs.field(validator=_weight("move_limit", 1))

    def ends(self, count: int, state: GameState) -> bool:
        return state.move_count >= self.moves


#: The built-in endings, which the options of a RuleSet select (not its ``endings`` tuple).
BUILT_IN_ENDINGS = (Stalemate, Blocked, MoveLimit)
