"""new_game, legal_moves, apply_move: the one place where the rules are enforced.

The rule parts of a :class:`~crapette.RuleSet` are compiled once per (rules, player) into its :class:`CompiledRules` (``crapette._core.compiled``):
building rules become tables of the card keys each top card accepts, so the hot path (``legal_moves`` and
``apply_move``) looks cards up in small indexes whatever the building rules are, and builds states positionally,
sharing every unchanged pile with the previous state. It never validates and never calls attrs.evolve. Only the rules'
own endings (``RuleSet.endings``) call user code on every move, and only where they are used.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InvalidRulesError, InvalidStateError, ParseError
from .cards import Card, parse_card, shuffled_deck
from .checks import check_seed
from .compiled import (
    COMPILED_RULES,
    FOUNDATIONS,
    TABLEAU,
    CompiledRules,
    compiled_rules,
    foundation_index,
    next_tableau,
    refound,
    tableau_of,
)
from .hooks import PROBE_MOVES, PROBE_SEEDS, hook_error
from .messages import brief, illegal_move, not_a_move
from .moves import (
    DRAW,
    END_TURN,
    MAX_STACK,
    PASS,
    PLAYS,
    STACKS,
    Draw,
    EndTurn,
    Move,
    MoveStack,
    Pass,
    Play,
)
from .outcome import check_number
from .parts import is_built_in
from .rules import RuleSet, to_rules
from .shapes import Run, run_keys, shapes
from .state import (
    FOUND,
    H0,
    LEGAL,
    MAX_TURN_MOVES,
    NUM_PILES,
    OUTCOME,
    R0,
    SEEN,
    SHAPE,
    T0,
    TAB0,
    TAB1,
    GameState,
    game_end,
    raw_state,
    set_counters,
)

if TYPE_CHECKING:
    from .._views.view import PublicView, Viewed
__all__ = ["apply_move", "legal_moves", "new_game"]

Piles = tuple[tuple[Card, ...], ...]

#: The exact classes of the moves: anything else is refused before it is looked up.
MOVE_TYPES = frozenset((Play, MoveStack, Draw, EndTurn, Pass))


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


#: The rule sets whose parts of one's own the engine has tried in play (see :func:`probe_play`).
_PROBED: set[RuleSet] = set()


def probe_play(rules: RuleSet) -> None:
    """Deal a few games twice each under ``rules`` and play a few moves, once per rule set with parts of one's own.

    A first-player rule or an ending of one's own that raises, answers wrongly
    or is not a function of its arguments is refused the first time the
    engine plays the rules (:func:`new_game`, :func:`legal_moves`), before any
    game of them goes on. Rules made only of crapette's own parts cost nothing.

    :raises RulePartError: naming the part and the hook.
    """
    if rules in _PROBED or (is_built_in(rules.first_player) and all(is_built_in(e) for e in rules.endings)):
        return
    if len(_PROBED) > 512:
        _PROBED.clear()
    _PROBED.add(rules)  # the probe's own games must not probe again
    try:
        for seed in range(PROBE_SEEDS):
            first, again = new_game(rules, seed=seed), new_game(rules, seed=seed)
            if first.current_player != again.current_player:
                raise hook_error(
                    rules.first_player,
                    "who_starts",
                    f"answered {first.current_player} then {again.current_player} on the same deal (seed {seed}): "
                    "a first-player rule must be a function of the deal and the seed, or records cannot be replayed",
                )
            for ending, a, b in zip(rules.endings, first.counters, again.counters):
                if a != b:
                    raise hook_error(
                        ending, "start",
                        f"answered {a} then {b} on the same deal (seed {seed}): it must be a function of the deal",
                    )
            state = first
            for _ in range(PROBE_MOVES if seed < 2 else 0):
                if state.outcome is not None:
                    break
                state = apply_move(state, legal_moves(state)[0])
    except BaseException:
        _PROBED.discard(rules)
        raise


def _plans_of(rules: RuleSet) -> tuple[CompiledRules, CompiledRules]:
    """``rules`` compiled, the first time they are played (their parts of one's own tried first)."""
    probe_play(rules)
    return compiled_rules(rules)


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
    probe_play(rules)
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
    deal = raw_state(rules, dealt, 0, 0, False, 0, (False, False), (False, False), (), (False, False), (0, 0), True, ())
    counters = tuple(_count(e, e.start(deal)) for e in rules.endings)
    first = rules.first_player.who_starts(deal, seed)
    if type(first) is not int or first not in (0, 1):
        raise InvalidRulesError(f"the first-player rule {rules.first_player} returned {brief(first)}, not 0 or 1")
    state = raw_state(
        rules, dealt, first, 0, False, 0, (False, False), (False, False), counters, (False, False), (0, 0), True, ()
    )
    if not rules.revisits:
        # The engine keeps the tableau's shape key from move to move (see _track).
        state._engine[SHAPE] = shapes(rules).key(dealt)
    if rules.endings:
        state._engine[OUTCOME] = game_end(state)
    return state


def _count(ending: object, value: object) -> int:
    problem = check_number(f"the count of the ending {ending}", value)
    if problem:
        raise InvalidRulesError(problem)
    return value  # type: ignore[return-value]


def legal_moves(state: GameState | PublicView) -> tuple[Move, ...]:
    """Exactly the legal moves of the player to move, in a fixed order.

    The order: plays to foundations (by source: reserve, waste, tableau piles 0-7; then by foundation 0-7);
    other plays (by source in the same order; then by target: tableau piles 0-7, the opponent's reserve, the
    opponent's waste); stack moves (by source, then count, then target); Draw; End turn. A player with no
    move has exactly ``(Pass(),)``; a finished game has none. With compulsory foundation plays only the
    moves that section 10 allows are listed. The tuple is computed once per state and kept with it.

    >>> from crapette import RuleSet, new_game
    >>> moves = legal_moves(new_game(RuleSet.casual(), seed=1))
    >>> [str(m) for m in moves]
    ['T1-T0', 'draw']

    :raises TypeError: if ``state`` is neither a :class:`GameState` nor a :class:`~crapette.PublicView`.
    """
    try:
        cache = state._engine  # type: ignore[union-attr]
    except AttributeError:
        from .._views.view import (
            view_moves,  # a PublicView's own moves, else a TypeError
        )
        return view_moves(state)
    legal = cache[LEGAL]
    if legal is None:
        legal = cache[LEGAL] = _lister(state, cache)
    return legal  # type: ignore[no-any-return]


def python_moves(state: GameState, cache: list[Any]) -> tuple[Move, ...]:
    """The legal moves of ``state`` worked out by this module (``cache`` is the state's engine list).

    The reference that the compiled kernel (:mod:`crapette.kernel`) is held to; :func:`legal_moves`
    calls the kernel's twin instead where it runs.
    """
    if cache[OUTCOME] is not None:
        return ()
    piles = state.piles
    rules = state.rules
    plan = (COMPILED_RULES.get(rules) or _plans_of(rules))[state.current_player]
    drawn = state.drawn
    restricted = plan.drawn_first and drawn
    # The piles whose top card the player may move, in the order of the moves.
    sources = plan.drawn_sources if drawn else plan.sources
    if restricted:
        # The drawn card must be dealt with before any other move.
        sources = (plan.waste,)
    need = cache[FOUND]
    if need is None:
        need = cache[FOUND] = foundation_index(piles)
    accept, empty = cache[TAB0 + plan.player] or tableau_of(state, plan, cache)
    loads = []
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile:
            loads.append((lid, plan.load_keys[pile[-1].index]))
    get = accept.get
    # Moves between tableau piles are filtered when a pile may take its own top
    # card (a rule of one's own), or a move may not recreate a position (revisits=false).
    filter_tableau = plan.filter_tableau
    self_accepting = plan.self_accepting
    if plan.revisits:
        run = None
    else:
        turn = state.turn_moves
        run = _FRESH if not turn else _FULL if len(turn) >= MAX_TURN_MOVES else _run(state, cache)
        moved = run[1]
        twins = plan.shapes.twins
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
            for fid in FOUNDATIONS[mask]:
                home.append(row[fid])  # type: ignore[arg-type]
        mask = get(card._colour_rank, 0) | get(key, 0) | empty
        if mask:
            if filter_tableau and T0 <= sid < R0:
                if self_accepting:
                    mask &= ~(1 << (sid - T0))
                if run is not None:
                    # A lone card onto an empty twin pile recreates the position itself.
                    if len(pile) == 1:
                        mask &= ~(empty & twins[sid - T0])
                    if card.index in moved:
                        mask = _unrepeated(plan, piles, sid, 1, mask, run)
            for tid in TABLEAU[mask]:
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
        _stack_moves(piles, plan, accept, empty, moves, run)

    # Draw and End turn (exclusive: End turn needs a drawn card on the waste, R7 forbids Draw then).
    if not (plan.fill_empty_first and empty and piles[plan.res]):
        if drawn:
            if plan.end_turn:
                moves.append(END_TURN)
        elif piles[plan.hand] or piles[plan.waste]:
            moves.append(DRAW)
    if not moves:
        return (PASS,)
    return tuple(moves)


def _run(state: GameState, cache: list[Any]) -> Run:
    """Under revisits=false, what ``state`` remembers of its turn (see crapette._core.shapes.Run), kept in the engine's list."""
    run = cache[SEEN]
    if run is None:
        if state.turn_moves:
            run = cache[SEEN] = run_keys(state)
            cache[SHAPE] = run[2]
        else:
            key = cache[SHAPE]
            if key is None:
                key = cache[SHAPE] = shapes(state.rules).key(state.piles)
            run = cache[SEEN] = (_NONE, _NONE, key)
    return run  # type: ignore[no-any-return]


_NONE: frozenset[int] = frozenset()
#: The run of a turn that has reached no position but the current one, and of one that
#: may make no more moves between tableau piles (every card counts as moved).
_FRESH: Run = (_NONE, _NONE, 0)
_FULL: Run = (_NONE, frozenset(range(104)), -1)


def _unrepeated(plan: CompiledRules, piles: Piles, sid: int, count: int, mask: int, run: Run) -> int:
    """The tableau piles in ``mask`` that the top ``count`` cards of ``sid`` may go to without recreating a
    position the turn reached before (the position itself: see the callers). Only called when the
    bottom card that moves is one that moved earlier in the turn (else no earlier position can recur)."""
    seen, _, key = run
    if key < 0:
        return 0
    shape = plan.shapes
    base = shape.base
    cards = piles[sid]
    n = len(cards)
    shift = 10 * cards[n - count].index
    old = base[sid - T0] + (cards[n - count - 1].index + 1 if n > count else 0)
    for tid in TABLEAU[mask]:
        if count == 1 or base[tid - T0] == base[sid - T0]:
            # Only the code of the bottom card that moves changes (see crapette._core.shapes).
            dest = piles[tid]
            after = key + ((base[tid - T0] + (dest[-1].index + 1 if dest else 0) - old) << shift)
        else:
            after = key + shape.delta(piles, sid, tid, count)
        if after in seen:
            mask &= ~(1 << (tid - T0))
    return mask


_STACK = tuple(
    tuple(tuple(STACKS.get((s, t, k)) for k in range(MAX_STACK + 1)) for t in range(8))
    for s in range(8)
)
_POPCOUNT = tuple(bin(mask).count("1") for mask in range(256))


def _stack_moves(
    piles: Piles, plan: CompiledRules, accept: dict[int, int], empty: int, moves: list[Move], run: Run | None
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
            if mask and run is not None:
                if k == n:
                    mask &= ~(empty & plan.shapes.twins[sid - T0])
                if pile[-k].index in run[1]:
                    mask = _unrepeated(plan, piles, sid, k, mask, run)
            for tid in TABLEAU[mask]:
                moves.append(table[tid - T0][k])  # type: ignore[arg-type]
            if k == n or pile[-k - 1]._alt_accepts != key:
                break
            k += 1


def _has_target(state: GameState, cache: list[Any], plan: CompiledRules, card: Card) -> bool:
    """Whether ``card`` can be played anywhere under the building rules (compulsion aside).

    Uses the indexes in ``cache``, whose foundations and tableau equal those of ``state``.
    """
    key = card._suit_rank
    if cache[FOUND].get(key):
        return True
    accept, empty = tableau_of(state, plan, cache)
    if empty or accept.get(card._colour_rank) or accept.get(key):
        return True
    piles = state.piles
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile and key in plan.load_keys[pile[-1].index]:
            return True
    return False


def apply_move(state: Viewed, move: Move) -> Viewed:
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
    :raises HiddenCardError: given a :class:`~crapette.PublicView` (:func:`~crapette.step_view`), if the move turns up a card.
    :raises TypeError: if ``state`` is neither a :class:`GameState` nor a PublicView or ``move`` is not
        one of the five move classes (subclasses included: they are refused too).
    """
    try:
        cache = state._engine  # type: ignore[attr-defined]
    except AttributeError:
        from .._views.view import step_view  # a PublicView stepped, else a TypeError
        return step_view(state, move)  # type: ignore[arg-type,return-value]
    legal = cache[LEGAL]
    if legal is None:
        legal = cache[LEGAL] = _lister(state, cache)
    if move not in legal:
        if type(move) not in MOVE_TYPES:
            raise not_a_move("apply_move", move)
        from .explain import (
            explain_illegal,  # the slow path: only an illegal move pays for its words
        )

        raise illegal_move(move, explain_illegal(state, move))  # type: ignore[arg-type]
    return _applier(state, cache, move)  # type: ignore[no-any-return]


def python_apply(state: GameState, cache: list[Any], move: Move) -> GameState:
    """The state after the legal ``move``, worked out by this module (``cache`` is ``state``'s engine list).

    The reference that the compiled kernel (:mod:`crapette.kernel`) is held to; :func:`apply_move`
    calls the kernel's twin instead where it runs.
    """
    # The legal moves are interned, so a true move found among them has one of
    # their exact classes; the last branch below refuses anything else (an
    # object whose __eq__ says it equals a legal move).
    cls = type(move)
    rules = state.rules
    piles = state.piles
    player = state.current_player
    plan = (COMPILED_RULES.get(rules) or compiled_rules(rules))[player]
    drawn = state.drawn
    exhausted = state.exhausted
    played = state.played
    hand_known = state.hand_known
    reserve_known = state.reserve_known
    found = cache[FOUND]
    if found is None:
        # The kernel listed this state's moves, which leaves the indexes of this module unmade.
        found = cache[FOUND] = foundation_index(piles)
    tab0 = cache[TAB0]
    tab1 = cache[TAB1]
    if plan.revisits:
        turn: tuple[Move, ...] = ()
        seen = shape = None
    else:
        turn, seen, shape = track(state, cache, plan, move)
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
            found = refound(found, target, old[target], cards[-1])
            if T0 <= source < R0:
                tab0, tab1 = next_tableau(cache, plan, old, piles, (source,))
        elif T0 <= target < R0:
            tab0, tab1 = next_tableau(cache, plan, old, piles, (source, target) if source < R0 else (target,))
        elif T0 <= source < R0:
            tab0, tab1 = next_tableau(cache, plan, old, piles, (source,))
        if target == plan.opp_res:
            # The card it covers was face up: it stays known under the loaded one.
            reserve_known = (reserve_known[0] + 1, reserve_known[1]) if player else (reserve_known[0], reserve_known[1] + 1)
        if source == plan.res or source == plan.waste:
            if source == plan.waste:
                drawn = False
            elif reserve_known[player]:
                # A known card comes to the top: nothing is revealed.
                reserve_known = (reserve_known[0] - 1, reserve_known[1]) if player == 0 else (reserve_known[0], reserve_known[1] - 1)
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
        tab0, tab1 = next_tableau(cache, plan, old, piles, (source, target))
    elif cls is Draw:
        hand = piles[plan.hand]
        waste = piles[plan.waste]
        turnover = not hand
        if turnover:
            # R4: the waste is turned over, unshuffled, to form the new hand.
            hand = waste[::-1]
            waste = ()
            if plan.stalemate:
                exhausted, played = _mark(player, exhausted, played)
                ends = ends or (exhausted[0] and exhausted[1])
        # A hand formed from the (face-up) waste is known, in order, until it runs out.
        known = (turnover or hand_known[player]) and len(hand) > 1
        if known is not hand_known[player]:
            hand_known = (known, hand_known[1]) if player == 0 else (hand_known[0], known)
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
        raise not_a_move("apply_move", move)
    after = raw_state(
        rules, piles, player, count, drawn, passes, exhausted, played, state.counters,
        hand_known, reserve_known, state.from_deal, turn, None, found, tab0, tab1, seen, shape,
    )
    if plan.endings:
        set_counters(
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


#: What legal_moves and apply_move call: this module's functions, or the compiled kernel's twins
#: (which hand the rules they do not run back to these); see :func:`install`.
_lister: Any = python_moves
_applier: Any = python_apply


def install(lister: Any = None, applier: Any = None) -> None:
    """Make :func:`legal_moves` and :func:`apply_move` call ``lister(state, cache)`` and ``applier(state, cache, move)``.

    :mod:`crapette.kernel` installs its twins of :func:`python_moves` and
    :func:`python_apply` this way; None puts this module's functions back.
    """
    global _lister, _applier
    _lister = python_moves if lister is None else lister
    _applier = python_apply if applier is None else applier


def track(state: GameState, cache: list[Any], plan: CompiledRules, move: Move) -> tuple[tuple[Move, ...], Any, Any]:
    """Under revisits=false: the next state's turn moves, and what the engine keeps of its run (SEEN, SHAPE)."""
    piles = state.piles
    cls = type(move)
    if move.between_tableau:
        count = move.count if cls is MoveStack else 1  # type: ignore[attr-defined]
        return _shuttle(state, cache, plan, move, move.source.id, move.target.id, count)  # type: ignore[attr-defined]
    if cls is Play:
        source = move.source.id  # type: ignore[attr-defined]
        target = move.target.id  # type: ignore[attr-defined]
        if T0 <= target < R0:
            # A card joins the tableau: keep the key up to date (see crapette._core.shapes).
            key = cache[SHAPE]
            if key is not None:
                pile = piles[target]
                key += (plan.shapes.base[target - T0] + (pile[-1].index + 1 if pile else 0)) << (10 * piles[source][-1].index)
            return (), None, key
        if T0 <= source < R0:
            key = cache[SHAPE]
            if key is not None:
                pile = piles[source]
                below = pile[-2].index + 1 if len(pile) > 1 else 0
                key -= (plan.shapes.base[source - T0] + below) << (10 * pile[-1].index)
            return (), None, key
    return (), None, cache[SHAPE]


def _shuttle(
    state: GameState, cache: list[Any], plan: CompiledRules, move: Move, source: int, target: int, count: int
) -> tuple[tuple[Move, ...], Run, int]:
    """The turn moves and the run of the state after ``move``, a move between tableau piles (revisits=false)."""
    seen, moved, key = _run(state, cache)
    shape = plan.shapes
    piles = state.piles
    if count == 1:
        # Only the code of the card that moves changes (see crapette._core.shapes).
        base = shape.base
        cards = piles[source]
        card = cards[-1].index
        dest = piles[target]
        old = base[source - T0] + (cards[-2].index + 1 if len(cards) > 1 else 0)
        after = key + ((base[target - T0] + (dest[-1].index + 1 if dest else 0) - old) << (10 * card))
        changed = moved if card in moved else moved | {card}
    else:
        after = key + shape.delta(piles, source, target, count)
        changed = moved | shape.changed(piles, source, target, count)
    return (*state.turn_moves, move), (seen | {key}, changed, after), after


def _mark(
    player: int, exhausted: tuple[bool, bool], played: tuple[bool, bool]
) -> tuple[tuple[bool, bool], tuple[bool, bool]]:
    """The stalemate marks after ``player`` goes through the hand: exhausted if nothing was played since the last time."""
    mark = not played[player]
    if player == 0:
        return (mark, exhausted[1]), (False, played[1])
    return (exhausted[0], mark), (played[0], False)

