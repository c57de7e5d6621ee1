"""Property tests over random games of both presets and of random rule sets.

Besides the engine's own invariants, every reached state is checked against a
slow reference model written straight from RULES.md (``reference_legal_moves``
and ``reference_apply``): the engine's legal moves and its successor states
must be exactly the model's.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import (
    ALL_CARDS,
    Build,
    Card,
    DownAlternating,
    Draw,
    EndReason,
    EndTurn,
    FoundationPlays,
    GameState,
    IllegalMoveError,
    InvalidRulesError,
    LoadTarget,
    Move,
    MoveStack,
    Outcome,
    Pass,
    Pile,
    PileKind,
    Play,
    RuleSet,
    StackLimit,
    TableauSources,
    WastePlay,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_position,
    validate,
)
from conftest import ALL_MOVES, any_rules, examples, rulesets, seeds

Piles = tuple[tuple[Card, ...], ...]


# ----------------------------------------------------------------------------
# The reference model: RULES.md, literally and slowly


def _alt(below: Card, above: Card) -> bool:
    return below.rank == above.rank + 1 and below.colour is not above.colour


def _suit(below: Card, above: Card) -> bool:
    return below.suit is above.suit and abs(below.rank - above.rank) == 1


def _top(piles: Piles, pile: Pile) -> Card | None:
    cards = piles[pile.id]
    return cards[-1] if cards else None


def _build_for(rules: RuleSet, player: int, t: int) -> Build:
    return rules.own_tableau_build if t // 4 == player else rules.opponent_tableau_build


def _is_alt(build: Build) -> bool:
    return isinstance(build, DownAlternating)


def _targets(rules: RuleSet, piles: Piles, player: int, card: Card, source: Pile) -> list[Pile]:
    out = []
    for f in range(8):
        top = _top(piles, Pile.foundation(f))
        if (top is None and card.rank == 1) or (
            top is not None and top.suit is card.suit and top.rank + 1 == card.rank
        ):
            out.append(Pile.foundation(f))
    for t in range(8):
        pile = Pile.tableau(t)
        if pile is source:
            continue
        top = _top(piles, pile)
        if top is None or _build_for(rules, player, t).accepts(top, card):
            out.append(pile)
    for kind in rules.load_targets:
        pile = Pile.reserve(1 - player) if kind is LoadTarget.RESERVE else Pile.waste(1 - player)
        top = _top(piles, pile)
        if top is not None and rules.load_build.accepts(top, card):
            out.append(pile)
    return out


def _sources(state: GameState) -> list[Pile]:
    rules, p, piles = state.rules, state.current_player, state.piles
    if rules.drawn_first and state.drawn:
        return [Pile.waste(p)]
    out = []
    if piles[Pile.reserve(p).id]:
        out.append(Pile.reserve(p))
    if piles[Pile.waste(p).id] and (rules.waste_play is WastePlay.ALWAYS or state.drawn):
        out.append(Pile.waste(p))
    own = range(8) if rules.tableau_sources is TableauSources.ALL else range(4 * p, 4 * p + 4)
    out += [Pile.tableau(t) for t in own if piles[Pile.tableau(t).id]]
    return out


def reference_legal_moves(state: GameState) -> set[Move]:
    """The legal moves as RULES.md sections 4-10 define them."""
    if state.outcome is not None:
        return set()
    rules, p, piles = state.rules, state.current_player, state.piles
    moves: set[Move] = set()
    for source in _sources(state):
        card = piles[source.id][-1]
        moves.update(Play(source, t) for t in _targets(rules, piles, p, card, source))
        if rules.stack_moves and source.kind is PileKind.TABLEAU:
            cards = piles[source.id]
            for k in range(2, len(cards) + 1):
                stack = cards[-k:]
                if not all(_alt(a, b) for a, b in zip(stack, stack[1:])):
                    break
                for t in range(8):
                    target = Pile.tableau(t)
                    if target is source or not _is_alt(_build_for(rules, p, t)):
                        continue
                    top = _top(piles, target)
                    if top is not None and not _alt(top, stack[0]):
                        continue
                    empties = sum(1 for u in range(8) if u != t and not piles[Pile.tableau(u).id])
                    if rules.stack_limit is StackLimit.UNLIMITED or k <= 2**empties:
                        moves.add(MoveStack(source, target, k))
    if (piles[Pile.hand(p).id] or piles[Pile.waste(p).id]) and not state.drawn:
        moves.add(Draw())
    if rules.end_turn and state.drawn:
        moves.add(EndTurn())
    if rules.foundation_plays is FoundationPlays.COMPULSORY:
        found: set[Move] = {m for m in moves if isinstance(m, Play) and m.target.kind is PileKind.FOUNDATION}
        reserve: set[Move] = {m for m in found if isinstance(m, Play) and m.source is Pile.reserve(p)}
        if reserve:
            return reserve
        if found:
            return found
    if (
        rules.fill_empty_first
        and piles[Pile.reserve(p).id]
        and any(not piles[Pile.tableau(t).id] for t in range(8))
    ):
        moves -= {Draw(), EndTurn()}
    if not rules.revisits:
        moves -= {m for m in moves if _between_tableau(m) and _revisits(state, m)}
    return moves or {Pass()}


def _between_tableau(move: Move) -> bool:
    return isinstance(move, (Play, MoveStack)) and move.source.kind is move.target.kind is PileKind.TABLEAU


def _moved(piles: list[list[Card]], move: Move, back: bool = False) -> None:
    k = move.count if isinstance(move, MoveStack) else 1
    source, target = (move.target.id, move.source.id) if back else (move.source.id, move.target.id)
    piles[target] += piles[source][-k:]
    del piles[source][-k:]


def _groups(rules: RuleSet) -> list[list[int]]:
    """Tableau piles that both players build on and move from alike (all alone under endings of one's own)."""
    if rules.endings:
        return [[t] for t in range(8)]

    def role(t: int, p: int) -> tuple[Any, ...]:
        own = t // 4 == p
        return (_build_for(rules, p, t), own or rules.tableau_sources is TableauSources.ALL)

    found: dict[tuple[Any, ...], list[int]] = {}
    for t in range(8):
        found.setdefault((role(t, 0), role(t, 1)), []).append(t)
    return list(found.values())


def _shape(rules: RuleSet, piles: list[list[Card]]) -> tuple[frozenset[tuple[Card, ...]], ...]:
    return tuple(frozenset(tuple(piles[8 + t]) for t in group if piles[8 + t]) for group in _groups(rules))


def _revisits(state: GameState, move: Move) -> bool:
    """Whether ``move`` recreates a position the turn has reached (revisits=false), or the turn is at its cap."""
    if len(state.turn_moves) >= 1000:
        return True
    piles = [list(c) for c in state.piles]
    reached = {_shape(state.rules, piles)}
    for earlier in reversed(state.turn_moves):
        _moved(piles, earlier, back=True)
        reached.add(_shape(state.rules, piles))
    after = [list(c) for c in state.piles]
    _moved(after, move)
    return _shape(state.rules, after) in reached


def _settle(rules: RuleSet, piles: Piles, reason: EndReason, ending: str | None = None) -> Outcome:
    scoring = rules.scoring
    if scoring is None:
        return Outcome(None, reason, None, ending)
    pen = [
        scoring.penalty(reserve=len(piles[16 + q]), hand=len(piles[18 + q]), waste=len(piles[20 + q]))
        for q in (0, 1)
    ]
    if pen[0] == pen[1]:
        return Outcome(None, reason, (0, 0), ending)
    winner = 0 if pen[0] < pen[1] else 1
    diff = abs(pen[0] - pen[1])
    return Outcome(winner, reason, (diff, 0) if winner == 0 else (0, diff), ending)


def reference_apply(state: GameState, move: Move) -> tuple[Any, ...]:
    """The fields of the state after ``move`` as RULES.md sections 6-11 and R8-R9 define them."""
    rules, p = state.rules, state.current_player
    piles = [list(c) for c in state.piles]
    drawn, passes, player = state.drawn, 0, p
    exhausted, played = list(state.exhausted), list(state.played)
    # Section 12: what the public history makes known.
    hand_known, reserve_known = list(state.hand_known), list(state.reserve_known)
    turn_moves = (*state.turn_moves, move) if not rules.revisits and _between_tableau(move) else ()
    if isinstance(move, Play):
        piles[move.target.id].append(piles[move.source.id].pop())
        if move.source in (Pile.reserve(p), Pile.waste(p)) and rules.stalemate:
            played[p], exhausted[p] = True, False
        if move.source is Pile.waste(p):
            drawn = False
        if move.target is Pile.reserve(1 - p):
            reserve_known[1 - p] += 1  # the covered card was face up
        if move.source is Pile.reserve(p):
            reserve_known[p] = max(0, reserve_known[p] - 1)
    elif isinstance(move, MoveStack):
        k = move.count
        piles[move.target.id] += piles[move.source.id][-k:]
        del piles[move.source.id][-k:]
    elif isinstance(move, Draw):
        hand, waste = Pile.hand(p).id, Pile.waste(p).id
        if not piles[hand]:
            piles[hand], piles[waste] = piles[waste][::-1], []
            hand_known[p] = True  # the waste was face up
            if rules.stalemate:
                exhausted[p], played[p] = not played[p], False
        card = piles[hand].pop()
        hand_known[p] = hand_known[p] and bool(piles[hand])
        piles[waste].append(card)
        frozen = tuple(tuple(c) for c in piles)
        if _targets(rules, frozen, p, card, Pile.waste(p)):
            drawn = True
        else:
            drawn, player = False, 1 - p
    else:
        drawn, player = False, 1 - p
        if isinstance(move, Pass):
            # R6: a pass made with this turn's drawn card still on the waste is not stuck.
            passes = 0 if state.drawn else state.passes + 1
            # R8: a pass with no hand and no waste is a turnover for the stalemate rule.
            if passes and rules.stalemate and not piles[Pile.hand(p).id] and not piles[Pile.waste(p).id]:
                exhausted[p], played[p] = not played[p], False
    count = state.move_count + 1
    final = tuple(tuple(c) for c in piles)
    memory = (tuple(hand_known), tuple(reserve_known), state.from_deal, turn_moves)
    after = GameState(
        rules, final, player, count, drawn, passes, tuple(exhausted), tuple(played), state.counters, *memory
    )
    counters = tuple(e.update(c, state, move, after) for e, c in zip(rules.endings, state.counters))
    outcome = None
    for q in (0, 1):
        if not (final[16 + q] or final[18 + q] or final[20 + q]):
            scores = None
            if rules.scoring is not None:
                loser = 1 - q
                won = rules.scoring.points_for_win(
                    reserve=len(final[16 + loser]), hand=len(final[18 + loser]), waste=len(final[20 + loser])
                )
                scores = (won, 0) if q == 0 else (0, won)
            outcome = Outcome(q, EndReason.EMPTIED, scores)
    # R9: emptying, then stalemate, then R6, then the rules' own endings, then the move limit.
    if outcome is None and rules.stalemate and all(exhausted):
        outcome = _settle(rules, final, EndReason.STALEMATE)
    if outcome is None and passes >= 2:
        outcome = _settle(rules, final, EndReason.BLOCKED)
    if outcome is None:
        counted = GameState(
            rules, final, player, count, drawn, passes, tuple(exhausted), tuple(played), counters, *memory
        )
        for ending, c in zip(rules.endings, counters):
            if ending.ends(c, counted):
                # An ending of the rules' own names itself in the outcome.
                outcome = _settle(rules, final, ending.reason, str(ending))
                break
    if outcome is None and rules.move_limit is not None and count >= rules.move_limit:
        outcome = _settle(rules, final, EndReason.MOVE_LIMIT)
    return (final, player, count, drawn, passes, tuple(exhausted), tuple(played), counters, *memory, outcome)


def _fields(state: GameState) -> tuple[Any, ...]:
    return (
        state.piles,
        state.current_player,
        state.move_count,
        state.drawn,
        state.passes,
        state.exhausted,
        state.played,
        state.counters,
        state.hand_known,
        state.reserve_known,
        state.from_deal,
        state.turn_moves,
        state.outcome,
    )


# ----------------------------------------------------------------------------
# The documented order of legal_moves


def _order_key(state: GameState, move: Move) -> tuple[int, ...]:
    if isinstance(move, Play):
        source = move.source
        rank = {PileKind.RESERVE: 0, PileKind.WASTE: 1}.get(source.kind, 2 + source.index)
        target = move.target
        if target.kind is PileKind.FOUNDATION:
            return (0, rank, target.index)
        if target.kind is PileKind.TABLEAU:
            return (1, rank, target.index)
        return (1, rank, 8 if target.kind is PileKind.RESERVE else 9)
    if isinstance(move, MoveStack):
        return (2, move.source.index, move.count, move.target.index)
    return (3 if isinstance(move, Draw) else 4 if isinstance(move, EndTurn) else 5,)


# ----------------------------------------------------------------------------
# Playing random games


def check_state(state: GameState) -> None:
    """Invariants of every state the engine produces."""
    validate(state)
    cards = [c for pile in state.piles for c in pile]
    assert len(cards) == len(set(cards)) == 104
    assert set(cards) == set(ALL_CARDS)
    for foundation in state.foundations:
        for i, card in enumerate(foundation):
            assert card.rank == i + 1 and card.suit is foundation[0].suit
    moves = legal_moves(state)
    assert state.is_over == (state.outcome is not None) == (moves == ())
    assert len(set(moves)) == len(moves)
    assert list(moves) == sorted(moves, key=lambda m: _order_key(state, m))
    if Pass() in moves:
        assert moves == (Pass(),)
    assert set(moves) == reference_legal_moves(state)


def walk(
    rules: RuleSet,
    seed: int,
    choice_seed: int,
    *,
    max_moves: int,
    positions_every: int = 0,
    illegal_per_state: int = 0,
) -> GameState:
    """Play a random game, checking every state and every move against the reference model."""
    rng = random.Random(choice_seed)
    state = new_game(rules, seed)
    check_state(state)
    while not state.is_over and state.move_count < max_moves:
        moves = legal_moves(state)
        snapshot = (str(state), hash(state), _fields(state))
        move = rng.choice(moves)
        after = apply_move(state, move)
        assert (str(state), hash(state), _fields(state)) == snapshot
        assert after.rules is rules
        assert _fields(after) == reference_apply(state, move)
        check_state(after)
        if positions_every and after.move_count % positions_every == 0:
            text = str(after)
            back = parse_position(text)
            assert back == after and hash(back) == hash(after)
            assert str(back) == text
        for other in rng.sample(ALL_MOVES, illegal_per_state):
            if other not in moves:
                try:
                    apply_move(state, other)
                except IllegalMoveError as exc:
                    assert str(exc).startswith(f"illegal move {other}: ") and len(str(exc)) > 25
                else:
                    raise AssertionError(f"{other} applied although not legal")
        state = after
    return state


@given(rules=any_rules, seed=seeds, choice_seed=st.integers(0, 2**32))
def test_random_games_follow_the_rules_and_keep_every_invariant(rules: RuleSet, seed: int, choice_seed: int) -> None:
    walk(rules, seed, choice_seed, max_moves=250, positions_every=1, illegal_per_state=3)


@settings(max_examples=examples(1 / 6))
@given(preset=st.sampled_from(["casual", "classic"]), seed=seeds, choice_seed=st.integers(0, 2**32))
def test_preset_games_played_to_the_end_follow_the_rules(preset: str, seed: int, choice_seed: int) -> None:
    rules = RuleSet.from_name(preset)
    final = walk(rules, seed, choice_seed, max_moves=10**6)
    assert final.is_over
    if preset == "casual":
        assert final.outcome is not None and final.outcome.scores is None
        assert final.move_count <= 1000


@settings(max_examples=examples(1 / 2))
@given(rules=any_rules, seed=seeds, choice_seed=st.integers(0, 2**32))
def test_every_move_not_in_legal_moves_is_refused(rules: RuleSet, seed: int, choice_seed: int) -> None:
    rng = random.Random(choice_seed)
    state = new_game(rules, seed)
    for _ in range(rng.randrange(0, 120)):
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))
    legal = set(legal_moves(state))
    before = str(state)
    for move in ALL_MOVES:
        if move in legal:
            assert apply_move(state, move).move_count == state.move_count + 1
        else:
            with pytest.raises(IllegalMoveError, match=f"^illegal move {move}: .+"):
                apply_move(state, move)
    assert str(state) == before


