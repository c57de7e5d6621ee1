"""The bots: legal, reproducible, blind to face-down cards, and as strong as documented."""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest
from conftest import any_rules, examples, make_state, permute_unseen, run
from hypothesis import given, settings
from hypothesis import strategies as st

from crapette import (
    Draw,
    GameState,
    Move,
    RuleSet,
    apply_move,
    legal_moves,
    new_game,
    parse_move,
    view,
)
from crapette.bots import (
    PlanningBot,
    BOT_NAMES,
    LEVELS,
    Bot,
    GreedyBot,
    RandomBot,
    SearchBot,
    TreeSearchBot,
    determinize,
    make_bot,
)
from crapette.simulation import simulate
from crapette.strategies import game_states

PRESETS = (RuleSet.casual(), RuleSet.classic())

# TreeSearchBot is deprecated (0.3.0); its tests keep it working, and one checks that it warns.
pytestmark = pytest.mark.filterwarnings("ignore:TreeSearchBot is deprecated:DeprecationWarning")


def positions(rules: RuleSet, seed: int, count: int, every: int = 7) -> list[GameState]:
    """``count`` positions with a choice (two legal moves or more) of a game played at random.

    The first such position after every ``every`` moves is taken.
    """
    rng = random.Random(seed)
    state = new_game(rules, seed)
    found: list[GameState] = []
    while not state.is_over and len(found) < count:
        if state.move_count >= every * (len(found) + 1) and len(legal_moves(state)) > 1:
            found.append(state)
        state = apply_move(state, rng.choice(legal_moves(state)))
    assert len(found) == count, "the game ended too soon: choose another seed"
    return found


def permute_hidden(state: GameState, rng: random.Random) -> GameState:
    """The same game with the cards nobody has seen in another order (see conftest.permute_unseen)."""
    return permute_unseen(state, rng)


def bots_under_test() -> list[Bot]:
    return [RandomBot(seed=3), GreedyBot(), SearchBot(seed=3, budget=30), TreeSearchBot(seed=3, playouts=40)]


# Legal and reproducible -------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.preset_name)
def test_every_bot_chooses_a_legal_move(rules: RuleSet) -> None:
    for state in positions(rules, seed=11, count=12):
        for bot in bots_under_test():
            assert bot.choose(state) in legal_moves(state)


def test_random_bot_is_reproducible_and_depends_on_its_seed() -> None:
    states = positions(RuleSet.classic(), seed=4, count=25, every=3)
    first = [RandomBot(seed=1).choose(s) for s in states]
    again = [RandomBot(seed=1).choose(s) for s in states]
    other = [RandomBot(seed=2).choose(s) for s in states]
    assert first == again
    assert first != other


def test_random_bot_chooses_every_legal_move_of_a_position_now_and_then() -> None:
    state = new_game("classic", seed=0)  # T1-T2 T1-T7 T3-T5 T6-R0 draw
    chosen = {RandomBot(seed=s).choose(state) for s in range(200)}
    assert chosen == set(legal_moves(state))


def test_a_bot_gives_the_same_move_however_many_games_it_has_played() -> None:
    bot = RandomBot(seed=5)
    state = new_game("casual", seed=9)
    before = bot.choose(state)
    simulate("casual", (bot, GreedyBot()), games=2, seed=1)
    assert bot.choose(state) is before


def test_search_bot_is_reproducible() -> None:
    for state in positions(RuleSet.classic(), seed=8, count=6):
        assert SearchBot(seed=4, budget=40).choose(state) is SearchBot(seed=4, budget=40).choose(state)


def test_bots_survive_pickling_equal() -> None:
    for bot in bots_under_test():
        assert pickle.loads(pickle.dumps(bot)) == bot


def test_bots_satisfy_the_bot_protocol() -> None:
    for bot in bots_under_test():
        assert isinstance(bot, Bot)


def test_a_single_legal_move_is_played() -> None:
    rng = random.Random(0)
    state = new_game("casual", seed=0)
    while len(legal_moves(state)) > 1:
        state = apply_move(state, rng.choice(legal_moves(state)))
    (only,) = legal_moves(state)
    for bot in bots_under_test():
        assert bot.choose(state) is only


# Blind to face-down cards ------------------------------------------------------------


@pytest.mark.parametrize("rules", PRESETS, ids=lambda r: r.preset_name)
def test_no_bot_changes_its_choice_when_the_face_down_cards_are_permuted(rules: RuleSet) -> None:
    rng = random.Random(2)
    checked = 0
    for state in positions(rules, seed=21, count=10, every=11):
        twin = permute_hidden(state, rng)
        assert view(twin) == view(state)
        assert twin.piles != state.piles
        for bot in bots_under_test():
            assert bot.choose(twin) is bot.choose(state), (bot, state)
        checked += 1
    assert checked == 10


