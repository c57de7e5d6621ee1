"""A view's JSON read back (PublicView.from_dict, from_json), and a view stepped along moves that reveal nothing."""

from __future__ import annotations

import json
import pickle
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import forget, permute_unseen, play_random
from crapette import (
    HiddenCardError,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    ParseError,
    PublicView,
    apply_move,
    legal_moves,
    new_game,
    parse_move,
    reveals,
    view,
)
from crapette.strategies import game_states, presets, rulesets

_EXAMPLES = settings().max_examples
ROUND_TRIP = settings(max_examples=max(60, _EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings(max_examples=max(150, _EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow])
VIEW_ERRORS = (ParseError, InvalidRulesError, InvalidStateError)

any_states = game_states(rules=presets() | rulesets(), max_moves=300)


# Round trips -------------------------------------------------------------------


@ROUND_TRIP
@given(any_states, st.booleans())
def test_a_views_json_reads_back_into_an_equal_view(state: object, remembered: bool) -> None:
    v = view(state if remembered else forget(state))  # type: ignore[arg-type]
    again = PublicView.from_json(v.to_json())
    assert again == v
    assert again.to_dict() == v.to_dict()
    assert PublicView.from_dict(json.loads(json.dumps(v.to_dict()))) == v
    assert PublicView.from_json(v.to_json(indent=2)) == v


def test_the_derived_keys_may_be_left_out() -> None:
    state = play_random(new_game("classic", 4), 80, random.Random(4))[-1]
    d = view(state).to_dict()
    for key in ("options", "is_over", "legal_moves"):
        del d[key]
    assert PublicView.from_dict(d) == view(state)


@ROUND_TRIP
@given(any_states)
def test_the_earlier_versions_read_back_into_a_view_that_remembers_nothing(state: object) -> None:
    v = view(forget(state))  # type: ignore[arg-type]
    d = v.to_dict()
    for key in ("known_hands", "known_reserve_cards", "from_deal", "turn_moves"):
        del d[key]
    if d["outcome"] is not None:
        del d["outcome"]["ending"]
    if v.outcome is None or v.outcome.ending is None:
        assert PublicView.from_dict({**d, "version": 2, "options": {"old": "layout"}}) == v
    if not v.rules.endings:  # version 1 had no counters: the rules of its release had no endings of their own
        del d["counters"]
        assert PublicView.from_dict({**d, "version": 1, "legal_moves": ["pass"]}) == v


def test_a_finished_games_view_reads_back() -> None:
    states = play_random(new_game("casual", 2), 3000, random.Random(2))
    assert states[-1].outcome is not None
    v = view(states[-1])
    assert PublicView.from_json(v.to_json()) == v


# Bad input ---------------------------------------------------------------------


def _dict() -> dict[str, object]:
    return view(play_random(new_game("classic", 5), 60, random.Random(5))[-1]).to_dict()


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"version": 4}, ParseError, "unsupported version 4 (this release reads versions 1 to 3)"),
        ({"version": 2}, ParseError, "version 2 has no key 'known_hands'"),
        ({"version": "3"}, ParseError, "key 'version' must be a whole number, got a string"),
        ({"format": "crapette-record"}, ParseError, "key 'format' must be \"crapette-view\""),
        ({"rules": "clasic"}, ParseError, "key 'rules'"),
        ({"rules": "classic(reserve_size=0)"}, InvalidRulesError, "key 'rules'"),
        ({"rules": "casual"}, ParseError, "key 'options', option"),
        ({"current_player": 2}, ParseError, "key 'current_player' must be 0 or 1, got 2"),
        ({"current_player": True}, ParseError, "key 'current_player' must be 0 or 1"),
        ({"move_count": -1}, ParseError, "key 'move_count' must be from 0"),
        ({"move_count": 1.5}, ParseError, "key 'move_count' must be a whole number, got a number"),
        ({"drawn": 0}, ParseError, "key 'drawn' must be true or false, got a number"),
        ({"tableau": [[]] * 7}, ParseError, "key 'tableau' must hold 8 items, got 7"),
        ({"tableau": [["ZZ9"]] + [[]] * 7}, ParseError, "key 'tableau', item 0, card 0: invalid card 'ZZ9'"),
        ({"reserve_sizes": [1]}, ParseError, "key 'reserve_sizes' must hold 2 items, got 1"),
        ({"outcome": {"reason": "bored"}}, ParseError, "unknown reason 'bored'"),
        ({"outcome": {"winner": 3, "reason": "emptied"}}, ParseError, "key 'winner' must be 0, 1 or null"),
        ({"is_over": True}, ParseError, "key 'is_over' is true"),
        ({"legal_moves": ["draw", "R0-X9"]}, ParseError, "key 'legal_moves', item 1: invalid move 'R0-X9'"),
        ({"legal_moves": ["pass"]}, InvalidStateError, "legal moves are not those of its position"),
        ({"hand_sizes": [3, 3]}, InvalidStateError, "invalid state"),
        ({"colour": "red"}, ParseError, "unknown key 'colour'"),
    ],
)
def test_bad_views_are_refused_with_one_line_naming_the_key(
    change: dict[str, object], error: type[Exception], message: str
) -> None:
    d = _dict()
    d.update(change)
    with pytest.raises(error) as info:
        PublicView.from_dict(d)
    text = str(info.value)
    assert message in text
    assert "\n" not in text and len(text) < 600