@given(rules=any_rules, seed=seeds)
def test_the_same_seed_deals_the_same_game(rules: RuleSet, seed: int) -> None:
    one, two = new_game(rules, seed), new_game(rules, seed)
    assert one == two and hash(one) == hash(two) and str(one) == str(two)
    rng_a, rng_b = random.Random(seed), random.Random(seed)
    for _ in range(30):
        if one.is_over:
            break
        one = apply_move(one, rng_a.choice(legal_moves(one)))
        two = apply_move(two, rng_b.choice(legal_moves(two)))
        assert one == two


@given(rules=any_rules, seed=seeds)
def test_a_new_game_is_valid_and_deals_from_both_shuffled_decks(rules: RuleSet, seed: int) -> None:
    state = new_game(rules, seed)
    check_state(state)
    size = rules.reserve_size
    for p in (0, 1):
        assert len(state.reserves[p]) == size
        assert len(state.hands[p]) == 48 - size
        assert all(c.deck == p for c in state.reserves[p] + state.hands[p])
    assert state.move_count == 0 and not state.drawn and state.passes == 0


@given(rules=rulesets(), data=st.data())
def test_evolving_one_option_keeps_the_others(rules: RuleSet, data: st.DataObject) -> None:
    field = data.draw(st.sampled_from([a.name for a in attrs.fields(RuleSet)]))
    other = data.draw(rulesets())
    try:
        changed = attrs.evolve(rules, **{field: getattr(other, field)})
    except InvalidRulesError:
        assert field in ("stack_moves", "own_tableau_build", "opponent_tableau_build")
        return
    for a in attrs.fields(RuleSet):
        expected = getattr(other if a.name == field else rules, a.name)
        assert getattr(changed, a.name) == expected


