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
import shutil
import subprocess
import sys
from pathlib import Path
import types
from typing import Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import examples
from kernel_sweep import check_position, pure, sweep
import crapette
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
    reveals,
    turn_ends,
)
from crapette._core.moves import Draw, EndTurn, Pass
from crapette._core.turns import follow
from crapette._formats.actions import NUM_ACTIONS, action_to_move
from crapette._core.options import Flag, option
from crapette._core.state import raw_state
from crapette.bots import GreedyBot, PlanningBot, SearchBot
from crapette._core.shapes import pile_groups
from crapette.bots.planner import _Keys
from crapette.evaluation import WEIGHTS

#: The planner's groups of interchangeable piles in classic, as the kernel's ranked_ends takes them.
GROUPS = _Keys(pile_groups(RuleSet.classic())).tuples
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


def test_an_install_that_could_not_build_the_kernel_says_so_when_crapette_is_imported(tmp_path: Path) -> None:
    # The package as a wheel built without a compiler has it: no compiled kernel, and the build's note of why.
    package = tmp_path / "crapette"
    shutil.copytree(Path(crapette.__file__).parent, package, ignore=shutil.ignore_patterns(
        "_ckernel*.so", "_ckernel*.pyd", "_ckernel_not_built.txt", "__pycache__"))
    (package / "_ckernel_not_built.txt").write_text("CompileError: no C compiler\n", encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("CRAPETTE_PURE", "PYTHONWARNINGS")}
    code = "import crapette.kernel as k; print(k.engine()); print(k.REASON)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    engine, reason = done.stdout.splitlines()
    assert engine == "python" and reason.startswith("the compiled kernel was not built at install (CompileError: no C compiler)")
    assert f"RuntimeWarning: crapette: {reason}" in done.stderr
    # A program that makes warnings errors imports crapette all the same.
    done = subprocess.run([sys.executable, "-W", "error", "-c", code], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env={**env, "PYTHONPATH": str(tmp_path)})
    assert done.returncode == 0 and done.stdout.splitlines() == [engine, reason], done.stderr
    # Choosing the pure-Python engine silences it; without the note (a source tree never built), nothing is said.
    for extra, remove in (({"CRAPETTE_PURE": "1"}, False), ({}, True)):
        if remove:
            (package / "_ckernel_not_built.txt").unlink()
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                              cwd=tmp_path, env={**env, **extra, "PYTHONPATH": str(tmp_path)})
        assert done.returncode == 0 and done.stdout.startswith("python\n") and "Warning" not in done.stderr, done.stderr


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


@attrs.frozen(cache_hash=True, repr=False)
class _WithJokers(RuleSet):
    """Rules with an option the kernel has never heard of (the Python engine knows no more of it either)."""

    jokers: bool = option(Flag(), False, "A rule option newer than the kernel.")


def test_the_kernel_steps_aside_for_rules_with_an_option_it_does_not_know() -> None:
    classic = RuleSet.classic()
    rules = _WithJokers(**{o.name: getattr(classic, o.name) for o in RuleSet.options()}, jokers=True)
    assert [o.name for o in _WithJokers.options()][-1] == "jokers"
    assert not kernel.supports(rules) and kernel.supports(classic) == kernel.AVAILABLE
    assert kernel.engine() == ("kernel" if kernel.AVAILABLE else "python")
    state = new_game(rules, seed=3)
    assert kernel.fast_move(state) is None and kernel.playout(state, 0) is None and kernel.exits(state) is None
    rng = random.Random(3)
    states, moves = [state], []
    while not state.is_over and len(moves) < 150:
        moves.append(rng.choice(legal_moves(state)))
        state = apply_move(state, moves[-1])
        states.append(state)
    with pure():
        state = new_game(rules, seed=3)
        for move, then in zip(moves, states[1:]):
            assert move in legal_moves(state)
            state = apply_move(state, move)
            assert state == then and state.outcome == then.outcome
    # The Python engine knows nothing of the option either: the game is the classic one, move for move.
    state = new_game(classic, seed=3)
    for move, then in zip(moves, states[1:]):
        state = apply_move(state, move)
        assert state.piles == then.piles and state.outcome == then.outcome


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
    return found[::10]


@needs_kernel
@pytest.mark.parametrize("rules", ["classic", "casual", "classic(revisits=false)"])
def test_the_bots_choose_the_same_moves_in_both_engines(rules: str) -> None:
    positions = _positions(rules, 3, 150)   # 15 positions: the bots search from each in both engines
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
    assert kernel.shuffle(random.Random(1), (1, 2, 3)) is None  # type: ignore[arg-type]


