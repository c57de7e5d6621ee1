"""Position strings and rules text: the grammar, round trips, and the errors for bad input."""

from __future__ import annotations


import attrs
import pytest

from crapette import (
    InvalidRulesError,
    InvalidStateError,
    LoadTarget,
    ParseError,
    RuleSet,
    Scoring,
    new_game,
    parse_position,
    parse_rules,
)
from conftest import make_state, random_states
from crapette._formats.position import MAX_POSITION_LENGTH
from crapette._core.rules import MAX_RULES_LENGTH

CASUAL = RuleSet.casual()

CASUAL_1 = (
    "casual 0 0 - F:-/-/-/-/-/-/-/- T:3C0/2D0/JH0/5H0/JS1/9C1/4D1/7D1 "
    "R:7D0,9C0,4D0,8H0,8D0,5S0,JD0,6D0,9S0,JC0,5D0,KD0/QD1,8S1,5C1,TH1,5H1,7H1,AD1,6S1,9D1,2H1,KC1,QS1 "
    "H:7S0,9H0,2S0,3H0,TC0,8C0,2H0,4C0,AC0,3S0,3D0,9D0,QD0,QH0,QS0,6H0,KS0,AH0,5C0,AS0,7C0,6C0,4S0,"
    "QC0,8S0,TD0,JS0,TS0,TH0,KH0,KC0,6S0,AD0,2C0,4H0,7H0/5D1,KD1,TS1,7S1,6H1,8D1,JH1,5S1,6D1,4C1,KS1,"
    "3H1,4S1,3D1,9H1,TD1,QC1,6C1,3S1,3C1,8C1,JC1,KH1,QH1,AS1,2D1,7C1,JD1,2S1,9S1,2C1,4H1,AH1,AC1,8H1,TC1 "
    "W:-/-"
)


# The grammar ---------------------------------------------------------------------


def test_position_of_a_fresh_casual_deal_is_pinned() -> None:
    # A game followed from its deal remembers it: every unseen card lies where it was dealt.
    assert str(new_game("casual", seed=1)) == CASUAL_1 + " M:deal"


def test_position_fields_are_rules_player_count_flags_and_five_pile_groups() -> None:
    fields = str(new_game("classic", seed=5)).split(" ")
    assert len(fields) == 10 and fields.pop() == "M:deal"
    assert fields[0] == "classic"
    assert fields[1] in ("0", "1")
    assert fields[2] == "0"
    assert fields[3] == "-"
    assert [f[:2] for f in fields[4:]] == ["F:", "T:", "R:", "H:", "W:"]
    assert [len(f[2:].split("/")) for f in fields[4:]] == [8, 8, 2, 2, 2]


def test_flags_write_drawn_passes_exhaustion_and_played_marks() -> None:
    state = new_game("classic", seed=5)
    pos = str(state)
    rest = pos.split(" ", 4)[4]
    text = f"classic {state.current_player} 7 px1a0 {rest}"
    read = parse_position(text)
    assert (read.passes, read.exhausted, read.played, read.move_count) == (1, (False, True), (True, False), 7)
    assert str(read) == text


def test_flags_are_read_in_any_order() -> None:
    rest = CASUAL_1.split(" ", 4)[4]
    a = parse_position(f"casual(stalemate=true) 0 3 a1pa0 {rest}")
    b = parse_position(f"casual(stalemate=true) 0 3 pa0a1 {rest}")
    assert a == b
    assert str(a).split()[3] == "pa0a1"


def test_position_reader_ignores_case_of_letters_and_extra_whitespace() -> None:
    messy = "  " + CASUAL_1.replace(" ", "   ").replace("T:", "t:").replace("casual", "CASUAL") + "  m:DEAL\n"
    assert parse_position(messy) == new_game("casual", seed=1)


# Round trips ----------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["casual", "classic"])
def test_position_round_trips_for_every_state_of_random_games(rules: str) -> None:
    for seed in range(3):
        for state in random_states(rules, seed, 400)[::7]:
            text = str(state)
            assert parse_position(text) == state
            assert str(parse_position(text)) == text


def test_position_round_trips_for_finished_games() -> None:
    for seed in range(4):
        final = random_states("casual", seed, 3000)[-1]
        assert final.is_over
        again = parse_position(str(final))
        assert again == final and again.outcome == final.outcome


def test_repr_of_a_state_is_the_position_call() -> None:
    state = random_states("classic", 2, 50)[-1]
    assert repr(state) == f"parse_position({str(state)!r})"


# Rules text -----------------------------------------------------------------------


def test_rules_text_of_presets_is_the_preset_name() -> None:
    assert str(RuleSet.casual()) == "casual"
    assert str(RuleSet.classic()) == "classic"


