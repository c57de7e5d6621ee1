"""The turn planner (turn_ends, reveals) and the revisits option."""

from __future__ import annotations

import random
from collections import deque

import attrs
import pytest
from hypothesis import HealthCheck, assume, given, settings

from crapette import (
    DEFAULT_TURN_LIMIT,
    Draw,
    EndTurn,
    GameState,
    IllegalMoveError,
    MoveStack,
    Pass,
    Play,
    RuleSet,
    TurnEnd,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_move,
    parse_position,
    reveals,
    view,
    turn_ends,
)
from conftest import draw_or_end, forget, random_states, turned_over
from crapette._core.shapes import pile_groups
from crapette.bots import GreedyBot
from crapette.strategies import game_states, presets, rulesets

R0 = 16


def _position(state: GameState) -> tuple[object, ...]:
    """A state's fields but the move count: what "the same position" means within a turn."""
    return (state.piles, state.current_player, state.drawn, state.passes, state.exhausted, state.played, state.counters)


def _canonical(state: GameState) -> tuple[object, ...]:
    """The position with interchangeable piles unordered, as turn_ends merges them."""
    groups = tuple(frozenset(state.piles[i] for i in group if state.piles[i]) for group in pile_groups(state.rules))
    return (*groups, state.piles[R0:], *_position(state)[1:])


def _keeps_turn_unrevealed(state: GameState, move: object) -> bool:
    if isinstance(move, (Play, MoveStack)):
        return not reveals(state, move)
    if isinstance(move, Draw) and not reveals(state, move):
        child = apply_move(state, move)
        return child.current_player == state.current_player or child.is_over
    return False


def _slow_reachable(state: GameState, cap: int) -> set[tuple[object, ...]] | None:
    """Every position reachable without a reveal, by plain breadth-first search (None past ``cap``)."""
    seen = {_position(state): state}
    queue = deque([state])
    while queue:
        here = queue.popleft()
        if here.is_over:
            continue
        for move in legal_moves(here):
            if not _keeps_turn_unrevealed(here, move):
                continue
            child = apply_move(here, move)
            key = _position(child)
            if key not in seen:
                seen[key] = child
                if len(seen) > cap:
                    return None
                queue.append(child)
    return {_canonical(s) for s in seen.values()}


# -- reveals ---------------------------------------------------------------


def test_reveals_a_draw_from_a_hand_never_turned_over_reveals_a_card() -> None:
    state = new_game("classic", seed=7)
    assert reveals(state, Draw())
    assert reveals(forget(turned_over("classic", 1)[1]), Draw())  # remembering nothing
    assert not reveals(parse_position(str(turned_over("classic", 1)[1])), Draw())  # its position string remembers


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_reveals_a_draw_that_turns_the_waste_over_reveals_nothing(rules: str) -> None:
    before, _ = turned_over(rules, 1)
    assert not before.hands[0] and before.wastes[0]
    assert not reveals(before, Draw())


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_reveals_a_draw_from_a_hand_formed_by_a_turnover_reveals_nothing(rules: str) -> None:
    _, state = turned_over(rules, 1)
    checked = 0
    while state.hands[0]:
        if state.current_player == 0 and Draw() in legal_moves(state):
            assert not reveals(state, Draw())
            checked += 1
        state = apply_move(state, draw_or_end(state))
    assert checked > 3


def test_reveals_a_reserve_play_uncovering_a_known_card_reveals_nothing() -> None:
    checked = 0
    for seed in range(8):
        for state in random_states("classic", seed, 3000):
            p = state.current_player
            known = len(view(state).known_reserve_cards[p])
            for move in legal_moves(state):
                if isinstance(move, Play) and move.source.id == R0 + p and len(state.reserves[p]) > 1:
                    assert reveals(state, move) == (known < 2)
                    checked += known >= 2
    assert checked


def test_reveals_a_reserve_play_reveals_the_next_reserve_card_only_when_one_lies_under_it() -> None:
    state = GameState.from_piles("classic", reserves=(["2H0", "AS0"], ["KD1"]), rest="hand")
    assert reveals(state, parse_move("R0-F0"))
    last = GameState.from_piles("classic", reserves=(["AS0"], ["KD1"]), rest="hand")
    assert not reveals(last, parse_move("R0-F0"))


