"""What one player may see, as a NumPy array of fixed shape: the encoding that learning systems take.

This module needs NumPy (``pip install numpy``; each of the ``pettingzoo``,
``gymnasium`` and ``openspiel`` extras brings it). :func:`encode` turns the
public view of a state (:func:`crapette.view`) into a ``float32`` vector of
:data:`OBSERVATION_SIZE` numbers, and :func:`action_mask` gives the legal
actions as an ``int8`` vector of :data:`~crapette.NUM_ACTIONS` zeros and ones,
in the numbering of :func:`~crapette.move_to_action`. Both show only what the
view shows: the order of the face-down cards (the hands, and each reserve below
its top card) never changes them.

The layout (version :data:`OBSERVATION_VERSION`) is fixed: a golden test pins
it, and any change to it comes with a new version number. The documentation's
page "RL and game AI" has it as a table; :data:`FIELDS` names every part. In
short: 20 card rows of 104 numbers (the foundations ``F0``-``F7``, the
tableau piles ``T0``-``T7``, the reserve tops ``R0``, ``R1``, the wastes
``W0``, ``W1``), then the players and counters (``observer``,
``current_player``, ``drawn``, ``passes``, ``exhausted``, ``played``,
``reserve_sizes``, ``hand_sizes``, ``waste_sizes``, ``move_count``,
``has_move_limit``, ``moves_left``, ``counters``, ``is_over``).

A card row holds one number per card, at the card's :attr:`~crapette.Card.index`:
0 if the card is not in that pile, else the reciprocal of its position counted
from the top of the pile: 1 for the top card, 1/2 for the card below it, 1/3
below that, and so on. So a face-up card is in exactly one row, and the rows
give every face-up pile in order; the cards in no row are the face-down ones.
Player 0's piles come first whoever observes: the layout does not turn with
the observer, as action numbers do not either. The rules are not encoded (an
environment plays one rule set).

Every number lies between 0 and 1 (:data:`LOW` and :data:`HIGH`), so a network
takes an observation as it comes: the flags are 0 or 1, ``passes`` is the
count of passes over 2, the sizes of the piles are counts of cards over 104,
``move_count`` is the number of moves over 1000 (1 from move 1000 on),
``moves_left`` the moves left over the rules' move limit (0 without one), and
each count of the rules' own endings ``c`` is squashed to
``0.5 + c / (2 (|c| + 1))`` (0.5 for 0, towards 1 for large counts, towards
0 for very negative ones).

>>> from crapette import legal_moves, new_game, view
>>> state = new_game("classic", seed=1)
>>> obs = encode(view(state), player=0)
>>> obs.shape, obs.dtype
((2104,), dtype('float32'))
>>> obs[FIELDS["reserve_sizes"]] * 104, obs[FIELDS["hand_sizes"]] * 104
(array([13., 13.], dtype=float32), array([35., 35.], dtype=float32))
>>> float(obs.min()), float(obs.max())
(0.0, 1.0)
>>> int(action_mask(state).sum()) == len(legal_moves(state))
True

.. versionadded:: 0.2.0
.. versionchanged:: 0.3.0
   Version 2 of the layout: every number scaled to [0, 1] (version 1 held raw
   counts and positions).
"""

from __future__ import annotations

import operator
import struct
import types
import warnings
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from crapette import (
    NUM_ACTIONS,
    Card,
    GameState,
    PublicView,
    episode,
    legal_actions,
    move_to_action,
)
from crapette._core.state import F0, H0, R0, W0
from crapette.protocol import Crapette

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "crapette.observation needs NumPy: pip install numpy "
        "(the pettingzoo, gymnasium and openspiel extras of crapette bring it)"
    ) from error

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "FIELDS",
    "HIGH",
    "LOW",
    "OBSERVATION_SHAPE",
    "OBSERVATION_SIZE",
    "OBSERVATION_VERSION",
    "action_mask",
    "encode",
]

#: The version of the layout. It changes whenever the layout does.
OBSERVATION_VERSION = 2

# The names of the card rows, in order: foundations, tableau piles, reserves, wastes.
_PILE_ROWS: tuple[str, ...] = (
    *(f"F{i}" for i in range(8)),
    *(f"T{i}" for i in range(8)),
    "R0",
    "R1",
    "W0",
    "W1",
)
_CARDS = 104
# How many counts of the rules' own endings an observation holds.
_COUNTERS = 4
# The move count at which the move_count field reaches 1.
_MOVE_SCALE = 1000
_SCALARS: tuple[tuple[str, int], ...] = (
    # name, length; every value lies in [0, 1]
    ("observer", 2),
    ("current_player", 2),
    ("drawn", 1),
    ("passes", 1),
    ("exhausted", 2),
    ("played", 2),
    ("reserve_sizes", 2),
    ("hand_sizes", 2),
    ("waste_sizes", 2),
    ("move_count", 1),
    ("has_move_limit", 1),
    ("moves_left", 1),
    ("counters", _COUNTERS),
    ("is_over", 1),
)


