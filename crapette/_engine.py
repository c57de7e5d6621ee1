"""new_game, legal_moves, apply_move: the one place where the rules are enforced.

The hot path (``legal_moves`` and ``apply_move``) works on the precomputed keys
of the interned cards and builds states positionally, sharing every unchanged
pile with the previous state; it never validates and never calls attrs.evolve.
"""

from __future__ import annotations

from ._cards import Card, check_seed, shuffled_deck
from ._errors import IllegalMoveError
from ._moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Draw, EndTurn, Move, MoveStack, Pass, Play
from ._rules import Build, FirstPlayer, FoundationPlays, LoadTarget, RuleSet, TableauSources, WastePlay
from ._state import (
    ALL_PILES,
    EndReason,
    GameState,
    Outcome,
    PileKind,
    settle,
)

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
        "tab_targets",
        "stack_targets",
        "load_piles",
        "compulsory",
        "fill_first",
        "end_turn",
        "stack_moves",
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
        targets = []
        for tid in range(8, 16):
            build = rules.own_tableau_build if tid in own else rules.opponent_tableau_build
            targets.append((tid, build is Build.DOWN_ALTERNATING))
        self.tab_targets: tuple[tuple[int, bool], ...] = tuple(targets)
        self.stack_targets = tuple(tid for tid, alt in targets if alt)
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


_PLANS: dict[RuleSet, tuple[_Plan, _Plan]] = {}


def _plans(rules: RuleSet) -> tuple[_Plan, _Plan]:
    plans = _PLANS.get(rules)
    if plans is None:
        if len(_PLANS) > 512:
            _PLANS.clear()
        plans = _PLANS[rules] = (_Plan(rules, 0), _Plan(rules, 1))
    return plans


