"""The second yardstick (benchmarks/plan_yardstick.py) keeps playing PlanningBot(1000)'s moves as of commit 7c55308.

The games below were recorded on 2026-11-26 with ``crapette.bots.PlanningBot(seed,
playouts=1000)`` of main at 7c55308 in one seat and ``GreedyBot()`` in the other,
up to the planning bot's 30th decision (a position with more than one legal
move) or the 150th move. The frozen copy chose the same moves in these games,
with the compiled kernel and without it, and in 48 more games of up to 80
decisions each with the kernel (12 each of classic, casual,
``classic(revisits=false)`` and ``casual(endings=no-progress:20)``, which runs
in Python whatever the engine). They are literals on purpose: the
library's planner, evaluators and weights may change, the yardstick must not.
The greedy bot's moves are replayed from the record, so a change to it changes
nothing here.
"""

from __future__ import annotations

import ast
import pickle
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from crapette import apply_move, kernel, new_game, parse_move, view

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from plan_yardstick import PlanYardstick, fitted_value, playout_value, segment_paths  # noqa: E402

#: (rules, deal, bot seed, the yardstick's seat): every move of the game, both seats.
GAMES = {
    ("classic", 0, 1, 0): (  # 67 moves
        "T1-T2 R1-T1 R1-T3 T6-R0 R1-T6 draw W1-T1 T4-T1 R1-T4 draw T2-T7 T2-W1 T3-T5x2 R0-T2 R0-T3 T0-T3 "
        "R0-T2 R0-T0 R0-F0 R0-T5 T6-T5 R0-T6 draw W0-F0 draw T1-W0 T1-R0 T1-T2 R1-T1 R1-W0 R1-F1 T2-W0 "
        "draw T1-W1 T3-T6x2 R0-T1 R0-T3 draw draw W1-T0 draw W1-T6 T3-T6 R1-T3 R1-T1 draw T6-R1 draw "
        "W0-F2 draw W0-T6 draw draw W1-T3 draw draw W0-T4 draw W0-T6 draw draw T0-W1 draw draw draw W0-F3 "
        "draw "
    ),
    ("classic", 7, 2, 1): (  # 36 moves
        "T5-F0 T2-T6 T4-T3 R1-T2 R1-T4 T1-T4 T3-T7 R1-T1 T4-T5 T7-T3 T7-T1 R1-T4 T1-T7 T3-T7 T3-T1 T4-T3 "
        "T5-T4 R1-T5 draw draw draw draw T7-T1 draw draw W0-F0 draw T0-W0 T3-W0 T6-T0 T6-F0 T1-T7 R1-T3 "
        "T1-T6 T7-T6 T7-T1 "
    ),
    ("classic", 12, 3, 0): (  # 45 moves
        "T2-F0 T7-F1 T1-F1 T3-T6 T5-T0 T6-T4x2 R0-T6 R0-T1 R0-T3 R0-T0 R0-F0 R0-T2 T0-T2x3 R0-T3 R0-T7 "
        "T2-T0 T7-T2 R0-T5 R0-F2 T2-T7 T0-T2 T4-T0 T5-T4 R0-T5 draw W0-F3 T3-R1 draw R1-T3 R1-T5 draw "
        "W1-T2 draw T2-T7 draw draw W1-F4 draw draw draw W1-T3 R1-T3 draw T2-W1 T4-W1 "
    ),
    ("casual", 3, 5, 1): (  # 81 moves
        "T2-T7 R0-T2 T0-T7 R0-T0 R0-T2 draw W0-T6 draw T5-T2 R1-F0 R1-T5 draw draw W0-T3 draw draw draw "
        "W0-F1 draw draw W1-T4 W1-T4 draw draw draw draw W0-F0 R0-F0 R0-F2 draw draw W1-T1 draw draw "
        "W0-T1 R0-T1 R0-F1 draw draw draw draw W1-T2 draw draw draw draw draw W1-F3 draw draw draw draw "
        "draw draw draw W1-T4 T5-T4 R1-T5 R1-F4 R1-T2 R1-F3 R1-T1 R1-T3 R1-F5 R1-T2 R1-T5 T4-F5 T4-F3 "
        "T4-T5 draw W1-F3 draw W1-T0 W1-T0 W1-F5 T5-F5 T5-F3 T4-T5 draw W1-T7 draw "
    ),
    ("classic", 40, 9, 1): (  # 73 moves
        "T3-T5 T4-T6 T7-T5 R1-T0 R1-T3 T2-T3 R1-T2 R1-T4 R1-T7 draw W1-F0 draw draw W0-F1 T2-F1 R0-T2 "
        "draw W0-T1 draw W0-T1 R0-T1 draw draw draw W0-T3 draw T4-W0 T0-T2x2 T3-T0x2 T3-W0 T1-T3x2 T1-W0 "
        "T7-W0 T5-T4x2 T2-T7 T2-R0 T5-R0 R1-T5 draw T3-W1 draw draw draw draw draw W0-T4 draw W0-T6 draw "
        "T1-W0 R1-T1 draw W1-T1 draw T0-W1 draw W0-W1 draw W0-T4 draw draw W1-F1 draw draw W0-T1 T0-T1 "
        "R0-T0 R0-T2 T7-T2 R0-T7 draw draw W1-T0 "
    ),
    ("casual", 6, 4, 0): (  # 103 moves
        "draw W0-T5 draw T4-T5 R1-T4 draw draw draw W1-F0 T4-F0 R1-T4 draw draw draw W1-T2 draw T3-T2 "
        "draw R0-T3 W0-T2 draw R1-T2 draw T0-T2 W0-T0 R0-T0 draw W0-T5 draw W0-T6 draw W0-T3 draw draw "
        "T3-T1 draw draw T1-T3 draw W0-F1 draw R1-F1 R1-T3 draw W0-T3 draw draw W1-T4 draw W1-F2 draw "
        "draw W0-F3 draw W0-T1 W0-T1 draw W0-F2 draw draw draw W0-F1 draw draw W1-T0 draw draw draw W1-T2 "
        "draw draw draw W1-T0 draw W1-T5 draw W1-T3 draw W0-T0 draw W0-T0 draw draw W1-F2 draw W1-F4 draw "
        "T2-F4 T2-F4 T2-F1 T2-F1 R0-T2 R0-F0 draw W1-F4 draw W1-T0 draw draw W0-T7 draw W0-T1 draw "
    ),
}  # fmt: skip

