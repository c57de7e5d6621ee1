"""crapette.strategies: what each strategy draws, how it shrinks, and its registration."""

from __future__ import annotations

import importlib
import sys

import attrs
import pytest
from hypothesis import Phase, find, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

import crapette
from crapette import (
    Build,
    Card,
    GameState,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    validate,
)
from crapette.strategies import (
    MAX_MOVES_LIMIT,
    cards,
    game_states,
    moves,
    new_games,
    presets,
    rulesets,
)

FAST = settings(max_examples=25, deadline=None)
FIND = settings(max_examples=500, database=None, deadline=None)


@FAST
@given(cards())
def test_cards_are_the_interned_cards(card: Card) -> None:
    assert isinstance(card, Card)
    assert Card(card.rank, card.suit, card.deck) is card


def test_cards_shrink_to_the_ace_of_clubs_of_deck_0() -> None:
    assert str(find(cards(), lambda c: True, settings=FIND)) == "AC0"


@FAST
@given(presets())
def test_presets_are_the_two_presets(rules: RuleSet) -> None:
    assert rules in (RuleSet.casual(), RuleSet.classic())


@FAST
@given(rulesets())
def test_rulesets_are_valid_and_survive_a_rebuild(rules: RuleSet) -> None:
    assert attrs.evolve(rules) == rules
    if rules.stack_moves:
        assert Build.DOWN_ALTERNATING in (rules.own_tableau_build, rules.opponent_tableau_build)


def test_rulesets_vary_every_option_independently() -> None:
    seen: dict[str, set[object]] = {field.name: set() for field in attrs.fields(RuleSet)}
    pairs: set[tuple[object, object]] = set()
    like_classic = []

    @settings(max_examples=200, derandomize=True, database=None, deadline=None)
    @given(rulesets())
    def collect(rules: RuleSet) -> None:
        for name, values in seen.items():
            value = getattr(rules, name)
            values.add(value if name not in ("move_limit", "scoring") else value is None)
        pairs.add((rules.foundation_plays, rules.waste_play))
        if rules.stack_moves and len(rules.load_targets) == 2 and rules.scoring is not None:
            like_classic.append(rules)

    collect()
    # revisits too: the positions a turn has reached are part of the state's value.
    for name, values in seen.items():
        assert len(values) >= 2, f"{name} only ever took {values}"
    assert len(pairs) == 4
    assert like_classic


@FAST
@given(new_games(rules=st.just(RuleSet.classic()), seeds=st.integers(0, 50)))
def test_new_games_deal_the_given_rules_and_seeds(state: GameState) -> None:
    assert state.rules == RuleSet.classic()
    assert state.move_count == 0
    assert any(state == new_game(RuleSet.classic(), seed) for seed in range(51))


def test_new_games_shrink_to_the_casual_deal_of_seed_0() -> None:
    assert find(new_games(), lambda s: True, settings=FIND) == new_game(RuleSet.casual(), 0)


def test_new_games_refuse_a_seed_out_of_range() -> None:
    @given(new_games(seeds=st.just(-1)))
    def test(state: GameState) -> None:
        pass

    with pytest.raises(ValueError, match="seed must be an int"):
        test()


@FAST
@given(game_states(max_moves=30))
def test_game_states_are_valid_and_within_max_moves(state: GameState) -> None:
    validate(state)
    assert state.move_count <= 30


@FAST
@given(game_states(rules=st.just(RuleSet.casual()), min_moves=40, max_moves=40))
def test_game_states_play_at_least_min_moves(state: GameState) -> None:
    assert state.move_count == 40


@FAST
@given(game_states(rules=st.just(attrs.evolve(RuleSet.casual(), move_limit=3)), min_moves=10, max_moves=20))
def test_game_states_stop_when_the_game_ends(state: GameState) -> None:
    assert state.is_over
    assert state.move_count == 3


