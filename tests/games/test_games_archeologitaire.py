"""Archeologitaire (examples/games/archeologitaire.py): one test per rule of its sheet and per ruling,
properties, the solver and the terminal.

Rules A1-A15 and rulings AR1-AR10 are those of docs/games/archeologitaire.rst.
"""

from __future__ import annotations

import doctest
import io
import random
import subprocess
import sys
from collections.abc import Iterable, Sequence

import pytest
from conftest import GAMES, deck_cards, examples, run_game
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import Card, IllegalMoveError, ParseError, Suit
from crapette.bots import RandomBot
from crapette.simulation import simulate
from crapette.testing import check_game


import archeologitaire as arch  # noqa: E402
from crapette import gamekit
from archeologitaire import ArcheoState, apply_move, legal_moves, new_game, parse_move  # noqa: E402


cards = deck_cards


def make(
    piles: Sequence[str],
    *,
    stock: str = "",
    discard: str = "",
    found: Sequence[int] = (0, 0, 0, 0),
    seen: bool = False,
    idle: int = 0,
) -> ArcheoState:
    """A state from seven piles written ``"## ## 5H 4S"`` (each ``##`` a face-down card, taken from the
    cards not placed elsewhere), the deck-pile and discard pile (bottom first) and the suit piles' tops.
    The cards not placed lie at the bottom of the deck-pile."""
    piles = list(piles) + [""] * (arch.PILES - len(piles))
    placed = set(cards(stock) + cards(discard))
    placed |= {c for pile in piles for c in cards(pile.replace("##", ""))}
    placed |= {Card(r, s, 0) for s, top in zip(Suit, found) for r in range(1, top + 1)}
    spare = [c for c in arch.deck if c not in placed]
    tableau, down = [], []
    for pile in piles:
        hidden = pile.split().count("##")
        tableau.append(tuple(spare[:hidden]) + cards(pile.replace("##", "")))
        spare = spare[hidden:]
        down.append(hidden)
    return ArcheoState(tableau, down, tuple(spare) + cards(stock), cards(discard), tuple(found), seen, idle)


def play(state: ArcheoState, *moves: str) -> ArcheoState:
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


def texts(state: ArcheoState) -> list[str]:
    return [str(m) for m in legal_moves(state)]


def all_cards(state: ArcheoState) -> list[Card]:
    return sorted(arch.cards(state), key=lambda c: c.index)


FULL = sorted(arch.deck, key=lambda c: c.index)


# The sheet's rules ----------------------------------------------------------------------------------


def test_rule_A1_one_pack_of_52_cards_in_four_suits_of_two_colours() -> None:
    assert len(set(arch.deck)) == 52 and {c.suit for c in arch.deck} == set(Suit)
    assert all(sorted(c.rank for c in arch.deck if c.suit is s) == list(range(1, 14)) for s in Suit)
    assert all_cards(new_game(8)) == FULL


def test_rule_A2_seven_piles_of_one_to_seven_cards_only_the_top_face_up() -> None:
    state = new_game(2)
    assert [len(p) for p in state.tableau] == [1, 2, 3, 4, 5, 6, 7]
    assert state.down == (0, 1, 2, 3, 4, 5, 6)
    assert [len(p) for p in arch.view(state).faceup] == [1] * 7


def test_rule_A3_the_other_24_cards_are_the_deck_pile_and_the_other_piles_start_empty() -> None:
    state = new_game(2)
    assert len(state.stock) == 24 and state.discard == () and state.foundations == (0, 0, 0, 0)


def test_rule_A4_the_object_is_all_52_cards_on_the_suit_piles() -> None:
    state = make(["KS"], found=(13, 13, 13, 12))
    assert "T1-F" in texts(state)
    won = play(state, "T1-F")
    assert won.is_over and won.outcome == arch.ArcheoOutcome(True, 52, "won")
    assert won.outcome.winner == 0 and arch.returns(won) == (1.0,)


