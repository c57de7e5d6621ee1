"""new_game, legal_moves, apply_move: the one place where the rules are enforced.

The hot path (``legal_moves`` and ``apply_move``) works on the precomputed keys
of the interned cards and builds states positionally, sharing every unchanged
pile with the previous state; it never validates and never calls attrs.evolve.
"""

from __future__ import annotations

from typing import Any

from ._cards import Card, check_seed, shuffled_deck
from ._errors import IllegalMoveError
from ._moves import DRAW, END_TURN, MAX_STACK, PASS, PLAYS, STACKS, Draw, EndTurn, Move, MoveStack, Pass, Play
from ._rules import Build, FirstPlayer, FoundationPlays, LoadTarget, RuleSet, TableauSources, WastePlay
from ._state import (
    ALL_PILES,
    EndReason,
    GameState,
    Outcome,
    PileKind,
    settle,
)
from ._state import emptied as _win  # shared with GameState's own outcome

__all__ = ["apply_move", "explain_illegal", "legal_moves", "new_game"]

Piles = tuple[tuple[Card, ...], ...]


class _Plan:
    """What the rules mean for one player, precomputed once per (rules, player)."""

    __slots__ = (
        "player",
        "res",
        "hand",
        "waste",
        "waste_always",
        "tab_sources",
        "load_piles",
        "compulsory",
        "fill_first",
        "end_turn",
        "stack_moves",
        "stalemate",
        "alt_targets",
        "alt_mask",
        "symmetric",
    )

    def __init__(self, rules: RuleSet, player: int) -> None:
        self.player = player
        self.res = 16 + player
        self.hand = 18 + player
        self.waste = 20 + player
        self.waste_always = rules.waste_play is WastePlay.ALWAYS
        own = range(8 + 4 * player, 12 + 4 * player)
        if rules.tableau_sources is TableauSources.OWN:
            self.tab_sources: tuple[int, ...] = tuple(own)
        else:
            self.tab_sources = tuple(range(8, 16))
        # Per tableau pile (0-7): does it build down in alternating colours for this player?
        self.alt_targets = tuple(
            (rules.own_tableau_build if tid in own else rules.opponent_tableau_build)
            is Build.DOWN_ALTERNATING
            for tid in range(8, 16)
        )
        self.alt_mask = sum(1 << i for i, alt in enumerate(self.alt_targets) if alt)
        # The tableau index depends on the mover only when the two builds differ.
        self.symmetric = rules.own_tableau_build is rules.opponent_tableau_build
        opponent = 1 - player
        loads = []
        if LoadTarget.RESERVE in rules.load_targets:
            loads.append(16 + opponent)
        if LoadTarget.WASTE in rules.load_targets:
            loads.append(20 + opponent)
        self.load_piles = tuple(loads)
        self.compulsory = rules.foundation_plays is FoundationPlays.COMPULSORY
        self.fill_first = rules.fill_empty_first
        self.end_turn = rules.end_turn
        self.stack_moves = rules.stack_moves
        # The exhaustion marks are kept only under the stalemate rule.
        self.stalemate = rules.stalemate


_PLANS: dict[RuleSet, tuple[_Plan, _Plan]] = {}


def _plans(rules: RuleSet) -> tuple[_Plan, _Plan]:
    plans = _PLANS.get(rules)
    if plans is None:
        if len(_PLANS) > 512:
            _PLANS.clear()
        plans = _PLANS[rules] = (_Plan(rules, 0), _Plan(rules, 1))
    return plans


_new = object.__new__
_slot = GameState.__dict__
(
    _set_rules,
    _set_piles,
    _set_player,
    _set_count,
    _set_drawn,
    _set_passes,
    _set_exhausted,
    _set_played,
    _set_outcome,
    _set_legal,
    _set_hash,
    _set_found,
    _set_tabx,
) = (
    _slot[name].__set__
    for name in (
        "rules",
        "piles",
        "current_player",
        "move_count",
        "drawn",
        "passes",
        "exhausted",
        "played",
        "_outcome",
        "_legal",
        "_hash",
        "_found",
        "_tabx",
    )
)


def _make(
    rules: RuleSet,
    piles: Piles,
    player: int,
    count: int,
    drawn: bool,
    passes: int,
    exhausted: tuple[bool, bool],
    played: tuple[bool, bool],
    outcome: Outcome | None,
    found: Any = None,
    tabx: Any = None,
) -> GameState:
    # Positional construction of an already-valid state: no validation, no evolve.
    state = _new(GameState)
    _set_rules(state, rules)
    _set_piles(state, piles)
    _set_player(state, player)
    _set_count(state, count)
    _set_drawn(state, drawn)
    _set_passes(state, passes)
    _set_exhausted(state, exhausted)
    _set_played(state, played)
    _set_outcome(state, outcome)
    _set_legal(state, None)
    _set_hash(state, None)
    _set_found(state, found)
    _set_tabx(state, tabx)
    return state