@needs_kernel
@pytest.mark.parametrize(
    ("at", "change", "match"),
    [
        (-1, lambda layout: {**layout, "T0": 9}, "T0"),
        (-1, lambda layout: {**layout, "MAX_TURN": 999}, "MAX_TURN"),
        (-2, lambda table: types.SimpleNamespace(**{**{k: getattr(table, k) for k in table.__all__}, "USELESS": "x"}),
         "USELESS"),
    ],
)
def test_the_kernel_refuses_numbers_other_than_those_it_was_built_with(at: int, change: Any, match: str) -> None:
    from crapette import _ckernel

    config = list(kernel._config())
    config[at] = change(config[at])
    with pytest.raises((ValueError, TypeError), match=match):
        _ckernel.init(tuple(config))
    assert legal_moves(new_game("classic", seed=1)) == legal_moves(new_game("classic", seed=1))  # still running
    assert kernel.fast_move(new_game("classic", seed=1)) is not None


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


@needs_kernel
@pytest.mark.parametrize(("limit", "error"), [
    (-(10**30), ValueError), (10**30, ValueError), (0, ValueError), (-1, ValueError), (2**31, ValueError),
    (True, TypeError), (2.0, TypeError), ("3", TypeError), (None, TypeError),
])
def test_the_kernels_turn_ends_checks_its_limit_itself(limit: Any, error: type[Exception]) -> None:
    # turn_ends() checks the limit before the kernel sees it; the kernel does not rely on its callers.
    from crapette import _ckernel

    state = new_game("classic", seed=1)
    with pytest.raises(error, match="limit"):
        _ckernel.turn_ends(state, limit)
    found = _ckernel.turn_ends(state, 20_000)
    assert found is not None and [end.moves for end in found[0]] == [end.moves for end in turn_ends(state)]


@needs_kernel
def test_the_kernel_ranks_turn_ends_by_any_weights_as_the_fitted_value_counts() -> None:
    from crapette import _ckernel
    from crapette.evaluation import features

    rng = random.Random(5)
    for seed in range(4):
        state = new_game("classic", seed=seed)
        for _ in range(rng.randrange(30, 90)):
            state = apply_move(state, rng.choice(legal_moves(state)))
        weights = tuple(rng.choice([0.0, rng.uniform(-1, 1)]) for _ in range(7))
        found = _ckernel.ranked_ends(state, 500, weights, 10**6, GROUPS)
        assert found is not None
        best, complete = found
        player = state.current_player
        values = [value for _, _, value, _, _ in best]
        assert values == sorted(values, reverse=True) and len(best) > 0
        keys = _Keys(pile_groups(state.rules))
        for end, exits, value, key, swaps in best:
            assert (key, swaps) == keys.arrange(end.state)
            if end.state.is_over:
                continue
            expected = 0.0
            for w, x in zip(weights, features(end.state, player)):
                expected += w * x  # one by one, as FittedValue adds them (sum() adds more exactly since 3.12)
            assert value == expected
            assert list(exits) == [m for m in legal_moves(end.state) if type(m) in (Draw, EndTurn, Pass) or reveals(end.state, m)]
            assert exits


@needs_kernel
@pytest.mark.parametrize("rules", ["classic", "casual", "classic(revisits=false)", "casual(move_limit=60)"])
def test_the_kernel_judges_a_candidate_from_the_deal_as_the_python_engine_does(rules: str) -> None:
    from crapette import _ckernel
    from crapette.bots.planner import _arranged
    from crapette.evaluation import Playout

    rng = random.Random(3)
    compared = 0
    for seed in range(3):
        state = new_game(rules, seed=seed)
        for _ in range(rng.randrange(10, 50)):
            if state.is_over:
                break
            state = apply_move(state, rng.choice(legal_moves(state)))
        if state.is_over:
            continue
        keys = _Keys(pile_groups(state.rules))
        ends = turn_ends(state, limit=300)
        for end in rng.sample(list(ends), min(12, len(ends))):
            _, swaps = keys.arrange(end.state)
            path = end.moves
            for count in (state.move_count, 55):
                for player in (0, 1):
                    found = _ckernel.path_playout(state, path, swaps, count, player)
                    with pure():
                        expected = Playout().evaluate(_arranged(follow(state, path), swaps, count), player)
                    assert found == expected, (str(state), path, swaps)
                    compared += 1
    assert compared > 20
    # A move that is not legal on the way leaves it to the Python engine.
    assert _ckernel.path_playout(new_game(rules, seed=1), (parse_move("T0-T1"),), (), 0, 0) is None


