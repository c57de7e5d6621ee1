"""Position strings: a whole game state on one line.

The parser takes untrusted text: it caps its length, never evaluates it, and
raises only :class:`ParseError` (malformed text), :class:`InvalidRulesError`
(rules that make no sense) or :class:`InvalidStateError` (an impossible
state), each saying what was wrong and where.
"""

from __future__ import annotations

from .._core.cards import Card, parse_card
from .._core.messages import brief
from .._core.moves import Move, parse_move
from .._core.options import parse_number
from .._core.rules import RuleSet, parse_rules
from .._core.state import F0, H0, MAX_TURN_MOVES, R0, T0, W0, GameState, deprecated
from ..errors import InvalidRulesError, ParseError

__all__ = [
    "MAX_POSITION_LENGTH",
    "check_text",
    "parse_position",
    "rules_from_text",
    "rules_to_text",
    "to_position",
]

#: The longest position string accepted: a real one is under 1,000 characters;
#: the bound leaves room for a turn's moves (at most ``MAX_TURN_MOVES``, 1,000).
MAX_POSITION_LENGTH = 16384


def check_text(text: object, caller: str, what: str, limit: int) -> str:
    """``text``, checked to be a str of at most ``limit`` characters: the first guard of a parser of untrusted text.

    >>> check_text("casual", "from_position", "invalid position", 4)
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid position: too long (6 characters, at most 4)

    :raises TypeError: if ``text`` is not a str (the message names ``caller``).
    :raises ParseError: if ``text`` is too long (the message starts with ``what``).
    """
    if not isinstance(text, str):
        raise TypeError(f"{caller}() expects a str, got {type(text).__name__}")
    if len(text) > limit:
        raise ParseError(f"{what}: too long ({len(text)} characters, at most {limit})")
    return text


def rules_to_text(rules: RuleSet) -> str:
    """The rules text of ``rules``: the same as ``str(rules)``.

    .. deprecated:: 0.2.0
       Write ``str(rules)``; :func:`~crapette.parse_rules` reads it.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     rules_to_text(RuleSet.classic()) == str(RuleSet.classic())
    True
    """
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules_to_text() expects a RuleSet, got {type(rules).__name__}")
    deprecated("rules_to_text(rules)", "str(rules)")
    return str(rules)


def rules_from_text(text: str) -> RuleSet:
    """Read a rules text: the same as :func:`~crapette.parse_rules`.

    .. deprecated:: 0.2.0
       Use :func:`~crapette.parse_rules`.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     rules_from_text("classic") is parse_rules("classic")
    True
    """
    deprecated("rules_from_text(text)", "parse_rules(text)")
    return parse_rules(text)


_GROUPS = (("F", F0, 8), ("T", T0, 8), ("R", R0, 2), ("H", H0, 2), ("W", W0, 2))
_FIELD_NAMES = ("rules", "player", "move count", "flags", "F:", "T:", "R:", "H:", "W:", "M:")


def _flags(state: GameState) -> str:
    flags = ("d" if state.drawn else "") + "p" * state.passes
    flags += "".join(f"x{p}" for p in (0, 1) if state.exhausted[p])
    flags += "".join(f"a{p}" for p in (0, 1) if state.played[p])
    if any(state.counters):
        flags += "".join(f"c{count}" for count in state.counters)
    return flags or "-"