def test_rule_A5_draw_turns_the_top_card_of_the_deck_pile_face_up_onto_the_discard_pile() -> None:
    state = new_game(5)
    after = play(state, "draw")
    assert after.discard == (state.stock[-1],) and after.stock == state.stock[:-1]


def test_rule_A6_the_top_of_the_discard_pile_goes_to_a_tableau_pile_or_its_suit_pile() -> None:
    state = make(["## 9C", "AH"], discard="AD 8H", stock="2S")
    assert "W-T1" in texts(state)
    assert play(state, "W-T1").tableau[0][-1] == cards("8H")[0]
    ace = make(["## 9C"], discard="8H AD", stock="2S")
    assert "W-F" in texts(ace) and play(ace, "W-F").foundations == (0, 1, 0, 0)
    with pytest.raises(IllegalMoveError, match="8H cannot go to its suit pile: it takes an Ace"):
        play(state, "W-F")


def test_rule_A7_a_face_up_card_or_build_moves_onto_another_tableau_pile() -> None:
    state = make(["## 9C 8D 7S", "## TH", "## 8H"], stock="2S")
    assert {"T1-T2x3", "T1-T3"} <= set(texts(state))
    after = play(state, "T1-T2x3")
    assert after.tableau[1][-4:] == cards("TH 9C 8D 7S") and after.down[0] == 1 and len(after.tableau[0]) == 1


def test_rule_A8_a_face_up_tableau_top_goes_to_its_suit_pile() -> None:
    state = make(["## 2C", "## 5H"], found=(1, 0, 0, 0), stock="2S")
    assert "T1-F" in texts(state) and "T2-F" not in texts(state)
    assert play(state, "T1-F").foundations == (2, 0, 0, 0)


def test_rule_A9_a_face_down_top_card_is_turned_over() -> None:
    state = play(make(["## 2C", "## ## 5H"], found=(1, 0, 0, 0), stock="2S"), "T1-F")
    assert texts(state)[0] == "flip T1"
    after = play(state, "flip T1")
    assert after.down[0] == 0 and arch.view(after).faceup[0] == after.tableau[0]


def test_rule_A10_an_empty_deck_pile_is_replaced_by_the_discard_pile_turned_over() -> None:
    state = make(["## 9C"], discard="2S 3S 4S", stock="")
    state = ArcheoState(state.tableau, state.down, (), cards("2S 3S 4S") + state.stock, (0, 0, 0, 0), False, 0)
    assert texts(state)[-1] == "recycle" and "draw" not in texts(state)
    after = play(state, "recycle")
    assert after.discard == () and after.stock == tuple(reversed(state.discard))
    assert play(after, "draw").discard == (state.discard[0],)  # the first card turned comes first again


def test_rule_A11_a_move_against_the_placement_rules_cannot_be_made() -> None:
    state = make(["## 9C", "## 9D", "## 8C"], stock="2S")
    for text in ("T3-T1", "T1-T2", "T2-F"):
        assert text not in texts(state)
        with pytest.raises(IllegalMoveError):
            play(state, text)


#: Black cards from 8 up left on seven piles, every top black, no deck-pile: no move at all.
STUCK = make(["## 9C", "## 9S", "## TC", "## TS", "## JC", "JS", "QC"], found=(7, 13, 13, 7))


def test_rule_A12_the_game_is_over_when_won_or_when_no_move_can_be_made() -> None:
    assert legal_moves(STUCK) == () and STUCK.is_over
    assert STUCK.outcome == arch.ArcheoOutcome(False, 40, "blocked")


def test_rule_A13_a_card_goes_on_a_face_up_card_one_rank_higher_of_the_other_colour() -> None:
    state = make(["## 9C", "## 9H", "## TD"], discard="8D", stock="2S")
    assert [t for t in texts(state) if t.startswith("W-")] == ["W-T1"]
    assert "T1-T3" in texts(state) and "T2-T3" not in texts(state)