# ----------------------------------------------------------------------------
# Random hand-made positions: states that random play rarely reaches


def random_position(rules: RuleSet, rng: random.Random) -> GameState | None:
    """A random state under ``rules`` (None if the draw broke an invariant)."""
    pool = list(ALL_CARDS)
    rng.shuffle(pool)
    piles: list[list[Card]] = [[] for _ in range(22)]
    suits = rng.sample([(c.suit, c.deck) for c in ALL_CARDS if c.rank == 1], 8)
    for f, (suit, deck) in enumerate(suits):
        height = rng.choice([0, 0, 1, 2, 5, 12, 13])
        piles[f] = [Card(r, suit, deck) for r in range(1, height + 1)]
    used = {c for pile in piles for c in pile}
    pool = [c for c in pool if c not in used]
    builds = (rules.own_tableau_build, rules.opponent_tableau_build)
    for t in range(8, 16):
        if rng.random() < 0.3 or not pool:
            continue
        pile = [pool.pop()]
        for _ in range(rng.choice([0, 1, 2, 5, 12])):
            fits = [c for c in pool if any(b.accepts(pile[-1], c) for b in builds)]
            if not fits:
                break
            card = rng.choice(fits)
            pool.remove(card)
            pile.append(card)
        piles[t] = pile
    foreign = {16: LoadTarget.RESERVE in rules.load_targets, 18: LoadTarget.WASTE in rules.load_targets}
    foreign[20] = foreign[18]
    for card in pool:
        owner = card.deck
        kind = rng.choice([16, 18, 18, 20])
        if foreign[kind] and rng.random() < 0.1:
            owner = 1 - owner
        piles[kind + owner].append(card)
    for base in (16, 18, 20):
        for p in (0, 1):
            if rng.random() < 0.15:
                # Empty this pile into the owner's other personal piles where allowed.
                spill = piles[base + p]
                piles[base + p] = []
                piles[18 + p if base != 18 else 20 + p] += spill
    player = rng.randrange(2)
    drawn = bool(piles[20 + player]) and rng.random() < 0.4
    played = (rng.random() < 0.5, rng.random() < 0.5) if rules.stalemate else (False, False)
    exhausted = tuple(not played[p] and rng.random() < 0.3 and rules.stalemate for p in (0, 1))
    limit = rules.move_limit
    count = rng.randrange(limit) if limit else rng.randrange(5000)
    passes = 0 if drawn else rng.choice([0, 0, 1])
    counters = tuple(rng.randrange(3) for _ in rules.endings)
    try:
        return GameState(rules, piles, player, count, drawn, passes, exhausted, played, counters)
    except ValueError:
        return None


