"""The compiled kernel (crapette.kernel): which engine runs, and that the kernel agrees with the Python engine.

The pure-Python engine is the reference. Where the kernel is built, these
tests compare the two on positions from random games of random rule sets
(a seeded sweep, and Hypothesis), on the bots' decisions and on self-play;
under ``CRAPETTE_PURE=1`` or without a compiler they skip, saying why, and the
rest of the suite runs on the Python engine alone.
"""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from kernel_sweep import check_position, pure, sweep
from crapette import (
    Build,
    Card,
    GameState,
    MoveStack,
    PileKind,
    Play,
    RuleSet,
    Scoring,
    apply_move,
    kernel,
    legal_moves,
    new_game,
    parse_move,
    register,
    turn_ends,
)
from crapette._formats.actions import NUM_ACTIONS, action_to_move
from crapette._core.state import raw_state
from crapette.bots import GreedyBot, PlanningBot, SearchBot
from crapette.selfplay import self_play
from crapette.strategies import game_states, rulesets
from crapette.variants import NoProgress

BUILT = importlib.util.find_spec("crapette._ckernel") is not None
PURE = os.environ.get("CRAPETTE_PURE", "").strip() not in ("", "0")
needs_kernel = pytest.mark.skipif(not kernel.AVAILABLE, reason=f"no compiled kernel: {kernel.REASON}")


# -- which engine runs -----------------------------------------------------------------


def test_the_engine_that_runs_is_the_kernel_where_it_is_built_and_not_switched_off() -> None:
    if PURE:
        assert kernel.engine() == "python" and not kernel.AVAILABLE and "CRAPETTE_PURE" in kernel.REASON
    elif BUILT:
        assert kernel.engine() == "kernel" and kernel.AVAILABLE and kernel.REASON == ""
    else:
        assert kernel.engine() == "python" and "not built" in kernel.REASON


@pytest.mark.skipif(os.environ.get("CRAPETTE_REQUIRE_KERNEL") != "1", reason="CRAPETTE_REQUIRE_KERNEL=1 is not set")
def test_the_kernel_is_built_where_ci_requires_it() -> None:
    assert BUILT and kernel.engine() == "kernel", kernel.REASON


