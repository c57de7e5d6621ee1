"""Podkidnoy Durak (examples/games/durak.py): one test per rule of its sheet and per ruling, properties, the terminal.

Rules D1-D14 and rulings DR1-DR10 are those of docs/games/durak.rst.
"""

from __future__ import annotations

import doctest
import random
import subprocess
import sys
from collections.abc import Iterable

import pytest
from conftest import GAMES, deck_cards, examples, run_game
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import IllegalMoveError, ParseError, Suit
from crapette.bots import RandomBot, SearchBot
from crapette.simulation import simulate
from crapette.testing import check_game


import durak  # noqa: E402
from crapette import gamekit
from durak import DONE, TAKE, DurakState, apply_move, legal_moves, new_game, parse_move  # noqa: E402


cards = deck_cards


def make(
    hand0: str,
    hand1: str,
    *,
    table: str = "",
    talon: str = "",
    trump: str = "6C",
    attacker: int = 0,
    shown: tuple[str, str] = ("", ""),
) -> DurakState:
    """A state with these hands, table and talon (bottom first); every other card is discarded.

    ``trump`` is the trump card: the bottom of the talon if the talon is given.
    """
    placed = cards(hand0) + cards(hand1) + cards(table) + cards(talon)
    trump_card = cards(talon)[0] if talon else cards(trump)[0]
    discard = tuple(c for c in durak.deck if c not in placed)
    return DurakState(
        (gamekit.sorted_cards(cards(hand0)), gamekit.sorted_cards(cards(hand1))),
        cards(talon), trump_card, cards(table), discard, attacker,
        (gamekit.sorted_cards(cards(shown[0])), gamekit.sorted_cards(cards(shown[1]))),
    )


def play(state: DurakState, *moves: str) -> DurakState:
    for text in moves:
        state = apply_move(state, parse_move(text))
    return state


def texts(state: DurakState) -> list[str]:
    return [str(m) for m in legal_moves(state)]


def all_cards(state: DurakState) -> list:
    return sorted(durak.cards(state), key=lambda c: c.index)


# The sheet's rules ----------------------------------------------------------------------------------


def test_rule_D1_the_deck_is_36_cards_six_to_ace() -> None:
    assert len(durak.deck) == 36 and len(set(durak.deck)) == 36
    assert {c.rank for c in durak.deck} == {1, 6, 7, 8, 9, 10, 11, 12, 13}
    assert sorted(durak.strength(c) for c in durak.deck if c.suit is Suit.SPADES) == list(range(6, 15))
    for seed in range(5):
        assert all_cards(new_game(seed)) == sorted(durak.deck, key=lambda c: c.index)


def test_rule_D2_the_bottom_card_of_the_talon_is_turned_up_and_its_suit_is_trump_all_game() -> None:
    state = new_game(11)
    assert state.talon[0] == state.trump_card and state.trump is state.trump_card.suit
    rng = random.Random(1)
    while not state.is_over:
        assert state.trump_card == new_game(11).trump_card
        if state.talon:
            assert state.talon[0] == state.trump_card  # the turned-up card is the last drawn
        state = apply_move(state, rng.choice(legal_moves(state)))


def test_rule_D3_each_player_is_dealt_six_cards() -> None:
    for seed in range(20):
        state = new_game(seed)
        assert [len(h) for h in state.hands] == [6, 6] and len(state.talon) == 24


def test_rule_D4_the_player_with_the_lowest_trump_attacks_first() -> None:
    checked = 0
    for seed in range(40):
        state = new_game(seed)
        trumps = [[durak.strength(c) for c in hand if c.suit is state.trump] for hand in state.hands]
        if trumps[0] and trumps[1]:
            lowest = 0 if min(trumps[0]) < min(trumps[1]) else 1
            assert state.attacker == lowest and state.current_player == lowest
            checked += 1
        elif trumps[0] or trumps[1]:
            assert state.attacker == (0 if trumps[0] else 1)
    assert checked >= 10


def test_rule_D5_the_attacker_opens_a_bout_with_any_card() -> None:
    state = make("7S 9H KD AC", "6D 8D TD QD JD 6H", talon="6C 8C")
    assert texts(state) == ["AC", "KD", "9H", "7S"]  # every card, in hand order
    assert DONE not in legal_moves(state)