def test_rules_text_lists_only_changed_options_in_field_order() -> None:
    rules = attrs.evolve(RuleSet.classic(), move_limit=500, foundation_plays="optional")
    assert str(rules) == "classic(foundation_plays=optional,move_limit=500)"


def test_rules_text_writes_every_kind_of_value() -> None:
    rules = attrs.evolve(
        RuleSet.casual(),
        load_targets=[LoadTarget.WASTE, LoadTarget.RESERVE],
        scoring=Scoring(1, 2, 3, 4, 5),
        end_turn=True,
        move_limit=None,
    )
    text = str(rules)
    assert text == "casual(load_targets=reserve+waste,end_turn=true,move_limit=none,scoring=weighted:1:2:3:4:5)"
    assert parse_rules(text) == rules


def test_rules_text_picks_the_nearer_preset() -> None:
    near_classic = attrs.evolve(RuleSet.classic(), reserve_size=12)
    assert str(near_classic) == "classic(reserve_size=12)"
    near_casual = attrs.evolve(RuleSet.casual(), reserve_size=13)
    assert str(near_casual) == "casual(reserve_size=13)"


def test_rules_reader_accepts_spaces_and_any_case() -> None:
    assert parse_rules(" Classic( Move_Limit = 500 , FOUNDATION_PLAYS=Optional ) ") == attrs.evolve(
        RuleSet.classic(), move_limit=500, foundation_plays="optional"
    )


def test_every_ruleset_option_is_declared_once_with_its_text_form() -> None:
    assert [o.name for o in RuleSet.options()] == [a.name for a in attrs.fields(RuleSet)]
    for opt in RuleSet.options():
        assert opt.from_text(opt.to_text(opt.default)) == opt.default


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("poker", "unknown preset 'poker'"),
        ("casual(", "missing ')'"),
        ("casual()", "empty option list"),
        ("casual(move_limit=5", "missing ')'"),
        ("casual(move_limit)", "option 1 ('move_limit') is not <option>=<value>"),
        ("casual(colour=red)", "unknown option 'colour'"),
        ("casual(move_limit=5,move_limit=6)", "option move_limit given twice"),
        ("casual(move_limit=lots)", "option move_limit: move_limit must be a whole number, got 'lots'"),
        ("casual(move_limit=-5)", "must be a whole number"),
        ("casual(end_turn=yes)", "option end_turn: end_turn must be true or false, got 'yes'"),
        ("casual(waste_play=never)", "waste_play must be one of always, drawn, got 'never'"),
        ("casual(load_targets=hand)", "load_targets must be one of reserve, waste, got 'hand'"),
        ("casual(scoring=1:2:3)", "scoring weighted takes 5 parameters"),
        ("casual(scoring=1:2:x:4:5)", "weighted parameter hand_weight must be a whole number"),
        ("casual(a=(b))", "unexpected parenthesis"),
        ("casual(move_limit=" + "9" * 40 + ")", "must be a whole number"),
    ],
)
def test_malformed_rules_text_raises_parse_error_saying_what_and_where(text: str, message: str) -> None:
    with pytest.raises(ParseError, match="invalid rules") as info:
        parse_rules(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("casual(reserve_size=0)", "reserve_size must be from 1 to 48, got 0"),
        ("casual(move_limit=0)", "move_limit must be >= 1"),
        ("classic(own_tableau_build=suit-up-or-down,opponent_tableau_build=suit-up-or-down)", "stack_moves needs"),
        ("casual(scoring=30:2:1:1:0)", "match_target must be >= 1"),
    ],
)
def test_impossible_rules_text_raises_invalid_rules_error(text: str, message: str) -> None:
    with pytest.raises(InvalidRulesError, match="invalid rules") as info:
        parse_rules(text)
    assert message in str(info.value)


def test_rules_text_longer_than_the_cap_is_refused() -> None:
    with pytest.raises(ParseError, match=f"at most {MAX_RULES_LENGTH}"):
        parse_rules("casual" + " " * MAX_RULES_LENGTH)


def test_rules_functions_refuse_wrong_types() -> None:
    with pytest.raises(TypeError):
        parse_rules(b"casual")  # type: ignore[arg-type]


# Malformed positions ---------------------------------------------------------------

