"""crapette.gamecheck: check_game plays random games of any game of the protocol and names the promise it breaks.

The games checked are Crapette and ``Capture``, the small game of conftest.py;
each broken variant of ``Capture`` below breaks one promise of the protocol,
and ``check_game`` must name it.
"""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest
from conftest import CAPTURE, CAPTURE_DECK, Capture, NeverEnds, Put, Solo, State, View, capture_module

import crapette.testing
from crapette import ParseError, gamecheck
from crapette.gamecheck import MAX_ILLEGAL_SAMPLES
from crapette.protocol import Crapette
from crapette.testing import CheckSummary, InvariantViolation, check_game

# check_game passes on sound games --------------------------------------------------------------


@pytest.mark.parametrize("preset", ["casual", "classic"])
def test_check_game_passes_on_crapette(preset: str) -> None:
    summary = check_game(Crapette(preset), games=2, max_moves=60, seed=5)
    assert summary == CheckSummary(games=2, moves=120, finished=0)
    assert summary.capped == 2


def test_check_game_sees_crapette_games_end_under_a_move_limit() -> None:
    summary = check_game(Crapette("casual(move_limit=30)"), games=2, max_moves=100)
    assert (summary.finished, summary.capped, summary.moves) == (2, 0, 60)


def test_check_game_passes_on_a_game_written_as_an_object_or_a_module() -> None:
    for game in (CAPTURE, capture_module):
        summary = check_game(game, games=12, seed=3)
        assert (summary.games, summary.finished, summary.capped, summary.moves) == (12, 12, 0, 96)


def test_check_game_is_deterministic_and_checks_nothing_for_no_games() -> None:
    assert check_game(CAPTURE, games=3, seed=9) == check_game(CAPTURE, games=3, seed=9)
    assert check_game(CAPTURE, games=0) == CheckSummary(games=0, moves=0, finished=0)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"game": object()}, TypeError, "is not a card game"),
        ({"games": -1}, ValueError, "games must be at least 0"),
        ({"max_moves": 1.5}, TypeError, "max_moves must be an int"),
        ({"illegal_samples": -2}, ValueError, "illegal_samples"),
        ({"seed": -1}, ValueError, "seed"),
        ({"seed": 2**64 - 1, "games": 2}, ValueError, "seed"),
    ],
)
def test_check_game_refuses_bad_arguments(kwargs: dict[str, Any], error: type, message: str) -> None:
    arguments: dict[str, Any] = {"game": CAPTURE}
    arguments.update(kwargs)
    with pytest.raises(error, match=message):
        check_game(**arguments)


# check_game catches broken games ------------------------------------------------------------------


class MutatesItsInput(Capture):
    def apply_move(self, state: State, move: Put) -> State:
        after = super().apply_move(state, move)
        object.__setattr__(state, "centre", state.centre + (move.card,))
        return after


class AcceptsAnything(Capture):
    def apply_move(self, state: State, move: Put) -> State:
        if move.card not in state.hands[state.current_player]:
            return state
        return super().apply_move(state, move)


class RefusesWithTheWrongError(Capture):
    def apply_move(self, state: State, move: Put) -> State:
        if move not in self.legal_moves(state):
            raise KeyError(str(move))
        return super().apply_move(state, move)


class LosesACard(Capture):
    def apply_move(self, state: State, move: Put) -> State:
        after = super().apply_move(state, move)
        return attrs.evolve(after, centre=after.centre[1:]) if len(after.centre) > 2 else after


class ViewKeepsTheWrongHand(Capture):
    def determinize(self, view: View, rng: random.Random) -> State:
        world = super().determinize(view, rng)
        hands = list(world.hands)
        hands[view.player] = tuple(reversed(hands[view.player]))
        return attrs.evolve(world, hands=(hands[0], hands[1]))


class LegalMovesSeeHiddenCards(Capture):
    def legal_moves(self, state: State) -> tuple[Put, ...]:
        moves = super().legal_moves(state)
        other = state.hands[1 - state.current_player]
        return moves if not other or other[0].rank % 2 else moves[:1]


class WritesMovesItCannotRead(Capture):
    def parse_move(self, text: str) -> Put:
        move = super().parse_move(text)
        return Put(CAPTURE_DECK[(CAPTURE_DECK.index(move.card) + 1) % len(CAPTURE_DECK)])


class ReadsAnything(Capture):
    def parse_move(self, text: str) -> Put:
        try:
            return super().parse_move(text)
        except ParseError:
            return Put(CAPTURE_DECK[0])


class ReturnsTooFew(Capture):
    def returns(self, state: State) -> tuple[float, float]:
        return super().returns(state)[:1]  # type: ignore[return-value]


