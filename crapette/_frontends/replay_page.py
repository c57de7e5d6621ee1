"""The HTML replay page: :func:`crapette.svg.write_html` and :func:`crapette.svg.render_html`.

The page is one table drawn as :func:`crapette.svg.render` draws it (with
the shared pieces of ``crapette._frontends.svg_draw``), the data of each step as
JSON, and a small script and style sheet. The script and the style are
package data files, ``crapette/static/replay.js`` and ``replay.css``, read
with :mod:`importlib.resources` and written into the page, so the page still
loads nothing from elsewhere. The public names live in :mod:`crapette.svg`.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
import itertools
import json
from collections.abc import Iterable, Iterator
from typing import TextIO
from xml.sax.saxutils import escape

from .._core.cards import Rank, Suit
from .._core.messages import brief
from .._core.moves import Move
from .._core.rules import RuleSet
from .._core.state import ALL_PILES, GameState
from .._views.view import PublicView
from .seen import Table
from .svg_draw import (
    BADGE_T,
    DECK_COLOURS,
    FACE_T,
    FAN,
    FAN_ROOM,
    HEIGHT,
    RANK_STYLE,
    SUIT_INK,
    TEMPLATES,
    WIDTH,
    Cmd,
    Layout,
    ascii_text,
    check_move,
    check_perspective,
    count_badges,
    draw_pile,
    felt,
    header,
    header_static,
    labels,
    move_marks,
    pile_parts,
    pile_text,
    plate,
    plate_key,
    seen_piles,
    status_text,
    svg_open,
)

# HTML ------------------------------------------------------------------------

_KEYFRAME = 64  # every so many steps the page's data holds every pile, not only those that changed


@functools.cache
def _static(name: str) -> str:
    """The text of the package data file ``crapette/static/NAME`` (the page's script or style)."""
    return importlib.resources.files("crapette").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def _json(value: object) -> str:
    """JSON that can stand in a script element of an HTML or XML page."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e")


def _page_table(layout: Layout, rules: RuleSet, names: tuple[str, str] | None) -> dict[str, object]:
    """What the page's script needs to draw any position: templates, piles, name plates."""
    piles = []
    for pile in ALL_PILES:
        parts = pile_parts(layout, pile)
        x, y = layout.slot[pile]
        piles.append({
            "name": str(pile), "kind": pile.kind.value, "x": x, "y": y, "fan": layout.fan.get(pile, 0),
            "before": parts.before, "after": parts.after, "empty": parts.empty, "depth": parts.depth,
            "back": parts.back,
        })
    return {
        "templates": [[t.text, t.fields] for t in TEMPLATES],
        "face": _TEMPLATE_INDEX[FACE_T],
        "badge": _TEMPLATE_INDEX[BADGE_T],
        "ranks": {rank.symbol: RANK_STYLE[rank] for rank in Rank},
        "suits": {suit.value: (suit.symbol, SUIT_INK[suit.colour]) for suit in Suit},
        "bands": DECK_COLOURS,
        "fan": FAN,
        "fanRoom": FAN_ROOM,
        "keyframe": _KEYFRAME,
        "piles": piles,
        "counted": [pile.id for pile in ALL_PILES[16:]],
        "plates": [[plate(layout, player, key, names and names[player]) for key in range(12)] for player in (0, 1)],
    }


def _caption(state: Table) -> str:
    return str(state.outcome) if state.outcome is not None else status_text(state)


class _Steps:
    """The states, moves and notes of a page, checked and paired as they are read."""

    def __init__(self, states: object, moves: object, notes: object) -> None:
        if isinstance(states, (GameState, PublicView)):
            raise TypeError("states must be an iterable of GameState or PublicView; for one state use render()")
        if not isinstance(states, Iterable):
            raise TypeError(f"states must be an iterable of GameState or PublicView, got {type(states).__name__}")
        if isinstance(moves, Move):
            moves = (moves,)
        if isinstance(moves, (str, bytes)):
            raise TypeError("moves takes Move objects, not text: read the notation with parse_move() first")
        if not isinstance(moves, Iterable):
            raise TypeError(f"moves must be an iterable of Move, got {type(moves).__name__}")
        if notes is not None and (isinstance(notes, (str, bytes)) or not isinstance(notes, Iterable)):
            raise TypeError(f"notes must be None or an iterable of str (one per move), got {type(notes).__name__}")
        self.states = iter(states)
        self.moves = iter(moves)
        self.notes = None if notes is None else iter(notes)

    def __iter__(self) -> Iterator[tuple[Table, Move | None, str | None]]:
        state = self._state(0)
        if state is None:
            raise ValueError("a page needs at least one state")
        move = self._move(0)
        with_moves = move is not None
        i = 0
        while True:
            following = self._state(i + 1)
            if with_moves and (move is None) != (following is None):
                counts = (f"{i + 1} or more moves for {i + 1} states" if following is None
                          else f"{i} moves for {i + 2} or more states")
                raise ValueError(f"moves must be empty or one fewer than the states: got {counts}")
            yield state, move, self._note(i, move)
            if following is None:
                if self.notes is not None and next(self.notes, None) is not None:
                    raise ValueError(f"there are more notes than moves ({i})")
                return
            state, i = following, i + 1
            move = self._move(i) if with_moves else None

    def _state(self, i: int) -> Table | None:
        state = next(self.states, None)
        if state is not None and not isinstance(state, (GameState, PublicView)):
            raise TypeError(f"states[{i}] is a {type(state).__name__}, not a GameState or PublicView")
        return state

    def _move(self, i: int) -> Move | None:
        move = next(self.moves, None)
        return None if move is None else check_move(move, f"moves[{i}]")

    def _note(self, i: int, move: Move | None) -> str | None:
        if self.notes is None or move is None:
            return None
        note = next(self.notes, None)
        if note is not None and not isinstance(note, str):
            raise TypeError(f"notes[{i}] is {brief(note)}, not a str or None")
        return note or None


def write_html(
    states: Iterable[GameState | PublicView],
    moves: Iterable[Move],
    out: TextIO,
    *,
    notes: Iterable[str | None] | None = None,
    perspective: int = 0,
    title: str = "crapette game",
    names: tuple[str, str] | None = None,
) -> int:
    """Write a self-contained HTML page that steps through ``states`` to ``out``, as it reads them.

    The page draws one table, as :func:`render` draws it: the cards, pile
    labels and counts, the player to move, the move played from each step as
    an arrow (with its note, if any), and the outcome at the end. Its buttons
    or the arrow keys step through the game (Home and End jump to the ends).
    The page holds one short entry per step (the piles that changed, as a
    player sees them) and a small script that draws them; it loads nothing
    from elsewhere and works offline. It names no face-down card: only what a
    player sees of each state goes in, so the page is the same whatever the
    order of the hands and reserves. The page is plain ASCII and well-formed XML.

    ``states``, ``moves`` and ``notes`` are read one item at a time and
    ``out`` is written as they are read, so the memory used does not grow
    with the game: a record of any length can be written. An error found
    partway (a state that is not a GameState, too few moves) is raised after
    part of the page has been written.

    :param states: the states to show, in order (e.g. ``record.states()``),
        or their public views (:func:`~crapette.view`: the same page).
    :param moves: empty, or the moves played between them: ``moves[i]`` leads
        from ``states[i]`` to ``states[i + 1]``, is drawn as an arrow on
        ``states[i]`` and named in its caption.
    :param out: a text stream, e.g. a file opened with ``encoding="utf-8"``.
    :param notes: None, or one note per move (a short ``str``, or None for
        none), shown with the step that draws the move, e.g. an analysis mark.
    :param perspective: the player drawn at the bottom (0 or 1).
    :param title: the page's title.
    :param names: the players' names on their plates (player 0's, player 1's;
        e.g. a record's :attr:`~crapette.GameRecord.players`), or None for
        "Player 0" and "Player 1". A plate shows 14 characters at most.
    :returns: the number of states written.
    :raises TypeError: if a state is not a GameState or PublicView, a move not
        a Move, a note not a str or None, ``title`` not a str, or ``names`` not two str.
    :raises ValueError: if there are no states, ``moves`` is neither empty
        nor one shorter than ``states``, the notes outnumber the moves, the
        states do not all have the same rules, or ``perspective`` is not 0 or 1.

    >>> import io
    >>> from crapette import new_game, apply_move, legal_moves
    >>> first = new_game("casual", seed=1)
    >>> move = legal_moves(first)[0]
    >>> page = io.StringIO()
    >>> write_html([first, apply_move(first, move)], [move], page, notes=["the only build"])
    2
    >>> text = page.getvalue()
    >>> text.count("<svg "), '"m":"T1-T0"' in text, "the only build" in text
    (1, True, True)

    .. versionadded:: 0.2.0
    .. versionchanged:: 0.3.0
       The states may be public views.
    .. versionchanged:: 0.4.0
       ``names``.
    """
    perspective = check_perspective(perspective)
    if not isinstance(title, str):
        raise TypeError(f"title must be a str, got {type(title).__name__}")
    if names is not None and not (
        isinstance(names, tuple) and len(names) == 2 and all(isinstance(n, str) for n in names)
    ):
        raise TypeError(f"names must be None or a tuple of two str (player 0's, player 1's), got {brief(names)}")
    if not callable(getattr(out, "write", None)):
        raise TypeError(f"out must be a text stream with a write() method, got {type(out).__name__}")
    steps = iter(_Steps(states, moves, notes))
    first, move, note = next(steps)
    layout = Layout(perspective)
    rules = first.rules
    rules_name = rules.preset_name or "custom"
    shown = seen_piles(first)
    write = out.write
    write(ascii_text("\n".join([
        "<!DOCTYPE html>",
        '<html xmlns="http://www.w3.org/1999/xhtml" lang="en">',
        '<head><meta charset="utf-8"/>',
        '<meta name="viewport" content="width=device-width, initial-scale=1"/>',
        f"<title>{escape(title)}</title>",
        f"<style>\n{_static('replay.css')}</style></head>",
        "<body>",
        f"<h1>{escape(title)}</h1>",
        '<nav><button type="button" id="first" title="first (Home)">|&#9664;</button>'
        '<button type="button" id="prev" title="previous (left arrow)">&#9664;</button>'
        '<span id="counter">1</span>'
        '<button type="button" id="next" title="next (right arrow)">&#9654;</button>'
        '<button type="button" id="last" title="last (End)">&#9654;|</button></nav>',
        f'<p class="caption" id="caption">{escape(f"move 1: {move}" if move else _caption(first))}</p>',
        f'<p class="note" id="note"{"" if note else _HIDDEN}>{escape(note or "")}</p>',
        # The table takes the rest of the window, whatever its size (replay.css), drawn from its top left.
        '<div class="table">' + svg_open(str(WIDTH), str(HEIGHT), ' preserveAspectRatio="xMinYMin meet"'),
        f"<title>crapette table: {escape(rules_name)} rules</title>",
        felt(),
        header_static(rules_name),
        '<g id="crapette-header">' + "".join(c.markup() for c in header(first)) + "</g>",
        '<g id="crapette-piles">'
        + "".join(draw_pile(layout, pile_parts(layout, p), p, shown[p.id]) for p in ALL_PILES) + "</g>",
        '<g id="crapette-marks">'
        + "".join(c.markup() for c in move_marks(layout, first, shown, (move,) if move else ())) + "</g>",
        labels(layout, rules),
        '<g id="crapette-counts">' + "".join(c.markup() for c in count_badges(layout, shown)) + "</g>",
        '<g id="crapette-plates">' + "".join(plate(layout, p, plate_key(first, p), names and names[p]) for p in (0, 1)) + "</g>",
        "</svg></div>",
        '<noscript><p>The page needs JavaScript to step through the game; it shows the first position.</p></noscript>',
        f'<script type="application/json" id="crapette-table">{_json(_page_table(layout, rules, names))}</script>',
        '<script type="application/json" id="crapette-steps">[',
    ])))
    count = 0
    previous = shown
    for state, move, note in itertools.chain([(first, move, note)], steps):
        if state.rules is not rules and state.rules != rules:
            raise ValueError(f"the states must all have the same rules: state {count} has other rules")
        shown = seen_piles(state)
        keyframe = count % _KEYFRAME == 0
        entry: dict[str, object] = {
            "c": {str(p.id): pile_text(p, shown[p.id]) for p in ALL_PILES if keyframe or shown[p.id] != previous[p.id]},
            "g": [_data(cmd) for cmd in header(state)],
            "p": [plate_key(state, 0), plate_key(state, 1)],
        }
        if move is not None:
            entry["m"] = str(move)
            entry["h"] = [_data(cmd) for cmd in move_marks(layout, state, shown, (move,))]
        else:
            entry["s"] = _caption(state)
        if note:
            entry["t"] = note
        write(("\n" if count == 0 else ",\n") + _json(entry))
        previous = shown
        count += 1
    write(f"\n]</script>\n<script>//<![CDATA[\n{_static('replay.js')}//]]></script>\n</body></html>\n")
    return count


def _data(cmd: Cmd) -> list[object]:
    """A filled template as the page's data holds it: the template's number, then the values."""
    return [_TEMPLATE_INDEX[cmd.template], *cmd.values]


_TEMPLATE_INDEX = {template: i for i, template in enumerate(TEMPLATES)}
_HIDDEN = ' style="display: none"'


def render_html(
    states: Iterable[GameState | PublicView],
    moves: Iterable[Move] = (),
    *,
    notes: Iterable[str | None] | None = None,
    perspective: int = 0,
    title: str = "crapette game",
    names: tuple[str, str] | None = None,
) -> str:
    """A self-contained HTML page that steps through ``states``, as text.

    The page is the one :func:`write_html` writes (see there): one table,
    drawn as :func:`render` draws it, with buttons and the arrow keys to step
    through the states (Home and End jump to the ends); it loads nothing
    from elsewhere and is well-formed XML. For a long game, write the page
    to a file with :func:`write_html`, which does not hold it in memory.

    :param states: the states to show, in order (e.g. ``record.states()``),
        or their public views.
    :param moves: empty, or the moves played between them: ``moves[i]`` leads
        from ``states[i]`` to ``states[i + 1]``, is drawn as an arrow on
        ``states[i]`` and named in its caption.
    :param notes: None, or one note per move (a short ``str``, or None).
    :param perspective: the player drawn at the bottom (0 or 1).
    :param title: the page's title.
    :param names: the players' names on their plates, or None (see :func:`write_html`).
    :raises TypeError: if a state is not a GameState or PublicView, or a move not a Move.
    :raises ValueError: if there are no states, or ``moves`` is neither empty
        nor one shorter than ``states``.

    >>> from crapette import new_game, apply_move, legal_moves
    >>> first = new_game("casual", seed=1)
    >>> move = legal_moves(first)[0]
    >>> page = render_html([first, apply_move(first, move)], [move])
    >>> page.count("<svg "), "move 1: T1-T0" in page
    (1, True)

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.2.0
       One table drawn by a small script from one short entry per state, not
       one picture per state: a page is about a hundredth of the size. Added ``notes``.
    .. versionchanged:: 0.3.0
       The states may be public views.
    .. versionchanged:: 0.4.0
       ``names``.
    """
    text = io.StringIO()
    write_html(states, moves, text, notes=notes, perspective=perspective, title=title, names=names)
    return text.getvalue()