def to_position(state: GameState) -> str:
    """The position string of ``state`` (what ``str(state)`` gives); see :func:`parse_position` for the grammar.

    >>> from crapette import new_game
    >>> to_position(new_game("casual", seed=1)).split()[:5]
    ['casual', '0', '0', '-', 'F:-/-/-/-/-/-/-/-']

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"to_position() expects a GameState, got {type(state).__name__}")
    parts = [str(state.rules), str(state.current_player), str(state.move_count), _flags(state)]
    for letter, base, count in _GROUPS:
        piles = state.piles[base : base + count]
        parts.append(letter + ":" + "/".join(",".join(map(str, p)) or "-" for p in piles))
    memory = _memory(state)
    if memory:
        parts.append("M:" + ",".join(memory))
    return " ".join(parts)


def _memory(state: GameState) -> list[str]:
    items = ["deal"] if state.from_deal else []
    items += [f"h{p}" for p in (0, 1) if state.hand_known[p]]
    items += [f"r{p}={n}" for p, n in enumerate(state.reserve_known) if n]
    items += [str(m) for m in state.turn_moves]
    return items


def _field_error(number: int, detail: str) -> ParseError:
    return ParseError(f"invalid position: field {number} ({_FIELD_NAMES[number - 1]}): {detail}")


def parse_position(text: str) -> GameState:
    """Read a position string, as ``str(state)`` writes it: nine fields separated by spaces, and the memory.

    ``<rules> <player> <move count> <flags> F:<piles> T:<piles> R:<piles> H:<piles> W:<piles> [M:<memory>]``

    - rules: a rules text (see :func:`~crapette.parse_rules`): a preset name,
      optionally followed by the options that differ from it in parentheses:
      ``classic(foundation_plays=optional,move_limit=500)``;
    - player: the player to move, ``0`` or ``1``; move count: moves made so far;
    - flags: ``-`` or any of ``d`` (the waste top was drawn this turn),
      ``p`` or ``pp`` (consecutive passes), ``x0``/``x1`` (player marked
      exhausted), ``a0``/``a1`` (player played a hand or reserve card since
      the last turnover), and, when the rules have endings of their own and a
      count is not zero, ``c<count>`` for each of them in order (e.g. ``c3c0``);
    - the piles of each kind in the order of :data:`~crapette.ALL_PILES`,
      separated by ``/``; each pile lists its cards bottom to top,
      separated by commas, or is ``-`` when empty;
    - the memory, written when the state remembers anything (since 0.3.0;
      left out, nothing is known beyond what the piles show): ``M:`` then,
      separated by commas, ``deal`` (:attr:`~crapette.GameState.from_deal`),
      ``h0``/``h1`` (:attr:`~crapette.GameState.hand_known`), ``r0=<n>``/``r1=<n>``
      (:attr:`~crapette.GameState.reserve_known`), and the turn's moves between
      tableau piles, first to last (:attr:`~crapette.GameState.turn_moves`).

    ``parse_position(str(state)) == state`` for every state.

    >>> from crapette import apply_move, new_game, parse_move
    >>> state = new_game("classic", seed=2)
    >>> parse_position(str(state)) == state, str(state).split()[-1]
    (True, 'M:deal')
    >>> parse_position("casual 2 0 - F: T: R: H: W:")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid position: field 2 (player): the player to move must be 0 or 1, got '2'

    :raises ParseError: if the text is malformed or longer than
        ``MAX_POSITION_LENGTH`` (16,384) characters; the message names the field,
        pile and card.
    :raises InvalidRulesError: if the rules make no sense or name a rule part
        that is not registered.
    :raises InvalidStateError: if the text describes an impossible state, or a
        memory that the piles and rules make impossible (a known card that
        cannot be, a turn's move that does not fit the piles or was not legal).
    :raises TypeError: if ``text`` is not a str.

    .. versionchanged:: 0.3.0
       The memory field.
    """
    check_text(text, "parse_position", "invalid position", MAX_POSITION_LENGTH)
    fields = text.split()
    if len(fields) not in (9, 10):
        raise ParseError(
            "invalid position: expected 9 fields separated by spaces (rules, player, "
            f"move count, flags, F:, T:, R:, H:, W:) and maybe the memory M:, got {len(fields)}"
        )
    try:
        rules = parse_rules(fields[0])
    except ParseError as exc:
        raise _field_error(1, str(exc)) from None
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid position: field 1 (rules): {exc}") from None
    if fields[1] not in ("0", "1"):
        raise _field_error(2, f"the player to move must be 0 or 1, got {brief(fields[1], 40)}")
    player = int(fields[1])
    try:
        move_count = parse_number("the move count", fields[2])
    except ParseError as exc:
        raise _field_error(3, str(exc)) from None
    drawn, passes, exhausted, played, counters = _parse_flags(fields[3], len(rules.endings))
    piles: list[tuple[Card, ...]] = []
    for number, (letter, base, count) in enumerate(_GROUPS, 5):
        field = fields[number - 1]
        head, colon, body = field.partition(":")
        if head.upper() != letter or not colon:
            raise _field_error(number, f"expected {letter}: followed by {count} piles, got {brief(field, 20)}")
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
    known, reserve, dealt, turn = _parse_memory(fields[9]) if len(fields) == 10 else ((False, False), (0, 0), False, ())
    return GameState(
        rules, tuple(piles), player, move_count, drawn, passes, exhausted, played, counters, known, reserve, dealt, turn
    )


def _parse_memory(field: str) -> tuple[tuple[bool, bool], tuple[int, int], bool, tuple[Move, ...]]:
    head, colon, body = field.partition(":")
    if head.upper() != "M" or not colon or not body:
        raise _field_error(10, f"expected M: followed by what the state remembers, got {brief(field, 20)}")
    known, reserve = [False, False], [0, 0]
    dealt = False
    turn: list[Move] = []
    items = body.split(",")
    if len(items) > MAX_TURN_MOVES + 5:
        raise _field_error(10, f"{len(items)} items: a state remembers at most {MAX_TURN_MOVES} turn moves")
    for position, item in enumerate(items, 1):
        low = item.lower()
        if low == "deal" and not dealt and not turn:
            dealt = True
        elif low in ("h0", "h1") and not known[int(low[1])] and not turn:
            known[int(low[1])] = True
        elif low[:3] in ("r0=", "r1=") and not reserve[int(low[1])] and not turn:
            try:
                count = parse_number("a known reserve count", low[3:])
            except ParseError as exc:
                raise _field_error(10, f"item {position} ({brief(item, 20)}): {exc}") from None
            if not 1 <= count <= 103:
                raise _field_error(10, f"item {position}: a known reserve count is 1 to 103, got {count}")
            reserve[int(low[1])] = count
        else:
            try:
                turn.append(parse_move(item))
            except ParseError:
                raise _field_error(
                    10,
                    f"unexpected {brief(item, 20)} at item {position} (expected deal, h0, h1, r0=<n>, r1=<n> "
                    "once each, then the turn's moves between tableau piles)",
                ) from None
    return (known[0], known[1]), (reserve[0], reserve[1]), dealt, tuple(turn)


def _parse_flags(
    text: str, endings: int
) -> tuple[bool, int, tuple[bool, bool], tuple[bool, bool], tuple[int, ...]]:
    zeros = (0,) * endings
    if text == "-":
        return False, 0, (False, False), (False, False), zeros
    drawn, passes = False, 0
    exhausted, played = [False, False], [False, False]
    counters: list[int] = []
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
                raise _field_error(4, f"{text[i:i + 2]} given twice in {brief(text, 20)}")
            target[int(text[i + 1])] = True
            i += 2
        elif ch == "c" and text[i + 1 : i + 2].isdigit():
            end = i + 1
            while end < len(text) and text[end].isdigit():
                end += 1
            try:
                counters.append(parse_number("a count", text[i + 1 : end]))
            except ParseError as exc:
                raise _field_error(4, str(exc)) from None
            i = end
        else:
            raise _field_error(
                4,
                f"unexpected {brief(text[i:i + 2], 20)} at character {i + 1} of {brief(text, 20)} "
                "(expected '-' or d, p, pp, x0, x1, a0, a1, c<count>)",
            )
    if counters and len(counters) != endings:
        raise _field_error(
            4, f"{len(counters)} count(s) given, but the rules have {endings} ending(s) that keep one"
        )
    return drawn, passes, (exhausted[0], exhausted[1]), (played[0], played[1]), tuple(counters) or zeros
