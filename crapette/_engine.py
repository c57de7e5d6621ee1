"""new_game, legal_moves, apply_move: the one place where the rules are enforced.

The rule parts of a :class:`~crapette.RuleSet` are compiled once per (rules,
player) into a plan: building rules become tables of the card keys each top
card accepts, so the hot path (``legal_moves`` and ``apply_move``) looks cards
up in small indexes whatever the building rules are, and builds states
positionally, sharing every unchanged pile with the previous state. It never
validates and never calls attrs.evolve. Only the rules' own endings
(``RuleSet.endings``) call user code on every move, and only where they are used.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

from ._cards import ALL_CARDS, Card, parse_card, shuffled_deck
from ._checks import check_seed
from ._errors import InvalidRulesError, InvalidStateError, ParseError, brief, illegal_move, not_a_state
from ._moves import DRAW, END_TURN, MAX_STACK, PASS, PLAYS, STACKS, Draw, EndTurn, Move, MoveStack, Pass, Play
from ._outcome import MAX_NUMBER, check_number
from ._parts import Build, DownAlternating, accepted_masks
from ._rules import FoundationPlays, LoadTarget, RuleSet, StackLimit, TableauSources, WastePlay, to_rules
from ._state import ALL_PILES, DEALT, F0, FOUND, H0, KNOWN, LEGAL, NUM_PILES, OUTCOME, R0, SEEN, T0, TAB0, TAB1, W0
from ._state import GameState, PileKind, _load_known, _raw_state, _set_counters, _unload_known, game_end

__all__ = ["apply_move", "explain_illegal", "legal_moves", "new_game"]

Piles = tuple[tuple[Card, ...], ...]

#: The exact classes of the moves: anything else is refused before it is looked up.
_MOVE_TYPES = frozenset((Play, MoveStack, Draw, EndTurn, Pass))


# The cards of deck 0 grouped by colour-and-rank key: both suits of a colour at one rank.
_COLOUR_GROUPS = tuple(
    (key, tuple(c for c in ALL_CARDS[:52] if c._colour_rank == key))
    for key in sorted({c._colour_rank for c in ALL_CARDS})
)


@functools.lru_cache(maxsize=64)
def _build_table(build: Build) -> tuple[tuple[int, ...], ...]:
    """For each card (by index) on top of a pile, the keys of the cards that ``build`` lets go onto it.

    A card is looked up by two keys: its suit and rank, and its colour and
    rank. A rule that takes both suits of a colour at some rank is stored as
    one colour key, else as suit keys; so the lookup of a card is the same
    two dictionary gets whatever the building rule.
    """
    table = []
    for mask in accepted_masks(build):
        keys: list[int] = []
        for colour_key, cards in _COLOUR_GROUPS:
            inside = [c for c in cards if mask >> c.index & 1]
            if len(inside) == len(cards):
                keys.append(colour_key)
            else:
                keys.extend(c._suit_rank for c in inside)
        table.append(tuple(keys))
    return tuple(table)


@functools.lru_cache(maxsize=64)
def _load_keys(build: Build) -> tuple[frozenset[int], ...]:
    """For each card (by index) on top of a reserve or waste, the suit-and-rank keys of the cards ``build`` lets be loaded onto it."""
    return tuple(
        frozenset(c._suit_rank for c in ALL_CARDS[:52] if mask >> c.index & 1) for mask in accepted_masks(build)
    )


class _Plan:
    """What the rules mean for one player, precomputed once per (rules, player)."""

    __slots__ = (
        "player",
        "opp_res",
        "res",
        "hand",
        "waste",
        "waste_always",
        "tab_sources",
        "sources",
        "drawn_sources",
        "load_piles",
        "load_keys",
        "compulsory",
        "fill_first",
        "end_turn",
        "stack_moves",
        "stack_unlimited",
        "stalemate",
        "drawn_first",
        "limit",
        "endings",
        "tab_keys",
        "alt_targets",
        "alt_mask",
        "symmetric",
        "self_accepting",
        "revisits",
        "groups",
    )

    def __init__(self, rules: RuleSet, player: int) -> None:
        self.player = player
        self.res = R0 + player
        self.opp_res = R0 + 1 - player
        self.hand = H0 + player
        self.waste = W0 + player
        self.waste_always = rules.waste_play is WastePlay.ALWAYS
        own = range(T0 + 4 * player, T0 + 4 * player + 4)
        if rules.tableau_sources is TableauSources.OWN:
            self.tab_sources: tuple[int, ...] = tuple(own)
        else:
            self.tab_sources = tuple(range(T0, T0 + 8))
        # The source piles in the order of the moves: the reserve, the waste
        # (always, or only while the card drawn this turn lies there), the tableau.
        self.drawn_sources = (self.res, self.waste, *self.tab_sources)
        self.sources = self.drawn_sources if self.waste_always else (self.res, *self.tab_sources)
        # Per tableau pile (0-7): its building rule for this player, compiled.
        builds = [
            rules.own_tableau_build if tid in own else rules.opponent_tableau_build for tid in range(T0, T0 + 8)
        ]
        self.tab_keys = tuple(_build_table(b) for b in builds)
        # Whether some pile's top card accepts a card like itself (never so for the built-in rules).
        self.self_accepting = any(
            card._suit_rank in table[card.index] or card._colour_rank in table[card.index]
            for table in set(self.tab_keys)
            for card in ALL_CARDS
        )
        # Stacks go only onto piles that build down in alternating colours (section 8).
        self.alt_targets = tuple(isinstance(b, DownAlternating) for b in builds)
        self.alt_mask = sum(1 << i for i, alt in enumerate(self.alt_targets) if alt)
        # The tableau index depends on the mover only when the two builds differ.
        self.symmetric = rules.own_tableau_build == rules.opponent_tableau_build
        opponent = 1 - player
        loads = []
        if LoadTarget.RESERVE in rules.load_targets:
            loads.append(R0 + opponent)
        if LoadTarget.WASTE in rules.load_targets:
            loads.append(W0 + opponent)
        self.load_piles = tuple(loads)
        self.load_keys = _load_keys(rules.load_build)
        self.compulsory = rules.foundation_plays is FoundationPlays.COMPULSORY
        self.fill_first = rules.fill_empty_first
        self.end_turn = rules.end_turn
        self.stack_moves = rules.stack_moves
        self.stack_unlimited = rules.stack_limit is StackLimit.UNLIMITED
        # The exhaustion marks are kept only under the stalemate rule.
        self.stalemate = rules.stalemate
        self.drawn_first = rules.drawn_first
        # Without a move limit the bound on every number stands in for one: a
        # game ends at move MAX_NUMBER, so a count never passes what the formats hold.
        self.limit = rules.move_limit if rules.move_limit is not None else MAX_NUMBER
        self.endings = rules.endings
        self.revisits = rules.revisits
        self.groups = tuple(g for g in pile_groups(rules) if g[0] >= T0)


@functools.lru_cache(maxsize=128)
def pile_groups(rules: RuleSet) -> tuple[tuple[int, ...], ...]:
    """The groups of interchangeable piles (by id): the foundations, then tableau piles alike for both players.

    Two tableau piles are alike when each player builds on them by the same
    rule and may (or may not) move from both. Under rules with endings of
    one's own, which may look at any pile, every pile is a group of its own.
    """
    if rules.endings:
        return tuple((i,) for i in range(T0 + 8))
    builds = (rules.own_tableau_build, rules.opponent_tableau_build)

    def role(pile: int, mover: int) -> tuple[Build, bool]:
        mine = pile // 4 == mover
        return (builds[0] if mine else builds[1], mine or rules.tableau_sources is TableauSources.ALL)

    groups: dict[tuple[Any, ...], list[int]] = {}
    for pile in range(8):
        groups.setdefault((role(pile, 0), role(pile, 1)), []).append(T0 + pile)
    return (tuple(range(F0, F0 + 8)), *(tuple(g) for g in groups.values()))


_PLANS: dict[RuleSet, tuple[_Plan, _Plan]] = {}


def _plans(rules: RuleSet) -> tuple[_Plan, _Plan]:
    plans = _PLANS.get(rules)
    if plans is None:
        if len(_PLANS) > 512:
            _PLANS.clear()
        plans = _PLANS[rules] = (_Plan(rules, 0), _Plan(rules, 1))
    return plans


def _deck_order(seed: int, player: int, given: object) -> tuple[Card, ...]:
    """Player ``player``'s deck in dealing order: the cards ``given`` first, then the rest as ``seed`` shuffles them."""
    shuffled = shuffled_deck(seed, player)
    if given is None:
        return shuffled
    if isinstance(given, (str, bytes)):
        given = given.replace(",", " ").split() if isinstance(given, str) else given
    if not isinstance(given, Sequence):
        raise InvalidStateError(f"decks[{player}] must be a sequence of cards, got {type(given).__name__}")
    cards: list[Card] = []
    for item in given:
        if isinstance(item, str):
            try:
                item = parse_card(item)
            except ParseError as exc:
                raise InvalidStateError(f"decks[{player}]: {exc}") from None
        if type(item) is not Card:
            raise InvalidStateError(f"decks[{player}] holds {type(item).__name__}, which is not a card")
        if item.deck != player:
            raise InvalidStateError(f"decks[{player}] holds {item}, a card of player {item.deck}'s deck")
        if item in cards:
            raise InvalidStateError(f"decks[{player}] holds {item} twice")
        cards.append(item)
    chosen = set(cards)
    return tuple(cards) + tuple(c for c in shuffled if c not in chosen)


