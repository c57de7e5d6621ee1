"""Rule variants: parts users write and register, the peers' variants, and the options that serve them.

The user's own module is written to a temporary directory and imported, as a
program would import its own module; everything a user does with a built-in
rule must work the same with theirs.
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path
from types import ModuleType
from collections.abc import Iterator
from typing import Any, ClassVar

import attrs
import pytest

import crapette._core.parts

from conftest import make_state, moves_text, play, run
from crapette import (
    Build,
    EndReason,
    Ending,
    FirstPlayer,
    GameRecord,
    GameState,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    Outcome,
    ParseError,
    RuleSet,
    Scoring,
    StackLimit,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_card,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
    register,
    registered,
    view,
)
from crapette.testing import check_ruleset
from crapette.variants import CARDS_LEFT, HigherReserve, NoProgress, RandomFirstPlayer, SuitUpOrDownWrap

CASUAL = RuleSet.casual()
CLASSIC = RuleSet.classic()

# A user's module: a building rule and a scoring of their own, in under 30 lines.
USER_MODULE = '''
import attrs
from crapette import Build, Card, Scoring, register


@register
class DownInSuit(Build):
    """One rank lower in the same suit: the 7 of hearts on the 8 of hearts."""

    name = "down-in-suit"
    description = "down in suit"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.suit is below.suit and card.rank == below.rank - 1


@register
@attrs.frozen
class ReserveHeavy(Scoring):
    """Reserve cards cost three points, hand and waste cards one; a win is worth 20 more."""

    name = "reserve-heavy"

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        return 3 * reserve + hand + waste
'''


def _import_user_module(tmp_path: Path, name: str) -> ModuleType:
    path = tmp_path / f"{name}.py"
    path.write_text(USER_MODULE, encoding="utf-8")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module", autouse=True)
def _registry_restored() -> Iterator[None]:
    # The parts these tests register are forgotten when the module is done.
    saved = {kind: dict(table) for kind, table in crapette._core.parts._REGISTRY.items()}
    yield
    for kind, table in crapette._core.parts._REGISTRY.items():
        table.clear()
        table.update(saved[kind])


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    return _import_user_module(tmp_path_factory.mktemp("user"), "my_crapette_rules")


def test_a_users_module_is_under_30_lines() -> None:
    lines = [line for line in USER_MODULE.strip().splitlines() if line.strip()]
    assert len(lines) < 30


def test_a_users_building_rule_and_scoring_play_save_reload_and_pass_the_checks(user: ModuleType) -> None:
    rules = attrs.evolve(CLASSIC, opponent_tableau_build="down-in-suit", scoring=user.ReserveHeavy())
    assert rules.opponent_tableau_build == user.DownInSuit()
    assert str(rules) == "classic(opponent_tableau_build=down-in-suit,scoring=reserve-heavy:30:150)"
    state = new_game(rules, seed=3)
    rng = random.Random(3)
    states = [state]
    while not state.is_over and state.move_count < 400:
        state = apply_move(state, rng.choice(legal_moves(state)))
        states.append(state)
    # Positions, records (JSON and text) and the view name the parts and read them back.
    for s in states[::40] + [state]:
        assert parse_position(str(s)) == s
    record = GameRecord.from_states(states, seed=3)
    assert parse_record(str(record)) == record == GameRecord.from_json(record.to_json())
    assert parse_record(str(record)).replay() == state
    options = view(state).to_dict()["options"]
    assert options["scoring"] == "reserve-heavy:30:150"
    assert options["opponent_tableau_build"] == "down-in-suit"
    assert parse_rules(json.loads(json.dumps(view(state).to_dict()))["rules"]) == rules
    assert check_ruleset(rules, games=2, max_moves=150).games == 2


def test_a_users_scoring_is_used_for_the_outcome(user: ModuleType) -> None:
    rules = attrs.evolve(CASUAL, scoring=user.ReserveHeavy(win_bonus=20), move_limit=10)
    state = make_state(rules, reserves={0: "KH0 QH0", 1: "5D1"}, tableau={0: "KS0"}, rest={0: "H", 1: "R"}, move_count=9)
    over = apply_move(state, legal_moves(state)[0])
    assert over.outcome is not None and over.outcome.reason is EndReason.MOVE_LIMIT
    # Penalties by the user's weights: player 0 has 1 reserve card left and a hand, player 1 a reserve.
    pen = [user.ReserveHeavy().penalty(reserve=len(over.reserves[p]), hand=len(over.hands[p]), waste=len(over.wastes[p])) for p in (0, 1)]
    assert over.outcome.scores == ((pen[1] - pen[0], 0) if pen[0] < pen[1] else (0, pen[0] - pen[1]))


def test_a_scoring_subclass_with_its_own_penalty_survives_positions_and_records(user: ModuleType) -> None:
    rules = attrs.evolve(CLASSIC, scoring=user.ReserveHeavy())
    state = new_game(rules, seed=1)
    back = parse_position(str(state))
    assert back == state and type(back.rules.scoring) is user.ReserveHeavy
    record = GameRecord(rules, seed=1)
    assert type(GameRecord.from_json(record.to_json()).rules.scoring) is user.ReserveHeavy
    assert type(parse_record(str(record)).rules.scoring) is user.ReserveHeavy


def test_reading_a_name_that_is_not_registered_names_it_and_says_how_to_register() -> None:
    text = "classic(own_tableau_build=down-in-colour)"
    with pytest.raises(InvalidRulesError) as info:
        parse_rules(text)
    message = str(info.value)
    assert "unknown building rule 'down-in-colour'" in message
    assert "@crapette.register" in message and "imported" in message
    with pytest.raises(InvalidRulesError, match="unknown scoring 'chips'"):
        parse_position(str(new_game("classic", seed=1)).replace("classic", "classic(scoring=chips:1)", 1))
    with pytest.raises(InvalidRulesError, match="unknown ending 'sudden-death'"):
        GameRecord.from_json(json.dumps({"format": "crapette-record", "version": 1, "rules": "casual(endings=sudden-death)", "seed": 1, "moves": []}))


def test_an_unregistered_part_value_is_refused_with_how_to_register() -> None:
    class Loose(Build):
        name = "loose"

        def accepts(self, below: Any, card: Any) -> bool:
            return True

    with pytest.raises(InvalidRulesError, match="not registered: decorate it with @crapette.register"):
        attrs.evolve(CASUAL, own_tableau_build=Loose())


def test_register_refuses_what_is_not_a_proper_part() -> None:
    class NotAPart:
        name = "x"

    with pytest.raises(InvalidRulesError, match="is not a rule part"):
        register(NotAPart)  # type: ignore[type-var]

    class BadName(Build):
        name = "Bad Name"

        def accepts(self, below: Any, card: Any) -> bool:
            return False

    with pytest.raises(InvalidRulesError, match="must be lower-case words"):
        register(BadName)

    class NoHook(FirstPlayer):
        name = "no-hook"

    with pytest.raises(InvalidRulesError, match=r"must define who_starts\(\)"):
        register(NoHook)

    class Taken(Build):
        name = "down-alternating"

        def accepts(self, below: Any, card: Any) -> bool:
            return False

    with pytest.raises(InvalidRulesError, match="already registered by crapette"):
        register(Taken)

    @attrs.frozen
    class Floaty(Ending):
        name = "floaty"
        share: float = 0.5

        def ends(self, count: int, state: GameState) -> bool:
            return False

    with pytest.raises(InvalidRulesError, match="must be annotated int or bool"):
        register(Floaty)

    class Emptying(Ending):
        name = "emptying"
        reason = EndReason.EMPTIED

        def ends(self, count: int, state: GameState) -> bool:
            return False

    with pytest.raises(InvalidRulesError, match="reason must be"):
        register(Emptying)


def test_a_building_rule_that_depends_on_the_deck_is_refused_when_the_rules_are_made() -> None:
    @register
    class DeckZeroOnly(Build):
        name = "deck-zero-only"

        def accepts(self, below: Any, card: Any) -> bool:
            return card.deck == 0 and card.rank == below.rank - 1

    with pytest.raises(InvalidRulesError, match="must not depend on the deck"):
        attrs.evolve(CASUAL, own_tableau_build="deck-zero-only")


def test_registered_lists_every_kind() -> None:
    assert {"down-alternating", "suit-up-or-down", "suit-up-or-down-wrap"} <= set(registered(Build))
    assert {"player-0", "player-1", "lower-reserve", "higher-reserve", "random"} <= set(registered(FirstPlayer))
    assert "weighted" in registered(Scoring)
    assert {"stalemate", "blocked", "move-limit", "no-progress"} <= set(registered(Ending))
    with pytest.raises(TypeError):
        registered(RuleSet)  # type: ignore[arg-type]


def test_built_in_endings_are_selected_by_their_options_not_by_endings() -> None:
    with pytest.raises(InvalidRulesError, match="selected by its own option"):
        attrs.evolve(CASUAL, endings=["move-limit:50"])
    with pytest.raises(InvalidRulesError, match="selected by its own option"):
        parse_rules("casual(endings=stalemate)")


# The peers' variants -------------------------------------------------------------------


def test_variant_the_higher_reserve_card_starts() -> None:
    rules = attrs.evolve(CLASSIC, first_player="higher-reserve")
    assert rules.first_player == HigherReserve()
    for seed in range(20):
        state = new_game(rules, seed=seed)
        mine, theirs = (r[-1].rank for r in state.reserves)
        if mine != theirs:
            assert state.current_player == (0 if mine > theirs else 1)
            assert new_game(CLASSIC, seed=seed).current_player == 1 - state.current_player
    # A chosen deal: the kings on the reserves tie, so do the twos on T0 and T4;
    # the four on T5 beats the three on T1.
    deck0 = "AC0 2C0 3C0 4C0 5C0 6C0 7C0 8C0 9C0 TC0 JC0 QC0 KS0 2S0 3S0"
    deck1 = "AD1 2D1 3D1 4D1 5D1 6D1 7D1 8D1 9D1 TD1 JD1 QD1 KH1 2H1 4H1"
    dealt = new_game(rules, decks=(deck0, deck1))
    assert [str(r[-1]) for r in dealt.reserves] == ["KS0", "KH1"]
    assert [str(t[0]) for t in dealt.tableau[:2] + dealt.tableau[4:6]] == ["2S0", "3S0", "2H1", "4H1"]
    assert dealt.current_player == 1
    assert new_game(CLASSIC, decks=(deck0, deck1)).current_player == 0


def test_variant_a_seeded_random_first_player() -> None:
    rules = attrs.evolve(CASUAL, first_player="random")
    assert rules.first_player == RandomFirstPlayer()
    firsts = [new_game(rules, seed=s).current_player for s in range(64)]
    assert firsts == [new_game(rules, seed=s).current_player for s in range(64)]
    assert 16 < sum(firsts) < 48
    # The same seed decides with a chosen deal too.
    assert new_game(rules, seed=5, decks=("AC0", None)).current_player == firsts[5]


def test_variant_the_drawn_card_must_be_dealt_with_before_any_other_move() -> None:
    rules = attrs.evolve(CLASSIC, drawn_first=True)
    tableau = {0: "KS0", 1: "KD0", 2: "KC0", 3: "KH0", 4: "KS1", 5: "QD1", 6: "KC1", 7: "KH1"}
    state = make_state(rules, reserves={0: "QH0", 1: "5D1"}, tableau=tableau, wastes={0: "JS0"}, drawn=True, rest="H")
    assert moves_text(state) == ["W0-T5", "end"]
    message = str(pytest.raises(IllegalMoveError, apply_move, state, parse_move("R0-T0")).value)
    assert "the drawn card JS0 must be dealt with (played or declined with End turn) before any other move" in message
    free = GameState.from_piles(CLASSIC, **_piles(state))
    assert {"R0-T0", "R0-T2", "R0-T4", "R0-T6", "T5-T0", "W0-T5", "end"} <= set(moves_text(free))
    # Once it is played, everything is open again.
    assert {"R0-T0", "R0-T2", "R0-T4", "R0-T6", "draw"} <= set(moves_text(play(state, "W0-T5")))


def _piles(state: GameState) -> dict[str, Any]:
    return {
        "foundations": state.foundations, "tableau": state.tableau, "reserves": state.reserves,
        "hands": state.hands, "wastes": state.wastes, "current_player": state.current_player, "drawn": state.drawn,
    }


def test_variant_loading_wraps_king_and_ace() -> None:
    rules = attrs.evolve(CLASSIC, load_build="suit-up-or-down-wrap")
    assert rules.load_build == SuitUpOrDownWrap()
    kings = {0: "KS0", 1: "KD0", 2: "KC0", 3: "KS1", 4: "KD1", 5: "KC1", 6: "3C0", 7: "2C0"}
    state = make_state(rules, reserves={0: "KH0", 1: "5C1 AH1"}, tableau=kings, rest="H")
    assert moves_text(state) == ["R0-R1", "draw"]
    assert play(state, "R0-R1").reserves[1][-1] == parse_card("KH0")
    plain = GameState.from_piles(CLASSIC, **_piles(state))
    assert moves_text(plain) == ["draw"]
    assert explain_illegal(plain, parse_move("R0-R1")) == "KH0 cannot be loaded onto AH1: loading builds up or down in suit"
    # The tableau does not wrap: only loading follows load_build.
    assert not Build.SUIT_UP_OR_DOWN.accepts(parse_card("KH0"), parse_card("AH1"))
    assert SuitUpOrDownWrap().accepts(parse_card("AH1"), parse_card("KH0"))


def test_variant_runs_of_any_length_move_as_one() -> None:
    rules = attrs.evolve(CLASSIC, stack_limit="unlimited")
    assert rules.stack_limit is StackLimit.UNLIMITED
    tableau = {0: "KS0 QH0 JS0 TH0 9S0", 1: "KD0", 2: "KD1", 3: "KH1", 4: "KH0", 5: "KS1", 6: "KC1", 7: "KC0"}
    state = make_state(rules, tableau=tableau, reserves={0: "5C0", 1: "5D1"}, rest="H")
    # No pile is empty, yet the four cards from the queen move onto any black king.
    assert [m for m in moves_text(state) if "x" in m] == ["T0-T5x4", "T0-T6x4", "T0-T7x4"]
    after = play(state, "T0-T6x4")
    assert [str(c) for c in after.tableau[6]] == ["KC1", "QH0", "JS0", "TH0", "9S0"]
    limited = GameState.from_piles(CLASSIC, **_piles(state))
    assert [m for m in moves_text(limited) if "x" in m] == []  # R5: no empty pile, no stack
    assert "R5" in explain_illegal(limited, parse_move("T0-T6x4"))


def test_variant_no_progress_stalemate() -> None:
    rules = attrs.evolve(CASUAL, endings=[NoProgress(turns=3)], move_limit=None)
    assert str(rules) == "casual(move_limit=none,endings=no-progress:3)"
    state = new_game(rules, seed=2)
    assert state.counters == (0,)
    rng = random.Random(2)
    while not state.is_over:
        before = state
        move = rng.choice(legal_moves(state))
        state = apply_move(state, move)
        progress = move.__class__.__name__ == "Play" and move.source.kind.name in ("RESERVE", "WASTE")  # type: ignore[attr-defined]
        assert state.counters[0] == (0 if progress else before.counters[0] + (state.current_player != before.current_player))
        assert parse_position(str(state)) == state
    assert state.outcome is not None and state.outcome.reason is EndReason.STALEMATE
    assert state.counters == (4,)  # three whole turns without progress after the turn of the last one
    assert str(state).split()[3].endswith("c4")


def test_variant_one_point_per_card_left() -> None:
    rules = attrs.evolve(CLASSIC, scoring=CARDS_LEFT)
    assert str(rules) == "classic(scoring=weighted:0:1:1:1:150)"
    foundations = {0: run("C0", 1, 13), 1: run("D0", 1, 13), 2: run("S0", 1, 12), 3: run("H0", 1, 12)}
    tableau = {0: "KS0", 4: "KH1", 5: "KD1", 6: "KS1", 7: "KC1"}
    state = make_state(rules, foundations=foundations, tableau=tableau, reserves={0: "KH0", 1: "5D1"}, rest="H")
    won = play(state, "R0-F3")
    left = len(won.reserves[1]) + len(won.hands[1]) + len(won.wastes[1])
    assert won.outcome == Outcome(0, EndReason.EMPTIED, (left, 0))
    assert CARDS_LEFT.penalty(reserve=3, hand=4, waste=5) == 12
    assert CARDS_LEFT.points_for_win(reserve=3, hand=4, waste=5) == 12


# Positions built by hand, and chosen deals ---------------------------------------------------


def test_from_piles_places_the_cards_not_named_under_a_pile_of_their_owner() -> None:
    state = GameState.from_piles("classic", reserves={0: "QH0", 1: "5D1"}, tableau={0: "KS0"}, rest="hand")
    assert state.reserves == ((parse_card("QH0"),), (parse_card("5D1"),))
    assert len(state.hands[0]) == 50 and len(state.hands[1]) == 51
    assert state.hands[0][0] == parse_card("AC0")  # in the order of ALL_CARDS, under the named cards
    assert GameState.from_piles(CASUAL, reserves=["2C0", "3C1"], rest="waste").wastes[1][0] == parse_card("AC1")
    under = GameState.from_piles(CASUAL, reserves=["2C0", "3C1"], hands=["AC0 4C0", "AC1"], rest="reserve")
    assert under.reserves[0][-1] == parse_card("2C0") and under.hands[0] == (parse_card("AC0"), parse_card("4C0"))
    with pytest.raises(InvalidStateError, match="missing"):
        GameState.from_piles(CASUAL, reserves=["2C0", "3C1"])
    with pytest.raises(InvalidStateError, match="rest must be None"):
        GameState.from_piles(CASUAL, rest="table")
    with pytest.raises(InvalidStateError, match="tableau has piles 0 to 7"):
        GameState.from_piles(CASUAL, tableau={8: "KS0"}, rest="hand")
    with pytest.raises(InvalidStateError, match=r"tableau\[0\]: invalid card 'XX'"):
        GameState.from_piles(CASUAL, tableau={0: "XX"}, rest="hand")
    with pytest.raises(InvalidStateError, match="is in both"):
        GameState.from_piles(CASUAL, tableau={0: "KS0", 1: "KS0"}, rest="hand")


def test_new_game_deals_a_chosen_card_order() -> None:
    state = new_game("casual", seed=9, decks=("7S0 8S0", ["KD1"]))
    assert state.reserves[0][:2] == (parse_card("7S0"), parse_card("8S0"))
    assert state.reserves[1][0] == parse_card("KD1")
    # The rest follows the seed's shuffle, leaving out the named cards.
    plain = new_game("casual", seed=9)
    rest = [c for c in plain.reserves[0] + tuple(t[0] for t in plain.tableau[:4]) + plain.hands[0][::-1] if c.rank != 0]
    dealt = state.reserves[0] + tuple(t[0] for t in state.tableau[:4]) + state.hands[0][::-1]
    assert [c for c in dealt[2:]] == [c for c in rest if c not in (parse_card("7S0"), parse_card("8S0"))]
    full = [str(c) for c in dealt]
    assert new_game("casual", seed=0, decks=(full, None)).piles[16] == state.piles[16]
    with pytest.raises(InvalidStateError, match="a card of player 1's deck"):
        new_game("casual", decks=(["AC1"], None))
    with pytest.raises(InvalidStateError, match="twice"):
        new_game("casual", decks=(["AC0", "AC0"], None))
    with pytest.raises(InvalidStateError, match="invalid card"):
        new_game("casual", decks=(["zz"], None))
    with pytest.raises(InvalidStateError, match="a pair"):
        new_game("casual", decks=("AC0",))  # type: ignore[arg-type]


# Endings of one's own -----------------------------------------------------------------------


def test_an_ending_of_ones_own_ends_the_game_with_its_reason() -> None:
    @register
    @attrs.frozen
    class KingHome(Ending):
        """The game ends as soon as any foundation holds a King (an ending with no count)."""

        name: ClassVar[str] = "test-king-home"
        reason: ClassVar[EndReason] = EndReason.MOVE_LIMIT

        def ends(self, count: int, state: GameState) -> bool:
            return any(len(f) == 13 for f in state.foundations)

    rules = attrs.evolve(CASUAL, endings=[KingHome()])
    state = make_state(rules, foundations={0: "AH0 2H0 3H0 4H0 5H0 6H0 7H0 8H0 9H0 TH0 JH0 QH0"}, reserves={0: "KH0", 1: "5D1"}, rest="H")
    over = play(state, "R0-F0")
    assert over.outcome == Outcome(None, EndReason.MOVE_LIMIT, None, ending="test-king-home")
    assert legal_moves(over) == ()
    assert parse_position(str(over)).outcome == over.outcome


def test_an_endings_bad_count_is_refused() -> None:
    @register
    class Negative(Ending):
        name = "test-negative"

        def start(self, deal: GameState) -> int:
            return -1

        def ends(self, count: int, state: GameState) -> bool:
            return False

    with pytest.raises(InvalidRulesError, match=r"the ending test-negative: start\(\) returned -1"):
        new_game(attrs.evolve(CASUAL, endings=[Negative()]), seed=1)


def test_counters_round_trip_and_are_checked() -> None:
    rules = attrs.evolve(CASUAL, endings=["no-progress:5", "no-progress:9"])
    state = new_game(rules, seed=4)
    assert state.counters == (0, 0)
    moved = state
    for _ in range(30):
        moved = apply_move(moved, legal_moves(moved)[-1])
    assert parse_position(str(moved)) == moved
    with pytest.raises(InvalidStateError, match="counters holds 1 count"):
        GameState(rules, state.piles, counters=(1,))
    with pytest.raises(ParseError, match="1 count"):
        parse_position(str(state).replace(" - F:", " c3 F:", 1))
    text = str(attrs.evolve(state, counters=(3, 7)))
    assert text.split()[3] == "c3c7"
