"""RuleSet: every rule variant as one immutable value, with the two presets and its text form."""

from __future__ import annotations

import difflib
import enum
import functools
from typing import Any, ClassVar

import attrs

from ..errors import InvalidRulesError, ParseError, RulePartError
from .hooks import probe_scoring
from .messages import brief, repr_pretty
from .options import (
    Choice,
    Count,
    Flag,
    Limit,
    Option,
    OptionalPart,
    Part,
    Parts,
    Subset,
    option,
)
from .parts import (
    BUILT_IN_ENDINGS,
    Blocked,
    Build,
    DownAlternating,
    Ending,
    FirstPlayer,
    MoveLimit,
    Scoring,
    Stalemate,
    accepted_masks,
    is_built_in,
)

__all__ = [
    "Build",
    "FirstPlayer",
    "FoundationPlays",
    "LoadTarget",
    "MAX_RULES_LENGTH",
    "PRESETS",
    "RuleSet",
    "Scoring",
    "StackLimit",
    "TableauSources",
    "WastePlay",
    "parse_rules",
]

#: The longest rules text accepted (one with every option changed is under 500 characters).
MAX_RULES_LENGTH = 1024


class _Option(str, enum.Enum):
    """An option value; equal to its documented string."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __str__(self) -> str:
        return str(self.value)


class TableauSources(_Option):
    """Which tableau tops a player may move (:ref:`section 5 of the rules <rules-5>`).

    >>> RuleSet.casual().tableau_sources, TableauSources.ALL == "all"
    (TableauSources.OWN, True)
    """

    #: Only the player's own four piles (casual).
    OWN = "own"
    #: All eight piles (classic).
    ALL = "all"


class LoadTarget(_Option):
    """An opponent's pile that may be loaded (:ref:`section 6 of the rules <rules-6>`).

    >>> RuleSet.classic().load_targets
    (LoadTarget.RESERVE, LoadTarget.WASTE)
    """

    RESERVE = "reserve"
    WASTE = "waste"


class WastePlay(_Option):
    """When the top card of a player's own waste is available (:ref:`section 5 of the rules <rules-5>`).

    >>> RuleSet.casual().waste_play, RuleSet.classic().waste_play
    (WastePlay.ALWAYS, WastePlay.DRAWN)
    """

    #: Always (casual).
    ALWAYS = "always"
    #: Only the card drawn this turn, while it lies there (classic).
    DRAWN = "drawn"


class FoundationPlays(_Option):
    """Whether foundation plays take precedence (:ref:`section 10 of the rules <rules-10>`).

    >>> RuleSet.classic().foundation_plays, FoundationPlays("optional")
    (FoundationPlays.COMPULSORY, FoundationPlays.OPTIONAL)
    """

    OPTIONAL = "optional"
    COMPULSORY = "compulsory"


class StackLimit(_Option):
    """How many cards a stack move may carry (:ref:`section 8 of the rules <rules-8>`).

    >>> RuleSet.classic().stack_limit
    StackLimit.EMPTY_PILES
    """

    #: At most 2**e cards, e the empty tableau piles other than the target (ruling R5; both presets).
    EMPTY_PILES = "empty-piles"
    #: A run of any length moves as one, with or without empty piles.
    UNLIMITED = "unlimited"


@attrs.frozen(cache_hash=True, repr=False)
class RuleSet:
    """Every rule variant of the game: one field per option, each declared once.

    Use a preset and change what you like with :func:`attrs.evolve`, or read
    a rules text with :func:`parse_rules`; ``str(rules)`` writes that text.
    Option values may be given as their enum members or their strings, and
    rule parts (:class:`Build`, :class:`FirstPlayer`, :class:`Scoring`,
    :class:`~crapette.Ending`) as values or by their registered names. A value
    of the wrong kind, or a combination that makes no sense, raises
    :class:`InvalidRulesError`. :meth:`options` lists the declarations.

    >>> import attrs
    >>> rules = attrs.evolve(RuleSet.classic(), foundation_plays="optional", move_limit=500)
    >>> rules.foundation_plays, str(rules)
    (FoundationPlays.OPTIONAL, 'classic(foundation_plays=optional,move_limit=500)')
    >>> rules == parse_rules(str(rules))
    True
    >>> RuleSet.from_name("casual") == RuleSet.casual() == RuleSet()
    True
    """

    reserve_size: int = option(
        Count(1, 48), 12, "Cards dealt to each reserve; the top one is face up (section 2 of the rules)."
    )
    first_player: FirstPlayer = option(Part(FirstPlayer), FirstPlayer.PLAYER_0, "Who moves first (section 3 of the rules).")
    tableau_sources: TableauSources = option(
        Choice(TableauSources), TableauSources.OWN, "Which tableau tops a player may move (section 5 of the rules)."
    )
    own_tableau_build: Build = option(
        Part(Build), Build.DOWN_ALTERNATING, "How the mover builds on the tableau piles dealt from the mover's deck."
    )
    opponent_tableau_build: Build = option(
        Part(Build), Build.SUIT_UP_OR_DOWN, "How the mover builds on the tableau piles dealt from the opponent's deck."
    )
    load_targets: tuple[LoadTarget, ...] = option(
        Subset(LoadTarget), (), "The opponent's piles a card may be loaded onto (section 6 of the rules)."
    )
    waste_play: WastePlay = option(
        Choice(WastePlay), WastePlay.ALWAYS, "When the top of a player's own waste is available (section 5 of the rules)."
    )
    end_turn: bool = option(Flag(), False, "Whether a player may decline the drawn card with End turn (section 7 of the rules).")
    foundation_plays: FoundationPlays = option(
        Choice(FoundationPlays), FoundationPlays.OPTIONAL, "Whether foundation plays come first (section 10 of the rules)."
    )
    fill_empty_first: bool = option(
        Flag(), False, "While the reserve is not empty, empty tableau piles must be filled before Draw or End turn."
    )
    stack_moves: bool = option(Flag(), False, "Whether runs may move as one (MoveStack, section 8 of the rules).")
    move_limit: int | None = option(
        Limit(1, example_high=2000), 1000, "Moves in all after which the game ends, or None for no limit."
    )
    stalemate: bool = option(Flag(), False, "Whether the exhaustion rule ends the game as a stalemate (section 9 of the rules).")
    scoring: Scoring | None = option(
        OptionalPart(Scoring), None, "How games are scored and a match is won, or None for no scores (section 11 of the rules)."
    )
    load_build: Build = option(
        Part(Build), Build.SUIT_UP_OR_DOWN, "How a card builds on the opponent's reserve or waste when loading."
    )
    drawn_first: bool = option(
        Flag(), False, "While the drawn card lies on the waste, only it may move (or End turn decline it)."
    )
    stack_limit: StackLimit = option(
        Choice(StackLimit), StackLimit.EMPTY_PILES, "How many cards a stack move may carry (ruling R5)."
    )
    revisits: bool = option(
        Flag(),
        True,
        "Whether a move may recreate a position already reached in the same turn (off: such a move is illegal).",
    )
    endings: tuple[Ending, ...] = option(
        Parts(Ending, exclude=BUILT_IN_ENDINGS), (), "Further endings, checked after R6 and before the move limit (R9)."
    )

    PRESET_NAMES: ClassVar[tuple[str, ...]] = ("casual", "classic")

    def __attrs_post_init__(self) -> None:
        for build in {self.own_tableau_build, self.opponent_tableau_build, self.load_build}:
            accepted_masks(build)  # a rule that cannot be compiled is refused here, not in play
        if self.stack_moves and not (
            isinstance(self.own_tableau_build, DownAlternating)
            or isinstance(self.opponent_tableau_build, DownAlternating)
        ):
            raise InvalidRulesError(
                "stack_moves needs a tableau that builds down in alternating colours: "
                "set own_tableau_build or opponent_tableau_build to 'down-alternating'"
            )
        # A scoring of one's own is probed now, so that a broken hook is refused here, not in play
        # (the engine tries a first-player rule or an ending of one's own the first time it plays them).
        if self.scoring is not None and not is_built_in(self.scoring):
            probe_scoring(self.scoring)

    @classmethod
    def options(cls) -> tuple[Option, ...]:
        """Every option, in field order, as declared: name, default, doc, and its text, JSON and strategy.

        >>> [o.name for o in RuleSet.options()][:3]
        ['reserve_size', 'first_player', 'tableau_sources']

        A subclass with options of its own lists them too (after these).
        """
        return _options(cls)

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
        shown = brief(name, 40) if isinstance(name, str) else type(name).__name__
        raise InvalidRulesError(f"unknown rule set {shown}: expected 'casual' or 'classic'")

    @property
    def preset_name(self) -> str | None:
        """``"casual"`` or ``"classic"`` if these rules equal a preset, else None."""
        for name, preset in PRESETS.items():
            if self == preset:
                return name
        return None

    @property
    def ending_rules(self) -> tuple[Ending, ...]:
        """Every ending in force, in the order that decides when one move meets several (ruling R9).

        Emptying a player's piles (a win) comes before all of them.

        >>> RuleSet.classic().ending_rules
        (Stalemate(), Blocked())
        >>> RuleSet.casual().ending_rules
        (Blocked(), MoveLimit(moves=1000))
        """
        return _ending_rules(self)

    def __str__(self) -> str:
        return _to_text(self)

    def __repr__(self) -> str:
        return f"parse_rules({_to_text(self)!r})"

    _repr_pretty_ = repr_pretty


def _options(cls: type[RuleSet] = RuleSet) -> tuple[Option, ...]:
    found = _OPTIONS.get(cls)
    if found is None:
        out = []
        for field in attrs.fields(cls):
            kind, doc = field.metadata["crapette.option"]
            out.append(Option(name=field.name, default=field.default, doc=doc, kind=kind))
        found = _OPTIONS[cls] = tuple(out)
    return found


_OPTIONS: dict[type[RuleSet], tuple[Option, ...]] = {}


_STALEMATE = Stalemate()
_BLOCKED = Blocked()


@functools.lru_cache(maxsize=256)
def _ending_rules(rules: RuleSet) -> tuple[Ending, ...]:
    found: list[Ending] = [_STALEMATE] if rules.stalemate else []
    found.append(_BLOCKED)
    found.extend(rules.endings)
    if rules.move_limit is not None:
        found.append(MoveLimit(rules.move_limit))
    return tuple(found)


_CASUAL = RuleSet()

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


# Text ---------------------------------------------------------------------------------


def _to_text(rules: RuleSet) -> str:
    best_name, best_diff = "", [""] * (len(_options()) + 1)
    for name, preset in PRESETS.items():
        diff = [
            f"{opt.name}={opt.to_text(getattr(rules, opt.name))}"
            for opt in _options()
            if getattr(rules, opt.name) != getattr(preset, opt.name)
        ]
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    return best_name + (f"({','.join(best_diff)})" if best_diff else "")


def parse_rules(text: str) -> RuleSet:
    """Read a rules text: a preset name, optionally followed by the options that differ from it.

    ``<preset>`` or ``<preset>(<option>=<value>,...)``, as ``str(rules)``
    writes it: the preset (``casual`` or ``classic``; the nearer one, casual on
    a tie), then the options that differ, in the order of
    :meth:`RuleSet.options`. Values: enum options by their strings,
    ``true``/``false``, whole numbers, ``none``; ``load_targets`` as
    ``reserve+waste`` (or ``none``); a rule part by its name and parameters
    (``weighted:30:2:1:1:150``), ``endings`` as parts joined by ``+``. Case and
    spaces around names and values are ignored; each option may appear once.
    ``parse_rules(str(r)) == r`` for every rule set.

    >>> parse_rules("casual(move_limit=none)").move_limit is None
    True
    >>> str(parse_rules("classic(scoring=weighted:30:2:1:1:100)"))
    'classic(scoring=weighted:30:2:1:1:100)'
    >>> parse_rules("classic(foundation_plays=sometimes)")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid rules 'classic(foundation_plays=sometimes)': option foundation_plays: foundation_plays must be one of optional, compulsory, got 'sometimes'
    >>> parse_rules("classic(move_limt=3)")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid rules 'classic(move_limt=3)': option 1 names unknown option 'move_limt' (did you mean 'move_limit'?) (known: ...)

    :raises ParseError: if the text is malformed, too long (over
        ``MAX_RULES_LENGTH`` = 1024 characters) or names an unknown option or value.
    :raises InvalidRulesError: if a number is out of range, a rule part's name
        is not registered, or the options make no sense together.
    :raises TypeError: if ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"parse_rules() expects a str, got {type(text).__name__}")
    if len(text) > MAX_RULES_LENGTH:
        raise ParseError(f"rules text too long ({len(text)} characters, at most {MAX_RULES_LENGTH})")
    where = f"invalid rules {brief(text, 40)}"
    raw = text.strip()
    name, paren, rest = raw.partition("(")
    preset = PRESETS.get(name.strip().lower())
    if preset is None:
        raise ParseError(f"{where}: unknown preset {brief(name.strip(), 40)} (expected casual or classic)")
    if not paren:
        return preset
    if not rest.endswith(")"):
        raise ParseError(f"{where}: missing ')' at the end of the options")
    body = rest[:-1]
    if "(" in body or ")" in body:
        raise ParseError(f"{where}: unexpected parenthesis inside the options")
    if not body.strip():
        raise ParseError(f"{where}: empty option list (write just the preset name)")
    declared = {opt.name: opt for opt in _options()}
    changes: dict[str, Any] = {}
    for number, item in enumerate(body.split(","), 1):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise ParseError(f"{where}: option {number} ({brief(item, 40)}) is not <option>=<value>")
        opt = declared.get(key)
        if opt is None:
            close = difflib.get_close_matches(key, list(declared), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ParseError(
                f"{where}: option {number} names unknown option {brief(key, 40)}{hint} (known: {', '.join(declared)})"
            )
        if key in changes:
            raise ParseError(f"{where}: option {key} given twice")
        try:
            changes[key] = opt.from_text(value.strip().lower())
        except ParseError as exc:
            raise ParseError(f"{where}: option {key}: {exc}") from None
        except InvalidRulesError as exc:
            raise _again(exc, f"{where}: option {key}: {exc}") from None
    try:
        return attrs.evolve(preset, **changes)
    except InvalidRulesError as exc:
        raise _again(exc, f"{where}: {exc}") from None


def _again(exc: InvalidRulesError, message: str) -> InvalidRulesError:
    """``exc`` said again with ``message``, of the same class (a RulePartError keeps its part and hook)."""
    if isinstance(exc, RulePartError):
        return RulePartError(message, part=exc.part, hook=exc.hook)
    return InvalidRulesError(message)


def to_rules(value: object, caller: str) -> RuleSet:
    """``value`` as a RuleSet: a RuleSet, or a rules text (a preset name included); every entry point reads rules this way.

    :raises TypeError: if ``value`` is neither (the message names ``caller``).
    """
    if isinstance(value, RuleSet):
        return value
    if isinstance(value, str):
        return parse_rules(value)
    raise TypeError(f"{caller}: rules must be a RuleSet or a rules text such as 'classic', got {type(value).__name__}")