def new_game(
    rules: RuleSet | str, seed: int = 0, *, decks: tuple[Sequence[Card | str] | str | None, Sequence[Card | str] | str | None] | None = None
) -> GameState:
    """Deal a new game under ``rules`` (a :class:`RuleSet` or a rules text such as ``"classic"``) from ``seed``.

    The seed defaults to 0: without one, every call deals the same game (seed
    0). Pass a seed of your own (``random.randrange(2**64)``) for a fresh deal.
    Wherever the library has default rules (:class:`~crapette.Game`, the
    command line, the learning environments), they are ``"classic"``.

    Each deck is shuffled by :func:`shuffled_deck` (ruling R2: the same seed
    deals the same game in every release). From each shuffled deck, the first
    ``reserve_size`` cards form the reserve (the last of them on top, face up),
    the next 4 go one each to the player's tableau piles (0-3 for player 0,
    4-7 for player 1) and the rest form the hand, the first of them on top.
    The rules' first-player rule then says who moves first (section 3).

    ``decks`` deals a chosen order instead: a pair (player 0's, player 1's),
    each None (shuffled from the seed) or the first cards of that player's
    deck in dealing order (cards, notations, or one string of notations); the
    cards not listed follow in the order the seed shuffles them. The seed
    still feeds a first-player rule that draws at random.

    >>> state = new_game("classic", seed=7)
    >>> state.current_player, len(state.reserves[0]), len(state.hands[1])
    (1, 13, 35)
    >>> clubs = "AC0 2C0 3C0 4C0 5C0 6C0 7C0 8C0 9C0 TC0 JC0 QC0"
    >>> dealt = new_game("classic", decks=(clubs + " AS0", None))
    >>> str(dealt.reserves[0][-1]), dealt.current_player   # the lower reserve top starts
    ('AS0', 0)

    :raises InvalidRulesError: if ``rules`` is a rules text naming impossible rules.
    :raises ParseError: if ``rules`` is a malformed rules text.
    :raises InvalidStateError: if ``decks`` holds something that is not one of that player's cards, or a card twice.
    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    rules = to_rules(rules, "new_game()")
    check_seed(seed)
    if decks is None:
        orders: tuple[tuple[Card, ...], ...] = (shuffled_deck(seed, 0), shuffled_deck(seed, 1))
    else:
        if not isinstance(decks, (tuple, list)) or len(decks) != 2:
            raise InvalidStateError("decks must be a pair (player 0's deck, player 1's deck), each None or cards")
        orders = (_deck_order(seed, 0, decks[0]), _deck_order(seed, 1, decks[1]))
    piles: list[tuple[Card, ...]] = [()] * NUM_PILES
    size = rules.reserve_size
    for player, deck in enumerate(orders):
        piles[R0 + player] = deck[:size]
        for i in range(4):
            piles[T0 + 4 * player + i] = (deck[size + i],)
        piles[H0 + player] = deck[size + 4 :][::-1]
    dealt = tuple(piles)
    deal = _raw_state(rules, dealt, 0, 0, False, 0, (False, False), (False, False), ())
    counters = tuple(_count(e, e.start(deal)) for e in rules.endings)
    first = rules.first_player.who_starts(deal, seed)
    if type(first) is not int or first not in (0, 1):
        raise InvalidRulesError(f"the first-player rule {rules.first_player} returned {brief(first)}, not 0 or 1")
    state = _raw_state(rules, dealt, first, 0, False, 0, (False, False), (False, False), counters, None, None, None, None, DEALT)
    if rules.endings:
        state._engine[OUTCOME] = game_end(state)
    return state


def _count(ending: object, value: object) -> int:
    problem = check_number(f"the count of the ending {ending}", value)
    if problem:
        raise InvalidRulesError(problem)
    return value  # type: ignore[return-value]


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Exactly the legal moves of the player to move, in a fixed order.

    The order: plays to foundations (by source: reserve, waste, tableau piles
    0-7; then by foundation 0-7); other plays (by source in the same order;
    then by target: tableau piles 0-7, the opponent's reserve, the opponent's
    waste); stack moves (by source, then count, then target); Draw; End turn.
    A player with no move has exactly ``(Pass(),)``; a finished game has none.
    With compulsory foundation plays only the moves that section 10 allows are
    listed. The tuple is computed once per state and kept with it.

    >>> from crapette import RuleSet, new_game
    >>> moves = legal_moves(new_game(RuleSet.casual(), seed=1))
    >>> [str(m) for m in moves]
    ['T1-T0', 'draw']

    :raises TypeError: if ``state`` is not a :class:`GameState` (a view lists its own, ``legal_moves``).
    """
    try:
        cache = state._engine
    except AttributeError:
        raise not_a_state("legal_moves", state) from None
    legal = cache[LEGAL]
    if legal is None:
        legal = cache[LEGAL] = _generate(state, cache)
    return legal  # type: ignore[no-any-return]


