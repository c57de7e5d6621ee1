"""Game records: replay, illegal moves, the JSON layout and the text form."""

from __future__ import annotations

import json
import pickle

import attrs
import pytest

from crapette import (
    Draw,
    GameRecord,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    ParseError,
    RecordError,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_move,
    parse_record,
)
from conftest import random_states
from crapette._formats.record import MAX_RECORD_LENGTH, MAX_RECORD_MOVES, RECORD_FORMAT_VERSION, result_of


def finished_record(rules: str, seed: int) -> GameRecord:
    states = random_states(rules, seed, 10_000)
    assert states[-1].is_over
    return GameRecord.from_states(states, seed=seed)


CASUAL_MOVES = "T1-T0 draw T3-T1 R0-T3 R0-T6 pass draw draw".split()


# Replaying -------------------------------------------------------------------------


def test_replay_returns_the_final_state_and_states_yields_every_state() -> None:
    states = random_states("classic", 2, 200)
    record = GameRecord.from_states(states, seed=2)
    assert record.replay() == states[-1]
    assert list(record.states()) == states
    assert len(record.moves) == len(states) - 1


def test_record_from_a_start_position_replays_from_it() -> None:
    states = random_states("casual", 3, 120)
    record = GameRecord.from_states(states[50:])
    assert record.seed is None and record.start == states[50]
    assert record.initial_state() == states[50]
    assert record.replay() == states[-1]


def test_illegal_move_raises_record_error_with_index_and_reason() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "draw", "R1-F0"])
    with pytest.raises(RecordError) as info:
        record.replay()
    error = info.value
    assert error.index == 2
    assert error.move is parse_move("R1-F0")
    assert error.reason == "R1 is player 1's reserve and player 0 is to move"
    assert "index 2" in str(error) and "R1-F0" in str(error)
    assert isinstance(error, ValueError)
    assert isinstance(error.__cause__, IllegalMoveError)


def test_states_yields_the_states_before_an_illegal_move() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "draw", "end"])
    seen = []
    with pytest.raises(RecordError, match="index 2"):
        for state in record.states():
            seen.append(state.move_count)
    assert seen == [0, 1, 2]


def test_a_move_after_the_end_of_the_game_is_illegal() -> None:
    record = finished_record("casual", 7)
    longer = attrs.evolve(record, moves=record.moves + (Draw(),))
    with pytest.raises(RecordError, match="the game is over") as info:
        longer.replay()
    assert info.value.index == len(record.moves)


def test_turns_group_moves_by_player() -> None:
    record = GameRecord("casual", seed=1, moves=CASUAL_MOVES)
    assert [[str(m) for m in t] for t in record.turns()] == [
        ["T1-T0", "draw", "T3-T1", "R0-T3", "R0-T6", "pass"],
        ["draw"],
        ["draw"],
    ]


def test_record_accepts_preset_names_rules_text_and_move_strings() -> None:
    a = GameRecord("classic(move_limit=500)", seed=3, moves=["draw"])
    b = GameRecord(attrs.evolve(RuleSet.classic(), move_limit=500), 3, (Draw(),))
    assert a == b


def test_from_states_checks_the_seed_and_the_links() -> None:
    states = random_states("casual", 4, 20)
    with pytest.raises(RecordError, match="not the deal of seed 5"):
        GameRecord.from_states(states, seed=5)
    with pytest.raises(RecordError, match="state 3 does not follow from state 2"):
        GameRecord.from_states(states[:3] + states[4:], seed=4)
    with pytest.raises(RecordError, match="at least the start"):
        GameRecord.from_states([])


def test_from_states_records_the_result_of_a_finished_game() -> None:
    record = finished_record("classic", 3)
    outcome = record.replay().outcome
    assert record.result is not None
    assert record.result == result_of(outcome)
    assert result_of(None) is None


# Building records: invalid values --------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seed": None}, "exactly one of seed and start"),
        ({"seed": 1, "start": new_game("casual", 1)}, "exactly one of seed and start"),
        ({"seed": -1}, "seed must be an int"),
        ({"seed": 2**64}, "seed must be an int"),
        ({"seed": None, "start": new_game("classic", 1)}, "rules (classic) differ from the record's rules (casual)"),
        ({"seed": 1, "players": ("Ann",)}, "players must be two names"),
        ({"seed": 1, "players": ("Ann", "B\nob")}, "player 1's name holds the control or surrogate character"),
        ({"seed": 1, "date": "x" * 1025}, "date is too long"),
        ({"seed": 1, "result": "2-0"}, "result must be one of 1-0, 0-1, 1/2-1/2, *"),
        ({"seed": 1, "tags": {"Rules": "x"}}, "tag key 'Rules' is reserved"),
        ({"seed": 1, "tags": {"result": "x"}}, "tag key 'result' is reserved"),
        ({"seed": 1, "tags": {"1st": "x"}}, "tag key '1st' must be a letter"),
        ({"seed": 1, "tags": [("Event", "a"), ("Event", "b")]}, "tag 'Event' given twice"),
        ({"seed": 1, "tags": {f"T{i}": "x" for i in range(65)}}, "at most 64 tags"),
    ],
)
def test_invalid_record_fields_raise_record_error(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError) as info:
        GameRecord("casual", **kwargs)  # type: ignore[arg-type]
    assert message in str(info.value)


