"""Game records as JSON: the writer and the reader of :meth:`GameRecord.to_json <crapette.GameRecord.to_json>`."""

from __future__ import annotations

import itertools
import operator
import re
from typing import TYPE_CHECKING, Any

from .._core.checks import strict_json
from .._core.moves import parse_move
from .._core.rules import parse_rules
from ..errors import InvalidRulesError, ParseError, RecordError
from .position import parse_position, to_position
from .record_format import MAX_RECORD_MOVES, RECORD_FORMAT_VERSION

if TYPE_CHECKING:
    from .record import GameRecord

__all__ = ["from_json", "to_dict"]

_MAX_JSON_DEPTH = 8


def to_dict(record: GameRecord) -> dict[str, Any]:
    """The JSON-ready dict of ``record`` (see :meth:`GameRecord.to_json <crapette.GameRecord.to_json>`)."""
    return {
        "format": "crapette-record",
        "version": RECORD_FORMAT_VERSION,
        "rules": str(record.rules),
        "seed": record.seed,
        "start": None if record.start is None else to_position(record.start),
        "moves": [str(m) for m in record.moves],
        "players": None if record.players is None else list(record.players),
        "date": record.date,
        "result": record.result,
        "tags": dict(record.tags),
    }


def from_json(cls: type[GameRecord], text: str) -> GameRecord:
    """Read the JSON that :func:`to_dict` describes (``text`` already checked to be a str within the cap)."""
    return _from_data(cls, _load_json(text))


# The scan that finds the nesting depth before decoding: drop escape pairs, then
# strings (an unterminated one runs to the end), then all but brackets. Three
# simple regular expressions keep it linear and fast on any text.
_ESCAPE_PAIR_RE = re.compile(r"\\.", re.DOTALL)
_SIMPLE_STRING_RE = re.compile(r'"[^"]*"?')
_NOT_BRACKET_RE = re.compile(r"[^\[\]{}]+")
_BRACKET_STEPS = str.maketrans({"[": "\x02", "{": "\x02", "]": "\x00", "}": "\x00"})
_KEYS = ("format", "version", "rules", "seed", "start", "moves", "players", "date", "result", "tags")


def _check_depth(text: str) -> None:
    """Refuse nesting deeper than the layout needs before ``json.loads`` recurses into it."""
    if text.count("[") + text.count("{") <= _MAX_JSON_DEPTH:
        return
    brackets = _NOT_BRACKET_RE.sub("", _SIMPLE_STRING_RE.sub("", _ESCAPE_PAIR_RE.sub("", text)))
    if len(brackets) <= _MAX_JSON_DEPTH:
        return
    steps = brackets.translate(_BRACKET_STEPS).encode("latin-1")
    depths = map(operator.sub, itertools.accumulate(steps), itertools.count(1))
    if max(depths) > _MAX_JSON_DEPTH:
        depths = map(operator.sub, itertools.accumulate(steps), itertools.count(1))
        index = next(i for i, depth in enumerate(depths) if depth > _MAX_JSON_DEPTH)
        raise ParseError(
            f"invalid record JSON: nested deeper than {_MAX_JSON_DEPTH} levels "
            f"(at bracket {index + 1}, strings left out)"
        )


def _load_json(text: str) -> Any:
    _check_depth(text)
    try:
        return strict_json(text, "record")
    except ParseError:
        raise
    except RecursionError:
        raise ParseError("invalid record JSON: nested too deeply") from None
    except ValueError as exc:
        # json.JSONDecodeError, and Python's limit on the digits of an int.
        raise ParseError(f"invalid record JSON: {exc}") from None


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    return "an object"


def _from_data(cls: type[GameRecord], data: Any) -> GameRecord:
    def fail(detail: str) -> ParseError:
        return ParseError(f"invalid record JSON: {detail}")

    if not isinstance(data, dict):
        raise fail(f"expected an object, got {_json_type(data)}")
    unknown = [k for k in data if k not in _KEYS]
    if unknown:
        raise fail(f"unknown key {unknown[0][:40]!r} (known: {', '.join(_KEYS)})")
    for key in ("format", "version", "rules", "moves"):
        if key not in data:
            raise fail(f"missing key {key!r}")
    if data["format"] != "crapette-record":
        raise fail(f"key 'format' must be \"crapette-record\", got {str(data['format'])[:40]!r}")
    version = data["version"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise fail(f"key 'version' must be a whole number, got {_json_type(version)}")
    if version != RECORD_FORMAT_VERSION:
        raise fail(f"unsupported version {version} (this release reads version {RECORD_FORMAT_VERSION})")

    def text_of(key: str, optional: bool = True) -> str | None:
        value = data.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise fail(f"key {key!r} must be a string{' or null' if optional else ''}, got {_json_type(value)}")
        return value

    rules_text = text_of("rules", optional=False)
    assert rules_text is not None
    try:
        rules = parse_rules(rules_text)
    except ParseError as exc:
        raise fail(f"key 'rules': {exc}") from None
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid record JSON: key 'rules': {exc}") from None

    seed = data.get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise fail(f"key 'seed' must be a whole number or null, got {_json_type(seed)}")
    start_text = text_of("start")
    start = None
    if start_text is not None:
        try:
            start = parse_position(start_text)
        except ParseError as exc:
            raise fail(f"key 'start': {exc}") from None

    raw_moves = data["moves"]
    if not isinstance(raw_moves, list):
        raise fail(f"key 'moves' must be an array of strings, got {_json_type(raw_moves)}")
    if len(raw_moves) > MAX_RECORD_MOVES:
        raise fail(f"key 'moves' holds {len(raw_moves)} moves, at most {MAX_RECORD_MOVES}")
    moves = []
    for i, item in enumerate(raw_moves):
        if not isinstance(item, str):
            raise fail(f"key 'moves', item {i}: expected a string, got {_json_type(item)}")
        try:
            moves.append(parse_move(item))
        except ParseError as exc:
            raise fail(f"key 'moves', item {i}: {exc}") from None

    players = data.get("players")
    if players is not None:
        if not (isinstance(players, list) and len(players) == 2 and all(isinstance(p, str) for p in players)):
            raise fail("key 'players' must be null or an array of two strings")
    date = text_of("date")
    result = text_of("result")
    tags = data.get("tags", {})
    if tags is None:
        tags = {}
    if not isinstance(tags, dict):
        raise fail(f"key 'tags' must be an object, got {_json_type(tags)}")
    for key, value in tags.items():
        if not isinstance(value, str):
            raise fail(f"key 'tags', tag {key[:40]!r}: the value must be a string, got {_json_type(value)}")
    try:
        return cls(rules, seed, tuple(moves), start=start, players=players, date=date, result=result, tags=tags)
    except RecordError as exc:
        raise fail(str(exc)) from None