@needs_kernel
@pytest.mark.parametrize(("args", "error", "word"), [
    ((0, 0, 0), TypeError, "tuples"), (((), [], 0), TypeError, "tuples"), (((), ((1,),), 0), TypeError, "pair"),
    (((), ((1, 22),), 0), ValueError, "pile"), (((), ((True, 2),), 0), TypeError, "pile"),
    (((), ((1, 2),) * 23, 0), ValueError, "more swaps"), (((), (), -1), ValueError, "count"),
])
def test_the_kernels_path_playout_checks_its_arguments_itself(args: tuple[Any, ...], error: type[Exception], word: str) -> None:
    from crapette import _ckernel

    with pytest.raises(error, match=word):
        _ckernel.path_playout(new_game("classic", seed=1), *args, 0)
    assert _ckernel.path_playout(5, (), (), 0, 0) is None  # not a state: left to the Python engine


@needs_kernel
@pytest.mark.parametrize(("args", "error", "word"), [
    ((100, (1.0,) * 6, 5, []), TypeError, "weights"), ((100, (1,) * 7, 5, []), TypeError, "weights"),
    ((100, (float("inf"),) * 7, 5, []), ValueError, "finite"), ((100, (float("nan"),) * 7, 5, []), ValueError, "finite"),
    ((0, (1.0,) * 7, 5, []), ValueError, "limit"), ((100, (1.0,) * 7, 0, []), ValueError, "most"),
    ((100, (1.0,) * 7, True, []), TypeError, "most"), ((100, [1.0] * 7, 5, []), TypeError, "weights"),
    ((100, (1.0,) * 7, 5, ()), TypeError, "groups"), ((100, (1.0,) * 7, 5, [((1, 22), (1, 22))]), TypeError, "groups"),
    ((100, (1.0,) * 7, 5, [((1, 1), (1, 1))]), TypeError, "groups"), ((100, (1.0,) * 7, 5, [((1, 2), (1, 3))]), TypeError, "groups"),
    ((100, (1.0,) * 7, 5, [((1, 2),)]), TypeError, "groups"), ((100, (1.0,) * 7, 5, [((1, 2), (2, 1))]), TypeError, "groups"), ((100, (1.0,) * 7, 5, [((1, -(10**30)), (1, 2))]), TypeError, "groups"),
])
def test_the_kernels_ranked_ends_checks_its_arguments_itself(args: tuple[Any, ...], error: type[Exception], word: str) -> None:
    from crapette import _ckernel

    with pytest.raises(error, match=word):
        _ckernel.ranked_ends(new_game("classic", seed=1), *args)
    assert _ckernel.ranked_ends(5, 100, (1.0,) * 7, 5, []) is None  # not a state: left to the Python engine


@needs_kernel
@pytest.mark.parametrize(("position", "value", "error", "word"), [
    (2, True, TypeError, "policy"), (2, 3, ValueError, "policy"), (2, -(10**30), ValueError, "policy"),
    (3, True, TypeError, "epsilon"), (3, float("nan"), ValueError, "epsilon"), (3, 1.5, ValueError, "epsilon"),
    (4, True, TypeError, "max_moves"), (4, -1, ValueError, "max_moves"), (4, 10**30, ValueError, "max_moves"),
    (5, True, TypeError, "keep"), (5, 7, ValueError, "keep"),
    (1, [True], TypeError, "seed"), (1, [-1], ValueError, "seed"), (1, [2**64], ValueError, "seed"),
    (1, [1.0], TypeError, "seed"), (1, [], ValueError, "seed"),
])
def test_the_kernels_self_play_checks_its_arguments_itself(position: int, value: Any, error: type[Exception], word: str) -> None:
    from crapette import _ckernel

    args: list[Any] = [[new_game("casual", seed=1)], [1], 1, 0.0, 50, 0]
    assert len(_ckernel.self_play(*args)) == 1
    args[position] = value
    with pytest.raises(error, match=word):
        _ckernel.self_play(*args)


