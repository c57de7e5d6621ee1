"""The game protocol: Crapette implements it at no cost, and the generic tools play any game of it.

The tools are checked on Crapette and on a small game written here, ``Capture``:
two players with four hidden cards each put a card on a centre pile in turn,
and a card higher than the top of the pile captures it. The broken variants of
``Capture`` each break one promise of the protocol, and ``check_game`` must
name it.
"""

from __future__ import annotations

import pickle
import random
import sys
import types
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import attrs
import pytest

import crapette
from crapette import Card, IllegalMoveError, ParseError, RuleSet, parse_card
from crapette.bots import GreedyBot, RandomBot, SearchBot, make_bot
from crapette.protocol import CardGame, CardOutcome, CardState, Crapette, check_card_game, game_name
from crapette.simulation import play_game, simulate
from crapette.testing import CheckSummary, InvariantViolation, check_game

# A small game of the protocol ----------------------------------------------------------------

DECK = tuple(Card(rank, suit, 0) for suit in "CH" for rank in range(1, 5))


@attrs.frozen(repr=False)
class Put:
    card: Card

    def __str__(self) -> str:
        return str(self.card)[:-1]

    def __repr__(self) -> str:
        return f"Put({str(self)!r})"


@attrs.frozen
class Result:
    winner: int | None
    scores: tuple[int, int]
    reason: str = "captures"


@attrs.frozen
class State:
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    centre: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    current_player: int

    @property
    def is_over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    @property
    def outcome(self) -> Result | None:
        if not self.is_over:
            return None
        a, b = len(self.captured[0]), len(self.captured[1])
        return Result(None if a == b else (0 if a > b else 1), (a, b))


@attrs.frozen
class View:
    player: int
    hand: tuple[Card, ...]
    other_size: int
    centre: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], tuple[Card, ...]]
    current_player: int


class Capture:
    """The game, as an object; the broken variants below override one member each."""

    name = "capture"
    num_players = 2
    deck = DECK

    def new_game(self, seed: int) -> State:
        if not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"bad seed {seed!r}")
        cards = list(DECK)
        random.Random(seed).shuffle(cards)
        return State((tuple(cards[:4]), tuple(cards[4:])), (), ((), ()), 0)

    def legal_moves(self, state: State) -> tuple[Put, ...]:
        return tuple(Put(c) for c in state.hands[state.current_player])

    def apply_move(self, state: State, move: Put) -> State:
        if move not in self.legal_moves(state):
            raise IllegalMoveError(f"illegal move {move}")
        p = state.current_player
        hands = list(state.hands)
        hands[p] = tuple(c for c in hands[p] if c != move.card)
        captured = list(state.captured)
        centre = state.centre
        if centre and move.card.rank > centre[-1].rank:
            captured[p] = captured[p] + (centre[-1], move.card)
            centre = centre[:-1]
        else:
            centre = centre + (move.card,)
        return State((hands[0], hands[1]), centre, (captured[0], captured[1]), 1 - p)

    def returns(self, state: State) -> tuple[float, float]:
        outcome = state.outcome
        if outcome is None:
            raise ValueError("not over")
        if outcome.winner is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if outcome.winner == 0 else (-1.0, 1.0)

    def view(self, state: State, player: int) -> View:
        return View(player, state.hands[player], len(state.hands[1 - player]), state.centre, state.captured,
                    state.current_player)

    def determinize(self, view: View, rng: random.Random) -> State:
        seen = set(view.hand) | set(view.centre) | set(view.captured[0]) | set(view.captured[1])
        unseen = [c for c in DECK if c not in seen]
        rng.shuffle(unseen)
        hands = [view.hand, view.hand]
        hands[1 - view.player] = tuple(unseen[: view.other_size])
        return State((hands[0], hands[1]), view.centre, view.captured, view.current_player)

    def parse_move(self, text: str) -> Put:
        try:
            return Put(parse_card(text.strip() + "0"))
        except ParseError:
            raise ParseError(f"not a move: {text!r}") from None

    def cards(self, state: State) -> Iterable[Card]:
        return state.hands[0] + state.hands[1] + state.centre + state.captured[0] + state.captured[1]


