"""Pictures of a game: the whole table as an SVG document, and an HTML page that steps through a game.

:func:`render` draws one state; :func:`write_html` writes a self-contained
page that steps through a game, however long, as it reads it, and
:func:`render_html` returns that page as text. All three need only the
standard library, and all three draw only what a player may see
(:ref:`section 12 of the rules <rules-12>`): the face-down cards of the
reserves and hands appear as card backs and counts, never by name. So each
takes a :class:`~crapette.PublicView` as readily as a state, and draws the same
picture from either.

>>> from crapette import new_game, legal_moves
>>> from crapette.svg import render
>>> state = new_game("casual", seed=1)
>>> svg = render(state, highlight=legal_moves(state))
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
True

In Jupyter a :class:`~crapette.GameState` shows as this picture by itself.

The page is made by the private module ``crapette._frontends.replay_page``, whose
script and style are package data files (``crapette/static/replay.js`` and
``replay.css``); this module draws the pictures. Both take the pieces of the
table from the private ``crapette._frontends.svg_draw``.

.. versionadded:: 0.1.0
"""

from __future__ import annotations

from collections.abc import Iterable
from xml.sax.saxutils import escape

from ._core.moves import Move
from ._core.state import ALL_PILES, GameState
from ._frontends.replay_page import render_html, write_html
from ._frontends.svg_draw import CARD_H as CARD_H
from ._frontends.svg_draw import CARD_W as CARD_W
from ._frontends.svg_draw import DECK_COLOURS as DECK_COLOURS
from ._frontends.svg_draw import (
    HEIGHT,
    WIDTH,
    Layout,
    ascii_text,
    check_moves,
    check_perspective,
    check_size,
    check_state,
    coordinate,
    count_badges,
    draw_pile,
    felt,
    header,
    header_static,
    labels,
    move_marks,
    pile_parts,
    plate,
    plate_key,
    seen_piles,
    status_text,
    svg_open,
)
from ._views.view import PublicView

__all__ = ["render", "render_html", "write_html"]


def render(
    state: GameState | PublicView,
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
    tells nothing that a player may not see (:ref:`section 12 of the rules
    <rules-12>`).

    Arrows are drawn only for the moves in ``highlight``: none by default.
    Each arrow is a curve of its own, from the moving card to the edge of the
    target pile; arrows between the same piles bend apart, arrows into one
    pile end side by side, and pile labels, counts and the corners of the
    cards stay readable over them.

    Each face-up card is an SVG group ``<g class="card" data-card="QS1"
    data-pile="T3">``, and each arrow a group ``<g class="arrow"
    data-move="T3-T0">``, so a page's script or a test can find them.

    :param state: the position to draw: a state, or its public view
        (:func:`~crapette.view`), which gives the same picture, so a client
        that is sent only views draws the table as the server would.
    :param perspective: the player (0 or 1) drawn at the bottom of the table.
    :param highlight: moves to show (a move or an iterable of moves, e.g. the
        result of :func:`~crapette.legal_moves`): an arrow from the source
        pile to the target pile, with the moving cards outlined; ``draw``
        points from the hand to the waste, ``end`` and ``pass`` are named
        beside the player's waste. The moves need not be legal.
    :param size: the width of the picture in pixels (the height follows);
        None for the natural size.
    :returns: the SVG document as text. The same arguments always give the
        same text, and the text is plain ASCII (symbols are character references).
    :raises TypeError: if ``state`` is not a GameState or PublicView, a highlighted item is
        not a :class:`~crapette.Move`, or ``size`` is not a number.
    :raises ValueError: if ``perspective`` is not 0 or 1 or ``size`` is not positive.

    >>> from crapette import new_game, parse_move
    >>> import xml.etree.ElementTree as ET
    >>> state = new_game("classic", seed=7)
    >>> root = ET.fromstring(render(state, perspective=1, highlight=[parse_move("T1-T4")], size=400))
    >>> root.get("width"), sorted(g.get("data-card") for g in root.iter("{http://www.w3.org/2000/svg}g")
    ...                            if g.get("class") == "card")[:3]
    ('400', ['2H0', '3S1', '6D1'])
    >>> [g.get("data-move") for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "arrow"]
    ['T1-T4']
    >>> render(state, perspective=2)
    Traceback (most recent call last):
    ...
    ValueError: perspective must be 0 or 1 (the player drawn at the bottom), got 2

    >>> from crapette import view
    >>> render(view(state), perspective=1) == render(state, perspective=1)
    True

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.2.0
       Arrows are curved and kept apart, stop at the edge of the target pile,
       and pass under labels, counts and card corners.
    .. versionchanged:: 0.3.0
       ``state`` may be a :class:`~crapette.PublicView`.
    """
    state = check_state(state)
    perspective = check_perspective(perspective)
    moves = check_moves(highlight, "highlight", unique=True)
    width = check_size(size)
    layout = Layout(perspective)
    if width is None:
        w_attr, h_attr = str(WIDTH), str(HEIGHT)
    else:
        w_attr, h_attr = coordinate(width), coordinate(width * HEIGHT / WIDTH)
    rules_name = state.rules.preset_name or "custom"
    title = f"crapette table: {rules_name} rules, move {state.move_count}, {status_text(state)}"
    if state.outcome is not None:
        title += f", {state.outcome}"
    shown = seen_piles(state)
    parts = [
        svg_open(w_attr, h_attr),
        f"<title>{escape(title)}</title>",
        felt(),
        header_static(rules_name),
        *(cmd.markup() for cmd in header(state)),
        *(draw_pile(layout, pile_parts(layout, pile), pile, shown[pile.id]) for pile in ALL_PILES),
    ]
    marks = move_marks(layout, state, shown, moves)
    if marks:
        parts += ['<g class="highlight">', *(cmd.markup() for cmd in marks), "</g>"]
    parts.append(labels(layout, state.rules))
    parts += [cmd.markup() for cmd in count_badges(layout, shown)]
    parts += [plate(layout, player, plate_key(state, player)) for player in (0, 1)]
    parts.append("</svg>")
    return ascii_text("\n".join(parts) + "\n")