def test_reveals_tableau_waste_end_turn_and_pass_reveal_nothing() -> None:
    state = new_game("classic", seed=7)
    for text in ("T0-T1", "W0-T1", "T1-R1", "end", "pass", "T0-T1x2"):
        assert not reveals(state, parse_move(text)), text


# -- turn_ends -------------------------------------------------------------


def _known_hand_draws(count: int) -> list[GameState]:
    """States whose player to move may draw a card from a known hand that can be played."""
    found: list[GameState] = []
    for seed in range(20):
        state = turned_over("classic", seed)[1]
        while not state.is_over and state.move_count < 600:
            if Draw() in legal_moves(state) and not reveals(state, Draw()) and state.hands[state.current_player]:
                if apply_move(state, Draw()).current_player == state.current_player:
                    found.append(state)
                    if len(found) == count:
                        return found
            state = apply_move(state, draw_or_end(state))
    return found


def test_turn_ends_go_on_after_a_draw_from_a_known_hand_whose_card_can_be_played() -> None:
    states = _known_hand_draws(3)
    assert len(states) == 3
    for state in states:
        ends = turn_ends(state)
        after = apply_move(state, Draw())
        assert any(e.moves[:1] == (Draw(),) for e in ends)
        assert _canonical(after) in {_canonical(e.state) for e in ends}
        _assert_sound(state, ends)


def test_turn_ends_find_every_position_reachable_without_a_reveal_after_a_turnover() -> None:
    # The slow search follows the same rule: a Draw from a known hand whose card can be played keeps the turn.
    checked = drew = 0
    for seed in range(10):
        state = turned_over("classic", seed)[1]
        while not state.is_over and state.move_count < 300 and checked < 25:
            if Draw() in legal_moves(state) and not reveals(state, Draw()) and state.hands[state.current_player]:
                slow = _slow_reachable(state, cap=200)
                if slow is not None:
                    ends = turn_ends(state)
                    assert ends.complete and {_canonical(e.state) for e in ends} == slow
                    checked += 1
                    drew += any(Draw() in e.moves for e in ends)
            state = apply_move(state, draw_or_end(state))
    assert checked >= 15 and drew >= 3, (checked, drew)


def test_turn_ends_stop_at_a_draw_whose_card_cannot_be_played() -> None:
    checked = 0
    for state in random_states("classic", 2, 3000):
        if Draw() in legal_moves(state) and not reveals(state, Draw()):
            if apply_move(state, Draw()).current_player != state.current_player:
                assert all(e.moves[:1] != (Draw(),) for e in turn_ends(state, limit=50))
                checked += 1
    assert checked


def test_turn_ends_start_with_the_state_itself() -> None:
    state = new_game("classic", seed=7)
    ends = turn_ends(state)
    assert ends[0] == TurnEnd((), state)
    assert ends.complete


def test_turn_ends_of_a_finished_game_is_the_game_itself() -> None:
    state = new_game("casual(move_limit=1)", seed=1)
    state = apply_move(state, legal_moves(state)[0])
    assert state.is_over
    assert [e.state for e in turn_ends(state)] == [state]


def test_turn_ends_are_in_breadth_first_order() -> None:
    ends = turn_ends(new_game("classic", seed=11))
    lengths = [len(e.moves) for e in ends]
    assert lengths == sorted(lengths)


def test_turn_ends_stop_at_the_limit_and_say_so() -> None:
    state = _busy_state()
    full = turn_ends(state)
    assert len(full) > 5
    cut = turn_ends(state, limit=5)
    assert len(cut) == 5 and not cut.complete
    assert list(cut) == list(full[:5])


@pytest.mark.parametrize("limit", [0, -1, 2.5, True, "10"])
def test_turn_ends_refuse_a_bad_limit(limit: object) -> None:
    with pytest.raises(ValueError, match="limit"):
        turn_ends(new_game("classic"), limit=limit)  # type: ignore[arg-type]