def _ids(base: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(base + i for i in range(8) if mask >> i & 1) for mask in range(256))


# _FOUNDATIONS[mask] and _TABLEAU[mask]: the pile ids of the bits set in an 8-bit
# mask, in pile order. The indexes map a card key to such a mask, so merging
# targets is an OR and small ints cost no memory.
_FOUNDATIONS = _ids(0)
_TABLEAU = _ids(T0)
_ACE_KEYS = tuple(c._suit_rank for c in ALL_CARDS[:52] if c.rank == 1)


def _foundation_index(piles: Piles) -> dict[int, int]:
    """Suit-and-rank key -> mask of the foundations that take that card next."""
    need: dict[int, int] = {}
    for fid in range(8):
        pile = piles[fid]
        for key in (pile[-1]._suit_rank + 1,) if pile else _ACE_KEYS:
            need[key] = need.get(key, 0) | 1 << fid
    return need


def _tableau_index(piles: Piles, plan: _Plan) -> tuple[dict[int, int], int]:
    """Card key -> mask of the tableau piles that take it (for the plan's player), and the empty piles' mask."""
    accept: dict[int, int] = {}
    empty = 0
    tables = plan.tab_keys
    for i in range(8):
        pile = piles[T0 + i]
        if not pile:
            empty |= 1 << i
        else:
            for key in tables[i][pile[-1].index]:
                accept[key] = accept.get(key, 0) | 1 << i
    return accept, empty