def test_rule_D6_later_attacks_must_match_a_rank_on_the_table() -> None:
    state = play(make("7S 9H 7D AC 8C", "8S TD QD JD 6H KH", talon="6C 9C"), "7S", "8S")
    # On the table: 7S beaten by 8S. The attacker may add a 7 or an 8, nothing else.
    assert set(texts(state)) == {"7D", "8C", "done"}
    with pytest.raises(IllegalMoveError, match=r"must match a rank on the table \(7, 8\)"):
        play(state, "AC")


def test_rule_D7_at_most_six_attacks_in_a_bout() -> None:
    state = make("6S 7H 8S 9H TS JH QS", "7S 8H 9S TH JS QH AD", talon="9C TC")
    state = play(state, "6S", "7S", "7H", "8H", "8S", "9S", "9H", "TH", "TS", "JS", "JH", "QH")
    assert len(state.table) == 12
    assert texts(state) == ["done"]  # the QS matches a queen, but would be a seventh attack
    with pytest.raises(IllegalMoveError, match="6 attacks have been made"):
        play(state, "QS")


def test_rule_D7_the_attacker_plays_no_more_cards_than_the_defender_holds() -> None:
    state = play(make("6S 6H 6D 6C", "AS AH", talon="9C TC"), "6S", "AS", "6H", "AH")
    assert state.hands[1] == () and texts(state) == ["done"]
    with pytest.raises(IllegalMoveError, match="the defender has no card left"):
        play(state, "6D")


def test_rule_D8_the_defender_beats_with_a_higher_card_of_the_suit_or_any_trump() -> None:
    state = play(make("9H KS", "7H TH 6C 8S AD QH", talon="7C 8C"), "9H")
    # Trump clubs: TH and QH beat 9H as higher hearts, 6C as a trump; 7H, 8S and AD do not.
    assert set(texts(state)) == {"TH", "QH", "6C", "take"}
    with pytest.raises(IllegalMoveError, match="7H does not beat 9H"):
        play(state, "7H")


def test_rule_D9_a_trump_attack_needs_a_higher_trump() -> None:
    state = play(make("9C KS", "7C JC AH AS 6D TD", talon="8C 7H"), "9C")
    assert set(texts(state)) == {"JC", "take"}
    with pytest.raises(IllegalMoveError, match="only a higher trump does"):
        play(state, "7C")


def test_rule_D10_after_a_defence_the_attacker_adds_a_card_or_ends_the_bout() -> None:
    state = play(make("9H 9S KS", "TH 7D AD QH 6D 8D", talon="7C 8C"), "9H")
    assert state.current_player == 1
    state = play(state, "TH")
    assert state.current_player == 0 and set(texts(state)) == {"9S", "done"}


def test_rule_D11_done_discards_the_table_and_the_defender_attacks_next() -> None:
    before = make("9H 9S KS", "TH 7D AD QH 6D 8D", talon="7C 8C TS JS AS")
    discarded = len(before.discard)
    state = play(before, "9H", "TH", "done")
    assert state.table == () and len(state.discard) == discarded + 2
    assert set(cards("9H TH")) <= set(state.discard)
    assert state.attacker == 1 and state.current_player == 1


def test_rule_D12_take_gives_the_defender_the_table_and_the_attacker_attacks_again() -> None:
    state = play(make("9H 9S KS 6S", "TH 7D AD QH 6D 8D", talon="7C 8C TS JS AS"), "9H", "TH", "9S", "take")
    assert state.table == () and set(cards("9H TH 9S")) <= set(state.hands[1])
    assert state.attacker == 0 and state.current_player == 0


def test_rule_D13_after_a_bout_the_attacker_draws_to_six_first_then_the_defender() -> None:
    state = make("9H 9S KS 6S", "TH 7D AD QH 6D", talon="7C 8C TS JS AS")
    after = play(state, "9H", "TH", "done")
    # Talon bottom to top: 7C 8C TS JS AS. Player 0 (attacker) had 3 cards: draws AS JS TS.
    assert set(cards("AS JS TS")) <= set(after.hands[0]) and len(after.hands[0]) == 6
    assert set(cards("8C 7C")) <= set(after.hands[1]) and len(after.hands[1]) == 6
    assert after.talon == ()


def test_rule_D14_once_the_talon_is_empty_the_last_player_with_cards_is_the_durak() -> None:
    state = make("9H", "TH 7D", trump="6C")
    state = play(state, "9H", "TH", "done")
    assert state.is_over and legal_moves(state) == ()
    outcome = state.outcome
    assert outcome is not None and outcome.durak == 1 and outcome.winner == 0
    assert durak.returns(state) == (1.0, -1.0)
    assert str(outcome) == "player 0 wins: player 1 is the durak"


