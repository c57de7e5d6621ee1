"""Untrusted input: every parser of the formats raises only documented ValueError subclasses.

Round trips run over states of random games under both presets and random
option combinations; the parsers are fuzzed with arbitrary text and with
valid strings mutated by character deletions, insertions and substitutions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import TypeVar

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crapette import (
    GameRecord,
    GameState,
    InvalidRulesError,
    InvalidStateError,
    ParseError,
    RuleSet,
    Scoring,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_pile,
    parse_position,
    parse_record,
    parse_rules,
)
from conftest import play_random
from crapette.strategies import presets, rulesets

CASUAL = RuleSet.casual()

# At least this many examples; a larger Hypothesis profile (HYPOTHESIS_PROFILE=thorough) runs more.
_PROFILE_EXAMPLES = settings().max_examples
FUZZ = settings(
    max_examples=max(150, _PROFILE_EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
ROUND_TRIP = settings(
    max_examples=max(60, _PROFILE_EXAMPLES), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


T = TypeVar("T")

# Any valid RuleSet, with scoring numbers and move limits far larger than the
# usual ones, so that the writers and parsers see long numbers too.
wide_rulesets = st.builds(
    attrs.evolve,
    rulesets(),
    scoring=st.none()
    | st.builds(
        Scoring,
        win_bonus=st.integers(0, 10**6),
        reserve_weight=st.integers(0, 50),
        hand_weight=st.integers(0, 50),
        waste_weight=st.integers(0, 50),
        match_target=st.integers(1, 10**6),
    ),
    move_limit=st.none() | st.integers(1, 3000),
)
any_rules = presets() | wide_rulesets


@st.composite
def game_states(draw: st.DrawFn) -> GameState:
    """A state reached by random legal moves from a random deal under random rules."""
    rules = draw(any_rules)
    seed = draw(st.integers(0, 2**64 - 1))
    moves = draw(st.integers(0, 600))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return play_random(new_game(rules, seed), moves, rng)[-1]


names = st.text(
    st.characters(blacklist_categories=("Cc", "Cs")), max_size=30
)  # metadata values: no control characters


@st.composite
def records(draw: st.DrawFn) -> GameRecord:
    """A record of a random game, from a seed or a start position, with random metadata."""
    rules = draw(any_rules)
    seed = draw(st.integers(0, 2**64 - 1))
    rng = random.Random(draw(st.integers(0, 2**32)))
    states = play_random(new_game(rules, seed), draw(st.integers(0, 40)), rng)
    split = draw(st.integers(0, len(states) - 1))
    tail = states[split:]
    from_seed = split == 0 and draw(st.booleans())
    tag_keys = st.from_regex(r"[A-Za-z][A-Za-z0-9_]{0,10}", fullmatch=True).filter(
        lambda k: k.lower() not in {"rules", "seed", "position", "player0", "player1", "date", "result"}
    )
    record = GameRecord.from_states(
        tail,
        seed=seed if from_seed else None,
        players=draw(st.none() | st.tuples(names, names)),
        date=draw(st.none() | names),
        tags=draw(st.dictionaries(tag_keys, names, max_size=4)),
    )
    if draw(st.booleans()):
        record = GameRecord(
            record.rules,
            record.seed,
            record.moves,
            start=record.start,
            players=record.players,
            date=record.date,
            result=draw(st.sampled_from([None, "1-0", "0-1", "1/2-1/2", "*"])),
            tags=record.tags,
        )
    return record


# Round trips -------------------------------------------------------------------


@ROUND_TRIP
@given(game_states())
def test_position_round_trips_for_random_games_and_rules(state: GameState) -> None:
    text = str(state)
    again = parse_position(text)
    assert again == state
    assert str(again) == text
    assert again.outcome == state.outcome
    assert legal_moves(again) == legal_moves(state)


@ROUND_TRIP
@given(any_rules)
def test_rules_text_round_trips_for_random_option_combinations(rules: RuleSet) -> None:
    text = str(rules)
    assert " " not in text
    assert parse_rules(text) == rules
    assert parse_rules(text.upper()) == rules


@ROUND_TRIP
@given(records())
def test_record_json_round_trips_exactly(record: GameRecord) -> None:
    text = record.to_json()
    again = GameRecord.from_json(text)
    assert again == record
    assert again.to_json() == text
    assert GameRecord.from_json(record.to_json(indent=2)) == record
    assert again.replay() == record.replay()


@ROUND_TRIP
@given(records())
def test_record_text_round_trips_exactly(record: GameRecord) -> None:
    text = str(record)
    again = parse_record(text)
    assert again == record
    assert str(again) == text


# Fuzzing -----------------------------------------------------------------------

GRAMMAR_CHARS = list(" ,/:-()=+[]{}\"\\\n\r\t*.0123456789dpxaFTRHWCDSKQJAnoe_\x00é♠")
edit_chars = st.sampled_from(GRAMMAR_CHARS) | st.characters()


@st.composite
def mutations(draw: st.DrawFn, valid: st.SearchStrategy[str]) -> str:
    """A valid string with 1 to 4 characters deleted, inserted or substituted anywhere."""
    text = draw(valid)
    # Positions come from a seeded generator: Hypothesis' integers favour small
    # values, which would leave the end of long strings untouched.
    rng = random.Random(draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(1, 4))):
        kind = rng.choice(["delete", "insert", "substitute"]) if text else "insert"
        i = rng.randrange(len(text) + 1) if kind == "insert" else rng.randrange(len(text))
        if kind == "delete":
            text = text[:i] + text[i + 1 :]
        elif kind == "insert":
            text = text[:i] + draw(edit_chars) + text[i:]
        else:
            text = text[:i] + draw(edit_chars) + text[i + 1 :]
    return text


def sample_positions() -> list[str]:
    rng = random.Random(5)
    out = []
    for rules in (RuleSet.casual(), RuleSet.classic()):
        for seed in (1, 2):
            states = play_random(new_game(rules, seed), 300, rng)
            out += [str(s) for s in states[:: 60]]
    odd = attrs.evolve(RuleSet.classic(), load_targets=["waste"], move_limit=77, scoring=None)
    out.append(str(play_random(new_game(odd, 9), 50, rng)[-1]))
    return out


POSITIONS = sample_positions()
RULES_TEXTS = [
    "casual",
    "classic",
    "classic(foundation_plays=optional,move_limit=500)",
    "casual(load_targets=reserve+waste,scoring=30:2:1:1:150,first_player=lower-reserve)",
]
MOVES = ["R0-F3", "T2-T5x3", "draw", "end", "pass", "W1-R0", "T7-T0x13"]
CARDS = ["QS1", "AH0", "TD1", "10c0", "K♠1"]


def sample_records() -> list[GameRecord]:
    rng = random.Random(11)
    states = play_random(new_game("classic", 4), 40, rng)
    return [
        GameRecord.from_states(states, seed=4, players=("Ann", 'B"o\\b'), date="2024-05-01", tags={"Event": "x"}),
        GameRecord.from_states(states[10:], result="*"),
        GameRecord("casual", seed=3, moves=["draw"]),
    ]


RECORDS = sample_records()
JSON_TEXTS = [r.to_json() for r in RECORDS] + [RECORDS[0].to_json(indent=1)]
RECORD_TEXTS = [str(r) for r in RECORDS]


def check_parser(
    parse: Callable[[str], T],
    text: str,
    allowed: tuple[type[Exception], ...],
    write: Callable[[T], str] | None = None,
) -> None:
    """``parse(text)`` either succeeds or raises one of ``allowed`` with a message.

    Any other exception (IndexError, KeyError, RecursionError, TypeError, ...)
    fails the test. When it succeeds, what ``write`` makes of the value reads
    back to the same value.
    """
    try:
        value = parse(text)
    except allowed as exc:
        assert str(exc), "an error must say what was wrong"
        return
    if write is not None:
        assert parse(write(value)) == value


POSITION_ERRORS = (ParseError, InvalidRulesError, InvalidStateError)
RULES_ERRORS = (ParseError, InvalidRulesError)
RECORD_ERRORS = (ParseError, InvalidRulesError, InvalidStateError)


@FUZZ
@given(st.text(max_size=200) | mutations(st.sampled_from(POSITIONS)))
def test_position_parser_raises_only_documented_errors(text: str) -> None:
    check_parser(parse_position, text, POSITION_ERRORS, str)


@FUZZ
@given(st.text(max_size=100) | mutations(st.sampled_from(RULES_TEXTS)))
def test_rules_parser_raises_only_documented_errors(text: str) -> None:
    check_parser(parse_rules, text, RULES_ERRORS, str)


@FUZZ
@given(st.text(max_size=300) | mutations(st.sampled_from(JSON_TEXTS)))
def test_record_json_parser_raises_only_documented_errors(text: str) -> None:
    check_parser(GameRecord.from_json, text, RECORD_ERRORS, GameRecord.to_json)


@FUZZ
@given(st.text(max_size=300) | mutations(st.sampled_from(RECORD_TEXTS)))
def test_record_text_parser_raises_only_documented_errors(text: str) -> None:
    check_parser(parse_record, text, RECORD_ERRORS, str)


@FUZZ
@given(st.text(max_size=20) | mutations(st.sampled_from(MOVES)))
def test_move_parser_raises_only_parse_error(text: str) -> None:
    check_parser(parse_move, text, (ParseError,), str)


@FUZZ
@given(st.text(max_size=10) | mutations(st.sampled_from(CARDS)))
def test_card_and_pile_parsers_raise_only_parse_error(text: str) -> None:
    check_parser(parse_card, text, (ParseError,), str)
    check_parser(parse_pile, text, (ParseError,), str)


@FUZZ
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=20,
    )
)
def test_record_json_parser_refuses_any_json_value_cleanly(value: object) -> None:
    check_parser(GameRecord.from_json, json.dumps(value), RECORD_ERRORS)


@FUZZ
@given(
    st.dictionaries(
        st.sampled_from(["format", "version", "rules", "seed", "start", "moves", "players", "date", "result", "tags"]),
        st.none()
        | st.booleans()
        | st.integers(-5, 2**65)
        | st.sampled_from(["crapette-record", "casual", "classic", "draw", "1-0", POSITIONS[0], "x"])
        | st.lists(st.sampled_from(["draw", "R0-F3", "x", ""]), max_size=3)
        | st.lists(st.text(max_size=3), max_size=3)
        | st.dictionaries(st.text(max_size=6), st.text(max_size=4) | st.integers(), max_size=2),
    )
)
def test_record_json_parser_refuses_wrong_field_types_cleanly(data: dict[str, object]) -> None:
    base: dict[str, object] = {"format": "crapette-record", "version": 1, "rules": "casual", "seed": 1, "moves": []}
    base.update(data)
    check_parser(GameRecord.from_json, json.dumps(base), RECORD_ERRORS)


# Caps and nesting ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("parse", "limit"),
    [
        (parse_position, 16384),
        (parse_rules, 1024),
        (GameRecord.from_json, 4_000_000),
        (parse_record, 4_000_000),
        (parse_move, 64),
        (parse_card, 64),
    ],
)
def test_every_parser_caps_its_input_size_with_a_clear_error(parse: object, limit: int) -> None:
    with pytest.raises(ParseError, match="too long"):
        parse("x" * (limit + 1))  # type: ignore[operator]


def test_deeply_nested_json_is_refused_before_decoding() -> None:
    for text in ("[" * 100_000 + "]" * 100_000, '{"a":' * 50_000 + "1" + "}" * 50_000):
        with pytest.raises(ParseError, match="nested deeper"):
            GameRecord.from_json(text)


def test_json_with_huge_integer_or_nan_is_refused_cleanly() -> None:
    base = '{"format": "crapette-record", "version": 1, "rules": "casual", "moves": [], "seed": %s}'
    for bad in ("NaN", "Infinity", "-Infinity", "1" * 5000, "1e400", "1.5", "true"):
        with pytest.raises(ParseError):
            GameRecord.from_json(base % bad)


@pytest.mark.parametrize(
    "call",
    [
        lambda: new_game("x" * 10**7),
        lambda: parse_rules("casual(" + "y" * 900 + "=1)"),
        lambda: parse_card("Q" * 10**6),
        lambda: parse_move("-" * 10**6),
        lambda: parse_position("z" * 10**6),
        lambda: parse_record("[" * 10**6),
        lambda: GameRecord(CASUAL, seed=1, players=("a" * 10**6, "b")),
        lambda: GameRecord(CASUAL, seed=1, tags={"k" * 10**6: "v"}),
        lambda: GameState.from_piles(CASUAL, tableau={0: ["x" * 10**6]}),
        lambda: attrs.evolve(CASUAL, first_player="p" * 10**6),
        lambda: attrs.evolve(CASUAL, own_tableau_build=["x"] * 10**6),
        lambda: new_game(CASUAL, seed=[0] * 10**6),  # type: ignore[arg-type]
    ],
)
def test_an_error_message_never_echoes_an_unbounded_input(call: object) -> None:
    with pytest.raises((ValueError, TypeError)) as info:
        call()  # type: ignore[operator]
    assert len(str(info.value)) < 600
