"""The drawing of the table shared by :func:`crapette.svg.render` and the replay page: geometry, SVG templates, piles, labels, name plates, arrows and the argument checks."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from typing import NamedTuple
from xml.sax.saxutils import escape

from .._core.cards import Card, Colour, Rank
from .._core.messages import brief
from .._core.moves import Draw, EndTurn, Move, MoveStack, Pass, Play
from .._core.rules import RuleSet, TableauSources
from .._core.state import ALL_PILES, Pile, PileKind
from .seen import Shown, Table, check_table
from .seen import shown as shown_piles

# Geometry (user units; ``size`` scales the whole picture).
CARD_W = 60
CARD_H = 84
_RADIUS = 5
FAN = 20  # offset between fanned tableau cards: enough to show rank and suit
FAN_ROOM = 11 * FAN  # the fan squeezes its cards together beyond 12 cards
_MARGIN = 16
_GAP = 24  # between a tableau pile's first card and the foundations
WIDTH = 2 * (_MARGIN + FAN_ROOM + CARD_W + _GAP) + 2 * CARD_W + 16
_HEADER = 30
_LABEL = 16  # room for a pile's label above it
_ROW = _LABEL + CARD_H + 8
_TOP_ROW_Y = _HEADER + _LABEL
_TABLEAU_Y = _HEADER + _ROW + 10 + _LABEL
_BOTTOM_ROW_Y = _TABLEAU_Y + 4 * _ROW + 2
HEIGHT = _BOTTOM_ROW_Y + CARD_H + 22
_CX = WIDTH // 2
_INDEX_W, _INDEX_H = 16, 31  # a card's corner index (rank over suit), at x 10 and 50, y 4

# Colours.
_FELT = "#2c6e49"
_FELT_EDGE = "#1f5236"
_INK = "#e9f2ea"  # labels on the felt
_DIM = "#a9cdb4"
_FACE = "#fffdf7"
_EDGE = "#5b5b5b"
_RIM = "#1b1b1b"
SUIT_INK = {Colour.RED: "#c8102e", Colour.BLACK: "#1b1b1b"}
#: The back of each deck: player 0's cards are blue, player 1's red.
DECK_COLOURS = ("#2356a8", "#a8232f")
_MARK = "#ffc233"  # turn marker, highlights and arrows
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


def coordinate(value: float) -> str:
    """A coordinate, written the same way on every platform."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


# Templates -------------------------------------------------------------------
#
# Every element that changes from one position to the next is written once, as
# markup with {fields}: render() fills the fields here, and the replay page's
# script fills the same templates in the browser, so both draw the same table.


class _Template:
    """Markup with ``{field}`` places, filled with XML-escaped text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.fields = tuple(dict.fromkeys(re.findall(r"\{(\w+)\}", text)))

    def __call__(self, **values: str) -> Cmd:
        return Cmd(self, tuple(values[name] for name in self.fields))


class Cmd(NamedTuple):
    """One filled template: what to draw, in a form for SVG text or for the page's data."""

    template: _Template
    values: tuple[str, ...]

    def markup(self) -> str:
        fill = dict(zip(self.template.fields, self.values))
        return re.sub(r"\{(\w+)\}", lambda m: escape(fill[m.group(1)], {'"': "&quot;"}), self.template.text)


def _corner(cx: str) -> str:
    """Rank over suit, as in a card's top corners."""
    return (
        f'<text x="{cx}" y="17" font-size="{{size}}" letter-spacing="{{spacing}}">{{rank}}</text>'
        f'<text x="{cx}" y="31" font-size="13">{{suit}}</text>'
    )