# Rulings -------------------------------------------------------------------------------------------


def test_ruling_DR1_with_no_trump_in_either_hand_the_lowest_card_attacks_first() -> None:
    found = 0
    for seed in range(300):
        state = new_game(seed)
        if any(c.suit is state.trump for hand in state.hands for c in hand):
            continue
        suits = list(Suit)
        lowest = min((durak.strength(c), suits.index(c.suit), p) for p in (0, 1) for c in state.hands[p])
        assert state.attacker == lowest[2]
        found += 1
    assert found >= 3


def test_ruling_DR2_one_attack_card_at_a_time() -> None:
    state = play(make("9H 9S KS", "TH 7D AD QH 6D 8D", talon="7C 8C"), "9H")
    assert state.current_player == 1  # the defender answers before another card comes
    assert all(m == TAKE or durak.beats(m.card, state.table[-1], state.trump) for m in legal_moves(state))


def test_ruling_DR3_the_attack_limit_is_the_defenders_hand_at_the_start_of_the_bout() -> None:
    # Three cards in the defender's hand: at most three attacks, however they are answered.
    state = play(make("6S 6H 6D 6C", "AS AH AD", talon="9C TC"), "6S", "AS", "6H", "AH", "6D", "AD")
    assert texts(state) == ["done"]


def test_ruling_DR4_a_talon_running_out_mid_draw_leaves_the_defender_short() -> None:
    state = make("9H 9S KS 6S", "TH 7D AD QH 6D", talon="7C 8C TS JS")
    after = play(state, "9H", "TH", "done")
    assert len(after.hands[0]) == 6  # the attacker took JS TS 8C
    assert len(after.hands[1]) == 5 and cards("7C")[0] in after.hands[1]  # the trump card, drawn last
    assert after.talon == ()
    empty = play(make("9H 9S KS 6S 7S 8S", "TH 7D AD QH 6D", talon="7C"), "9H", "TH", "done")
    assert len(empty.hands[0]) == 6 and len(empty.hands[1]) == 4  # nothing left for the defender


def test_ruling_DR5_both_players_out_of_cards_together_is_a_draw() -> None:
    state = play(make("9H", "TH"), "9H", "TH", "done")
    assert state.is_over and state.outcome is not None
    assert (state.outcome.winner, state.outcome.durak, state.outcome.reason) == (None, None, "draw")
    assert durak.returns(state) == (0.0, 0.0)


def test_ruling_DR6_take_ends_the_bout_at_once_without_more_cards_thrown_in() -> None:
    state = play(make("9H 9S 9D KS", "TH 7D AD QH 6D 8D", talon="7C 8C TS JS AS"), "9H", "take")
    assert state.table == () and cards("9H")[0] in state.hands[1]
    assert state.current_player == 0 and set(cards("9S 9D")) <= set(state.hands[0])


def test_ruling_DR7_done_needs_a_beaten_table_and_the_defender_may_take_when_able_to_beat() -> None:
    opening = make("9H 9S KS", "TH 7D AD QH 6D 8D", talon="7C 8C")
    with pytest.raises(IllegalMoveError, match="a bout begins with an attack card"):
        play(opening, "done")
    attacked = play(opening, "9H")
    with pytest.raises(IllegalMoveError, match="done is the attacker's move"):
        play(attacked, "done")
    assert "TH" in texts(attacked) and "take" in texts(attacked)
    with pytest.raises(IllegalMoveError, match="take is the defender's move"):
        play(play(attacked, "TH"), "take")


def test_ruling_DR8_the_view_hides_the_other_hand_but_shows_the_cards_seen_taken() -> None:
    state = play(make("9H 9S KS 6S", "TH 7D AD QH 6D 8D", talon="7C 8C TS JS AS"), "9H", "take")
    seen_by_0 = durak.view(state, 0)
    assert seen_by_0.hand == state.hands[0] and seen_by_0.hand_sizes == (6, 7)
    assert seen_by_0.shown[1] == cards("9H")
    assert not hasattr(seen_by_0, "talon")  # the talon is a count
    world = durak.determinize(seen_by_0, random.Random(3))
    assert cards("9H")[0] in world.hands[1] and durak.view(world, 0) == seen_by_0
    # Playing a known card forgets it; drawing the trump card shows it.
    known = make("9S KS", "9H 7D AD", talon="7C 8C", attacker=1, shown=("", "9H"))
    assert play(known, "9H").shown[1] == ()
    last = play(make("9H 9S KS 6S 7S 8S", "TH 7D AD QH 6D", talon="7C"), "9H", "TH", "done")
    assert last.shown == (cards("7C"), ())  # player 0, the attacker, drew the trump card


