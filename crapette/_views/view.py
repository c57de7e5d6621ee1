"""The public view of a state: what either player may see (:ref:`section 12 of the rules <rules-12>`), and the deal of what they cannot see (determinize)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import attrs

from .. import kernel
from .._core.cards import ALL_CARDS, Card, parse_card
from .._core.checks import strict_json
from .._core.engine import apply_move as _apply_move
from .._core.engine import legal_moves as _legal_moves
from .._core.messages import brief, not_a_state
from .._core.moves import Draw, Move, parse_move
from .._core.outcome import MAX_NUMBER, EndReason
from .._core.rules import LoadTarget, RuleSet, parse_rules
from .._core.state import H0, R0, W0, GameState, Outcome, get_fields, raw_state
from .._core.turns import reveals
from ..errors import HiddenCardError, InvalidRulesError, InvalidStateError, ParseError

__all__ = [
    "Dealer",
    "MAX_VIEW_LENGTH",
    "PublicView",
    "VIEW_FORMAT_VERSION",
    "dealer",
    "determinize",
    "rules_to_dict",
    "Viewed",
    "step_view",
    "view",
    "view_moves",
]

#: The version of the layout :meth:`PublicView.to_dict` writes (its ``"version"`` key).
VIEW_FORMAT_VERSION = 3

#: The most characters :meth:`PublicView.from_json` reads (a view's JSON is a few thousand).
MAX_VIEW_LENGTH = 65_536

#: A state or a view: :func:`~crapette.apply_move` returns what it is given.
Viewed = TypeVar("Viewed", GameState, "PublicView")


def rules_to_dict(rules: RuleSet) -> dict[str, Any]:
    """Every option of ``rules`` as JSON-ready values, as its declaration writes them.

    Numbers and bools as they are, enum values as their strings, collections
    as lists, rule parts as their texts (name and parameters), None as null.

    >>> rules_to_dict(RuleSet.casual())["opponent_tableau_build"]
    'suit-up-or-down'
    >>> rules_to_dict(RuleSet.classic())["scoring"]
    'weighted:30:2:1:1:150'
    """
    return {opt.name: opt.to_json(getattr(rules, opt.name)) for opt in RuleSet.options()}


def _cards(pile: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in pile]


@attrs.frozen(cache_hash=True)
class PublicView:
    """What a player may see of a state, and remember of the game; the same for both players.

    The face-down cards are counts only: each reserve shows its top card
    (face up) and its size, each hand only its size. Foundations, tableau
    piles and wastes are shown whole (bottom to top). The legal moves depend
    only on this public information, so a bot that sees only the view can
    choose among them.

    A player with perfect memory knows more, and the state remembers it (its
    fields :attr:`~crapette.GameState.hand_known`,
    :attr:`~crapette.GameState.reserve_known`,
    :attr:`~crapette.GameState.from_deal` and
    :attr:`~crapette.GameState.turn_moves`): a hand formed by turning the
    (public) waste over is known in order (:attr:`known_hands`), the cards
    loaded onto a reserve stay known under the cards that cover them
    (:attr:`known_reserve_cards`), and under ``revisits=False`` the moves
    that name the positions the turn has reached are public (:attr:`turn_moves`).

    Build one with :func:`view`; :meth:`to_dict` gives a JSON-ready dict.

    >>> from crapette import new_game
    >>> v = view(new_game("casual", seed=1))
    >>> v.reserve_tops[0], v.reserve_sizes, v.hand_sizes
    (parse_card('KD0'), (12, 12), (36, 36))
    >>> [str(m) for m in v.legal_moves]
    ['T1-T0', 'draw']
    >>> v.known_hands, v.from_deal
    ((None, None), True)

    Once a player's hand runs out, the waste turned over is the new hand, in order:

    >>> from crapette import apply_move, legal_moves
    >>> state = new_game("casual", seed=1)
    >>> while view(state).known_hands[0] is None or not state.hands[0]:
    ...     moves = legal_moves(state)   # draw, end the turn or pass, else the first move
    ...     state = apply_move(state, next((m for m in moves if str(m) in ("draw", "end", "pass")), moves[0]))
    >>> view(state).known_hands[0] == state.hands[0]
    True

    .. versionadded:: 0.1.0
    .. versionchanged:: 0.3.0
       ``known_hands``, ``known_reserve_cards``, ``from_deal`` and ``turn_moves``.
    """

    #: The rules in force.
    rules: RuleSet
    #: The player to move (0 or 1).
    current_player: int
    #: Moves made so far.
    move_count: int
    #: True while the top of the mover's waste was drawn this turn.
    drawn: bool
    #: Consecutive passes just made.
    passes: int
    #: Per player: marked exhausted by the stalemate rule.
    exhausted: tuple[bool, bool]
    #: Per player: played a hand or reserve card since the last turnover.
    played: tuple[bool, bool]
    #: The count each of the rules' own endings keeps (see :attr:`GameState.counters <crapette.GameState.counters>`).
    counters: tuple[int, ...]
    #: The 8 foundations, bottom to top.
    foundations: tuple[tuple[Card, ...], ...]
    #: The 8 tableau piles, bottom to top.
    tableau: tuple[tuple[Card, ...], ...]
    #: Per player: the face-up top card of the reserve, or None if it is empty.
    reserve_tops: tuple[Card | None, Card | None]
    #: Per player: the number of cards in the reserve (the top card included).
    reserve_sizes: tuple[int, int]
    #: Per player: the number of cards in the hand.
    hand_sizes: tuple[int, int]
    #: Per player: the waste, bottom to top.
    wastes: tuple[tuple[Card, ...], tuple[Card, ...]]
    #: How the game ended, or None while it goes on.
    outcome: Outcome | None
    #: The legal moves of the player to move, in :func:`~crapette.legal_moves` order.
    legal_moves: tuple[Move, ...]
    #: Per player: the hand, bottom to top, when its order is known (it was formed by
    #: turning the waste over, or it is empty), else None.
    known_hands: tuple[tuple[Card, ...] | None, tuple[Card, ...] | None] = (None, None)
    #: Per player: the known cards at the top of the reserve, bottom to top: the
    #: face-up top and the cards seen there since (loaded onto it, then covered).
    #: Empty for an empty reserve, and left empty, only the top is known.
    known_reserve_cards: tuple[tuple[Card, ...], tuple[Card, ...]] = ((), ())
    #: True when the game was followed from its deal (:func:`~crapette.new_game`, then
    #: moves): every card never seen then lies where it was dealt, in its owner's
    #: reserve or hand (see :attr:`GameState.from_deal <crapette.GameState.from_deal>`).
    from_deal: bool = False
    #: Under ``revisits=False``, the moves between tableau piles made in a row this
    #: turn (see :attr:`GameState.turn_moves <crapette.GameState.turn_moves>`); else empty.
    turn_moves: tuple[Move, ...] = ()

    @property
    def is_over(self) -> bool:
        """True once the game has ended.

        >>> from crapette import new_game
        >>> view(new_game("classic", seed=1)).is_over
        False
        """
        return self.outcome is not None

    def to_dict(self) -> dict[str, Any]:
        """The view as a JSON-ready dict (only str, int, bool, None, list and dict).

        The layout (version 3, since 0.3.0; version 2 had no ``known_hands``,
        ``known_reserve_cards``, ``from_deal``, ``turn_moves`` nor the outcome's ``ending``)::

            {
              "format": "crapette-view",
              "version": 3,
              "rules": "classic",              # str(rules), a rules text
              "options": {...},                # every RuleSet option, see rules_to_dict
              "current_player": 0,
              "move_count": 12,
              "drawn": false,
              "passes": 0,
              "exhausted": [false, false],
              "played": [true, false],
              "counters": [],                  # one per ending of the rules' own
              "foundations": [["AH0", "2H0"], [], ...],   # 8 lists, bottom to top
              "tableau": [["KS1", "QH0"], ...],           # 8 lists, bottom to top
              "reserve_tops": ["7C0", null],               # per player, null if empty
              "reserve_sizes": [9, 0],
              "hand_sizes": [30, 28],
              "wastes": [["4D0"], []],                     # per player, bottom to top
              "outcome": null,    # or {"winner": 0 or null, "reason": "emptied" |
                                  #     "stalemate" | "blocked" | "move-limit",
                                  #     "scores": [int, int] or null,
                                  #     "ending": "no-progress:20" or null}
              "is_over": false,
              "legal_moves": ["R0-F3", "draw"],           # move notation, legal order
              "known_hands": [null, ["9S0", "3H0"]],      # per player, bottom to top, null if unknown
              "known_reserve_cards": [["7C0"], []],       # per player, bottom to top
              "from_deal": true,
              "turn_moves": []                              # revisits=false: moves between tableau piles
            }

        Cards are written as :func:`~crapette.parse_card` reads them, moves as
        :func:`~crapette.parse_move` reads them. :meth:`from_dict` reads the dict
        back, checked: ``PublicView.from_dict(v.to_dict()) == v``.

        >>> import json
        >>> from crapette import new_game
        >>> d = view(new_game("casual", seed=1)).to_dict()
        >>> d["reserve_tops"], d["hand_sizes"], d["legal_moves"]
        (['KD0', 'QS1'], [36, 36], ['T1-T0', 'draw'])
        >>> json.loads(json.dumps(d)) == d
        True
        """
        outcome = self.outcome
        return {
            "format": "crapette-view",
            "version": VIEW_FORMAT_VERSION,
            "rules": str(self.rules),
            "options": rules_to_dict(self.rules),
            "current_player": self.current_player,
            "move_count": self.move_count,
            "drawn": self.drawn,
            "passes": self.passes,
            "exhausted": list(self.exhausted),
            "played": list(self.played),
            "counters": list(self.counters),
            "foundations": [_cards(p) for p in self.foundations],
            "tableau": [_cards(p) for p in self.tableau],
            "reserve_tops": [None if c is None else str(c) for c in self.reserve_tops],
            "reserve_sizes": list(self.reserve_sizes),
            "hand_sizes": list(self.hand_sizes),
            "wastes": [_cards(p) for p in self.wastes],
            "outcome": None
            if outcome is None
            else {
                "winner": outcome.winner,
                "reason": outcome.reason.value,
                "scores": None if outcome.scores is None else list(outcome.scores),
                "ending": outcome.ending,
            },
            "is_over": outcome is not None,
            "legal_moves": [str(m) for m in self.legal_moves],
            "known_hands": [None if h is None else _cards(h) for h in self.known_hands],
            "known_reserve_cards": [_cards(p) for p in self.known_reserve_cards],
            "from_deal": self.from_deal,
            "turn_moves": [str(m) for m in self.turn_moves],
        }

    def to_json(self, *, indent: int | None = None) -> str:
        """The view as JSON text, the dict of :meth:`to_dict`; :meth:`from_json` reads it back.

        >>> from crapette import new_game
        >>> v = view(new_game("casual", seed=1))
        >>> PublicView.from_json(v.to_json()) == v
        True

        .. versionadded:: 0.4.0
        """
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PublicView:
        """Read the dict that :meth:`to_dict` writes: ``PublicView.from_dict(v.to_dict()) == v``.

        ``"options"``, ``"is_over"`` and ``"legal_moves"`` follow from the
        other keys and may be left out; when given, they must agree with
        them. Every other key is required; unknown keys are refused. The view
        is checked to be one that a valid state shows: its piles, counts,
        outcome and legal moves fit together under its rules.

        The earlier versions are read too: version 2 (0.2.0, without the
        memory: ``known_hands``, ``known_reserve_cards``, ``from_deal``,
        ``turn_moves`` and the outcome's ``ending``) and version 1 (0.1.0,
        without ``counters`` either) give a view that knows nothing of the
        game's history, its legal moves those of its position under this
        release (their ``options`` and ``legal_moves`` are not compared).

        >>> from crapette import new_game
        >>> v = view(new_game("classic", seed=3))
        >>> PublicView.from_dict(v.to_dict()) == v
        True
        >>> PublicView.from_dict({**v.to_dict(), "version": 4})
        Traceback (most recent call last):
        ...
        crapette.ParseError: invalid view JSON: unsupported version 4 (this release reads versions 1 to 3)

        :raises ParseError: if ``data`` does not follow the layout; the message
            names the key (and item) at fault.
        :raises InvalidRulesError: if the rules make no sense together or name
            a rule part that is not registered.
        :raises InvalidStateError: if no valid state shows this view (cards
            missing or twice, a count that does not fit, an outcome or legal
            moves that are not those of the position).
        :raises TypeError: if ``data`` is not a mapping.

        .. versionadded:: 0.4.0
        """
        if not isinstance(data, Mapping):
            raise TypeError(f"PublicView.from_dict() expects a dict, got {type(data).__name__}")
        return _from_data(data)

    @classmethod
    def from_json(cls, text: str) -> PublicView:
        """Read the JSON that :meth:`to_json` writes (see :meth:`from_dict` for what is checked).

        Duplicate keys, ``NaN`` and text longer than :data:`MAX_VIEW_LENGTH`
        (65,536 characters) are refused too.

        >>> PublicView.from_json('{"format": "crapette-view", "version": 3}')
        Traceback (most recent call last):
        ...
        crapette.ParseError: invalid view JSON: missing key 'rules'

        :raises ParseError: if the text is not JSON, is too long, or does not follow the layout.
        :raises InvalidRulesError: as :meth:`from_dict`.
        :raises InvalidStateError: as :meth:`from_dict`.
        :raises TypeError: if ``text`` is not a str.

        .. versionadded:: 0.4.0
        """
        if not isinstance(text, str):
            raise TypeError(f"PublicView.from_json() expects a str, got {type(text).__name__}")
        if len(text) > MAX_VIEW_LENGTH:
            raise _fail(f"too long ({len(text)} characters, at most {MAX_VIEW_LENGTH})")
        try:
            data = strict_json(text, "view")
        except ParseError:
            raise
        except RecursionError:
            raise _fail("nested too deeply") from None
        except ValueError as exc:
            # json.JSONDecodeError, and Python's limit on the digits of an int.
            raise _fail(str(exc)) from None
        if not isinstance(data, dict):
            raise _fail(f"expected an object, got {_json_type(data)}")
        return _from_data(data)


def view(state: GameState) -> PublicView:
    """The public view of ``state``: face-down cards as counts (:ref:`section 12 of the rules <rules-12>`).

    The view is the same for both players: nobody knows the order of a hand
    until it is formed by turning the waste over, nor the cards of a reserve
    below its top card but those seen there (see :class:`PublicView`).

    >>> from crapette import legal_moves, new_game
    >>> state = new_game("classic", seed=3)
    >>> v = view(state)
    >>> v.reserve_tops == (state.reserves[0][-1], state.reserves[1][-1])
    True
    >>> v.reserve_sizes, v.hand_sizes
    ((13, 13), (35, 35))
    >>> v.legal_moves == legal_moves(state)
    True

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"view() expects a GameState, got {type(state).__name__}")
    piles = state.piles
    r0, r1 = piles[R0], piles[R0 + 1]
    h0, h1 = piles[H0], piles[H0 + 1]
    k0, k1 = state.reserve_known
    known0, known1 = state.hand_known
    return PublicView(
        rules=state.rules,
        current_player=state.current_player,
        move_count=state.move_count,
        drawn=state.drawn,
        passes=state.passes,
        exhausted=state.exhausted,
        played=state.played,
        counters=state.counters,
        foundations=state.foundations,
        tableau=state.tableau,
        reserve_tops=(r0[-1] if r0 else None, r1[-1] if r1 else None),
        reserve_sizes=(len(r0), len(r1)),
        hand_sizes=(len(piles[H0]), len(piles[H0 + 1])),
        wastes=(piles[W0], piles[W0 + 1]),
        outcome=state.outcome,
        legal_moves=_legal_moves(state),
        known_hands=(h0 if known0 or not h0 else None, h1 if known1 or not h1 else None),
        known_reserve_cards=(r0[len(r0) - 1 - k0 :] if r0 else (), r1[len(r1) - 1 - k1 :] if r1 else ()),
        from_deal=state.from_deal,
        turn_moves=state.turn_moves,
    )


