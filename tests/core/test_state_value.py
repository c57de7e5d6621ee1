"""A state is a value: what decides play lives in its fields, its equality, its hash and its position string.

Section 12 of the rules: what the public history showed, and under
``revisits=False`` the positions the turn has reached, are part of the state.
Two equal states play alike in every respect; a state's text rebuilds it.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import ALL_MOVES, examples, forget, random_states, turned_over
from crapette import (
    GameState,
    InvalidStateError,
    ParseError,
    RuleSet,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_move,
    parse_position,
    reveals,
    turn_ends,
    validate,
    view,
)
from crapette._views.view import determinize
from crapette.strategies import game_states, rulesets

NO_REVISITS = {name: attrs.evolve(RuleSet.from_name(name), revisits=False) for name in ("casual", "classic")}


def _ends(state: GameState) -> list[tuple[Any, ...]]:
    return [(e.moves, e.state) for e in turn_ends(state, limit=150)]


def assert_play_alike(s: GameState, t: GameState, *, ends: bool = True) -> None:
    """Everything the rules and the public API decide about a state is the same for ``s`` and ``t``."""
    assert s == t and hash(s) == hash(t) and str(s) == str(t)
    assert legal_moves(s) == legal_moves(t)
    assert view(s) == view(t) and view(s).to_dict() == view(t).to_dict()
    assert s.outcome == t.outcome
    for move in ALL_MOVES[::7]:
        assert explain_illegal(s, move) == explain_illegal(t, move)
        assert reveals(s, move) == reveals(t, move)
    for move in legal_moves(s):
        assert apply_move(s, move) == apply_move(t, move)
        assert reveals(s, move) == reveals(t, move)
    if ends and not s.is_over:
        assert _ends(s) == _ends(t)


# -- equal means equal ----------------------------------------------------------------


@settings(max_examples=examples(1 / 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=rulesets(), max_moves=150))
def test_a_state_read_back_from_its_position_string_plays_alike(state: GameState) -> None:
    back = parse_position(str(state))
    assert_play_alike(state, back)
    validate(state)


@settings(max_examples=examples(1 / 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=rulesets(), max_moves=150))
def test_a_pickled_or_rebuilt_state_plays_alike(state: GameState) -> None:
    fields = tuple(getattr(state, f.name) for f in attrs.fields(GameState))
    for other in (pickle.loads(pickle.dumps(state)), GameState(*fields), attrs.evolve(state)):
        assert_play_alike(state, other)


@settings(max_examples=examples(1 / 2), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=rulesets(), max_moves=150), seed=st.integers(0, 2**32))
def test_determinize_gives_a_state_whose_view_is_the_view(state: GameState, seed: int) -> None:
    v = view(state)
    world = determinize(v, random.Random(seed))
    assert view(world) == v
    assert legal_moves(world) == legal_moves(state)
    for move in legal_moves(state):
        assert reveals(world, move) == reveals(state, move)


@pytest.mark.parametrize("rules", ["casual", "classic", NO_REVISITS["casual"], NO_REVISITS["classic"]])
def test_equal_states_reached_by_different_moves_play_alike(rules: RuleSet | str) -> None:
    # Transpositions: different move orders that reach equal states (a dict keyed by
    # states then answers for both). Every pair found must play alike.
    found: dict[GameState, GameState] = {}
    pairs = 0
    for choice_seed in range(60):
        rng = random.Random(choice_seed)
        state = new_game(rules, seed=3)
        for _ in range(12):
            if state.is_over:
                break
            state = apply_move(state, rng.choice(legal_moves(state)))
            other = found.setdefault(state, state)
            if other is not state:
                pairs += 1
                assert_play_alike(state, other, ends=pairs < 30)
    assert pairs > 20


@pytest.mark.parametrize("name", ["casual", "classic"])
def test_states_of_real_games_round_trip_with_and_without_revisits(name: str) -> None:
    for rules in (RuleSet.from_name(name), NO_REVISITS[name]):
        for seed in range(3):
            for state in random_states(rules, seed, 1500)[::37]:
                back = parse_position(str(state))
                assert_play_alike(state, back, ends=False)
                assert view(determinize(view(state), random.Random(seed))) == view(state)


# -- what a position string remembers --------------------------------------------------


def test_the_memory_field_writes_the_deal_the_known_hands_and_reserves_and_the_turns_moves() -> None:
    assert str(new_game("classic", seed=1)).split()[-1] == "M:deal"
    _, after = turned_over("casual", 1)
    assert after.hand_known[0] and "h0" in str(after).split()[-1]
    loaded = next(
        s for s in random_states("classic", 0, 3000) if any(s.reserve_known)
    )
    assert f"r{loaded.reserve_known.index(max(loaded.reserve_known))}=" in str(loaded).split()[-1]
    state = apply_move(new_game(NO_REVISITS["classic"], seed=0), parse_move("T1-T2"))
    assert state.turn_moves == (parse_move("T1-T2"),)
    assert str(state).split()[-1] == "M:deal,T1-T2"
    assert parse_position(str(state)) == state
    # Nothing remembered: no memory field, as the positions of 0.2 wrote them.
    assert len(str(forget(state)).split()) == 9


def test_a_position_string_of_before_the_memory_reads_as_remembering_nothing() -> None:
    state = random_states("classic", 1, 400)[-1]
    old = " ".join(str(state).split()[:9])
    assert parse_position(old) == forget(state)


def _memory(text: str, memory: str) -> str:
    return " ".join(str(text).split()[:9]) + " " + memory


@pytest.mark.parametrize(
    ("memory", "problem"),
    [
        ("M:h0", "hand_known[0] is set but player 0's hand is empty"),
        ("M:r1=5", "reserve_known[1] is 5, but player 1's reserve has"),
        ("M:deal", "from_deal is set, but player 0's face-down cards that nobody has seen hold"),
        ("M:T0-T1", "turn_moves is kept only under revisits=false"),
    ],
)
def test_a_position_string_with_an_impossible_memory_is_refused(memory: str, problem: str) -> None:
    # A classic position whose hand 0 is empty, whose reserve 1 holds two cards, and whose
    # reserve 0 holds one of player 1's cards under its top, unseen.
    state = GameState.from_piles(
        "classic", reserves=["3S1 AS0", "2S0 4S1"], tableau={0: "KS0"}, wastes=["5S1"], rest="waste",
    )
    with pytest.raises(InvalidStateError, match=problem.replace("[", r"\[").replace("]", r"\]")):
        parse_position(_memory(str(state), memory))


def test_a_turn_move_that_does_not_fit_the_piles_or_was_not_legal_is_refused() -> None:
    # Classic seed 0 under revisits=false: T1-T2 puts QS0 on KH0 and empties T1.
    state = apply_move(new_game(NO_REVISITS["classic"], seed=0), parse_move("T1-T2"))
    base = " ".join(str(state).split()[:9])
    with pytest.raises(InvalidStateError, match=r"turn move 1 \(T1-T2x3\) does not fit the piles: T2 holds fewer than 3"):
        parse_position(base + " M:deal,T1-T2x3")
    # Taking T3-T2 back puts QS0 on 5H0, which no building rule allows.
    with pytest.raises(InvalidStateError, match="taking the turn's moves back gives an impossible position: .*QS0 on 5H0"):
        parse_position(base + " M:deal,T3-T2")
    # T1-T2, T2-T1, T1-T2: the second move recreates the position the turn started from.
    fields = base.split()
    fields[2] = "3"  # three moves made: the turn's
    later = " ".join(fields)
    with pytest.raises(InvalidStateError, match=r"turn move 2 \(T2-T1\) is not legal .* would recreate a position"):
        parse_position(later + " M:deal,T1-T2,T2-T1,T1-T2")
    with pytest.raises(InvalidStateError, match=r"turn_moves\[0\] is parse_move\('draw'\), not a move between two tableau piles"):
        parse_position(base + " M:deal,draw")
    # The same moves in another order passed through another position: another state, which
    # plays otherwise (T2-T1 goes back to the position after T3-T5, reached only in that order).
    both = apply_move(state, parse_move("T3-T5"))
    swapped = parse_position(" ".join(str(both).split()[:9]) + " M:deal,T3-T5,T1-T2")
    assert swapped != both and swapped.piles == both.piles
    assert parse_move("T2-T1") in legal_moves(both) and parse_move("T2-T1") not in legal_moves(swapped)


@pytest.mark.parametrize(
    ("memory", "message"),
    [
        ("M:", "expected M: followed by what the state remembers"),
        ("X:deal", "expected M: followed by what the state remembers"),
        ("M:deal,deal", "unexpected 'deal' at item 2"),
        ("M:r0=0", "a known reserve count is 1 to 103, got 0"),
        ("M:r0=x", "item 1 ('r0=x')"),
        ("M:T1-T2,h0", "unexpected 'h0' at item 2"),
        ("M:frog", "unexpected 'frog' at item 1"),
    ],
)
def test_a_malformed_memory_field_is_a_parse_error_naming_field_10(memory: str, message: str) -> None:
    text = _memory(str(new_game("classic", seed=2)), memory)
    with pytest.raises(ParseError, match="field 10") as info:
        parse_position(text)
    assert message in str(info.value)


def test_validate_refuses_a_memory_the_piles_make_impossible() -> None:
    state = new_game("casual", seed=1)
    # Casual never loads a reserve: no card can be known under a reserve's top.
    with pytest.raises(InvalidStateError, match="these rules never load a reserve"):
        attrs.evolve(state, reserve_known=(1, 0))
    with pytest.raises(InvalidStateError, match="hand_known must be a pair of bools"):
        attrs.evolve(state, hand_known=(1, 0))
    with pytest.raises(InvalidStateError, match="turn_moves must be a tuple of moves"):
        GameState(state.rules, state.piles, turn_moves=5)  # type: ignore[arg-type]