CAPTURE = Capture()


def _as_module(game: Any, name: str) -> types.ModuleType:
    """``game``'s members at the top level of a module registered as ``name``."""
    module = types.ModuleType(name)
    for member in ("name", "num_players", "deck", "new_game", "legal_moves", "apply_move", "returns", "view",
                   "determinize", "parse_move", "cards"):
        setattr(module, member, getattr(game, member))
    sys.modules[name] = module
    return module


capture_module = _as_module(CAPTURE, "capture_game_for_tests")


# Crapette implements the protocol at no cost -----------------------------------------------------


def test_crapette_is_a_card_game_whose_hot_path_is_the_engine_itself() -> None:
    game = Crapette("classic")
    assert isinstance(game, CardGame)
    assert game.legal_moves is crapette.legal_moves
    assert game.apply_move is crapette.apply_move
    assert game.parse_move is crapette.parse_move
    state = game.new_game(4)
    assert isinstance(state, CardState) and isinstance(crapette.Outcome(0, "emptied"), CardOutcome)
    assert state == crapette.new_game("classic", 4)
    assert (game.name, game.num_players, len(game.deck)) == ("crapette", 2, 104)


def test_crapette_game_takes_any_rule_set_and_says_it_in_its_repr() -> None:
    rules = attrs.evolve(RuleSet.casual(), move_limit=40)
    game = Crapette(rules)
    assert eval(repr(game), {"Crapette": Crapette}) == game
    assert game.new_game(1).rules == rules
    with pytest.raises(TypeError, match="RuleSet"):
        Crapette(3)  # type: ignore[arg-type]


def test_crapette_view_is_the_same_for_both_players_and_checks_the_player() -> None:
    game = Crapette("casual")
    state = game.new_game(2)
    assert game.view(state, 0) == game.view(state, 1) == crapette.view(state)
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        game.view(state, 2)


def test_crapette_returns_are_the_points_difference_and_the_adapters_rewards() -> None:
    from crapette.episode import rewards

    for rules, scored in (("classic(move_limit=10)", True), ("casual(move_limit=10)", False)):
        game = Crapette(rules)
        state = game.new_game(0)
        with pytest.raises(ValueError, match="not over"):
            game.returns(state)
        rng = random.Random(0)
        while not state.is_over:
            state = game.apply_move(state, rng.choice(game.legal_moves(state)))
        outcome = state.outcome
        if scored:
            expected = (float(outcome.scores[0] - outcome.scores[1]), float(outcome.scores[1] - outcome.scores[0]))
        else:
            winner = outcome.winner
            expected = (0.0, 0.0) if winner is None else ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
        assert game.returns(state) == expected == rewards(outcome, "points")
        assert game.game_type.payoff(outcome) == expected


def test_check_card_game_names_every_missing_member() -> None:
    assert check_card_game(capture_module) is capture_module
    with pytest.raises(TypeError, match="it has no returns, view"):
        check_card_game(types.SimpleNamespace(
            name="x", num_players=2, new_game=0, legal_moves=0, apply_move=0, determinize=0, parse_move=0
        ))
    broken = Capture()
    broken.num_players = 0  # type: ignore[misc]
    with pytest.raises(TypeError, match="num_players must be an int from 1 up"):
        check_card_game(broken)
    assert game_name(capture_module) == "capture"


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
        return Put(DECK[(DECK.index(move.card) + 1) % len(DECK)])


class ReadsAnything(Capture):
    def parse_move(self, text: str) -> Put:
        try:
            return super().parse_move(text)
        except ParseError:
            return Put(DECK[0])


class NeverEnds(Capture):
    """Deals the cards out again instead of ending."""

    def apply_move(self, state: State, move: Put) -> State:
        after = super().apply_move(state, move)
        if not after.is_over:
            return after
        cards = sorted(self.cards(after), key=DECK.index)
        return State((tuple(cards[:4]), tuple(cards[4:])), (), ((), ()), after.current_player)


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


# The bots play any game ---------------------------------------------------------------------------


