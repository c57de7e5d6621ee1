"""One test per rule and per ruling of RULES.md, named after it.

The tests build hand-made positions with ``make_state`` and check the exact
legal moves, the states that moves lead to, and the reasons illegal moves give.
Section 12 (hidden information) belongs to the public view, which has its own
tests; the engine's states are complete information.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from conftest import cards, make_state, moves_text, play, run
from crapette import (
    ALL_CARDS,
    MAX_NUMBER,
    Blocked,
    Build,
    Card,
    Colour,
    Draw,
    EndReason,
    EndTurn,
    FirstPlayer,
    FoundationPlays,
    Game,
    GameRecord,
    GameState,
    IllegalMoveError,
    InvalidRulesError,
    LoadTarget,
    Match,
    MoveLimit,
    MoveStack,
    Outcome,
    Pass,
    Pile,
    PileKind,
    Play,
    RuleSet,
    Scoring,
    StackLimit,
    Stalemate,
    Suit,
    TableauSources,
    WastePlay,
    apply_move,
    explain_illegal,
    legal_moves,
    new_game,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
    shuffled_deck,
    validate,
)

CASUAL = RuleSet.casual()
CLASSIC = RuleSet.classic()

# A table on which nothing moves: a King on every tableau pile, a Five on each
# reserve, empty foundations and wastes. Tests change the piles they need.
_QUIET_TABLEAU = "KH0 KD0 KS0 KC0 KH1 KD1 KS1 KC1".split()
_QUIET_RESERVES = {0: "5C0", 1: "5D1"}


def quiet(rules: RuleSet | str, **kwargs: Any) -> GameState:
    """A position where only Draw is legal, with the piles in ``kwargs`` changed."""
    tableau = dict(enumerate(_QUIET_TABLEAU))
    tableau.update(kwargs.pop("tableau", {}))
    reserves = dict(_QUIET_RESERVES)
    reserves.update(kwargs.pop("reserves", {}))
    return make_state(rules, tableau=tableau, reserves=reserves, **kwargs)


def illegal(state: GameState, text: str, *fragments: str) -> str:
    """Assert that move ``text`` is refused, with a message holding every fragment."""
    move = parse_move(text)
    assert move not in legal_moves(state)
    with pytest.raises(IllegalMoveError) as info:
        apply_move(state, move)
    message = str(info.value)
    assert message.startswith(f"illegal move {move}: ")
    assert info.value.move is move and info.value.reason == explain_illegal(state, move)
    assert message == f"illegal move {move}: {info.value.reason}"
    for fragment in fragments:
        assert fragment in message
    return message


def stacks(state: GameState) -> list[str]:
    return [str(m) for m in legal_moves(state) if isinstance(m, MoveStack)]


# ----------------------------------------------------------------------------
# Rulings


def test_R1_casual_hand_holds_the_remaining_36_cards() -> None:
    for seed in range(10):
        state = new_game(CASUAL, seed)
        for p in (0, 1):
            assert len(state.reserves[p]) == 12
            assert len(state.hands[p]) == 36
            assert sum(len(t) for t in state.tableau[4 * p : 4 * p + 4]) == 4
            assert len(state.reserves[p]) + 4 + len(state.hands[p]) == 52


def _reference_shuffle(seed: int) -> list[list[Card]]:
    """The shuffle exactly as shuffled_deck documents it (ruling R2)."""
    mask = (1 << 64) - 1
    state = seed

    def numbers() -> Iterator[int]:
        nonlocal state
        while True:
            state = (state + 0x9E3779B97F4A7C15) & mask
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            yield z ^ (z >> 31)

    stream = numbers()
    decks = []
    for deck in (0, 1):
        order = list(ALL_CARDS[52 * deck : 52 * deck + 52])
        for i in range(51, 0, -1):
            limit = (1 << 64) - (1 << 64) % (i + 1)
            x = next(stream)
            while x >= limit:
                x = next(stream)
            j = x % (i + 1)
            order[i], order[j] = order[j], order[i]
        decks.append(order)
    return decks


def test_R2_the_deal_follows_the_documented_version_stable_shuffle() -> None:
    for seed in (0, 1, 2, 42, 1234567, 2**63, 2**64 - 1):
        expected = _reference_shuffle(seed)
        assert list(shuffled_deck(seed, 0)) == expected[0]
        assert list(shuffled_deck(seed, 1)) == expected[1]
        for rules in (CASUAL, CLASSIC):
            assert new_game(rules, seed) == new_game(rules, seed)
    # Pinned values (more in test_deal.py): a change here breaks every recorded deal.
    assert [str(c) for c in shuffled_deck(0, 0)[:4]] == ["8S0", "JH0", "9C0", "2S0"]


def test_R3_a_card_is_never_loaded_onto_an_empty_pile() -> None:
    # Player 1's reserve is empty; the waste holds the Six of hearts.
    state = quiet(CLASSIC, reserves={0: "5H0", 1: ""}, wastes={1: "6H1"})
    assert moves_text(state) == ["R0-W1", "draw"]
    illegal(state, "R0-R1", "R1 is empty and an empty pile cannot be loaded (R3)")
    empty_waste = quiet(CLASSIC, reserves={0: "5H0", 1: ""})
    assert moves_text(empty_waste) == ["draw"]
    illegal(empty_waste, "R0-W1", "W1 is empty and an empty pile cannot be loaded (R3)")


def test_R4_the_waste_turns_over_at_the_next_draw_unshuffled_costing_no_move() -> None:
    # Player 0's hand is empty (every other card of deck 0 lies under the reserve top).
    state = quiet(CASUAL, wastes={0: "2C0 9D0 QS0"}, rest={0: "R"}, move_count=7)
    assert state.hands[0] == ()
    # Until the draw the waste top stays playable.
    assert moves_text(state) == ["W0-T0", "W0-T1", "W0-T6", "draw"]
    after = apply_move(state, Draw())
    # The waste turned over became the hand: its bottom card is drawn first.
    assert after.wastes[0] == cards("2C0")
    assert after.hands[0] == cards("QS0 9D0")
    assert after.move_count == 8  # turnover and draw are one move
    assert after.current_player == 1  # the Two of clubs can go nowhere
    # The next draws give the cards in the order they were first drawn.
    assert after.hands[0][::-1] == cards("9D0 QS0")


def _stack_table(empty: tuple[int, ...]) -> GameState:
    # T0: an alternating run 8H 7C 6D; T4 (9C) takes the three, T5 (8D) the top two.
    tableau: dict[int, str] = {0: "8H0 7C0 6D0", 1: "KS0", 2: "KC0", 3: "KH1", 4: "9C1", 5: "8D1", 6: "KD1", 7: "KS1"}
    for t in empty:
        tableau[t] = ""
    return make_state(CLASSIC, tableau=tableau, reserves={0: "5C0", 1: "5D1"})


def test_R5_a_stack_of_k_cards_needs_k_at_most_2_to_the_empty_piles_other_than_the_target() -> None:
    none_empty = _stack_table(())
    assert stacks(none_empty) == []
    illegal(none_empty, "T0-T5x2", "R5", "there are 0")
    one_empty = _stack_table((7,))
    assert stacks(one_empty) == ["T0-T5x2"]
    illegal(one_empty, "T0-T4x3", "R5", "there are 1")
    # Onto the empty pile itself: no other empty pile, so only single cards.
    illegal(one_empty, "T0-T7x2", "R5", "there are 0")
    two_empty = _stack_table((6, 7))
    assert stacks(two_empty) == ["T0-T5x2", "T0-T6x2", "T0-T7x2", "T0-T4x3"]
    illegal(two_empty, "T0-T6x3", "R5", "there are 1")
    three_empty = _stack_table((3, 6, 7))
    assert "T0-T6x3" in stacks(three_empty)
    after = play(two_empty, "T0-T4x3")
    assert after.tableau[4] == cards("9C1 8H0 7C0 6D0")
    assert after.tableau[0] == ()


def _blocked(rules: RuleSet, **kwargs: Any) -> GameState:
    # Neither player has a hand, a waste or a playable card: every card of a
    # deck that is not on the table lies under its owner's reserve top.
    return quiet(rules, rest="R", **kwargs)


def test_R6_two_passes_in_a_row_end_the_casual_game_as_a_draw() -> None:
    state = _blocked(CASUAL)
    assert moves_text(state) == ["pass"]
    once = apply_move(state, Pass())
    assert (once.current_player, once.passes, once.is_over) == (1, 1, False)
    assert moves_text(once) == ["pass"]
    twice = apply_move(once, Pass())
    assert twice.outcome == Outcome(None, EndReason.BLOCKED, None)
    assert legal_moves(twice) == ()


def test_R6_two_passes_in_a_row_end_the_classic_game_settled_by_penalties() -> None:
    # Both played a card since their last turnover, so the passes mark nobody
    # (ruling R8) and R6 decides.
    equal = play(_blocked(CLASSIC, played=(True, True)), "pass", "pass")
    assert equal.outcome == Outcome(None, EndReason.BLOCKED, (0, 0))
    # With the Ace of hearts of player 1's deck on a foundation, player 1 has
    # one reserve card fewer: penalty 94 against 96.
    state = _blocked(CLASSIC, foundations={0: "AH1"}, played=(True, True))
    assert (len(state.reserves[0]), len(state.reserves[1])) == (48, 47)
    over = play(state, "pass", "pass")
    assert over.outcome == Outcome(1, EndReason.BLOCKED, (0, 2))


def test_R8_a_pass_with_empty_hand_and_waste_marks_the_player_exhausted() -> None:
    state = _blocked(CLASSIC, current_player=0)
    once = play(state, "pass")
    assert once.exhausted == (True, False) and once.played == (False, False)
    assert not once.is_over
    # Like a turnover: a player who played since the last one is not marked, and counting restarts.
    played = play(_blocked(CLASSIC, played=(True, False)), "pass")
    assert played.exhausted == (False, False) and played.played == (False, False)
    # Without the stalemate rule nothing is marked.
    assert play(_blocked(attrs.evolve(CLASSIC, stalemate=False)), "pass").exhausted == (False, False)
    # A pass with cards left in the hand or waste marks nobody (R8 needs both empty).
    casual_like = attrs.evolve(CASUAL, stalemate=True)
    stuck = quiet(casual_like, wastes={0: "2C0"}, rest="R", drawn=True)
    assert moves_text(stuck) == ["pass"]
    assert play(stuck, "pass").exhausted == (False, False)


def test_R8_a_pass_that_marks_a_player_while_the_opponent_is_marked_ends_in_stalemate() -> None:
    state = _blocked(CLASSIC, exhausted=(False, True))
    over = play(state, "pass")
    assert over.exhausted == (True, True)
    assert over.outcome == Outcome(None, EndReason.STALEMATE, (0, 0))


def test_R8_the_forced_draw_and_pass_cycle_ends() -> None:
    # Player 0 can only pass (no hand, no waste, a reserve card that fits
    # nowhere); player 1's only hand card is an unplayable one on the waste,
    # turned over and drawn again every turn. Without R8 this ran for ever.
    state = quiet(
        CLASSIC,
        reserves={0: "5C0", 1: "5D1"},
        wastes={1: "9S1"},
        rest="R",
        current_player=0,
    )
    assert moves_text(state) == ["pass"]
    seen = 0
    while not state.is_over and seen < 20:
        state = apply_move(state, legal_moves(state)[0])
        seen += 1
    assert state.is_over and state.outcome is not None
    assert state.outcome.reason is EndReason.STALEMATE
    assert seen <= 4


def test_R9_a_win_on_the_move_that_also_meets_the_move_limit_is_a_win() -> None:
    state = _winning_table(CASUAL, reserves={0: "KH0", 1: "5D1"}, move_count=999)
    assert play(state, "R0-F3").outcome == Outcome(0, EndReason.EMPTIED, None)


def test_R9_stalemate_decides_before_R6_and_R6_before_the_move_limit() -> None:
    # A pass that is the second in a row and also marks the second player: stalemate, not R6.
    both = play(_blocked(CLASSIC, exhausted=(False, True), passes=1, current_player=0), "pass")
    assert both.passes == 2 and both.exhausted == (True, True)
    assert both.outcome is not None and both.outcome.reason is EndReason.STALEMATE
    # A second pass on the last move allowed: R6, not the move limit.
    rules = attrs.evolve(CASUAL, move_limit=5)
    last = play(_blocked(rules, passes=1, move_count=4), "pass")
    assert last.move_count == 5
    assert last.outcome == Outcome(None, EndReason.BLOCKED, None)
    assert rules.ending_rules == (Blocked(), MoveLimit(5))
    assert CLASSIC.ending_rules == (Stalemate(), Blocked())


def test_R10_tools_that_play_games_to_the_end_cap_them_and_report_capped_games_apart() -> None:
    from crapette.simulation import play_game
    from crapette.testing import check_ruleset

    class Shuttle:
        """Moves a card between two empty houses for ever when it can (RULES.md R10)."""

        def choose(self, state: GameState) -> Any:
            moves = legal_moves(state)
            shuttles = [m for m in moves if isinstance(m, Play) and m.source.kind is m.target.kind is PileKind.TABLEAU]
            return shuttles[0] if shuttles else moves[0]

    result = play_game(CLASSIC, (Shuttle(), Shuttle()), deal=3, max_moves=300)
    assert result.capped == (result.moves == 300)
    summary = check_ruleset(CLASSIC, games=1, max_moves=30, illegal_samples=0)
    assert summary.finished == 0 and summary.moves == 30


def test_R6_a_move_between_passes_resets_the_count() -> None:
    state = quiet(CASUAL, current_player=1, passes=1)
    after = play(state, "draw")
    assert after.passes == 0 and not after.is_over


def test_R7_no_second_draw_while_the_drawn_card_lies_on_the_waste_casual() -> None:
    state = quiet(CASUAL, wastes={0: "QS0"}, drawn=True)
    assert moves_text(state) == ["W0-T0", "W0-T1", "W0-T6"]
    illegal(state, "draw", "the drawn card QS0 must be played before drawing again (R7)")
    after = play(state, "W0-T0")
    assert not after.drawn
    assert moves_text(after)[-1] == "draw"


def test_R7_no_second_draw_while_the_drawn_card_lies_on_the_waste_classic() -> None:
    state = quiet(CLASSIC, wastes={0: "QH0"}, drawn=True)
    assert moves_text(state) == ["W0-T2", "W0-T3", "W0-T6", "W0-T7", "end"]
    illegal(state, "draw", "(R7)")


# ----------------------------------------------------------------------------
# 1. Table and cards


def test_section1_there_are_104_distinct_cards_two_full_decks() -> None:
    assert len(ALL_CARDS) == len(set(ALL_CARDS)) == 104
    keys = {(c.rank, c.suit, c.deck) for c in ALL_CARDS}
    assert len(keys) == 104
    for deck in (0, 1):
        assert sorted((c.suit.value, int(c.rank)) for c in ALL_CARDS if c.deck == deck) == sorted(
            (s.value, r) for s in Suit for r in range(1, 14)
        )
    assert min(c.rank for c in ALL_CARDS) == 1 and max(c.rank for c in ALL_CARDS) == 13


def test_section1_hearts_and_diamonds_are_red_clubs_and_spades_black() -> None:
    assert Suit.HEARTS.colour is Suit.DIAMONDS.colour is Colour.RED
    assert Suit.CLUBS.colour is Suit.SPADES.colour is Colour.BLACK


def test_section1_the_reserve_top_turns_up_at_once_as_no_move() -> None:
    state = quiet(CASUAL, reserves={0: "QS0 QH0"})
    assert moves_text(state)[:3] == ["R0-T2", "R0-T3", "R0-T4"]
    after = play(state, "R0-T2")
    assert after.top(Pile.reserve(0)) == cards("QS0")[0]
    assert after.move_count == 1 and after.current_player == 0
    # The new top is playable in the same turn.
    assert moves_text(after)[:3] == ["R0-T0", "R0-T1", "R0-T6"]


def test_section1_tableau_piles_0_3_are_dealt_from_player_0s_deck_4_7_from_player_1s() -> None:
    for rules in (CASUAL, CLASSIC):
        state = new_game(rules, 5)
        assert [pile[0].deck for pile in state.tableau] == [0, 0, 0, 0, 1, 1, 1, 1]
        assert [Pile.tableau(i).owner for i in range(8)] == [0, 0, 0, 0, 1, 1, 1, 1]


# ----------------------------------------------------------------------------
# 2. The deal


@pytest.mark.parametrize(("rules", "reserve", "hand"), [(CASUAL, 12, 36), (CLASSIC, 13, 35)])
def test_section2_deal_sizes_per_preset(rules: RuleSet, reserve: int, hand: int) -> None:
    for seed in (0, 1, 99):
        state = new_game(rules, seed)
        assert state.foundations == ((),) * 8
        assert state.wastes == ((), ())
        for p in (0, 1):
            deck = shuffled_deck(seed, p)
            assert state.reserves[p] == deck[:reserve]  # the last one is the face-up top
            assert [t[0] for t in state.tableau[4 * p : 4 * p + 4]] == list(deck[reserve : reserve + 4])
            assert state.hands[p] == deck[reserve + 4 :][::-1]  # the first left is drawn first
            assert len(state.hands[p]) == hand
        assert (state.move_count, state.drawn, state.passes) == (0, False, 0)
        validate(state)


def test_section2_the_deal_follows_the_reserve_size_option() -> None:
    for size in (1, 5, 48):
        state = new_game(attrs.evolve(CLASSIC, reserve_size=size), 3)
        assert [len(r) for r in state.reserves] == [size, size]
        assert [len(h) for h in state.hands] == [48 - size] * 2


# ----------------------------------------------------------------------------
# 3. Who starts


def test_section3_casual_player_0_starts() -> None:
    assert {new_game(CASUAL, seed).current_player for seed in range(30)} == {0}


def test_section3_classic_the_lower_reserve_top_starts() -> None:
    seen = set()
    for seed in range(30):
        state = new_game(CLASSIC, seed)
        a, b = state.reserves[0][-1].rank, state.reserves[1][-1].rank
        if a != b:
            assert state.current_player == (0 if a < b else 1)
            seen.add(state.current_player)
    assert seen == {0, 1}
    state = new_game(CLASSIC, 0)  # 9H0 against 6H1
    assert (str(state.reserves[0][-1]), str(state.reserves[1][-1]), state.current_player) == ("9H0", "6H1", 1)


@pytest.mark.parametrize(
    ("seed", "ties", "first"),
    [
        (3, 1, 0),  # 6C0 = 6H1; then T0 6S0 < T4 TC1
        (57, 2, 1),  # 3S0 = 3C1, 8S0 = 8H1; then T1 5C0 > T5 3H1
        (1549, 3, 0),  # then TD0 < KD1
        (11899, 4, 1),  # then TC0 > 4C1
    ],
)
def test_section3_classic_a_tie_goes_to_the_tableau_cards_in_dealing_order(seed: int, ties: int, first: int) -> None:
    state = new_game(CLASSIC, seed)
    pairs = [(state.reserves[0][-1], state.reserves[1][-1])]
    pairs += [(state.tableau[i][0], state.tableau[4 + i][0]) for i in range(4)]
    assert [a.rank == b.rank for a, b in pairs[: ties + 1]] == [True] * ties + [False]
    assert state.current_player == first


def test_section3_classic_when_everything_ties_player_0_starts() -> None:
    state = new_game(CLASSIC, 64874)
    pairs = [(state.reserves[0][-1], state.reserves[1][-1])]
    pairs += [(state.tableau[i][0], state.tableau[4 + i][0]) for i in range(4)]
    assert all(a.rank == b.rank for a, b in pairs)
    assert state.current_player == 0


def test_section3_the_first_player_option() -> None:
    assert new_game(attrs.evolve(CASUAL, first_player="player-1"), 0).current_player == 1
    assert new_game(attrs.evolve(CLASSIC, first_player=FirstPlayer.PLAYER_1), 3).current_player == 1
    assert new_game(attrs.evolve(CLASSIC, first_player="player-0"), 57).current_player == 0
    lower = attrs.evolve(CASUAL, first_player="lower-reserve")
    for seed in range(10):
        state = new_game(lower, seed)
        a, b = state.reserves[0][-1].rank, state.reserves[1][-1].rank
        if a != b:
            assert state.current_player == (0 if a < b else 1)


# ----------------------------------------------------------------------------
# 4. Moves


def test_section4_apply_move_returns_a_new_state_and_never_changes_its_argument() -> None:
    state = quiet(CASUAL, reserves={0: "QH0"})
    before = (str(state), hash(state), state.piles)
    after = play(state, "R0-T2")
    assert after is not state
    assert (str(state), hash(state), state.piles) == before
    assert after.tableau[2] == cards("KS0 QH0")


def test_section4_an_illegal_move_raises_an_error_that_says_why() -> None:
    state = quiet(CASUAL)
    illegal(state, "R1-T0", "R1 is player 1's reserve and player 0 is to move")
    illegal(state, "R0-T0", "5C0 does not go on KH0")
    with pytest.raises(TypeError):
        apply_move(state, "draw")  # type: ignore[arg-type]
    assert explain_illegal(state, Draw()) == ""  # legal: nothing to explain
    assert explain_illegal(state, Pass()).startswith("Pass is legal only with no other move")


class _EqualsEverything:
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = object.__hash__


class _RoguePlay(Play):
    def __eq__(self, other: object) -> bool:
        return True

    __hash__ = Play.__hash__


def test_apply_move_refuses_an_object_that_only_claims_to_equal_a_move() -> None:
    state = new_game("casual", seed=1)
    with pytest.raises(TypeError, match="expects a Play, MoveStack, Draw, EndTurn or Pass, got _EqualsEverything"):
        apply_move(state, _EqualsEverything())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="got _EqualsEverything"):
        explain_illegal(state, _EqualsEverything())  # type: ignore[arg-type]
    game = Game("casual", seed=1)
    with pytest.raises(TypeError):
        game.push(_EqualsEverything())  # type: ignore[arg-type]
    assert game.history == () and game.to_record() == GameRecord("casual", seed=1)


def test_apply_move_refuses_a_move_subclass_whatever_its_equality_says() -> None:
    state = new_game("casual", seed=1)
    rogue = object.__new__(_RoguePlay)
    with pytest.raises(TypeError, match="subclasses are refused too"):
        apply_move(state, rogue)
    # Casual rules have no End turn: the real one is refused as illegal.
    with pytest.raises(IllegalMoveError, match="these rules have no End turn"):
        apply_move(state, EndTurn())
    assert apply_move(state, Draw()).move_count == 1


def test_apply_move_of_a_text_names_apply_move_not_explain_illegal() -> None:
    state = new_game(RuleSet.casual(), seed=1)
    with pytest.raises(TypeError, match=r"^apply_move\(\) expects a Play, MoveStack, Draw, EndTurn or Pass, got str .*parse_move"):
        apply_move(state, "T1-T0")  # type: ignore[arg-type]


# ----------------------------------------------------------------------------
# 5. Where a card may come from


def test_section5_the_own_reserve_top_is_available_in_both_presets() -> None:
    for rules in (CASUAL, CLASSIC):
        state = quiet(rules, reserves={0: "2H0 QS0"})
        sources = {m.source for m in legal_moves(state) if isinstance(m, Play)}
        assert sources == {Pile.reserve(0)}
    illegal(quiet(CASUAL), "R1-F0", "R1 is player 1's reserve and player 0 is to move")


def test_section5_casual_the_waste_top_is_always_available() -> None:
    state = quiet(CASUAL, wastes={0: "2C0 QS0"}, drawn=False)
    assert moves_text(state) == ["W0-T0", "W0-T1", "W0-T6", "draw"]


def test_section5_classic_only_the_card_drawn_this_turn_is_available_from_the_waste() -> None:
    state = quiet(CLASSIC, wastes={0: "QH0"}, drawn=False)
    assert moves_text(state) == ["draw"]
    illegal(state, "W0-T2", "only the card drawn this turn may be played from the waste (waste_play='drawn')")
    drawn = quiet(CLASSIC, wastes={0: "QH0"}, drawn=True)
    assert moves_text(drawn) == ["W0-T2", "W0-T3", "W0-T6", "W0-T7", "end"]
    # Once the drawn card is played, the card under it is not available.
    under = quiet(CLASSIC, wastes={0: "QS0 QH0"}, drawn=True)
    after = play(under, "W0-T2")
    assert not any(m.source is Pile.waste(0) for m in legal_moves(after) if isinstance(m, Play))
    assert moves_text(after)[-1] == "draw"


def test_section5_casual_a_player_moves_only_their_own_tableau_tops() -> None:
    state = quiet(CASUAL, tableau={4: "QS1"})
    # Player 0 may put the King of spades on it (by suit) but not move it.
    assert moves_text(state) == ["T2-T4", "draw"]
    illegal(state, "T4-T0", "T4 is the opponent's tableau pile", "tableau_sources='own'")
    own = quiet(CASUAL, tableau={4: "QS1"}, current_player=1)
    # For player 1, T4 is an own pile: alternating onto T5 (KD1), by suit onto T2 (KS0).
    assert moves_text(own) == ["T4-T2", "T4-T5", "draw"]


def test_section5_classic_all_eight_tableau_tops_are_available() -> None:
    state = quiet(CLASSIC, tableau={4: "QS1", 2: "QH0"})
    assert moves_text(state) == ["T2-T3", "T2-T6", "T2-T7", "T4-T0", "T4-T1", "T4-T5", "draw"]


def test_section5_the_hand_is_never_a_source() -> None:
    with pytest.raises(ValueError, match="source H0 cannot be a move's source"):
        Play(Pile.hand(0), Pile.foundation(0))
    for rules in (CASUAL, CLASSIC):
        state = new_game(rules, 11)
        rng = random.Random(11)
        for _ in range(150):
            moves = legal_moves(state)
            if not moves:
                break
            assert all(m.source.kind.name != "HAND" for m in moves if isinstance(m, Play))
            state = apply_move(state, rng.choice(moves))


# ----------------------------------------------------------------------------
# 6. Where a card may go


def test_section6_an_empty_foundation_takes_any_ace() -> None:
    for player, ace in ((0, "AS0"), (1, "AH1")):
        state = quiet(CASUAL, reserves={player: ace}, current_player=player)
        assert moves_text(state) == [f"R{player}-F{i}" for i in range(8)] + ["draw"]
    state = quiet(CASUAL, reserves={0: "2H0"})
    illegal(state, "R0-F0", "an empty foundation takes only an Ace, not 2H0")


def test_section6_foundations_build_up_by_suit_to_king_from_either_deck() -> None:
    table = {0: "AH0 2H0 3H0 4H0"}

    def player_1(top: str) -> GameState:
        return quiet(CASUAL, foundations=table, reserves={1: top}, current_player=1)

    assert moves_text(player_1("5H1")) == ["R1-F0", "draw"]
    illegal(player_1("5D1"), "R1-F0", "5D1 does not go on 4H0: a foundation builds up in suit")
    illegal(player_1("6H1"), "R1-F0", "6H1 does not go on 4H0")
    illegal(player_1("3H1"), "R1-F0", "3H1 does not go on 4H0")
    full = quiet(CASUAL, foundations={0: run("H1", 1, 12)}, tableau={0: "5S0"}, reserves={0: "KH0"})
    assert moves_text(full)[0] == "R0-F0"
    done = play(full, "R0-F0")
    assert [c.rank for c in done.foundations[0]] == list(range(1, 14))


def test_section6_any_player_may_play_to_any_foundation() -> None:
    table = {3: "AH0 2H0 3H0 4H0"}
    state = quiet(CASUAL, foundations=table, reserves={1: "5H1"}, current_player=1)
    assert moves_text(state) == ["R1-F3", "draw"]


def test_section6_cards_on_foundations_never_move_again() -> None:
    with pytest.raises(ValueError, match="cannot be a move's source"):
        Play(Pile.foundation(0), Pile.tableau(0))
    state = quiet(CASUAL, foundations={0: "AC0 2C0 3C0"}, tableau={0: "4D0"}, current_player=0)
    assert all(m.source.kind.name != "FOUNDATION" for m in legal_moves(state) if isinstance(m, Play))


def test_section6_own_tableau_builds_down_in_alternating_colours() -> None:
    table = {0: "8S0", 1: "8C0", 2: "8H0"}
    assert moves_text(quiet(CASUAL, tableau=table, reserves={0: "7D0"})) == ["R0-T0", "R0-T1", "draw"]
    illegal(quiet(CASUAL, tableau=table, reserves={0: "7S0"}), "R0-T0", "7S0 does not go on 8S0: T0 builds down in alternating colours for player 0")
    illegal(quiet(CASUAL, tableau=table, reserves={0: "7H0"}), "R0-T2", "alternating colours")
    illegal(quiet(CASUAL, tableau=table, reserves={0: "9D0"}), "R0-T0", "9D0 does not go on 8S0")


def test_section6_an_empty_tableau_pile_takes_any_card() -> None:
    for rules, pile in ((CASUAL, 1), (CASUAL, 6), (CLASSIC, 1), (CLASSIC, 6)):
        state = quiet(rules, tableau={pile: ""}, reserves={0: "5C0"})
        assert Play(Pile.reserve(0), Pile.tableau(pile)) in legal_moves(state)
        assert Play(Pile.tableau(0), Pile.tableau(pile)) in legal_moves(state)


def test_section6_casual_opponent_tableau_builds_up_or_down_in_suit() -> None:
    table = {4: "2S1"}
    assert moves_text(quiet(CASUAL, tableau=table, reserves={0: "3S0"})) == ["R0-T4", "draw"]
    assert moves_text(quiet(CASUAL, tableau=table, reserves={0: "AS0"}))[-2:] == ["R0-T4", "draw"]
    illegal(quiet(CASUAL, tableau=table, reserves={0: "3C0"}), "R0-T4", "3C0 does not go on 2S1: T4 builds up or down in suit for player 0")
    illegal(quiet(CASUAL, tableau=table, reserves={0: "4S0"}), "R0-T4", "builds up or down in suit")
    # And alternating colours is not what the opponent's piles take.
    illegal(quiet(CASUAL, tableau={4: "8S1"}, reserves={0: "7D0"}), "R0-T4", "builds up or down in suit")


def test_section6_classic_all_eight_houses_build_down_in_alternating_colours() -> None:
    table = {4: "8S1"}
    assert moves_text(quiet(CLASSIC, tableau=table, reserves={0: "7D0"})) == ["R0-T4", "draw"]
    illegal(quiet(CLASSIC, tableau={4: "2S1"}, reserves={0: "3S0"}), "R0-T4", "T4 builds down in alternating colours")


def test_section6_classic_loading_same_suit_one_up_or_down_onto_opponent_reserve_and_waste() -> None:
    state = quiet(CLASSIC, reserves={0: "5C0", 1: "6C1"}, wastes={1: "4C1"})
    assert moves_text(state) == ["R0-R1", "R0-W1", "draw"]
    after = play(state, "R0-R1")
    assert after.top(Pile.reserve(1)) == cards("5C0")[0]
    validate(after)
    other_suit = quiet(CLASSIC, reserves={0: "5S0", 1: "6C1"}, wastes={1: "4C1"})
    assert moves_text(other_suit) == ["draw"]
    illegal(other_suit, "R0-R1", "5S0 cannot be loaded onto 6C1: loading builds up or down in suit")
    two_off = quiet(CLASSIC, reserves={0: "5C0", 1: "7C1"}, wastes={1: "3C1"})
    illegal(two_off, "R0-W1", "cannot be loaded onto 3C1")
    # Tableau tops may be loaded too.
    from_table = quiet(CLASSIC, tableau={0: "6H0"}, reserves={1: "7H1"})
    assert "T0-R1" in moves_text(from_table)


def test_section6_casual_has_no_loading() -> None:
    state = quiet(CASUAL, reserves={0: "5C0", 1: "6C1"}, wastes={1: "4C1"})
    assert moves_text(state) == ["draw"]
    illegal(state, "R0-R1", "these rules do not allow loading onto the opponent's reserve")
    illegal(state, "R0-W1", "these rules do not allow loading onto the opponent's waste")


def test_section6_a_card_never_goes_onto_own_reserve_hand_or_waste() -> None:
    state = quiet(CLASSIC, tableau={0: "6C0"}, reserves={0: "5C0"}, wastes={0: "7C0"})
    illegal(state, "T0-R0", "never goes onto the player's own reserve")
    illegal(state, "T0-W0", "never goes onto the player's own waste")
    with pytest.raises(ValueError, match="target H0 cannot be a move's target"):
        Play(Pile.tableau(0), Pile.hand(0))


def test_section6_a_card_never_moves_onto_the_pile_it_came_from() -> None:
    with pytest.raises(ValueError, match="onto the same pile"):
        Play(Pile.tableau(3), Pile.tableau(3))
    with pytest.raises(ValueError, match="onto the same pile"):
        MoveStack(Pile.tableau(3), Pile.tableau(3), 2)
    # A pile whose top would fit on itself under the suit rule still offers no such move.
    state = quiet(attrs.evolve(CASUAL, own_tableau_build="suit-up-or-down"), tableau={0: "6S0 5S0"})
    assert all(m.source is not m.target for m in legal_moves(state) if isinstance(m, Play))


# ----------------------------------------------------------------------------
# 7. Drawing and the end of a turn


def test_section7_draw_turns_the_hand_top_face_up_onto_the_waste() -> None:
    state = quiet(CASUAL, hands={0: "QS0"})
    hand = state.hands[0]
    after = play(state, "draw")
    assert after.wastes[0] == cards("QS0")
    assert after.hands[0] == hand[:-1]
    assert after.drawn and after.current_player == 0


def test_section7_draw_needs_a_hand_or_a_waste() -> None:
    # Hand empty, waste not: Draw turns the waste over (R4).
    assert moves_text(quiet(CASUAL, wastes={0: "2C0"}, rest={0: "R"})) == ["draw"]
    nothing = _blocked(CASUAL)
    assert moves_text(nothing) == ["pass"]
    illegal(nothing, "draw", "player 0's hand and waste are both empty")


def test_section7_an_unplayable_drawn_card_ends_the_turn() -> None:
    state = quiet(CASUAL, hands={0: "2C0"})
    after = play(state, "draw")
    assert after.top(Pile.waste(0)) == cards("2C0")[0]
    assert after.current_player == 1
    assert not after.drawn
    assert after.move_count == 1


def test_section7_a_playable_drawn_card_continues_the_turn_and_a_later_draw_is_allowed() -> None:
    state = quiet(CASUAL, hands={0: "2C0 QS0"})
    after = play(state, "draw")
    assert after.current_player == 0 and after.drawn
    assert moves_text(after) == ["W0-T0", "W0-T1", "W0-T6"]
    played = play(after, "W0-T6")
    assert moves_text(played) == ["T2-T6", "draw"]  # KS0 may now go on QS0 by suit
    assert play(played, "draw").current_player == 1  # the Two of clubs fits nowhere


def test_section7_the_drawn_card_counts_as_playable_by_loading() -> None:
    state = quiet(CLASSIC, hands={0: "8D0"}, wastes={1: "9D1"})
    after = play(state, "draw")
    assert after.current_player == 0
    assert moves_text(after) == ["W0-W1", "end"]


def test_section7_a_drawn_card_that_fits_only_an_empty_pile_continues_the_turn() -> None:
    # The reserve is empty, so fill_empty_first does not forbid the draw.
    state = quiet(CLASSIC, tableau={5: ""}, reserves={0: ""}, hands={0: "2C0"})
    after = play(state, "draw")
    assert after.current_player == 0 and after.drawn
    assert "W0-T5" in moves_text(after)


def test_section7_classic_end_turn_only_while_a_drawn_card_lies_on_the_waste() -> None:
    state = quiet(CLASSIC, wastes={0: "QH0"}, drawn=True)
    after = play(state, "end")
    assert after.current_player == 1 and not after.drawn
    assert after.top(Pile.waste(0)) == cards("QH0")[0]
    assert after.move_count == 1
    no_drawn = quiet(CLASSIC, wastes={0: "QH0"}, drawn=False)
    illegal(no_drawn, "end", "End turn is legal only while the card drawn this turn lies on the waste")


def test_section7_classic_the_drawn_card_stays_available_while_it_lies_there() -> None:
    state = quiet(CLASSIC, tableau={4: "QS1"}, wastes={0: "QH0"}, drawn=True)
    after = play(state, "T4-T0")
    assert after.drawn
    assert "W0-T2" in moves_text(after)


def test_section7_casual_has_no_end_turn() -> None:
    state = quiet(CASUAL, wastes={0: "QS0"}, drawn=True)
    illegal(state, "end", "these rules have no End turn: a turn ends by an unplayable draw or a pass")
    assert not any(isinstance(m, EndTurn) for m in legal_moves(state))


def test_section7_casual_a_player_who_leaves_the_drawn_card_and_runs_out_of_moves_passes() -> None:
    # The drawn 9H could go on T0's Ten of spades, but the player puts 9D there instead.
    state = quiet(CASUAL, tableau={0: "TS0", 1: "8D0 9D0"}, wastes={0: "9H0"}, drawn=True)
    assert moves_text(state) == ["W0-T0", "T1-T0"]
    stuck = play(state, "T1-T0")
    assert stuck.drawn
    assert moves_text(stuck) == ["pass"]
    after = play(stuck, "pass")
    # R6: this pass does not count towards two passes in a row, since player 0
    # may draw again next turn.
    assert (after.current_player, after.drawn, after.passes) == (1, False, 0)
    assert after.top(Pile.waste(0)) == cards("9H0")[0]


def test_R6_a_pass_with_the_drawn_card_on_the_waste_is_not_a_stuck_pass() -> None:
    state = quiet(CASUAL, tableau={0: "TS0", 1: "8D0 9D0"}, wastes={0: "9H0"}, hands={0: "2C0"}, drawn=True)
    stuck = play(play(state, "T1-T0"), "pass")
    assert stuck.passes == 0 and not stuck.is_over
    # Whatever player 1 does (here a pass), player 0 may draw again: the game goes on.
    if moves_text(stuck) == ["pass"]:
        again = play(stuck, "pass")
        assert not again.is_over and "draw" in moves_text(again)


def test_section7_after_a_turn_ends_the_other_player_moves() -> None:
    for text, state in (
        ("draw", quiet(CASUAL, hands={0: "2C0"})),
        ("end", quiet(CLASSIC, wastes={0: "QH0"}, drawn=True)),
        ("pass", _blocked(CASUAL)),
    ):
        assert play(state, text).current_player == 1


def test_seed000_example_turn_played_move_by_move() -> None:
    """Seed 000's "Example Turn": 5H to the foundation, 3S onto the opponent's 2S,
    draw 7D onto 8S, draw KC which fits nowhere: the turn passes."""
    state = make_state(
        CASUAL,
        foundations={0: "AH0 2H0 3H0 4H0"},
        tableau={0: "8S0", 1: "KH0", 2: "KD0", 3: "2C0", 4: "2S1", 5: "9C1", 6: "5D1", 7: "JH1"},
        reserves={0: "9H0 3S0 5H0", 1: "6C1"},
        hands={0: "KC0 7D0"},
    )
    assert state.current_player == 0
    assert moves_text(state) == ["R0-F0", "draw"]
    state = play(state, "R0-F0")
    assert state.foundations[0][-1] == cards("5H0")[0]
    assert moves_text(state) == ["R0-T4", "draw"]
    state = play(state, "R0-T4")
    assert state.tableau[4] == cards("2S1 3S0")
    assert moves_text(state) == ["draw"]  # no more moves from reserve or tableau
    state = play(state, "draw")
    assert state.top(Pile.waste(0)) == cards("7D0")[0]
    assert (state.current_player, state.drawn) == (0, True)
    assert moves_text(state) == ["W0-T0"]
    state = play(state, "W0-T0")
    assert state.tableau[0] == cards("8S0 7D0")
    assert moves_text(state) == ["draw"]
    state = play(state, "draw")
    assert state.top(Pile.waste(0)) == cards("KC0")[0]
    assert (state.current_player, state.drawn, state.move_count) == (1, False, 5)


# ----------------------------------------------------------------------------
# 8. Stack moves


def test_section8_a_stack_is_a_run_down_in_alternating_colours() -> None:
    rules = attrs.evolve(CLASSIC, opponent_tableau_build="suit-up-or-down")
    # T1 holds 8H 7H, built by suit: not a run for a stack move.
    state = make_state(rules, tableau={0: "KS0", 1: "8H0 7H0", 2: "9C0", 3: "", 4: "KH1", 5: "KD1", 6: "KS1", 7: "KC1"}, reserves={0: "", 1: "5D1"})
    assert stacks(state) == []
    illegal(state, "T1-T2x2", "the top 2 cards of T1 are not a run down in alternating colours")


def test_section8_a_stack_goes_onto_a_pile_that_accepts_its_lowest_card_or_an_empty_one() -> None:
    state = _stack_table((6, 7))
    illegal(state, "T0-T1x2", "7C0 does not go on KS0")
    illegal(state, "T0-T4x2", "7C0 does not go on 9C1")
    assert "T0-T7x2" in stacks(state)
    moved = play(state, "T0-T7x2")
    assert moved.tableau[7] == cards("7C0 6D0") and moved.tableau[0] == cards("8H0")


def test_section8_a_stack_moves_only_onto_a_pile_that_builds_down_alternating_for_the_mover() -> None:
    rules = attrs.evolve(CLASSIC, opponent_tableau_build="suit-up-or-down")
    # T5 (player 1's) holds the Eight of clubs: 7C would go on it by suit, but not as a stack.
    state = make_state(rules, tableau={0: "8H0 7C0 6D0", 1: "KS0", 2: "", 3: "", 4: "KH1", 5: "8C1", 6: "KS1", 7: "KC1"}, reserves={0: "5C0", 1: "5D1"})
    assert "T0-T5x2" not in stacks(state)
    illegal(state, "T0-T5x2", "a stack moves only onto a pile that builds down in alternating colours, and T5 does not for player 0")
    assert "T0-T2x2" in stacks(state)


def test_section8_casual_only_top_cards_move() -> None:
    state = make_state(CASUAL, tableau={0: "8H0 7C0 6D0", 1: "9C0", 2: "", 3: ""}, reserves={0: "5C0", 1: "5D1"})
    assert stacks(state) == []
    illegal(state, "T0-T2x2", "stack moves are not part of these rules: only top cards move")
    assert "T0-T2" in moves_text(state)


def test_section8_stacks_come_from_the_available_tableau_sources() -> None:
    rules = attrs.evolve(CLASSIC, tableau_sources="own")
    state = make_state(rules, tableau={0: "KS0", 1: "KC0", 2: "", 3: "", 4: "8H1 7C1", 5: "9C0", 6: "KS1", 7: "KC1"}, reserves={0: "5C0", 1: "5D1"})
    assert stacks(state) == []
    illegal(state, "T4-T2x2", "T4 is the opponent's tableau pile")
    assert stacks(attrs.evolve(state, current_player=1)) == ["T4-T2x2", "T4-T3x2", "T4-T5x2"]


# ----------------------------------------------------------------------------
# 9. Being stuck, and the end of the game


def test_section9_pass_is_legal_only_with_no_other_move() -> None:
    state = quiet(CASUAL)
    assert moves_text(state) == ["draw"]
    illegal(state, "pass", "Pass is legal only with no other move, and player 0 has 1, e.g. draw")
    assert moves_text(_blocked(CLASSIC)) == ["pass"]
    after = play(_blocked(CLASSIC), "pass")
    assert after.piles == _blocked(CLASSIC).piles  # a pass changes no pile


def _winning_table(rules: RuleSet, **kwargs: Any) -> GameState:
    # Player 0's last personal card is the King of hearts on the reserve; the
    # King of spades stays on the tableau.
    foundations = {0: run("C0", 1, 13), 1: run("D0", 1, 13), 2: run("S0", 1, 12), 3: run("H0", 1, 12)}
    foundations.update(kwargs.pop("foundations", {}))
    tableau = {0: "KS0", 4: "KH1", 5: "KD1", 6: "KS1", 7: "KC1"}
    return make_state(rules, foundations=foundations, tableau=tableau, **kwargs)


def test_section9_a_player_wins_the_moment_reserve_hand_and_waste_are_empty() -> None:
    state = _winning_table(CASUAL, reserves={0: "KH0", 1: "5D1"})
    assert state.hands[0] == () and state.wastes[0] == ()
    over = play(state, "R0-F3")
    assert over.outcome == Outcome(0, EndReason.EMPTIED, None)
    assert over.is_over and legal_moves(over) == ()
    assert over.tableau[0] == cards("KS0")  # tableau cards do not count
    illegal(over, "T0-F2", "the game is over (player 0 wins (emptied))")


def test_section9_the_last_card_may_leave_from_the_waste() -> None:
    state = _winning_table(CASUAL, reserves={0: "", 1: "5D1"}, wastes={0: "KH0"})
    assert play(state, "W0-F3").outcome == Outcome(0, EndReason.EMPTIED, None)


def test_section9_a_hand_made_state_with_an_empty_player_is_over() -> None:
    state = _winning_table(CASUAL, reserves={0: "", 1: "5D1"}, foundations={3: run("H0", 1, 13)})
    assert state.outcome == Outcome(0, EndReason.EMPTIED, None)
    assert legal_moves(state) == ()


def test_section9_casual_the_game_is_a_draw_after_1000_moves_of_every_kind() -> None:
    assert CASUAL.move_limit == 1000
    cases = {
        "R0-T2": quiet(CASUAL, reserves={0: "QH0"}, move_count=999),
        "draw": quiet(CASUAL, move_count=999),
        "pass": _blocked(CASUAL, move_count=999),
    }
    for text, state in cases.items():
        assert not state.is_over
        over = play(state, text)
        assert over.move_count == 1000
        assert over.outcome == Outcome(None, EndReason.MOVE_LIMIT, None)
        assert legal_moves(over) == ()
    # Every kind counts, End turn too.
    rules = attrs.evolve(CASUAL, end_turn=True)
    state = quiet(rules, wastes={0: "QS0"}, drawn=True, move_count=999)
    assert play(state, "end").outcome == Outcome(None, EndReason.MOVE_LIMIT, None)
    state = quiet(CASUAL, hands={0: "2C0 QS0"})
    counts = [s.move_count for s in _walk(state, "draw", "W0-T0", "draw")]
    assert counts == [1, 2, 3]


def _walk(state: GameState, *texts: str) -> list[GameState]:
    out = []
    for text in texts:
        state = apply_move(state, parse_move(text))
        out.append(state)
    return out


def test_section9_classic_has_no_move_limit() -> None:
    assert CLASSIC.move_limit is None
    state = quiet(CLASSIC, move_count=10**6)
    assert not state.is_over
    assert play(state, "draw").move_count == 10**6 + 1


def _turnover(rules: RuleSet, **kwargs: Any) -> GameState:
    # Player 0's hand is empty: the waste (every other card of deck 0) turns over at the next draw.
    return quiet(rules, rest={0: "W"}, **kwargs)


def test_section9_classic_a_turnover_without_a_hand_or_reserve_card_played_marks_the_player_exhausted() -> None:
    state = _turnover(CLASSIC)
    assert moves_text(state) == ["draw"]
    after = play(state, "draw")
    assert after.exhausted == (True, False)
    assert after.played == (False, False)
    assert not after.is_over


def test_section9_a_turnover_after_playing_a_hand_or_reserve_card_does_not_mark() -> None:
    after = play(_turnover(CLASSIC, played=(True, False)), "draw")
    assert after.exhausted == (False, False)
    assert after.played == (False, False)  # counting starts again at the turnover


def test_section9_playing_a_reserve_or_hand_card_clears_the_mark_and_a_tableau_card_does_not() -> None:
    reserve = quiet(CLASSIC, reserves={0: "QH0"}, exhausted=(True, False))
    after = play(reserve, "R0-T2")
    assert (after.exhausted, after.played) == ((False, False), (True, False))
    hand = quiet(CLASSIC, wastes={0: "QH0"}, drawn=True, exhausted=(True, False))
    after = play(hand, "W0-T2")
    assert (after.exhausted, after.played) == ((False, False), (True, False))
    tableau = quiet(CLASSIC, tableau={4: "QH1"}, exhausted=(True, False))
    after = play(tableau, "T4-T2")
    assert (after.exhausted, after.played) == ((True, False), (False, False))
    loading = quiet(CLASSIC, reserves={0: "5C0", 1: "6C1"}, exhausted=(True, False))
    assert play(loading, "R0-R1").exhausted == (False, False)


def test_section9_classic_stalemate_when_a_turnover_marks_a_player_while_the_opponent_is_marked() -> None:
    state = _turnover(CLASSIC, exhausted=(False, True))
    over = play(state, "draw")
    assert over.exhausted == (True, True)
    # Penalties: player 0 has 1 reserve, 46 hand, 1 waste card (49); player 1 has 1 and 47 (49).
    assert over.outcome == Outcome(None, EndReason.STALEMATE, (0, 0))
    assert legal_moves(over) == ()
    uneven = play(_turnover(CLASSIC, reserves={1: "3H1 5D1"}, exhausted=(False, True)), "draw")
    assert uneven.outcome == Outcome(0, EndReason.STALEMATE, (1, 0))


def test_section9_without_the_stalemate_rule_no_marks_are_kept_and_turnovers_never_end_the_game() -> None:
    rules = attrs.evolve(CLASSIC, stalemate=False)
    after = play(_turnover(rules), "draw")
    assert after.exhausted == (False, False) and after.played == (False, False)
    assert not after.is_over
    assert not CASUAL.stalemate
    casual = play(_turnover(CASUAL), "draw")
    assert casual.exhausted == (False, False) and "x0" not in str(casual)


# ----------------------------------------------------------------------------
# 10. Compulsory moves


def test_section10_the_reserve_top_to_a_foundation_comes_first() -> None:
    state = quiet(CLASSIC, foundations={0: "AH0 2H0 3H0 4H0"}, reserves={0: "5H0"}, tableau={4: "5H1"})
    assert moves_text(state) == ["R0-F0"]
    illegal(state, "T4-F0", "foundation plays are compulsory and come first (section 10 of the rules): R0-F0")
    illegal(state, "draw", "foundation plays are compulsory")
    optional = quiet(CASUAL, foundations={0: "AH0 2H0 3H0 4H0"}, reserves={0: "5H0"}, tableau={0: "5H1"})
    assert moves_text(optional) == ["R0-F0", "T0-F0", "draw"]


def test_section10_then_any_available_card_to_a_foundation() -> None:
    state = quiet(CLASSIC, foundations={0: "AH0"}, tableau={4: "2H1"}, wastes={0: "AC0"}, drawn=True)
    assert moves_text(state) == [f"W0-F{i}" for i in range(1, 8)] + ["T4-F0"]
    illegal(state, "end", "foundation plays are compulsory and come first (section 10 of the rules): W0-F1 W0-F2")
    # The waste card not drawn this turn is not available, so not compulsory either.
    not_drawn = quiet(CLASSIC, foundations={0: "AH0"}, wastes={0: "AC0"}, drawn=False)
    assert moves_text(not_drawn) == ["draw"]


def test_section10_empty_tableau_piles_must_be_filled_before_draw_or_end_turn_while_the_reserve_is_not_empty() -> None:
    state = quiet(CLASSIC, tableau={5: ""})
    assert moves_text(state) == ["R0-T5", "T0-T5", "T1-T5", "T2-T5", "T3-T5", "T4-T5", "T6-T5", "T7-T5"]
    illegal(state, "draw", "the empty tableau piles must be filled before drawing or ending the turn (fill_empty_first)")
    drawn = quiet(CLASSIC, tableau={5: ""}, wastes={0: "QH0"}, drawn=True)
    assert "end" not in moves_text(drawn)
    illegal(drawn, "end", "fill_empty_first")
    no_reserve = quiet(CLASSIC, tableau={5: ""}, reserves={0: ""})
    assert moves_text(no_reserve)[-1] == "draw"
    casual = quiet(CASUAL, tableau={1: ""})
    assert moves_text(casual)[-1] == "draw"


def test_section10_loading_is_never_compulsory() -> None:
    state = quiet(CLASSIC, reserves={0: "5C0", 1: "6C1"})
    assert moves_text(state) == ["R0-R1", "draw"]


def test_section10_moves_that_would_uncover_a_foundation_card_are_not_compulsory() -> None:
    # 3D0 under 2S0 could go to the foundation once uncovered; moving 2S0 is not forced.
    state = quiet(CLASSIC, foundations={2: "AD1 2D1"}, tableau={1: "3D0 2S0", 5: "3H1"})
    assert moves_text(state) == ["T1-T5", "draw"]


def test_section10_casual_foundation_plays_are_optional() -> None:
    state = quiet(CASUAL, tableau={0: "AH0"}, reserves={0: "QH0"})
    moves = moves_text(state)
    assert moves[:8] == [f"T0-F{i}" for i in range(8)]
    assert "R0-T2" in moves and "draw" in moves


# ----------------------------------------------------------------------------
# 11. Scoring and the match


def test_section11_casual_games_have_no_scores() -> None:
    assert CASUAL.scoring is None
    over = play(_winning_table(CASUAL, reserves={0: "KH0", 1: "5D1"}), "R0-F3")
    assert over.outcome is not None and over.outcome.scores is None


def test_section11_classic_winner_scores_30_plus_2_per_reserve_card_plus_hand_and_waste() -> None:
    state = _winning_table(CLASSIC, reserves={0: "KH0", 1: "2C1 3C1 4C1"}, wastes={1: "8D1 9D1"})
    assert moves_text(state) == ["R0-F3"]  # compulsory
    assert [len(state.reserves[1]), len(state.hands[1]), len(state.wastes[1])] == [3, 43, 2]
    over = play(state, "R0-F3")
    assert over.outcome == Outcome(0, EndReason.EMPTIED, (30 + 2 * 3 + 43 + 2, 0))


def test_section11_stalemate_the_lower_penalty_scores_the_difference_without_the_bonus() -> None:
    over = play(_turnover(CLASSIC, reserves={1: "3H1 4H1 5D1"}, exhausted=(False, True)), "draw")
    # Player 0: 2*1 + 46 + 1 = 49. Player 1: 2*3 + 45 = 51.
    assert over.outcome == Outcome(0, EndReason.STALEMATE, (2, 0))


def test_section11_stalemate_with_equal_penalties_scores_nothing_and_has_no_winner() -> None:
    over = play(_turnover(CLASSIC, exhausted=(False, True)), "draw")
    assert over.outcome is not None
    assert (over.outcome.winner, over.outcome.scores, over.outcome.is_draw) == (None, (0, 0), True)


def test_section11_scoring_weights_and_bonus_are_pluggable() -> None:
    scoring = Scoring(win_bonus=10, reserve_weight=3, hand_weight=0, waste_weight=5, match_target=40)
    rules = attrs.evolve(CLASSIC, scoring=scoring)
    state = _winning_table(rules, reserves={0: "KH0", 1: "2C1 3C1 4C1"}, wastes={1: "8D1 9D1"})
    over = play(state, "R0-F3")
    assert over.outcome == Outcome(0, EndReason.EMPTIED, (10 + 9 + 0 + 10, 0))
    match = Match.for_rules(rules).add(over.outcome)
    assert match.totals == (29, 0) and match.winner is None
    assert match.add(over.outcome).winner == 0


def test_section11_a_match_is_won_by_the_first_player_to_reach_150() -> None:
    assert CLASSIC.scoring is not None and CLASSIC.scoring.match_target == 150
    match = Match.for_rules(CLASSIC)
    for _ in range(4):
        match = match.add(Outcome(1, EndReason.EMPTIED, (0, 37)))
    assert match.totals == (0, 148) and not match.is_over
    match = match.add(Outcome(0, EndReason.STALEMATE, (5, 0)))
    assert match.winner is None
    match = match.add(Outcome(1, EndReason.EMPTIED, (0, 2)))
    assert match.totals == (5, 150) and match.winner == 1 and match.is_over
    with pytest.raises(ValueError, match="the match is over: player 1 has won it"):
        match.add(Outcome(0, EndReason.EMPTIED, (40, 0)))


# ----------------------------------------------------------------------------
# 12. Hidden information


def test_section12_reserves_below_the_top_and_hands_are_counts_in_the_view_of_both_players() -> None:
    from crapette import view

    state = new_game(CLASSIC, seed=4)
    v = view(state)
    assert v.reserve_sizes == (13, 13) and v.hand_sizes == (35, 35)
    assert v.reserve_tops == (state.reserves[0][-1], state.reserves[1][-1])
    assert v.known_hands == (None, None) and v.known_reserve_cards == tuple(r[-1:] for r in state.reserves)


def test_section12_what_the_public_history_showed_stays_known() -> None:
    from conftest import turned_over

    from crapette import reveals, view

    # A hand formed by turning the waste over is known, in order: drawing from it reveals nothing.
    before, after = turned_over("classic", 1)
    assert not before.hand_known[0] and after.hand_known[0]
    assert view(after).known_hands[0] == after.hands[0] and not reveals(after, parse_move("draw"))
    # A card loaded onto a reserve covers a known card, which stays known there.
    rng = random.Random(0)
    state = new_game(CLASSIC, seed=0)
    while not any(state.reserve_known):
        state = apply_move(state, rng.choice(legal_moves(state)))
    p = state.reserve_known.index(max(state.reserve_known))
    assert view(state).known_reserve_cards[p] == state.reserves[p][-1 - state.reserve_known[p] :]


def test_section12_what_is_remembered_is_part_of_the_state_and_its_position_string() -> None:
    from conftest import forget, turned_over

    from crapette import parse_position, view

    _, after = turned_over("casual", 1)
    blank = forget(after)
    assert blank.piles == after.piles and blank != after and view(blank) != view(after)
    assert parse_position(str(after)) == after and view(parse_position(str(after))) == view(after)
    # Under revisits=false the positions the turn has reached are remembered too.
    rules = attrs.evolve(CLASSIC, revisits=False)
    moved = apply_move(new_game(rules, seed=0), parse_move("T1-T2"))
    assert moved.turn_moves == (parse_move("T1-T2"),)
    assert parse_move("T2-T1") not in legal_moves(parse_position(str(moved)))


# ----------------------------------------------------------------------------
# 13. Presets at a glance


def test_section13_casual_preset_options() -> None:
    assert attrs.asdict(CASUAL, recurse=False) == {
        "reserve_size": 12,
        "first_player": FirstPlayer.PLAYER_0,
        "tableau_sources": TableauSources.OWN,
        "own_tableau_build": Build.DOWN_ALTERNATING,
        "opponent_tableau_build": Build.SUIT_UP_OR_DOWN,
        "load_targets": (),
        "waste_play": WastePlay.ALWAYS,
        "end_turn": False,
        "foundation_plays": FoundationPlays.OPTIONAL,
        "fill_empty_first": False,
        "stack_moves": False,
        "move_limit": 1000,
        "stalemate": False,
        "scoring": None,
        "load_build": Build.SUIT_UP_OR_DOWN,
        "drawn_first": False,
        "stack_limit": StackLimit.EMPTY_PILES,
        "revisits": True,
        "endings": (),
    }
    assert RuleSet.from_name("casual") is CASUAL and CASUAL.preset_name == "casual"


def test_section13_classic_preset_options() -> None:
    assert attrs.asdict(CLASSIC, recurse=False) == {
        "reserve_size": 13,
        "first_player": FirstPlayer.LOWER_RESERVE,
        "tableau_sources": TableauSources.ALL,
        "own_tableau_build": Build.DOWN_ALTERNATING,
        "opponent_tableau_build": Build.DOWN_ALTERNATING,
        "load_targets": (LoadTarget.RESERVE, LoadTarget.WASTE),
        "waste_play": WastePlay.DRAWN,
        "end_turn": True,
        "foundation_plays": FoundationPlays.COMPULSORY,
        "fill_empty_first": True,
        "stack_moves": True,
        "move_limit": None,
        "stalemate": True,
        "scoring": Scoring(win_bonus=30, reserve_weight=2, hand_weight=1, waste_weight=1, match_target=150),
        "load_build": Build.SUIT_UP_OR_DOWN,
        "drawn_first": False,
        "stack_limit": StackLimit.EMPTY_PILES,
        "revisits": True,
        "endings": (),
    }
    assert RuleSet.from_name("classic") is CLASSIC and CLASSIC.preset_name == "classic"


_ALTERNATIVES: dict[str, list[Any]] = {
    "reserve_size": [1, 12, 13, 30, 48],
    "first_player": ["player-0", "player-1", "lower-reserve", "higher-reserve", "random"],
    "tableau_sources": list(TableauSources),
    "own_tableau_build": ["down-alternating", "suit-up-or-down"],
    "opponent_tableau_build": ["down-alternating", "suit-up-or-down"],
    "load_targets": [(), ("reserve",), ("waste",), ("reserve", "waste")],
    "waste_play": list(WastePlay),
    "end_turn": [False, True],
    "foundation_plays": list(FoundationPlays),
    "fill_empty_first": [False, True],
    "stack_moves": [False, True],
    "move_limit": [None, 40, 1000],
    "stalemate": [False, True],
    "scoring": [None, Scoring(), Scoring(win_bonus=5, reserve_weight=1, hand_weight=2, waste_weight=0, match_target=60)],
    "load_build": ["suit-up-or-down", "suit-up-or-down-wrap"],
    "drawn_first": [False, True],
    "stack_limit": list(StackLimit),
    "revisits": [True, False],
    "endings": [(), ("no-progress:5",)],
}


def _single_option_changes() -> list[tuple[str, str, Any]]:
    out = []
    for preset in ("casual", "classic"):
        base = RuleSet.from_name(preset)
        for name, values in _ALTERNATIVES.items():
            for value in values:
                if attrs.evolve(base, **{name: value}) != base:
                    out.append((preset, name, value))
    return out


def test_section13_every_option_of_the_rule_set_has_a_row() -> None:
    assert set(_ALTERNATIVES) == {o.name for o in RuleSet.options()}


@pytest.mark.parametrize(("preset", "name", "value"), _single_option_changes())
def test_section13_every_option_is_independent(preset: str, name: str, value: Any) -> None:
    base = RuleSet.from_name(preset)
    rules = attrs.evolve(base, **{name: value})
    assert rules.preset_name is None
    for field in attrs.fields(RuleSet):
        if field.name != name:
            assert getattr(rules, field.name) == getattr(base, field.name)
    rng = random.Random(f"{preset}-{name}-{value}")
    state = new_game(rules, rng.randrange(2**64))
    validate(state)
    while not state.is_over and state.move_count < 300:
        moves = legal_moves(state)
        assert moves
        state = apply_move(state, rng.choice(moves))
        assert state.rules is rules
        validate(state)
    assert state.is_over == (state.outcome is not None) == (legal_moves(state) == ())


def test_the_move_counts_bound_ends_the_game_as_a_move_limit_does() -> None:
    """docs/rules.rst, the library's own decisions: no state the engine makes has a count past MAX_NUMBER."""
    from crapette import MAX_NUMBER, parse_position, validate

    for rules in (CLASSIC, attrs.evolve(CASUAL, move_limit=None)):
        state = attrs.evolve(new_game(rules, seed=3), move_count=MAX_NUMBER - 1)
        assert state.outcome is None
        after = apply_move(state, legal_moves(state)[0])
        assert after.move_count == MAX_NUMBER
        assert after.outcome is not None and after.outcome.reason is EndReason.MOVE_LIMIT
        assert (after.outcome.scores is None) == (rules.scoring is None)
        assert legal_moves(after) == ()
        validate(after)
        assert parse_position(str(after)) == after
        assert parse_position(str(after)).outcome == after.outcome
    # A position at the bound is over however it is made.
    at_bound = attrs.evolve(new_game(CLASSIC, seed=3), move_count=MAX_NUMBER)
    assert at_bound.outcome is not None and at_bound.outcome.reason is EndReason.MOVE_LIMIT