def _known_reserve(v: PublicView, player: int) -> tuple[Card, ...]:
    """The known cards at the top of ``player``'s reserve (at least its top card)."""
    known = v.known_reserve_cards[player]
    top = v.reserve_tops[player]
    return known if known or top is None else (top,)


def _unseen(v: PublicView) -> list[Card]:
    """The cards nobody has seen in ``v`` (the face-down ones not known), in the order of ``ALL_CARDS``."""
    seen: set[Card] = set()
    for group in (v.foundations, v.tableau, v.wastes):
        for pile in group:
            seen.update(pile)
    for player in (0, 1):
        seen.update(_known_reserve(v, player))
        seen.update(v.known_hands[player] or ())
    return [card for card in ALL_CARDS if card not in seen]


class Dealer:
    """Deals the unseen cards of a view into the face-down slots nobody has seen (see :func:`determinize`).

    The slots are worked out once per view; each deal is then a few shuffles
    and slices, and the state is built by the raw constructor (a valid deal
    needs no check). The searches keep one per decision.
    """

    def __init__(self, v: PublicView) -> None:
        self.view = v
        unseen = _unseen(v)
        known = (_known_reserve(v, 0), _known_reserve(v, 1))
        hands = v.known_hands
        slots = [
            [(R0 + p, v.reserve_sizes[p] - len(known[p])), (H0 + p, 0 if hands[p] is not None else v.hand_sizes[p])]
            for p in (0, 1)
        ]
        decks = [[c for c in unseen if c.deck == p] for p in (0, 1)]
        # Followed from the deal, every unseen card lies where it was dealt: each
        # deck's unseen cards fill its owner's slots exactly.
        own_only = v.from_deal and all(len(decks[p]) == sum(n for _, n in slots[p]) for p in (0, 1))
        loaded = {
            R0: not own_only and LoadTarget.RESERVE in v.rules.load_targets,
            H0: not own_only and LoadTarget.WASTE in v.rules.load_targets,
        }
        #: Per deck with slots that may hold only its cards (a reserve or hand that the
        #: rules never load): the deck's unseen cards and those slots, (pile id, size).
        self.own: list[tuple[int, list[Card], list[tuple[int, int]]]] = []
        #: The slots that may hold either deck's cards, in pile order.
        self.shared: list[tuple[int, int]] = []
        #: Per deck: its unseen cards that go to the shared slots, when it has no slot of its own.
        self.rest: list[list[Card]] = []
        for player in (0, 1):
            own = [(pid, n) for pid, n in slots[player] if n and not loaded[pid - player]]
            self.shared += [(pid, n) for pid, n in slots[player] if n and loaded[pid - player]]
            if own:
                self.own.append((player, decks[player], own))
                self.rest.append([])
            else:
                self.rest.append(decks[player])
        self.tops = known
        self.base: list[tuple[Card, ...]] = [*v.foundations, *v.tableau, (), (), *(h or () for h in hands), *v.wastes]
        #: What the dealt worlds remember: the same as the view.
        self.hand_known = (bool(hands[0]), bool(hands[1]))
        self.reserve_known = (max(0, len(known[0]) - 1), max(0, len(known[1]) - 1))

    def deal(self, rng: random.Random | None) -> GameState:
        """One deal, shuffled by ``rng`` (None: the cards in ascending order), with the view's outcome."""
        v = self.view
        piles = self.base[:]
        rest = self.rest[:]
        for deck, cards, slots in self.own:
            if rng is not None:
                cards = cards[:]
                if not kernel.shuffle(rng, cards):
                    rng.shuffle(cards)
            start = 0
            for pid, n in slots:
                piles[pid] = tuple(cards[start : start + n])
                start += n
            if start < len(cards):
                # What is left joins the shared cards in ascending order, as if never taken out.
                rest[deck] = sorted(cards[start:], key=_card_index)
        if self.shared:
            pool = rest[0] + rest[1]
            if rng is not None:
                if not kernel.shuffle(rng, pool):
                    rng.shuffle(pool)
            start = 0
            for pid, n in self.shared:
                piles[pid] = tuple(pool[start : start + n])
                start += n
        piles[R0] = piles[R0] + self.tops[0]
        piles[R0 + 1] = piles[R0 + 1] + self.tops[1]
        return raw_state(
            v.rules, tuple(piles), v.current_player, v.move_count, v.drawn, v.passes, v.exhausted, v.played, v.counters,
            self.hand_known, self.reserve_known, v.from_deal, v.turn_moves, v.outcome,
        )