def test_game_states_shrink_towards_short_games_and_first_moves() -> None:
    found = find(
        game_states(rules=presets(), max_moves=12), lambda s: s.move_count >= 5, settings=FIND
    )
    expected = new_game(RuleSet.casual(), 0)
    for _ in range(5):
        expected = apply_move(expected, legal_moves(expected)[0])
    assert found == expected


@FAST
@given(game_states(max_moves=40), st.data())
def test_moves_draws_legal_moves(state: GameState, data: st.DataObject) -> None:
    move = data.draw(moves(state))
    assert move in legal_moves(state)


def test_moves_shrink_to_the_first_legal_move() -> None:
    state = new_game(RuleSet.classic(), seed=3)
    assert find(moves(state), lambda m: True, settings=FIND) is legal_moves(state)[0]


def test_moves_of_a_finished_game_is_empty() -> None:
    state = new_game(attrs.evolve(RuleSet.casual(), move_limit=1), seed=0)
    state = apply_move(state, legal_moves(state)[0])
    assert state.is_over
    assert moves(state).is_empty


@FAST
@given(st.from_type(Card), st.from_type(RuleSet), st.from_type(GameState))
def test_importing_the_module_registers_the_types(card: Card, rules: RuleSet, state: GameState) -> None:
    assert isinstance(card, Card)
    assert isinstance(rules, RuleSet)
    validate(state)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: new_games(rules=RuleSet.classic()), "rules must be a Hypothesis strategy"),  # type: ignore[arg-type]
        (lambda: new_games(seeds=3), "seeds must be a Hypothesis strategy"),  # type: ignore[arg-type]
        (lambda: game_states(rules="classic"), "rules must be a Hypothesis strategy"),  # type: ignore[arg-type]
        (lambda: game_states(max_moves=-1), "max_moves must be from 0"),
        (lambda: game_states(max_moves=MAX_MOVES_LIMIT + 1), "max_moves must be from 0"),
        (lambda: game_states(min_moves=5, max_moves=4), "min_moves=5 must not exceed max_moves=4"),
        (lambda: game_states(max_moves=2.5), "max_moves must be an int"),  # type: ignore[arg-type]
        (lambda: moves("casual"), "moves\\(\\) needs a GameState"),  # type: ignore[arg-type]
    ],
)
def test_bad_arguments_raise_invalid_argument(make: object, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        make()  # type: ignore[operator]


def test_import_without_hypothesis_says_how_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [m for m in sys.modules if m == "hypothesis" or m.startswith("hypothesis.")]:
        monkeypatch.setitem(sys.modules, name, None)
    monkeypatch.delitem(sys.modules, "crapette.strategies")
    monkeypatch.setattr(crapette, "strategies", sys.modules["crapette"].strategies, raising=False)
    with pytest.raises(ImportError, match=r"install it with `pip install hypothesis` \(the test extra"):
        importlib.import_module("crapette.strategies")


def test_a_failing_example_prints_each_value_in_one_line_that_rebuilds_it() -> None:
    # Hypothesis prints the values of a failing example with IPython's pretty printer,
    # which writes an attrs instance field by field unless the class says otherwise.
    @settings(max_examples=1, database=None, deadline=None, phases=[Phase.generate], print_blob=False)
    @given(
        st.tuples(game_states(max_moves=5), rulesets(), cards(), st.just(crapette.parse_pile("T3"))),
        st.data(),
    )
    def fails(values: tuple[GameState, RuleSet, Card, crapette.Pile], data: st.DataObject) -> None:
        state = values[0]
        data.draw(moves(state) if not state.is_over else st.none())
        data.draw(st.just(state.rules.scoring or crapette.Scoring()))
        raise AssertionError("fails")

    with pytest.raises(AssertionError) as caught:
        fails()
    report = "\n".join(getattr(caught.value, "__notes__", []))
    assert "parse_position('" in report and "parse_rules('" in report and "parse_card('" in report
    assert "Pile.tableau(3)" in report and "Scoring(win_bonus=" in report
    assert "Card(rank=" not in report and "GameState(" not in report and "RuleSet(" not in report
    assert len(report.splitlines()) <= 10, report  # a line a value, and the call around them
