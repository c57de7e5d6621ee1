"""The OpenSpiel game: OpenSpiel's random simulation test, the deal, returns, observations, information states."""

from __future__ import annotations

import random

import attrs
import pytest

pyspiel = pytest.importorskip("pyspiel", reason='the OpenSpiel adapter needs OpenSpiel: pip install ".[openspiel]"')

import numpy as np  # noqa: E402
from hypothesis import given, settings  # noqa: E402

from conftest import examples  # noqa: E402
from conftest import permute_unseen  # noqa: E402

from crapette import (  # noqa: E402
    NUM_ACTIONS,
    GameState,
    MoveStack,
    PileKind,
    Play,
    RuleSet,
    action_to_move,
    apply_move,
    legal_actions,
    legal_moves,
    new_game,
    parse_move,
    move_to_action,
    view,
)
from crapette.episode import rewards  # noqa: E402
from crapette.observation import OBSERVATION_SIZE, encode  # noqa: E402
from crapette.protocol import Crapette  # noqa: E402

truncated_outcome = Crapette.cut_short
from crapette.openspiel import DEAL_NODES, CrapetteGame, CrapetteState, deal_actions  # noqa: E402
from crapette.strategies import rulesets  # noqa: E402


def dealt(game: object, deal: int) -> CrapetteState:
    """A new game dealt as crapette deals game ``deal`` (``new_game(rules, deal)``)."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for action in deal_actions(deal):
        state.apply_action(action)
    return state


def play_random(state: CrapetteState, moves: int, rng: random.Random) -> list[CrapetteState]:
    """The states after each of up to ``moves`` random actions (clones)."""
    states = []
    for _ in range(moves):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
        states.append(state.clone())
    return states


@pytest.mark.parametrize(
    "params",
    [
        # Short games keep the test to a few seconds: casual stops at max_moves=200
        # (a draw), classic at the rules' own limit of 150 moves (settled by penalties).
        {"rules": "casual", "max_moves": 200},
        {"rules": "classic(move_limit=150)"},
    ],
    ids=["casual", "classic"],
)
def test_openspiel_random_simulation_test(params: dict[str, object]) -> None:
    game = pyspiel.load_game("crapette", params)
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_the_game_loads_by_name_and_from_its_own_string() -> None:
    game = pyspiel.load_game("crapette")
    assert isinstance(game, CrapetteGame)
    assert game.rules == attrs.evolve(RuleSet.classic(), revisits=False)  # revisits off unless told otherwise
    assert str(game) == (
        "crapette(max_moves=5000,max_turn_moves=200,revisits=False,"
        "rewards=win,rules=classic[revisits:false])"
    )
    assert pyspiel.load_game("crapette", {"revisits": True}).rules == RuleSet.classic()
    custom = pyspiel.load_game("crapette", {"rules": "classic(move_limit=150, stack_moves=false)"})
    assert "rules=classic[" in str(custom) and "move_limit:150" in str(custom)
    again = pyspiel.load_game(str(custom))
    assert again.rules == custom.rules and again.rules.move_limit == 150 and not again.rules.stack_moves
    assert pyspiel.load_game("crapette(rules=casual,max_moves=80)").max_game_length() == 80


@settings(max_examples=examples(1))
@given(rulesets())
def test_any_rules_survive_the_game_string(rules: RuleSet) -> None:
    game = pyspiel.load_game("crapette", {"rules": str(rules), "revisits": rules.revisits})
    inner = str(game)[len("crapette(") : -1]
    assert inner.count("(") == inner.count(")") == 0 and inner.count("=") == 5
    assert pyspiel.load_game(str(game)).rules == rules


def test_the_game_describes_itself() -> None:
    game = pyspiel.load_game("crapette", {"rules": "casual", "max_moves": 300})
    kind = game.get_type()
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert kind.reward_model == pyspiel.GameType.RewardModel.TERMINAL
    assert game.num_distinct_actions() == NUM_ACTIONS
    assert game.num_players() == 2 and game.max_chance_outcomes() == 52
    assert game.max_game_length() == 300
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]
    assert game.information_state_tensor_shape() == [OBSERVATION_SIZE + 4 * 104]
    classic = pyspiel.load_game("crapette")
    assert (classic.min_utility(), classic.max_utility()) == (-1.0, 1.0)  # rewards "win" by default
    points = pyspiel.load_game("crapette", {"rewards": "points"})
    assert points.max_utility() == -points.min_utility() == 446


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown parameter"):
        CrapetteGame({"seed": 1})
    with pytest.raises(ValueError, match="unknown parameter"):
        CrapetteGame({"deals": 65536})  # the numbered deals are gone: the cards are dealt one by one
    with pytest.raises(ValueError, match="max_moves must be at least 1"):
        CrapetteGame({"max_moves": 0})
    with pytest.raises(ValueError, match="rewards must be one of"):
        CrapetteGame({"rewards": "wins"})
    with pytest.raises(ValueError, match="max_turn_moves"):
        CrapetteGame({"max_turn_moves": -1})


def test_the_deal_is_dealt_card_by_card_every_card_left_as_likely() -> None:
    game = pyspiel.load_game("crapette", {"rules": "casual"})
    state = game.new_initial_state()
    assert game.max_chance_nodes_in_history() == DEAL_NODES == 102
    actions = deal_actions(7)
    for node, action in enumerate(actions):
        assert state.is_chance_node() and state.game_state is None
        outcomes = state.chance_outcomes()
        left = 52 - node % 51  # 51 nodes a deck: its last card follows
        assert len(outcomes) == left and sorted(a for a, _p in outcomes) == [a for a, _p in outcomes]
        assert all(p == pytest.approx(1 / left) for _a, p in outcomes) and action in dict(outcomes)
        assert state.information_state_string(0) == "observer 0: the deal is not made yet"
        state.apply_action(action)
    assert state.game_state == new_game(game.rules, 7)
    assert state.current_player() == 0 and state.history() == actions
    assert game.new_initial_state().action_to_string(pyspiel.PlayerId.CHANCE, 13) == "deal AD0"


def test_the_first_observation_does_not_give_the_deal_away() -> None:
    """Two deals with the same cards face up look the same: no list of deals to match the cards in sight against."""
    game = pyspiel.load_game("crapette")
    real = deal_actions(3)
    other = list(real)
    # Two cards of player 0's hand (dealt after the 13 reserve cards and the 4 tableau cards) change places.
    other[20], other[40] = other[40], other[20]
    a, b = game.new_initial_state(), game.new_initial_state()
    for x, y in zip(real, other):
        a.apply_action(x)
        b.apply_action(y)
    assert a.game_state != b.game_state and a.game_state.hands[0] != b.game_state.hands[0]
    for player in (0, 1):
        assert a.information_state_string(player) == b.information_state_string(player)
        assert a.information_state_tensor(player) == b.information_state_tensor(player)
        assert a.observation_tensor(player) == b.observation_tensor(player)


def test_legal_actions_are_the_legal_moves_sorted() -> None:
    game = pyspiel.load_game("crapette")
    state = dealt(game, 3)
    rng = random.Random(3)
    for _ in range(200):
        if state.is_terminal():
            break
        inner = state.game_state
        assert state.current_player() == inner.current_player
        assert state.legal_actions() == sorted(legal_actions(inner))
        assert state.legal_actions(1 - inner.current_player) == []
        assert {state.action_to_string(a) for a in state.legal_actions()} == {str(m) for m in legal_moves(inner)}
        state.apply_action(rng.choice(state.legal_actions()))


def test_returns_are_the_outcome_when_the_rules_end_the_game() -> None:
    game = pyspiel.load_game("crapette", {"rules": "classic(move_limit=120)"})
    for deal in range(3):
        state = dealt(game, deal)
        play_random(state, 200, random.Random(deal))
        assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
        outcome = state.game_state.outcome
        assert outcome is not None
        assert state.returns() == list(rewards(outcome)) and state.returns() in ([1.0, -1.0], [-1.0, 1.0], [0.0, 0.0])
        assert sum(state.returns()) == 0
    score = pyspiel.load_game("crapette", {"rules": "classic(move_limit=120)", "rewards": "score"})
    state = dealt(score, 0)
    play_random(state, 200, random.Random(0))
    assert state.returns() == list(rewards(state.game_state.outcome, "score", rules=score.rules))


def test_a_game_stopped_by_max_moves_is_terminal_and_settled_by_penalties() -> None:
    game = pyspiel.load_game("crapette", {"max_moves": 30})
    decided = 0
    for deal in range(6):
        state = dealt(game, deal)
        play_random(state, 100, random.Random(deal))
        assert state.is_terminal() and state.game_state.move_count == 30
        assert state.game_state.outcome is None and state.legal_actions() == []
        assert state.returns() == list(rewards(truncated_outcome(state.game_state)))
        decided += state.returns() != [0.0, 0.0]
    assert decided >= 2
    casual = dealt(pyspiel.load_game("crapette", {"rules": "casual", "max_moves": 30}), 4)
    play_random(casual, 100, random.Random(4))
    assert casual.is_terminal() and casual.returns() == [0.0, 0.0]  # no scoring: a draw


def shuttle(legal: list[int]) -> int:
    """A policy that stalls: a tableau-to-tableau move whenever there is one, never ending its turn if it can help it."""
    moves = [(a, action_to_move(a)) for a in legal]
    shuttles = [a for a, m in moves if isinstance(m, (Play, MoveStack)) and m.source.kind == m.target.kind == PileKind.TABLEAU]
    plays = [a for a, m in moves if isinstance(m, (Play, MoveStack))]
    return (shuttles or plays or legal)[0]


def test_stalling_never_pays_a_shuttling_policy_does_worse_than_a_random_one() -> None:
    game = pyspiel.load_game("crapette", {"max_moves": 1500})
    returns: dict[str, list[float]] = {"shuttle": [], "random": []}
    forfeits = 0
    for name in returns:
        for deal in range(10):
            for seat in (0, 1):
                state = dealt(game, deal)
                rng = random.Random(deal)
                while not state.is_terminal():
                    legal = state.legal_actions()
                    stalls = state.current_player() == seat and name == "shuttle"
                    state.apply_action(shuttle(legal) if stalls else rng.choice(legal))
                returns[name].append(state.returns()[seat])
                forfeits += state.forfeit == seat
    assert np.mean(returns["shuttle"]) < np.mean(returns["random"])
    assert forfeits >= 10


def test_a_player_at_the_turn_cap_forfeits() -> None:
    game = pyspiel.load_game("crapette", {"max_turn_moves": 3})
    state = dealt(game, 1)
    mover = state.current_player()
    for _ in range(3):
        assert not state.is_terminal()
        state.apply_action(shuttle(state.legal_actions()))
    assert state.is_terminal() and state.forfeit == mover and state.game_state.outcome is None
    assert state.returns() == ([-1.0, 1.0] if mover == 0 else [1.0, -1.0])
    uncapped = dealt(pyspiel.load_game("crapette", {"max_turn_moves": 0}), 1)
    for _ in range(3):
        uncapped.apply_action(shuttle(uncapped.legal_actions()))
    assert not uncapped.is_terminal() and uncapped.forfeit is None


def test_observations_are_the_encoding_and_hide_face_down_cards() -> None:
    game = pyspiel.load_game("crapette")
    state = dealt(game, 6)
    rng = random.Random(6)
    for clone in play_random(state, 300, rng)[::20]:
        inner = clone.game_state
        for player in (0, 1):
            tensor = np.array(clone.observation_tensor(player), dtype=np.float32)
            assert np.array_equal(tensor, encode(inner, player))
        other = clone.clone()
        other._play = other._play._replace(episode=attrs.evolve(other._play.episode, state=permute_unseen(inner, rng)))
        assert other.observation_string(0) == clone.observation_string(0)
        assert other.observation_tensor(1) == clone.observation_tensor(1)


def test_the_observation_string_shows_the_view() -> None:
    state = dealt(pyspiel.load_game("crapette"), 1)
    text = state.observation_string(1)
    v = view(state.game_state)
    assert text.startswith("observer 1\nmove 0, player 0 to move")
    assert f"T0: {v.tableau[0][0]}" in text and f"R1: {v.reserve_tops[1]} [13]" in text
    assert "H0: [35]" in text


def seen_by_replay(game: object, deal: int, history: list[int]) -> set[object]:
    """Every card face up in some state along ``history`` (the deal ``deal`` first)."""
    state = new_game(game.rules, deal)  # type: ignore[attr-defined]
    states = [state]
    assert history[:DEAL_NODES] == deal_actions(deal)
    for action in history[DEAL_NODES:]:
        state = apply_move(state, action_to_move(action))
        states.append(state)
    seen: set[object] = set()
    for s in states:
        v = view(s)
        seen.update(c for group in (v.foundations, v.tableau, v.wastes) for pile in group for c in pile)
        seen.update(c for c in v.reserve_tops if c is not None)
    return seen


def test_seen_cards_are_every_card_ever_face_up() -> None:
    for rules in ("casual", "classic"):
        game = pyspiel.load_game("crapette", {"rules": rules})
        state = dealt(game, 11)
        for clone in play_random(state, 600, random.Random(11))[::60]:
            assert clone.seen_cards == seen_by_replay(game, 11, clone.history())


def test_the_information_state_knows_the_cards_turned_over_into_the_hand() -> None:
    game = pyspiel.load_game("crapette", {"rules": "casual"})
    state = dealt(game, 2)
    rng = random.Random(2)
    while not state.is_terminal():
        inner = state.game_state
        hand = inner.hands[inner.current_player]
        if hand and all(card in state.seen_cards for card in hand):
            break  # a hand made of a turned-over waste
        state.apply_action(rng.choice(state.legal_actions()))
    else:
        pytest.fail("no waste was turned over")
    inner = state.game_state
    player = inner.current_player
    hand = inner.hands[player]
    tensor = np.array(state.information_state_tensor(0), dtype=np.float32)
    rows = tensor[OBSERVATION_SIZE:].reshape(4, 104)
    for position, card in enumerate(reversed(hand), start=1):
        assert rows[2 + player, card.index] == np.float32(1 / position)
    assert f"H{player}: " in state.information_state_string(0)
    # The observation, unlike the information state, does not know them.
    assert tensor[:OBSERVATION_SIZE].tolist() == state.observation_tensor(0)


def test_the_information_state_does_not_depend_on_unseen_cards() -> None:
    game = pyspiel.load_game("crapette", {"rules": "classic"})
    state = dealt(game, 5)
    for clone in play_random(state, 400, random.Random(5))[::40]:
        seen = clone.seen_cards
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        other = clone.resample_from_infostate(clone.current_player(), sampler)
        inner, world = clone.game_state, other.game_state
        assert isinstance(world, GameState) and view(world) == view(inner)
        for player in (0, 1):
            assert other.information_state_string(player) == clone.information_state_string(player)
            assert other.information_state_tensor(player) == clone.information_state_tensor(player)
        assert other.legal_actions() == clone.legal_actions()
        for pile_id in range(22):
            for before, after in zip(inner.piles[pile_id], world.piles[pile_id]):
                assert (before == after) or (before not in seen and after not in seen)


def test_resampling_deals_the_unseen_cards_afresh() -> None:
    state = dealt(pyspiel.load_game("crapette"), 3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    worlds = [state.resample_from_infostate(0, sampler).game_state for _ in range(5)]
    assert all(world.hands != state.game_state.hands for world in worlds)
    assert len({world.hands for world in worlds}) == 5
    real = state.game_state
    for world in worlds:  # player 0's unseen cards stay in player 0's reserve (below its top) and hand
        assert set(world.hands[0] + world.reserves[0][:-1]) == set(real.hands[0] + real.reserves[0][:-1])
        assert world.reserves[0][-1] == real.reserves[0][-1]
    chance = pyspiel.load_game("crapette").new_initial_state()
    assert chance.resample_from_infostate(0, sampler).is_chance_node()
    for action in deal_actions(3)[:60]:  # all of deck 0 and 9 cards of deck 1 dealt
        chance.apply_action(action)
    again = chance.resample_from_infostate(1, sampler)
    assert again.is_chance_node() and again._play.dealt != chance._play.dealt
    assert len(again._play.dealt) == 60 and len(set(again._play.dealt)) == 60
    assert set(again._play.dealt[:51]) <= set(range(52)) and set(again._play.dealt[51:]) <= set(range(52, 104))
    for action in deal_actions(3)[60:]:
        again.apply_action(action if again.is_chance_node() and action in dict(again.chance_outcomes()) else
                            again.chance_outcomes()[0][0])
    assert again.game_state is not None


def test_resampling_draws_every_unseen_card_as_likely_in_each_slot() -> None:
    """What the game's own chance would deal: each unseen card as likely on top of the hand."""
    state = dealt(pyspiel.load_game("crapette"), 3)
    rng = random.Random(1)
    real = state.game_state
    unseen = set(real.hands[0] + real.reserves[0][:-1])
    counts = dict.fromkeys(unseen, 0)
    draws = 4700
    for _ in range(draws):
        counts[state.resample_from_infostate(0, rng.random).game_state.hands[0][-1]] += 1
    expected = draws / len(unseen)  # 100
    assert len(unseen) == 47 and all(0.5 * expected < n < 1.5 * expected for n in counts.values())