def test_crapette_pure_forces_the_python_engine() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import crapette.kernel as k; print(k.engine(), k.AVAILABLE, k.REASON)"],
        capture_output=True, text=True, timeout=120, env={**os.environ, "CRAPETTE_PURE": "1"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("python False CRAPETTE_PURE is set")


@needs_kernel
def test_switching_the_kernel_off_and_on_changes_the_engine_not_the_results() -> None:
    state = new_game("classic", seed=11)
    with pure():
        assert kernel.engine() == "python" and not kernel.supports("classic")
        assert kernel.playout(state, 0) is None and kernel.fast_move(state) is None
        python = [apply_move(state, move) for move in legal_moves(new_game("classic", seed=11))]
    assert kernel.engine() == "kernel" and kernel.supports("classic")
    assert [apply_move(state, move) for move in legal_moves(state)] == python


def test_the_kernel_numbers_the_moves_as_the_action_table_does() -> None:
    assert kernel.MOVES == tuple(action_to_move(i) for i in range(NUM_ACTIONS))


@needs_kernel
def test_the_kernel_runs_every_rule_set_but_those_with_python_hooks_on_every_move() -> None:
    assert kernel.supports("classic") and kernel.supports("casual(revisits=false,stack_limit=unlimited)")
    assert kernel.supports("classic(load_build=suit-up-or-down-wrap,first_player=random)")
    assert not kernel.supports("classic(endings=no-progress:20)")
    big = attrs.evolve(RuleSet.classic(), scoring=Scoring(reserve_weight=2**50))
    assert not kernel.supports(big)
    with pytest.raises(TypeError):
        kernel.supports(3)  # type: ignore[arg-type]


@register
class _DownAnyColour(Build):
    """One rank lower, any suit: a building rule of one's own, which the kernel takes as tables."""

    name = "test-kernel-down-any-colour"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.rank == below.rank - 1


@attrs.frozen
class _Flat(Scoring):
    """A scoring of one's own: the kernel leaves its rules to Python."""

    name = "test-kernel-flat"

    def penalty(self, *, reserve: int, hand: int, waste: int) -> int:
        return reserve + hand + waste


register(_Flat)


@needs_kernel
@pytest.mark.parametrize(
    "rules",
    [
        attrs.evolve(RuleSet.classic(), own_tableau_build=_DownAnyColour(), revisits=False),
        attrs.evolve(RuleSet.casual(), opponent_tableau_build=_DownAnyColour()),
        attrs.evolve(RuleSet.classic(), scoring=_Flat()),
        attrs.evolve(RuleSet.classic(), endings=(NoProgress(4),)),
    ],
)
def test_rules_with_parts_of_ones_own_play_alike_in_both_engines(rules: RuleSet) -> None:
    assert kernel.supports(rules) == (type(rules.scoring) is not _Flat and not rules.endings)
    rng = random.Random(5)
    state = new_game(rules, seed=5)
    for _ in range(120):
        check_position(state, ends=state.move_count % 30 == 0)
        if state.is_over:
            break
        state = apply_move(state, rng.choice(legal_moves(state)))


# -- the kernel agrees with the Python engine -------------------------------------------


@needs_kernel
def test_a_seeded_sweep_of_random_rule_sets_agrees_position_by_position() -> None:
    positions, compared = sweep(seed=32, rule_sets=24, moves=120, ends_every=15, playouts_every=5)
    assert positions > 2000 and compared > positions


@needs_kernel
@settings(max_examples=examples(1), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(state=game_states(rules=rulesets(), max_moves=150))
def test_the_kernel_agrees_on_states_of_random_games_of_random_rules(state: GameState) -> None:
    check_position(state, ends=True, playouts=True, limit=200)


@needs_kernel
@settings(max_examples=examples(1), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    state=game_states(rules=st.sampled_from(["classic", "casual"]).map(RuleSet.from_name).map(
        lambda r: attrs.evolve(r, revisits=False)), min_moves=20, max_moves=200),
)
def test_the_kernel_agrees_where_the_turn_remembers_its_positions(state: GameState) -> None:
    check_position(state, ends=True, playouts=True)


@needs_kernel
def test_the_kernel_agrees_on_long_turns_of_moves_between_tableau_piles() -> None:
    # Under revisits=false a turn remembers every position its moves between tableau piles reached:
    # play those moves almost only, so that the turns grow long.
    rules = "classic(revisits=false,fill_empty_first=false,foundation_plays=optional)"
    longest = 0
    for seed in range(6):
        rng = random.Random(seed)
        state = new_game(rules, seed=seed)
        for n in range(250):
            moves = legal_moves(state)
            if not moves:
                break
            shuttles = [m for m in moves if type(m) is MoveStack or (type(m) is Play and m.source.kind is m.target.kind is PileKind.TABLEAU)]
            state = apply_move(state, rng.choice(shuttles if shuttles and rng.random() < 0.97 else moves))
            longest = max(longest, len(state.turn_moves))
            if len(state.turn_moves) > 8 and n % 7 == 0:
                check_position(state, ends=True, playouts=True, limit=100)
    assert longest > 30


@needs_kernel
def test_turn_ends_agree_at_every_limit() -> None:
    state = new_game("classic", seed=7)
    for limit in (1, 2, 3, 7, 50):
        kernel_ends = turn_ends(state, limit=limit)
        with pure():
            python_ends = turn_ends(state, limit=limit)
        assert [(e.moves, e.state) for e in kernel_ends] == [(e.moves, e.state) for e in python_ends]
        assert kernel_ends.complete == python_ends.complete
        assert kernel_ends[0].state is state


# -- the bots decide alike --------------------------------------------------------------


def _positions(rules: str, seed: int, count: int) -> list[GameState]:
    state, found, bot = new_game(rules, seed=seed), [], GreedyBot()
    while not state.is_over and len(found) < count:
        found.append(state)
        state = apply_move(state, bot.choose(state))
    return found[::5]


@needs_kernel
@pytest.mark.parametrize("rules", ["classic", "casual", "classic(revisits=false)"])
def test_the_bots_choose_the_same_moves_in_both_engines(rules: str) -> None:
    positions = _positions(rules, 3, 150)
    bots: list[Any] = [GreedyBot(), SearchBot(seed=2, budget=60), PlanningBot(seed=2, playouts=80)]
    kernel_moves = [[bot.choose(state) for state in positions] for bot in bots]
    with pure():
        bots = [GreedyBot(), SearchBot(seed=2, budget=60), PlanningBot(seed=2, playouts=80)]
        python_moves = [[bot.choose(state) for state in positions] for bot in bots]
    assert kernel_moves == python_moves


@needs_kernel
@pytest.mark.parametrize("policy", ["greedy", "fast", "random"])
def test_self_play_gives_the_same_games_in_both_engines(policy: str) -> None:
    kwargs: dict[str, Any] = {"seed": 4, "policy": policy, "epsilon": 0.2, "max_moves": 400}
    games = self_play("classic(revisits=false)", 3, keep="moves", **kwargs)
    with pure():
        assert games == self_play("classic(revisits=false)", 3, keep="moves", **kwargs)
    assert [game.states[0] for game in games] == [new_game("classic(revisits=false)", seed) for seed in (4, 5, 6)]


# -- self-play ---------------------------------------------------------------------------


def test_self_play_keeps_the_first_position_of_every_turn() -> None:
    game = self_play("classic", 1, seed=9, max_moves=300)[0]
    players = [state.current_player for state in game.states]
    assert all(a != b for a, b in zip(players, players[1:]))
    assert game.outcome is not None or game.moves == 300


def test_self_play_with_endings_of_ones_own_plays_in_python() -> None:
    games = self_play("classic(endings=no-progress:3)", 2, seed=1, policy="fast")
    assert all(game.outcome is not None for game in games)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"games": -1}, ValueError),
        ({"games": 1, "policy": "smart"}, ValueError),
        ({"games": 1, "keep": "all"}, ValueError),
        ({"games": 1, "epsilon": 1.5}, ValueError),
        ({"games": 1, "epsilon": "0.1"}, ValueError),
        ({"games": 2, "seed": 2**64 - 1}, ValueError),
        ({"games": 1, "max_moves": -3}, ValueError),
        ({"games": "2"}, TypeError),
    ],
)
def test_self_play_refuses_bad_arguments(kwargs: dict[str, Any], error: type[Exception]) -> None:
    with pytest.raises(error):
        self_play("classic", **kwargs)