#: How many of the yardstick's moves of each game the pure-Python engine checks.
PURE_MOVES = 16


@pytest.fixture(params=["kernel", "python"])
def engine(request: pytest.FixtureRequest) -> Iterator[str]:
    """Each test runs with the compiled kernel and with the pure-Python engine."""
    if request.param == "kernel" and not kernel.AVAILABLE:
        pytest.skip(f"no compiled kernel: {kernel.REASON}")
    was = kernel.engine() == "kernel"
    kernel.set_enabled(request.param == "kernel")
    try:
        yield request.param
    finally:
        kernel.set_enabled(was)


@pytest.mark.parametrize("case", sorted(GAMES), ids=lambda case: "{}-deal{}-seed{}-seat{}".format(*case))
def test_plan_yardstick_plays_planning_bot_1000_of_7c55308(case: tuple[str, int, int, int], engine: str) -> None:
    rules, deal, seed, seat = case
    bot = PlanYardstick(seed=seed)
    state = new_game(rules, deal)
    expected: list[str] = []
    chosen: list[str] = []
    # The pure-Python engine is many times slower: it plays the first of the yardstick's moves only.
    moves = len(GAMES[case].split()) if engine == "kernel" else PURE_MOVES
    for text in GAMES[case].split():
        move = parse_move(text)
        if state.current_player == seat:
            if len(chosen) == moves:
                break
            expected.append(f"{state.move_count}:{move}")
            chosen.append(f"{state.move_count}:{bot.choose(state)}")
            if chosen[-1] != expected[-1]:
                break
        state = apply_move(state, move)
    assert kernel.engine() == engine
    assert chosen == expected


