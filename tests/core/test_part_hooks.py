"""Rule parts of one's own: every hook checked, one error naming part and hook, probes when the rules are made (issue 23, item 5); bare part names and the parameters a part writes (issue 24, item 4)."""

from __future__ import annotations

import math
import pickle
import random
from typing import Any

import attrs
import pytest

from crapette import (
    Build,
    Card,
    Ending,
    FirstPlayer,
    GameRecord,
    GameState,
    InvalidRulesError,
    RulePartError,
    RuleSet,
    Scoring,
    apply_move,
    legal_moves,
    new_game,
    parse_rules,
    register,
    registered,
)
from crapette.bots import RandomBot, SearchBot
from crapette.simulation import SimulationError, simulate

CASUAL = RuleSet.casual()
CLASSIC = RuleSet.classic()


def _play_out(rules: RuleSet, seed: int = 1, limit: int = 3000) -> GameState:
    state = new_game(rules, seed=seed)
    rng = random.Random(seed)
    while state.outcome is None and state.move_count < limit:
        state = apply_move(state, rng.choice(legal_moves(state)))
    return state


def _ending(name: str, answer: Any = False, after: int = 0, **hooks: Any) -> Ending:
    """A registered ending whose ends() answers ``answer`` from move ``after`` on (False before)."""

    def ends(self: Ending, count: int, state: GameState) -> Any:
        return answer if state.move_count >= after else False

    cls = type(f"E_{name.replace('-', '_')}", (Ending,), {"name": name, "ends": ends, **hooks})
    return register(cls)()  # type: ignore[no-any-return]


@pytest.mark.parametrize("answer", ["no", math.nan, None, 1])
def test_an_ending_that_answers_other_than_true_or_false_is_refused_naming_part_and_hook(answer: Any) -> None:
    part = _ending(f"test-hooks-answers-{type(answer).__name__.lower()}", answer)
    rules = attrs.evolve(CASUAL, endings=[part])  # made, then refused the first time it is played
    with pytest.raises(RulePartError, match=r"the ending test-hooks-answers-\w+: ends\(\) returned .*not True or False") as info:
        new_game(rules)
    assert (info.value.part, info.value.hook) == (str(part), "ends")


def test_an_ending_that_answers_wrongly_later_in_the_game_raises_the_same_error_in_play() -> None:
    part = _ending("test-hooks-late-nan", math.nan, after=40)
    rules = attrs.evolve(CASUAL, endings=[part])  # the probe plays only a few moves
    with pytest.raises(RulePartError, match=r"ends\(\) returned nan"):
        _play_out(rules)


@pytest.mark.parametrize(
    ("hook", "error"),
    [("start", IndexError), ("update", ZeroDivisionError), ("ends", RuntimeError)],
)
def test_an_exception_from_an_endings_hook_is_wrapped_naming_part_and_hook(hook: str, error: type[Exception]) -> None:
    def boom(self: Ending, *args: Any) -> Any:
        raise error("boom")

    part = _ending(f"test-hooks-raises-{hook}", **{hook: boom})
    rules = attrs.evolve(CASUAL, endings=[part])
    with pytest.raises(RulePartError, match=rf"the ending test-hooks-raises-{hook}: {hook}\(\) raised {error.__name__}: boom") as info:
        new_game(rules)
    assert isinstance(info.value.__cause__, error)
    assert info.value.hook == hook


@pytest.mark.parametrize("answer", [None, "7", math.nan, -1, 2.0])
def test_a_scoring_whose_penalty_is_none_a_string_nan_or_negative_is_refused_when_the_rules_are_made(answer: Any) -> None:
    @register
    @attrs.frozen
    class Odd(Scoring):
        name = f"test-hooks-penalty-{abs(hash(repr(answer))) % 10**6}"

        def penalty(self, *, reserve: int, hand: int, waste: int) -> Any:
            return answer

    with pytest.raises(RulePartError, match=r"penalty\(\) returned .*not an int from 0 to 2\*\*63 - 1") as info:
        attrs.evolve(CLASSIC, scoring=Odd())
    assert info.value.hook == "penalty"


_SWITCH = {"broken": False}


@register
@attrs.frozen
class _Switched(Scoring):
    """Good while the rules are made; a NaN penalty once the switch is thrown (as a hook that fails only on rare counts)."""

    name = "test-hooks-switched"

    def penalty(self, *, reserve: int, hand: int, waste: int) -> Any:
        return math.nan if _SWITCH["broken"] else reserve + hand + waste


@pytest.fixture
def switched() -> Any:
    rules = attrs.evolve(CASUAL, scoring=_Switched(), move_limit=30)
    _SWITCH["broken"] = True
    yield rules
    _SWITCH["broken"] = False


