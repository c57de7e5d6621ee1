"""GameState: construction, validation of every invariant, accessors, Outcome."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
from typing import Any

import attrs
import pytest

import crapette
from conftest import cards, make_state, run
from crapette import (
    ALL_PILES,
    Card,
    EndReason,
    GameRecord,
    GameState,
    InvalidStateError,
    Outcome,
    Pile,
    RecordError,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_card,
    parse_position,
    validate,
)

CASUAL = RuleSet.casual()
CLASSIC = RuleSet.classic()


def base_piles(rules: RuleSet = CASUAL, seed: int = 5) -> list[list[Card]]:
    """The piles of a fresh deal as mutable lists, for breaking on purpose."""
    return [list(p) for p in new_game(rules, seed).piles]


def problems_of(rules: RuleSet, piles: Any, **fields: Any) -> tuple[str, ...]:
    with pytest.raises(InvalidStateError) as info:
        GameState(rules, piles, **fields)
    assert isinstance(info.value, ValueError)
    return info.value.problems


def move_card(piles: list[list[Card]], text: str, target: int) -> None:
    card = parse_card(text)
    for pile in piles:
        if card in pile:
            pile.remove(card)
    piles[target].append(card)


# ----------------------------------------------------------------------------
# Every invariant, with its documented message


def test_a_duplicated_card_is_reported_with_both_piles() -> None:
    piles = base_piles()
    piles[0].append(piles[16][0])  # a reserve card also on F0 (and it is no Ace)
    problems = problems_of(CASUAL, piles)
    assert f"card {piles[16][0]} is in both F0 and R0" in problems


def test_missing_cards_are_listed() -> None:
    piles = base_piles()
    gone = piles[18][:3]
    del piles[18][:3]
    (problem,) = problems_of(CASUAL, piles)
    assert problem.startswith("3 card(s) missing: ")
    assert set(problem.split(": ")[1].split()) == {str(c) for c in gone}


def test_many_missing_cards_are_abbreviated() -> None:
    piles = base_piles()
    piles[18] = []
    (problem,) = problems_of(CASUAL, piles)
    assert problem.startswith("36 card(s) missing: ") and problem.endswith(" ...")


def test_a_foundation_must_start_with_an_ace() -> None:
    piles = base_piles()
    move_card(piles, "2H0", 3)
    assert "foundation F3 starts with 2H0, not an Ace" in problems_of(CASUAL, piles)


def test_a_foundation_must_build_up_in_suit() -> None:
    piles = base_piles()
    for text in ("AH0", "2H0", "3D0"):
        move_card(piles, text, 1)
    assert "foundation F1 has 3D0 on 2H0" in problems_of(CASUAL, piles)
    piles = base_piles()
    for text in ("AH0", "3H0"):
        move_card(piles, text, 1)
    assert "foundation F1 has 3H0 on AH0" in problems_of(CASUAL, piles)


def test_a_tableau_pile_must_follow_a_building_rule() -> None:
    piles = base_piles()
    piles[18] += piles[11]
    piles[11] = []
    for text in ("9S0", "8S0"):
        move_card(piles, text, 11)
    # Casual builds either down in alternating colours or by suit: 8S on 9S is fine.
    GameState(CASUAL, piles)
    # Classic builds only down in alternating colours.
    classic = base_piles(CLASSIC)
    classic[18] += classic[11]
    classic[11] = []
    for text in ("9S0", "8S0"):
        move_card(classic, text, 11)
    assert problems_of(CLASSIC, classic) == ("tableau pile T3 has 8S0 on 9S0, which no building rule allows",)
    piles = base_piles()
    piles[19] += piles[12]
    piles[12] = []
    for text in ("9S0", "7H0"):
        move_card(piles, text, 12)
    assert "tableau pile T4 has 7H0 on 9S0, which no building rule allows" in problems_of(CASUAL, piles)


def test_foreign_cards_in_personal_piles_only_where_loading_puts_them() -> None:
    for target, name in ((16, "reserve"), (18, "hand"), (20, "waste")):
        piles = base_piles()
        move_card(piles, "5H1", target)
        assert f"player 0's {name} holds 5H1 from the other deck, which these rules never put there" in problems_of(CASUAL, piles)
        classic = base_piles(CLASSIC)
        move_card(classic, "5H1", target)
        GameState(CLASSIC, classic)  # loading puts them there
    waste_only = attrs.evolve(CLASSIC, load_targets=("waste",))
    piles = base_piles(waste_only)
    move_card(piles, "5H1", 16)
    assert any("reserve holds 5H1" in p for p in problems_of(waste_only, piles))
    reserve_only = attrs.evolve(CLASSIC, load_targets=("reserve",))
    piles = base_piles(reserve_only)
    move_card(piles, "5H1", 18)
    assert any("hand holds 5H1" in p for p in problems_of(reserve_only, piles))


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"current_player": 2}, "current_player must be 0 or 1, got 2"),
        ({"current_player": True}, "current_player must be 0 or 1, got True"),
        ({"move_count": -1}, "move_count must be an int >= 0, got -1"),
        ({"move_count": 1.5}, "move_count must be an int >= 0, got 1.5"),
        ({"move_count": 1001}, "move_count 1001 is past the move limit 1000"),
        ({"passes": 3}, "passes must be 0, 1 or 2, got 3"),
        ({"passes": -1}, "passes must be 0, 1 or 2, got -1"),
        ({"drawn": 1}, "drawn must be True or False, got 1"),
        ({"exhausted": (True,)}, "exhausted must be a pair of bools, got (True,)"),
        ({"exhausted": (1, 0)}, "exhausted must be a pair of bools, got (1, 0)"),
        ({"played": (False, False, False)}, "played must be a pair of bools"),
        ({"drawn": True}, "drawn is set but player 0's waste is empty"),
        ({"exhausted": (True, False)}, "exhausted and played marks are kept only under the stalemate rule"),
        ({"played": (False, True)}, "exhausted and played marks are kept only under the stalemate rule"),
    ],
)
def test_counters_out_of_range_or_inconsistent(fields: dict[str, Any], problem: str) -> None:
    problems = problems_of(CASUAL, base_piles(), **fields)
    assert len(problems) == 1 and problems[0].startswith(problem)


def test_a_player_cannot_be_exhausted_and_have_played_since_the_turnover() -> None:
    rules = attrs.evolve(CASUAL, stalemate=True)
    problems = problems_of(rules, base_piles(), exhausted=(True, False), played=(True, False))
    assert list(problems) == ["player 0 is marked exhausted but has played a card since the turnover"]


def test_drawn_cannot_follow_a_pass() -> None:
    piles = base_piles()
    move_card(piles, piles[18][-1].__str__(), 20)
    assert "drawn is set although the last move was a pass" in problems_of(CASUAL, piles, drawn=True, passes=1)


def test_both_players_cannot_have_emptied_their_piles() -> None:
    foundations = [cards(run(f"{suit}{deck}", 1, 13)) for deck in (0, 1) for suit in "CDHS"]
    piles = foundations + [()] * 14
    assert problems_of(CASUAL, piles) == ("both players have emptied reserve, hand and waste",)


def test_structural_problems() -> None:
    with pytest.raises(InvalidStateError, match="rules must be a RuleSet or a rules text"):
        GameState(5, base_piles())  # type: ignore[arg-type]
    assert GameState("casual", base_piles()).rules is CASUAL
    assert problems_of(CASUAL, base_piles()[:21])[0].startswith("piles must be 22 sequences of cards")
    piles: list[Any] = base_piles()
    piles[9] = piles[9] + ["AH0"]
    assert problems_of(CASUAL, piles) == ("pile T1 holds 'AH0', which is not a Card",)
    assert problems_of(CASUAL, 5)[0].startswith("piles must be 22 sequences")


def test_invalid_state_error_lists_every_problem() -> None:
    piles = base_piles()
    move_card(piles, "2H0", 0)  # F0 starts with a Two
    piles[2].append(piles[16][-1])  # a duplicate
    move_card(piles, "5H1", 16)  # a foreign card in a casual reserve
    with pytest.raises(InvalidStateError) as info:
        GameState(CASUAL, piles, drawn=True, exhausted=(False, True), played=(False, True))
    problems = info.value.problems
    assert len(problems) == 7
    assert "exhausted and played marks are kept only under the stalemate rule, which is off" in problems
    assert "foundation F0 starts with 2H0, not an Ace" in problems
    assert any(p.startswith("card ") and "is in both" in p for p in problems)
    assert any("foundation F2 starts with" in p for p in problems)
    assert "player 0's reserve holds 5H1 from the other deck, which these rules never put there" in problems
    assert "drawn is set but player 0's waste is empty" in problems
    assert "player 1 is marked exhausted but has played a card since the turnover" in problems
    message = str(info.value)
    assert message.startswith("invalid state (7 problems): ")
    assert all(p in message for p in problems)


def test_one_problem_message() -> None:
    error = InvalidStateError(["x is wrong"])
    assert str(error) == "invalid state: x is wrong" and error.problems == ("x is wrong",)


def test_validate_passes_silently_on_valid_states_and_reports_broken_ones() -> None:
    state = new_game(CLASSIC, 3)
    validate(state)  # passes silently
    broken = new_game(CLASSIC, 3)
    object.__setattr__(broken, "current_player", 7)
    with pytest.raises(InvalidStateError, match="current_player must be 0 or 1, got 7"):
        validate(broken)


def test_evolve_validates() -> None:
    state = new_game(CASUAL, 1)
    assert attrs.evolve(state, current_player=1).current_player == 1
    with pytest.raises(InvalidStateError, match="passes must be 0, 1 or 2"):
        attrs.evolve(state, passes=5)


# ----------------------------------------------------------------------------
# Construction


def test_user_input_is_never_modified_and_never_shared() -> None:
    piles = base_piles()
    copy = [list(p) for p in piles]
    state = GameState(CASUAL, piles)
    assert piles == copy
    assert all(isinstance(p, tuple) for p in state.piles) and isinstance(state.piles, tuple)
    piles[18].pop()
    assert len(state.hands[0]) == 36
    exhausted = [False, False]
    state = GameState(CASUAL, copy, exhausted=exhausted)
    assert state.exhausted == (False, False) and isinstance(state.exhausted, tuple)


def test_from_piles_groups_by_kind_and_leaves_missing_piles_empty() -> None:
    deal = new_game(CASUAL, 8)
    groups = {
        "tableau": [list(t) for t in deal.tableau],
        "reserves": [list(r) for r in deal.reserves],
        "hands": [list(h) for h in deal.hands],
    }
    before = {k: [list(p) for p in v] for k, v in groups.items()}
    state = GameState.from_piles(CASUAL, from_deal=True, **groups)  # type: ignore[arg-type]
    assert state == deal
    assert groups == before
    assert state.foundations == ((),) * 8 and state.wastes == ((), ())
    with pytest.raises(InvalidStateError, match="foundations takes at most 8 piles, got 9"):
        GameState.from_piles(CASUAL, foundations=[()] * 9)
    with pytest.raises(InvalidStateError, match="wastes takes at most 2 piles, got 3"):
        GameState.from_piles(CASUAL, wastes=[()] * 3)


def test_from_piles_passes_the_counters_on() -> None:
    deal = new_game(CLASSIC, 8)
    state = GameState.from_piles(
        CLASSIC,
        tableau=deal.tableau,
        reserves=deal.reserves,
        hands=deal.hands,
        current_player=1,
        move_count=12,
        passes=1,
        exhausted=(True, False),
        played=(False, True),
    )
    assert (state.current_player, state.move_count, state.passes, state.exhausted, state.played) == (
        1,
        12,
        1,
        (True, False),
        (False, True),
    )


def test_equal_states_are_equal_and_hash_alike() -> None:
    a, b = new_game(CLASSIC, 9), new_game(CLASSIC, 9)
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    c = apply_move(a, legal_moves(a)[0])
    assert c != a
    assert new_game(CASUAL, 9) != new_game(attrs.evolve(CASUAL, move_limit=999), 9)


# ----------------------------------------------------------------------------
# Accessors and Outcome


def test_accessors() -> None:
    state = make_state(CASUAL, foundations={2: "AC1"}, tableau={5: "9D0 8S1"}, reserves={0: "QH0"}, wastes={1: "4C1 5C1"})
    assert state.piles[0:8] == state.foundations and state.foundations[2] == cards("AC1")
    assert state.tableau[5] == cards("9D0 8S1") and state.piles[8:16] == state.tableau
    assert state.reserves == (cards("QH0"), ()) and state.piles[16:18] == state.reserves
    assert state.hands == state.piles[18:20] and len(state.hands[0]) == 50
    assert state.wastes == ((), cards("4C1 5C1"))
    assert state.cards(Pile.tableau(5)) == cards("9D0 8S1")
    assert state.top(Pile.waste(1)) == parse_card("5C1")
    assert state.top(Pile.waste(0)) is None
    for pile in ALL_PILES:
        assert state.cards(pile) is state.piles[pile.id]
    assert (Pile.foundation(3).owner, Pile.tableau(2).owner, Pile.tableau(6).owner, Pile.hand(1).owner) == (None, 0, 1, 1)
    assert state.outcome is None and not state.is_over


def test_outcome() -> None:
    win = Outcome(1, EndReason.EMPTIED, (0, 47))
    assert str(win) == "player 1 wins (emptied), 0-47" and not win.is_draw
    draw = Outcome(None, EndReason.MOVE_LIMIT)
    assert str(draw) == "draw (move-limit)" and draw.is_draw and draw.scores is None
    assert str(Outcome(None, EndReason.STALEMATE, (0, 0))) == "draw (stalemate), 0-0"
    assert Outcome(0, EndReason.BLOCKED, (2, 0)) == Outcome(0, EndReason.BLOCKED, (2, 0))
    assert {r.value for r in EndReason} == {"emptied", "stalemate", "blocked", "move-limit"}
    assert str(EndReason.BLOCKED) == "blocked"
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        win.winner = 0  # type: ignore[misc]


def test_states_are_immutable() -> None:
    state = new_game(CASUAL, 0)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        state.current_player = 1  # type: ignore[misc]
    assert isinstance(state.piles, tuple) and all(isinstance(p, tuple) for p in state.piles)


# The raw constructor ----------------------------------------------------------------------


def test_the_raw_constructor_takes_the_fields_in_the_order_the_class_declares_them() -> None:
    import inspect

    from crapette._core.state import raw_state

    names = [field.name for field in attrs.fields(GameState)]
    assert list(inspect.signature(raw_state).parameters)[: len(names)] == names
    state = apply_move(new_game(CLASSIC, 4), legal_moves(new_game(CLASSIC, 4))[0])
    raw = raw_state(*(getattr(state, name) for name in names))
    assert raw == state and hash(raw) == hash(state)
    assert raw.outcome is None and legal_moves(raw) == legal_moves(state)
    validate(raw)


def test_a_state_unpickles_through_the_raw_constructor_and_old_pickles_still_load() -> None:
    import pickle

    from crapette._core import state as _state

    state = new_game(CASUAL, 2)
    rebuild, args = state.__reduce__()
    fields = len(attrs.fields(GameState))
    # The fields and the outcome: the engine's list is rebuilt on demand.
    assert rebuild is _state.restore_state and len(args) == fields + 1
    assert rebuild(*args) == state == pickle.loads(pickle.dumps(state))
    # Pickles of 0.2 name _raw_state or _restore, with the nine fields of then and the outcome
    # (and maybe more); they load as states that remember nothing.
    old = _state._restore(*args[:9], state.outcome)
    assert old == attrs.evolve(state, from_deal=False) and _state._raw_state(*args[:9], None) == old


# Pickling and copying ----------------------------------------------------------------------------


_PICKLE_A_HASHED_STATE = """
import pickle, sys
from crapette import apply_move, legal_moves, new_game
state = new_game("classic", seed=3)
state = apply_move(state, legal_moves(state)[0])
hash(state)
sys.stdout.buffer.write(pickle.dumps(state))
"""


def test_a_state_pickled_in_another_process_hashes_like_an_equal_state() -> None:
    # Python salts str hashes per process, so a cached hash must not travel in a pickle.
    salt = "2" if os.environ.get("PYTHONHASHSEED") == "1" else "1"
    data = subprocess.run(
        [sys.executable, "-c", _PICKLE_A_HASHED_STATE],
        env={**os.environ, "PYTHONHASHSEED": salt},
        capture_output=True,
        check=True,
    ).stdout
    loaded = pickle.loads(data)
    fresh = new_game("classic", seed=3)
    fresh = apply_move(fresh, legal_moves(fresh)[0])
    assert loaded == fresh
    assert hash(loaded) == hash(fresh)
    assert loaded in {fresh}


def test_a_pickled_or_copied_state_plays_on_exactly_like_the_original() -> None:
    state = new_game("classic", seed=5)
    for _ in range(40):
        state = apply_move(state, legal_moves(state)[-1])
    for other in (pickle.loads(pickle.dumps(state)), copy.copy(state), copy.deepcopy(state)):
        assert other == state and hash(other) == hash(state)
        assert other.outcome == state.outcome
        assert legal_moves(other) == legal_moves(state)
        for move in legal_moves(state):
            assert apply_move(other, move) == apply_move(state, move)


def test_a_pickled_finished_state_keeps_its_outcome() -> None:
    state = parse_position(str(new_game("casual", seed=1)).replace("casual 0 0 -", "casual 0 0 pp"))
    assert state.outcome is not None
    assert pickle.loads(pickle.dumps(state)).outcome == state.outcome


def test_the_engines_caches_are_not_fields_and_not_shared_between_states() -> None:
    state = new_game("classic", seed=2)
    legal_moves(state)
    assert set(attrs.asdict(state, recurse=False)) == {
        "rules", "piles", "current_player", "move_count", "drawn", "passes", "exhausted", "played", "counters",
        "hand_known", "reserve_known", "from_deal", "turn_moves",
    }
    after = apply_move(state, legal_moves(state)[0])
    before = list(state._engine)
    legal_moves(after)
    hash(after)
    assert after._engine is not state._engine
    assert state._engine == before  # filling the next state's caches changed nothing of this one
    assert all(type(value) is not list for value in after._engine)


# What the constructors refuse --------------------------------------------------------------------


HUGE = 10**5000


class _EvilInt(int):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = int.__hash__


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"winner": 2, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": True, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": 1.0, "reason": EndReason.EMPTIED}, "winner must be 0, 1 or None"),
        ({"winner": 0, "reason": "won"}, "reason must be"),
        ({"winner": 0, "reason": None}, "reason must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": (1, 2, 3)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": (-1, 0)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": ("1", 0)}, "scores must be"),
        ({"winner": 0, "reason": EndReason.EMPTIED, "scores": 30}, "scores must be"),
    ],
)
def test_an_outcome_refuses_values_that_are_not_an_outcome(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Outcome(**kwargs)  # type: ignore[arg-type]


def test_an_outcome_reads_its_reason_from_the_documented_string() -> None:
    outcome = Outcome(0, "emptied", [53, 0])
    assert outcome == Outcome(0, EndReason.EMPTIED, (53, 0))
    assert str(outcome) == "player 0 wins (emptied), 53-0"


def test_validate_refuses_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="GameState"):
        validate(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("pile", ["T0", 8, None])
def test_cards_and_top_refuse_what_is_not_a_pile(pile: object) -> None:
    state = new_game("casual", seed=1)
    with pytest.raises(TypeError, match="parse_pile"):
        state.cards(pile)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="parse_pile"):
        state.top(pile)  # type: ignore[arg-type]
    assert state.top(Pile.tableau(0)) is state.cards(Pile.tableau(0))[-1]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: GameState(CLASSIC, (0,) * 22), "piles must be 22 sequences of cards"),
        (lambda: GameState(CLASSIC, "piles"), "piles must be 22 sequences of cards"),
        (lambda: GameState.from_piles(CLASSIC, tableau=[1, 2]), "tableau[0] must be cards or a string of card notations, got int"),
        (lambda: GameState.from_piles(CLASSIC, tableau=5), "tableau must be a sequence of piles or a mapping"),
        (lambda: GameState.from_piles(CLASSIC, tableau=[[1]]), "tableau[0] holds int 1, which is not a card"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, _EvilInt(5)), "current_player must be 0 or 1, got 5"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, 0, _EvilInt(5)), "move_count must be an int >= 0"),
        (lambda: GameState(CLASSIC, new_game(CLASSIC, seed=1).piles, drawn=1), "drawn must be True or False, got 1"),
        (lambda: GameState(5, new_game(CLASSIC, seed=1).piles), "rules must be a RuleSet or a rules text"),  # type: ignore[arg-type]
    ],
)
def test_every_bad_construction_of_a_state_raises_invalid_state_error(build: object, message: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        build()  # type: ignore[operator]
    assert message in str(info.value)


def test_an_int_subclass_is_not_taken_for_a_player() -> None:
    class Index(int):
        pass

    piles = new_game(CLASSIC, seed=1).piles
    with pytest.raises(InvalidStateError, match="current_player must be 0 or 1"):
        GameState(CLASSIC, piles, Index(0))


def test_a_state_or_outcome_with_a_number_too_large_is_refused_clearly() -> None:
    state = new_game(CLASSIC, seed=1)
    with pytest.raises(InvalidStateError, match=r"move_count must be at most 2\*\*63 - 1, got a number of 16610 bits"):
        attrs.evolve(state, move_count=HUGE)
    with pytest.raises(ValueError, match=r"an int of 16610 bits"):
        Outcome(0, "emptied", (HUGE, 0))
    with pytest.raises(ValueError, match=r"seed must be an int with 0 <= seed < 2\*\*64, got <an int of 16610 bits>"):
        new_game(CASUAL, HUGE)
    with pytest.raises(RecordError, match="an int of 16610 bits"):
        GameRecord(CASUAL, seed=HUGE)


def test_an_invalid_state_error_takes_one_problem_as_a_string() -> None:
    error = crapette.InvalidStateError("T0 is upside down")
    assert error.problems == ("T0 is upside down",)
    assert str(error) == "invalid state: T0 is upside down"


def test_an_invalid_state_error_survives_pickling() -> None:
    # Errors cross process boundaries (multiprocessing pools) by pickle.
    error = crapette.InvalidStateError(["card AH0 is in both F0 and H0", "2 card(s) missing: 3C0 4C0"])
    back = pickle.loads(pickle.dumps(error))
    assert type(back) is crapette.InvalidStateError
    assert back.problems == error.problems and str(back) == str(error)