def _tableau(state: GameState, plan: _Plan, cache: list[Any]) -> tuple[dict[int, int], int]:
    """The tableau index of ``state`` for the plan's player, kept in the state's engine list."""
    slot = TAB0 + plan.player
    index = cache[slot]
    if index is None:
        index = cache[slot] = _tableau_index(state.piles, plan)
        if plan.symmetric:
            cache[TAB0 + 1 - plan.player] = index
    return index  # type: ignore[no-any-return]


def _refound(need: dict[int, int], fid: int, below: tuple[Card, ...], card: Card) -> dict[int, int]:
    """The foundation index after ``card`` is played onto foundation ``fid`` (which held ``below``).

    A new dict: an index, once made, is never changed, so states may share it.
    """
    need = need.copy()
    bit = 1 << fid
    for key in (below[-1]._suit_rank + 1,) if below else _ACE_KEYS:
        need[key] &= ~bit
    key = card._suit_rank + 1
    need[key] = need.get(key, 0) | bit
    return need


def _retableau(
    index: tuple[dict[int, int], int], plan: _Plan, old: Piles, new: Piles, tids: tuple[int, ...]
) -> tuple[dict[int, int], int]:
    """The tableau index after the tableau piles ``tids`` changed from ``old`` to ``new`` (a new dict).

    Entries may drop to a zero mask; lookups treat zero as absent.
    """
    accept, empty = index
    accept = accept.copy()
    tables = plan.tab_keys
    for tid in tids:
        i = tid - T0
        bit = 1 << i
        table = tables[i]
        pile = old[tid]
        if not pile:
            empty &= ~bit
        else:
            for key in table[pile[-1].index]:
                accept[key] &= ~bit
        pile = new[tid]
        if not pile:
            empty |= bit
        else:
            for key in table[pile[-1].index]:
                accept[key] = accept.get(key, 0) | bit
    return accept, empty


def _next_tableau(
    cache: list[Any], plan: _Plan, old: Piles, new: Piles, tids: tuple[int, ...]
) -> tuple[Any, Any]:
    """The tableau indexes of the next state: the mover's updated, the other's dropped (or the same, if symmetric)."""
    index = cache[TAB0 + plan.player]
    if index is None:
        return None, None
    index = _retableau(index, plan, old, new, tids)
    if plan.symmetric:
        return index, index
    return (index, None) if plan.player == 0 else (None, index)