def test_rule_A14_a_build_moves_by_its_bottom_card_and_an_empty_pile_takes_only_a_king() -> None:
    state = make(["## KH QS", "", "## QD", "## JC TH"], stock="2S")
    movable = set(texts(state))
    assert {"T1-T2x2", "T4-T3x2"} <= movable  # the KH-headed build to the empty pile; JC TH onto QD
    assert "T1-T2" not in movable and "T3-T2" not in movable  # only a King goes to an empty pile


def test_rule_A15_a_suit_pile_takes_an_ace_then_the_next_card_of_its_suit() -> None:
    state = make(["## AS", "## 2S", "## 3S"], stock="2D")
    assert [t for t in texts(state) if t.endswith("-F")] == ["T1-F"]
    state = play(state, "T1-F", "flip T1")
    assert "T2-F" in texts(state) and "T3-F" not in texts(state)


# Rulings ----------------------------------------------------------------------------------------------


def test_ruling_AR1_cards_are_turned_one_at_a_time_and_the_pile_shows_three() -> None:
    state = play(new_game(1), "draw", "draw", "draw", "draw")
    assert len(state.discard) == 4
    shown = arch.render(state, 0).splitlines()[1]
    assert shown.endswith(" ".join(gamekit.card_text(c) for c in state.discard[-3:]))
    assert all(not (isinstance(m, arch.Shift) and m.source == arch.WASTE and m.count > 1) for m in legal_moves(state))


def test_ruling_AR2_the_deck_pile_may_be_turned_over_any_number_of_times() -> None:
    state = new_game(1)
    for _ in range(3):
        while state.stock:
            state = play(state, "draw")
        state = play(state, "recycle")
    assert len(state.stock) == 24 and state.stock == new_game(1).stock


def test_ruling_AR3_each_suit_has_its_own_suit_pile_and_cards_never_leave_it() -> None:
    state = make(["## AS", "## AD"], stock="2C")
    after = play(state, "T1-F", "T2-F")
    assert after.foundations == (0, 1, 0, 1)
    assert not any(isinstance(m, arch.Shift) and m.source == arch.FOUNDATION and m.target != arch.FOUNDATION
                   for m in legal_moves(after))
    with pytest.raises(ParseError):
        parse_move("F-T1")


def test_ruling_AR4_a_hundred_moves_without_progress_end_the_game() -> None:
    state = new_game(1)
    assert state.idle == 0 and play(state, "draw").idle == 1
    state = ArcheoState(state.tableau, state.down, state.stock, state.discard, state.foundations, False, 99)
    assert legal_moves(state)
    stalled = play(state, "draw")
    assert stalled.is_over and stalled.outcome is not None and stalled.outcome.reason == "stalled"
    # Progress starts the count again: a card from the discard pile, to a suit pile, or turned up.
    ace = make(["## 2C", "## KD"], discard="AC", stock="5S", idle=50)
    assert play(ace, "W-F").idle == 0 and play(ace, "W-F", "T1-F").idle == 0
    assert play(ace, "W-F", "T1-F", "flip T1").idle == 0


def test_ruling_AR5_an_unwon_game_scores_its_cards_on_the_suit_piles() -> None:
    state = STUCK
    assert state.outcome is not None and (state.outcome.won, state.outcome.score) == (False, 40)
    assert state.outcome.winner is None and state.outcome.scores == (40,)
    assert arch.returns(state) == (40 / 52,)
    with pytest.raises(ValueError, match="not over"):
        arch.returns(new_game(1))


def test_ruling_AR6_the_deck_pile_is_hidden_until_it_has_been_turned_over_once() -> None:
    state = new_game(3)
    assert arch.view(state).stock is None and arch.view(state).stock_size == 24
    while state.stock:
        state = play(state, "draw")
    turned = play(state, "recycle")
    assert arch.view(turned).stock == turned.stock and turned.stock_seen
    world = arch.determinize(arch.view(turned), random.Random(1))
    assert world.stock == turned.stock and arch.view(world) == arch.view(turned)
    assert arch.determinize(arch.view(new_game(3)), random.Random(1)).stock != new_game(3).stock