# -- the kernel never reads past what it is given -----------------------------------------


def _broken(**changes: Any) -> GameState:
    state = new_game("classic", seed=1)
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(GameState)}
    fields.update(changes)
    return raw_state(*fields.values())


@needs_kernel
@pytest.mark.parametrize(
    "state",
    [
        _broken(piles=((),) * 22),
        _broken(piles=tuple(p + p[:1] for p in new_game("classic", seed=1).piles)),
        _broken(piles=("x",) * 22),
        _broken(piles=(("not a card",),) + new_game("classic", seed=1).piles[1:]),
        _broken(current_player=5),
        _broken(move_count=-4),
        _broken(move_count=2**70),
        _broken(drawn=1),
        _broken(reserve_known=(200, 0)),
        _broken(exhausted=(True,)),
        _broken(counters=(1,)),
        _broken(turn_moves=(parse_move("draw"),)),
        _broken(turn_moves=("T0-T1",)),
    ],
)
def test_a_malformed_state_is_left_to_the_python_engine(state: GameState) -> None:
    assert kernel.playout(state, 0) is None and kernel.evaluate(state, 1) is None
    assert kernel.fast_move(state) is None and kernel.exits(state) is None
    assert kernel.try_paths([state], [()], 0) is None
    assert kernel.greedy_scores(state, (), True) is None


@needs_kernel
def test_the_kernel_refuses_malformed_arguments() -> None:
    state = new_game("classic", seed=1)
    with pytest.raises(ValueError):
        kernel.playout(state, 2)
    with pytest.raises(ValueError):
        kernel.evaluate(state, True)  # type: ignore[arg-type]
    assert kernel.greedy_scores(state, ["draw"], True) is None  # type: ignore[list-item]
    assert kernel.greedy_scores(state, [parse_move("T0-T1")], True) is None  # not legal there
    assert kernel.try_paths([state], [[parse_move("T0-F3")]], 0) is None  # not legal: Python says why
    assert kernel.shuffle(random.Random(1), (1, 2, 3)) is None  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        kernel.try_paths(state, [], 0)  # type: ignore[arg-type]


@needs_kernel
def test_the_kernel_shuffles_as_random_does() -> None:
    for n in (0, 1, 2, 5, 52, 104):
        mine, theirs = list(range(n)), list(range(n))
        a, b = random.Random(n), random.Random(n)
        assert kernel.shuffle(a, mine)
        b.shuffle(theirs)
        assert mine == theirs and a.random() == b.random()

    class Other(random.Random):
        pass

    assert kernel.shuffle(Other(1), [1, 2]) is None
