"""Bank (examples/games/bank.py): one test per rule of its sheet and per ruling, properties, the terminal.

Rules B1-B11 and rulings BR1-BR10 are those of docs/games/bank.rst.
"""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from collections.abc import Iterable, Sequence

import pytest
from conftest import GAMES, deck_cards, examples, run_game
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import IllegalMoveError, ParseError
from crapette.bots import RandomBot, SearchBot
from crapette.simulation import simulate
from crapette.testing import check_game


import bank  # noqa: E402
from crapette import gamekit
from bank import BankState, apply_move, legal_moves, new_game, parse_move  # noqa: E402


cards = deck_cards


def make(
    hands: Sequence[str],
    *,
    stock: str = "",
    discard: str = "",
    banks: Sequence[str] | None = None,
    player: int = 0,
    drawn: bool = False,
    banked: bool = False,
    taken: str | None = None,
    shown: Sequence[str] | None = None,
) -> BankState:
    """A state with these piles (bottom first); the other cards lie at the bottom of the withdrawal deck."""
    banks = banks or [""] * len(hands)
    shown = shown or [""] * len(hands)
    placed = set(cards(stock) + cards(discard)).union(*(cards(h) for h in hands), *(cards(b) for b in banks))
    rest = tuple(c for c in bank.deck if c not in placed)
    return BankState(
        tuple(gamekit.sorted_cards(cards(h)) for h in hands), rest + cards(stock), cards(discard),
        tuple(cards(b) for b in banks), player, drawn, banked, None if taken is None else cards(taken)[0],
        tuple(gamekit.sorted_cards(cards(s)) for s in shown),
    )


def play(state: BankState, *moves: str) -> BankState:
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


def texts(state: BankState) -> list[str]:
    return [str(m) for m in legal_moves(state)]


def banks_of(state: BankState) -> list[str]:
    return [t for t in texts(state) if t.startswith("bank")]


def all_cards(state: BankState) -> list:
    return sorted(bank.cards(state), key=lambda c: c.index)


# The sheet's rules ----------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_rule_B1_seven_cards_each_the_rest_face_down_and_one_card_turned_up(players: int) -> None:
    state = new_game(9, players)
    assert [len(h) for h in state.hands] == [7] * players
    assert len(state.discard) == 1 and len(state.stock) == 52 - 7 * players - 1
    assert all_cards(state) == sorted(bank.deck, key=lambda c: c.index)


def test_rule_B2_withdraw_one_from_the_discard_pile_or_one_or_two_from_the_deck() -> None:
    state = new_game(4)
    assert texts(state) == ["draw", "draw2", "take"]
    top, deck_top = state.discard[-1], state.stock[-2:]
    assert set(play(state, "take").hands[0]) == set(state.hands[0]) | {top}
    assert set(play(state, "draw").hands[0]) == set(state.hands[0]) | {deck_top[-1]}
    assert set(play(state, "draw2").hands[0]) == set(state.hands[0]) | set(deck_top)
    assert all(play(state, m).drawn for m in ("take", "draw", "draw2"))


def test_rule_B3_a_hand_holds_at_most_ten_cards() -> None:
    nine = make(["2C 3C 4C 5C 6C 7C 8C 9C TC", "2D"], stock="5H 6H 7H", discard="KS")
    assert texts(nine) == ["draw", "take"]  # two cards would make eleven
    with pytest.raises(IllegalMoveError, match="at most 10 cards"):
        play(nine, "draw2")
    ten = play(make(["2C 3C 4C 5C 6C 7C 8C 9C", "2D 3D"], stock="5H 6H 7H 8H", discard="KS"), "draw2")
    assert len(ten.hands[0]) == 10 and all(t.startswith(("bank", "discard")) for t in texts(ten))


def test_rule_B4_banking_needs_at_least_a_pair() -> None:
    state = make(["2C 3D 5H 9S JC", "2D"], stock="5S 6H", drawn=True)
    assert banks_of(state) == [] and len(texts(state)) == 5


