"""The frozen yardstick (benchmarks/yardstick.py) keeps playing SearchBot(200)'s moves as of commit 4b7ca19.

The expected moves were recorded on 2026-11-24 by running both the yardstick
and ``crapette.bots.SearchBot(seed, budget=200)`` of main (merge ee39e35),
which chose the same move in every one of the ~150 decisions played below.
They are literals on purpose: the library's SearchBot may change, the
yardstick must not.
"""

from __future__ import annotations

import ast
import pickle
import sys
from pathlib import Path

import pytest

from crapette import apply_move, legal_moves, new_game

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

from yardstick import Yardstick  # noqa: E402

#: (rules, deal, bot seed): the move count and move chosen at every fifth decision
#: (a position with more than one legal move) of a game the yardstick plays against itself.
EXPECTED = {
    ("classic", 0, 1): [
        "0:T1-T2", "5:T2-T7", "10:T4-T1", "15:R0-T6", "20:R0-F0",
        "25:R0-T1", "38:draw", "43:T7-T3", "48:draw", "53:R0-T3",
    ],
    ("classic", 7, 2): [
        "0:T5-F0", "5:T2-T7", "10:R1-T5", "15:T1-W1", "24:T5-T0",
        "30:draw", "35:W1-T2", "40:T3-T1", "46:T5-F1", "55:T2-R1",
    ],
    ("casual", 3, 5): [
        "0:T2-T7", "5:T3-T0", "11:R0-T0", "26:W0-F2", "38:T3-T0",
        "49:R0-T4", "62:draw", "71:draw", "85:W1-F0", "96:draw",
    ],
}  # fmt: skip


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_yardstick_plays_searchbot_200_of_4b7ca19(case: tuple[str, int, int]) -> None:
    rules, deal, seed = case
    bot = Yardstick(seed=seed)
    state = new_game(rules, deal)
    chosen: list[str] = []
    decisions = 0
    while not state.is_over and len(chosen) < len(EXPECTED[case]):
        move = bot.choose(state)
        if len(legal_moves(state)) > 1:
            if decisions % 5 == 0:
                chosen.append(f"{state.move_count}:{move}")
            decisions += 1
        state = apply_move(state, move)
    assert chosen == EXPECTED[case]


def test_yardstick_default_budget_is_200() -> None:
    assert Yardstick().budget == 200
    assert Yardstick.DEFAULT_BUDGET == 200
    assert repr(Yardstick(seed=4)) == "Yardstick(seed=4, budget=200)"


def test_yardstick_is_a_bot_that_pickles() -> None:
    from crapette.bots import Bot

    bot = Yardstick(seed=9, budget=50)
    assert isinstance(bot, Bot)
    assert bot.name == "yardstick"
    copy = pickle.loads(pickle.dumps(bot))
    assert copy == bot and hash(copy) == hash(bot)
    state = new_game("casual", 11)
    assert copy.choose(state) == bot.choose(state)


def test_yardstick_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="budget"):
        Yardstick(budget=0)
    with pytest.raises(TypeError, match="budget"):
        Yardstick(budget=True)
    with pytest.raises(ValueError, match="seed"):
        Yardstick(seed=-1)
    with pytest.raises(TypeError, match="GameState"):
        Yardstick().choose("not a state")  # type: ignore[arg-type]


def test_yardstick_imports_public_names_only() -> None:
    tree = ast.parse((BENCHMARKS / "yardstick.py").read_text(encoding="utf-8"))
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


def test_strength_names_the_yardstick_and_any_class() -> None:
    import strength

    from crapette.bots import GreedyBot, RandomBot, SearchBot, make_bot

    assert strength.make("yardstick", 1) == Yardstick(seed=1)
    assert strength.make("Yardstick@7", 1) == Yardstick(seed=7)
    assert strength.make("search@3", 1) == make_bot("search", 3)
    assert strength.make("crapette.bots:SearchBot@3", 1) == SearchBot(seed=3)
    assert strength.make("crapette.bots:RandomBot@4", 1) == RandomBot(seed=4)
    assert strength.make("crapette.bots:GreedyBot", 1) == GreedyBot()
    assert strength.make("yardstick:Yardstick@2", 1) == Yardstick(seed=2)
    with pytest.raises(ValueError, match="no bot"):
        strength.make("crapette.bots:NoSuchBot", 1)
    with pytest.raises(ValueError, match="seed"):
        strength.make("yardstick@x", 1)