def test_a_missing_key_is_named() -> None:
    d = _dict()
    del d["wastes"]
    with pytest.raises(ParseError, match="invalid view JSON: missing key 'wastes'"):
        PublicView.from_dict(d)


def test_a_view_whose_outcome_or_memory_the_position_denies_is_refused() -> None:
    d = _dict()
    d["outcome"] = {"winner": 0, "reason": "emptied", "scores": None, "ending": None}
    d["is_over"] = True
    with pytest.raises(InvalidStateError):
        PublicView.from_dict(d)
    d = _dict()
    d["from_deal"] = not d["from_deal"]
    d["known_reserve_cards"] = [[], []]
    with pytest.raises(InvalidStateError):
        PublicView.from_dict(d)


def test_from_json_refuses_what_is_not_a_views_json() -> None:
    with pytest.raises(TypeError, match="expects a str"):
        PublicView.from_json(b"{}")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expects a dict"):
        PublicView.from_dict("{}")  # type: ignore[arg-type]
    with pytest.raises(ParseError, match="too long"):
        PublicView.from_json(" " * 70_000)
    with pytest.raises(ParseError, match="nested too deeply"):
        PublicView.from_json("[" * 30_000 + "]" * 30_000)
    with pytest.raises(ParseError, match="expected an object, got an array"):
        PublicView.from_json("[]")
    with pytest.raises(ParseError, match="appears twice"):
        PublicView.from_json('{"format": "crapette-view", "format": "crapette-view"}')
    with pytest.raises(ParseError, match="NaN is not a number JSON allows"):
        PublicView.from_json('{"move_count": NaN}')


def _mutate(text: str, rng: random.Random, chars: str) -> str:
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(text))
        kind = rng.choice("dis")
        c = rng.choice(chars)
        text = text[:i] + text[i + 1 :] if kind == "d" else text[:i] + c + text[i + (kind == "s") :]
    return text


SAMPLES = [
    view(s).to_json()
    for rules, seed in (("casual", 1), ("classic", 2))
    for s in play_random(new_game(rules, seed), 300, random.Random(seed))[::75]
]


@FUZZ
@given(st.text(max_size=200) | st.tuples(st.sampled_from(SAMPLES), st.integers(0, 2**32)).map(
    lambda p: _mutate(p[0], random.Random(p[1]), '0123456789[]{}",:-TRFWHxnulltruefalsACDSKQJ ')
))
def test_the_reader_raises_only_documented_errors(text: str) -> None:
    try:
        v = PublicView.from_json(text)
    except VIEW_ERRORS as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert PublicView.from_json(v.to_json()) == v


@FUZZ
@given(
    st.sampled_from(SAMPLES),
    st.sampled_from(list(json.loads(SAMPLES[0]))),
    st.none()
    | st.booleans()
    | st.integers(-5, 2**65)
    | st.text(max_size=4)
    | st.lists(st.none() | st.integers(-1, 200) | st.sampled_from(["AH0", "KS1", "draw", "x"]), max_size=9)
    | st.dictionaries(st.sampled_from(["winner", "reason", "scores", "ending", "x"]), st.none() | st.integers(0, 3)),
)
def test_any_value_under_any_key_is_refused_cleanly_or_read(text: str, key: str, value: object) -> None:
    d = json.loads(text)
    d[key] = value
    try:
        v = PublicView.from_dict(d)
    except VIEW_ERRORS as exc:
        assert str(exc) and "\n" not in str(exc)
        return
    assert PublicView.from_dict(v.to_dict()) == v