REST = CASUAL_1.split(" ", 4)[4]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected 9 fields separated by spaces"),
        ("casual 0 0 -", "expected 9 fields separated by spaces (rules, player, move count, flags, F:, T:, R:, H:, W:) and maybe the memory M:, got 4"),
        (f"casino 0 0 - {REST}", "field 1 (rules): invalid rules 'casino': unknown preset"),
        (f"casual 2 0 - {REST}", "field 2 (player): the player to move must be 0 or 1, got '2'"),
        (f"casual 0 -1 - {REST}", "field 3 (move count): the move count must be a whole number, got '-1'"),
        (f"casual 0 {'9' * 40} - {REST}", "field 3 (move count)"),
        (f"casual 0 0 q {REST}", "field 4 (flags): unexpected 'q' at character 1"),
        (f"casual 0 0 ppp {REST}", "field 4 (flags): unexpected 'p' at character 3"),
        (f"casual 0 0 x0x0 {REST}", "field 4 (flags): x0 given twice"),
        (f"casual 0 0 x2 {REST}", "field 4 (flags)"),
        (CASUAL_1.replace("F:-/-/-/-/-/-/-/-", "F:-/-/-/-/-/-/-"), "field 5 (F:): expected 8 piles separated by '/', got 7"),
        (CASUAL_1.replace("F:", "G:"), "field 5 (F:): expected F: followed by 8 piles"),
        (CASUAL_1.replace("T:3C0/2D0/JH0", "T:3C0/2D0/JX0"), "field 6 (T:): pile T2, card 1: invalid card 'JX0': unknown suit 'X'"),
        (CASUAL_1.replace("R:7D0,9C0", "R:7D0,,9C0"), "field 7 (R:): pile R0, card 2: invalid card ''"),
        (CASUAL_1.replace("W:-/-", "W:-/"), "field 9 (W:): pile W1, card 1: invalid card ''"),
        (CASUAL_1.replace("W:-/-", "W:-/-/-"), "field 9 (W:): expected 2 piles separated by '/', got 3"),
    ],
)
def test_malformed_position_raises_parse_error_naming_the_field(text: str, message: str) -> None:
    with pytest.raises(ParseError, match="invalid position") as info:
        parse_position(text)
    assert message in str(info.value)


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (CASUAL_1.replace("T:3C0/", "T:3C0,3C0/"), "card 3C0 is in both T0 and T0"),
        (CASUAL_1.replace("T:3C0/", "T:-/"), "1 card(s) missing: 3C0"),
        (CASUAL_1.replace("T:3C0/2D0/", "T:-/-/").replace("F:-/", "F:2D0,3C0/"), "foundation F0 starts with 2D0, not an Ace"),
        (CASUAL_1.replace("casual 0 0", "casual 0 1001"), "move_count 1001 is past the move limit 1000"),
        (CASUAL_1.replace("casual 0 0 -", "casual 0 0 d"), "drawn is set but player 0's waste is empty"),
        (CASUAL_1.replace("casual 0 0 -", "casual 0 0 x0a0"), "player 0 is marked exhausted but has played a card"),
    ],
)
def test_impossible_position_raises_invalid_state_error_naming_the_problem(text: str, problem: str) -> None:
    with pytest.raises(InvalidStateError) as info:
        parse_position(text)
    assert any(problem in p for p in info.value.problems)


def test_position_with_103_cards_names_the_missing_card() -> None:
    with pytest.raises(InvalidStateError, match="missing: 7D1"):
        parse_position(CASUAL_1.replace("/7D1 R:", "/- R:"))


def test_position_with_an_unordered_foundation_names_it() -> None:
    state = random_states("casual", 3, 3000)[-1]
    foundation = next(i for i, f in enumerate(state.foundations) if len(f) >= 3)
    cards = ",".join(str(c) for c in state.foundations[foundation])
    first, second, rest = cards.split(",", 2)
    swapped = str(state).replace(cards, f"{first},{rest},{second}" if rest else f"{second},{first}")
    with pytest.raises(InvalidStateError, match=f"foundation F{foundation} has"):
        parse_position(swapped)


def test_position_with_impossible_rules_raises_invalid_rules_error() -> None:
    with pytest.raises(InvalidRulesError, match="field 1 \\(rules\\)"):
        parse_position(CASUAL_1.replace("casual 0", "casual(reserve_size=99) 0"))


def test_position_longer_than_the_cap_is_refused_before_parsing() -> None:
    with pytest.raises(ParseError, match=f"too long \\({MAX_POSITION_LENGTH + 1} characters"):
        parse_position("x" * (MAX_POSITION_LENGTH + 1))


def test_position_reader_refuses_a_non_string() -> None:
    with pytest.raises(TypeError):
        parse_position(None)  # type: ignore[arg-type]


def test_a_huge_part_text_is_refused_before_it_is_split() -> None:
    with pytest.raises((ParseError, InvalidRulesError), match="at most"):
        attrs.evolve(CASUAL, endings=["no-progress:" + "9" * 1000])
    assert make_state(CASUAL, reserves={0: "5C0", 1: "5D1"}).rules is CASUAL