def _mid_game(game: Any, seed: int, moves: int) -> Any:
    state = game.new_game(seed)
    rng = random.Random(seed)
    for _ in range(moves):
        state = game.apply_move(state, rng.choice(game.legal_moves(state)))
    return state


def test_random_bot_plays_a_legal_move_reproducibly_from_the_view() -> None:
    bot = RandomBot(seed=4, game=CAPTURE)
    states = [_mid_game(CAPTURE, seed, 3) for seed in range(30)]
    chosen = [bot.choose(s) for s in states]
    assert all(m in CAPTURE.legal_moves(s) for m, s in zip(chosen, states))
    assert chosen == [RandomBot(seed=4, game=CAPTURE).choose(s) for s in states]
    assert chosen != [RandomBot(seed=5, game=CAPTURE).choose(s) for s in states]
    # The hidden cards of the other hand do not change the choice.
    for state in states:
        world = CAPTURE.determinize(CAPTURE.view(state, state.current_player), random.Random(1))
        assert bot.choose(world) == bot.choose(state)


def test_search_bot_plays_any_game_and_beats_the_random_bot() -> None:
    report = simulate(
        CAPTURE, (SearchBot(seed=1, budget=40, game=CAPTURE), RandomBot(seed=2, game=CAPTURE)), games=40, seed=7
    )
    assert report.wins[0] > report.wins[1] + 5
    state = _mid_game(CAPTURE, 3, 2)
    assert SearchBot(seed=1, budget=30, game=CAPTURE).choose(state) == SearchBot(
        seed=1, budget=30, game=CAPTURE
    ).choose(state)


def test_bots_of_a_game_say_so_compare_and_travel() -> None:
    bot = SearchBot(seed=2, budget=10, game=capture_module)
    assert repr(bot) == "SearchBot(seed=2, budget=10, game=capture)"
    assert repr(RandomBot(seed=3, game=capture_module)) == "RandomBot(seed=3, game=capture)"
    assert bot == SearchBot(seed=2, budget=10, game=capture_module) != SearchBot(seed=2, budget=10)
    assert hash(bot) == hash(SearchBot(seed=2, budget=10, game=capture_module))
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and copy.game is capture_module
    # A Crapette game object means the Crapette bot, the same as game=None.
    assert RandomBot(seed=1, game=Crapette("classic")) == RandomBot(seed=1)


def test_bots_refuse_what_is_not_a_game_or_a_state_of_theirs() -> None:
    with pytest.raises(TypeError, match="not a card game"):
        RandomBot(game=object())
    with pytest.raises(TypeError, match="expects a state of capture"):
        RandomBot(game=CAPTURE).choose("a state")
    over = _mid_game(CAPTURE, 1, 8)
    with pytest.raises(ValueError, match="the game is over"):
        SearchBot(game=CAPTURE).choose(over)


def test_make_bot_builds_bots_for_a_game_but_greedy_plays_crapette_only() -> None:
    assert make_bot("random", 3, game=CAPTURE) == RandomBot(seed=3, game=CAPTURE)
    assert make_bot("search", 3, game=CAPTURE) == SearchBot(seed=3, game=CAPTURE)
    with pytest.raises(ValueError, match="greedy bot plays Crapette only"):
        make_bot("greedy", game=CAPTURE)


# simulate and play_game play any game -----------------------------------------------------------


def test_simulate_rotates_seats_and_reports_a_game_by_its_name() -> None:
    report = simulate(capture_module, (RandomBot(1, game=capture_module), RandomBot(2, game=capture_module)),
                      games=6, seed=10)
    assert [r.deal for r in report.results] == [10, 10, 11, 11, 12, 12]
    assert [r.seats for r in report.results] == [(0, 1), (1, 0)] * 3
    assert report.rules is None and report.game == "capture"
    assert sum(report.wins) + report.draws == 6
    assert report.points is not None and sum(report.points) == sum(sum(r.points or ()) for r in report.results)
    data = report.to_dict(games=True)
    assert data["game"] == "capture" and "rules" not in data
    assert data["endings"] == {"captures": 6, "capped": 0}
    assert report.summary().splitlines()[0].startswith("capture, 6 games from seed 10 (seats swapped")