#: Every sixth position of three of the games above: (rules, deal, moves made, the count of the
#: segment's ranked paths, a CRC-32 of them in order, the ranking's value and the playout's value
#: for the player to move, the playout's value for the other player), as 7c55308 gave them.
PIECES = [
    ("classic", 0, 0, 21, 1397053467, -0.2736, 4.0, -7.0),
    ("classic", 0, 6, 29, 2165209750, -0.1559, 9.0, -9.0),
    ("classic", 0, 12, 15, 1883201319, -0.4069, -16.0, 8.0),
    ("classic", 0, 18, 8, 1502812341, -0.2905, -7.0, -3.0),
    ("classic", 0, 24, 1, 1894956303, -0.1881, 3.0, -5.0),
    ("classic", 0, 30, 7, 4078463387, -0.2094, 3.0, -6.0),
    ("classic", 0, 36, 5, 3792446300, -0.3352, -3.0, 1.0),
    ("classic", 0, 42, 20, 456245897, -0.2018, 1.0, -3.0),
    ("classic", 0, 48, 4, 608728111, -0.4023, -4.0, 3.0),
    ("classic", 0, 54, 2, 889250967, -0.1886, 2.0, -4.0),
    ("classic", 0, 60, 1, 1894956303, -0.237, 1.0, -2.0),
    ("classic", 0, 66, 2, 4085118861, -0.2398, 0.0, 0.0),
    ("classic", 40, 0, 26, 3698483328, -0.2562, 3.0, -6.0),
    ("classic", 40, 6, 41, 1213943817, -0.198, 4.0, -11.0),
    ("classic", 40, 12, 2, 1176149277, -0.4498, -4.0, 4.0),
    ("classic", 40, 18, 2, 1176149277, -0.3557, -4.0, 4.0),
    ("classic", 40, 24, 6, 1456805295, -0.2941, -9.0, 3.0),
    ("classic", 40, 30, 553, 939978342, -0.1874, 12.0, -12.0),
    ("classic", 40, 36, 34, 3039651004, -0.126, 6.0, -10.0),
    ("classic", 40, 42, 1, 1894956303, -0.456, -12.0, 12.0),
    ("classic", 40, 48, 1, 1894956303, -0.391, -14.0, 10.0),
    ("classic", 40, 54, 2, 646166652, -0.4781, -11.0, 10.0),
    ("classic", 40, 60, 1, 1894956303, -0.175, 10.0, -11.0),
    ("classic", 40, 66, 14, 2296963385, -0.339, -12.0, 6.0),
    ("classic", 40, 72, 5, 3518451501, -0.2579, -21.0, -7.0),
    ("casual", 3, 0, 6, 3680377793, -0.2832, 1.0, -2.0),
    ("casual", 3, 6, 25, 2494416193, -0.1959, 5.0, -6.0),
    ("casual", 3, 12, 1, 1894956303, -0.2242, 4.0, -4.0),
    ("casual", 3, 18, 2, 116653225, -0.1592, 3.0, -5.0),
    ("casual", 3, 24, 1, 1894956303, -0.3238, -8.0, 3.0),
    ("casual", 3, 30, 1, 1894956303, -0.4088, -12.0, 7.0),
    ("casual", 3, 36, 4, 166216697, -0.0621, 12.0, -12.0),
    ("casual", 3, 42, 1, 1894956303, -0.4288, -11.0, 11.0),
    ("casual", 3, 48, 1, 1894956303, -0.3963, -10.0, 10.0),
    ("casual", 3, 54, 1, 1894956303, -0.3963, -5.0, 5.0),
    ("casual", 3, 60, 2, 806413634, -0.2591, 12.0, -14.0),
    ("casual", 3, 66, 7, 69913666, -0.1019, 12.0, -14.0),
    ("casual", 3, 72, 21, 594725430, -0.0694, 12.0, -14.0),
    ("casual", 3, 78, 2, 2140643800, 0.0281, 12.0, -14.0),
]  # fmt: skip