def test_wrong_types_raise_type_error() -> None:
    with pytest.raises(TypeError):
        GameRecord(3, seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        GameRecord("casual", seed=1, moves="draw")
    with pytest.raises(TypeError):
        GameRecord("casual", seed=1, moves=[3])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        GameRecord("casual", seed=1, date=20240501)  # type: ignore[arg-type]


def test_bad_move_string_in_a_record_raises_parse_error_with_its_index() -> None:
    with pytest.raises(ParseError, match="move 1: invalid move 'fly'"):
        GameRecord("casual", seed=1, moves=["draw", "fly"])


def test_record_holds_at_most_the_move_cap() -> None:
    with pytest.raises(RecordError, match=f"at most {MAX_RECORD_MOVES} moves"):
        GameRecord("casual", seed=1, moves=[Draw()] * (MAX_RECORD_MOVES + 1))


# JSON ------------------------------------------------------------------------------


def test_json_layout_is_pinned() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "draw"], players=("Ann", "Bob"), date="2024-05-01",
                        result="*", tags={"Event": "club"})
    assert json.loads(record.to_json()) == {
        "format": "crapette-record",
        "version": 1,
        "rules": "casual",
        "seed": 1,
        "start": None,
        "moves": ["T1-T0", "draw"],
        "players": ["Ann", "Bob"],
        "date": "2024-05-01",
        "result": "*",
        "tags": {"Event": "club"},
    }
    assert list(json.loads(record.to_json())) == list(record.to_dict())
    assert RECORD_FORMAT_VERSION == 1


def test_json_round_trips_finished_games_of_both_presets() -> None:
    for rules, seed in (("casual", 7), ("classic", 3)):
        record = attrs.evolve(finished_record(rules, seed), players=("Ann", "Zoë ♠"), tags={"Event": 'a "b" \\ c'})
        text = record.to_json()
        assert GameRecord.from_json(text) == record
        assert GameRecord.from_json(text).replay() == record.replay()
        assert "Zoë ♠" in text  # written as is, not escaped


def test_json_start_position_record_round_trips() -> None:
    states = random_states("classic", 5, 80)
    record = GameRecord.from_states(states[30:])
    data = json.loads(record.to_json())
    assert data["seed"] is None and data["start"] == str(states[30])
    assert GameRecord.from_json(record.to_json()) == record


def test_saved_mid_game_json_continues_exactly_where_it_stopped() -> None:
    states = random_states("classic", 9, 150)
    sent = GameRecord.from_states(states[:100], seed=9).to_json()
    resumed = GameRecord.from_json(sent).replay()
    assert resumed == states[99]
    assert legal_moves(resumed) == legal_moves(states[99])
    assert apply_move(resumed, legal_moves(resumed)[0]) == apply_move(states[99], legal_moves(states[99])[0])


def test_json_reader_accepts_missing_optional_keys() -> None:
    record = GameRecord.from_json('{"format": "crapette-record", "version": 1, "rules": "casual", "seed": 1, "moves": []}')
    assert record == GameRecord("casual", seed=1)


BASE = {"format": "crapette-record", "version": 1, "rules": "casual", "seed": 1, "moves": []}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, "key 'format' must be \"crapette-record\""),
        ({"version": 2}, "unsupported version 2 (this release reads version 1)"),
        ({"version": "1"}, "key 'version' must be a whole number"),
        ({"version": True}, "key 'version' must be a whole number"),
        ({"rules": 5}, "key 'rules' must be a string, got a number"),
        ({"rules": "casual(x=1)"}, "key 'rules': invalid rules"),
        ({"seed": "1"}, "key 'seed' must be a whole number or null, got a string"),
        ({"seed": 1.0}, "key 'seed' must be a whole number or null, got a number"),
        ({"seed": -3}, "seed must be an int"),
        ({"seed": None}, "exactly one of seed and start"),
        ({"start": "casual 0 0"}, "key 'start': invalid position"),
        ({"moves": "draw"}, "key 'moves' must be an array of strings, got a string"),
        ({"moves": ["draw", 3]}, "key 'moves', item 1: expected a string, got a number"),
        ({"moves": ["draw", "jump"]}, "key 'moves', item 1: invalid move 'jump'"),
        ({"players": ["Ann"]}, "key 'players' must be null or an array of two strings"),
        ({"date": 2024}, "key 'date' must be a string or null, got a number"),
        ({"result": "win"}, "result must be one of"),
        ({"tags": []}, "key 'tags' must be an object, got an array"),
        ({"tags": {"Event": 1}}, "key 'tags', tag 'Event': the value must be a string, got a number"),
        ({"tags": {"Seed": "1"}}, "tag key 'Seed' is reserved"),
        ({"extra": 1}, "unknown key 'extra'"),
    ],
)
def test_malformed_json_raises_parse_error_naming_the_key(change: dict[str, object], message: str) -> None:
    with pytest.raises(ParseError, match="invalid record JSON") as info:
        GameRecord.from_json(json.dumps({**BASE, **change}))
    assert message in str(info.value)


