"""Why a move is illegal, in words, and why a state's turn moves cannot be its turn's: the engine's slow path.

:func:`explain_illegal` asks the same rule parts that the move generator
(:mod:`crapette._core.engine`) compiles, so a move is explained as illegal
exactly when :func:`~crapette.legal_moves` leaves it out; ``apply_move`` asks it
only for a move it refuses. The check of :attr:`~crapette.GameState.turn_moves`
that :func:`~crapette.validate` runs is here too: it replays the turn's moves
and explains the first that is not legal.
"""

from __future__ import annotations

from ..errors import InvalidStateError
from .compiled import (
    CompiledRules,
    compiled_rules,
)
from .engine import MOVE_TYPES, legal_moves, track
from .messages import brief, not_a_move
from .moves import (
    Draw,
    EndTurn,
    Move,
    MoveStack,
    Pass,
    Play,
)
from .parts import Build
from .rules import FoundationPlays
from .state import (
    ALL_PILES,
    H0,
    MAX_TURN_MOVES,
    R0,
    T0,
    W0,
    GameState,
    PileKind,
    raw_state,
    register_turn_check,
)

__all__ = ["explain_illegal"]


def explain_illegal(state: GameState, move: Move) -> str:
    """Why ``move`` is not legal in ``state``, in words (empty string if it is legal).

    The reasons come from the same rule parts the move generator compiles, so
    a move is explained as illegal exactly when :func:`legal_moves` leaves it out.

    >>> from crapette import RuleSet, new_game, parse_move
    >>> explain_illegal(new_game(RuleSet.casual(), seed=1), parse_move("end"))
    'these rules have no End turn: a turn ends by an unplayable draw or a pass'

    :raises TypeError: if ``move`` is not one of the five move classes.
    """
    if type(move) not in MOVE_TYPES:
        raise not_a_move("explain_illegal", move)
    legal = legal_moves(state)
    if move in legal:
        return ""
    if state.outcome is not None:
        return f"the game is over ({state.outcome})"
    reason = _rule_broken(state, move)
    if reason:
        return reason
    # The move obeys the building rules: what forbids it is precedence, or the turn's history.
    listed = " ".join(str(m) for m in legal[:6]) + (" ..." if len(legal) > 6 else "")
    if legal and isinstance(legal[0], Play) and legal[0].target.kind is PileKind.FOUNDATION and state.rules.foundation_plays is FoundationPlays.COMPULSORY:
        return f"foundation plays are compulsory and come first (section 10 of the rules): {listed}"
    if not state.rules.revisits and move.between_tableau:
        if len(state.turn_moves) >= MAX_TURN_MOVES:
            return f"a turn may make at most {MAX_TURN_MOVES} moves between tableau piles in a row (revisits=false)"
        return "it would recreate a position already reached in this turn, which these rules forbid (revisits=false)"
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
    plan = compiled_rules(rules)[p]
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


def _source_problem(state: GameState, plan: CompiledRules, source: object) -> str:
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


def _stack_problem(state: GameState, plan: CompiledRules, move: MoveStack) -> str:
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


def _turn_problem(state: GameState) -> str:
    """What is wrong with ``state.turn_moves`` ("" if nothing): each must be a legal move between
    tableau piles from the position before it, taking the moves back from ``state``'s piles."""
    moves = state.turn_moves
    for i, move in enumerate(moves):
        if type(move) not in MOVE_TYPES or not move.between_tableau:
            return f"turn_moves[{i}] is {brief(move)}, not a move between two tableau piles"
    piles = state.piles
    for p in (0, 1):
        if not (piles[R0 + p] or piles[H0 + p] or piles[W0 + p]):
            return f"turn_moves is not empty although player {p} has emptied reserve, hand and waste"
    back = list(piles)
    for i in range(len(moves) - 1, -1, -1):
        move = moves[i]
        k = move.count if type(move) is MoveStack else 1
        source, target = move.source.id, move.target.id  # type: ignore[attr-defined]
        cards = back[target]
        if len(cards) < k:
            return f"turn move {i + 1} ({move}) does not fit the piles: {ALL_PILES[target]} holds fewer than {k} card(s) to take back"
        back[source] = back[source] + cards[len(cards) - k :]
        back[target] = cards[: len(cards) - k]
    rules = state.rules
    plan = compiled_rules(rules)[state.current_player]
    start = state.move_count - len(moves)
    fields = (rules, tuple(back), state.current_player, start, state.drawn, 0, state.exhausted, state.played,
              state.counters, state.hand_known, state.reserve_known, state.from_deal, ())
    try:
        GameState(*fields)
    except InvalidStateError as exc:
        return f"taking the turn's moves back gives an impossible position: {exc}"
    here = raw_state(*fields)
    for i, move in enumerate(moves):
        if move not in legal_moves(here):
            return f"turn move {i + 1} ({move}) is not legal in the position before it: {explain_illegal(here, move)}"
        turn, seen, shape = track(here, here._engine, plan, move)
        k = move.count if type(move) is MoveStack else 1
        source, target = move.source.id, move.target.id  # type: ignore[attr-defined]
        new = list(here.piles)
        new[target] = new[target] + new[source][len(new[source]) - k :]
        new[source] = new[source][: len(new[source]) - k]
        here = raw_state(
            rules, tuple(new), state.current_player, start + i + 1, state.drawn, 0, state.exhausted, state.played,
            state.counters, state.hand_known, state.reserve_known, state.from_deal, turn, None, None, None, None, seen, shape,
        )
    return ""


register_turn_check(_turn_problem)
