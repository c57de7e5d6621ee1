"""Game records as readable text: the writer and the reader of ``str(record)``, in the manner of PGN."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from .._core.moves import Move, parse_move
from .._core.rules import parse_rules
from ..errors import InvalidRulesError, ParseError, RecordError
from .position import parse_position, to_position
from .record_format import (
    MAX_RECORD_MOVES,
    MAX_TAGS,
    RESERVED,
    RESERVED_LOWER,
    RESULTS,
)

if TYPE_CHECKING:
    from .record import GameRecord

__all__ = ["from_text", "to_text"]


def to_text(record: GameRecord) -> str:
    """The text form of ``record`` (see :meth:`GameRecord.__str__ <crapette.GameRecord>`)."""
    lines = [_header("Rules", str(record.rules))]
    if record.start is not None:
        lines.append(_header("Position", to_position(record.start)))
    else:
        lines.append(_header("Seed", str(record.seed)))
    if record.players is not None:
        lines.append(_header("Player0", record.players[0]))
        lines.append(_header("Player1", record.players[1]))
    if record.date is not None:
        lines.append(_header("Date", record.date))
    if record.result is not None:
        lines.append(_header("Result", record.result))
    lines.extend(_header(k, v) for k, v in record.tags)
    lines.append("")
    for number, turn in enumerate(record.turns(), 1):
        lines.append(f"{number}. " + " ".join(str(m) for m in turn))
    lines.append(record.result or "*")
    return "\n".join(lines)


def from_text(cls: type[GameRecord], text: str) -> GameRecord:
    """Read :func:`to_text`'s output (``text`` already checked to be a str within the cap)."""
    return _from_text(cls, text)


_HEADER_RE = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)[ \t]+"((?:[^"\\]|\\.)*)"\]')
_ESCAPE_RE = re.compile(r"\\(.)", re.DOTALL)
_TOKEN_RE = re.compile(r"\{[^}]*\}|[{}]|[^\s{}]+")
_TURN_RE = re.compile(r"[0-9]{1,9}\.")


def _header(name: str, value: str) -> str:
    return f'[{name} "' + value.replace("\\", "\\\\").replace('"', '\\"') + '"]'


def _unescape(line: int, value: str) -> str:
    def replace(match: re.Match[str]) -> str:
        char = match.group(1)
        if char not in '\\"':
            raise ParseError(
                f"invalid record text: line {line}: unknown escape \\{char} "
                '(only \\\\ and \\" are allowed in a header value)'
            )
        return char

    return _ESCAPE_RE.sub(replace, value)


def _from_text(cls: type[GameRecord], text: str) -> GameRecord:
    def fail(line: int | str, detail: str) -> ParseError:
        return ParseError(f"invalid record text: line {line}: {detail}")

    lines = text.split("\n")
    headers: dict[str, tuple[int, str]] = {}
    tags: list[tuple[str, str]] = []
    index = 0
    while index < len(lines):
        header = lines[index].strip()
        if header and not header.startswith("["):
            break
        index += 1
        if not header:
            continue
        match = _HEADER_RE.fullmatch(header)
        if match is None:
            raise fail(index, f'expected a header [Name "value"], got {header[:40]!r}')
        name, value = match.group(1), _unescape(index, match.group(2))
        if name in headers or name in (k for k, _ in tags):
            raise fail(index, f"header {name!r} given twice")
        if name in RESERVED:
            headers[name] = (index, value)
        elif name.lower() in RESERVED_LOWER:
            raise fail(index, f"header {name!r}: field names are written {', '.join(RESERVED)}")
        else:
            tags.append((name, value))
            if len(tags) > MAX_TAGS:
                raise fail(index, f"more than {MAX_TAGS} tags")
    first_move_line = index + 1
    movetext = "\n".join(lines[index:])

    if "Rules" not in headers:
        raise ParseError('invalid record text: missing the [Rules "..."] header')
    rules_line, rules_text = headers["Rules"]
    try:
        rules = parse_rules(rules_text)
    except ParseError as exc:
        raise fail(rules_line, f"header Rules: {exc}") from None
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid record text: line {rules_line}: header Rules: {exc}") from None

    seed = None
    start = None
    if ("Seed" in headers) == ("Position" in headers):
        raise ParseError("invalid record text: give exactly one of the Seed and Position headers")
    if "Seed" in headers:
        seed_line, seed_text = headers["Seed"]
        if not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 20):
            raise fail(seed_line, f"header Seed must be a whole number, got {seed_text[:40]!r}")
        seed = int(seed_text)
    else:
        start_line, start_text = headers["Position"]
        try:
            start = parse_position(start_text)
        except ParseError as exc:
            raise fail(start_line, f"header Position: {exc}") from None

    players = None
    if ("Player0" in headers) != ("Player1" in headers):
        raise ParseError("invalid record text: the Player0 and Player1 headers go together")
    if "Player0" in headers:
        players = (headers["Player0"][1], headers["Player1"][1])
    date = headers["Date"][1] if "Date" in headers else None
    result = headers["Result"][1] if "Result" in headers else None
    if result is not None and result not in RESULTS:
        raise fail(headers["Result"][0], f"header Result must be one of {', '.join(RESULTS)}, got {result[:40]!r}")

    moves: list[Move] = []
    line = first_move_line
    pos = line_start = 0
    end_token: str | None = None
    last_line = line
    for match in _TOKEN_RE.finditer(movetext):
        offset = match.start()
        newlines = movetext.count("\n", pos, offset)
        if newlines:
            line += newlines
            line_start = movetext.rfind("\n", pos, offset) + 1
        pos = offset
        where = f"{line}, column {offset - line_start + 1}"
        token = match.group()
        if token.startswith("{"):
            if not token.endswith("}"):
                raise fail(where, "a '{' comment is not closed")
            continue
        if token == "}":
            raise fail(where, "'}' without a '{' before it")
        if end_token is not None:
            raise fail(where, f"{token[:40]!r} after the result {end_token!r}")
        if _TURN_RE.fullmatch(token):
            continue
        if token in RESULTS:
            end_token = token
            last_line = line
            continue
        try:
            moves.append(parse_move(token))
        except ParseError as exc:
            raise fail(where, str(exc)) from None
        if len(moves) > MAX_RECORD_MOVES:
            raise fail(where, f"more than {MAX_RECORD_MOVES} moves")
    if end_token is None:
        raise ParseError("invalid record text: the moves must end with the result: 1-0, 0-1, 1/2-1/2 or *")
    if result is None:
        result = None if end_token == "*" else end_token
    elif end_token != result:
        raise fail(last_line, f"the moves end with {end_token!r} but the Result header says {result!r}")
    try:
        return cls(rules, seed, tuple(moves), start=start, players=players, date=date, result=result, tags=tags)
    except RecordError as exc:
        raise ParseError(f"invalid record text: {exc}") from None