def test_rule_B5_a_pair_banks_one_of_its_cards_and_the_other_stays() -> None:
    state = make(["7C 7H 2D 9S", "2C"], stock="5S 6H", drawn=True)
    assert banks_of(state) == ["bank 7C", "bank 7H"]
    after = play(state, "bank 7H")
    assert after.banks[0] == cards("7H") and cards("7C")[0] in after.hands[0]
    with pytest.raises(IllegalMoveError, match="a trio's bank"):
        play(state, "bank 7C 7H")


def test_rule_B6_a_trio_banks_one_of_its_cards_and_any_other_card() -> None:
    state = make(["7C 7H 7S 2D 9S", "2C"], stock="5S 6H", drawn=True)
    twos = [b for b in banks_of(state) if len(b.split()) == 3]
    assert "bank 7C 2D" in twos and "bank 7C 7H" in twos and "bank 7H 9S" in twos
    assert "bank 2D 9S" not in twos  # one card of the trio at least (cards in deck order: C D H S)
    assert all(len(b.split()) in (2, 3) for b in banks_of(state))  # never the whole trio
    after = play(state, "bank 7C 7S")
    assert after.hands[0] == cards("2D 7H 9S")  # the rest of the trio stays


def test_rule_B7_a_quad_banks_two_of_its_cards_and_any_two_others() -> None:
    state = make(["7C 7D 7H 7S 2D 9S", "2C"], stock="5S 6H", drawn=True)
    fours = [b for b in banks_of(state) if len(b.split()) == 5]
    assert "bank 7C 7D 7H 7S" in fours  # the whole trick
    assert "bank 7C 2D 7D 9S" in fours
    assert all(sum(word.startswith("7") for word in b.split()) >= 2 for b in fours)
    assert not [b for b in banks_of(state) if len(b.split()) == 4]  # never three cards
    after = play(state, "bank 7C 7D 7H 7S")
    assert after.hands[0] == cards("2D 9S") and len(after.banks[0]) == 4


def test_rule_B8_one_bank_a_turn_banking_is_optional_and_banks_are_public() -> None:
    state = make(["7C 7H 8C 8H 2D", "2C"], stock="5S 6H", drawn=True)
    assert "discard 2D" in texts(state)  # no need to bank
    after = play(state, "bank 7C")
    assert banks_of(after) == [] and all(t.startswith("discard") for t in texts(after))
    with pytest.raises(IllegalMoveError, match="one bank per turn"):
        play(after, "bank 8C")
    assert bank.view(after, 1).banks[0] == cards("7C")


def test_rule_B9_every_turn_ends_with_a_discard() -> None:
    state = play(make(["7C 7H 2D", "2C 3C"], stock="5S 6H 9D", discard="KS"), "draw")
    assert state.current_player == 0
    state = play(state, "bank 7C")
    assert state.current_player == 0
    after = play(state, "discard 2D")
    assert after.discard[-1] == cards("2D")[0] and after.current_player == 1 and not after.drawn


def test_rule_B10_the_game_ends_when_the_last_card_is_drawn_and_that_turn_is_finished() -> None:
    state = BankState(
        (cards("7C 7H 2D"), cards("2C 3C")), cards("9D"), cards("KS"), ((), ()), 0, False, False, None, ((), ())
    )
    last = play(state, "draw")
    assert last.stock == () and not last.is_over
    assert "bank 7C" in texts(last)  # the player finishes the turn: may bank
    over = play(last, "bank 7C", "discard 2D")
    assert over.is_over and legal_moves(over) == ()


def test_rule_B11_cards_score_face_value_and_the_highest_bank_wins() -> None:
    assert [bank.value(c) for c in cards("2C 9D TH JS QC KD AH")] == [2, 9, 10, 10, 10, 10, 10]
    state = BankState(
        (cards("2D"), cards("3D")), (), cards("KS"), (cards("AH 9C"), cards("KD 5C 2S")), 1, True, False, None,
        ((), ()), True,
    )
    outcome = state.outcome
    assert outcome is not None and outcome.scores == (19, 17) and outcome.winner == 0
    assert bank.returns(state) == (1.0, 0.0) and str(outcome) == "player 0 wins, 19-17"