_new = object.__new__
_set = object.__setattr__


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
) -> GameState:
    # Positional construction of an already-valid state: no validation, no evolve.
    state = _new(GameState)
    _set(state, "rules", rules)
    _set(state, "piles", piles)
    _set(state, "current_player", player)
    _set(state, "move_count", count)
    _set(state, "drawn", drawn)
    _set(state, "passes", passes)
    _set(state, "exhausted", exhausted)
    _set(state, "played", played)
    _set(state, "_outcome", outcome)
    _set(state, "_legal", None)
    _set(state, "_hash", None)
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
    0-7; then by foundation), other plays (by source; then onto non-empty
    tableau piles 0-7, the opponent's reserve, the opponent's waste, then onto
    empty tableau piles 0-7), stack moves (by source, target, count), Draw,
    End turn. A player with no move has exactly ``(Pass(),)``; a finished game
    has none. With compulsory foundation plays only the moves that section 10
    allows are listed.

    >>> from crapette import RuleSet, new_game
    >>> moves = legal_moves(new_game(RuleSet.casual(), seed=1))
    >>> [str(m) for m in moves]
    ['T1-T0', 'draw']
    """
    legal = state._legal
    if legal is None:
        legal = _generate(state)
        _set(state, "_legal", legal)
    return legal


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

    # Foundations, keyed by the suit-and-rank they need next.
    need: dict[int, list[int]] = {}
    fempty: list[int] = []
    for fid in range(8):
        pile = piles[fid]
        if pile:
            key = pile[-1]._suit_rank + 1
            if key in need:
                need[key].append(fid)
            else:
                need[key] = [fid]
        else:
            fempty.append(fid)
    moves: list[Move] = []
    for sid, card in srcs:
        fids = fempty if card.rank == 1 else need.get(card._suit_rank)
        if fids:
            row = PLAYS[sid]
            for fid in fids:
                moves.append(row[fid])  # type: ignore[arg-type]
    if moves and plan.compulsory:
        if srcs[0][0] == res and moves[0].source.id == res:  # type: ignore[attr-defined]
            return tuple(m for m in moves if m.source.id == res)  # type: ignore[attr-defined]
        return tuple(moves)

    # Tableau piles and load targets, keyed by the card they accept.
    accept: dict[int, list[int]] = {}
    tempty: list[int] = []
    for tid, alt in plan.tab_targets:
        pile = piles[tid]
        if not pile:
            tempty.append(tid)
            continue
        if alt:
            key = pile[-1]._alt_accepts
            if key in accept:
                accept[key].append(tid)
            else:
                accept[key] = [tid]
        else:
            key = pile[-1]._suit_rank
            for k in (key - 1, key + 1):
                if k in accept:
                    accept[k].append(tid)
                else:
                    accept[k] = [tid]
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile:
            key = pile[-1]._suit_rank
            for k in (key - 1, key + 1):
                if k in accept:
                    accept[k].append(lid)
                else:
                    accept[k] = [lid]
    for sid, card in srcs:
        row = PLAYS[sid]
        by_colour = accept.get(card._colour_rank)
        by_suit = accept.get(card._suit_rank)
        if by_colour:
            for tid in sorted(by_colour + by_suit) if by_suit else by_colour:
                moves.append(row[tid])  # type: ignore[arg-type]
        elif by_suit:
            for tid in by_suit:
                moves.append(row[tid])  # type: ignore[arg-type]
        for tid in tempty:
            moves.append(row[tid])  # type: ignore[arg-type]

    if plan.stack_moves and tempty:
        _stack_moves(piles, plan, len(tempty), moves)

    # Draw and End turn (exclusive: End turn needs a drawn card on the waste, R7 forbids Draw then).
    if not (plan.fill_first and tempty and piles[res]):
        if state.drawn:
            if plan.end_turn:
                moves.append(END_TURN)
        elif piles[plan.hand] or piles[wst]:
            moves.append(DRAW)
    if not moves:
        return (PASS,)
    return tuple(moves)


def _stack_moves(piles: Piles, plan: _Plan, empties: int, moves: list[Move]) -> None:
    # R5: k <= 2**e, e = empty tableau piles other than the target.
    for sid in plan.tab_sources:
        pile = piles[sid]
        n = len(pile)
        if n < 2:
            continue
        run = 1
        while run < n and pile[-run]._colour_rank == pile[-run - 1]._alt_accepts:
            run += 1
        if run < 2:
            continue
        top = pile[-1]
        for tid in plan.stack_targets:
            if tid == sid:
                continue
            target = piles[tid]
            if target:
                under = target[-1]
                k = under.rank - top.rank
                if 2 <= k <= run and k <= 1 << empties and pile[-k]._colour_rank == under._alt_accepts:
                    moves.append(STACKS[(sid - 8, tid - 8, k)])
            else:
                for k in range(2, min(run, 1 << (empties - 1)) + 1):
                    moves.append(STACKS[(sid - 8, tid - 8, k)])


def _has_target(piles: Piles, plan: _Plan, card: Card) -> bool:
    """Whether ``card`` can be played anywhere under the building rules (compulsion aside)."""
    if card.rank == 1:
        for fid in range(8):
            if not piles[fid]:
                return True
    else:
        key = card._suit_rank - 1
        for fid in range(8):
            pile = piles[fid]
            if pile and pile[-1]._suit_rank == key:
                return True
    colour_rank = card._colour_rank
    suit_rank = card._suit_rank
    for tid, alt in plan.tab_targets:
        pile = piles[tid]
        if not pile:
            return True
        if alt:
            if pile[-1]._alt_accepts == colour_rank:
                return True
        elif abs(pile[-1]._suit_rank - suit_rank) == 1:
            return True
    for lid in plan.load_piles:
        pile = piles[lid]
        if pile and abs(pile[-1]._suit_rank - suit_rank) == 1:
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
    legal = state._legal
    if legal is None:
        legal = _generate(state)
        _set(state, "_legal", legal)
    if move not in legal:
        raise IllegalMoveError(f"illegal move {move}: {explain_illegal(state, move)}")
    rules = state.rules
    piles = state.piles
    player = state.current_player
    plan = _plans(rules)[player]
    drawn = state.drawn
    exhausted = state.exhausted
    played = state.played
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
        piles = tuple(new)
        if source == plan.res or source == plan.waste:
            if source == plan.waste:
                drawn = False
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
        piles = tuple(new)
    elif cls is Draw:
        hand = piles[plan.hand]
        waste = piles[plan.waste]
        turnover = not hand
        if turnover:
            # R4: the waste is turned over, unshuffled, to form the new hand.
            hand = waste[::-1]
            waste = ()
            mark = not played[player]
            exhausted = (mark, exhausted[1]) if player == 0 else (exhausted[0], mark)
            played = (False, played[1]) if player == 0 else (played[0], False)
        new = list(piles)
        new[plan.hand] = hand[:-1]
        new[plan.waste] = waste + hand[-1:]
        piles = tuple(new)
        if _has_target(piles, plan, hand[-1]):
            drawn = True
        else:
            drawn = False
            player = 1 - player
        if turnover and rules.stalemate and exhausted[0] and exhausted[1]:
            outcome = settle(rules, piles, EndReason.STALEMATE)
    else:  # EndTurn or Pass
        drawn = False
        player = 1 - player
        if cls is Pass:
            passes = state.passes + 1
            if passes >= 2:
                outcome = settle(rules, piles, EndReason.BLOCKED)
    if outcome is None and rules.move_limit is not None and count >= rules.move_limit:
        outcome = settle(rules, piles, EndReason.MOVE_LIMIT)
    return _make(rules, piles, player, count, drawn, passes, exhausted, played, outcome)


def _win(rules: RuleSet, piles: Piles, player: int) -> Outcome:
    scores = None
    if rules.scoring is not None:
        loser = 1 - player
        won = rules.scoring.points_for_win(
            reserve=len(piles[16 + loser]), hand=len(piles[18 + loser]), waste=len(piles[20 + loser])
        )
        scores = (won, 0) if player == 0 else (0, won)
    return Outcome(player, EndReason.EMPTIED, scores)


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
    alt = dict(plan.tab_targets)[target.id]
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
    if move.target.id not in plan.stack_targets:
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