@pytest.mark.parametrize("missing", ["format", "version", "rules", "moves"])
def test_json_without_a_required_key_is_refused(missing: str) -> None:
    data = {k: v for k, v in BASE.items() if k != missing}
    with pytest.raises(ParseError, match=f"missing key '{missing}'"):
        GameRecord.from_json(json.dumps(data))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "Expecting value"),
        ("[]", "expected an object, got an array"),
        ('{"format": "crapette-record", "format": "x"}', "key 'format' appears twice"),
        ('{"seed": NaN}', "NaN is not a number JSON allows"),
        ("{" * 20 + "}" * 20, "nested deeper than 8 levels"),
        ('{"a": "[[[[[[[[[[[[[[[["}', "unknown key 'a'"),  # brackets inside strings do not count
    ],
)
def test_json_that_is_not_a_record_raises_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError) as info:
        GameRecord.from_json(text)
    assert message in str(info.value)


def test_json_with_impossible_rules_or_start_raises_the_documented_errors() -> None:
    with pytest.raises(InvalidRulesError, match="key 'rules'"):
        GameRecord.from_json(json.dumps({**BASE, "rules": "casual(reserve_size=0)"}))
    bad_start = str(new_game("casual", 1)).replace("T:3C0/", "T:-/")
    with pytest.raises(InvalidStateError, match="missing: 3C0"):
        GameRecord.from_json(json.dumps({**BASE, "seed": None, "start": bad_start}))


def test_json_longer_than_the_cap_is_refused_before_decoding() -> None:
    with pytest.raises(ParseError, match=f"at most {MAX_RECORD_LENGTH}"):
        GameRecord.from_json(" " * (MAX_RECORD_LENGTH + 1))


def test_json_parsers_refuse_non_strings() -> None:
    with pytest.raises(TypeError):
        GameRecord.from_json(b"{}")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        parse_record(None)  # type: ignore[arg-type]


# Text form -------------------------------------------------------------------------


def test_text_form_is_pinned() -> None:
    record = GameRecord(
        "casual", seed=1, moves=CASUAL_MOVES, players=("Ann", 'Bob "B" \\'), date="2024-05-01", result="*",
        tags={"Event": "club night"},
    )
    assert str(record) == (
        '[Rules "casual"]\n'
        '[Seed "1"]\n'
        '[Player0 "Ann"]\n'
        '[Player1 "Bob \\"B\\" \\\\"]\n'
        '[Date "2024-05-01"]\n'
        '[Result "*"]\n'
        '[Event "club night"]\n'
        "\n"
        "1. T1-T0 draw T3-T1 R0-T3 R0-T6 pass\n"
        "2. draw\n"
        "3. draw\n"
        "*"
    )
    assert parse_record(str(record)) == record


def test_text_round_trips_finished_games_and_start_positions() -> None:
    for record in (finished_record("casual", 7), finished_record("classic", 3),
                   GameRecord.from_states(random_states("classic", 5, 80)[30:])):
        assert parse_record(str(record)) == record


def test_text_of_a_finished_game_ends_with_its_result() -> None:
    record = finished_record("classic", 3)
    assert record.result is not None
    assert str(record).endswith("\n" + record.result)
    assert f'[Result "{record.result}"]' in str(record)


def test_text_turn_numbers_alternate_players() -> None:
    record = finished_record("casual", 7)
    lines = str(record).split("\n\n", 1)[1].split("\n")[:-1]
    assert [line.split(". ", 1)[0] for line in lines] == [str(i) for i in range(1, len(lines) + 1)]
    state = record.initial_state()
    for number, line in enumerate(lines, 1):
        mover = state.current_player
        for token in line.split()[1:]:
            assert state.current_player == mover
            state = apply_move(state, parse_move(token))
        assert state.is_over or state.current_player != mover


def test_text_of_a_record_with_an_illegal_move_still_round_trips() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "R1-F0", "draw"])
    text = str(record)
    assert text.endswith("1. T1-T0 R1-F0 draw\n*")
    assert parse_record(text) == record