# Rulings ----------------------------------------------------------------------------------------------


def test_ruling_BR1_two_to_four_players_two_by_default_and_player_0_begins() -> None:
    assert bank.num_players == 2 and bank.game() is bank and bank.game(2) is bank
    for count in (3, 4):
        game = bank.game(count)
        assert game.num_players == count and len(game.new_game(1).hands) == count
    for bad in (1, 5, "3"):
        with pytest.raises(ValueError, match="2, 3 or 4 players"):
            bank.game(bad)  # type: ignore[arg-type]
    state = new_game(2, 3)
    assert state.current_player == 0
    order = []
    while len(order) < 4:
        order.append(state.current_player)
        state = play(state, "draw")
        state = apply_move(state, [m for m in legal_moves(state) if str(m).startswith("discard")][0])
    assert order == [0, 1, 2, 0]


def test_ruling_BR2_the_withdrawal_is_compulsory_below_ten_cards_and_skipped_at_ten() -> None:
    state = new_game(3)
    assert all(t in ("draw", "draw2", "take") for t in texts(state))
    with pytest.raises(IllegalMoveError, match="make the withdrawal first"):
        play(state, f"discard {gamekit.card_text(state.hands[0][0])}")
    full = play(make(["2C 3C 4C 5C 6C 7C 8C 9C TC", "2D JC QC KC AC 2H 3H 4H 5H 6H"], stock="7H 8H"),
                "draw", "discard 2C")
    assert full.current_player == 1 and full.drawn  # ten cards: straight to banking and discarding
    assert all(t.startswith(("bank", "discard")) for t in texts(full))


def test_ruling_BR3_two_cards_only_from_a_deck_of_two_or_more() -> None:
    state = BankState((cards("2C 9D"), cards("3C")), cards("5S"), cards("KS"), ((), ()), 0, False, False, None,
                      ((), ()))
    assert texts(state) == ["draw", "take"]
    with pytest.raises(IllegalMoveError, match="holds one card: draw it alone"):
        play(state, "draw2")


def test_ruling_BR4_the_card_taken_from_the_discard_pile_stays_this_turn() -> None:
    state = play(make(["2C 9D", "3C"], stock="5S 6H", discard="KS"), "take")
    assert state.taken == cards("KS")[0] and "discard KS" not in texts(state)
    with pytest.raises(IllegalMoveError, match="was taken from the discard pile this turn"):
        play(state, "discard KS")
    empty = make(["", "3C"], stock="5S 6H", discard="KS")
    assert texts(empty) == ["draw", "draw2"]


def test_ruling_BR5_a_bank_leaves_a_card_to_discard() -> None:
    state = play(make(["7C 7H", "3C"], stock="5S 6H", discard="7D"), "take")
    # The trio 7C 7D 7H: banking 7C 7H would leave only the 7D just taken.
    assert "bank 7C 7H" not in banks_of(state) and "bank 7C 7D" in banks_of(state)
    with pytest.raises(IllegalMoveError, match="a bank must leave a card to discard"):
        play(state, "bank 7C 7H")
    quad = make(["7C 7D 7H 7S", "3C"], stock="5S 6H", drawn=True)
    assert "bank 7C 7D 7H 7S" not in banks_of(quad)


def test_ruling_BR6_a_bigger_trick_allows_the_smaller_banks_and_any_card_is_any_card_of_the_hand() -> None:
    state = make(["7C 7D 7H 7S 2D", "2C"], stock="5S 6H", drawn=True)
    sizes = {len(b.split()) - 1 for b in banks_of(state)}
    assert sizes == {1, 2, 4}
    assert "bank 7C" in banks_of(state) and "bank 2D 7S" in banks_of(state)


