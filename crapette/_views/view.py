"""The public view of a state: what either player may see (:ref:`section 12 of the rules <rules-12>`), and the deal of what they cannot see (determinize)."""

from __future__ import annotations

import random
from typing import Any

import attrs

from .. import kernel
from .._core.cards import ALL_CARDS, Card
from .._core.engine import legal_moves as _legal_moves
from .._core.moves import Move
from .._core.rules import LoadTarget, RuleSet
from .._core.state import H0, R0, W0, GameState, Outcome, get_fields, raw_state
from ..errors import InvalidStateError

__all__ = ["Dealer", "PublicView", "VIEW_FORMAT_VERSION", "dealer", "determinize", "rules_to_dict", "view"]

#: The version of the layout :meth:`PublicView.to_dict` writes (its ``"version"`` key).
VIEW_FORMAT_VERSION = 3


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
        :func:`~crapette.parse_move` reads them.

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
