"""Pictures of a game: the whole table as an SVG document, and an HTML page that steps through a game.

:func:`render` draws one state; :func:`render_html` puts the pictures of a
sequence of states into one self-contained page with buttons and arrow keys.
Both need only the standard library, and both draw only what a player may
see (RULES.md section 12): the face-down cards of the reserves and hands
appear as card backs and counts, never by name.

>>> from crapette import new_game, legal_moves
>>> from crapette.svg import render
>>> state = new_game("casual", seed=1)
>>> svg = render(state, highlight=legal_moves(state))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True

In Jupyter a :class:`~crapette.GameState` shows as this picture by itself.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from xml.sax.saxutils import escape, quoteattr

from ._errors import brief
from ._cards import Card, Colour
from ._moves import Draw, EndTurn, Move, MoveStack, Pass, Play
from ._rules import TableauSources
from ._state import ALL_PILES, R0, GameState, Pile, PileKind

__all__ = ["render", "render_html"]

# Geometry (user units; ``size`` scales the whole picture).
CARD_W = 60
CARD_H = 84
_RADIUS = 5
_FAN = 20  # offset between fanned tableau cards: enough to show rank and suit
_FAN_ROOM = 11 * _FAN  # the fan squeezes its cards together beyond 12 cards
_MARGIN = 16
_GAP = 24  # between a tableau pile's first card and the foundations
_WIDTH = 2 * (_MARGIN + _FAN_ROOM + CARD_W + _GAP) + 2 * CARD_W + 16
_HEADER = 30
_LABEL = 16  # room for a pile's label above it
_ROW = _LABEL + CARD_H + 8
_TOP_ROW_Y = _HEADER + _LABEL
_TABLEAU_Y = _HEADER + _ROW + 10 + _LABEL
_BOTTOM_ROW_Y = _TABLEAU_Y + 4 * _ROW + 2
_HEIGHT = _BOTTOM_ROW_Y + CARD_H + 22
_CX = _WIDTH // 2

# Colours.
_FELT = "#2c6e49"
_FELT_EDGE = "#1f5236"
_INK = "#e9f2ea"  # labels on the felt
_DIM = "#a9cdb4"
_FACE = "#fffdf7"
_EDGE = "#5b5b5b"
_SUIT_INK = {Colour.RED: "#c8102e", Colour.BLACK: "#1b1b1b"}
#: The back of each deck: player 0's cards are blue, player 1's red.
DECK_COLOURS = ("#2356a8", "#a8232f")
_MARK = "#ffc233"  # turn marker, highlights and arrows
_FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


def _n(value: float) -> str:
    """A coordinate, written the same way on every platform."""
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text


class _Layout:
    """Where every pile lies for one perspective.

    The table is seen from the player at the bottom: the foundations in two
    columns in the middle, the tableau piles fanned outwards to either side
    of them (the bottom player's deck on the left), and each player's
    reserve, hand and waste along that player's edge.
    """

    def __init__(self, perspective: int) -> None:
        self.perspective = perspective
        bottom, top = perspective, 1 - perspective
        left_tableau_x = _MARGIN + _FAN_ROOM
        right_tableau_x = _WIDTH - _MARGIN - _FAN_ROOM - CARD_W
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
        return float(min(_FAN, _FAN_ROOM / (count - 1)))

    def card_x(self, pile: Pile, position: int, count: int) -> float:
        """The x of the card at ``position`` (0 = bottom) of a pile of ``count`` cards."""
        x, _ = self.slot[pile]
        if pile.kind is not PileKind.TABLEAU:
            return float(x)
        return x + self.fan[pile] * position * self.fan_step(count)

    def anchor(self, pile: Pile, position: int, count: int) -> tuple[float, float]:
        """The middle of the visible part of a card (or of the empty slot)."""
        _, y = self.slot[pile]
        x = self.card_x(pile, max(position, 0), count)
        if pile.kind is PileKind.TABLEAU and 0 <= position < count - 1:
            step = self.fan_step(count)
            # Only a strip of a covered card shows, on the side away from the fan.
            strip_left = x + CARD_W - step if self.fan[pile] < 0 else x
            return strip_left + step / 2, y + CARD_H / 2
        return x + CARD_W / 2, y + CARD_H / 2


class _Svg:
    """An SVG document built element by element."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def add(self, text: str) -> None:
        self.parts.append(text)

    def rect(self, x: float, y: float, w: float, h: float, **attrs: str) -> None:
        extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
        self.add(
            f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"{extra}/>'
        )

    def text(self, x: float, y: float, content: str, **attrs: str) -> None:
        extra = "".join(f" {k.replace('_', '-')}={quoteattr(v)}" for k, v in attrs.items())
        self.add(f'<text x="{_n(x)}" y="{_n(y)}"{extra}>{escape(content)}</text>')


def _check_state(state: object) -> GameState:
    if not isinstance(state, GameState):
        raise TypeError(f"expected a GameState, got {type(state).__name__}")
    return state


def _check_perspective(perspective: object) -> int:
    if isinstance(perspective, bool) or perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1 (the player drawn at the bottom), got {brief(perspective)}")
    return int(perspective)  # type: ignore[call-overload,unused-ignore]


def _check_moves(highlight: object, name: str, *, unique: bool) -> tuple[Move, ...]:
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
        if not isinstance(move, Move):
            raise TypeError(
                f"{name}[{i}] is {brief(move)}, not a Move (read text with parse_move(), "
                "or pass moves from legal_moves())"
            )
        if not unique or move not in moves:
            moves.append(move)
    return tuple(moves)


def _check_size(size: object) -> float | None:
    if size is None:
        return None
    if isinstance(size, bool) or not isinstance(size, (int, float)):
        raise TypeError(f"size must be a number of pixels or None, got {type(size).__name__}")
    if not math.isfinite(size) or size <= 0:
        raise ValueError(f"size must be a positive number of pixels, got {brief(size)}")
    return float(size)


def _status(state: GameState) -> str:
    if state.outcome is not None:
        return "game over"
    return f"player {state.current_player} to move"


def render(
    state: GameState,
    *,
    perspective: int = 0,
    highlight: Move | Iterable[Move] = (),
    size: float | None = None,
) -> str:
    """Draw the whole table of ``state`` as a self-contained SVG document.

    The picture shows the eight foundations (their top cards), the eight
    tableau piles fanned so that every card shows, and each player's reserve
    (the top card face up), hand (card backs) and waste (the top card), with
    card counts; every pile is labelled with its name in the move notation
    (``F0``, ``T3``, ``R1``, ...). The player to move is marked, and the
    outcome is shown once the game is over. Face-down cards are drawn as
    backs in the colour of the player whose pile they lie in, so the picture
    tells nothing that a player may not see (RULES.md section 12).

    Each face-up card is an SVG group ``<g class="card" data-card="QS1"
    data-pile="T3">``, so a page's script or a test can find it.

    :param state: the position to draw.
    :param perspective: the player (0 or 1) drawn at the bottom of the table.
    :param highlight: moves to show (a move or an iterable of moves, e.g. the
        result of :func:`~crapette.legal_moves`): an arrow from the source
        pile to the target pile, with the moving cards outlined; ``draw``
        points from the hand to the waste, ``end`` and ``pass`` mark the player.
    :param size: the width of the picture in pixels (the height follows);
        None for the natural size.
    :returns: the SVG document as text. The same arguments always give the
        same text, and the text is plain ASCII (symbols are character references).
    :raises TypeError: if ``state`` is not a GameState, a highlighted item is
        not a :class:`~crapette.Move`, or ``size`` is not a number.
    :raises ValueError: if ``perspective`` is not 0 or 1 or ``size`` is not positive.

    >>> from crapette import new_game, parse_move
    >>> import xml.etree.ElementTree as ET
    >>> state = new_game("classic", seed=7)
    >>> root = ET.fromstring(render(state, perspective=1, highlight=[parse_move("T1-T4")], size=400))
    >>> root.get("width"), sorted(g.get("data-card") for g in root.iter("{http://www.w3.org/2000/svg}g")
    ...                            if g.get("class") == "card")[:3]
    ('400', ['2H0', '3S1', '6D1'])
    >>> render(state, perspective=2)
    Traceback (most recent call last):
    ...
    ValueError: perspective must be 0 or 1 (the player drawn at the bottom), got 2

    .. versionadded:: 0.1.0
    """
    state = _check_state(state)
    perspective = _check_perspective(perspective)
    moves = _check_moves(highlight, "highlight", unique=True)
    width = _check_size(size)
    return _render(state, perspective, moves, width)


def _render(state: GameState, perspective: int, moves: tuple[Move, ...], width: float | None) -> str:
    layout = _Layout(perspective)
    svg = _Svg()
    if width is None:
        w_attr, h_attr = str(_WIDTH), str(_HEIGHT)
    else:
        w_attr, h_attr = _n(width), _n(width * _HEIGHT / _WIDTH)
    rules_name = state.rules.preset_name or "custom"
    title = f"crapette table: {rules_name} rules, move {state.move_count}, {_status(state)}"
    if state.outcome is not None:
        title += f", {state.outcome}"
    svg.add(
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{w_attr}" '
        f'height="{h_attr}" viewBox="0 0 {_WIDTH} {_HEIGHT}" '
        f'font-family="{_FONT}" class="crapette-table">'
    )
    svg.add(f"<title>{escape(title)}</title>")
    svg.rect(0, 0, _WIDTH, _HEIGHT, rx="10", fill=_FELT)
    svg.rect(3, 3, _WIDTH - 6, _HEIGHT - 6, rx="8", fill="none", stroke=_FELT_EDGE,
             stroke_width="4")
    _draw_header(svg, state, rules_name)
    for player in (0, 1):
        _draw_player(svg, layout, state, player)
    for pile in ALL_PILES[:R0]:  # the foundations and the tableau
        _draw_shared_pile(svg, layout, state, pile)
    arrows = _draw_highlights(svg, layout, state, moves) if moves else []
    # Counts go over the highlight outlines, arrows over everything.
    for player in (0, 1):
        _draw_counts(svg, layout, state, player)
    if arrows:
        svg.add('<g class="arrows">')
        for start, end in arrows:
            _arrow(svg, start, end)
        svg.add("</g>")
    svg.add("</svg>")
    text = "\n".join(svg.parts) + "\n"
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")


def _draw_header(svg: _Svg, state: GameState, rules_name: str) -> None:
    y = _HEADER - 10
    svg.text(_MARGIN, y, f"crapette \u00b7 {rules_name} rules", fill=_INK, font_size="13",
             font_weight="bold")
    if state.outcome is None:
        svg.text(_CX, y, _status(state), fill=_INK, font_size="13", text_anchor="middle")
    else:
        # The outcome in the header, where it hides no card.
        text = f"Game over: {state.outcome}"
        half = min(200, 12 + 4 * len(text))
        svg.add('<g class="outcome">')
        svg.rect(_CX - half, 4, 2 * half, 24, rx="12", fill=_MARK)
        svg.text(_CX, y, text, fill="#1b1b1b", font_size="13",
                 font_weight="bold", text_anchor="middle")
        svg.add("</g>")
    svg.text(_WIDTH - _MARGIN, y, f"move {state.move_count}", fill=_INK, font_size="13",
             text_anchor="end")


# Cards ---------------------------------------------------------------------


def _draw_face(svg: _Svg, x: float, y: float, card: Card, pile: Pile) -> None:
    ink = _SUIT_INK[card.colour]
    rank = card.rank.symbol if card.rank != 10 else "10"
    suit = card.suit.symbol
    size = ' font-size="12" letter-spacing="-1"' if rank == "10" else ' font-size="14"'
    # Rank and suit in both top corners: a fan to either side leaves one of them in view.
    corners = "".join(
        f'<text x="{cx}" y="17"{size}>{rank}</text><text x="{cx}" y="31" font-size="13">{suit}</text>'
        for cx in (10, CARD_W - 10)
    )
    svg.add(
        f'<g class="card" data-card="{card}" data-pile="{pile}" '
        f'transform="translate({_n(x)} {_n(y)})"><title>{card}</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="{_RADIUS}" fill="{_FACE}" stroke="{_EDGE}"/>'
        # The deck shows as a band in its back colour along the bottom edge.
        f'<rect x="4" y="{CARD_H - 7}" width="{CARD_W - 8}" height="3" rx="1.5" '
        f'fill="{DECK_COLOURS[card.deck]}"/>'
        f'<g fill="{ink}" text-anchor="middle" font-weight="bold">{corners}'
        f'<text x="{CARD_W // 2}" y="62" font-size="28">{suit}</text></g></g>'
    )


def _draw_back(svg: _Svg, x: float, y: float, colour: str) -> None:
    svg.rect(x, y, CARD_W, CARD_H, rx=str(_RADIUS), fill=colour, stroke="#f4f4f4", stroke_width="1.5")
    svg.rect(x + 5, y + 5, CARD_W - 10, CARD_H - 10, rx="3", fill="none", stroke="#ffffff",
             stroke_opacity="0.55", stroke_width="1")
    cx, cy = x + CARD_W / 2, y + CARD_H / 2
    for dy in (-22, 0, 22):
        svg.add(
            f'<path d="M{_n(cx)} {_n(cy + dy - 10)} L{_n(cx + 14)} {_n(cy + dy)} '
            f'L{_n(cx)} {_n(cy + dy + 10)} L{_n(cx - 14)} {_n(cy + dy)} Z" fill="#ffffff" '
            'fill-opacity="0.22" stroke="#ffffff" stroke-opacity="0.5" stroke-width="1"/>'
        )


def _draw_empty(svg: _Svg, x: float, y: float) -> None:
    svg.rect(x, y, CARD_W, CARD_H, rx=str(_RADIUS), fill="#000000", fill_opacity="0.12",
             stroke=_DIM, stroke_width="1.2", stroke_dasharray="4 3")


def _draw_depth(svg: _Svg, x: float, y: float, count: int, colour: str) -> None:
    """Edges of the cards under a pile's top card, a few pixels each, so a pile looks thick."""
    for i in range(min(count, 2), 0, -1):
        svg.rect(x + 2 * i, y + 2 * i, CARD_W, CARD_H, rx=str(_RADIUS), fill=colour,
                 stroke=_EDGE, stroke_width="0.8")


def _draw_squared(svg: _Svg, x: float, y: float, cards: Sequence[Card], pile: Pile, depth_colour: str) -> None:
    """A squared-up pile: its depth in ``depth_colour`` under the face-up top card, or an empty slot."""
    if cards:
        _draw_depth(svg, x, y, len(cards) - 1, depth_colour)
        _draw_face(svg, x, y, cards[-1], pile)
    else:
        _draw_empty(svg, x, y)


def _label(svg: _Svg, x: float, y: float, text: str, anchor: str = "start") -> None:
    svg.text(x, y - 5, text, fill=_INK, font_size="11", font_weight="bold", text_anchor=anchor)


def _badge(svg: _Svg, x: float, y: float, count: int, pile: Pile) -> None:
    """A count on the lower edge of a pile."""
    cx = x + CARD_W / 2
    svg.add(f'<g class="count" data-pile="{pile}">')
    svg.rect(cx - 14, y + CARD_H - 6, 28, 16, rx="8", fill="#111111", fill_opacity="0.82",
             stroke="#ffffff", stroke_width="1")
    svg.text(cx, y + CARD_H + 6, str(count), fill="#ffffff", font_size="11", font_weight="bold",
             text_anchor="middle")
    svg.add("</g>")


# Piles ----------------------------------------------------------------------


def _draw_shared_pile(svg: _Svg, layout: _Layout, state: GameState, pile: Pile) -> None:
    cards = state.cards(pile)
    x, y = layout.slot[pile]
    if pile.kind is PileKind.FOUNDATION:
        _label(svg, x + CARD_W / 2, y, str(pile), "middle")
        _draw_squared(svg, x, y, cards, pile, _FACE)
        return
    # Tableau: the label sits over the first card, on the side next to the foundations.
    left = layout.fan[pile] < 0
    label_x = x + CARD_W if left else x
    _label(svg, label_x, y, str(pile), "end" if left else "start")
    if _owned(state):
        # Each player has four piles of their own: a dot in the owner's colour says whose.
        dot_x = label_x - 25 if left else label_x + 25
        svg.add(f'<circle cx="{_n(dot_x)}" cy="{_n(y - 9)}" r="4" fill="{DECK_COLOURS[pile.index // 4]}" '
                'stroke="#ffffff" stroke-width="1"/>')
    svg.add(f'<g class="pile" data-pile="{pile}">')
    if not cards:
        _draw_empty(svg, x, y)
    for i, card in enumerate(cards):
        _draw_face(svg, layout.card_x(pile, i, len(cards)), y, card, pile)
    svg.add("</g>")


def _owned(state: GameState) -> bool:
    """True if the tableau piles belong to the players (the casual game), not shared houses."""
    rules = state.rules
    return (
        rules.tableau_sources is TableauSources.OWN
        or rules.own_tableau_build is not rules.opponent_tableau_build
    )


def _draw_player(svg: _Svg, layout: _Layout, state: GameState, player: int) -> None:
    back = DECK_COLOURS[player]
    reserve, hand, waste = state.reserves[player], state.hands[player], state.wastes[player]
    for pile, name in ((Pile.reserve(player), "reserve"), (Pile.hand(player), "hand"),
                       (Pile.waste(player), "waste")):
        x, y = layout.slot[pile]
        _label(svg, x, y, f"{pile} {name}")
    # Reserve: face down under its face-up top card.
    x, y = layout.slot[Pile.reserve(player)]
    svg.add(f'<g class="pile" data-pile="{Pile.reserve(player)}">')
    _draw_squared(svg, x, y, reserve, Pile.reserve(player), back)
    svg.add("</g>")
    # Hand: all face down.
    x, y = layout.slot[Pile.hand(player)]
    svg.add(f'<g class="pile" data-pile="{Pile.hand(player)}">')
    if hand:
        _draw_depth(svg, x, y, len(hand) - 1, back)
        svg.add(f'<g class="back" data-pile="{Pile.hand(player)}">')
        _draw_back(svg, x, y, back)
        svg.add("</g>")
    else:
        _draw_empty(svg, x, y)
    svg.add("</g>")
    # Waste: face up, only the top card shows.
    x, y = layout.slot[Pile.waste(player)]
    svg.add(f'<g class="pile" data-pile="{Pile.waste(player)}">')
    _draw_squared(svg, x, y, waste, Pile.waste(player), _FACE)
    svg.add("</g>")
    _draw_nameplate(svg, layout, state, player)


def _draw_counts(svg: _Svg, layout: _Layout, state: GameState, player: int) -> None:
    for pile in (Pile.reserve(player), Pile.hand(player), Pile.waste(player)):
        x, y = layout.slot[pile]
        _badge(svg, x, y, len(state.cards(pile)), pile)


def _draw_nameplate(svg: _Svg, layout: _Layout, state: GameState, player: int) -> None:
    _, y = layout.slot[Pile.reserve(player)]
    x = _MARGIN + 8
    cy = y + CARD_H / 2
    to_move = state.outcome is None and state.current_player == player
    won = state.outcome is not None and state.outcome.winner == player
    svg.add(f'<g class="player" data-player="{player}">')
    if to_move or won:
        svg.rect(x - 8, cy - 17, 190, 34, rx="17", fill=_MARK)
    if to_move:
        svg.add(
            f'<path d="M{_n(x + 2)} {_n(cy - 7)} L{_n(x + 14)} {_n(cy)} L{_n(x + 2)} {_n(cy + 7)} Z" '
            'fill="#1b1b1b"/>'
        )
    ink = "#1b1b1b" if to_move or won else _INK
    svg.add(f'<circle cx="{_n(x + 28)}" cy="{_n(cy)}" r="7" fill="{DECK_COLOURS[player]}" '
            'stroke="#ffffff" stroke-width="1.5"/>')
    svg.text(x + 42, cy + 6, f"Player {player}", fill=ink, font_size="17", font_weight="bold")
    note = "to move" if to_move else ("winner" if won else "")
    if note:
        svg.text(x + 128, cy + 5, note, fill=ink, font_size="12")
    flags = []
    if state.exhausted[player] and state.rules.stalemate:
        flags.append("exhausted")
    if state.drawn and state.current_player == player and state.outcome is None:
        flags.append(f"W{player} top was drawn this turn")
    for i, flag in enumerate(flags):
        svg.text(x, cy + 32 + 14 * i, flag, fill=_INK, font_size="11", font_style="italic")
    svg.add("</g>")


# Highlights -----------------------------------------------------------------


def _pile_anchor(layout: _Layout, state: GameState, pile: Pile, from_top: int = 1) -> tuple[float, float]:
    count = len(state.cards(pile))
    return layout.anchor(pile, count - from_top, count)


Box = tuple[float, float, float, float]


def _card_box(layout: _Layout, state: GameState, pile: Pile, count: int) -> Box:
    """The box around the top ``count`` cards of a pile (or around its empty slot)."""
    size = len(state.cards(pile))
    x, y = layout.slot[pile]
    if size == 0 or pile.kind is not PileKind.TABLEAU:
        return float(x), float(y), float(CARD_W), float(CARD_H)
    first = layout.card_x(pile, max(size - count, 0), size)
    last = layout.card_x(pile, size - 1, size)
    return min(first, last), float(y), abs(last - first) + CARD_W, float(CARD_H)


def _arrow(svg: _Svg, start: tuple[float, float], end: tuple[float, float]) -> None:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    if length < 1:
        return
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head, half = 18.0, 10.0
    bx, by = x2 - ux * head, y2 - uy * head
    line = f'x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(bx)}" y2="{_n(by)}" stroke-linecap="round"'
    tip = (
        f'd="M{_n(x2)} {_n(y2)} L{_n(bx - uy * half)} {_n(by + ux * half)} '
        f'L{_n(bx + uy * half)} {_n(by - ux * half)} Z"'
    )
    # A dark rim under the arrow keeps it visible on white cards and on the felt.
    svg.add(
        f'<g class="arrow" opacity="0.9"><line {line} stroke="#1b1b1b" stroke-opacity="0.45" '
        f'stroke-width="8"/><path {tip} fill="{_MARK}" stroke="#1b1b1b" stroke-opacity="0.45" '
        f'stroke-width="2" stroke-linejoin="round"/><line {line} stroke="{_MARK}" '
        'stroke-width="5"/></g>'
    )


Arrow = tuple[tuple[float, float], tuple[float, float]]


def _draw_highlights(
    svg: _Svg, layout: _Layout, state: GameState, moves: tuple[Move, ...]
) -> list[Arrow]:
    """Outline the cards and piles of ``moves`` and return the arrows to draw."""
    player = state.current_player
    svg.add('<g class="highlight">')
    arrows: list[Arrow] = []
    boxes: list[Box] = []
    notes: list[str] = []
    for move in moves:
        if isinstance(move, (Play, MoveStack)):
            count = move.count if isinstance(move, MoveStack) else 1
            boxes.append(_card_box(layout, state, move.source, count))
            boxes.append(_card_box(layout, state, move.target, 1))
            arrows.append((_pile_anchor(layout, state, move.source, count),
                           _pile_anchor(layout, state, move.target)))
        elif isinstance(move, Draw):
            hand, waste = Pile.hand(player), Pile.waste(player)
            boxes.append(_card_box(layout, state, hand, 1))
            hx, hy = layout.slot[hand]
            wx, wy = layout.slot[waste]
            arrows.append(((hx + CARD_W * 0.7, hy + CARD_H / 2), (wx + CARD_W * 0.3, wy + CARD_H / 2)))
        elif isinstance(move, EndTurn):
            notes.append("end turn")
        elif isinstance(move, Pass):
            notes.append("pass")
    drawn: set[Box] = set()
    for box in boxes:
        if box not in drawn:
            drawn.add(box)
            x, y, w, h = box
            svg.rect(x - 2, y - 2, w + 4, h + 4, rx="7", fill="none", stroke=_MARK, stroke_width="3")
    if notes:
        _, y = layout.slot[Pile.waste(player)]
        x = layout.slot[Pile.waste(player)][0] + CARD_W + 30
        text = " / ".join(notes)
        svg.rect(x, y + CARD_H / 2 - 13, 12 + 8 * len(text), 26, rx="13", fill=_MARK)
        svg.text(x + 6 + 4 * len(text), y + CARD_H / 2 + 5, text, fill="#1b1b1b", font_size="13",
                 font_weight="bold", text_anchor="middle")
    svg.add("</g>")
    return arrows


# HTML ------------------------------------------------------------------------

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('.frame');
  var counter = document.getElementById('counter');
  var index = 0;
  function show(i) {
    index = Math.max(0, Math.min(frames.length - 1, i));
    for (var k = 0; k !== frames.length; k++) {
      frames[k].style.display = (k === index) ? 'block' : 'none';
    }
    counter.textContent = (index + 1) + ' / ' + frames.length;
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(index - 1); };
  document.getElementById('next').onclick = function () { show(index + 1); };
  document.getElementById('last').onclick = function () { show(frames.length - 1); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(index - 1); }
    else if (e.key === 'ArrowRight') { show(index + 1); }
    else if (e.key === 'Home') { show(0); }
    else if (e.key === 'End') { show(frames.length - 1); }
    else { return; }
    e.preventDefault();
  });
  show(0);
})();
"""

_STYLE = """
body { background: #f3f1ea; color: #1b1b1b; font-family: DejaVu Sans, Verdana, Arial, sans-serif;
       margin: 1em; }