def test_plan_yardstick_ranks_and_judges_as_7c55308(engine: str) -> None:
    found = []
    for rules, deal, seat in (("classic", 0, 0), ("classic", 40, 1), ("casual", 3, 1)):
        case = next(key for key in GAMES if key[:2] == (rules, deal) and key[3] == seat)
        state = new_game(rules, deal)
        for i, text in enumerate(GAMES[case].split()):
            if i % 6 == 0:
                player = state.current_player
                paths = segment_paths(view(state))
                crc = zlib.crc32(" ".join(" ".join(map(str, path)) for path in paths).encode())
                found.append((
                    rules, deal, i, len(paths), crc, round(fitted_value(state, player), 6),
                    playout_value(state, player), playout_value(state, 1 - player),
                ))
            state = apply_move(state, parse_move(text))
    assert found == PIECES


def test_plan_yardstick_defaults() -> None:
    bot = PlanYardstick()
    assert (bot.seed, bot.playouts) == (0, 1000) == (0, PlanYardstick.DEFAULT_PLAYOUTS)
    assert repr(PlanYardstick(seed=4)) == "PlanYardstick(seed=4, playouts=1000)"
    assert PlanYardstick(seed=4) == PlanYardstick(4, 1000) != PlanYardstick(4, 999)
    assert hash(PlanYardstick(seed=4)) == hash(PlanYardstick(4, 1000))


def test_plan_yardstick_is_a_bot_that_pickles_with_its_plan() -> None:
    from crapette.bots import Bot

    bot = PlanYardstick(seed=9, playouts=100)
    assert isinstance(bot, Bot)
    assert bot.name == "plan-yardstick"
    state = new_game("classic", 3)
    first = bot.choose(state)
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and hash(copy) == hash(bot)
    # The plan travels with the bot: the copy plays it on.
    plan = bot.__getstate__()["plan"]
    assert plan and first in plan.values()
    assert copy.__getstate__()["plan"] == plan
    assert copy.choose(state) == first


def test_plan_yardstick_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="playouts"):
        PlanYardstick(playouts=-1)
    with pytest.raises(TypeError, match="playouts"):
        PlanYardstick(playouts=True)
    with pytest.raises(ValueError, match="seed"):
        PlanYardstick(seed=-1)
    with pytest.raises(TypeError, match="seed"):
        PlanYardstick(seed="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="GameState"):
        PlanYardstick().choose("not a state")  # type: ignore[arg-type]


def test_plan_yardstick_imports_public_names_and_no_search_of_the_library() -> None:
    tree = ast.parse((BENCHMARKS / "plan_yardstick.py").read_text(encoding="utf-8"))
    imported = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.append(node.module or "")
            imported += [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
    crapette = [name for name in imported if name.split(".")[0] == "crapette"]
    assert crapette, "the yardstick should use the crapette package"
    assert not [name for name in crapette if any(part.startswith("_") for part in name.split("."))]
    # Frozen: nothing of the library's bots, evaluators or learned values.
    assert not [name for name in crapette if name.split(".")[1:2] in (["bots"], ["evaluation"], ["value"])]


def test_strength_names_the_plan_yardstick() -> None:
    import strength

    assert strength.make("plan-yardstick", 1) == PlanYardstick(seed=1)
    assert strength.make("Plan-Yardstick@7", 1) == PlanYardstick(seed=7)
    assert strength.make("plan_yardstick:PlanYardstick@2", 1) == PlanYardstick(seed=2)