@settings(max_examples=examples(0.4))
@given(
    state=game_states(rules=st.sampled_from(PRESETS), min_moves=1, max_moves=80),
    rng=st.randoms(use_true_random=False),
)
def test_greedy_and_search_choices_depend_on_the_public_view_only(state: GameState, rng: random.Random) -> None:
    if state.is_over:
        return
    twin = permute_hidden(state, rng)
    assert GreedyBot().choose(twin) is GreedyBot().choose(state)
    bot = SearchBot(seed=1, budget=12)
    assert bot.choose(twin) is bot.choose(state)
    tree = TreeSearchBot(seed=1, playouts=12)
    assert tree.choose(twin) is tree.choose(state)


class _PeekingBot:
    """Draws when its next hand card is red: a bot that cheats."""

    def choose(self, state: GameState) -> Move:
        moves = legal_moves(state)
        hand = state.hands[state.current_player]
        if Draw() in moves and hand and hand[-1].colour.name == "RED":
            return Draw()
        return moves[0]


def test_the_permutation_check_catches_a_bot_that_peeks() -> None:
    rng = random.Random(3)
    states = [s for s in positions(RuleSet.casual(), seed=5, count=30, every=5) if Draw() in legal_moves(s)]
    caught = any(
        _PeekingBot().choose(permute_hidden(s, rng)) is not _PeekingBot().choose(s) for s in states
    )
    assert caught


# determinize ------------------------------------------------------------------------------


@settings(max_examples=examples(0.6))
@given(state=game_states(rules=any_rules, max_moves=60), rng=st.randoms(use_true_random=False))
def test_determinize_keeps_the_public_view_under_any_rules(state: GameState, rng: random.Random) -> None:
    world = determinize(view(state), rng)
    assert view(world) == view(state)


def test_determinize_deals_the_unseen_cards_at_random_but_reproducibly() -> None:
    state = positions(RuleSet.classic(), seed=3, count=1)[0]
    v = view(state)
    a = determinize(v, random.Random(1))
    b = determinize(v, random.Random(1))
    c = determinize(v, random.Random(2))
    assert a == b
    assert a.hands != c.hands
    assert determinize(v) == determinize(view(permute_hidden(state, random.Random(0))))


def test_determinize_keeps_each_deck_in_its_own_piles_when_nothing_can_be_loaded() -> None:
    for state in positions(RuleSet.casual(), seed=6, count=5):
        world = determinize(view(state), random.Random(0))
        for p in (0, 1):
            assert all(card.deck == p for card in world.reserves[p] + world.hands[p])


def test_determinize_rejects_a_state_in_place_of_a_view() -> None:
    with pytest.raises(TypeError, match="PublicView"):
        determinize(new_game("casual"))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "rules", ["casual", "classic", "classic(load_targets=reserve)", "casual(load_targets=waste)"]
)
def test_determinize_is_the_one_deal_of_the_hidden_cards_that_the_searches_and_the_protocol_use(rules: str) -> None:
    from crapette._views import view as _view
    from crapette.protocol import Crapette

    assert determinize is _view.determinize
    for state in positions(_rules(rules), seed=4, count=3):
        v = view(state)
        dealer, mine, theirs = _view.Dealer(v), random.Random(9), random.Random(9)
        for _ in range(4):
            world = dealer.deal(mine)
            assert world == determinize(v, theirs)
            assert view(world) == v
        assert dealer.deal(None) == determinize(v)
        assert Crapette(rules).determinize(v, random.Random(2)) == determinize(v, random.Random(2))


def _rules(text: str) -> RuleSet:
    from crapette import parse_rules

    return parse_rules(text)


# The greedy heuristic ---------------------------------------------------------------------


def test_greedy_bot_plays_the_reserve_before_drawing() -> None:
    state = new_game("classic", seed=1)
    assert [str(m) for m in legal_moves(state)] == ["R0-T5", "T7-T1", "draw"]
    assert GreedyBot().choose(state) is parse_move("R0-T5")


def test_greedy_bot_prefers_a_foundation_play_when_foundation_plays_are_optional() -> None:
    state = make_state(
        "casual",
        foundations={0: run("H0", 1, 3)},
        reserves={0: "KS0 4H0"},
        tableau={0: "5S0", 4: "9C1"},
    )
    moves = legal_moves(state)
    assert parse_move("R0-F0") in moves and parse_move("R0-T0") in moves
    assert GreedyBot().choose(state) is parse_move("R0-F0")