def _layout() -> dict[str, slice]:
    fields: dict[str, slice] = {}
    start = 0
    for name in _PILE_ROWS:
        fields[name] = slice(start, start + _CARDS)
        start += _CARDS
    for name, length in _SCALARS:
        fields[name] = slice(start, start + length)
        start += length
    return fields


#: Every field of the layout by name, in order: ``obs[FIELDS["hand_sizes"]]``. Card
#: rows are named like their piles (``"F0"`` ... ``"W1"``).
FIELDS: Mapping[str, slice] = types.MappingProxyType(_layout())

#: The length of an observation (2104).
OBSERVATION_SIZE: int = max(s.stop for s in FIELDS.values())
#: The shape of an observation: ``(OBSERVATION_SIZE,)``.
OBSERVATION_SHAPE: tuple[int] = (OBSERVATION_SIZE,)
_SCALAR_START = len(_PILE_ROWS) * _CARDS


def _bound(value: float) -> NDArray[np.float32]:
    bound = np.full(OBSERVATION_SIZE, value, dtype=np.float32)
    bound.flags.writeable = False
    return bound


#: The lowest value of each entry (0), read-only: the ``low`` of an observation space.
LOW: NDArray[np.float32] = _bound(0.0)
#: The highest value of each entry (1), read-only: the ``high`` of an observation space.
HIGH: NDArray[np.float32] = _bound(1.0)

# The card row of each pile, as the bytes of 104 float32 numbers, keyed by the
# identity of the pile's tuple: states share the tuples of the piles a move
# leaves alone, so most rows are found here. An entry keeps its tuple alive, so
# its id is not reused while it is cached.
_row_cache: dict[int, tuple[tuple[Card, ...], bytes]] = {}
_ROW_CACHE_LIMIT = 20_000
_EMPTY_ROW = bytes(4 * _CARDS)
_SCALAR_PACK = struct.Struct(f"={OBSERVATION_SIZE - _SCALAR_START}f").pack


def _new_row(pile: tuple[Card, ...]) -> tuple[tuple[Card, ...], bytes]:
    """Make and cache the row of a pile (bottom to top): 1 over each card's position from the top (1 for the top)."""
    row = np.zeros(_CARDS, dtype=np.float32)
    depth = len(pile)
    for card in pile:
        row[card.index] = 1.0 / depth
        depth -= 1
    entry = (pile, row.tobytes())
    if len(_row_cache) >= _ROW_CACHE_LIMIT:
        _row_cache.clear()
    _row_cache[id(pile)] = entry
    return entry


def _top_rows() -> tuple[bytes, ...]:
    rows = []
    for i in range(_CARDS):
        row = np.zeros(_CARDS, dtype=np.float32)
        row[i] = 1
        rows.append(row.tobytes())
    return tuple(rows)


_TOP_ROWS = _top_rows()
_NO_COUNTERS = (0.5,) * _COUNTERS


def _squash(count: int) -> float:
    """A count of any size as a number in [0, 1]: 0.5 for 0, towards 1 up, towards 0 down."""
    return 0.5 + count / (2 * (abs(count) + 1))


def _counters(position: PublicView | GameState) -> tuple[float, ...]:
    counters = position.counters
    if not counters:
        return _NO_COUNTERS
    if len(counters) > _COUNTERS:
        raise ValueError(
            f"the observation holds the counts of at most {_COUNTERS} endings of the rules' own, "
            f"these rules keep {len(counters)}"
        )
    return (*(_squash(c) for c in counters), *(0.5,) * (_COUNTERS - len(counters)))


def _check_player(player: object) -> int:
    if type(player) is int and (player == 0 or player == 1):
        return player
    if isinstance(player, bool) or not hasattr(player, "__index__"):
        raise TypeError(f"player must be 0 or 1, got {player!r}")
    index = operator.index(player)
    if index not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return index