def _generate(state: GameState, cache: list[Any]) -> tuple[Move, ...]:
    if cache[OUTCOME] is not None:
        return ()
    piles = state.piles
    rules = state.rules
    plan = (_PLANS.get(rules) or _plans(rules))[state.current_player]
    drawn = state.drawn
    restricted = plan.drawn_first and drawn
    # The piles whose top card the player may move, in the order of the moves.
    sources = plan.drawn_sources if drawn else plan.sources
    if restricted:
        # The drawn card must be dealt with before any other move.
        sources = (plan.waste,)
    need = cache[FOUND]
    if need is None:
        need = cache[FOUND] = _foundation_index(piles)
    accept, empty = cache[TAB0 + plan.player] or _tableau(state, plan, cache)
    loads = []
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile:
            loads.append((lid, plan.load_keys[pile[-1].index]))
    get = accept.get
    # A pile never takes its own top card back (only a rule of one's own may accept it).
    self_accepting = plan.self_accepting
    home: list[Move] = []
    moves: list[Move] = []
    for sid in sources:
        pile = piles[sid]
        if not pile:
            continue
        card = pile[-1]
        row = PLAYS[sid]
        key = card._suit_rank
        mask = need.get(key)
        if mask:
            for fid in _FOUNDATIONS[mask]:
                home.append(row[fid])  # type: ignore[arg-type]
        mask = get(card._colour_rank, 0) | get(key, 0) | empty
        if mask:
            if self_accepting and T0 <= sid < R0:
                mask &= ~(1 << (sid - T0))
            for tid in _TABLEAU[mask]:
                moves.append(row[tid])  # type: ignore[arg-type]
        for lid, takes in loads:
            if key in takes:
                moves.append(row[lid])  # type: ignore[arg-type]
    if home:
        if plan.compulsory:
            # Section 10: the reserve's plays to the foundations first, else every available card's.
            res = plan.res
            if home[0].source.id == res:  # type: ignore[attr-defined]
                return tuple([m for m in home if m.source.id == res])  # type: ignore[attr-defined]
            return tuple(home)
        moves = home + moves

    if plan.stack_moves and not restricted and (empty or plan.stack_unlimited):
        _stack_moves(piles, plan, accept, empty, moves)

    # Draw and End turn (exclusive: End turn needs a drawn card on the waste, R7 forbids Draw then).
    if not (plan.fill_first and empty and piles[plan.res]):
        if drawn:
            if plan.end_turn:
                moves.append(END_TURN)
        elif piles[plan.hand] or piles[plan.waste]:
            moves.append(DRAW)
    if not plan.revisits:
        moves = _unvisited(state, plan, moves)
    if not moves:
        return (PASS,)
    return tuple(moves)


def _after_tableau(piles: Piles, move: Move) -> list[tuple[Card, ...]]:
    """The tableau after a move between two tableau piles."""
    k = move.count if type(move) is MoveStack else 1
    source = move.source.id  # type: ignore[attr-defined]
    target = move.target.id  # type: ignore[attr-defined]
    tableau = list(piles[T0:R0])
    cards = tableau[source - T0]
    tableau[target - T0] = tableau[target - T0] + cards[-k:]
    tableau[source - T0] = cards[:-k]
    return tableau


def _shape(plan: _Plan, tableau: Sequence[tuple[Card, ...]]) -> tuple[frozenset[tuple[Card, ...]], ...]:
    """A tableau with the order of interchangeable piles forgotten."""
    return tuple(frozenset(tableau[i - T0] for i in group if tableau[i - T0]) for group in plan.groups)


def _shuttles(move: Move) -> bool:
    """True for a move between two tableau piles: the only kind that can recreate a position in a turn."""
    cls = type(move)
    if cls is MoveStack:
        return True
    return cls is Play and T0 <= move.target.id < R0 and T0 <= move.source.id < R0  # type: ignore[attr-defined]


def _revisit(state: GameState, plan: _Plan, move: Move, current: Any) -> bool:
    """True if ``move`` (between two tableau piles) recreates a position reached since the last other move."""
    # Only moves between tableau piles can recreate a position (any other changes it for
    # good), one reached since the last other move: SEEN holds those tableaux' shapes.
    shape = _shape(plan, _after_tableau(state.piles, move))
    seen = state._engine[SEEN]
    return shape == current or (seen is not None and shape in seen)


def _unvisited(state: GameState, plan: _Plan, moves: list[Move]) -> list[Move]:
    if not any(_shuttles(m) for m in moves):
        return moves
    current = _shape(plan, state.piles[T0:R0])
    return [m for m in moves if not (_shuttles(m) and _revisit(state, plan, m, current))]


_STACK = tuple(
    tuple(tuple(STACKS.get((s, t, k)) for k in range(MAX_STACK + 1)) for t in range(8))
    for s in range(8)
)
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(256))


def _stack_moves(
    piles: Piles, plan: _Plan, accept: dict[int, int], empty: int, moves: list[Move]
) -> None:
    if plan.stack_unlimited:
        onto_card = onto_empty = MAX_STACK
    else:
        # R5: k <= 2**e, e = empty tableau piles other than the target.
        e = _POPCOUNT[empty]
        onto_card = 1 << e
        onto_empty = 1 << (e - 1) if e else 0
    alt = plan.alt_mask
    empty &= alt
    for sid in plan.tab_sources:
        pile = piles[sid]
        n = len(pile)
        if n < 2 or pile[-1]._colour_rank != pile[-2]._alt_accepts:
            continue
        table = _STACK[sid - T0]
        limit = n if n < onto_card else onto_card
        k = 2
        while k <= limit:
            key = pile[-k]._colour_rank
            # A stack goes only onto a pile that builds down in alternating colours.
            mask = accept.get(key, 0) & alt
            if k <= onto_empty:
                mask |= empty
            for tid in _TABLEAU[mask]:
                moves.append(table[tid - T0][k])  # type: ignore[arg-type]
            if k == n or pile[-k - 1]._alt_accepts != key:
                break
            k += 1


