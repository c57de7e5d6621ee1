"""Game records: the rules, the deal and the moves of a game, with metadata.

A record is a value; :mod:`crapette._formats.record_json` writes and reads it as JSON,
:mod:`crapette._formats.record_text` as readable text (both import only the format's
constants, :mod:`crapette._formats.record_format`, never this module). Both readers take untrusted
text: they cap its length, never evaluate it, and raise only documented
:class:`ValueError` subclasses saying what was wrong and where
(:class:`ParseError` for malformed input, :class:`InvalidRulesError` and
:class:`InvalidStateError` for impossible rules or start positions).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

import attrs

from .._core.checks import check_seed
from .._core.engine import apply_move, legal_moves, new_game
from .._core.explain import explain_illegal
from .._core.messages import brief
from .._core.moves import Move, parse_move
from .._core.rules import RuleSet, to_rules
from .._core.state import GameState, Outcome, deprecated
from ..errors import IllegalMoveError, ParseError, RecordError
from .position import check_text
from .record_format import (
    MAX_RECORD_LENGTH,
    MAX_RECORD_MOVES,
    MAX_TAGS,
    MAX_VALUE_LENGTH,
    RECORD_FORMAT_VERSION,
    RESERVED,
    RESERVED_LOWER,
    RESULTS,
)
from .record_json import from_json as _json_read
from .record_json import to_dict as _json_dict
from .record_text import from_text as _text_read
from .record_text import to_text as _text_write

__all__ = [
    "GameRecord",
    "MAX_RECORD_LENGTH",
    "MAX_RECORD_MOVES",
    "MAX_TAGS",
    "MAX_VALUE_LENGTH",
    "RECORD_FORMAT_VERSION",
    "RESULTS",
    "parse_record",
    "result_of",
]

_KEY_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,63}")
_BAD_CHAR_RE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def result_of(outcome: Outcome | None) -> str | None:
    """The record result of a game's outcome: ``'1-0'``, ``'0-1'``, ``'1/2-1/2'``, or None while it goes on.

    >>> from crapette import EndReason, Outcome
    >>> result_of(Outcome(1, EndReason.EMPTIED)), result_of(Outcome(None, EndReason.BLOCKED)), result_of(None)
    ('0-1', '1/2-1/2', None)
    """
    if outcome is None:
        return None
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == 0 else "0-1"


def _to_rules(value: RuleSet | str) -> RuleSet:
    return to_rules(value, "GameRecord()")


def _to_moves(value: Iterable[Move | str]) -> tuple[Move, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"moves must be a sequence of Moves or move strings, got {type(value).__name__}")
    moves = []
    for i, item in enumerate(value):
        if isinstance(item, Move):
            moves.append(item)
        elif isinstance(item, str):
            try:
                moves.append(parse_move(item))
            except ParseError as exc:
                raise ParseError(f"move {i}: {exc}") from None
        else:
            raise TypeError(f"move {i} must be a Move or a move string, got {type(item).__name__}")
        if len(moves) > MAX_RECORD_MOVES:
            raise RecordError(f"a record holds at most {MAX_RECORD_MOVES} moves")
    return tuple(moves)


def _check_text(what: str, value: object) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a str, got {type(value).__name__}")
    if len(value) > MAX_VALUE_LENGTH:
        raise RecordError(f"{what} is too long ({len(value)} characters, at most {MAX_VALUE_LENGTH})")
    bad = _BAD_CHAR_RE.search(value)
    if bad:
        raise RecordError(
            f"{what} holds the control or surrogate character {bad.group()!r} at {bad.start()}"
        )
    return value


def _to_players(value: Sequence[str] | None) -> tuple[str, str] | None:
    if value is None:
        return None
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(f"players must be two names or None, got {type(value).__name__}")
    names = tuple(value)
    if len(names) != 2:
        raise RecordError(f"players must be two names (player 0's, player 1's), got {len(names)}")
    return (_check_text("player 0's name", names[0]), _check_text("player 1's name", names[1]))


def _to_date(value: str | None) -> str | None:
    return None if value is None else _check_text("date", value)


def _to_result(value: str | None) -> str | None:
    if value is None or value in RESULTS:
        return value
    raise RecordError(f"result must be one of {', '.join(RESULTS)} or None, got {brief(value)}")


def _to_tags(
    value: Mapping[str, str] | Iterable[tuple[str, str]],
) -> tuple[tuple[str, str], ...]:
    items = value.items() if isinstance(value, Mapping) else value
    if isinstance(items, (str, bytes)) or not isinstance(items, Iterable):
        raise TypeError(f"tags must be a mapping or (key, value) pairs, got {type(value).__name__}")
    tags: list[tuple[str, str]] = []
    seen: set[str] = set()
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"a tag must be a (key, value) pair, got {brief(item)}")
        key, text = item
        if not isinstance(key, str) or not _KEY_RE.fullmatch(key):
            raise RecordError(
                f"tag key {brief(key)} must be a letter then up to 63 letters, digits or '_'"
            )
        if key.lower() in RESERVED_LOWER:
            raise RecordError(f"tag key {brief(key)} is reserved ({', '.join(RESERVED)} are fields)")
        if key in seen:
            raise RecordError(f"tag {brief(key)} given twice")
        seen.add(key)
        tags.append((key, _check_text(f"tag {brief(key)}", text)))
        if len(tags) > MAX_TAGS:
            raise RecordError(f"a record holds at most {MAX_TAGS} tags")
    return tuple(tags)


@attrs.frozen
class GameRecord:
    """A game as the rules, the deal (a seed or a start position) and the moves made, plus metadata.

    Records are values: equal records describe the same game. A record is
    not checked against the rules when it is built or read; :meth:`replay`
    and :meth:`states` play it and raise :class:`RecordError` at the first
    illegal move.

    - ``rules``: a :class:`~crapette.RuleSet`, or a rules text such as
      ``"classic"`` (see :func:`~crapette.parse_rules`);
    - ``seed``: the seed the game was dealt from (see :func:`~crapette.new_game`),
      or None when ``start`` is given; exactly one of the two;
    - ``moves``: the moves made, as :class:`~crapette.Move` values or notation strings;
    - ``start`` (keyword): the state the game started from, when it was not a fresh deal;
    - ``players`` (keyword): the names of player 0 and player 1, or None;
    - ``date`` (keyword): free text (ISO 8601 ``YYYY-MM-DD`` recommended), or None;
    - ``result`` (keyword): one of ``RESULTS`` (``'1-0'``: player 0 won,
      ``'0-1'``, ``'1/2-1/2'``, ``'*'``: unknown), or None. It is metadata: a
      game may be resigned, so it is not checked against the moves;
    - ``tags`` (keyword): free ``(key, value)`` pairs (or a dict), in order.
      Keys are a letter and then up to 63 letters, digits or ``_``, and not
      one of the field names of the text form.

    Metadata values hold no control characters and at most 1024 characters.

    >>> record = GameRecord("casual", seed=1, moves=["T1-T0", "draw"], players=("Ann", "Bob"))
    >>> state = record.replay()
    >>> state.move_count, state.current_player
    (2, 0)
    >>> GameRecord.from_json(record.to_json()) == record
    True

    :raises RecordError: if the fields are inconsistent or a metadata value is invalid.
    :raises ParseError: if the rules text or a move string is malformed.
    :raises InvalidRulesError: if the rules text names impossible rules.
    :raises TypeError: if a field has the wrong type.

    .. versionadded:: 0.1.0
    """

    rules: RuleSet = attrs.field(converter=_to_rules)
    seed: int | None = None
    moves: tuple[Move, ...] = attrs.field(default=(), converter=_to_moves)
    start: GameState | None = attrs.field(default=None, kw_only=True)
    players: tuple[str, str] | None = attrs.field(default=None, kw_only=True, converter=_to_players)
    date: str | None = attrs.field(default=None, kw_only=True, converter=_to_date)
    result: str | None = attrs.field(default=None, kw_only=True, converter=_to_result)
    tags: tuple[tuple[str, str], ...] = attrs.field(default=(), kw_only=True, converter=_to_tags)

    def __attrs_post_init__(self) -> None:
        if (self.seed is None) == (self.start is None):
            raise RecordError("a record needs exactly one of seed and start")
        if self.seed is not None:
            try:
                check_seed(self.seed)
            except ValueError as exc:
                raise RecordError(str(exc)) from None
        if self.start is not None:
            if not isinstance(self.start, GameState):
                raise TypeError(f"start must be a GameState, got {type(self.start).__name__}")
            if self.start.rules != self.rules:
                raise RecordError(
                    f"the start position's rules ({self.start.rules}) "
                    f"differ from the record's rules ({self.rules})"
                )

    # Building -----------------------------------------------------------------

    @classmethod
    def from_states(
        cls,
        states: Iterable[GameState],
        *,
        seed: int | None = None,
        players: Sequence[str] | None = None,
        date: str | None = None,
        result: str | None = None,
        tags: Mapping[str, str] | Iterable[tuple[str, str]] = (),
    ) -> GameRecord:
        """The record of a game kept as its list of states (the undo pattern of :class:`~crapette.Game`).

        The first state is the start. Each next state must follow from the one
        before by one legal move; that move is recorded. With ``seed``, the
        first state must be the deal of that seed and the record keeps the
        seed; without, it keeps the first state as its start position.
        ``result`` defaults to the result of the last state's outcome
        (``'1-0'``, ``'0-1'``, ``'1/2-1/2'``, or None while it goes on).

        >>> from crapette import apply_move, legal_moves, new_game
        >>> states = [new_game("casual", seed=1)]
        >>> for _ in range(5):
        ...     states.append(apply_move(states[-1], legal_moves(states[-1])[0]))
        >>> record = GameRecord.from_states(states, seed=1)
        >>> [str(m) for m in record.moves]
        ['T1-T0', 'R0-T1', 'R0-T6', 'draw', 'draw']
        >>> record.replay() == states[-1]
        True

        :raises RecordError: if no state is given, the seed does not deal the
            first state, or a state does not follow from the one before.
        """
        items = list(states)
        if not items:
            raise RecordError("from_states() needs at least the start state")
        for i, state in enumerate(items):
            if not isinstance(state, GameState):
                raise TypeError(f"state {i} is not a GameState, got {type(state).__name__}")
        first = items[0]
        if seed is not None:
            try:
                check_seed(seed)
            except ValueError as exc:
                raise RecordError(str(exc)) from None
        if seed is not None and new_game(first.rules, seed) != first:
            raise RecordError(f"the first state is not the deal of seed {seed}")
        moves = []
        for i, (before, after) in enumerate(zip(items, items[1:])):
            for move in legal_moves(before):
                if apply_move(before, move) == after:
                    moves.append(move)
                    break
            else:
                raise RecordError(f"state {i + 1} does not follow from state {i} by any legal move", index=i)
        if result is None:
            result = result_of(items[-1].outcome)
        return cls(
            first.rules,
            seed,
            tuple(moves),
            start=None if seed is not None else first,
            players=players,
            date=date,
            result=result,
            tags=tags,
        )

    # Playing ------------------------------------------------------------------

    def initial_state(self) -> GameState:
        """The state before the first move: the deal of :attr:`seed`, or :attr:`start`.

        >>> GameRecord("classic", seed=7).initial_state().current_player
        1
        """
        if self.start is not None:
            return self.start
        assert self.seed is not None
        return new_game(self.rules, self.seed)

    def states(self) -> Iterator[GameState]:
        """Every state of the game: the initial state, then the state after each move.

        >>> record = GameRecord("casual", seed=1, moves=["T1-T0", "draw"])
        >>> [s.move_count for s in record.states()]
        [0, 1, 2]

        :raises RecordError: when it reaches an illegal move (after yielding
            the states before it), with the move's index and the reason.
        """
        state = self.initial_state()
        yield state
        for index, move in enumerate(self.moves):
            try:
                state = apply_move(state, move)
            except IllegalMoveError as exc:
                reason = explain_illegal(state, move)
                raise RecordError(
                    f"illegal move {move} at index {index} (move {index + 1} of the record): {reason}",
                    index=index,
                    move=move,
                    reason=reason,
                ) from exc
            yield state

    def replay(self) -> GameState:
        """Play every move and return the final state.

        >>> GameRecord("casual", seed=1, moves=["T1-T0"]).replay().move_count
        1

        :raises RecordError: at the first illegal move, with its index and the reason.
        """
        final: GameState | None = None
        for final in self.states():
            pass
        assert final is not None
        return final

    def turns(self) -> tuple[tuple[Move, ...], ...]:
        """The moves grouped by turn (each turn is one player's moves until the other moves).

        Stops grouping at the first illegal move: it and the moves after it
        form the last group.

        >>> [[str(m) for m in turn] for turn in GameRecord("casual", seed=1, moves=["T1-T0", "draw"]).turns()]
        [['T1-T0', 'draw']]
        """
        turns: list[tuple[Move, ...]] = []
        current: list[Move] = []
        state = self.initial_state()
        for index, move in enumerate(self.moves):
            try:
                after = apply_move(state, move)
            except IllegalMoveError:
                current.extend(self.moves[index:])
                break
            current.append(move)
            if after.current_player != state.current_player:
                turns.append(tuple(current))
                current = []
            state = after
        if current:
            turns.append(tuple(current))
        return tuple(turns)

    # JSON -----------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The record as the JSON-ready dict that :meth:`to_json` writes (see there for the layout).

        >>> GameRecord("casual", seed=1, moves=["T1-T0"]).to_dict()["moves"]
        ['T1-T0']
        """
        return _json_dict(self)

    def to_json(self, *, indent: int | None = None) -> str:
        """The record as JSON text; :meth:`from_json` reads it back exactly.

        The layout (version 1), every key always written, in this order::

            {
              "format": "crapette-record",   # identifies the layout
              "version": 1,                  # RECORD_FORMAT_VERSION
              "rules": "classic",            # str(rules), a rules text
              "seed": 42,                    # int, or null when "start" is given
              "start": null,                 # position string, or null when "seed" is given
              "moves": ["T1-T2", "draw"],    # move notation, in order
              "players": ["Ann", "Bob"],     # [player 0, player 1], or null
              "date": "2024-05-01",          # str or null
              "result": "1-0",               # "1-0", "0-1", "1/2-1/2", "*" or null
              "tags": {"Event": "club"}      # str to str, in order
            }

        Non-ASCII characters are written as they are (not escaped).

        >>> GameRecord("casual", seed=1, moves=["T1-T0"]).to_json()
        '{"format": "crapette-record", "version": 1, "rules": "casual", "seed": 1, "start": null, "moves": ["T1-T0"], "players": null, "date": null, "result": null, "tags": {}}'
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """Read the JSON that :meth:`to_json` writes.

        ``"format"``, ``"version"``, ``"rules"`` and ``"moves"`` are required,
        and exactly one of ``"seed"`` and ``"start"`` is not null; the other
        keys may be left out. Unknown keys, duplicate keys, ``NaN`` and
        nesting deeper than the layout needs are refused. The moves are not
        checked against the rules: :meth:`replay` does that.

        >>> GameRecord.from_json('{"format": "crapette-record", "version": 1, '
        ...                      '"rules": "classic", "seed": 3, "moves": ["draw"]}').moves
        (parse_move('draw'),)
        >>> GameRecord.from_json('{"format": "crapette-record", "version": 1, "rules": "casual", "seed": 3, "moves": ["R0-X9"]}')
        Traceback (most recent call last):
        ...
        crapette.ParseError: invalid record JSON: key 'moves', item 0: invalid move 'R0-X9': invalid pile 'X9': expected F0-F7, T0-T7, R0, R1, H0, H1, W0 or W1

        :raises ParseError: if the text is not JSON, longer than
            ``MAX_RECORD_LENGTH`` (4,000,000) characters, or does not follow the layout;
            the message names the key (and item) at fault.
        :raises InvalidRulesError: if the rules make no sense together or name
            a rule part that is not registered.
        :raises InvalidStateError: if the start position is impossible.
        :raises TypeError: if ``text`` is not a str.
        """
        check_text(text, "from_json", "invalid record JSON", MAX_RECORD_LENGTH)
        return _json_read(cls, text)

    # Text ---------------------------------------------------------------------

    def __str__(self) -> str:
        """The record as readable text: headers, then the moves turn by turn; :func:`~crapette.parse_record` reads it back.

        Headers are ``[Name "value"]`` lines (``\\`` and ``"`` escaped with a
        backslash): ``Rules``, then ``Seed`` or ``Position``, then ``Player0``
        and ``Player1``, ``Date``, ``Result`` when set, then the tags. After a
        blank line, one line per turn, ``<n>. <moves>``: turn 1 is the first
        player's, turn 2 the other's, and so on (turns alternate). The last
        line is the result, or ``*``.

        >>> moves = "T1-T0 draw T3-T1 R0-T3 R0-T6 pass draw draw".split()
        >>> print(GameRecord("casual", seed=1, moves=moves, players=("Ann", "Bob")))
        [Rules "casual"]
        [Seed "1"]
        [Player0 "Ann"]
        [Player1 "Bob"]
        <BLANKLINE>
        1. T1-T0 draw T3-T1 R0-T3 R0-T6 pass
        2. draw
        3. draw
        *
        """
        return _text_write(self)

    def to_text(self) -> str:
        """The text form: the same as ``str(record)``.

        .. deprecated:: 0.2.0
           Write ``str(record)``; :func:`~crapette.parse_record` reads it.
        """
        deprecated("GameRecord.to_text()", "str(record)")
        return str(self)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """Read the text form: the same as :func:`~crapette.parse_record`.

        .. deprecated:: 0.2.0
           Use :func:`~crapette.parse_record`.
        """
        deprecated("GameRecord.from_text()", "parse_record(text)")
        return parse_record(text)


def parse_record(text: str) -> GameRecord:
    """Read a game record: its text form, as ``str(record)`` writes it, or its JSON (text starting with ``{``).

    In the text form, header lines come first (``Rules`` and one of ``Seed``
    or ``Position`` are required), then the moves. In the moves, turn numbers
    (``12.``) are optional and their values are not checked, ``{...}``
    comments are ignored, and the last token must be the result (``1-0``,
    ``0-1``, ``1/2-1/2`` or ``*``), matching the ``Result`` header if there is
    one. JSON is read as :meth:`GameRecord.from_json` reads it. Moves are not
    checked against the rules: :meth:`GameRecord.replay` does that.

    >>> record = parse_record('[Rules "classic"]\\n[Seed "3"]\\n\\n1. draw {a comment} 2. T1-T2\\n*')
    >>> [str(m) for m in record.moves], record.result
    (['draw', 'T1-T2'], None)
    >>> parse_record(str(record)) == record == parse_record(record.to_json())
    True
    >>> parse_record('[Rules "classic"]\\n[Seed "3"]\\n\\n1. draw T9-F0 *')
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid record text: line 4, column 9: invalid move 'T9-F0': invalid pile 'T9': expected F0-F7, T0-T7, R0, R1, H0, H1, W0 or W1

    :raises ParseError: if the text is malformed or longer than
        ``MAX_RECORD_LENGTH`` (4,000,000) characters; the message gives the line (and column).
    :raises InvalidRulesError: if the rules make no sense together or name a
        rule part that is not registered.
    :raises InvalidStateError: if the start position is impossible.
    :raises TypeError: if ``text`` is not a str.
    """
    check_text(text, "parse_record", "invalid record text", MAX_RECORD_LENGTH)
    if text.lstrip()[:1] == "{":
        return GameRecord.from_json(text)
    return _text_read(GameRecord, text)