def test_ruling_DR9_the_game_ends_between_bouts_only() -> None:
    state = play(make("9H", "TH 7D"), "9H", "TH")
    # The attacker is out of cards and the talon is empty, but the bout is not over yet.
    assert not state.is_over and texts(state) == ["done"]


def test_ruling_DR10_the_discard_pile_is_public() -> None:
    state = play(make("9H 9S KS 6S", "TH 7D AD QH 6D 8D", talon="7C 8C TS JS AS"), "9H", "TH", "done")
    assert durak.view(state, 0).discard == durak.view(state, 1).discard == state.discard


# Notation and bad input -------------------------------------------------------------------------------


def test_every_move_reads_back_from_its_notation() -> None:
    for move in [*(durak.PlayCard(c) for c in durak.deck), DONE, TAKE]:
        assert parse_move(str(move)) == move
        assert eval(repr(move), {"parse_move": parse_move}) == move
    assert parse_move(" 10♠ ") == parse_move("TS")


@pytest.mark.parametrize("text", ["", "xx", "5S", "AZ", "done now", "10", "7S7S"])
def test_text_that_is_no_move_raises_a_parse_error(text: str) -> None:
    with pytest.raises(ParseError, match="invalid move"):
        parse_move(text)


def test_moves_made_by_hand_are_checked() -> None:
    with pytest.raises(TypeError, match="must be a crapette.Card"):
        durak.PlayCard("7S")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="has no 7S"):
        play(make("9H", "TH 7D", talon="7C 8C"), "7S")
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        durak.view(new_game(1), 2)
    with pytest.raises(ValueError, match="seed"):
        new_game(-1)


def test_the_module_is_a_card_game_that_check_game_passes() -> None:
    summary = check_game(durak, games=6, seed=100, max_moves=400)
    assert summary.finished == 6 and summary.capped == 0


def test_the_docstring_examples_run() -> None:
    assert doctest.testmod(durak, optionflags=doctest.ELLIPSIS).failed == 0


# Properties over random games -------------------------------------------------------------------------


@settings(max_examples=examples(1.0))
@given(seed=st.integers(0, 2**64 - 1), data=st.data())
def test_random_games_keep_every_rule(seed: int, data: st.DataObject) -> None:
    state = new_game(seed)
    first = state
    while not state.is_over:
        moves = legal_moves(state)
        assert moves
        table = state.table
        attacks, defences = table[0::2], table[1::2]
        assert len(attacks) <= durak.MAX_ATTACKS
        for attack, defence in zip(attacks, defences):
            assert durak.beats(defence, attack, state.trump)
        for later in attacks[1:]:
            assert later.rank in {c.rank for c in table[: table.index(later)]}
        if not table and state.talon:
            assert all(len(h) >= durak.HAND_SIZE for h in state.hands)
        for player in (0, 1):
            assert set(state.shown[player]) <= set(state.hands[player])
        move = data.draw(st.sampled_from(moves))
        state = apply_move(state, move)
        assert all_cards(state) == all_cards(first)
    outcome = state.outcome
    assert outcome is not None and not state.talon and not state.table
    assert outcome.durak is None or (state.hands[outcome.durak] and not state.hands[1 - outcome.durak])


@settings(max_examples=examples(1.0))
@given(seed=st.integers(0, 2**64 - 1), moves=st.integers(0, 60), world=st.integers(0, 2**32))
def test_a_determinized_view_is_a_state_with_that_view_and_the_same_legal_moves(
    seed: int, moves: int, world: int
) -> None:
    state = new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))
    for player in (0, 1):
        seen = durak.view(state, player)
        again = durak.determinize(seen, random.Random(world))
        assert durak.view(again, player) == seen
        assert all_cards(again) == sorted(durak.deck, key=lambda c: c.index)
        if player == state.current_player:
            assert legal_moves(again) == legal_moves(state)


# Bots and simulation -----------------------------------------------------------------------------------