def _card_index(card: Card) -> int:
    return card.index


_DEALERS: dict[PublicView, Dealer] = {}


def dealer(v: PublicView) -> Dealer:
    """The :class:`Dealer` of ``v``, its first deal checked: every deal of a checked dealer is valid.

    The deals of one view differ only in the order of the unseen cards within
    slots they may all take, so one valid deal vouches for every other. Kept
    for the views last asked about, so that the searches and the protocol's
    ``determinize`` pay the check once per position.

    :raises InvalidStateError: if ``v`` is not a view that a valid state shows.
    """
    found = _DEALERS.get(v)
    if found is None:
        found = Dealer(v)
        fields: tuple[Any, ...] = get_fields(found.deal(None))
        if GameState(*fields).outcome != v.outcome:
            raise InvalidStateError(f"the view's outcome {v.outcome} is not the outcome of its position")
        if len(_DEALERS) >= 64:
            _DEALERS.clear()
        _DEALERS[v] = found
    return found


def determinize(v: PublicView, rng: random.Random | None = None) -> GameState:
    """A full state that shows ``v``: the unseen cards dealt into the face-down slots.

    The unseen cards are the ones nobody has seen (all 104 but those on the
    foundations, the tableau and the wastes, and those the view knows: the
    reserves' known top cards and the known hands). They fill each reserve
    below its known top cards and each hand whose order is not known,
    shuffled by ``rng``; with ``rng=None`` they go in a fixed order (cards
    ascending), which serves a bot that only looks at moves that reveal
    nothing. Known cards stay where they are, known hands in their order. A
    card goes to the other player's reserve or hand only if the rules could
    have put it there (loading) and, for a game followed from its deal
    (``PublicView.from_deal``), only if it was seen there, so the result
    is always a valid state. The result knows what ``v`` knows: its view is
    ``v``.

    The result depends only on the view and the generator: it is the same
    whatever order the never-seen cards of the real state are in.

    >>> import random
    >>> from crapette import new_game
    >>> state = new_game("classic", seed=5)
    >>> world = determinize(view(state), random.Random(0))
    >>> view(world) == view(state)
    True
    >>> world.hands[0] == state.hands[0]
    False

    .. versionchanged:: 0.3.0
       Defined here, beside the view; :func:`crapette.bots.determinize` is the same function.

    :raises TypeError: if ``v`` is not a :class:`~crapette.PublicView`.
    :raises InvalidStateError: if ``v`` is not a view that a valid state shows.
    """
    if not isinstance(v, PublicView):
        raise TypeError(f"determinize() expects a PublicView, got {type(v).__name__}")
    return dealer(v).deal(rng)


