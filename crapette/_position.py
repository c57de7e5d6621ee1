"""Position strings: a whole game state on one line, and rule sets as text.

Both parsers take untrusted text: they cap its length, never evaluate it, and
raise only :class:`ParseError` (malformed text), :class:`InvalidRulesError`
(options that make no sense together) or :class:`InvalidStateError` (an
impossible state), each saying what was wrong and where.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs

from ._cards import Card, parse_card
from ._errors import InvalidRulesError, ParseError
from ._rules import (
    PRESETS,
    Build,
    FirstPlayer,
    FoundationPlays,
    LoadTarget,
    RuleSet,
    Scoring,
    TableauSources,
    WastePlay,
)
from ._state import GameState

__all__ = [
    "MAX_POSITION_LENGTH",
    "MAX_RULES_LENGTH",
    "from_position",
    "rules_from_text",
    "rules_to_text",
    "to_position",
]

#: The longest position string accepted (a real one is under 800 characters).
MAX_POSITION_LENGTH = 4096
#: The longest rules text accepted (one with every option changed is under 400).
MAX_RULES_LENGTH = 1024
# Digits accepted in one number of a rules text or a position (bounds int() work).
_MAX_DIGITS = 30

_OPTION_NAMES = tuple(a.name for a in attrs.fields(RuleSet))


def check_text(text: object, caller: str, what: str, limit: int) -> str:
    """``text``, checked to be a str of at most ``limit`` characters: the first guard of a parser of untrusted text.

    >>> check_text("casual", "from_position", "invalid position", 4)
    Traceback (most recent call last):
    ...
    crapette._errors.ParseError: invalid position: too long (6 characters, at most 4)

    :raises TypeError: if ``text`` is not a str (the message names ``caller``).
    :raises ParseError: if ``text`` is too long (the message starts with ``what``).
    """
    if not isinstance(text, str):
        raise TypeError(f"{caller}() expects a str, got {type(text).__name__}")
    if len(text) > limit:
        raise ParseError(f"{what}: too long ({len(text)} characters, at most {limit})")
    return text


def _show(text: str, limit: int = 40) -> str:
    """``repr`` of ``text``, shortened for an error message."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "..."


def _value_text(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Scoring):
        return ":".join(str(v) for v in attrs.astuple(value))
    if isinstance(value, tuple):
        return "+".join(str(v) for v in value) or "none"
    return str(value)


def _number(name: str, text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= _MAX_DIGITS):
        raise ParseError(f"{name} must be a whole number, got {_show(text)}")
    return int(text)


def _parse_bool(name: str, text: str) -> bool:
    if text not in ("true", "false"):
        raise ParseError(f"{name} must be true or false, got {_show(text)}")
    return text == "true"


def _parse_enum(kind: Any) -> Callable[[str, str], Any]:
    values = {m.value: m for m in kind}

    def parse(name: str, text: str) -> Any:
        member = values.get(text)
        if member is None:
            choices = ", ".join(values)
            raise ParseError(f"{name} must be one of {choices}, got {_show(text)}")
        return member

    return parse


def _parse_int(name: str, text: str) -> int:
    return _number(name, text)


def _parse_limit(name: str, text: str) -> int | None:
    return None if text == "none" else _number(name, text)


def _parse_loads(name: str, text: str) -> tuple[LoadTarget, ...]:
    if text == "none":
        return ()
    parse = _parse_enum(LoadTarget)
    return tuple(parse(name, part) for part in text.split("+"))


def _parse_scoring(name: str, text: str) -> Scoring | None:
    if text == "none":
        return None
    parts = text.split(":")
    if len(parts) != 5:
        raise ParseError(
            f"{name} must be 'none' or five numbers win_bonus:reserve_weight:"
            f"hand_weight:waste_weight:match_target, got {_show(text)}"
        )
    fields = [a.name for a in attrs.fields(Scoring)]
    numbers = [_number(f"{name} {field}", part) for field, part in zip(fields, parts)]
    return Scoring(*numbers)


#: How each option of a RuleSet is read from text (the option's value, lower case).
_OPTION_PARSERS: dict[str, Callable[[str, str], Any]] = {
    "reserve_size": _parse_int,
    "first_player": _parse_enum(FirstPlayer),
    "tableau_sources": _parse_enum(TableauSources),
    "own_tableau_build": _parse_enum(Build),
    "opponent_tableau_build": _parse_enum(Build),
    "load_targets": _parse_loads,
    "waste_play": _parse_enum(WastePlay),
    "end_turn": _parse_bool,
    "foundation_plays": _parse_enum(FoundationPlays),
    "fill_empty_first": _parse_bool,
    "stack_moves": _parse_bool,
    "move_limit": _parse_limit,
    "stalemate": _parse_bool,
    "scoring": _parse_scoring,
}