def test_a_penalty_that_goes_wrong_in_play_fails_with_the_same_error_and_simulate_returns_no_points(switched: RuleSet) -> None:
    with pytest.raises(RulePartError, match=r"the scoring test-hooks-switched:30:150: penalty\(\) returned nan"):
        _play_out(switched)
    with pytest.raises(SimulationError, match=r"RulePartError: the scoring test-hooks-switched:30:150: penalty\(\) returned nan"):
        simulate(switched, (RandomBot(seed=1), RandomBot(seed=2)), games=2)


def test_searchbot_never_chooses_on_a_nan_penalty(switched: RuleSet) -> None:
    with pytest.raises(RulePartError, match=r"penalty\(\) returned nan"):
        SearchBot(seed=1, budget=8).choose(new_game(switched, seed=2))


def test_an_exception_from_penalty_is_wrapped_when_the_rules_are_made() -> None:
    @register
    @attrs.frozen
    class Few(Scoring):
        name = "test-hooks-few"

        def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
            if reserve + hand + waste < 3:
                raise RuntimeError("too few")
            return reserve

    with pytest.raises(RulePartError, match=r"the scoring test-hooks-few:30:150: penalty\(\) raised RuntimeError: too few"):
        attrs.evolve(CLASSIC, scoring=Few())


@pytest.mark.parametrize("error", [IndexError, ZeroDivisionError])
def test_an_exception_from_who_starts_is_wrapped_naming_part_and_hook(error: type[Exception]) -> None:
    @register
    class Raises(FirstPlayer):
        name = f"test-hooks-first-{error.__name__.lower()}"

        def who_starts(self, deal: GameState, seed: int) -> int:
            raise error("no")

    with pytest.raises(RulePartError, match=rf"the first-player rule test-hooks-first-\w+: who_starts\(\) raised {error.__name__}"):
        new_game(attrs.evolve(CASUAL, first_player=Raises()))


def test_a_first_player_rule_that_is_not_deterministic_is_refused_when_the_rules_are_first_played() -> None:
    flips = iter(range(10**6))

    @register
    class Flip(FirstPlayer):
        name = "test-hooks-flip"

        def who_starts(self, deal: GameState, seed: int) -> int:
            return next(flips) % 2

    rules = attrs.evolve(CASUAL, first_player=Flip())
    with pytest.raises(RulePartError, match=r"test-hooks-flip: who_starts\(\) answered 0 then 1 on the same deal .*function of the deal"):
        new_game(rules, seed=3)


def test_a_first_player_rule_answering_two_is_refused() -> None:
    @register
    class Two(FirstPlayer):
        name = "test-hooks-two"

        def who_starts(self, deal: GameState, seed: int) -> int:
            return 2

    with pytest.raises(RulePartError, match=r"who_starts\(\) returned 2, not 0 or 1"):
        new_game(parse_rules("casual(first_player=test-hooks-two)"))


def test_a_building_rule_that_raises_is_the_same_error() -> None:
    @register
    class Raises(Build):
        name = "test-hooks-build-raises"

        def accepts(self, below: Card, card: Card) -> bool:
            raise KeyError(below)

    with pytest.raises(RulePartError, match=r"the building rule test-hooks-build-raises: accepts\(\) raised KeyError") as info:
        attrs.evolve(CASUAL, opponent_tableau_build=Raises())
    assert info.value.hook == "accepts"


def test_the_rule_part_error_is_an_invalid_rules_error_and_pickles_with_part_and_hook() -> None:
    error = RulePartError("the ending x: ends() raised E", part="x", hook="ends")
    assert isinstance(error, InvalidRulesError) and isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert (str(again), again.part, again.hook) == (str(error), "x", "ends")


def test_a_good_part_of_ones_own_plays_and_replays_unchanged() -> None:
    @register
    class Parity(FirstPlayer):
        name = "test-hooks-parity"

        def who_starts(self, deal: GameState, seed: int) -> int:
            return seed % 2

    rules = attrs.evolve(CASUAL, first_player=Parity())
    state = new_game(rules, seed=3)
    assert state.current_player == 1
    first = legal_moves(state)[0]
    assert GameRecord(rules, seed=3, moves=[first]).replay() == apply_move(state, first)


def test_a_class_with_the_module_of_crapette_cannot_replace_a_built_in_part() -> None:
    class Fake(Build):
        name = "down-alternating"

        def accepts(self, below: Card, card: Card) -> bool:
            return True

    Fake.__module__ = "crapette"
    Fake.__qualname__ = Fake.__name__ = "DownAlternating"
    with pytest.raises(InvalidRulesError, match="already registered by crapette.DownAlternating .*crapette's own"):
        register(Fake)
    assert registered(Build)["down-alternating"] is type(Build.DOWN_ALTERNATING)