_CARD_RECT = f'width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}"'
FACE_T = _Template(
    '<g class="card" data-card="{card}" data-pile="{pile}" transform="translate({x} {y})">'
    f'<title>{{card}}</title><rect {_CARD_RECT} fill="{_FACE}" stroke="{_EDGE}"/>'
    # The deck shows as a band in its back colour along the bottom edge.
    f'<rect x="4" y="{CARD_H - 7}" width="{CARD_W - 8}" height="3" rx="1.5" fill="{{band}}"/>'
    # Rank and suit in both top corners: a fan to either side leaves one of them in view.
    f'<g fill="{{ink}}" text-anchor="middle" font-weight="bold">{_corner("10")}{_corner(str(CARD_W - 10))}'
    f'<text x="{CARD_W // 2}" y="62" font-size="28">{{suit}}</text></g></g>'
)
# A corner index drawn again over the arrows, so that an arrow never hides a card's rank and suit.
_INDEX_T = _Template(
    '<g class="index" transform="translate({x} {y})">'
    f'<rect x="{{left}}" y="4" width="{_INDEX_W}" height="{_INDEX_H}" fill="{_FACE}"/>'
    f'<g fill="{{ink}}" text-anchor="middle" font-weight="bold">{_corner("{cx}")}</g></g>'
)
_DEPTH_T = _Template(f'<rect x="{{x}}" y="{{y}}" {_CARD_RECT} fill="{{colour}}" stroke="{_EDGE}" stroke-width="0.8"/>')
_EMPTY_T = _Template(
    f'<rect x="{{x}}" y="{{y}}" {_CARD_RECT} fill="#000000" fill-opacity="0.12" stroke="{_DIM}" '
    'stroke-width="1.2" stroke-dasharray="4 3"/>'
)
_DIAMONDS = "".join(
    f'<path d="M30 {32 + dy} L44 {42 + dy} L30 {52 + dy} L16 {42 + dy} Z"/>' for dy in (-22, 0, 22)
)
_BACK_T = _Template(
    '<g class="back" data-pile="{pile}" transform="translate({x} {y})">'
    f'<rect {_CARD_RECT} fill="{{colour}}" stroke="#f4f4f4" stroke-width="1.5"/>'
    f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" fill="none" stroke="#ffffff" '
    'stroke-opacity="0.55" stroke-width="1"/>'
    f'<g fill="#ffffff" fill-opacity="0.22" stroke="#ffffff" stroke-opacity="0.5" stroke-width="1">{_DIAMONDS}</g></g>'
)
BADGE_T = _Template(
    '<g class="count" data-pile="{pile}" transform="translate({x} {y})">'
    f'<rect x="{CARD_W // 2 - 14}" y="{CARD_H - 6}" width="28" height="16" rx="8" fill="#111111" '
    'fill-opacity="0.82" stroke="#ffffff" stroke-width="1"/>'
    f'<text x="{CARD_W // 2}" y="{CARD_H + 6}" fill="#ffffff" font-size="11" font-weight="bold" '
    'text-anchor="middle">{count}</text></g>'
)
_OUTLINE_T = _Template(
    f'<rect x="{{x}}" y="{{y}}" width="{{w}}" height="{{h}}" rx="7" fill="none" stroke="{_MARK}" stroke-width="3"/>'
)
# An arrow's width, its rim's, its head's length and half width, and its tail's radius, at full size;
# many arrows are drawn smaller.
_SHAFT, _RIM_W, _HEAD_LEN, _HEAD_HALF, _TAIL = 4.0, 7.5, 15.0, 8.0, 4.5
_HEAD_ROOM = 28  # how far into a card's lower part an arrow from below may reach
# An arrow: a dark rim under it keeps it visible on white cards and on the felt.
_ARROW_T = _Template(
    '<g class="arrow" data-move="{move}">'
    f'<path d="{{shaft}}" fill="none" stroke="{_RIM}" stroke-opacity="0.5" stroke-width="{{rim}}" '
    'stroke-linecap="round"/>'
    f'<path d="{{shaft}}" fill="none" stroke="{_MARK}" stroke-width="{{width}}" stroke-linecap="round"/>'
    f'<path d="{{head}}" fill="{_MARK}" stroke="{_RIM}" stroke-opacity="0.6" stroke-width="1.5" '
    'stroke-linejoin="round"/>'
    f'<circle cx="{{sx}}" cy="{{sy}}" r="{{r}}" fill="{_MARK}" stroke="{_RIM}" stroke-opacity="0.6" '
    'stroke-width="1.5"/></g>'
)
_NOTE_T = _Template(
    f'<g class="note"><rect x="{{x}}" y="{{y}}" width="{{w}}" height="26" rx="13" fill="{_MARK}"/>'
    f'<text x="{{tx}}" y="{{ty}}" fill="#1b1b1b" font-size="13" font-weight="bold" '
    'text-anchor="middle">{text}</text></g>'
)
_HEAD_Y = _HEADER - 10
_STATUS_T = _Template(
    f'<text x="{_CX}" y="{_HEAD_Y}" fill="{_INK}" font-size="13" text-anchor="middle">{{text}}</text>'
)
# The outcome goes in the header, where it hides no card.
_OUTCOME_T = _Template(
    f'<g class="outcome"><rect x="{{x}}" y="4" width="{{w}}" height="24" rx="12" fill="{_MARK}"/>'
    f'<text x="{_CX}" y="{_HEAD_Y}" fill="#1b1b1b" font-size="13" font-weight="bold" '
    'text-anchor="middle">{text}</text></g>'
)
_MOVE_NO_T = _Template(
    f'<text x="{WIDTH - _MARGIN}" y="{_HEAD_Y}" fill="{_INK}" font-size="13" text-anchor="end">move {{n}}</text>'
)
TEMPLATES = (
    FACE_T, _INDEX_T, _DEPTH_T, _EMPTY_T, _BACK_T, BADGE_T, _OUTLINE_T, _ARROW_T, _NOTE_T,
    _STATUS_T, _OUTCOME_T, _MOVE_NO_T,
)


def _face(card: Card, x: float, y: float, pile: Pile) -> Cmd:
    rank, size, spacing = RANK_STYLE[card.rank]
    return FACE_T(card=str(card), pile=str(pile), x=coordinate(x), y=coordinate(y), band=DECK_COLOURS[card.deck],
                   ink=SUIT_INK[card.colour], size=size, spacing=spacing, rank=rank, suit=card.suit.symbol)


#: Per rank: its text in the corners, font size and letter spacing (the 10 is squeezed).
RANK_STYLE = {r: ("10", "12", "-1") if r == 10 else (r.symbol, "14", "0") for r in Rank}