def test_ruling_BR7_a_tie_for_the_highest_bank_has_no_winner() -> None:
    state = BankState(
        (cards("2D"), cards("3D"), cards("4D")), (), cards("KS"), (cards("AH"), cards("KD"), cards("5C")),
        2, True, False, None, ((), (), ()), True,
    )
    assert state.outcome is not None and state.outcome.winner is None
    assert bank.returns(state) == (0.5, 0.5, 0.0)
    assert str(state.outcome) == "tie for the highest bank, 10-10-5"


def test_ruling_BR8_hands_and_deck_are_hidden_but_the_discard_pile_and_cards_seen_taken_are_not() -> None:
    state = play(make(["2C 9D", "3C 4C"], stock="5S 6H", discard="QD KS"), "take", "discard 2C")
    seen = bank.view(state, 1)
    assert seen.hand == cards("3C 4C") and seen.hand_sizes == (2, 2)
    assert seen.shown[0] == cards("KS") and seen.discard == cards("QD 2C")
    assert not hasattr(seen, "stock") and seen.stock_size == len(state.stock)
    world = bank.determinize(seen, random.Random(2))
    assert cards("KS")[0] in world.hands[0] and bank.view(world, 1) == seen


def test_ruling_BR9_cards_are_dealt_one_at_a_time_from_player_0_and_the_turned_card_may_be_taken() -> None:
    shuffled = gamekit.shuffled(6)
    state = new_game(6, 3)
    for player in range(3):
        assert set(state.hands[player]) == set(shuffled[player:21:3])
    assert state.discard == (shuffled[21],) and state.stock[-1] == shuffled[22]
    assert "take" in texts(state)


class _Hoarder:
    """Takes from the discard pile whenever it may, and discards the highest card it may."""

    def choose(self, state: BankState) -> bank.Move:
        moves = legal_moves(state)
        if bank.TAKE in moves:
            return bank.TAKE
        discards = [m for m in moves if isinstance(m, bank.Discard)]
        return discards[-1] if discards else moves[0]

    def __repr__(self) -> str:
        return "_Hoarder()"


def test_ruling_BR10_players_who_never_draw_from_the_deck_play_until_the_cap() -> None:
    report = simulate(bank, (_Hoarder(), _Hoarder()), games=2, max_moves=300)
    assert report.capped == 2 and all(r.reason == "capped" and r.moves == 300 for r in report.results)


# Notation and bad input -------------------------------------------------------------------------------


def test_every_move_reads_back_from_its_notation() -> None:
    for seed in range(15):
        state = new_game(seed)
        rng = random.Random(seed)
        while not state.is_over:
            for move in legal_moves(state):
                assert parse_move(str(move)) == move
                assert eval(repr(move), {"parse_move": parse_move}) == move
            state = apply_move(state, rng.choice(legal_moves(state)))
    assert parse_move("DRAW 2") == bank.DRAW2 and parse_move("bank qs 10d") == parse_move("bank TD QS")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "expected draw, draw2, take"),
        ("draw3", "expected draw, draw2, take"),
        ("discard", "discard one card"),
        ("discard 7H 8H", "discard one card"),
        ("bank 7H 8H 9H", "a bank is 1 card"),
        ("bank", "a bank is 1 card"),
        ("bank 7X", "invalid card"),
    ],
)
def test_text_that_is_no_move_raises_a_parse_error(text: str, message: str) -> None:
    with pytest.raises(ParseError, match=message):
        parse_move(text)


def test_moves_made_by_hand_are_checked() -> None:
    with pytest.raises(ValueError):
        bank.Draw(3)
    with pytest.raises(TypeError, match="must be a crapette.Card"):
        bank.Discard("7H")  # type: ignore[arg-type]
    state = play(new_game(1), "draw")
    with pytest.raises(IllegalMoveError, match="has no"):
        play(state, f"discard {gamekit.card_text(state.stock[0])}")
    with pytest.raises(ValueError, match="player must be an int from 0 to 1"):
        bank.view(state, 2)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_game_passes_for_every_number_of_players(players: int) -> None:
    summary = check_game(bank.game(players), games=3, seed=50, max_moves=400)
    assert summary.finished == 3 and summary.capped == 0


