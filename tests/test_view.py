"""The public view: hidden cards appear as counts only, and the JSON-ready dict."""

from __future__ import annotations

import json
import random

import attrs
import pytest

from conftest import random_states
from crapette import GameState, PublicView, RuleSet, legal_moves, new_game, view


def reshuffle_hidden(state: GameState, rng: random.Random) -> GameState:
    """The same public position with the hands and the reserves below their tops reordered."""
    piles = list(state.piles)
    for player in (0, 1):
        hand = list(piles[18 + player])
        rng.shuffle(hand)
        piles[18 + player] = tuple(hand)
        reserve = piles[16 + player]
        if len(reserve) > 1:
            below = list(reserve[:-1])
            rng.shuffle(below)
            piles[16 + player] = (*below, reserve[-1])
    return attrs.evolve(state, piles=tuple(piles))


def test_view_shows_reserve_tops_and_counts_of_hidden_piles() -> None:
    state = new_game("classic", seed=4)
    v = view(state)
    assert v.reserve_tops == (state.reserves[0][-1], state.reserves[1][-1])
    assert v.reserve_sizes == (13, 13)
    assert v.hand_sizes == (35, 35)
    assert v.foundations == state.foundations
    assert v.tableau == state.tableau
    assert v.wastes == state.wastes


def test_view_holds_no_hidden_card() -> None:
    for state in random_states("classic", 1, 400)[::25]:
        v = view(state)
        shown = {c for piles in (v.foundations, v.tableau, v.wastes) for pile in piles for c in pile}
        shown |= {c for c in v.reserve_tops if c is not None}
        hidden = {c for p in (0, 1) for c in state.hands[p]} | {c for p in (0, 1) for c in state.reserves[p][:-1]}
        assert not shown & hidden
        text = json.dumps(v.to_dict())
        assert not any(f'"{c}"' in text for c in hidden)


def test_view_is_the_same_whatever_the_order_of_hidden_cards() -> None:
    rng = random.Random(3)
    for rules in ("casual", "classic"):
        for state in random_states(rules, 2, 300)[::20]:
            other = reshuffle_hidden(state, rng)
            assert view(other) == view(state)
            assert view(other).to_dict() == view(state).to_dict()


def test_legal_moves_depend_only_on_public_information() -> None:
    rng = random.Random(8)
    for rules in ("casual", "classic"):
        for state in random_states(rules, 5, 600)[::10]:
            assert legal_moves(reshuffle_hidden(state, rng)) == legal_moves(state)


def test_view_carries_rules_player_counters_outcome_and_legal_moves() -> None:
    state = random_states("casual", 0, 3000)[-1]
    v = view(state)
    assert v.rules == state.rules
    assert (v.current_player, v.move_count, v.drawn, v.passes) == (
        state.current_player,
        state.move_count,
        state.drawn,
        state.passes,
    )
    assert (v.exhausted, v.played) == (state.exhausted, state.played)
    assert v.outcome == state.outcome and v.is_over
    assert v.legal_moves == () == legal_moves(state)


def test_view_of_an_empty_reserve_has_no_top() -> None:
    final = next(s for s in random_states("casual", 7, 3000) if not s.reserves[0] or not s.reserves[1])
    v = view(final)
    for p in (0, 1):
        assert (v.reserve_tops[p] is None) == (not final.reserves[p])
        assert v.reserve_sizes[p] == len(final.reserves[p])


def test_view_is_frozen() -> None:
    v = view(new_game("casual", seed=1))
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        v.current_player = 1  # type: ignore[misc]
    assert isinstance(v, PublicView)
    assert hash(v) == hash(view(new_game("casual", seed=1)))


def only_json_types(value: object) -> bool:
    if value is None or isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, list):
        return all(only_json_types(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and only_json_types(v) for k, v in value.items())
    return False


def test_view_dict_holds_only_json_types_and_survives_json() -> None:
    for state in random_states("classic", 3, 2500)[::100]:
        d = view(state).to_dict()
        assert only_json_types(d)
        assert json.loads(json.dumps(d)) == d


def test_view_dict_follows_the_documented_schema() -> None:
    state = random_states("classic", 6, 5000)[-1]
    assert state.is_over
    d = view(state).to_dict()
    assert list(d) == [
        "format",
        "version",
        "rules",
        "options",
        "current_player",
        "move_count",
        "drawn",
        "passes",
        "exhausted",
        "played",
        "counters",
        "foundations",
        "tableau",
        "reserve_tops",
        "reserve_sizes",
        "hand_sizes",
        "wastes",
        "outcome",
        "is_over",
        "legal_moves",
    ]
    assert d["format"] == "crapette-view" and d["version"] == 2
    assert d["rules"] == "classic"
    assert d["options"]["load_targets"] == ["reserve", "waste"]
    assert d["options"]["scoring"] == "weighted:30:2:1:1:150"
    assert d["options"]["first_player"] == "lower-reserve" and d["options"]["endings"] == []
    assert d["counters"] == []
    assert d["options"]["move_limit"] is None
    assert len(d["foundations"]) == 8 and len(d["tableau"]) == 8 and len(d["wastes"]) == 2
    assert d["foundations"] == [[str(c) for c in f] for f in state.foundations]
    outcome = state.outcome
    assert outcome is not None and outcome.scores is not None
    assert d["outcome"] == {"winner": outcome.winner, "reason": outcome.reason.value, "scores": list(outcome.scores)}
    assert d["is_over"] is True and d["legal_moves"] == []


def test_view_dict_of_casual_rules_has_no_scoring() -> None:
    d = view(new_game(RuleSet.casual(), seed=2)).to_dict()
    assert d["options"]["scoring"] is None
    assert d["options"]["opponent_tableau_build"] == "suit-up-or-down"
    assert d["outcome"] is None and d["is_over"] is False
    assert d["legal_moves"] == [str(m) for m in legal_moves(new_game(RuleSet.casual(), seed=2))]


def test_view_refuses_what_is_not_a_state() -> None:
    with pytest.raises(TypeError, match="GameState"):
        view("casual 0 0 -")  # type: ignore[arg-type]