def _both_decks(seed: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    return shuffled_deck(seed, 0), shuffled_deck(seed, 1)


def new_game(rules: RuleSet | str, seed: int = 0) -> GameState:
    """Deal a new game under ``rules`` (a :class:`RuleSet` or a preset name) from ``seed``.

    Each deck is shuffled by :func:`shuffled_deck` (ruling R2: the same seed
    deals the same game in every release). From each shuffled deck, the first
    ``reserve_size`` cards form the reserve (the last of them on top, face up),
    the next 4 go one each to the player's tableau piles (0-3 for player 0,
    4-7 for player 1) and the rest form the hand, the first of them on top.
    The first player follows ``rules.first_player`` (RULES.md section 3).

    >>> state = new_game("classic", seed=7)
    >>> state.current_player, len(state.reserves[0]), len(state.hands[1])
    (1, 13, 35)

    :raises InvalidRulesError: if ``rules`` is a string that names no preset.
    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    if isinstance(rules, str):
        rules = RuleSet.from_name(rules)
    if not isinstance(rules, RuleSet):
        raise TypeError(f"rules must be a RuleSet or a preset name, got {type(rules).__name__}")
    check_seed(seed)
    piles: list[tuple[Card, ...]] = [()] * 22
    size = rules.reserve_size
    for player, deck in enumerate(_both_decks(seed)):
        piles[16 + player] = deck[:size]
        for i in range(4):
            piles[8 + 4 * player + i] = (deck[size + i],)
        piles[18 + player] = deck[size + 4 :][::-1]
    first = _first_player(rules, piles)
    return _make(rules, tuple(piles), first, 0, False, 0, (False, False), (False, False), None)


def _first_player(rules: RuleSet, piles: list[tuple[Card, ...]]) -> int:
    if rules.first_player is FirstPlayer.PLAYER_0:
        return 0
    if rules.first_player is FirstPlayer.PLAYER_1:
        return 1
    pairs = [(piles[16][-1], piles[17][-1])]
    pairs += [(piles[8 + i][0], piles[12 + i][0]) for i in range(4)]
    for a, b in pairs:
        if a.rank != b.rank:
            return 0 if a.rank < b.rank else 1
    return 0


def legal_moves(state: GameState) -> tuple[Move, ...]:
    """Exactly the legal moves of the player to move, in a fixed order.

    The order: plays to foundations (by source: reserve, waste, tableau piles
    0-7; then by foundation 0-7); other plays (by source in the same order;
    then by target: tableau piles 0-7, the opponent's reserve, the opponent's
    waste); stack moves (by source, then count, then target); Draw; End turn.
    A player with no move has exactly ``(Pass(),)``; a finished game has none.
    With compulsory foundation plays only the moves that section 10 allows are
    listed. The tuple is computed once per state and cached on it.

    >>> from crapette import RuleSet, new_game
    >>> moves = legal_moves(new_game(RuleSet.casual(), seed=1))
    >>> [str(m) for m in moves]
    ['T1-T0', 'draw']

    :raises TypeError: if ``state`` is not a :class:`GameState`.
    """
    try:
        legal = state._legal
    except AttributeError:
        raise TypeError(f"legal_moves() expects a GameState, got {type(state).__name__}") from None
    if legal is None:
        legal = _generate(state)
        _set_legal(state, legal)
    return legal


def _ids(base: int) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(base + i for i in range(8) if mask >> i & 1) for mask in range(256))


# _FOUNDATIONS[mask] and _TABLEAU[mask]: the pile ids of the bits set in an 8-bit
# mask, in pile order. The indexes map a card key to such a mask, so merging
# targets is an OR and small ints cost no memory.
_FOUNDATIONS = _ids(0)
_TABLEAU = _ids(8)
_ACE_KEYS = tuple(suit * 16 + 1 for suit in range(4))


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
    for i, alt in enumerate(plan.alt_targets):
        pile = piles[8 + i]
        if not pile:
            empty |= 1 << i
        elif alt:
            key = pile[-1]._alt_accepts
            accept[key] = accept.get(key, 0) | 1 << i
        else:
            key = pile[-1]._suit_rank
            accept[key - 1] = accept.get(key - 1, 0) | 1 << i
            accept[key + 1] = accept.get(key + 1, 0) | 1 << i
    return accept, empty


def _tableau(state: GameState, plan: _Plan) -> tuple[dict[int, int], int]:
    """The tableau index of ``state`` for the plan's player, cached on the state.

    The cache is a pair (one per player) shared by every state with the same
    tableau, and filled on demand; with symmetric builds both entries are the same.
    """
    pair = state._tabx
    if pair is None:
        pair = [None, None]
        _set_tabx(state, pair)
    index = pair[plan.player]
    if index is None:
        index = _tableau_index(state.piles, plan)
        pair[plan.player] = index
        if plan.symmetric:
            pair[1 - plan.player] = index
    return index  # type: ignore[no-any-return]


def _refound(need: dict[int, int], fid: int, below: tuple[Card, ...], card: Card) -> dict[int, int]:
    """The foundation index after ``card`` is played onto foundation ``fid`` (which held ``below``)."""
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
    """The tableau index after the tableau piles ``tids`` changed from ``old`` to ``new``.

    Entries may drop to a zero mask; lookups treat zero as absent.
    """
    accept, empty = index
    accept = accept.copy()
    alt = plan.alt_targets
    for tid in tids:
        i = tid - 8
        bit = 1 << i
        pile = old[tid]
        if not pile:
            empty &= ~bit
        elif alt[i]:
            accept[pile[-1]._alt_accepts] &= ~bit
        else:
            key = pile[-1]._suit_rank
            accept[key - 1] &= ~bit
            accept[key + 1] &= ~bit
        pile = new[tid]
        if not pile:
            empty |= bit
        elif alt[i]:
            key = pile[-1]._alt_accepts
            accept[key] = accept.get(key, 0) | bit
        else:
            key = pile[-1]._suit_rank
            accept[key - 1] = accept.get(key - 1, 0) | bit
            accept[key + 1] = accept.get(key + 1, 0) | bit
    return accept, empty


def _next_tableau(
    pair: list[Any] | None, plan: _Plan, old: Piles, new: Piles, tids: tuple[int, ...]
) -> list[Any] | None:
    """The tableau cache of the next state: the mover's index updated, the other dropped."""
    if pair is None or pair[plan.player] is None:
        return None
    index = _retableau(pair[plan.player], plan, old, new, tids)
    if plan.symmetric:
        return [index, index]
    return [index, None] if plan.player == 0 else [None, index]


def _generate(state: GameState) -> tuple[Move, ...]:
    if state._outcome is not None:
        return ()
    piles = state.piles
    plan = _plans(state.rules)[state.current_player]
    res = plan.res
    wst = plan.waste
    srcs: list[tuple[int, Card]] = []
    pile = piles[res]
    if pile:
        srcs.append((res, pile[-1]))
    pile = piles[wst]
    if pile and (plan.waste_always or state.drawn):
        srcs.append((wst, pile[-1]))
    for sid in plan.tab_sources:
        pile = piles[sid]
        if pile:
            srcs.append((sid, pile[-1]))

    need = state._found
    if need is None:
        need = _foundation_index(piles)
        _set_found(state, need)
    moves: list[Move] = []
    for sid, card in srcs:
        mask = need.get(card._suit_rank)
        if mask:
            row = PLAYS[sid]
            for fid in _FOUNDATIONS[mask]:
                moves.append(row[fid])  # type: ignore[arg-type]
    if moves and plan.compulsory:
        if srcs[0][0] == res and moves[0].source.id == res:  # type: ignore[attr-defined]
            return tuple(m for m in moves if m.source.id == res)  # type: ignore[attr-defined]
        return tuple(moves)

    accept, empty = _tableau(state, plan)
    loads = []
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile:
            key = pile[-1]._suit_rank
            loads.append((lid, key - 1, key + 1))
    get = accept.get
    for sid, card in srcs:
        key = card._suit_rank
        mask = get(card._colour_rank, 0) | get(key, 0) | empty
        row = PLAYS[sid]
        if mask:
            for tid in _TABLEAU[mask]:
                moves.append(row[tid])  # type: ignore[arg-type]
        for lid, low, high in loads:
            if key == low or key == high:
                moves.append(row[lid])  # type: ignore[arg-type]

    if plan.stack_moves and empty:
        _stack_moves(piles, plan, accept, empty, moves)

    # Draw and End turn (exclusive: End turn needs a drawn card on the waste, R7 forbids Draw then).
    if not (plan.fill_first and empty and piles[res]):
        if state.drawn:
            if plan.end_turn:
                moves.append(END_TURN)
        elif piles[plan.hand] or piles[wst]:
            moves.append(DRAW)
    if not moves:
        return (PASS,)
    return tuple(moves)


_STACK = tuple(
    tuple(tuple(STACKS.get((s, t, k)) for k in range(MAX_STACK + 1)) for t in range(8))
    for s in range(8)
)
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(256))