def test_simulate_gives_the_same_report_on_an_executor() -> None:
    bots = (SearchBot(seed=1, budget=8, game=capture_module), RandomBot(seed=2, game=capture_module))
    serial = simulate(capture_module, bots, games=4, seed=2)
    with ThreadPoolExecutor(max_workers=2) as pool:
        assert simulate(capture_module, bots, games=4, seed=2, executor=pool) == serial


def test_simulate_reports_capped_games_apart_with_no_winner() -> None:
    game = NeverEnds()
    report = simulate(game, (RandomBot(1, game=game), RandomBot(2, game=game)), games=2, max_moves=15)
    assert report.capped == 2 and report.draws == 2
    assert all(r.capped and r.reason == "capped" and r.moves == 15 and r.points is None for r in report.results)


def test_simulate_refuses_bots_of_another_game_or_the_wrong_number() -> None:
    with pytest.raises(TypeError, match="plays Crapette, not capture: build it with game=capture"):
        simulate(CAPTURE, (RandomBot(1), RandomBot(2, game=CAPTURE)))
    with pytest.raises(TypeError, match="plays capture, not Crapette"):
        simulate("classic", (RandomBot(1, game=CAPTURE), GreedyBot()))
    with pytest.raises(TypeError, match="a sequence of 2 bots, one per player of capture"):
        simulate(CAPTURE, (RandomBot(1, game=CAPTURE),))
    with pytest.raises(TypeError, match="RuleSet or a preset name"):
        simulate(object(), (GreedyBot(), GreedyBot()))  # type: ignore[arg-type]


def test_simulate_names_a_bot_that_plays_an_illegal_move() -> None:
    class Cheat:
        def choose(self, state: State) -> Put:
            return Put(DECK[-1]) if Put(DECK[-1]) not in CAPTURE.legal_moves(state) else Put(DECK[0])

        def __repr__(self) -> str:
            return "Cheat()"

    with pytest.raises(IllegalMoveError, match=r"Cheat\(\) as player 0 chose an illegal move in game 0"):
        simulate(CAPTURE, (Cheat(), RandomBot(game=CAPTURE)), games=1, seed=0)


def test_play_game_plays_one_game_of_any_game_and_of_crapette_as_before() -> None:
    result = play_game(CAPTURE, (RandomBot(1, game=CAPTURE), RandomBot(2, game=CAPTURE)), deal=4)
    assert result.moves == 8 and result.seats == (0, 1) and not result.capped
    crapette_result = play_game(Crapette("classic"), (GreedyBot(), RandomBot()), deal=1)
    assert crapette_result == play_game("classic", (GreedyBot(), RandomBot()), deal=1)


class Solo(Capture):
    """Capture for one player, who holds all eight cards and wins with four captured."""

    name = "solo"
    num_players = 1

    def new_game(self, seed: int) -> State:
        state = super().new_game(seed)
        return State((state.hands[0] + state.hands[1], ()), (), ((), ()), 0)

    def apply_move(self, state: State, move: Put) -> State:
        after = super().apply_move(state, move)
        return attrs.evolve(after, current_player=0)

    def returns(self, state: State) -> tuple[float]:  # type: ignore[override]
        if state.outcome is None:
            raise ValueError("not over")
        return (len(state.captured[0]) / 8,)

    def view(self, state: State, player: int) -> View:
        if player != 0:
            raise ValueError("one player")
        return super().view(state, 0)

    def determinize(self, view: View, rng: random.Random) -> State:
        return State((view.hand, ()), view.centre, view.captured, 0)


@attrs.frozen
class SoloResult:
    won: bool
    score: int

    @property
    def winner(self) -> int | None:
        return 0 if self.won else None

    @property
    def scores(self) -> tuple[int]:
        return (self.score,)