nav { display: flex; gap: 0.4em; align-items: center; margin-bottom: 0.6em; }
button { font-size: 1em; padding: 0.25em 0.8em; }
#counter { min-width: 6em; text-align: center; font-variant-numeric: tabular-nums; }
.caption { margin: 0.3em 0 0.6em 0; font-size: 1.05em; }
.frame svg { max-width: 100%; height: auto; }
"""


def render_html(
    states: Iterable[GameState],
    moves: Iterable[Move] = (),
    *,
    perspective: int = 0,
    title: str = "crapette game",
) -> str:
    """A self-contained HTML page that steps through the pictures of ``states``.

    The page holds one SVG (as :func:`render` draws it) per state, shows one
    at a time, and steps with its buttons or the arrow keys (Home and End
    jump to the ends). It loads nothing from elsewhere. The page is also
    well-formed XML.

    :param states: the states to show, in order (e.g. ``record.states()``).
    :param moves: empty, or the moves played between them: ``moves[i]`` leads
        from ``states[i]`` to ``states[i + 1]``, is drawn as an arrow on
        ``states[i]`` and named in its caption.
    :param perspective: the player drawn at the bottom (0 or 1).
    :param title: the page's title.
    :raises TypeError: if a state is not a GameState or a move not a Move.
    :raises ValueError: if there are no states, or ``moves`` is neither empty
        nor one shorter than ``states``.

    >>> from crapette import new_game, apply_move, legal_moves
    >>> first = new_game("casual", seed=1)
    >>> move = legal_moves(first)[0]
    >>> page = render_html([first, apply_move(first, move)], [move])
    >>> page.count("<svg "), "move 1: T1-T0" in page
    (2, True)

    .. versionadded:: 0.1.0
    """
    if isinstance(states, GameState):
        raise TypeError("render_html() takes a sequence of states; for one state use render()")
    if not isinstance(states, Iterable):
        raise TypeError(f"states must be an iterable of GameState, got {type(states).__name__}")
    frames: list[GameState] = []
    for i, state in enumerate(states):
        if not isinstance(state, GameState):
            raise TypeError(f"states[{i}] is a {type(state).__name__}, not a GameState")
        frames.append(state)
    if not frames:
        raise ValueError("render_html() needs at least one state")
    played = _check_moves(moves, "moves", unique=False)
    if played and len(played) != len(frames) - 1:
        raise ValueError(
            f"moves must be empty or one fewer than the states: got {len(played)} moves "
            f"for {len(frames)} states"
        )
    perspective = _check_perspective(perspective)
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, got {type(title).__name__}")
    parts = [
        "<!DOCTYPE html>",
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">',
        '<head><meta charset="utf-8"/>',
        f"<title>{escape(title)}</title>",
        f"<style>{_STYLE}</style></head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        '<nav><button type="button" id="first" title="first (Home)">|&#9664;</button>'
        '<button type="button" id="prev" title="previous (left arrow)">&#9664;</button>'
        '<span id="counter"></span>'
        '<button type="button" id="next" title="next (right arrow)">&#9654;</button>'
        '<button type="button" id="last" title="last (End)">&#9654;|</button></nav>',
    ]
    for i, state in enumerate(frames):
        move = played[i] if i < len(played) else None
        if move is not None:
            caption = f"move {i + 1}: {move}"
        elif state.outcome is not None:
            caption = str(state.outcome)
        else:
            caption = _status(state)
        display = "block" if i == 0 else "none"
        parts.append(f'<div class="frame" id="frame-{i}" style="display: {display}">')
        parts.append(f'<p class="caption">{escape(caption)}</p>')
        parts.append(_render(state, perspective, (move,) if move is not None else (), None))
        parts.append("</div>")
    parts.append(f"<script>{_SCRIPT}</script>")
    parts.append("</body></html>")
    text = "\n".join(parts) + "\n"
    return text.encode("ascii", "xmlcharrefreplace").decode("ascii")