@pytest.mark.parametrize("player", [5, -1, 2, True, 0.0, None])
def test_resampling_refuses_a_player_that_is_not_0_or_1(player: object) -> None:
    state = dealt(pyspiel.load_game("crapette"), 3)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    with pytest.raises(ValueError, match="player_id must be 0 or 1"):
        state.resample_from_infostate(player, sampler)


def test_a_clone_is_independent() -> None:
    state = dealt(pyspiel.load_game("crapette"), 9)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.game_state == new_game(state.game_state.rules, 9)
    assert clone.game_state.move_count == 1 and state.history() == deal_actions(9)


def test_ismcts_plays_legal_moves() -> None:
    from open_spiel.python.algorithms import ismcts, mcts

    game = pyspiel.load_game("crapette", {"rules": "classic(move_limit=60)"})
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=8, random_state=np.random.RandomState(1))
    state = dealt(game, 0)
    for _ in range(5):
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)


def test_action_strings_use_the_move_notation() -> None:
    state = dealt(pyspiel.load_game("crapette"), 1)
    action = move_to_action(parse_move("R0-T5"))
    assert state.action_to_string(0, action) == "R0-T5"
    assert str(state) == str(state.game_state)


def test_apply_action_on_a_terminal_state_is_refused() -> None:
    game = pyspiel.load_game("crapette", {"rules": "casual", "max_moves": 10})
    state = dealt(game, 1)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert state.game_state.move_count == 10
    with pytest.raises(ValueError, match="the game is over: action 0 cannot be applied to a terminal state"):
        state.apply_action(0)
    assert state.game_state.move_count == 10


@pytest.mark.parametrize("action", [10**9, 52, 65536])
def test_a_chance_action_out_of_range_is_refused(action: int) -> None:
    state = pyspiel.load_game("crapette").new_initial_state()
    with pytest.raises(ValueError, match=rf"chance action {action} is not a card left to deal: the chance node deals one of the 52"):
        state.apply_action(action)
    assert state.is_chance_node()
    state.apply_action(5)
    with pytest.raises(ValueError, match="chance action 5 is not a card left to deal: .* one of the 51 cards of deck 0"):
        state.apply_action(5)  # dealt already
    assert state.history() == [5]


@pytest.mark.parametrize(("name", "value"), [("max_moves", 10**12), ("max_moves", 2**31)])
def test_max_moves_beyond_what_openspiel_holds_is_a_clear_error(name: str, value: int) -> None:
    from crapette.openspiel import MAX_MOVES

    high = {"max_moves": MAX_MOVES}[name]
    with pytest.raises(ValueError, match=rf"{name} must be at most {high:,}, got {value}"):
        CrapetteGame({name: value})
    with pytest.raises(TypeError, match=f"{name} must be an int"):
        CrapetteGame({name: float(value)})
    assert CrapetteGame({name: high}).max_game_length() >= 1