def _stack_moves(
    piles: Piles, plan: _Plan, accept: dict[int, int], empty: int, moves: list[Move]
) -> None:
    # R5: k <= 2**e, e = empty tableau piles other than the target.
    e = _POPCOUNT[empty]
    onto_card = 1 << e
    onto_empty = 1 << (e - 1)
    empty &= plan.alt_mask
    for sid in plan.tab_sources:
        pile = piles[sid]
        n = len(pile)
        if n < 2 or pile[-1]._colour_rank != pile[-2]._alt_accepts:
            continue
        table = _STACK[sid - 8]
        limit = min(n, onto_card)
        k = 2
        while True:
            key = pile[-k]._colour_rank
            # Colour keys in the index come only from piles that build down in
            # alternating colours for the mover, the only piles a stack may go to.
            mask = accept.get(key, 0)
            if k <= onto_empty:
                mask |= empty
            for tid in _TABLEAU[mask]:
                moves.append(table[tid - 8][k])  # type: ignore[arg-type]
            if k == limit or pile[-k - 1]._alt_accepts != key:
                break
            k += 1


def _has_target(state: GameState, piles: Piles, plan: _Plan, card: Card) -> bool:
    """Whether ``card`` can be played anywhere under the building rules (compulsion aside).

    Uses the indexes of ``state``, whose foundations and tableau equal those of ``piles``.
    """
    key = card._suit_rank
    if state._found.get(key):
        return True
    accept, empty = _tableau(state, plan)
    if empty or accept.get(card._colour_rank) or accept.get(key):
        return True
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile and (pile[-1]._suit_rank - key) in (1, -1):
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
    crapette._errors.IllegalMoveError: illegal move R1-T4: R1 is player 1's reserve and player 0 is to move

    :raises IllegalMoveError: if the move is not in :func:`legal_moves`; the message says why.
    :raises TypeError: if ``move`` is not a :class:`Move`.
    """
    try:
        legal = state._legal
    except AttributeError:
        raise TypeError(f"apply_move() expects a GameState, got {type(state).__name__}") from None
    if legal is None:
        legal = _generate(state)
        _set_legal(state, legal)
    if move not in legal:
        raise IllegalMoveError(f"illegal move {move}: {explain_illegal(state, move)}")
    rules = state.rules
    piles = state.piles
    player = state.current_player
    plan = _plans(rules)[player]
    drawn = state.drawn
    exhausted = state.exhausted
    played = state.played
    found = state._found
    tabx = state._tabx
    passes = 0
    outcome = None
    count = state.move_count + 1
    cls = move.__class__
    if cls is Play:
        source = move.source.id  # type: ignore[attr-defined]
        target = move.target.id  # type: ignore[attr-defined]
        new = list(piles)
        cards = new[source]
        new[target] = new[target] + cards[-1:]
        new[source] = cards[:-1]
        old = piles
        piles = tuple(new)
        if target < 8:
            found = _refound(found, target, old[target], cards[-1])
            if 8 <= source < 16:
                tabx = _next_tableau(tabx, plan, old, piles, (source,))
        elif 8 <= target < 16:
            tabx = _next_tableau(tabx, plan, old, piles, (source, target) if source < 16 else (target,))
        elif 8 <= source < 16:
            tabx = _next_tableau(tabx, plan, old, piles, (source,))
        if source == plan.res or source == plan.waste:
            if source == plan.waste:
                drawn = False
            if plan.stalemate:
                if not played[player]:
                    played = (True, played[1]) if player == 0 else (played[0], True)
                if exhausted[player]:
                    exhausted = (False, exhausted[1]) if player == 0 else (exhausted[0], False)
            if not (piles[plan.res] or piles[plan.hand] or piles[plan.waste]):
                outcome = _win(rules, piles, player)
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
        tabx = _next_tableau(tabx, plan, old, piles, (source, target))
    elif cls is Draw:
        hand = piles[plan.hand]
        waste = piles[plan.waste]
        turnover = not hand
        if turnover:
            # R4: the waste is turned over, unshuffled, to form the new hand.
            hand = waste[::-1]
            waste = ()
            if plan.stalemate:
                mark = not played[player]
                exhausted = (mark, exhausted[1]) if player == 0 else (exhausted[0], mark)
                played = (False, played[1]) if player == 0 else (played[0], False)
        new = list(piles)
        new[plan.hand] = hand[:-1]
        new[plan.waste] = waste + hand[-1:]
        piles = tuple(new)
        if _has_target(state, piles, plan, hand[-1]):
            drawn = True
        else:
            drawn = False
            player = 1 - player
        if turnover and exhausted[0] and exhausted[1]:
            outcome = settle(rules, piles, EndReason.STALEMATE)
    else:  # EndTurn or Pass
        drawn = False
        player = 1 - player
        # A pass made while this turn's drawn card lies on the waste is not a
        # stuck pass: the player may draw again next turn (ruling R6).
        if cls is Pass and not state.drawn:
            passes = state.passes + 1
            if passes >= 2:
                outcome = settle(rules, piles, EndReason.BLOCKED)
    if outcome is None and rules.move_limit is not None and count >= rules.move_limit:
        outcome = settle(rules, piles, EndReason.MOVE_LIMIT)
    return _make(rules, piles, player, count, drawn, passes, exhausted, played, outcome, found, tabx)


# Why a move is illegal (the slow path of apply_move) --------------------------


def explain_illegal(state: GameState, move: Move) -> str:
    """Why ``move`` is not legal in ``state``, in words (empty string if it is legal).

    >>> from crapette import RuleSet, new_game, parse_move
    >>> explain_illegal(new_game(RuleSet.casual(), seed=1), parse_move("end"))
    'these rules have no End turn: a turn ends by an unplayable draw or a pass'
    """
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move, got {type(move).__name__} {move!r} (use parse_move to read text)")
    legal = legal_moves(state)
    if move in legal:
        return ""
    if state.outcome is not None:
        return f"the game is over ({state.outcome})"
    reason = _rule_broken(state, move)
    if reason:
        return reason
    # The move obeys the building rules: what forbids it is precedence (section 10).
    listed = " ".join(str(m) for m in legal[:6]) + (" ..." if len(legal) > 6 else "")
    if legal and isinstance(legal[0], Play) and legal[0].target.kind is PileKind.FOUNDATION:
        return f"foundation plays are compulsory and come first (section 10): {listed}"
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
        if abs(top._suit_rank - card._suit_rank) != 1:
            return f"{card} cannot be loaded onto {top}: it must be the same suit and one rank higher or lower"
        return ""
    if target.kind is PileKind.FOUNDATION:
        if top is None:
            return "" if card.rank == 1 else f"an empty foundation takes only an Ace, not {card}"
        if top._suit_rank + 1 != card._suit_rank:
            return f"{card} does not go on {top}: a foundation builds up in suit from Ace to King"
        return ""
    alt = plan.alt_targets[target.index]
    if top is not None:
        if alt and top._alt_accepts != card._colour_rank:
            return f"{card} does not go on {top}: {target} builds down in alternating colours for player {p}"
        if not alt and abs(top._suit_rank - card._suit_rank) != 1:
            return f"{card} does not go on {top}: {target} builds up or down in suit for player {p}"
    return ""


def _source_problem(state: GameState, plan: _Plan, source: object) -> str:
    p = state.current_player
    pile = ALL_PILES[source.id]  # type: ignore[attr-defined]
    if pile.kind in (PileKind.RESERVE, PileKind.WASTE) and pile.index != p:
        return f"{pile} is player {pile.index}'s {pile.kind.name.lower()} and player {p} is to move"
    if not state.piles[pile.id]:
        return f"{pile} is empty"
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
    for i in range(1, k):
        if cards[-i]._colour_rank != cards[-i - 1]._alt_accepts:
            return f"the top {k} cards of {move.source} are not a run down in alternating colours"
    if not plan.alt_targets[move.target.index]:
        return f"a stack moves only onto a pile that builds down in alternating colours, and {move.target} does not for player {state.current_player}"
    dest = piles[move.target.id]
    bottom = cards[-k]
    if dest and dest[-1]._alt_accepts != bottom._colour_rank:
        return f"{bottom} does not go on {dest[-1]}: {move.target} builds down in alternating colours"
    empties = sum(1 for t in range(8, 16) if not piles[t] and t != move.target.id)
    if k > 1 << empties:
        return (
            f"moving {k} cards needs enough empty tableau piles besides the target (R5: "
            f"at most 2**e cards with e empty piles); there are {empties}"
        )
    return ""