def test_the_docstring_examples_run() -> None:
    assert doctest.testmod(bank, optionflags=doctest.ELLIPSIS).failed == 0


# Properties over random games -------------------------------------------------------------------------


@settings(max_examples=examples(1.0))
@given(seed=st.integers(0, 2**64 - 1), players=st.sampled_from(bank.PLAYERS), data=st.data())
def test_random_games_keep_every_rule(seed: int, players: int, data: st.DataObject) -> None:
    state = new_game(seed, players)
    first = all_cards(state)
    turns = 0
    while not state.is_over and turns < 400:
        player = state.current_player
        assert all(len(h) <= bank.HAND_LIMIT for h in state.hands)
        for p in range(players):
            assert set(state.shown[p]) <= set(state.hands[p])
        move = data.draw(st.sampled_from(legal_moves(state)))
        after = apply_move(state, move)
        if isinstance(move, bank.BankCards):
            assert after.banks[player][-len(move.cards):] == move.cards and not banks_of(after)
        if isinstance(move, bank.Discard):
            assert after.discard[-1] == move.card and move.card != state.taken
            assert after.is_over == (not state.stock)
        assert all_cards(after) == first
        state = after
        turns += 1
    if state.is_over:
        assert state.stock == () and state.outcome is not None
        assert state.outcome.scores == tuple(sum(bank.value(c) for c in b) for b in state.banks)


@settings(max_examples=examples(1.0))
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 80), world=st.integers(0, 2**32))
def test_a_determinized_view_is_a_state_with_that_view_and_the_same_legal_moves(
    seed: int, moves: int, world: int
) -> None:
    state = new_game(seed, 3)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))
    for player in range(3):
        seen = bank.view(state, player)
        again = bank.determinize(seen, random.Random(world))
        assert bank.view(again, player) == seen
        assert all_cards(again) == sorted(bank.deck, key=lambda c: c.index)
        if player == state.current_player:
            assert legal_moves(again) == legal_moves(state)


# Bots and simulation -----------------------------------------------------------------------------------


def test_the_search_bot_beats_the_random_bot() -> None:
    report = simulate(bank, (SearchBot(seed=1, budget=20, game=bank), RandomBot(seed=2, game=bank)),
                      games=4, seed=3)
    assert report.wins[0] >= 3 and report.points is not None and report.points[0] > report.points[1]


def test_three_players_rotate_seats() -> None:
    three = bank.game(3)
    report = simulate(three, [RandomBot(seed=s, game=three) for s in range(3)], games=3, seed=1)
    assert [r.seats for r in report.results] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    assert {r.deal for r in report.results} == {1}


# The terminal ---------------------------------------------------------------------------------------


def run_main(argv: list[str], inputs: Iterable[str]) -> str:
    return run_game(bank.main, argv, inputs)


def test_a_game_in_the_terminal_plays_to_the_end_and_survives_bad_input() -> None:
    inputs = ["help", "bank", "discard 7Z", "draw3", "moves", "hint"] + ["auto"] * 400
    text = run_main(["play", "--seed", "5", "--bot", "random", "--players", "3", "--seat", "1"], inputs)
    assert "Bank, in short" in text and "a bank is 1 card" in text and "invalid card" in text
    assert "player 2 plays" in text and "hint:" in text
    assert "game over:" in text.splitlines()[-1]


def test_an_illegal_move_in_the_terminal_says_why() -> None:
    text = run_main(["play", "--seed", "5"], ["discard 2C", "quit"])
    assert "illegal move discard 2C: make the withdrawal first" in text and "bye" in text


def test_the_script_runs_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, str(GAMES / "bank.py"), "simulate", "--games", "2", "--budget", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "bank, 2 games from seed 0" in result.stdout and "SearchBot(seed=2, budget=2, game=bank)" in result.stdout
    bad = subprocess.run([sys.executable, str(GAMES / "bank.py"), "play", "--players", "5"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "invalid choice" in bad.stderr