def test_turn_ends_refuse_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="turn_ends"):
        turn_ends("classic")  # type: ignore[arg-type]


def test_turn_ends_merge_a_lone_card_moved_between_empty_houses() -> None:
    state = GameState.from_piles(
        "classic", tableau={0: ["9H0"]}, reserves=(["KS0", "QS0"], ["KD1", "QD1"]), rest="hand"
    )
    ends = turn_ends(state)
    # 9H0 may sit in any of the eight houses: one position for the classic rules.
    assert len(ends) == 1


def test_turn_ends_keep_apart_casual_piles_of_different_owners() -> None:
    state = GameState.from_piles(
        "casual", tableau={0: ["9H0"]}, reserves=(["KS0", "QS0"], ["KD1", "QD1"]), rest="hand"
    )
    # Own piles 0-3 are alike, but 4-7 build by suit for player 0: 9H0 there is another position.
    assert len(turn_ends(state)) == 2


def _busy_state() -> GameState:
    state = new_game("classic", seed=3)
    bot = GreedyBot()
    while len(turn_ends(state)) < 30:
        state = apply_move(state, bot.choose(state))
    return state


def _assert_sound(state: GameState, ends: tuple[TurnEnd, ...]) -> None:
    keys = set()
    for end in ends:
        here = state
        for move in end.moves:
            assert _keeps_turn_unrevealed(here, move)
            here = apply_move(here, move)
        assert here == end.state
        key = _canonical(end.state)
        assert key not in keys, "two ends are the same position"
        keys.add(key)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=presets() | rulesets(), max_moves=150))
def test_turn_ends_every_sequence_applies_and_no_two_ends_are_equal(state: GameState) -> None:
    _assert_sound(state, turn_ends(state, limit=150))


def test_turn_ends_keep_a_position_that_differs_from_the_start_only_in_the_pass_count() -> None:
    # The opponent has just passed: moving a card away and back leaves the same
    # piles with no pass pending, where a Pass no longer ends the game (R6).
    state = parse_position(
        "casual(reserve_size=47,move_limit=none,load_build=down-alternating) 1 3 p F:-/-/-/-/-/-/-/"
        "- T:5H0/3H0/9H0/4H0,3S0/TD1/5C1/TS1/9C1 R:KC0,4D0,7S0,KH0,TC0,5S0,6H0,4S0,JC0,6C0,TH0,KD0,"
        "AD0,2D0,2H0,AC0,8D0,9C0,5C0,9S0,7C0,6S0,TS0,AH0,QH0,JS0,8C0,4C0,3C0,TD0,5D0,QC0,QS0,6D0,JD"
        "0,8H0,2C0,JH0,7H0,2S0,7D0,9D0,QD0,AS0,8S0,3D0,KS0/8S1,6S1,8H1,JD1,3C1,2S1,QD1,7D1,QC1,KD1,"
        "7H1,2H1,QS1,9D1,4H1,AC1,4D1,8C1,9S1,8D1,3S1,5S1,KC1,JH1,2D1,JS1,JC1,TC1,3H1,3D1,2C1,QH1,AS"
        "1,AD1,KS1,KH1,6C1,6D1,5H1,7C1,9H1,5D1,4S1,7S1,TH1,6H1,AH1 H:-/4C1 W:-/-"
    )
    assert state.passes == 1
    ends = turn_ends(state)
    back = [e for e in ends if e.state.piles == state.piles and e.state.passes == 0]
    assert [[str(m) for m in e.moves] for e in back] == [["T7-T4", "T4-T7"]]
    assert {_canonical(e.state) for e in ends} == _slow_reachable(state, cap=600)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(state=game_states(rules=presets() | rulesets(), max_moves=150))
def test_turn_ends_find_every_position_reachable_without_a_reveal(state: GameState) -> None:
    slow = _slow_reachable(state, cap=600)
    assume(slow is not None)
    assert slow is not None
    ends = turn_ends(state)
    assert ends.complete
    assert {_canonical(e.state) for e in ends} == slow