def encode(position: PublicView | GameState, player: int) -> NDArray[np.float32]:
    """The observation of ``position`` for ``player``: a new ``float32`` array of :data:`OBSERVATION_SHAPE`.

    ``position`` is a public view, or a state, of which only what its
    :func:`~crapette.view` shows is read: ``encode(state, p)`` equals
    ``encode(view(state), p)``, only faster. ``player`` (0 or 1) only sets the
    ``observer`` field: both players see the same cards. :data:`FIELDS` and
    the module's documentation give the layout.

    >>> from crapette import new_game
    >>> state = new_game("casual", seed=1)
    >>> obs = encode(state, player=1)
    >>> obs[FIELDS["observer"]], obs[FIELDS["current_player"]]
    (array([0., 1.], dtype=float32), array([1., 0.], dtype=float32))
    >>> top = state.reserves[0][-1]
    >>> str(top), float(obs[FIELDS["R0"]][top.index])
    ('KD0', 1.0)
    >>> int((obs[:FIELDS["observer"].start] > 0).sum())  # 8 tableau cards, 2 reserve tops
    10

    :raises TypeError: if ``position`` is neither a view nor a state, or
        ``player`` not an integer.
    :raises ValueError: if ``player`` is not 0 or 1, or the rules have more
        than 4 endings of their own (the observation has room for 4 counts).
    """
    if isinstance(position, GameState):
        # What view() shows, read from the state without building the view.
        piles = position.piles
        shown = (*piles[F0:R0], piles[W0], piles[W0 + 1])
        reserve0, reserve1 = piles[R0], piles[R0 + 1]
        top0 = reserve0[-1] if reserve0 else None
        top1 = reserve1[-1] if reserve1 else None
        sizes = (len(reserve0), len(reserve1), len(piles[H0]), len(piles[H0 + 1]))
    elif isinstance(position, PublicView):
        shown = (*position.foundations, *position.tableau, *position.wastes)
        top0, top1 = position.reserve_tops
        sizes = (*position.reserve_sizes, *position.hand_sizes)
    else:
        raise TypeError(f"encode() expects a PublicView or a GameState, got {type(position).__name__}")
    observer = _check_player(player)
    get = _row_cache.get
    rows = [
        entry[1] if (entry := get(id(pile))) is not None and entry[0] is pile else _new_row(pile)[1]
        for pile in shown
    ]
    rows.insert(16, _EMPTY_ROW if top0 is None else _TOP_ROWS[top0.index])
    rows.insert(17, _EMPTY_ROW if top1 is None else _TOP_ROWS[top1.index])
    limit = position.rules.move_limit
    mover = position.current_player
    count = position.move_count
    exhausted, played = position.exhausted, position.played
    rows.append(
        _SCALAR_PACK(
            observer == 0,
            observer == 1,
            mover == 0,
            mover == 1,
            position.drawn,
            position.passes / 2,
            exhausted[0],
            exhausted[1],
            played[0],
            played[1],
            sizes[0] / _CARDS,
            sizes[1] / _CARDS,
            sizes[2] / _CARDS,
            sizes[3] / _CARDS,
            len(shown[16]) / _CARDS,
            len(shown[17]) / _CARDS,
            min(count, _MOVE_SCALE) / _MOVE_SCALE,
            limit is not None,
            0 if limit is None else min(max(limit - count, 0), limit) / limit,
            *_counters(position),
            position.outcome is not None,
        )
    )
    return np.frombuffer(bytearray().join(rows), dtype=np.float32)


def action_mask(position: PublicView | GameState) -> NDArray[np.int8]:
    """The legal actions of ``position``: a new ``int8`` array of :data:`~crapette.NUM_ACTIONS`, 1 where legal.

    The same as :func:`~crapette.legal_action_mask`, as an array. A finished
    game has no legal action (all zeros).

    >>> from crapette import new_game
    >>> mask = action_mask(new_game("casual", seed=1))
    >>> mask.shape, mask.dtype, [int(i) for i in mask.nonzero()[0]]
    ((903,), dtype('int8'), [27, 900])

    :raises TypeError: if ``position`` is neither a view nor a state.
    """
    if isinstance(position, GameState):
        actions: Iterable[int] = legal_actions(position)
    elif isinstance(position, PublicView):
        actions = map(move_to_action, position.legal_moves)
    else:
        raise TypeError(f"action_mask() expects a PublicView or a GameState, got {type(position).__name__}")
    mask = bytearray(NUM_ACTIONS)
    for action in actions:
        mask[action] = 1
    return np.frombuffer(mask, dtype=np.int8)


#: What moved to :mod:`crapette.episode` in 0.3.0 (the episode of the adapters), with the new name of each.
_MOVED = {
    "REWARD_KINDS": "crapette.episode.REWARD_KINDS",
    "DEFAULT_TURN_MOVES": "crapette.episode.DEFAULT_TURN_MOVES",
    "score_scale": "crapette.episode.score_scale",
    "rewards": "crapette.episode.rewards",
    "forfeit": "crapette.episode.forfeit",
    "action_move": "crapette.episode.action_move",
    "truncated_outcome": "crapette.protocol.Crapette.cut_short",
}


def __getattr__(name: str) -> Any:
    """The names that moved to :mod:`crapette.episode` (and ``truncated_outcome``, which is
    :meth:`crapette.protocol.Crapette.cut_short`), deprecated here since 0.3.0."""
    if name in _MOVED:
        where = _MOVED[name]
        warnings.warn(f"crapette.observation.{name} is deprecated since 0.3.0: use {where}", DeprecationWarning, 2)
        if name == "truncated_outcome":
            return Crapette.cut_short
        return getattr(episode, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