def _has_target(state: GameState, cache: list[Any], plan: _Plan, card: Card) -> bool:
    """Whether ``card`` can be played anywhere under the building rules (compulsion aside).

    Uses the indexes in ``cache``, whose foundations and tableau equal those of ``state``.
    """
    key = card._suit_rank
    if cache[FOUND].get(key):
        return True
    accept, empty = _tableau(state, plan, cache)
    if empty or accept.get(card._colour_rank) or accept.get(key):
        return True
    piles = state.piles
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile and key in plan.load_keys[pile[-1].index]:
            return True
    return False


def apply_move(state: GameState, move: Move) -> GameState:
    """The state after ``move``; ``state`` itself is never changed.

    >>> from crapette import RuleSet, new_game, parse_move
    >>> state = new_game(RuleSet.casual(), seed=1)
    >>> after = apply_move(state, parse_move("T1-T0"))
    >>> [len(p) for p in state.tableau[:2]], [len(p) for p in after.tableau[:2]]
    ([1, 1], [2, 0])
    >>> apply_move(state, parse_move("R1-T4"))
    Traceback (most recent call last):
    ...
    crapette.IllegalMoveError: illegal move R1-T4: R1 is player 1's reserve and player 0 is to move

    :raises IllegalMoveError: if the move is not in :func:`legal_moves`; the message says why.
    :raises TypeError: if ``state`` is not a :class:`GameState` or ``move`` is not
        one of the five move classes (subclasses included: they are refused too).
    """
    try:
        cache = state._engine
    except AttributeError:
        raise TypeError(f"apply_move() expects a GameState, got {type(state).__name__}") from None
    legal = cache[LEGAL]
    if legal is None:
        legal = cache[LEGAL] = _generate(state, cache)
    if move not in legal:
        if type(move) not in _MOVE_TYPES:
            raise _not_a_move("apply_move", move)
        raise illegal_move(move, explain_illegal(state, move))
    # The legal moves are interned, so a true move found among them has one of
    # their exact classes; the last branch below refuses anything else (an
    # object whose __eq__ says it equals a legal move).
    cls = type(move)
    rules = state.rules
    piles = state.piles
    player = state.current_player
    plan = (_PLANS.get(rules) or _plans(rules))[player]
    drawn = state.drawn
    exhausted = state.exhausted
    played = state.played
    found = cache[FOUND]
    tab0 = cache[TAB0]
    tab1 = cache[TAB1]
    known = cache[KNOWN]
    passes = 0
    count = state.move_count + 1
    ends = count >= plan.limit
    if cls is Play:
        source = move.source.id  # type: ignore[attr-defined]
        target = move.target.id  # type: ignore[attr-defined]
        new = list(piles)
        cards = new[source]
        new[target] = new[target] + cards[-1:]
        new[source] = cards[:-1]
        old = piles
        piles = tuple(new)
        if target < T0:
            found = _refound(found, target, old[target], cards[-1])
            if T0 <= source < R0:
                tab0, tab1 = _next_tableau(cache, plan, old, piles, (source,))
        elif T0 <= target < R0:
            tab0, tab1 = _next_tableau(cache, plan, old, piles, (source, target) if source < R0 else (target,))
        elif T0 <= source < R0:
            tab0, tab1 = _next_tableau(cache, plan, old, piles, (source,))
        if target == plan.opp_res:  # a card loaded onto a reserve stays known there
            known = _load_known(state, known, target)
        if source == plan.res or source == plan.waste:
            if source == plan.waste:
                drawn = False
            elif known[source - R0 + 2] > 1:
                known = _unload_known(known, source)
            if plan.stalemate:
                if not played[player]:
                    played = (True, played[1]) if player == 0 else (played[0], True)
                if exhausted[player]:
                    exhausted = (False, exhausted[1]) if player == 0 else (exhausted[0], False)
            if not (piles[plan.res] or piles[plan.hand] or piles[plan.waste]):
                ends = True
    elif cls is MoveStack:
        source = move.source.id  # type: ignore[attr-defined]
        target = move.target.id  # type: ignore[attr-defined]
        k = move.count  # type: ignore[attr-defined]
        new = list(piles)
        cards = new[source]
        new[target] = new[target] + cards[-k:]
        new[source] = cards[:-k]
        old = piles
        piles = tuple(new)
        tab0, tab1 = _next_tableau(cache, plan, old, piles, (source, target))
    elif cls is Draw:
        hand = piles[plan.hand]
        waste = piles[plan.waste]
        turnover = not hand
        if turnover:
            # R4: the waste is turned over, unshuffled, to form the new hand.
            hand = waste[::-1]
            waste = ()
            if not known[player]:  # the waste was public: the hand it forms is known, in order
                known = (True, known[1], *known[2:]) if player == 0 else (known[0], True, *known[2:])
            if plan.stalemate:
                exhausted, played = _mark(player, exhausted, played)
                ends = ends or (exhausted[0] and exhausted[1])
        new = list(piles)
        new[plan.hand] = hand[:-1]
        new[plan.waste] = waste + hand[-1:]
        piles = tuple(new)
        if _has_target(state, cache, plan, hand[-1]):
            drawn = True
        else:
            drawn = False
            player = 1 - player
    elif cls is EndTurn or cls is Pass:
        drawn = False
        player = 1 - player
        # A pass made while this turn's drawn card lies on the waste is not a
        # stuck pass: the player may draw again next turn (ruling R6).
        if cls is Pass and not state.drawn:
            passes = state.passes + 1
            ends = ends or passes >= 2
            if plan.stalemate and not (piles[plan.hand] or piles[plan.waste]):
                # R8: with no hand left to go through, the pass counts as the turnover.
                exhausted, played = _mark(1 - player, exhausted, played)
                ends = ends or (exhausted[0] and exhausted[1])
    else:
        raise _not_a_move("apply_move", move)
    after = _raw_state(rules, piles, player, count, drawn, passes, exhausted, played, state.counters, None, found, tab0, tab1, known)
    if not plan.revisits and _shuttles(move):
        seen = cache[SEEN]
        here = frozenset((_shape(plan, state.piles[T0:R0]),))
        after._engine[SEEN] = here if seen is None else seen | here
    if plan.endings:
        _set_counters(
            after,
            tuple(
                _count(e, e.update(c, state, move, after)) for e, c in zip(plan.endings, state.counters)
            ),
        )
        # The hooks may have looked at the state's moves before its outcome was known.
        after._engine[LEGAL] = None
        ends = True
    if ends:
        after._engine[OUTCOME] = game_end(after)
    return after