def _entry_point_calls() -> list[tuple[str, Any]]:
    """A call of every entry point of the compiled kernel, on its way to a result and on its ways to an error."""
    from crapette import _ckernel
    from crapette.value import net_for

    state = new_game("classic", seed=3)
    moves = legal_moves(state)
    net = net_for("classic")
    handle = net.handle
    illegal = parse_move("T0-T1")
    return [
        ("legal_moves", lambda: _ckernel.legal_moves(state, None)),
        ("apply_move", lambda: _ckernel.apply_move(state, None, moves[0])),
        ("evaluate", lambda: _ckernel.evaluate(state, 0)),
        ("evaluate: bad player", lambda: _ckernel.evaluate(state, 2)),
        ("playout", lambda: _ckernel.playout(state, 1)),
        ("careful_playout", lambda: _ckernel.careful_playout(state, 0)),
        ("path_playout", lambda: _ckernel.path_playout(state, (moves[0],), ((8, 9), (9, 8)), 7, 1)),
        ("path_playout: illegal", lambda: _ckernel.path_playout(state, (illegal,), (), 7, 1)),
        ("path_playout: bad swap", lambda: _ckernel.path_playout(state, (), ((8, 99),), 7, 1)),
        ("careful_playout: bad player", lambda: _ckernel.careful_playout(state, 2)),
        ("fast_move", lambda: _ckernel.fast_move(state)),
        ("exits", lambda: _ckernel.exits(state)),
        ("shuffle", lambda: _ckernel.shuffle(random.Random(1), list(range(10)))),
        ("greedy_scores", lambda: _ckernel.greedy_scores(state, moves, True)),
        ("greedy_scores: illegal", lambda: _ckernel.greedy_scores(state, [illegal], True)),
        ("greedy_scores: not moves", lambda: _ckernel.greedy_scores(state, 5, True)),
        ("turn_ends", lambda: _ckernel.turn_ends(state, 100)),
        ("turn_ends: bad limit", lambda: _ckernel.turn_ends(state, -(10**30))),
        ("turn_ends: not a state", lambda: _ckernel.turn_ends(5, 100)),
        ("ranked_ends", lambda: _ckernel.ranked_ends(state, 100, WEIGHTS, 5, GROUPS)),
        ("ranked_ends: bad weights", lambda: _ckernel.ranked_ends(state, 100, (1.0,), 5, GROUPS)),
        ("ranked_ends: bad most", lambda: _ckernel.ranked_ends(state, 100, WEIGHTS, 0, GROUPS)),
        ("ranked_ends: bad groups", lambda: _ckernel.ranked_ends(state, 100, WEIGHTS, 5, [((1, 2), (2, 2))])),
        ("self_play", lambda: _ckernel.self_play([state], [1], 1, 0.0, 30, 2)),
        ("self_play: bad seed", lambda: _ckernel.self_play([state], [-1], 1, 0.0, 30, 2)),
        ("self_play: not a state", lambda: _ckernel.self_play([state, 5], [1, 2], 1, 0.0, 30, 2)),
        ("net", lambda: _ckernel.net(net.hidden, net.output, net.clip)),
        ("net: bad weight", lambda: _ckernel.net(net.hidden, (1.5, *net.output[1:]), net.clip)),
        ("net: bad unit", lambda: _ckernel.net((*net.hidden[:3], (1,)), net.output[:5], net.clip)),
        ("value", lambda: _ckernel.value(state, 0, handle)),
        ("value: not a net", lambda: _ckernel.value(state, 0, 5)),
        ("value_playout", lambda: _ckernel.value_playout(state, 1, handle)),
        ("encode", lambda: _ckernel.encode(state, 0)),
        ("encode: bad player", lambda: _ckernel.encode(state, 3)),
    ]


@needs_kernel
def test_no_entry_point_of_the_kernel_keeps_memory_on_success_or_on_error() -> None:
    # A reference not given back, or a buffer not freed, on some path would keep at least an object
    # (tens of bytes) or a position (kilobytes) a call: tens of kilobytes over a thousand calls.
    # tracemalloc sees Python's objects and the kernel's PyMem buffers alike.
    import tracemalloc

    grown = {}
    tracemalloc.start()
    try:
        for name, call in _entry_point_calls():
            def run(times: int) -> None:
                for _ in range(times):
                    try:
                        call()
                    except (TypeError, ValueError):
                        pass

            run(100)
            before = tracemalloc.get_traced_memory()[0]
            run(1000)
            grown[name] = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert all(size < 8_000 for size in grown.values()), grown