def test_the_search_bot_beats_the_random_bot() -> None:
    report = simulate(durak, (SearchBot(seed=1, budget=16, game=durak), RandomBot(seed=2, game=durak)),
                      games=6, seed=3)
    assert report.wins[0] >= 5 and report.capped == 0
    assert report.endings["capped"] == 0 and report.game == "durak"


def test_a_simulation_runs_the_same_in_worker_processes() -> None:
    from concurrent.futures import ProcessPoolExecutor

    bots = (RandomBot(seed=1, game=durak), RandomBot(seed=2, game=durak))
    serial = simulate(durak, bots, games=4, seed=8)
    with ProcessPoolExecutor(max_workers=2) as pool:
        assert simulate(durak, bots, games=4, seed=8, executor=pool) == serial


# The terminal ---------------------------------------------------------------------------------------


def run_main(argv: list[str], inputs: Iterable[str]) -> str:
    return run_game(durak.main, argv, inputs)


def test_a_game_in_the_terminal_plays_to_the_end_and_survives_bad_input() -> None:
    inputs = ["help", "", "nonsense", "2S", "take now", "moves", "hint"] + ["auto"] * 400
    text = run_main(["play", "--seed", "5", "--bot", "random"], inputs)
    assert "Type a move in the notation" in text and "Podkidnoy Durak, in short" in text
    assert "invalid move 'nonsense'" in text and "2S is not one of the 36 cards" in text
    assert "your moves:" in text and "hint:" in text
    assert "game over:" in text.splitlines()[-1]


def test_an_illegal_move_in_the_terminal_says_why() -> None:
    state = new_game(5)
    wrong = next(c for c in durak.deck if c not in state.hands[state.current_player])
    text = run_main(["play", "--seed", "5", "--seat", str(state.current_player)], [gamekit.card_text(wrong), "quit"])
    assert f"illegal move {gamekit.card_text(wrong)}" in text and "bye" in text


def test_the_terminal_leaves_quietly_at_the_end_of_input() -> None:
    assert run_main(["play", "--seed", "1"], []).rstrip().endswith("bye: the game is left unfinished")


def test_the_script_runs_from_the_command_line() -> None:
    result = subprocess.run(
        [sys.executable, str(GAMES / "durak.py"), "simulate", "--games", "2", "--budget", "4"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "durak, 2 games from seed 0" in result.stdout and "RandomBot(seed=1, game=durak)" in result.stdout
    helped = subprocess.run([sys.executable, str(GAMES / "durak.py"), "help"], capture_output=True, text=True)
    assert helped.returncode == 0 and "play" in helped.stdout and "simulate" in helped.stdout
    bad = subprocess.run([sys.executable, str(GAMES / "durak.py"), "play", "--seed", "x"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "a seed is an int" in bad.stderr


def test_the_prompt_echoes_piped_input() -> None:
    # With input() on a pipe the typed line would be missing from the transcript.
    result = subprocess.run(
        [sys.executable, str(GAMES / "durak.py"), "play", "--seed", "1", "--bot", "random"],
        input="moves\nquit\n", capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "your move> moves\nyour moves: " in result.stdout and "your move> quit\nbye" in result.stdout


def test_a_bad_card_names_the_ranks_of_durak_s_deck() -> None:
    with pytest.raises(ParseError) as info:
        parse_move("ZS")
    assert "6-9, T or 10, J, Q, K, A" in str(info.value) and "2-9" not in str(info.value)


def test_the_two_player_intro_names_the_one_other_bot() -> None:
    text = run_main(["play", "--seed", "1", "--bot", "random"], [])
    assert "you are player 0; the other is a random bot" in text and "the others" not in text


def test_simulate_shows_its_progress() -> None:
    result = subprocess.run(
        [sys.executable, str(GAMES / "durak.py"), "simulate", "--games", "2", "--budget", "2"],
        capture_output=True, text=True, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert "2/2" in result.stderr


@pytest.mark.parametrize("module", ["durak", "bank", "archeologitaire"])
def test_legal_moves_of_what_is_not_a_state_is_a_type_error(module: str) -> None:
    game = __import__(module)
    for bad in (None, "state", 3):
        with pytest.raises(TypeError, match=r"legal_moves\(\) expects a \w+State, got"):
            game.legal_moves(bad)
        with pytest.raises(TypeError, match=r"legal_moves\(\) expects a \w+State, got"):
            game.apply_move(bad, game.legal_moves(game.new_game(1))[0])