def test_ruling_AR7_face_down_cards_are_turned_by_a_move_and_take_nothing_meanwhile() -> None:
    state = play(make(["## QC JD", "## KH", "## ## 5C"], stock="2S"), "T1-T2x2")
    assert state.down[0] == 1 and state.down[0] == len(state.tableau[0])  # not turned by itself
    assert texts(state)[0] == "flip T1"
    assert not any(t.endswith("-T1") or "-T1x" in t for t in texts(state))


def test_ruling_AR8_the_deal_goes_row_by_row_and_piles_are_numbered_from_one() -> None:
    shuffled = gamekit.shuffled(4)
    state = new_game(4)
    assert [pile[0] for pile in state.tableau] == list(shuffled[:7])
    assert state.tableau[6][-1] == shuffled[27] and state.stock[-1] == shuffled[28]
    assert str(arch.Flip(0)) == "flip T1" and str(arch.Shift(6, arch.FOUNDATION)) == "T7-F"


def test_ruling_AR9_recycle_needs_an_empty_deck_pile_and_cards_on_the_discard_pile() -> None:
    with pytest.raises(IllegalMoveError, match="the deck-pile is not empty yet"):
        play(new_game(1), "recycle")
    empty = ArcheoState((cards("KS"),) + ((),) * 6, (0,) * 7, (), (), (0, 0, 0, 0), True, 0)
    with pytest.raises(IllegalMoveError):
        play(empty, "recycle")


def test_ruling_AR10_any_top_part_of_the_face_up_cards_is_a_build() -> None:
    state = make(["## 9C 8D 7S", "## 9S", "## 8H", "## TD"], stock="2S")
    assert {"T1-T2x2", "T1-T3", "T1-T4x3"} <= set(texts(state))


# Notation and bad input -------------------------------------------------------------------------------


def test_every_move_reads_back_from_its_notation() -> None:
    for seed in range(10):
        for state in _states(seed, 300):
            for move in legal_moves(state):
                assert parse_move(str(move)) == move
                assert eval(repr(move), {"parse_move": parse_move}) == move


@pytest.mark.parametrize(
    "text", ["", "T1", "T0-F", "T1-T1", "W-T1x2", "T2-Fx2", "flip", "flip W", "T1-T2x0", "draw 2", "T1-T2x99"]
)
def test_text_that_is_no_move_raises_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match="invalid move"):
        parse_move(text)


def test_moves_made_by_hand_are_checked() -> None:
    with pytest.raises(ValueError):
        arch.Flip(7)
    with pytest.raises(ValueError):
        arch.Shift(0, 1, 0)
    with pytest.raises(IllegalMoveError, match="T2 has 1 face-up card, not 2"):
        play(new_game(1), "T2-T3x2")
    with pytest.raises(ValueError, match="one player"):
        arch.view(new_game(1), 1)


def test_check_game_passes() -> None:
    summary = check_game(arch, games=3, seed=20, max_moves=1500)
    assert summary.finished == 3 and summary.capped == 0


def test_the_docstring_examples_run() -> None:
    assert doctest.testmod(arch, optionflags=doctest.ELLIPSIS).failed == 0


# Properties over random games -------------------------------------------------------------------------


def _states(seed: int, moves: int) -> list[ArcheoState]:
    state = new_game(seed)
    rng = random.Random(seed)
    states = [state]
    for _ in range(moves):
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))
        states.append(state)
    return states