class SoloScored(Solo):
    def new_game(self, seed: int) -> State:
        state = super().new_game(seed)
        return SoloState(state.hands, state.centre, state.captured, 0)

    def apply_move(self, state: State, move: Put) -> State:
        after = super().apply_move(state, move)
        return SoloState(after.hands, after.centre, after.captured, 0)

    def determinize(self, view: View, rng: random.Random) -> State:
        return SoloState((view.hand, ()), view.centre, view.captured, 0)


@attrs.frozen
class SoloState(State):
    @property
    def outcome(self) -> SoloResult | None:  # type: ignore[override]
        if not self.is_over:
            return None
        score = len(self.captured[0])
        return SoloResult(score >= 4, score)


def test_a_one_player_game_is_simulated_deal_after_deal_and_reported_as_won_or_unwon() -> None:
    solo = SoloScored()
    report = simulate(solo, (RandomBot(3, game=solo),), games=5, seed=1)
    assert [r.deal for r in report.results] == [1, 2, 3, 4, 5]
    assert all(r.seats == (0,) for r in report.results)
    assert report.wins[0] + report.draws == 5 and report.points is not None
    lines = report.summary().splitlines()
    assert "seats" not in lines[0] and lines[-2].startswith(f"unwon {report.draws}; endings: over 5, capped 0")
    assert not any("first mover" in line for line in lines)
    assert check_game(solo, games=4).finished == 4


def test_check_game_wants_one_score_per_player() -> None:
    # Capture's outcome has two scores: a one-player game must not.
    with pytest.raises(InvariantViolation, match="not None or one per player"):
        check_game(Solo(), games=3)


# One shape for a game: its metadata, and one path through the tools ---------------------------------


def test_a_game_type_is_the_metadata_of_a_game_and_its_returns_come_from_it() -> None:
    from crapette.protocol import GameType, game_type_of, points_difference, win_loss

    game_type = Crapette("classic").game_type
    assert (game_type.name, game_type.num_players, game_type.payoff) == ("crapette", 2, points_difference)
    assert game_type_of(Crapette("casual")) is game_type
    assert win_loss(crapette.Outcome(None, "blocked")) == (0.0, 0.0)
    with pytest.raises(ValueError, match="num_players must be an int from 1 up"):
        GameType("nobody", 0)
    # A game without game_type gets one from its name, players and returns.
    made = game_type_of(CAPTURE)
    over = _mid_game(CAPTURE, 1, 8)
    assert (made.name, made.num_players) == ("capture", 2)
    assert made.payoff(over.outcome) == tuple(CAPTURE.returns(over))


def test_every_bot_holds_a_game_object_crapette_when_built_without_one() -> None:
    for bot in (RandomBot(seed=1), SearchBot(seed=1, budget=5), make_bot("random"), make_bot("search")):
        assert isinstance(bot.game, Crapette)
    assert RandomBot(seed=1, game=CAPTURE).game is CAPTURE
    assert repr(RandomBot(seed=1, game=Crapette("casual"))) == "RandomBot(seed=1)"
    assert hash(RandomBot(seed=1, game=Crapette("casual"))) == hash(RandomBot(seed=1))


def test_one_play_loop_plays_crapette_and_other_games_and_reasons_are_strings() -> None:
    import crapette.simulation as simulation

    assert not hasattr(simulation, "_play_other")
    crapette_result = play_game("classic", (GreedyBot(), RandomBot()), deal=1)
    other = play_game(CAPTURE, (RandomBot(1, game=CAPTURE), RandomBot(2, game=CAPTURE)), deal=4)
    assert isinstance(crapette_result.reason, str) and crapette_result.reason == crapette.EndReason.EMPTIED
    assert isinstance(other.reason, str) and other.reason == "captures"
    capped = play_game("classic", (RandomBot(1), RandomBot(2)), deal=1, max_moves=7)
    # Crapette settles a capped game as its rules' move limit would (Crapette.cut_short).
    assert capped.capped and capped.reason == crapette.EndReason.MOVE_LIMIT and capped.moves == 7


def test_the_move_cap_lives_in_the_protocol_module() -> None:
    import crapette.protocol
    import crapette.simulation

    assert crapette.simulation.DEFAULT_MAX_MOVES is crapette.protocol.DEFAULT_MAX_MOVES == 5000