# Layout ----------------------------------------------------------------------


class Layout:
    """Where every pile lies for one perspective.

    The table is seen from the player at the bottom: the foundations in two
    columns in the middle, the tableau piles fanned outwards to either side
    of them (the bottom player's deck on the left), and each player's
    reserve, hand and waste along that player's edge.
    """

    def __init__(self, perspective: int) -> None:
        self.perspective = perspective
        bottom, top = perspective, 1 - perspective
        left_tableau_x = _MARGIN + FAN_ROOM
        right_tableau_x = WIDTH - _MARGIN - FAN_ROOM - CARD_W
        left_found_x = _CX - 8 - CARD_W
        right_found_x = _CX + 8
        self.slot: dict[Pile, tuple[int, int]] = {}
        #: Fan direction of each tableau pile: -1 to the left, +1 to the right.
        self.fan: dict[Pile, int] = {}
        for row in range(4):
            y = _TABLEAU_Y + row * _ROW
            for column, deck, tx, fx, direction in (
                (0, bottom, left_tableau_x, left_found_x, -1),
                (1, top, right_tableau_x, right_found_x, 1),
            ):
                tableau = Pile.tableau(4 * deck + row)
                self.slot[tableau] = (tx, y)
                self.fan[tableau] = direction
                self.slot[Pile.foundation(4 * column + row)] = (fx, y)
        for player, y in ((bottom, _BOTTOM_ROW_Y), (top, _TOP_ROW_Y)):
            step = CARD_W + 34
            self.slot[Pile.reserve(player)] = (_CX - CARD_W // 2 - step, y)
            self.slot[Pile.hand(player)] = (_CX - CARD_W // 2, y)
            self.slot[Pile.waste(player)] = (_CX - CARD_W // 2 + step, y)

    def fan_step(self, count: int) -> float:
        if count <= 1:
            return 0.0
        return float(min(FAN, FAN_ROOM / (count - 1)))

    def card_x(self, pile: Pile, position: int, count: int) -> float:
        """The x of the card at ``position`` (0 = bottom) of a pile of ``count`` cards."""
        x, _ = self.slot[pile]
        if pile.kind is not PileKind.TABLEAU:
            return float(x)
        return x + self.fan[pile] * position * self.fan_step(count)

    def anchor(self, pile: Pile, position: int, count: int) -> Point:
        """The middle of the visible part of a card (or of the empty slot)."""
        _, y = self.slot[pile]
        x = self.card_x(pile, max(position, 0), count)
        if pile.kind is PileKind.TABLEAU and 0 <= position < count - 1:
            step = self.fan_step(count)
            # Only a strip of a covered card shows, on the side away from the fan.
            strip_left = x + CARD_W - step if self.fan[pile] < 0 else x
            return strip_left + step / 2, y + CARD_H / 2
        return x + CARD_W / 2, y + CARD_H / 2

    def arrival_box(self, pile: Pile, count: int) -> Box:
        """Where an arrow into a pile stops: at its cards (or slot) and the label above them.

        An arrow from below may reach into the lower part of the cards, which
        shows neither rank nor suit; so its head stays clear of the label and
        the count below the pile.
        """
        x, y = self.slot[pile]
        left, width = float(x), float(CARD_W + 4)  # squared piles show their depth to the right
        if pile.kind is PileKind.TABLEAU:
            first, last = self.card_x(pile, 0, count), self.card_x(pile, max(count - 1, 0), count)
            left, width = min(first, last), abs(last - first) + CARD_W
        return left, y - _LABEL, width, _LABEL + CARD_H - _HEAD_ROOM


# The public view of a pile: how many cards it holds, and the cards that lie face up.
_Shown = Shown


def seen_piles(table: Table) -> list[_Shown]:
    """What a player sees of each pile, in :data:`ALL_PILES` order."""
    return shown_piles(table)


def pile_text(pile: Pile, shown: _Shown) -> str:
    """A pile as the page's data holds it: a tableau pile's cards, any other pile's count and top card."""
    count, cards = shown
    if pile.kind is PileKind.TABLEAU:
        return " ".join(map(str, cards))
    return " ".join([str(count), *map(str, cards)])


# Drawing ---------------------------------------------------------------------
# The page's script draws the piles the same way: see _SCRIPT's drawPile().


class _PileParts(NamedTuple):
    """The fixed markup of one pile: around it, empty, its depth (1 or 2 cards) and its back."""

    before: str
    after: str
    empty: str
    depth: tuple[str, str, str]
    back: str


def pile_parts(layout: Layout, pile: Pile) -> _PileParts:
    x, y = layout.slot[pile]
    grouped = pile.kind is not PileKind.FOUNDATION
    before = f'<g class="pile" data-pile="{pile}">' if grouped else ""
    colour = DECK_COLOURS[pile.index] if pile.kind in (PileKind.RESERVE, PileKind.HAND) else _FACE
    depth = [""]
    for count in (1, 2):  # the edges of the cards under the top card, so a pile looks thick
        depth.append("".join(_DEPTH_T(x=coordinate(x + 2 * i), y=coordinate(y + 2 * i), colour=colour).markup()
                             for i in range(count, 0, -1)))
    back = _BACK_T(pile=str(pile), x=coordinate(x), y=coordinate(y), colour=colour).markup() if pile.kind is PileKind.HAND else ""
    return _PileParts(before, "</g>" if grouped else "", _EMPTY_T(x=coordinate(x), y=coordinate(y)).markup(),
                      (depth[0], depth[1], depth[2]), back)


def draw_pile(layout: Layout, parts: _PileParts, pile: Pile, shown: _Shown) -> str:
    count, cards = shown
    out = [parts.before]
    if count == 0:
        out.append(parts.empty)
    elif pile.kind is PileKind.TABLEAU:
        out += [_face(card, layout.card_x(pile, i, count), layout.slot[pile][1], pile).markup()
                for i, card in enumerate(cards)]
    else:
        out.append(parts.depth[min(count - 1, 2)])
        x, y = layout.slot[pile]
        out.append(_face(cards[0], x, y, pile).markup() if cards else parts.back)
    out.append(parts.after)
    return "".join(out)


def count_badges(layout: Layout, shown: Sequence[_Shown]) -> list[Cmd]:
    cmds = []
    for pile in ALL_PILES[16:]:  # the reserves, hands and wastes
        x, y = layout.slot[pile]
        cmds.append(BADGE_T(pile=str(pile), x=coordinate(x), y=coordinate(y), count=str(shown[pile.id][0])))
    return cmds


def _label(x: float, y: float, text: str, anchor: str = "start") -> str:
    # A patch of felt behind the text: an arrow passes under a label, never over it.
    width = 7.4 * len(text) + 4
    left = {"start": x - 2, "middle": x - width / 2, "end": x + 2 - width}[anchor]
    return (
        f'<g class="label"><rect x="{coordinate(left)}" y="{coordinate(y - 14)}" width="{coordinate(width)}" height="10.5" '
        f'fill="{_FELT}"/><text x="{coordinate(x)}" y="{coordinate(y - 5)}" fill="{_INK}" font-size="11" '
        f'font-weight="bold" text-anchor="{anchor}">{escape(text)}</text></g>'
    )


def labels(layout: Layout, rules: RuleSet) -> str:
    """The name of every pile in the move notation, and in the casual game whose tableau piles are whose."""
    out = []
    for pile in ALL_PILES:
        x, y = layout.slot[pile]
        if pile.kind is PileKind.FOUNDATION:
            out.append(_label(x + CARD_W / 2, y, str(pile), "middle"))
        elif pile.kind is PileKind.TABLEAU:
            # Over the first card, on the side next to the foundations.
            left = layout.fan[pile] < 0
            label_x = x + CARD_W if left else x
            out.append(_label(label_x, y, str(pile), "end" if left else "start"))
            if _owned(rules):
                dot_x = label_x - 25 if left else label_x + 25
                out.append(f'<circle cx="{coordinate(dot_x)}" cy="{coordinate(y - 9)}" r="4" fill="{DECK_COLOURS[pile.index // 4]}" '
                           'stroke="#ffffff" stroke-width="1"/>')
        else:
            out.append(_label(x, y, f"{pile} {pile.kind.name.lower()}"))
    return "".join(out)


def _owned(rules: RuleSet) -> bool:
    """True if the tableau piles belong to the players (the casual game), not shared houses."""
    return rules.tableau_sources is TableauSources.OWN or rules.own_tableau_build is not rules.opponent_tableau_build


def status_text(state: Table) -> str:
    if state.outcome is not None:
        return "game over"
    return f"player {state.current_player} to move"


def header(state: Table) -> list[Cmd]:
    if state.outcome is None:
        status = _STATUS_T(text=status_text(state))
    else:
        text = f"Game over: {state.outcome}"
        half = min(200, 12 + 4 * len(text))
        status = _OUTCOME_T(x=coordinate(_CX - half), w=coordinate(2 * half), text=text)
    return [status, _MOVE_NO_T(n=str(state.move_count))]


def header_static(rules_name: str) -> str:
    return (
        f'<text x="{_MARGIN}" y="{_HEAD_Y}" fill="{_INK}" font-size="13" font-weight="bold">'
        f"crapette \u00b7 {escape(rules_name)} rules</text>"
    )


# A player's name plate: plain, marked as the player to move, or as the winner, with notes below.
_PLAIN, _TO_MOVE, _WINNER = 0, 1, 2
_EXHAUSTED, _DRAWN = 1, 2  # flags


def plate_key(state: Table, player: int) -> int:
    if state.outcome is None:
        mode = _TO_MOVE if state.current_player == player else _PLAIN
    else:
        mode = _WINNER if state.outcome.winner == player else _PLAIN
    flags = _EXHAUSTED if state.exhausted[player] and state.rules.stalemate else 0
    if state.drawn and mode == _TO_MOVE:
        flags |= _DRAWN
    return 4 * mode + flags


def plate_name(name: str) -> str:
    """A player's name as a plate shows it: at most 14 characters (cut with an ellipsis)."""
    return name if len(name) <= 14 else name[:13] + "\u2026"


def plate(layout: Layout, player: int, key: int, name: str | None = None) -> str:
    """Player ``player``'s name plate in the state ``key`` says (:func:`plate_key`), named ``name`` (else "Player 0")."""
    shown = f"Player {player}" if name is None else plate_name(name)
    size = 17 if len(shown) <= 8 else max(10, 17 * 8 // len(shown))  # a long name, smaller: the note stays clear
    mode, flags = divmod(key, 4)
    _, y = layout.slot[Pile.reserve(player)]
    x = _MARGIN + 8
    cy = y + CARD_H / 2
    out = [f'<g class="player" data-player="{player}">']
    if mode != _PLAIN:
        out.append(f'<rect x="{coordinate(x - 8)}" y="{coordinate(cy - 17)}" width="190" height="34" rx="17" fill="{_MARK}"/>')
    if mode == _TO_MOVE:
        out.append(f'<path d="M{coordinate(x + 2)} {coordinate(cy - 7)} L{coordinate(x + 14)} {coordinate(cy)} L{coordinate(x + 2)} {coordinate(cy + 7)} Z" '
                   'fill="#1b1b1b"/>')
    ink = "#1b1b1b" if mode != _PLAIN else _INK
    out.append(f'<circle cx="{coordinate(x + 28)}" cy="{coordinate(cy)}" r="7" fill="{DECK_COLOURS[player]}" '
               'stroke="#ffffff" stroke-width="1.5"/>')
    out.append(f'<text x="{coordinate(x + 42)}" y="{coordinate(cy + 6)}" fill="{ink}" font-size="{size}" font-weight="bold">'
               f"{escape(shown)}</text>")
    note = {_TO_MOVE: "to move", _WINNER: "winner"}.get(mode)
    if note:
        out.append(f'<text x="{coordinate(x + 128)}" y="{coordinate(cy + 5)}" fill="{ink}" font-size="12">{note}</text>')
    notes = ["exhausted"] if flags & _EXHAUSTED else []
    if flags & _DRAWN:
        notes.append(f"W{player} top was drawn this turn")
    for i, text in enumerate(notes):
        out.append(f'<text x="{coordinate(x)}" y="{coordinate(cy + 32 + 14 * i)}" fill="{_INK}" font-size="11" '
                   f'font-style="italic">{text}</text>')
    out.append("</g>")
    return "".join(out)


# Arrows ------------------------------------------------------------------------

Point = tuple[float, float]
Box = tuple[float, float, float, float]


def _bezier(p0: Point, p1: Point, p2: Point, t: float) -> Point:
    u = 1 - t
    return (u * u * p0[0] + 2 * u * t * p1[0] + t * t * p2[0], u * u * p0[1] + 2 * u * t * p1[1] + t * t * p2[1])


def _inside(p: Point, box: Box, margin: float = 0.0) -> bool:
    x, y, w, h = box
    return x - margin <= p[0] <= x + w + margin and y - margin <= p[1] <= y + h + margin


class _Arrow(NamedTuple):
    """One arrow: a curve from the moving card's middle to the edge of the target pile."""

    move: Move
    start: Point
    control: Point
    end: Point  # where the shaft meets the head
    head: tuple[Point, Point, Point]  # tip, then the two corners
    scale: float  # of the widths

    def path(self) -> str:
        (sx, sy), (cx, cy), (ex, ey) = self.start, self.control, self.end
        return f"M{coordinate(sx)} {coordinate(sy)} Q{coordinate(cx)} {coordinate(cy)} {coordinate(ex)} {coordinate(ey)}"

    def head_path(self) -> str:
        (tx, ty), (ax, ay), (bx, by) = self.head
        return f"M{coordinate(tx)} {coordinate(ty)} L{coordinate(ax)} {coordinate(ay)} L{coordinate(bx)} {coordinate(by)} Z"

    def cmd(self) -> Cmd:
        return _ARROW_T(move=str(self.move), rim=coordinate(_RIM_W * self.scale), shaft=self.path(),
                        width=coordinate(_SHAFT * self.scale), head=self.head_path(), sx=coordinate(self.start[0]),
                        sy=coordinate(self.start[1]), r=coordinate(_TAIL * self.scale))

    def segments(self) -> list[tuple[Point, Point]]:
        """The arrow as straight pieces: the curve in short steps, and the sides of the head."""
        points = [_bezier(self.start, self.control, self.end, i / 12) for i in range(13)]
        tip, a, b = self.head
        return [*zip(points, points[1:]), (tip, a), (a, b), (b, tip)]


class _Route(NamedTuple):
    move: Move
    source: Pile
    target: Pile
    start: Point
    aim: Point
    box: Box  # the room of the target pile, where the arrow stops


def _routes(layout: Layout, state: Table, shown: Sequence[_Shown], moves: Sequence[Move]) -> list[_Route]:
    routes = []
    for move in moves:
        if isinstance(move, (Play, MoveStack)):
            count = move.count if isinstance(move, MoveStack) else 1
            source, target = move.source, move.target
        elif isinstance(move, Draw):
            count, source, target = 1, Pile.hand(state.current_player), Pile.waste(state.current_player)
        else:
            continue
        size = shown[source.id][0]
        start = layout.anchor(source, size - count, size)
        if isinstance(move, Draw):  # from the right half of the hand
            start = (start[0] + CARD_W / 5, start[1])
        tsize = shown[target.id][0]
        routes.append(_Route(move, source, target, start, layout.anchor(target, tsize - 1, tsize),
                             layout.arrival_box(target, tsize)))
    return routes


def _arrows(
    layout: Layout, state: Table, shown: Sequence[_Shown], moves: Sequence[Move], corners: Sequence[_Corner]
) -> list[_Arrow]:
    """Curved arrows, each distinct from the others: see docs/pictures.rst, "Arrows"."""
    routes = _routes(layout, state, shown, moves)
    scale = 1.0 if len(routes) <= 8 else 0.75 if len(routes) <= 20 else 0.6
    piles = {}
    for pile in ALL_PILES:
        x, y, w, h = _card_box(layout, shown, pile, shown[pile.id][0])
        piles[pile] = (x - 2, y - 2, x + w + 2, y + h + 2)
    indexes = [corner.box(2) for corner in corners]
    # Arrows between the same two piles (stack moves of several sizes) bend more and more.
    bundle: dict[tuple[Pile, Pile], int] = {}
    curves: list[tuple[Point, Point, Point] | None] = []
    for route in routes:
        rank = bundle.get((route.source, route.target), 0)
        bundle[(route.source, route.target)] = rank + 1
        others = [box for pile, box in piles.items() if pile is not route.source and pile is not route.target]
        curves.append(_curve(route, rank, others, indexes))
    # Arrows into one pile end at places spread along its edge, in the order they
    # come in: their heads stand side by side and their shafts do not cross there.
    by_target: dict[Pile, list[tuple[float, int]]] = {}
    for i, (route, curve) in enumerate(zip(routes, curves)):
        if curve is not None and not _inside(route.start, route.box, _CLEAR):
            by_target.setdefault(route.target, []).append((_around(_edge(route.box), curve[2]), i))
    for group in by_target.values():
        if len(group) < 2:
            continue
        edge = _edge(routes[group[0][1]].box)
        # Unroll the way around where the arrows leave the widest gap between them.
        group.sort()
        perimeter = 2 * (edge[2] + edge[3])
        gaps = [(group[k][0] - group[k - 1][0]) % perimeter for k in range(len(group))]
        cut = gaps.index(max(gaps))
        group = [(place + (perimeter if k < cut else 0), i) for k, (place, i) in enumerate(group)]
        group = group[cut:] + group[:cut]
        gap = min(22.0, (edge[2] + edge[3]) / len(group))  # within half the way around
        places = [group[0][0]]
        for place, _ in group[1:]:
            places.append(max(place, places[-1] + gap))
        shift = sum(place for place, _ in group) / len(group) - sum(places) / len(places)
        for place, (_, i) in zip(places, group):
            curve = curves[i]
            if curve is not None:
                curves[i] = (curve[0], curve[1], _along(edge, place + shift))
    return [_arrow(route.move, curve, scale) for route, curve in zip(routes, curves) if curve is not None]


# Points along a curve, where _curve looks for other piles: the weights of its three points.
_SAMPLES = tuple(((1 - t) ** 2, 2 * t * (1 - t), t * t) for t in (i / 16 for i in range(1, 16)))
_CLEAR = 3  # between an arrow's tip and the pile it points at


def _curve(
    route: _Route, rank: int, others: Sequence[tuple[float, float, float, float]],
    indexes: Sequence[tuple[float, float, float, float]],
) -> tuple[Point, Point, Point] | None:
    """The curve of an arrow, from the moving card to the edge of the target's room: its start, control point and tip."""
    start, aim = route.start, route.aim
    dx, dy = aim[0] - start[0], aim[1] - start[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return None
    # Bend to the right of the way it goes, so that a move and its way back stay
    # apart; more, or the other way, if that passes over fewer other piles and
    # corner indices.
    bend = min(0.12 * length, 40.0) + 10.0 * rank
    mid = ((start[0] + aim[0]) / 2, (start[1] + aim[1]) / 2)
    best = (math.inf, mid)
    for factor in (1.0, -1.0, 2.0, -2.0, 3.0, -3.0, 4.5, -4.5):
        control = (mid[0] - dy / length * bend * factor, mid[1] + dx / length * bend * factor)
        over = 0
        for a, b, c in _SAMPLES:
            px = a * start[0] + b * control[0] + c * aim[0]
            py = a * start[1] + b * control[1] + c * aim[1]
            if not (0 < px < WIDTH and 0 < py < HEIGHT):
                over += 100
            for x0, y0, x1, y1 in others:
                if x0 <= px <= x1 and y0 <= py <= y1:
                    over += 1
            for x0, y0, x1, y1 in indexes:
                if x0 <= px <= x1 and y0 <= py <= y1:
                    over += 2
        cost = over + abs(factor) * bend / 40
        if cost < best[0]:
            best = (cost, control)
        if over == 0:
            break  # the others bend more, and cost more
    control = best[1]
    box = route.box
    if _inside(start, box, _CLEAR):
        return start, control, aim
    # The tip stops at the edge of the target's room: the last point outside it.
    lo, hi = 0.0, 1.0
    for step in range(64, -1, -1):
        if not _inside(_bezier(start, control, aim, step / 64), box, _CLEAR):
            lo, hi = step / 64, min(1.0, (step + 1) / 64)
            break
    for _ in range(20):
        t = (lo + hi) / 2
        lo, hi = (t, hi) if not _inside(_bezier(start, control, aim, t), box, _CLEAR) else (lo, t)
    # The part of the curve up to there is a quadratic curve too.
    return start, (start[0] + lo * (control[0] - start[0]), start[1] + lo * (control[1] - start[1])), \
        _bezier(start, control, aim, lo)


def _arrow(move: Move, curve: tuple[Point, Point, Point], scale: float) -> _Arrow:
    """The arrow along a curve: the shaft up to the head, and the head at its end."""
    start, control, tip = curve
    lo, hi = 0.0, 1.0
    for _ in range(30):
        t = (lo + hi) / 2
        p = _bezier(start, control, tip, t)
        lo, hi = (t, hi) if math.hypot(tip[0] - p[0], tip[1] - p[1]) > _HEAD_LEN * scale else (lo, t)
    base = _bezier(start, control, tip, lo)
    ux, uy = tip[0] - base[0], tip[1] - base[1]
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    half = _HEAD_HALF * scale
    head = (tip, (base[0] - uy * half, base[1] + ux * half), (base[0] + uy * half, base[1] - ux * half))
    shaft_control = (start[0] + lo * (control[0] - start[0]), start[1] + lo * (control[1] - start[1]))
    return _Arrow(move, start, shaft_control, base, head, scale)


def _edge(box: Box) -> Box:
    """The line where arrows into a pile stop: its room, with a little space around."""
    x, y, w, h = box
    return x - _CLEAR, y - _CLEAR, w + 2 * _CLEAR, h + 2 * _CLEAR


def _around(box: Box, point: Point) -> float:
    """The place on the edge of a box nearest to ``point``, as the distance clockwise from its top left."""
    x, y, w, h = box
    px, py = min(max(point[0], x), x + w), min(max(point[1], y), y + h)
    side = min((py - y, 0), (x + w - px, 1), (y + h - py, 2), (px - x, 3))[1]
    return (px - x, w + py - y, w + h + x + w - px, 2 * w + h + y + h - py)[side]


def _along(box: Box, around: float) -> Point:
    """The point on the edge of a box at the distance ``around`` clockwise from its top left."""
    x, y, w, h = box
    s = around % (2 * (w + h))
    if s < w:
        return x + s, y
    if s < w + h:
        return x + w, y + s - w
    if s < 2 * w + h:
        return x + w - (s - w - h), y + h
    return x, y + h - (s - 2 * w - h)


def _crosses(a: Point, b: Point, box: Box) -> bool:
    """True if the segment from ``a`` to ``b`` meets the box (Liang-Barsky clipping)."""
    x, y, w, h = box
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x), (dx, x + w - a[0]), (-dy, a[1] - y), (dy, y + h - a[1])):
        if p == 0:
            if q < 0:
                return False
        else:
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return False
    return True


class _Corner(NamedTuple):
    """A corner index in view: the card, where the card lies, and the middle of the index."""

    card: Card
    x: float
    y: float
    cx: int

    def box(self, margin: float) -> tuple[float, float, float, float]:
        """Its left, top, right and bottom, ``margin`` around it."""
        x0, y0 = self.x + self.cx - _INDEX_W / 2 - margin, self.y + 4 - margin
        return x0, y0, x0 + _INDEX_W + 2 * margin, y0 + _INDEX_H + 2 * margin


def _corners(layout: Layout, shown: Sequence[_Shown]) -> list[_Corner]:
    """Every corner index that shows: both of a top card, one of a fanned card if the fan leaves room."""
    corners = []
    for pile in ALL_PILES:
        count, cards = shown[pile.id]
        y = layout.slot[pile][1]
        step = layout.fan_step(count)
        for i, card in enumerate(cards):
            position = i if pile.kind is PileKind.TABLEAU else count - 1
            x = layout.card_x(pile, position, count)
            if position == count - 1:
                corners += [_Corner(card, x, y, 10), _Corner(card, x, y, CARD_W - 10)]
            elif step >= _INDEX_W + 2:
                corners.append(_Corner(card, x, y, CARD_W - 10 if layout.fan[pile] < 0 else 10))
    return corners


def _indexes(corners: Sequence[_Corner], arrows: Sequence[_Arrow]) -> list[Cmd]:
    """The corner indices that an arrow crosses, to draw again over the arrows."""
    if not arrows:
        return []
    cmds = []
    pieces = [(a, b, min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1]))
              for arrow in arrows for a, b in arrow.segments()]
    left, top = min(p[2] for p in pieces), min(p[3] for p in pieces)
    right, bottom = max(p[4] for p in pieces), max(p[5] for p in pieces)
    for corner in corners:
        x0, y0, x1, y1 = corner.box(_RIM_W / 2 + 1)
        if x1 < left or x0 > right or y1 < top or y0 > bottom:
            continue
        box = (x0, y0, x1 - x0, y1 - y0)
        if any(p[2] <= x1 and p[4] >= x0 and p[3] <= y1 and p[5] >= y0 and _crosses(p[0], p[1], box)
               for p in pieces):
            card = corner.card
            rank, size, spacing = RANK_STYLE[card.rank]
            cmds.append(_INDEX_T(x=coordinate(corner.x), y=coordinate(corner.y), left=str(corner.cx - _INDEX_W // 2),
                                 ink=SUIT_INK[card.colour], cx=str(corner.cx), size=size, spacing=spacing,
                                 rank=rank, suit=card.suit.symbol))
    return cmds


def move_marks(layout: Layout, state: Table, shown: Sequence[_Shown], moves: Sequence[Move]) -> list[Cmd]:
    """The highlights of ``moves``: outlines, arrows, the corners they cross, and End turn or Pass."""
    if not moves:
        return []
    cmds: list[Cmd] = []
    boxes: list[Box] = []
    notes: list[str] = []
    for move in moves:
        if isinstance(move, (Play, MoveStack)):
            count = move.count if isinstance(move, MoveStack) else 1
            boxes.append(_card_box(layout, shown, move.source, count))
            boxes.append(_card_box(layout, shown, move.target, 1))
        elif isinstance(move, Draw):
            boxes.append(_card_box(layout, shown, Pile.hand(state.current_player), 1))
        elif isinstance(move, EndTurn):
            notes.append("end turn")
        elif isinstance(move, Pass):
            notes.append("pass")
    for box in dict.fromkeys(boxes):
        x, y, w, h = box
        cmds.append(_OUTLINE_T(x=coordinate(x - 2), y=coordinate(y - 2), w=coordinate(w + 4), h=coordinate(h + 4)))
    corners = _corners(layout, shown)
    arrows = _arrows(layout, state, shown, moves, corners)
    cmds += [arrow.cmd() for arrow in arrows]
    cmds += _indexes(corners, arrows)
    if notes:
        x, y = layout.slot[Pile.waste(state.current_player)]
        x += CARD_W + 30
        text = " / ".join(notes)
        cmds.append(_NOTE_T(x=coordinate(x), y=coordinate(y + CARD_H / 2 - 13), w=coordinate(12 + 8 * len(text)), tx=coordinate(x + 6 + 4 * len(text)),
                            ty=coordinate(y + CARD_H / 2 + 5), text=text))
    return cmds


def _card_box(layout: Layout, shown: Sequence[_Shown], pile: Pile, count: int) -> Box:
    """The box around the top ``count`` cards of a pile (or around its empty slot)."""
    size = shown[pile.id][0]
    x, y = layout.slot[pile]
    if size == 0 or pile.kind is not PileKind.TABLEAU:
        return float(x), float(y), float(CARD_W), float(CARD_H)
    first = layout.card_x(pile, max(size - count, 0), size)
    last = layout.card_x(pile, size - 1, size)
    return min(first, last), float(y), abs(last - first) + CARD_W, float(CARD_H)


# The picture ---------------------------------------------------------------------


def check_state(state: object) -> Table:
    return check_table(state, "render()")


def check_perspective(perspective: object) -> int:
    if isinstance(perspective, bool) or perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1 (the player drawn at the bottom), got {brief(perspective)}")
    return int(perspective)  # type: ignore[call-overload,unused-ignore]


def check_move(move: object, name: str) -> Move:
    if not isinstance(move, Move):
        raise TypeError(
            f"{name} is {brief(move)}, not a Move (read text with parse_move(), or pass moves from legal_moves())"
        )
    return move


def check_moves(highlight: object, name: str, *, unique: bool) -> tuple[Move, ...]:
    if isinstance(highlight, Move):
        return (highlight,)
    if isinstance(highlight, (str, bytes)):
        raise TypeError(
            f"{name} takes Move objects, not text: read the notation with parse_move() first"
        )
    if not isinstance(highlight, Iterable):
        raise TypeError(f"{name} must be a Move or an iterable of moves, got {type(highlight).__name__}")
    moves: list[Move] = []
    for i, move in enumerate(highlight):
        check_move(move, f"{name}[{i}]")
        if not unique or move not in moves:
            moves.append(move)
    return tuple(moves)


def check_size(size: object) -> float | None:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size must be a number of pixels or None, got {type(size).__name__}")
    if not math.isfinite(size) or size <= 0:
        raise ValueError(f"size must be a positive number of pixels, got {brief(size)}")
    return float(size)


def svg_open(w_attr: str, h_attr: str, extra: str = "") -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w_attr}" '
        f'height="{h_attr}" viewBox="0 0 {WIDTH} {HEIGHT}" '
        f'font-family="{_FONT}" class="crapette-table"{extra}>'
    )


def felt() -> str:
    return (
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" rx="10" fill="{_FELT}"/>'
        f'<rect x="3" y="3" width="{WIDTH - 6}" height="{HEIGHT - 6}" rx="8" fill="none" '
        f'stroke="{_FELT_EDGE}" stroke-width="4"/>'
    )


def ascii_text(text: str) -> str:
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")