# Stepping a view ---------------------------------------------------------------


@ROUND_TRIP
@given(any_states, st.integers(0, 2**32), st.booleans())
def test_stepping_a_view_is_viewing_the_stepped_state(state: object, seed: int, remembered: bool) -> None:
    from crapette import GameState

    assert isinstance(state, GameState)
    # Any state that shows the view steps to the same view (the unseen cards in another order).
    other = permute_unseen(state, random.Random(seed))
    if not remembered:
        state, other = forget(state), forget(other)
    v = view(state)
    assert legal_moves(v) == legal_moves(state)
    assert view(other) == v
    for move in legal_moves(state):
        if reveals(state, move):
            with pytest.raises(HiddenCardError) as info:
                apply_move(v, move)
            assert info.value.move == move
        else:
            after = apply_move(v, move)
            assert after == view(apply_move(state, move)) == view(apply_move(other, move))


def test_a_view_follows_a_whole_turn_segment() -> None:
    state = new_game("classic", 11)
    rng = random.Random(11)
    v = view(state)
    stepped = 0
    for _ in range(400):
        moves = legal_moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        hidden = reveals(state, move)
        state = apply_move(state, move)
        if hidden:
            v = view(state)  # a card was turned up: the server sends the next view
        else:
            v = apply_move(v, move)
            stepped += 1
        assert v == view(state)
    assert stepped > 100


def test_stepping_refuses_illegal_moves_and_non_views() -> None:
    v = view(new_game("casual", seed=1))
    with pytest.raises(IllegalMoveError, match="illegal move R1-T4"):
        apply_move(v, parse_move("R1-T4"))
    with pytest.raises(TypeError, match="expects a Play"):
        apply_move(v, "T1-T0")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expects a GameState or a PublicView, got dict"):
        apply_move(v.to_dict(), parse_move("T1-T0"))  # type: ignore[type-var]
    with pytest.raises(TypeError, match="legal_moves\\(\\) expects a GameState or a PublicView, got dict"):
        legal_moves(v.to_dict())  # type: ignore[arg-type]


def test_the_hidden_card_error_names_the_move_and_pickles() -> None:
    v = apply_move(view(new_game("casual", seed=1)), parse_move("T1-T0"))
    with pytest.raises(HiddenCardError) as info:
        apply_move(v, parse_move("draw"))
    error = info.value
    assert isinstance(error, ValueError) and error.move == parse_move("draw")
    again = pickle.loads(pickle.dumps(error))
    assert str(again) == str(error) and again.move == error.move


# A client that holds only JSON views ----------------------------------------------


@pytest.mark.parametrize(("rules", "seed"), [("classic", 1), ("classic", 2), ("casual", 3)])
def test_a_client_holding_only_json_views_plays_a_whole_game_by_the_hints(rules: str, seed: int) -> None:
    from crapette import Game, GameState
    from crapette.bots import PlanningBot
    from crapette.text import render_text
    from crapette.wording import describe_move, group_moves

    game, hinter = Game(rules, seed), PlanningBot(seed=seed, playouts=50)

    def serve(request: str) -> str:
        """The server: plays what it is sent, answers with the hint and the view, as JSON."""
        asked = json.loads(request)
        if "play" in asked:
            game.push(asked["play"])
        hint = [] if game.is_over else [str(m) for m in hinter.hint(game.state)]
        return json.dumps({"hint": hint, "view": game.view().to_dict()})

    answer = json.loads(serve("{}"))
    stepped = 0
    while not game.is_over and game.state.move_count < 250:
        seen = PublicView.from_dict(answer["view"])
        assert render_text(seen) and group_moves(seen)
        moves = [parse_move(text) for text in answer["hint"]]
        # Every move of the hint but the last reveals nothing: the client steps its view along them.
        for move in moves[:-1]:
            describe_move(seen, move)
            seen = apply_move(seen, move)
            stepped += 1
        describe_move(seen, moves[-1])
        # The client plays the hint's moves one by one; each view it is sent is the one it stepped to.
        mine = PublicView.from_dict(answer["view"])
        for move in moves:
            if move not in mine.legal_moves or game.is_over:
                break
            expected = None if reveals(game.state, move) else apply_move(mine, move)
            answer = json.loads(serve(json.dumps({"play": str(move)})))
            mine = PublicView.from_dict(answer["view"])
            assert expected is None or expected == mine
            assert not isinstance(mine, GameState)
            if expected is None:
                break  # a card was turned up: a fresh hint
    assert stepped > 20