def test_greedy_bot_loads_the_reserve_before_the_waste() -> None:
    state = make_state(
        "classic",
        reserves={0: "KC0 7D0", 1: "KC1 8D1"},
        wastes={1: "6D1"},
        tableau={0: "QS0", 1: "QH0", 2: "QC0", 3: "QD0", 4: "QS1", 5: "QH1", 6: "QC1", 7: "QD1"},
    )
    moves = legal_moves(state)
    assert parse_move("R0-R1") in moves and parse_move("R0-W1") in moves
    assert GreedyBot().choose(state) is parse_move("R0-R1")


def test_greedy_bot_does_not_move_a_card_between_tableau_piles_for_nothing() -> None:
    state = make_state(
        "classic",
        tableau={0: "TC0 9H0", 1: "TS0", 2: "KC0", 3: "KD0", 4: "KS1", 5: "KH1", 6: "KC1", 7: "KD1"},
        reserves={0: "AS1 5C0", 1: "AC1 5D1"},
    )
    moves = legal_moves(state)
    assert parse_move("T0-T1") in moves and Draw() in moves
    assert GreedyBot().choose(state) is Draw()


def test_greedy_bot_moves_a_card_between_tableau_piles_to_uncover_a_foundation_play() -> None:
    state = make_state(
        "classic",
        foundations={0: run("H0", 1, 4)},
        tableau={0: "5H0 4S0", 1: "5D1", 2: "KC0", 3: "KD0", 4: "KS1", 5: "KH1", 6: "KC1", 7: "KD1"},
        reserves={0: "AS1 KS0", 1: "AC1 2C1"},
    )
    assert [str(m) for m in legal_moves(state)] == ["T0-T1", "draw"]
    assert GreedyBot().choose(state) is parse_move("T0-T1")


# Choosing, naming, errors -----------------------------------------------------------------


def test_make_bot_knows_every_bot_by_its_own_name_and_search_as_an_alias() -> None:
    assert [type(make_bot(name)).__name__ for name in BOT_NAMES] == [
        "RandomBot", "GreedyBot", "SearchBot", *["PlanningBot"] * 8,
    ]
    for name in BOT_NAMES[:4]:
        assert make_bot(name).name == name  # each bot's own name makes it
    assert make_bot(" Search ", seed=4) == make_bot("plan", seed=4) == PlanningBot.at_level("normal", seed=4)
    assert make_bot("search:Strong", seed=4) == make_bot("plan:strong", seed=4) == PlanningBot(seed=4, playouts=LEVELS["strong"])
    assert make_bot("montecarlo", seed=4) == SearchBot(seed=4)
    with pytest.raises(ValueError, match="unknown bot 'alpha'"):
        make_bot("alpha")


def test_the_tree_search_is_deprecated_and_still_plays() -> None:
    with pytest.warns(DeprecationWarning, match="TreeSearchBot is deprecated since 0.3.0"):
        bot = TreeSearchBot(seed=1, playouts=20)
    with pytest.warns(DeprecationWarning, match="the tree search bot is deprecated"):
        assert make_bot("tree", seed=1) == TreeSearchBot(seed=1)
    state = new_game("classic", seed=2)
    assert bot.choose(state) in legal_moves(state)


def test_bots_refuse_a_finished_game_and_things_that_are_not_states() -> None:
    state = new_game("classic", seed=1)
    while not state.is_over:
        state = apply_move(state, GreedyBot().choose(state))
    for bot in bots_under_test():
        with pytest.raises(ValueError, match="game is over"):
            bot.choose(state)
        with pytest.raises(TypeError, match="GameState|state of crapette"):
            bot.choose("classic 0 0 -")  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [-1, 2**64, "1", 1.0, True, None])
def test_every_bot_refuses_a_bad_seed_with_the_same_error_as_new_game(seed: object) -> None:
    with pytest.raises(ValueError) as expected:
        new_game("classic", seed=seed)  # type: ignore[arg-type]
    for make in (RandomBot, SearchBot, TreeSearchBot):
        with pytest.raises(ValueError) as refused:
            make(seed=seed)
        assert str(refused.value) == str(expected.value)


