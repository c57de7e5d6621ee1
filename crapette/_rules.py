"""RuleSet: every rule variant as one immutable value, with the two presets."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import attrs

from ._errors import InvalidRulesError

__all__ = [
    "Build",
    "FirstPlayer",
    "FoundationPlays",
    "LoadTarget",
    "RuleSet",
    "Scoring",
    "TableauSources",
    "WastePlay",
]


class _Option(str, enum.Enum):
    """An option value; equal to its documented string."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class FirstPlayer(_Option):
    """Who moves first (RULES.md section 3).

    >>> RuleSet.classic().first_player, FirstPlayer("player-1")
    (FirstPlayer.LOWER_RESERVE, FirstPlayer.PLAYER_1)
    """

    #: Player 0 always starts (casual).
    PLAYER_0 = "player-0"
    #: Player 1 always starts.
    PLAYER_1 = "player-1"
    #: The lower reserve top card starts; ties go to the tableau cards in dealing order, then player 0 (classic).
    LOWER_RESERVE = "lower-reserve"


class TableauSources(_Option):
    """Which tableau tops a player may move (RULES.md section 5).

    >>> RuleSet.casual().tableau_sources, TableauSources.ALL == "all"
    (TableauSources.OWN, True)
    """

    #: Only the player's own four piles (casual).
    OWN = "own"
    #: All eight piles (classic).
    ALL = "all"


class Build(_Option):
    """How cards build on a tableau pile (RULES.md section 6).

    >>> RuleSet.casual().opponent_tableau_build, str(Build.DOWN_ALTERNATING)
    (Build.SUIT_UP_OR_DOWN, 'down-alternating')
    """

    #: One rank lower and the opposite colour.
    DOWN_ALTERNATING = "down-alternating"
    #: The same suit, one rank higher or lower.
    SUIT_UP_OR_DOWN = "suit-up-or-down"


class LoadTarget(_Option):
    """An opponent's pile that may be loaded (RULES.md section 6).

    >>> RuleSet.classic().load_targets
    (LoadTarget.RESERVE, LoadTarget.WASTE)
    """

    RESERVE = "reserve"
    WASTE = "waste"


class WastePlay(_Option):
    """When the top card of a player's own waste is available (RULES.md section 5).

    >>> RuleSet.casual().waste_play, RuleSet.classic().waste_play
    (WastePlay.ALWAYS, WastePlay.DRAWN)
    """

    #: Always (casual).
    ALWAYS = "always"
    #: Only the card drawn this turn, while it lies there (classic).
    DRAWN = "drawn"


class FoundationPlays(_Option):
    """Whether foundation plays take precedence (RULES.md section 10).

    >>> RuleSet.classic().foundation_plays, FoundationPlays("optional")
    (FoundationPlays.COMPULSORY, FoundationPlays.OPTIONAL)
    """

    OPTIONAL = "optional"
    COMPULSORY = "compulsory"


_E = TypeVar("_E", bound=_Option)


def _option(kind: type[_E]) -> Callable[[object], _E]:
    def convert(value: object) -> _E:
        if isinstance(value, kind):
            return value
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in kind)
            raise InvalidRulesError(
                f"{kind.__name__} must be one of {choices}, got {value!r}"
            ) from None

    return convert


def _first_player(value: object) -> FirstPlayer:
    return _option(FirstPlayer)(value)

def _tableau_sources(value: object) -> TableauSources:
    return _option(TableauSources)(value)

def _build(value: object) -> Build:
    return _option(Build)(value)

def _waste_play(value: object) -> WastePlay:
    return _option(WastePlay)(value)

def _foundation_plays(value: object) -> FoundationPlays:
    return _option(FoundationPlays)(value)