def test_text_reader_is_lenient_about_layout_comments_and_numbers() -> None:
    text = (
        '\n  [Rules "casual"]  \r\n[Seed "1"]\n'
        "1. t1-t0 DRAW {a comment\nover two lines} T3-T1 R0-T3 R0-T6 pass 7. draw draw *  \n"
    )
    assert parse_record(text) == GameRecord("casual", seed=1, moves=CASUAL_MOVES)


def test_text_result_comes_from_the_header_or_the_final_token() -> None:
    head = '[Rules "casual"]\n[Seed "1"]\n'
    assert parse_record(head + "\n*").result is None
    assert parse_record(head + "\n1-0").result == "1-0"
    assert parse_record(head + '[Result "*"]\n\n*').result == "*"
    assert parse_record(head + '[Result "0-1"]\n\n0-1').result == "0-1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('[Seed "1"]\n\n*', 'missing the [Rules "..."] header'),
        ('[Rules "casual"]\n\n*', "exactly one of the Seed and Position headers"),
        ('[Rules "casual"]\n[Seed "1"]\n[Position "x"]\n\n*', "exactly one of the Seed and Position headers"),
        ('[Rules "casual"]\n[Seed "one"]\n\n*', "line 2: header Seed must be a whole number"),
        ('[Rules "casual"]\n[Seed "-1"]\n\n*', "line 2: header Seed must be a whole number"),
        ('[Rules "casual"]\n[Seed "99999999999999999999"]\n\n*', "seed must be an int"),
        ('[Rules "casinos"]\n[Seed "1"]\n\n*', "line 1: header Rules: invalid rules"),
        ('[Rules "casual"]\n[Position "casual 0"]\n\n*', "line 2: header Position: invalid position"),
        ('[Rules "casual"]\n[Seed "1"]\n[Rules "classic"]\n\n*', "line 3: header 'Rules' given twice"),
        ('[Rules "casual"]\n[Seed "1"]\n[rules "classic"]\n\n*', "line 3: header 'rules': field names are written"),
        ('[Rules "casual"]\n[Seed 1]\n\n*', 'line 2: expected a header [Name "value"]'),
        ('[Rules "casual"]\n[Seed "1"]\n[Note "a\\nb"]\n\n*', "line 3: unknown escape \\n"),
        ('[Rules "casual"]\n[Seed "1"]\n[Player0 "Ann"]\n\n*', "Player0 and Player1 headers go together"),
        ('[Rules "casual"]\n[Seed "1"]\n[Result "2-0"]\n\n*', "line 3: header Result must be one of"),
        ('[Rules "casual"]\n[Seed "1"]\n[Result "1-0"]\n\n*', "the moves end with '*' but the Result header says '1-0'"),
        ('[Rules "casual"]\n[Seed "1"]\n\ndraw', "the moves must end with the result"),
        ('[Rules "casual"]\n[Seed "1"]\n\n1. draw\n2. fly *', "line 5, column 4: invalid move 'fly'"),
        ('[Rules "casual"]\n[Seed "1"]\n\n* draw', "line 4, column 3: 'draw' after the result '*'"),
        ('[Rules "casual"]\n[Seed "1"]\n\ndraw {oops *', "line 4, column 6: a '{' comment is not closed"),
        ('[Rules "casual"]\n[Seed "1"]\n\ndraw } *', "line 4, column 6: '}' without a '{'"),
        ('[Rules "casual"]\n[Seed "1"]\n[Bad "\x01"]\n\n*', "control or surrogate character"),
    ],
)
def test_malformed_text_raises_parse_error_saying_where(text: str, message: str) -> None:
    with pytest.raises(ParseError, match="invalid record text") as info:
        parse_record(text)
    assert message in str(info.value)


def test_text_longer_than_the_cap_is_refused() -> None:
    with pytest.raises(ParseError, match=f"at most {MAX_RECORD_LENGTH}"):
        parse_record("*" * (MAX_RECORD_LENGTH + 1))


def test_record_with_the_most_moves_fits_the_json_cap_and_reads_back() -> None:
    moves = ["T1-T0", "T0-T1"] * (MAX_RECORD_MOVES // 2)
    record = GameRecord("casual(move_limit=none)", seed=1, moves=moves)
    assert len(record.to_json()) <= MAX_RECORD_LENGTH
    assert GameRecord.from_json(record.to_json()) == record


# Errors ------------------------------------------------------------------------------------------


def test_a_record_error_survives_pickling() -> None:
    record = GameRecord("casual", seed=1, moves=["T1-T0", "R1-F0"])
    with pytest.raises(RecordError) as info:
        record.replay()
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.index, back.move, back.reason, str(back)) == (
        info.value.index,
        info.value.move,
        info.value.reason,
        str(info.value),
    )