# The bound on every number (MAX_NUMBER) ----------------------------------------------------------


HUGE = 10**5000


def test_numbers_at_the_bound_are_written_and_read_back_exactly() -> None:
    rules = attrs.evolve(CLASSIC, move_limit=MAX_NUMBER, scoring=Scoring(MAX_NUMBER, MAX_NUMBER, 0, 0, MAX_NUMBER))
    assert parse_rules(str(rules)) == rules
    state = attrs.evolve(new_game(rules, seed=2**64 - 1), move_count=MAX_NUMBER - 1)
    assert parse_position(str(state)) == state
    record = GameRecord(rules, seed=2**64 - 1)
    assert parse_record(str(record)) == record == GameRecord.from_json(record.to_json())
    counted = attrs.evolve(new_game(parse_rules("casual(endings=no-progress:5)"), seed=1), counters=(MAX_NUMBER,))
    assert parse_position(str(counted)) == counted


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: attrs.evolve(CASUAL, move_limit=MAX_NUMBER + 1), "move_limit must be at most 2**63 - 1"),
        (lambda: attrs.evolve(CASUAL, move_limit=HUGE), "move_limit must be at most 2**63 - 1, got a number of 16610 bits"),
        (lambda: Scoring(win_bonus=HUGE), "win_bonus must be at most 2**63 - 1"),
        (lambda: Scoring(match_target=MAX_NUMBER + 1), "match_target must be at most 2**63 - 1"),
        (lambda: parse_rules("casual(move_limit=99999999999999999999)"), "move_limit must be at most 2**63 - 1"),
    ],
)
def test_numbers_past_what_the_formats_carry_are_refused_when_the_rules_are_made(build: object, message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        build()  # type: ignore[operator]
    assert message in str(info.value)
    assert len(str(info.value)) < 300