class DealsAtRandom(Capture):
    def new_game(self, seed: int) -> State:
        return super().new_game(random.randrange(1000) if seed >= 0 else seed)


class UnhashableStates(Capture):
    def new_game(self, seed: int) -> State:
        state = super().new_game(seed)
        return attrs.evolve(state, captured=([], ()))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "invariant"),
    [
        (MutatesItsInput(), "immutability"),
        (AcceptsAnything(), "illegal-move-refused"),
        (RefusesWithTheWrongError(), "illegal-move-refused"),
        (LosesACard(), "card-count"),
        (ViewKeepsTheWrongHand(), "view"),
        (LegalMovesSeeHiddenCards(), "view"),
        (WritesMovesItCannotRead(), "notation"),
        (ReadsAnything(), "notation"),
        (ReturnsTooFew(), "game-over"),
        (DealsAtRandom(), "new-game"),
        (UnhashableStates(), "value"),
    ],
    ids=lambda value: type(value).__name__ if not isinstance(value, str) else value,
)
def test_check_game_names_the_invariant_a_broken_game_breaks(game: Capture, invariant: str) -> None:
    with pytest.raises(InvariantViolation) as caught:
        check_game(game, games=20, seed=1)
    error = caught.value
    assert error.invariant == invariant
    assert error.game == "capture" and error.seed is not None
    assert f"capture.new_game({error.seed})" in str(error)
    # The seed and the moves reproduce the state where it broke.
    state = Capture().new_game(error.seed)
    for move in error.moves:
        state = Capture().apply_move(state, move)


def test_check_game_reports_games_that_do_not_end_apart() -> None:
    summary = check_game(NeverEnds(), games=3, max_moves=20)
    assert summary == CheckSummary(games=3, moves=60, finished=0)
    assert summary.capped == 3


def test_check_game_wants_one_score_per_player() -> None:
    # Capture's outcome has two scores: a one-player game must not.
    with pytest.raises(InvariantViolation, match="not None or one per player"):
        check_game(Solo(), games=3)


# The module and its bounds ------------------------------------------------------------------------


def test_check_game_and_its_summary_are_the_ones_crapette_testing_exports() -> None:
    assert gamecheck.__all__ == ["check_game"]
    assert crapette.testing.check_game is gamecheck.check_game
    assert crapette.testing.CheckSummary is gamecheck.CheckSummary
    summary = CheckSummary(games=1, moves=8, finished=1)
    assert (summary.capped, str(summary)) == (0, "1 game checked (8 moves): 1 ended, 0 capped by max_moves")


def test_illegal_samples_go_up_to_the_cap_and_none_tries_no_illegal_move() -> None:
    assert check_game(CAPTURE, games=1, illegal_samples=MAX_ILLEGAL_SAMPLES).finished == 1
    with pytest.raises(ValueError, match="illegal_samples"):
        check_game(CAPTURE, games=1, illegal_samples=MAX_ILLEGAL_SAMPLES + 1)
    # With no samples, a game that accepts illegal moves goes unnoticed: only samples catch it.
    assert check_game(AcceptsAnything(), games=3, illegal_samples=0).finished == 3


class DealsAnySeed(Capture):
    def new_game(self, seed: int) -> State:
        return super().new_game(seed % 1000)


class ParseMoveRaisesKeyError(Capture):
    def parse_move(self, text: str) -> Put:
        try:
            return super().parse_move(text)
        except ValueError:
            raise KeyError(text) from None


def test_bad_seeds_and_text_that_is_no_move_must_raise_value_error() -> None:
    with pytest.raises(InvariantViolation, match=r"new_game\(-1\) dealt a game") as dealt:
        check_game(DealsAnySeed(), games=1)
    assert (dealt.value.invariant, dealt.value.seed, dealt.value.moves) == ("new-game", 0, ())
    with pytest.raises(InvariantViolation, match=r"parse_move\(''\) should raise ValueError") as read:
        check_game(ParseMoveRaisesKeyError(), games=1)
    assert read.value.invariant == "notation"


class LosesACardUncounted(LosesACard):
    deck = None


def test_the_cards_are_counted_only_for_a_game_that_declares_its_deck() -> None:
    assert check_game(LosesACardUncounted(), games=5, seed=1).finished == 5


def test_a_violation_message_shows_the_last_moves_that_reproduce_it() -> None:
    with pytest.raises(InvariantViolation) as caught:
        check_game(LosesACard(), games=20, seed=1)
    error = caught.value
    text = str(error)
    assert text.startswith("invariant 'card-count' broken: the state after ")
    assert f"game: capture.new_game({error.seed}) then the {len(error.moves)} moves in .moves" in text
    assert "last moves: " + " ".join(str(m) for m in error.moves[-8:]) in text