def test_bot_settings_are_checked() -> None:
    with pytest.raises(ValueError, match="seed"):
        RandomBot(seed=-1)
    with pytest.raises(ValueError, match="seed"):
        SearchBot(seed="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="budget"):
        SearchBot(budget=0)
    with pytest.raises(TypeError, match="budget"):
        SearchBot(budget=2.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="playouts"):
        TreeSearchBot(playouts=0)
    with pytest.raises(TypeError, match="seconds"):
        TreeSearchBot(seconds="1")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not both"):
        TreeSearchBot(playouts=100, seconds=1.0)
    with pytest.raises(ValueError, match="unknown level 'hard'"):
        TreeSearchBot.at_level("hard")


# Playing whole games (strength is measured by benchmarks/strength.py, not here) -----------


def test_every_bot_plays_whole_games_legally_under_both_presets() -> None:
    for rules in PRESETS:
        for bot in (GreedyBot(), TreeSearchBot(seed=1, playouts=20)):
            report = simulate(rules, (bot, RandomBot(seed=2)), games=2, seed=31, max_moves=400)
            assert report.games == 2


def test_tree_search_levels_grow_with_their_budgets() -> None:
    from crapette.bots.treesearch import LEVELS as TREE_LEVELS

    assert TREE_LEVELS["easy"] < TREE_LEVELS["normal"] < TREE_LEVELS["strong"]
    assert [TreeSearchBot.at_level(name).playouts for name in TREE_LEVELS] == list(TREE_LEVELS.values())


def test_tree_search_is_reproducible_for_a_playout_budget() -> None:
    for state in positions(RuleSet.classic(), seed=8, count=4):
        one = TreeSearchBot(seed=4, playouts=60).search(state)
        two = TreeSearchBot(seed=4, playouts=60).search(state)
        assert one == two
        assert one.best in legal_moves(state)
        assert sum(m.visits for m in one.moves) <= one.playouts


def test_tree_search_with_a_time_budget_answers_in_time() -> None:
    state = positions(RuleSet.classic(), seed=8, count=1)[0]
    result = TreeSearchBot(seed=1, seconds=0.05).search(state)
    assert result.playouts >= 1 and result.best in legal_moves(state)


def test_tree_search_tries_every_move_when_asked() -> None:
    state = new_game("classic", seed=3)
    result = TreeSearchBot(seed=1, playouts=len(legal_moves(state)) * 3).search(state, every_move=2)
    assert all(m.visits >= 2 for m in result.moves)
    assert {m.move for m in result.moves} == set(legal_moves(state))


# -- every bot plays only legal moves, revisits=false included (issue: bots and the turn's memory) --


def _positions_without_revisits(count: int) -> list[GameState]:
    """Positions of random games under the presets with revisits=false, many in the middle of a run of
    moves between tableau piles (where an earlier position of the turn bars some of them)."""
    from conftest import random_states

    out: list[GameState] = []
    for name in ("classic", "casual"):
        rules = attrs.evolve(RuleSet.from_name(name), revisits=False)
        for seed in range(4):
            states = [s for s in random_states(rules, seed, 1200) if not s.is_over]
            out += [s for s in states if s.turn_moves][:: max(1, len(states) // count)]
            out += states[:: max(1, 4 * len(states) // count)]
    return out


def test_every_bot_and_every_hint_plays_only_legal_moves_under_revisits_false() -> None:
    positions = _positions_without_revisits(12)
    assert sum(bool(s.turn_moves) for s in positions) > 30
    bots = [RandomBot(seed=1), GreedyBot(), SearchBot(seed=1, budget=24), PlanningBot(seed=1, playouts=40),
            TreeSearchBot(seed=1, playouts=40)]
    for state in positions:
        legal = legal_moves(state)
        for bot in bots:
            assert bot.choose(state) in legal, (bot, str(state))
        here = state
        for move in PlanningBot(seed=2, playouts=30).hint(state):
            assert move in legal_moves(here), (str(state), move)
            here = apply_move(here, move)


def test_a_bot_that_remembers_its_turn_plays_the_same_through_a_process_pool() -> None:
    # What a bot keeps between decisions (PlanningBot's plan, SearchBot's positions of the
    # turn) travels with it through choose_remembering in another process.
    from concurrent.futures import ProcessPoolExecutor

    from crapette.bots import choose_remembering

    def game(choose: Any) -> list[Move]:
        state = new_game("classic", seed=6)
        opponent, played = GreedyBot(), []
        while not state.is_over and state.move_count < 120:
            move = choose(state) if state.current_player == 0 else opponent.choose(state)
            played.append(move)
            state = apply_move(state, move)
        return played

    with ProcessPoolExecutor(max_workers=1) as pool:
        for make in (lambda: SearchBot(seed=4, budget=30), lambda: PlanningBot(seed=4, playouts=40)):
            local = make()
            remote = [make()]

            def through_pool(state: GameState) -> Move:
                move, remote[0] = pool.submit(choose_remembering, remote[0], state).result()
                return move

            assert game(through_pool) == game(local.choose)
    bot = SearchBot(seed=4, budget=30)
    bot.choose(new_game("classic", seed=6))
    kept = bot.__dict__["_next"]
    assert kept is not None and kept.rules.revisits is False  # the position searched, as the engine bars returns
    assert pickle.loads(pickle.dumps(bot)).__dict__["_next"] == kept