def test_turn_ends_find_every_position_over_greedy_games() -> None:
    checked = 0
    for rules in ("classic", "casual"):
        state = new_game(rules, seed=5)
        bot = GreedyBot()
        while not state.is_over and state.move_count < 250:
            slow = _slow_reachable(state, cap=300)
            if slow is not None:
                ends = turn_ends(state)
                assert {_canonical(e.state) for e in ends} == slow
                checked += 1
            state = apply_move(state, bot.choose(state))
    assert checked > 80


# -- the revisits option ---------------------------------------------------


def test_revisits_is_allowed_in_both_presets() -> None:
    assert RuleSet.classic().revisits and RuleSet.casual().revisits
    assert str(attrs.evolve(RuleSet.classic(), revisits=False)) == "classic(revisits=false)"


def _no_revisits(rules: str) -> RuleSet:
    return attrs.evolve(RuleSet.from_name(rules), revisits=False)


def test_revisits_false_forbids_moving_a_card_straight_back() -> None:
    state = new_game(_no_revisits("casual"), seed=1)
    after = apply_move(state, parse_move("T1-T0"))
    back = parse_move("T0-T1")
    assert back in legal_moves(apply_move(new_game("casual", seed=1), parse_move("T1-T0")))
    assert back not in legal_moves(after)
    assert "already reached in this turn" in explain_illegal(after, back)
    with pytest.raises(IllegalMoveError, match="revisits=false"):
        apply_move(after, back)


@pytest.mark.parametrize("rules", ["classic", "casual"])
def test_revisits_false_no_position_repeats_within_a_turn(rules: str) -> None:
    for seed in range(8):
        state = new_game(_no_revisits(rules), seed=seed)
        rng = random.Random(seed)
        segment = {_position(state)}
        while not state.is_over and state.move_count < 1500:
            move = rng.choice(legal_moves(state))
            after = apply_move(state, move)
            if after.current_player != state.current_player or reveals(state, move):
                segment = set()
            key = _position(after)
            assert key not in segment, f"{move} recreated a position at move {after.move_count}"
            segment.add(key)
            state = after


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=presets(), max_moves=120))
def test_revisits_false_removes_no_reachable_end_of_a_turn(state: GameState) -> None:
    free = turn_ends(state, limit=500)
    assume(free.complete)
    strict = attrs.evolve(state, rules=attrs.evolve(state.rules, revisits=False))
    assert {_canonical(e.state) for e in turn_ends(strict)} == {
        _canonical(attrs.evolve(e.state, rules=strict.rules)) for e in free
    }


def test_revisits_false_a_shuttling_player_must_move_on() -> None:
    # Always picking the first tableau-to-tableau move under revisits=false
    # leaves the turn within as many moves as the turn has distinct positions.
    state = new_game(_no_revisits("classic"), seed=2)
    for _ in range(200):
        player = state.current_player
        steps = 0
        while state.current_player == player and not state.is_over:
            legal = legal_moves(state)
            shuffles = [m for m in legal if isinstance(m, (Play, MoveStack)) and 8 <= m.source.id < 16 and 8 <= m.target.id < 16]
            state = apply_move(state, (shuffles or list(legal))[0])
            steps += 1
            assert steps <= 5000
        if state.is_over:
            break
    assert state.move_count > 200


def test_turn_ends_stop_at_the_default_limit() -> None:
    state = _busy_state()
    assert len(turn_ends(state)) <= DEFAULT_TURN_LIMIT == 2000
    assert isinstance(EndTurn(), EndTurn) and isinstance(Pass(), Pass)



def test_turn_ends_limit_is_bounded() -> None:
    from crapette import MAX_TURN_LIMIT

    state = new_game("classic", seed=7)
    assert len(turn_ends(state, limit=MAX_TURN_LIMIT)) <= MAX_TURN_LIMIT
    for limit in (0, MAX_TURN_LIMIT + 1, 10**30):
        with pytest.raises(ValueError, match="limit must be an int from 1 to 20,000"):
            turn_ends(state, limit=limit)