@settings(max_examples=examples(2))
@given(rules=any_rules, seed=st.integers(0, 2**32))
def test_legal_moves_and_their_results_match_the_reference_on_random_positions(rules: RuleSet, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(5):
        state = random_position(rules, rng)
        if state is None:
            continue
        check_state(state)
        for move in legal_moves(state):
            after = apply_move(state, move)
            assert _fields(after) == reference_apply(state, move)
            validate(after)
        for move in rng.sample(ALL_MOVES, 40):
            if move not in legal_moves(state):
                with pytest.raises(IllegalMoveError):
                    apply_move(state, move)


@settings(max_examples=examples(1 / 2))
@given(rules=any_rules, seed=seeds, choice_seed=st.integers(0, 2**32))
def test_explain_illegal_agrees_with_legal_moves_under_any_rules(rules: RuleSet, seed: int, choice_seed: int) -> None:
    # explain_illegal reads the rule parts' hooks; legal_moves the tables compiled
    # from them. For every move that exists, one finds nothing wrong exactly when
    # the other lists it.
    rng = random.Random(choice_seed)
    state = new_game(rules, seed)
    for _ in range(rng.randrange(0, 150)):
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))
    legal = set(legal_moves(state))
    for move in ALL_MOVES:
        assert (explain_illegal(state, move) == "") == (move in legal), move