@settings(max_examples=examples(0.5))
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_games_keep_every_rule(seed: int, data: st.DataObject) -> None:
    state = new_game(seed)
    for _ in range(600):
        if state.is_over:
            break
        for pile, down in zip(state.tableau, state.down):
            up = pile[down:]
            assert 0 <= down <= len(pile)
            for lower, upper in zip(up, up[1:]):
                assert lower.rank == upper.rank + 1 and arch._red(lower) != arch._red(upper)
        move = data.draw(st.sampled_from(legal_moves(state)))
        after = apply_move(state, move)
        assert all_cards(after) == FULL
        assert all(b >= a for a, b in zip(state.foundations, after.foundations))
        assert after.idle == 0 or after.idle == state.idle + 1
        state = after
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None and outcome.score == sum(state.foundations)


@settings(max_examples=examples(1.0))
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 200), world=st.integers(0, 2**32))
def test_a_determinized_view_is_a_state_with_that_view_and_the_same_legal_moves(
    seed: int, moves: int, world: int
) -> None:
    state = _states(seed, moves)[-1]
    again = arch.determinize(arch.view(state), random.Random(world))
    assert arch.view(again) == arch.view(state) and legal_moves(again) == legal_moves(state)
    assert all_cards(again) == FULL


# The bots -----------------------------------------------------------------------------------------------


def test_the_solver_wins_more_than_the_random_bot_and_is_a_pure_function_of_the_view() -> None:
    solver = simulate(arch, (arch.SolverBot(),), games=20, seed=0)
    rand = simulate(arch, (RandomBot(seed=1, game=arch),), games=20, seed=0)
    assert solver.wins[0] > rand.wins[0] and solver.points[0] > rand.points[0]  # type: ignore[index]
    bot = arch.SolverBot()
    for state in _states(5, 80)[::10]:
        world = arch.determinize(arch.view(state), random.Random(2))
        assert bot.choose(world) == arch.SolverBot().choose(state) == bot.choose(state)


def test_the_solver_is_a_value_with_a_checked_depth() -> None:
    import pickle

    assert arch.SolverBot(depth=3) == pickle.loads(pickle.dumps(arch.SolverBot(depth=3)))
    assert repr(arch.SolverBot()) == "SolverBot(depth=2)"
    with pytest.raises(ValueError, match="depth must be an int from 1 to 6"):
        arch.SolverBot(depth=0)
    over = play(make(["KS"], found=(13, 13, 13, 12)), "T1-F")
    with pytest.raises(ValueError, match="the game is over"):
        arch.SolverBot().choose(over)


def test_solve_counts_wins_and_cards() -> None:
    won, cards_home, seconds = arch.solve(5, seed=10)
    assert 0 <= won <= 5 and won * 52 <= cards_home <= 5 * 52 and seconds >= 0


# The terminal ---------------------------------------------------------------------------------------


def run_main(argv: list[str], inputs: Iterable[str]) -> str:
    return run_game(arch.main, argv, inputs)


def test_a_game_in_the_terminal_plays_to_the_end_and_survives_bad_input() -> None:
    inputs = ["help", "flip T9", "T1-T1", "recycle", "moves", "hint"] + ["auto"] * 3000
    text = run_main(["play", "--seed", "3"], inputs)
    assert "Archeologitaire, in short" in text and "invalid move 'flip T9'" in text
    assert "illegal move recycle: the deck-pile is not empty yet" in text and "hint:" in text
    assert "game over:" in text.splitlines()[-1]


def test_the_solve_command_prints_the_win_rate_and_the_time() -> None:
    out = io.StringIO()
    assert arch.main(["solve", "--deals", "3", "--seed", "7"], out=out) == 0
    assert out.getvalue().startswith("SolverBot(depth=2) won ") and "of 3 deals" in out.getvalue()
    assert " ms a deal" in out.getvalue()


def test_the_script_runs_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, str(GAMES / "archeologitaire.py"), "help"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and "solve" in result.stdout and "simulate" in result.stdout
    bad = subprocess.run([sys.executable, str(GAMES / "archeologitaire.py"), "solve", "--deals", "0"],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "expected a positive int" in bad.stderr