def test_the_built_in_parts_are_not_wrapped() -> None:
    import crapette
    import crapette.variants
    from crapette._core.parts import _BUILT_IN

    own = [getattr(crapette, n) for n in ("DownAlternating", "SuitUpOrDown", "PlayerZero", "PlayerOne", "LowerReserve")]
    own += [Scoring, *(getattr(crapette, n) for n in ("Stalemate", "Blocked", "MoveLimit"))]
    own += [getattr(crapette.variants, n) for n in ("HigherReserve", "RandomFirstPlayer", "SuitUpOrDownWrap", "NoProgress")]
    for cls in own:
        assert cls in _BUILT_IN, cls
        for hook in ("who_starts", "penalty", "points_for_win", "start", "update", "ends"):
            assert not getattr(getattr(cls, hook, None), "__crapette_guarded__", False), (cls, hook)


# Issue 24, item 4 ------------------------------------------------------------------


def test_a_rule_part_whose_parameters_all_have_defaults_can_be_named_bare() -> None:
    assert parse_rules("classic(scoring=weighted)") == CLASSIC
    assert parse_rules("casual(endings=no-progress)").endings == parse_rules("casual(endings=no-progress:20)").endings
    with pytest.raises(ValueError, match=r"takes 5 parameters, in this order: win_bonus \(default 30\).*or its name alone"):
        parse_rules("classic(scoring=weighted:30:2)")


def test_a_scoring_of_ones_own_writes_only_the_parameters_it_declares() -> None:
    @register
    @attrs.frozen
    class ThreePerReserve(Scoring):
        name = "three-per-reserve"

        def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
            return 3 * reserve + hand + waste

    @register
    @attrs.frozen
    class PerReserve(Scoring):
        name = "test-hooks-per-reserve"
        per_reserve: int = 3

        def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
            return self.per_reserve * reserve + hand + waste

    rules = attrs.evolve(CLASSIC, scoring=ThreePerReserve(match_target=100))
    assert str(rules) == "classic(scoring=three-per-reserve:30:100)"
    assert repr(rules.scoring) == "test_a_scoring_of_ones_own_writes_only_the_parameters_it_declares.<locals>.ThreePerReserve(win_bonus=30, match_target=100)"
    assert parse_rules(str(rules)) == rules
    # Texts written before keep reading: the five numbers, the ignored weights dropped.
    assert parse_rules("classic(scoring=three-per-reserve:30:2:1:1:100)") == rules
    # Weights the penalty ignores are no part of the value, so every value round-trips.
    assert ThreePerReserve(reserve_weight=9) == ThreePerReserve()
    other = attrs.evolve(CLASSIC, scoring=ThreePerReserve(reserve_weight=9))
    assert parse_rules(str(other)) == other
    own = attrs.evolve(CLASSIC, scoring=PerReserve(per_reserve=5))
    assert str(own.scoring) == "test-hooks-per-reserve:30:150:5"
    assert parse_rules(str(own)) == own
    assert str(Scoring()) == "weighted:30:2:1:1:150"


def test_a_part_may_choose_the_parameters_it_writes_and_must_name_fields_with_defaults() -> None:
    @register
    @attrs.frozen
    class TargetOnly(Scoring):
        name = "test-hooks-target-only"
        written = ("match_target",)

    assert str(TargetOnly(match_target=90)) == "test-hooks-target-only:90"
    assert parse_rules("classic(scoring=test-hooks-target-only:90)").scoring == TargetOnly(match_target=90)

    @attrs.frozen
    class Wrong(Scoring):
        name = "test-hooks-wrong-written"
        written = ("no_such_field",)

    with pytest.raises(InvalidRulesError, match="written must be a tuple of its field names"):
        register(Wrong)


# Issue 30: parameters by name, and messages that give the order ----------------------------------


@register
@attrs.frozen
class _HandHeavy(Scoring):
    """A scoring with a parameter of its own, written after win_bonus and match_target."""

    name = "test-hooks-hand-heavy"
    hand: int = 1

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        return reserve + self.hand * hand + waste


def test_a_parts_own_parameter_alone_is_refused_with_the_order_and_the_way_to_name_it() -> None:
    with pytest.raises(ValueError) as info:
        parse_rules("classic(scoring=test-hooks-hand-heavy:4)")
    message = str(info.value)
    assert "takes 3 parameters, in this order: win_bonus (default 30), match_target (default 150), hand (default 1)" in message
    assert message.endswith("name the ones you set, or its name alone for the defaults: test-hooks-hand-heavy:hand=4")


