"""Match and Scoring (RULES.md section 11)."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from crapette import (
    EndReason,
    InvalidRulesError,
    Match,
    Outcome,
    RuleSet,
    Scoring,
    apply_move,
    legal_moves,
    new_game,
)

CLASSIC = RuleSet.classic()


def win(player: int, points: int) -> Outcome:
    return Outcome(player, EndReason.EMPTIED, (points, 0) if player == 0 else (0, points))


# ----------------------------------------------------------------------------
# Scoring


def test_scoring_defaults_are_the_classic_values() -> None:
    scoring = Scoring()
    assert attrs.astuple(scoring) == (30, 2, 1, 1, 150)
    assert CLASSIC.scoring == scoring
    assert RuleSet.casual().scoring is None


def test_penalty_and_points_for_a_win() -> None:
    scoring = Scoring()
    assert scoring.penalty(reserve=4, hand=10, waste=3) == 2 * 4 + 10 + 3
    assert scoring.points_for_win(reserve=4, hand=10, waste=3) == 30 + 21
    assert scoring.points_for_win(reserve=0, hand=0, waste=0) == 30
    custom = Scoring(win_bonus=0, reserve_weight=5, hand_weight=0, waste_weight=2, match_target=1)
    assert custom.penalty(reserve=1, hand=100, waste=3) == 11
    assert custom.points_for_win(reserve=1, hand=100, waste=3) == 11


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"win_bonus": -1}, "win_bonus must be >= 0, got -1"),
        ({"reserve_weight": -2}, "reserve_weight must be >= 0, got -2"),
        ({"hand_weight": 1.5}, "hand_weight must be an int, got 1.5"),
        ({"waste_weight": True}, "waste_weight must be an int, got True"),
        ({"match_target": 0}, "match_target must be >= 1, got 0"),
    ],
)
def test_scoring_rejects_bad_values(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message.replace(".", r"\.")):
        Scoring(**kwargs)


def test_rules_take_a_scoring_or_none() -> None:
    assert attrs.evolve(CLASSIC, scoring=None).scoring is None
    with pytest.raises(InvalidRulesError, match="scoring must be a scoring \\(Scoring\\) or its name, got 150"):
        attrs.evolve(CLASSIC, scoring=150)


# ----------------------------------------------------------------------------
# Match


def test_a_new_match_is_empty() -> None:
    match = Match.for_rules(CLASSIC)
    assert match.scoring == Scoring()
    assert match.outcomes == () and match.totals == (0, 0)
    assert match.winner is None and not match.is_over


def test_add_returns_a_new_match_and_keeps_the_old_one() -> None:
    match = Match.for_rules(CLASSIC)
    after = match.add(win(0, 40))
    assert match.outcomes == () and after.outcomes == (win(0, 40),)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        after.outcomes = ()  # type: ignore[misc]


def test_the_first_to_reach_the_target_wins_the_match() -> None:
    match = Match.for_rules(CLASSIC)
    for outcome in (win(0, 60), win(1, 70), Outcome(None, EndReason.STALEMATE, (0, 0)), win(0, 89)):
        match = match.add(outcome)
    assert match.totals == (149, 70) and match.winner is None
    match = match.add(Outcome(0, EndReason.BLOCKED, (1, 0)))
    assert match.totals == (150, 70) and match.winner == 0 and match.is_over
    assert len(match.outcomes) == 5


def test_the_target_comes_from_the_scoring() -> None:
    rules = attrs.evolve(CLASSIC, scoring=Scoring(match_target=31))
    match = Match.for_rules(rules).add(win(1, 30))
    assert not match.is_over
    assert match.add(win(1, 1)).winner == 1


def test_nothing_is_added_after_the_match_is_won() -> None:
    match = Match.for_rules(CLASSIC).add(win(1, 200))
    with pytest.raises(ValueError, match="the match is over: player 1 has won it"):
        match.add(win(0, 5))
    with pytest.raises(ValueError, match="outcome 1 comes after the match was already won"):
        Match(Scoring(), (win(1, 200), win(0, 5)))


@pytest.mark.parametrize("bad", [Outcome(0, EndReason.EMPTIED, None), "player 0 wins", None, (30, 0)])
def test_a_match_records_only_scored_outcomes(bad: Any) -> None:
    with pytest.raises(ValueError, match="a match records scored Outcomes"):
        Match.for_rules(CLASSIC).add(bad)


def test_a_match_needs_scoring() -> None:
    with pytest.raises(ValueError, match="these rules have no scoring, so there is no match to play"):
        Match.for_rules(RuleSet.casual())
    with pytest.raises(ValueError, match="scoring must be a Scoring, got None"):
        Match(None)  # type: ignore[arg-type]


def test_outcomes_given_as_a_list_are_stored_as_a_tuple() -> None:
    outcomes = [win(0, 10), win(1, 20)]
    match = Match(Scoring(), outcomes)
    assert match.outcomes == tuple(outcomes) and match.totals == (10, 20)
    outcomes.append(win(0, 500))
    assert len(match.outcomes) == 2


def test_a_match_of_real_classic_games_is_played_to_150() -> None:
    match = Match.for_rules(CLASSIC)
    rng = random.Random(150)
    seed = 0
    while not match.is_over:
        state = new_game(CLASSIC, seed)
        while not state.is_over:
            state = apply_move(state, rng.choice(legal_moves(state)))
        assert state.outcome is not None and state.outcome.scores is not None
        if state.outcome.winner is not None:
            assert state.outcome.scores[state.outcome.winner] > 0
            assert state.outcome.scores[1 - state.outcome.winner] == 0
        match = match.add(state.outcome)
        seed += 1
    assert match.winner is not None
    assert match.totals[match.winner] >= 150 > match.totals[1 - match.winner]
    assert sum(match.totals) == sum(sum(o.scores or (0, 0)) for o in match.outcomes)


def test_match_for_rules_refuses_what_is_not_a_rule_set() -> None:
    with pytest.raises(TypeError, match="RuleSet"):
        Match.for_rules(150)  # type: ignore[arg-type]