def rules_to_text(rules: RuleSet) -> str:
    """Write ``rules`` as the nearest preset's name plus the options that differ.

    The options follow in the order of the :class:`~crapette.RuleSet` fields,
    as ``name=value`` separated by commas, inside parentheses; the text has no
    spaces, so it fits in a position string. Values: enum options by their
    strings, ``true``/``false``, whole numbers, ``none``, ``load_targets`` as
    ``reserve+waste`` (or ``none``), ``scoring`` as
    ``win_bonus:reserve_weight:hand_weight:waste_weight:match_target`` (or
    ``none``). When both presets are equally near, ``casual`` is used.

    >>> import attrs
    >>> rules_to_text(RuleSet.classic())
    'classic'
    >>> rules_to_text(attrs.evolve(RuleSet.classic(), foundation_plays="optional", move_limit=500))
    'classic(foundation_plays=optional,move_limit=500)'
    >>> rules_to_text(attrs.evolve(RuleSet.casual(), load_targets=["waste"], scoring=Scoring()))
    'casual(load_targets=waste,scoring=30:2:1:1:150)'

    :raises TypeError: if ``rules`` is not a :class:`~crapette.RuleSet`.
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules_to_text() expects a RuleSet, got {type(rules).__name__}")
    best_name, best_diff = "", list(_OPTION_NAMES) + ["-"]
    for name, preset in PRESETS.items():
        diff = [
            f"{opt}={_value_text(getattr(rules, opt))}"
            for opt in _OPTION_NAMES
            if getattr(rules, opt) != getattr(preset, opt)
        ]
        if len(diff) < len(best_diff):
            best_name, best_diff = name, diff
    return best_name + (f"({','.join(best_diff)})" if best_diff else "")


def rules_from_text(text: str) -> RuleSet:
    """Read the text that :func:`rules_to_text` writes.

    ``<preset>`` or ``<preset>(<option>=<value>,...)``: the preset name
    (``casual`` or ``classic``) and the options that differ from it. Case and
    spaces around names and values are ignored; each option may appear once.
    ``rules_from_text(rules_to_text(r)) == r`` for every rule set.

    >>> rules_from_text("casual(move_limit=none)").move_limit is None
    True
    >>> rules_from_text("classic(foundation_plays=sometimes)")
    Traceback (most recent call last):
    ...
    crapette._errors.ParseError: invalid rules 'classic(foundation_plays=sometimes)': option foundation_plays: foundation_plays must be one of optional, compulsory, got 'sometimes'

    :raises ParseError: if the text is malformed, too long (over
        ``MAX_RULES_LENGTH`` = 1024 characters) or names an unknown option or value.
    :raises InvalidRulesError: if a number is out of range or the options
        make no sense together.
    :raises TypeError: if ``text`` is not a str.
    """
    if not isinstance(text, str):
        raise TypeError(f"rules_from_text() expects a str, got {type(text).__name__}")
    if len(text) > MAX_RULES_LENGTH:
        raise ParseError(f"rules text too long ({len(text)} characters, at most {MAX_RULES_LENGTH})")
    where = f"invalid rules {_show(text)}"
    raw = text.strip()
    name, paren, rest = raw.partition("(")
    preset = PRESETS.get(name.strip().lower())
    if preset is None:
        raise ParseError(f"{where}: unknown preset {_show(name.strip())} (expected casual or classic)")
    if not paren:
        return preset
    if not rest.endswith(")"):
        raise ParseError(f"{where}: missing ')' at the end of the options")
    body = rest[:-1]
    if "(" in body or ")" in body:
        raise ParseError(f"{where}: unexpected parenthesis inside the options")
    if not body.strip():
        raise ParseError(f"{where}: empty option list (write just the preset name)")
    changes: dict[str, Any] = {}
    for number, item in enumerate(body.split(","), 1):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq:
            raise ParseError(f"{where}: option {number} ({_show(item)}) is not <option>=<value>")
        parser = _OPTION_PARSERS.get(key)
        if parser is None:
            raise ParseError(
                f"{where}: option {number} names unknown option {_show(key)} "
                f"(known: {', '.join(_OPTION_NAMES)})"
            )
        if key in changes:
            raise ParseError(f"{where}: option {key} given twice")
        try:
            changes[key] = parser(key, value.strip().lower())
        except ParseError as exc:
            raise ParseError(f"{where}: option {key}: {exc}") from None
        except InvalidRulesError as exc:
            raise InvalidRulesError(f"{where}: option {key}: {exc}") from None
    try:
        return attrs.evolve(preset, **changes)
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"{where}: {exc}") from None


_GROUPS = (("F", 0, 8), ("T", 8, 8), ("R", 16, 2), ("H", 18, 2), ("W", 20, 2))
_FIELD_NAMES = ("rules", "player", "move count", "flags", "F:", "T:", "R:", "H:", "W:")


def _flags(state: GameState) -> str:
    flags = ("d" if state.drawn else "") + "p" * state.passes
    flags += "".join(f"x{p}" for p in (0, 1) if state.exhausted[p])
    flags += "".join(f"a{p}" for p in (0, 1) if state.played[p])
    return flags or "-"


def to_position(state: GameState) -> str:
    """The position string of ``state``; see :meth:`GameState.from_position` for the grammar.

    >>> from crapette import new_game
    >>> to_position(new_game("casual", seed=1)).split()[:5]
    ['casual', '0', '0', '-', 'F:-/-/-/-/-/-/-/-']

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"to_position() expects a GameState, got {type(state).__name__}")
    parts = [rules_to_text(state.rules), str(state.current_player), str(state.move_count), _flags(state)]
    for letter, base, count in _GROUPS:
        piles = state.piles[base : base + count]
        parts.append(letter + ":" + "/".join(",".join(map(str, p)) or "-" for p in piles))
    return " ".join(parts)