# Reading a view's JSON ---------------------------------------------------------

#: The keys of the layout, in the order to_dict writes them; those that may be left out.
_KEYS = (
    "format", "version", "rules", "options", "current_player", "move_count", "drawn", "passes", "exhausted",
    "played", "counters", "foundations", "tableau", "reserve_tops", "reserve_sizes", "hand_sizes", "wastes",
    "outcome", "is_over", "legal_moves", "known_hands", "known_reserve_cards", "from_deal", "turn_moves",
)
_DERIVED = ("options", "is_over", "legal_moves")
_OUTCOME_KEYS = ("winner", "reason", "scores", "ending")
#: What the earlier versions did not have: version 2 no memory (nor the outcome's ending), version 1 no counters.
_MEMORY = ("known_hands", "known_reserve_cards", "from_deal", "turn_moves")
_VERSION_KEYS = {
    1: tuple(k for k in _KEYS if k not in _MEMORY and k != "counters"),
    2: tuple(k for k in _KEYS if k not in _MEMORY),
    3: _KEYS,
}
#: The most items a list of the layout holds (cards of a pile, moves).
_MAX_ITEMS = 1000


def _fail(detail: str) -> ParseError:
    return ParseError(f"invalid view JSON: {detail}")


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, (list, tuple)):
        return "an array"
    return "an object"