def _not_a_move(caller: str, move: object) -> TypeError:
    return TypeError(
        f"{caller}() expects a Play, MoveStack, Draw, EndTurn or Pass, got {type(move).__name__} "
        "(subclasses are refused too; use parse_move to read text)"
    )


def _mark(
    player: int, exhausted: tuple[bool, bool], played: tuple[bool, bool]
) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """The stalemate marks after ``player`` goes through the hand: exhausted if nothing was played since the last time."""
    mark = not played[player]
    if player == 0:
        return (mark, exhausted[1]), (False, played[1])
    return (exhausted[0], mark), (played[0], False)


# Why a move is illegal (the slow path of apply_move) --------------------------


def explain_illegal(state: GameState, move: Move) -> str:
    """Why ``move`` is not legal in ``state``, in words (empty string if it is legal).

    The reasons come from the same rule parts the move generator compiles, so
    a move is explained as illegal exactly when :func:`legal_moves` leaves it out.

    >>> from crapette import RuleSet, new_game, parse_move
    >>> explain_illegal(new_game(RuleSet.casual(), seed=1), parse_move("end"))
    'these rules have no End turn: a turn ends by an unplayable draw or a pass'

    :raises TypeError: if ``move`` is not one of the five move classes.
    """
    if type(move) not in _MOVE_TYPES:
        raise _not_a_move("explain_illegal", move)
    legal = legal_moves(state)
    if move in legal:
        return ""
    if state.outcome is not None:
        return f"the game is over ({state.outcome})"
    reason = _rule_broken(state, move)
    if reason:
        return reason
    if not state.rules.revisits and _shuttles(move):
        plan = _plans(state.rules)[state.current_player]
        if _revisit(state, plan, move, _shape(plan, state.piles[T0:R0])):
            return "it would recreate a position already reached in this turn, which these rules forbid (revisits=false)"
    # The move obeys the building rules: what forbids it is precedence.
    listed = " ".join(str(m) for m in legal[:6]) + (" ..." if len(legal) > 6 else "")
    if legal and isinstance(legal[0], Play) and legal[0].target.kind is PileKind.FOUNDATION:
        return f"foundation plays are compulsory and come first (section 10 of the rules): {listed}"
    if isinstance(move, (Draw, EndTurn)):
        return (
            "while the reserve is not empty, the empty tableau piles must be filled "
            "before drawing or ending the turn (fill_empty_first)"
        )
    return f"not legal in this position; the legal moves are {listed}"