def _field_error(number: int, detail: str) -> ParseError:
    return ParseError(f"invalid position: field {number} ({_FIELD_NAMES[number - 1]}): {detail}")


def from_position(text: str) -> GameState:
    """Read a position string (the inverse of :func:`to_position`).

    See :meth:`GameState.from_position` for the grammar.

    >>> from crapette import new_game
    >>> state = new_game("classic", seed=2)
    >>> from_position(to_position(state)) == state
    True
    >>> from_position("casual 2 0 - F: T: R: H: W:")
    Traceback (most recent call last):
    ...
    crapette._errors.ParseError: invalid position: field 2 (player): the player to move must be 0 or 1, got '2'

    :raises ParseError: if the text is malformed or longer than
        ``MAX_POSITION_LENGTH`` (4096) characters; the message names the field,
        pile and card.
    :raises InvalidRulesError: if the rules' options make no sense together.
    :raises InvalidStateError: if the text describes an impossible state.
    :raises TypeError: if ``text`` is not a str.
    """
    check_text(text, "from_position", "invalid position", MAX_POSITION_LENGTH)
    fields = text.split()
    if len(fields) != 9:
        raise ParseError(
            "invalid position: expected 9 fields separated by spaces (rules, player, "
            f"move count, flags, F:, T:, R:, H:, W:), got {len(fields)}"
        )
    try:
        rules = rules_from_text(fields[0])
    except ParseError as exc:
        raise _field_error(1, str(exc)) from None
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid position: field 1 (rules): {exc}") from None
    if fields[1] not in ("0", "1"):
        raise _field_error(2, f"the player to move must be 0 or 1, got {_show(fields[1])}")
    player = int(fields[1])
    try:
        move_count = _number("the move count", fields[2])
    except ParseError as exc:
        raise _field_error(3, str(exc)) from None
    drawn, passes, exhausted, played = _parse_flags(fields[3])
    piles: list[tuple[Card, ...]] = []
    for number, (letter, base, count) in enumerate(_GROUPS, 5):
        field = fields[number - 1]
        head, colon, body = field.partition(":")
        if head.upper() != letter or not colon:
            raise _field_error(number, f"expected {letter}: followed by {count} piles, got {_show(field, 20)}")
        group = body.split("/")
        if len(group) != count:
            raise _field_error(number, f"expected {count} piles separated by '/', got {len(group)}")
        for index, pile in enumerate(group):
            if pile == "-":
                piles.append(())
                continue
            cards = []
            for position, card in enumerate(pile.split(","), 1):
                try:
                    cards.append(parse_card(card))
                except ParseError as exc:
                    raise _field_error(number, f"pile {letter}{index}, card {position}: {exc}") from None
            piles.append(tuple(cards))
    return GameState(rules, tuple(piles), player, move_count, drawn, passes, exhausted, played)


def _parse_flags(text: str) -> tuple[bool, int, tuple[bool, bool], tuple[bool, bool]]:
    if text == "-":
        return False, 0, (False, False), (False, False)
    drawn, passes = False, 0
    exhausted, played = [False, False], [False, False]
    i = 0
    while i < len(text):
        ch = text[i]
        if ch == "d" and not drawn:
            drawn = True
            i += 1
        elif ch == "p" and passes < 2:
            passes += 1
            i += 1
        elif ch in "xa" and text[i + 1 : i + 2] in ("0", "1"):
            target = exhausted if ch == "x" else played
            if target[int(text[i + 1])]:
                raise _field_error(4, f"{text[i:i + 2]} given twice in {_show(text, 20)}")
            target[int(text[i + 1])] = True
            i += 2
        else:
            raise _field_error(
                4,
                f"unexpected {_show(text[i:i + 2], 20)} at character {i + 1} of {_show(text, 20)} "
                "(expected '-' or d, p, pp, x0, x1, a0, a1)",
            )
    return drawn, passes, (exhausted[0], exhausted[1]), (played[0], played[1])