def test_parameters_may_be_named_and_the_others_take_their_defaults() -> None:
    named = parse_rules("classic(scoring=test-hooks-hand-heavy:hand=4)")
    assert named.scoring == _HandHeavy(hand=4)
    assert str(named) == "classic(scoring=test-hooks-hand-heavy:30:150:4)"  # written in order, as always
    assert parse_rules(str(named)) == named
    mixed = parse_rules("classic(scoring=test-hooks-hand-heavy:20:hand=4:match_target=60)")
    assert mixed.scoring == _HandHeavy(win_bonus=20, match_target=60, hand=4)
    assert parse_rules("classic(scoring=weighted:match_target=60)").scoring == Scoring(match_target=60)
    assert parse_rules("casual(endings=no-progress:turns=7)").endings == parse_rules("casual(endings=no-progress:7)").endings


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("test-hooks-hand-heavy:hnd=4", "has no parameter 'hnd' (did you mean 'hand'?); its parameters: win_bonus, match_target, hand"),
        ("test-hooks-hand-heavy:hand=4:10", "parameter 2 ('10') comes after one given by name"),
        ("test-hooks-hand-heavy:hand=4:hand=5", "parameter hand given twice"),
        ("test-hooks-hand-heavy:hand=four", "parameter hand must be a whole number, got 'four'"),
        ("test-hooks-hand-heavy:1:2:3:4", "takes 3 parameters, in this order:"),
        ("test-hooks-hand-heav", "unknown scoring 'test-hooks-hand-heav' (did you mean 'test-hooks-hand-heavy'?)"),
    ],
)
def test_a_misspelt_or_misplaced_parameter_says_what_and_where(text: str, message: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_rules(f"classic(scoring={text})")
    assert message in str(info.value)


def test_an_unknown_option_suggests_the_close_one() -> None:
    with pytest.raises(ValueError, match=r"unknown option 'move_limt' \(did you mean 'move_limit'\?\)"):
        parse_rules("classic(move_limt=3)")


@register
class _FirstAce(Ending):
    """Ends the game, settled by penalties, as soon as an Ace lies on a foundation."""

    name = "test-hooks-first-ace"
    description = "an Ace reached a foundation"

    def ends(self, count: int, state: GameState) -> bool:
        return any(state.foundations)


FIRST_ACE = "classic(endings=test-hooks-first-ace)"


def test_an_ending_of_ones_own_names_itself_in_the_outcome_view_text_record_and_report() -> None:
    from crapette import GameRecord, Outcome, view
    from crapette.bots import GreedyBot
    from crapette.simulation import simulate
    from crapette.text import render_text
    from crapette.wording import describe_end

    state = new_game(FIRST_ACE, seed=3)
    states = [state]
    while not state.is_over:
        state = apply_move(state, GreedyBot().choose(state))
        states.append(state)
    outcome = state.outcome
    assert outcome == Outcome(0, "stalemate", (13, 0), ending="test-hooks-first-ace")
    assert str(outcome) == "player 0 wins (test-hooks-first-ace), 13-0"
    assert view(state).to_dict()["outcome"]["ending"] == "test-hooks-first-ace"
    assert "game over: player 0 wins (test-hooks-first-ace), 13-0" in render_text(state)
    assert describe_end(outcome) == "an Ace reached a foundation"
    record = GameRecord.from_states(states, seed=3)
    assert record.result == "1-0" and record.replay().outcome == outcome
    report = simulate(parse_rules(FIRST_ACE), (GreedyBot(), GreedyBot()), games=4, progress=False)
    assert report.endings["test-hooks-first-ace"] == 4 and report.stalemates == 0
    # The built-in endings keep their reasons, with no ending named.
    assert parse_rules("casual(move_limit=30)").endings == () and _play_out(parse_rules("casual(move_limit=30)")).outcome.ending is None


def test_the_terminal_game_says_why_an_ending_of_ones_own_ended_the_game(
    tmp_path: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    from crapette.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 30 + "quit\ny\n"))
    assert main(["play", "--rules", FIRST_ACE, "--seed", "3", "--bot", "greedy", "--color", "never"]) == 0
    out = capsys.readouterr().out
    assert "(an Ace reached a foundation)" in out and "Game over: " in out


def test_an_endings_description_must_be_text() -> None:
    with pytest.raises(InvalidRulesError, match="description must be a str"):
        register(type("E_bad_description", (Ending,), {"name": "test-hooks-bad-description", "description": 3,
                                                        "ends": lambda self, count, state: False}))