def _number(where: str, value: object, high: int = MAX_NUMBER) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise _fail(f"{where} must be a whole number, got {_json_type(value)}")
    if not 0 <= value <= high:
        raise _fail(f"{where} must be from 0 to {high}, got {brief(value, 20)}")
    return value


def _flag(where: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise _fail(f"{where} must be true or false, got {_json_type(value)}")
    return value


def _items(where: str, value: object, count: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise _fail(f"{where} must be an array, got {_json_type(value)}")
    if count is not None and len(value) != count:
        raise _fail(f"{where} must hold {count} items, got {len(value)}")
    if len(value) > _MAX_ITEMS:
        raise _fail(f"{where} holds {len(value)} items, at most {_MAX_ITEMS}")
    return value


def _text(where: str, value: object) -> str:
    if not isinstance(value, str):
        raise _fail(f"{where} must be a string, got {_json_type(value)}")
    return value


def _card(where: str, value: object) -> Card:
    try:
        return parse_card(_text(where, value))
    except ParseError as exc:
        raise _fail(f"{where}: {exc}") from None


def _pile(where: str, value: object) -> tuple[Card, ...]:
    return tuple(_card(f"{where}, card {i}", c) for i, c in enumerate(_items(where, value)))


def _piles(key: str, value: object, count: int) -> tuple[tuple[Card, ...], ...]:
    return tuple(_pile(f"key {key!r}, item {i}", p) for i, p in enumerate(_items(f"key {key!r}", value, count)))


def _pair(where: str, value: object, read: Callable[[str, Any], Any]) -> tuple[Any, Any]:
    first, second = _items(where, value, 2)
    return read(f"{where}, item 0", first), read(f"{where}, item 1", second)


def _moves(key: str, value: object) -> tuple[Move, ...]:
    moves = []
    for i, item in enumerate(_items(f"key {key!r}", value)):
        try:
            moves.append(parse_move(_text(f"key {key!r}, item {i}", item)))
        except ParseError as exc:
            raise _fail(f"key {key!r}, item {i}: {exc}") from None
    return tuple(moves)


def _outcome(value: object, version: int) -> Outcome | None:
    if value is None:
        return None
    if not isinstance(value, dict):
        raise _fail(f"key 'outcome' must be null or an object, got {_json_type(value)}")
    keys = _OUTCOME_KEYS if version >= 3 else _OUTCOME_KEYS[:-1]
    unknown = [k for k in value if k not in keys]
    if unknown:
        raise _fail(f"key 'outcome': unknown key {brief(unknown[0], 40)} (known: {', '.join(keys)})")
    if "reason" not in value:
        raise _fail("key 'outcome': missing key 'reason'")
    winner = value.get("winner")
    if winner is not None and (type(winner) is not int or winner not in (0, 1)):
        raise _fail(f"key 'outcome', key 'winner' must be 0, 1 or null, got {brief(winner, 20)}")
    reason = _text("key 'outcome', key 'reason'", value["reason"])
    if reason not in {r.value for r in EndReason}:
        known = ", ".join(r.value for r in EndReason)
        raise _fail(f"key 'outcome', key 'reason': unknown reason {brief(reason, 40)} (known: {known})")
    scores = value.get("scores")
    if scores is not None:
        scores = _pair("key 'outcome', key 'scores'", scores, _number)
    ending = value.get("ending")
    if ending is not None:
        ending = _text("key 'outcome', key 'ending'", ending)
    try:
        return Outcome(winner, EndReason(reason), scores, ending)
    except ValueError as exc:
        raise _fail(f"key 'outcome': {exc}") from None


def _from_data(data: Mapping[str, Any]) -> PublicView:
    """The view that ``data`` (a dict of the layout of :meth:`PublicView.to_dict`, any version) describes, checked."""
    version = data.get("version")
    if "format" in data and data["format"] != "crapette-view":
        raise _fail(f"key 'format' must be \"crapette-view\", got {brief(data['format'], 40)}")
    if "version" in data and (not isinstance(version, int) or isinstance(version, bool)):
        raise _fail(f"key 'version' must be a whole number, got {_json_type(version)}")
    if "version" in data and version not in _VERSION_KEYS:
        raise _fail(f"unsupported version {brief(version, 20)} (this release reads versions 1 to {VIEW_FORMAT_VERSION})")
    keys = _VERSION_KEYS[version if isinstance(version, int) and version in _VERSION_KEYS else VIEW_FORMAT_VERSION]
    unknown = [k for k in data if k not in keys]
    if unknown:
        known = f"version {version} has no key" if keys is not _KEYS and unknown[0] in _KEYS else "unknown key"
        raise _fail(f"{known} {brief(unknown[0], 40)} (known: {', '.join(keys)})")
    for key in keys:
        if key not in data and key not in _DERIVED:
            raise _fail(f"missing key {key!r}")
    version = int(data["version"])  # one of _VERSION_KEYS: checked above
    try:
        rules = parse_rules(_text("key 'rules'", data["rules"]))
    except ParseError as exc:
        raise _fail(f"key 'rules': {exc}") from None
    except InvalidRulesError as exc:
        raise InvalidRulesError(f"invalid view JSON: key 'rules': {exc}") from None
    # The options of the earlier versions were written otherwise: the rules text says the same.
    if version == VIEW_FORMAT_VERSION and "options" in data and data["options"] != rules_to_dict(rules):
        options = data["options"]
        if not isinstance(options, dict):
            raise _fail(f"key 'options' must be an object, got {_json_type(options)}")
        expected = rules_to_dict(rules)
        wrong = next((k for k in (*expected, *options) if options.get(k, ...) != expected.get(k, ...)), "")
        raise _fail(f"key 'options', option {brief(wrong, 40)}: not what the rules {brief(str(rules), 60)} say")
    player = data["current_player"]
    if type(player) is not int or player not in (0, 1):
        raise _fail(f"key 'current_player' must be 0 or 1, got {brief(player, 20)}")
    tops = _items("key 'reserve_tops'", data["reserve_tops"], 2)
    counters = _items("key 'counters'", data.get("counters", [0] * len(rules.endings)), len(rules.endings))
    outcome = _outcome(data["outcome"], version)
    fields: dict[str, Any] = {
        "rules": rules,
        "current_player": player,
        "move_count": _number("key 'move_count'", data["move_count"]),
        "drawn": _flag("key 'drawn'", data["drawn"]),
        "passes": _number("key 'passes'", data["passes"], 2),
        "exhausted": _pair("key 'exhausted'", data["exhausted"], _flag),
        "played": _pair("key 'played'", data["played"], _flag),
        "counters": tuple(_number(f"key 'counters', item {i}", c) for i, c in enumerate(counters)),
        "foundations": _piles("foundations", data["foundations"], 8),
        "tableau": _piles("tableau", data["tableau"], 8),
        "reserve_tops": tuple(
            None if c is None else _card(f"key 'reserve_tops', item {i}", c) for i, c in enumerate(tops)
        ),
        "reserve_sizes": _pair("key 'reserve_sizes'", data["reserve_sizes"], _reserve_size),
        "hand_sizes": _pair("key 'hand_sizes'", data["hand_sizes"], _hand_size),
        "wastes": _piles("wastes", data["wastes"], 2),
        "outcome": outcome,
        "legal_moves": (),
    }
    if version >= 3:
        known_hands = _items("key 'known_hands'", data["known_hands"], 2)
        fields["known_hands"] = tuple(
            None if h is None else _pile(f"key 'known_hands', item {i}", h) for i, h in enumerate(known_hands)
        )
        fields["known_reserve_cards"] = _piles("known_reserve_cards", data["known_reserve_cards"], 2)
        fields["from_deal"] = _flag("key 'from_deal'", data["from_deal"])
        fields["turn_moves"] = _moves("turn_moves", data["turn_moves"])
    else:
        # Before version 3 a view said nothing of what the game's history made known: nothing is.
        fields["known_hands"] = tuple(None if n else () for n in fields["hand_sizes"])
        fields["known_reserve_cards"] = tuple(() if top is None else (top,) for top in fields["reserve_tops"])
    if "is_over" in data and _flag("key 'is_over'", data["is_over"]) != (outcome is not None):
        raise _fail(f"key 'is_over' is {str(data['is_over']).lower()} but the outcome is {'null' if outcome is None else brief(str(outcome), 60)}")
    # The legal moves of an earlier version were listed by the engine of its release, without the
    # memory version 3 added: read, not compared; those of the position are the view's.
    given = _moves("legal_moves", data["legal_moves"]) if "legal_moves" in data else None
    if version < VIEW_FORMAT_VERSION:
        given = None
    # Every view that a valid state shows is the view of the state its dealer deals.
    world = determinize(PublicView(**fields))
    found = view(world)
    if given is not None and given != found.legal_moves:
        shown = " ".join(str(m) for m in found.legal_moves) or "none"
        raise InvalidStateError(f"the view's legal moves are not those of its position ({brief(shown, 80)})")
    fields["legal_moves"] = found.legal_moves
    result = PublicView(**fields)
    if found != result:
        wrong = next(f.name for f in attrs.fields(PublicView) if getattr(found, f.name) != getattr(result, f.name))
        raise InvalidStateError(f"the view's {wrong!r} is not what the rest of the view shows")
    return result


def _reserve_size(where: str, value: object) -> int:
    return _number(where, value, 104)


def _hand_size(where: str, value: object) -> int:
    return _number(where, value, 104)


# Stepping a view ---------------------------------------------------------------


def view_moves(v: object) -> tuple[Move, ...]:
    """The legal moves of ``v``, a view: :func:`~crapette.legal_moves` given what is not a state.

    :raises TypeError: if ``v`` is not a PublicView.
    """
    if not isinstance(v, PublicView):
        raise not_a_state("legal_moves", v) from None
    return v.legal_moves


def step_view(v: PublicView, move: Move) -> PublicView:
    """The view after ``move``, a legal move that reveals nothing: :func:`~crapette.apply_move` given a view.

    ``apply_move(view(state), move) == view(apply_move(state, move))`` for
    every state and every legal move that turns up no card nobody has seen
    (:func:`~crapette.reveals`): such a move leads to the same view whatever
    the unseen cards are, so a client that holds only views follows a whole
    turn segment, a hint's moves say, up to the move that reveals a card.
    ``apply_move`` given a view calls this function.

    >>> from crapette import apply_move, new_game, parse_move, view
    >>> state = new_game("casual", seed=1)
    >>> v = step_view(view(state), parse_move("T1-T0"))
    >>> v == view(apply_move(state, parse_move("T1-T0"))), [str(m) for m in v.legal_moves]
    (True, ['R0-T1', 'T0-T1', 'T2-T1', 'T3-T1', 'draw'])
    >>> apply_move(v, parse_move("draw"))
    Traceback (most recent call last):
    ...
    crapette.HiddenCardError: draw turns up the top card of player 0's hand, which the view does not show: apply it to the state

    .. versionadded:: 0.4.0

    :raises HiddenCardError: if ``move`` would turn up a card nobody has seen.
    :raises IllegalMoveError: if ``move`` is not legal in ``v``.
    :raises InvalidStateError: if no valid state shows ``v``.
    :raises TypeError: if ``v`` is not a PublicView or ``move`` not a move.
    """
    try:
        return _step(v, move)
    except Exception as exc:
        # apply_move calls this while it handles the AttributeError of a view's missing engine: not the story.
        exc.__suppress_context__ = True
        raise


def _step(v: PublicView, move: Move) -> PublicView:
    if not isinstance(v, PublicView):
        raise TypeError(f"apply_move() expects a GameState or a PublicView, got {type(v).__name__}")
    world = determinize(v)
    if move in v.legal_moves and reveals(world, move):
        player = v.current_player
        if type(move) is Draw:
            what = f"the top card of player {player}'s hand"
        else:
            what = f"the card under the top of player {player}'s reserve"
        raise HiddenCardError(f"{move} turns up {what}, which the view does not show: apply it to the state", move=move)
    return view(_apply_move(world, move))
