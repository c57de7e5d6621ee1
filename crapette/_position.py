"""Position strings: a whole game state on one line, and rule sets as text."""

from __future__ import annotations

from typing import Any

import attrs

from ._cards import Card, parse_card
from ._errors import InvalidRulesError, InvalidStateError, ParseError
from ._rules import PRESETS, RuleSet, Scoring
from ._state import GameState

__all__ = ["rules_from_text", "rules_to_text", "to_position", "from_position", "MAX_POSITION_LENGTH"]

#: The longest position string accepted (a real one is under 600 characters).
MAX_POSITION_LENGTH = 4096

_OPTION_NAMES = tuple(a.name for a in attrs.fields(RuleSet))


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


def _parse_value(name: str, text: str) -> Any:
    field = attrs.fields_dict(RuleSet)[name]
    low = text.lower()
    if name == "load_targets":
        return () if low == "none" else tuple(low.split("+"))
    if name == "scoring":
        if low == "none":
            return None
        parts = low.split(":")
        if len(parts) != 5 or not all(p.isascii() and p.isdigit() for p in parts):
            raise ParseError(
                f"scoring must be 'none' or five numbers win_bonus:reserve_weight:"
                f"hand_weight:waste_weight:match_target, got {text!r}"
            )
        return Scoring(*(int(p) for p in parts))
    if field.type in ("bool", bool):
        if low not in ("true", "false"):
            raise ParseError(f"{name} must be true or false, got {text!r}")
        return low == "true"
    if field.type in ("int", "int | None", int):
        if low == "none" and "None" in str(field.type):
            return None
        if not (low.isascii() and low.isdigit() and len(low) <= 6):
            raise ParseError(f"{name} must be a whole number, got {text!r}")
        return int(low)
    return low


def rules_to_text(rules: RuleSet) -> str:
    """Write ``rules`` as the nearest preset's name plus the options that differ.

    >>> import attrs
    >>> rules_to_text(RuleSet.classic())
    'classic'
    >>> rules_to_text(attrs.evolve(RuleSet.classic(), foundation_plays="optional", move_limit=500))
    'classic(foundation_plays=optional,move_limit=500)'
    """
    best_name, best_diff = "", [""] * 99
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

    >>> rules_from_text("casual(move_limit=none)").move_limit is None
    True

    :raises ParseError: if the text is malformed or names an unknown option.
    :raises InvalidRulesError: if the options make no sense together.
    """
    if not isinstance(text, str):
        raise TypeError(f"expected a str, got {type(text).__name__}")
    if len(text) > 1024:
        raise ParseError(f"rules text too long ({len(text)} characters)")
    raw = text.strip()
    name, _, rest = raw.partition("(")
    preset = PRESETS.get(name.lower())
    if preset is None:
        raise ParseError(f"invalid rules {text!r}: unknown preset {name!r} (expected casual or classic)")
    if not rest:
        return preset
    if not rest.endswith(")"):
        raise ParseError(f"invalid rules {text!r}: missing ')' after the options")
    changes: dict[str, Any] = {}
    for item in rest[:-1].split(","):
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key not in _OPTION_NAMES:
            raise ParseError(
                f"invalid rules {text!r}: {item!r} is not <option>=<value> with a known option"
            )
        if key in changes:
            raise ParseError(f"invalid rules {text!r}: option {key} given twice")
        changes[key] = _parse_value(key, value.strip())
    try:
        return attrs.evolve(preset, **changes)
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid rules {text!r}: {exc}") from None


_GROUPS = (("F", 0, 8), ("T", 8, 8), ("R", 16, 2), ("H", 18, 2), ("W", 20, 2))


def _flags(state: GameState) -> str:
    flags = ("d" if state.drawn else "") + "p" * state.passes
    flags += "".join(f"x{p}" for p in (0, 1) if state.exhausted[p])
    flags += "".join(f"a{p}" for p in (0, 1) if state.played[p])
    return flags or "-"


def to_position(state: GameState) -> str:
    """The position string of ``state``; see :meth:`GameState.from_position` for the grammar."""
    parts = [rules_to_text(state.rules), str(state.current_player), str(state.move_count), _flags(state)]
    for letter, base, count in _GROUPS:
        piles = state.piles[base : base + count]
        parts.append(letter + ":" + "/".join(",".join(map(str, p)) or "-" for p in piles))
    return " ".join(parts)


def from_position(text: str) -> GameState:
    """Read a position string (the inverse of :func:`to_position`)."""
    if not isinstance(text, str):
        raise TypeError(f"expected a position string, got {type(text).__name__}")
    if len(text) > MAX_POSITION_LENGTH:
        raise ParseError(f"position too long ({len(text)} characters, at most {MAX_POSITION_LENGTH})")
    fields = text.split()
    if len(fields) != 9:
        raise ParseError(
            f"a position has 9 fields separated by spaces (rules, player, move count, flags, "
            f"F:, T:, R:, H:, W:), got {len(fields)}"
        )
    rules = rules_from_text(fields[0])
    if fields[1] not in ("0", "1"):
        raise ParseError(f"field 2 (player to move) must be 0 or 1, got {fields[1]!r}")
    player = int(fields[1])
    if not (fields[2].isascii() and fields[2].isdigit() and len(fields[2]) <= 9):
        raise ParseError(f"field 3 (move count) must be a whole number, got {fields[2][:20]!r}")
    move_count = int(fields[2])
    drawn, passes, exhausted, played = _parse_flags(fields[3])
    piles: list[tuple[Card, ...]] = []
    for (letter, _base, count), field in zip(_GROUPS, fields[4:]):
        head, colon, body = field.partition(":")
        if head.upper() != letter or not colon:
            raise ParseError(f"expected the {letter}: field, got {field[:20]!r}")
        group = body.split("/")
        if len(group) != count:
            raise ParseError(f"the {letter}: field must list {count} piles separated by '/', got {len(group)}")
        for i, pile in enumerate(group):
            if pile == "-":
                piles.append(())
                continue
            try:
                piles.append(tuple(parse_card(c) for c in pile.split(",")))
            except ParseError as exc:
                raise ParseError(f"pile {letter}{i}: {exc}") from None
    return GameState(rules, tuple(piles), player, move_count, drawn, passes, exhausted, played)


def _parse_flags(text: str) -> tuple[bool, int, tuple[bool, bool], tuple[bool, bool]]:
    drawn, passes = False, 0
    exhausted, played = [False, False], [False, False]
    if text == "-":
        return drawn, passes, (False, False), (False, False)
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
            target[int(text[i + 1])] = True
            i += 2
        else:
            raise ParseError(
                f"field 4 (flags) must be '-' or letters d, p, pp, x0, x1, a0, a1, got {text[:20]!r}"
            )
    return drawn, passes, (exhausted[0], exhausted[1]), (played[0], played[1])