def _rule_broken(state: GameState, move: Move) -> str:
    rules = state.rules
    piles = state.piles
    p = state.current_player
    plan = _plans(rules)[p]
    if isinstance(move, Pass):
        legal = legal_moves(state)
        return f"Pass is legal only with no other move, and player {p} has {len(legal)}, e.g. {legal[0]}"
    if isinstance(move, Draw):
        if state.drawn:
            return f"the drawn card {piles[plan.waste][-1]} must be played before drawing again (R7)"
        if not (piles[plan.hand] or piles[plan.waste]):
            return f"player {p}'s hand and waste are both empty"
        return ""
    if isinstance(move, EndTurn):
        if not rules.end_turn:
            return "these rules have no End turn: a turn ends by an unplayable draw or a pass"
        if not state.drawn:
            return "End turn is legal only while the card drawn this turn lies on the waste"
        return ""
    assert isinstance(move, (Play, MoveStack))
    source, target = move.source, move.target
    problem = _source_problem(state, plan, source)
    if problem:
        return problem
    cards = piles[source.id]
    if isinstance(move, MoveStack):
        return _stack_problem(state, plan, move)
    card = cards[-1]
    dest = piles[target.id]
    top = dest[-1] if dest else None
    if target.kind in (PileKind.RESERVE, PileKind.WASTE):
        what = target.kind.name.lower()
        if target.index == p:
            return f"a card never goes onto the player's own {what} (its own waste only by Draw)"
        if target.id not in plan.load_piles:
            return f"these rules do not allow loading onto the opponent's {what}"
        if top is None:
            return f"{target} is empty and an empty pile cannot be loaded (R3)"
        if not rules.load_build.accepts(top, card):
            return f"{card} cannot be loaded onto {top}: loading builds {rules.load_build.described}"
        return ""
    if target.kind is PileKind.FOUNDATION:
        if top is None:
            return "" if card.rank == 1 else f"an empty foundation takes only an Ace, not {card}"
        if top._suit_rank + 1 != card._suit_rank:
            return f"{card} does not go on {top}: a foundation builds up in suit from Ace to King"
        return ""
    build = rules.own_tableau_build if target.owner == p else rules.opponent_tableau_build
    if top is not None and not build.accepts(top, card):
        return f"{card} does not go on {top}: {target} builds {build.described} for player {p}"
    return ""


def _source_problem(state: GameState, plan: _Plan, source: object) -> str:
    p = state.current_player
    pile = ALL_PILES[source.id]  # type: ignore[attr-defined]
    if pile.kind in (PileKind.RESERVE, PileKind.WASTE) and pile.index != p:
        return f"{pile} is player {pile.index}'s {pile.kind.name.lower()} and player {p} is to move"
    if not state.piles[pile.id]:
        return f"{pile} is empty"
    if plan.drawn_first and state.drawn and pile.id != plan.waste:
        return (
            f"the drawn card {state.piles[plan.waste][-1]} must be dealt with (played"
            + (" or declined with End turn" if plan.end_turn else "")
            + ") before any other move (drawn_first)"
        )
    if pile.kind is PileKind.WASTE and not (plan.waste_always or state.drawn):
        return "only the card drawn this turn may be played from the waste (waste_play='drawn')"
    if pile.kind is PileKind.TABLEAU and pile.id not in plan.tab_sources:
        return f"{pile} is the opponent's tableau pile and these rules let a player move only their own (tableau_sources='own')"
    return ""


def _stack_problem(state: GameState, plan: _Plan, move: MoveStack) -> str:
    if not state.rules.stack_moves:
        return "stack moves are not part of these rules: only top cards move"
    piles = state.piles
    cards = piles[move.source.id]
    k = move.count
    if k > len(cards):
        return f"{move.source} has only {len(cards)} card(s)"
    run = Build.DOWN_ALTERNATING
    for i in range(1, k):
        if not run.accepts(cards[-i - 1], cards[-i]):
            return f"the top {k} cards of {move.source} are not a run down in alternating colours"
    if not plan.alt_targets[move.target.index]:
        return f"a stack moves only onto a pile that builds down in alternating colours, and {move.target} does not for player {state.current_player}"
    dest = piles[move.target.id]
    bottom = cards[-k]
    if dest and not run.accepts(dest[-1], bottom):
        return f"{bottom} does not go on {dest[-1]}: {move.target} builds down in alternating colours"
    if plan.stack_unlimited:
        return ""
    empties = sum(1 for t in range(T0, T0 + 8) if not piles[t] and t != move.target.id)
    if k > 1 << empties:
        return (
            f"moving {k} cards needs enough empty tableau piles besides the target (R5: "
            f"at most 2**e cards with e empty piles); there are {empties}"
        )
    return ""