def _load_targets(value: object) -> tuple[LoadTarget, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise InvalidRulesError(
            f"load_targets must be a collection of 'reserve' and 'waste', got {value!r}"
        )
    found = set()
    for item in value:
        try:
            found.add(LoadTarget(item))
        except ValueError:
            raise InvalidRulesError(
                f"load_targets may hold only 'reserve' and 'waste', got {item!r}"
            ) from None
    return tuple(t for t in LoadTarget if t in found)


def _int(name: str, low: int, high: int | None = None) -> Any:
    def check(_inst: object, _attr: object, value: object) -> None:
        if not isinstance(value, int) or isinstance(value, bool):
            raise InvalidRulesError(f"{name} must be an int, got {value!r}")
        if value < low or (high is not None and value > high):
            bound = f">= {low}" if high is None else f"from {low} to {high}"
            raise InvalidRulesError(f"{name} must be {bound}, got {value}")

    return check


def _bool(name: str) -> Any:
    def check(_inst: object, _attr: object, value: object) -> None:
        if not isinstance(value, bool):
            raise InvalidRulesError(f"{name} must be True or False, got {value!r}")

    return check


@attrs.frozen
class Scoring:
    """How a game is scored and when a match is won (RULES.md section 11).

    The winner by emptying scores ``win_bonus`` plus the loser's cards left,
    weighted: ``reserve_weight`` per reserve card, ``hand_weight`` per hand card
    and ``waste_weight`` per waste card. A game that ends without such a winner
    is settled by penalties (each side's cards left, weighted the same way): the
    lower penalty scores the difference, without the bonus. The first player to
    reach ``match_target`` points wins the match.

    >>> Scoring().points_for_win(reserve=5, hand=10, waste=3)
    53

    :raises InvalidRulesError: if a weight is negative or the target not positive.
    """

    win_bonus: int = attrs.field(default=30, validator=_int("win_bonus", 0))
    reserve_weight: int = attrs.field(default=2, validator=_int("reserve_weight", 0))
    hand_weight: int = attrs.field(default=1, validator=_int("hand_weight", 0))
    waste_weight: int = attrs.field(default=1, validator=_int("waste_weight", 0))
    match_target: int = attrs.field(default=150, validator=_int("match_target", 1))

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        """The weighted count of cards a player has left.

        >>> Scoring().penalty(reserve=2, hand=3, waste=4)
        11
        """
        return self.reserve_weight * reserve + self.hand_weight * hand + self.waste_weight * waste

    def points_for_win(self, *, reserve: int, hand: int, waste: int) -> int:
        """What a winner by emptying scores, given the loser's cards left."""
        return self.win_bonus + self.penalty(reserve=reserve, hand=hand, waste=waste)


def _scoring(value: object) -> Scoring | None:
    if value is None or isinstance(value, Scoring):
        return value
    raise InvalidRulesError(f"scoring must be a Scoring or None, got {value!r}")


def _move_limit(_inst: Any, _attr: Any, value: Any) -> None:
    if value is not None:
        _int("move_limit", 1)(_inst, _attr, value)


@attrs.frozen(cache_hash=True)
class RuleSet:
    """Every rule variant of the game: one field per option of RULES.md section 13.

    Use a preset and change what you like with :func:`attrs.evolve`; option
    values may be given as their enum members or as their strings. A value of
    the wrong kind, or a combination that makes no sense, raises
    :class:`InvalidRulesError`.

    >>> import attrs
    >>> rules = attrs.evolve(RuleSet.classic(), foundation_plays="optional")
    >>> rules.foundation_plays
    FoundationPlays.OPTIONAL
    >>> rules.preset_name is None
    True
    >>> RuleSet.from_name("casual") == RuleSet.casual()
    True
    """

    #: Cards dealt to each reserve (the top one face up).
    reserve_size: int = attrs.field(validator=_int("reserve_size", 1, 48))
    first_player: FirstPlayer = attrs.field(converter=_first_player)
    tableau_sources: TableauSources = attrs.field(converter=_tableau_sources)
    #: How the mover builds on the tableau piles dealt from the mover's deck.
    own_tableau_build: Build = attrs.field(converter=_build)
    #: How the mover builds on the tableau piles dealt from the opponent's deck.
    opponent_tableau_build: Build = attrs.field(converter=_build)
    #: The opponent's piles a card may be loaded onto, in the order reserve, waste.
    load_targets: tuple[LoadTarget, ...] = attrs.field(converter=_load_targets)
    waste_play: WastePlay = attrs.field(converter=_waste_play)
    #: Whether a player may decline the drawn card with :class:`~crapette.EndTurn`.
    end_turn: bool = attrs.field(validator=_bool("end_turn"))
    foundation_plays: FoundationPlays = attrs.field(converter=_foundation_plays)
    #: While the reserve is not empty, empty tableau piles must be filled before drawing or ending the turn.
    fill_empty_first: bool = attrs.field(validator=_bool("fill_empty_first"))
    stack_moves: bool = attrs.field(validator=_bool("stack_moves"))
    #: Moves in all after which the game ends, or None for no limit.
    move_limit: int | None = attrs.field(validator=_move_limit)
    #: Whether the exhaustion rule ends the game as a stalemate (RULES.md section 9).
    stalemate: bool = attrs.field(validator=_bool("stalemate"))
    scoring: Scoring | None = attrs.field(converter=_scoring)

    def __attrs_post_init__(self) -> None:
        if self.stack_moves and Build.DOWN_ALTERNATING not in (
            self.own_tableau_build,
            self.opponent_tableau_build,
        ):
            raise InvalidRulesError(
                "stack_moves needs a tableau that builds down in alternating colours: "
                "set own_tableau_build or opponent_tableau_build to 'down-alternating'"
            )

    @classmethod
    def casual(cls) -> RuleSet:
        """The casual game of seed 000: own tableau piles, optional foundation plays, 1000-move limit.

        >>> RuleSet.casual().reserve_size
        12
        """
        return _CASUAL

    @classmethod
    def classic(cls) -> RuleSet:
        """The classic game of seed 001: eight houses, loading, compulsory moves, scoring.

        >>> RuleSet.classic().scoring.match_target
        150
        """
        return _CLASSIC

    @classmethod
    def from_name(cls, name: str) -> RuleSet:
        """The preset called ``name``: ``"casual"`` or ``"classic"`` (any case).

        >>> RuleSet.from_name("Classic").stack_moves
        True

        :raises InvalidRulesError: if there is no preset of that name.
        """
        if isinstance(name, str):
            preset = PRESETS.get(name.strip().lower())
            if preset is not None:
                return preset
        raise InvalidRulesError(f"unknown rule set {name!r}: expected 'casual' or 'classic'")

    @property
    def preset_name(self) -> str | None:
        """``"casual"`` or ``"classic"`` if these rules equal a preset, else None."""
        for name, preset in PRESETS.items():
            if self == preset:
                return name
        return None


_CASUAL = RuleSet(
    reserve_size=12,
    first_player=FirstPlayer.PLAYER_0,
    tableau_sources=TableauSources.OWN,
    own_tableau_build=Build.DOWN_ALTERNATING,
    opponent_tableau_build=Build.SUIT_UP_OR_DOWN,
    load_targets=(),
    waste_play=WastePlay.ALWAYS,
    end_turn=False,
    foundation_plays=FoundationPlays.OPTIONAL,
    fill_empty_first=False,
    stack_moves=False,
    move_limit=1000,
    stalemate=False,
    scoring=None,
)

_CLASSIC = RuleSet(
    reserve_size=13,
    first_player=FirstPlayer.LOWER_RESERVE,
    tableau_sources=TableauSources.ALL,
    own_tableau_build=Build.DOWN_ALTERNATING,
    opponent_tableau_build=Build.DOWN_ALTERNATING,
    load_targets=(LoadTarget.RESERVE, LoadTarget.WASTE),
    waste_play=WastePlay.DRAWN,
    end_turn=True,
    foundation_plays=FoundationPlays.COMPULSORY,
    fill_empty_first=True,
    stack_moves=True,
    move_limit=None,
    stalemate=True,
    scoring=Scoring(),
)

#: The presets by name.
PRESETS: dict[str, RuleSet] = {"casual": _CASUAL, "classic": _CLASSIC}
