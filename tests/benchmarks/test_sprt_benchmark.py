"""The match harness (benchmarks/sprt.py) and the tuner (benchmarks/tune.py): decisions, output, the tuned count."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from crapette import new_game
from crapette.evaluation import CardCount
from crapette.value import LearnedValue

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import sprt  # noqa: E402
import tune  # noqa: E402


def test_a_clear_difference_is_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    code = sprt.main(["--bots", "greedy,random", "--elo0", "0", "--elo1", "100", "--max-games", "200",
                      "--batch", "10", "--seed", "3", "--json", "--quiet"])
    assert code == 0
    found = json.loads(capsys.readouterr().out)
    assert found["decision"] == "accept"
    assert found["games"] < 200 and found["games"] % 10 == 0
    assert found["llr"] >= found["llr_bounds"][1]
    assert sum(found["pentanomial"]) * 2 == found["games"] == sum(found["lost_drawn_won"])
    assert found["elo"] > 100 and found["elo_interval"][0] > 0


def test_a_clear_loss_is_rejected_and_the_text_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    assert sprt.main(["--bots", "random,greedy", "--max-games", "100", "--batch", "10", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    assert "decision: reject" in out and "LLR" in out and "Elo" in out
    assert "games, +" in err  # a line of progress a batch


def test_too_few_games_is_inconclusive(capsys: pytest.CaptureFixture[str]) -> None:
    sprt.main(["--bots", "greedy,greedy", "--max-games", "4", "--batch", "2", "--json", "--quiet",
               "--rules", "casual"])
    found = json.loads(capsys.readouterr().out)
    assert found["decision"] == "inconclusive" and found["games"] == 4 and found["rules"] == "casual"


@pytest.mark.parametrize(
    "argv",
    [
        ["--bots", "greedy"],
        ["--max-games", "7"],
        ["--batch", "0"],
        ["--elo0", "10", "--elo1", "5"],
        ["--alpha", "1.5"],
        ["--bots", "greedy,nobot"],
        ["--bots", "tuned=/no/such/file.json,greedy"],
        ["--bots", "leaf=/no/such/file.json,greedy"],
        ["--bots", "ranker=crapette/data/value-classic.json#many,greedy"],
        ["--bots", "playouts=-1,greedy"],
        ["--bots", "seconds=soon,greedy"],
    ],
)
def test_bad_arguments(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        sprt.main(argv)
    assert exc.value.code == 2


def test_the_bots_of_a_network_a_budget_or_a_time(tmp_path: Path) -> None:
    from crapette.bots import MAX_PLAYOUTS, PlanningBot
    from crapette.evaluation import Playout, careful_move
    from crapette.value import net_for

    path = str(tmp_path / "value.json")
    Path(path).write_text(net_for("classic").to_json(), encoding="utf-8")
    value = LearnedValue(net_for("classic"))
    assert sprt.bot(f"leaf={path}", 4) == PlanningBot(4, 1000, evaluator=Playout(leaf=value))
    assert sprt.bot(f"ranker={path}#60@9", 4) == PlanningBot(9, 60, ranker=value)
    assert sprt.bot("playouts=64", 4) == PlanningBot(4, 64)
    assert sprt.bot("careful=300", 4) == PlanningBot(4, 300, evaluator=Playout(policy=careful_move))
    assert sprt.bot("seconds=0.01@2", 4) == PlanningBot(2, MAX_PLAYOUTS, seconds=0.01)


def test_the_stock_count_as_a_network() -> None:
    # The linear count ranks positions as the card count does (the logistic only squashes it).
    leaf = LearnedValue(tune.Params().net())
    states = [new_game("classic", seed=s) for s in range(6)]
    for player in (0, 1):
        counts = [CardCount().evaluate(s, player) for s in states]
        values = [leaf.evaluate(s, player) for s in states]
        for a in range(len(states)):
            for b in range(len(states)):
                if counts[a] < counts[b]:
                    assert values[a] < values[b]
    assert tune.Params.from_vector(tune.Params(reserve=3).vector()) == tune.Params(reserve=3)


def test_a_tuning_step_and_its_file(tmp_path: Path) -> None:
    out, log = tmp_path / "tuned.json", tmp_path / "steps.jsonl"
    # Two games cut short after 40 moves: a step and its files, not a strength.
    argv = ["--iterations", "1", "--playouts", "20", "--max-moves", "40", "--out", str(out), "--log", str(log)]
    assert tune.main(argv) == 0
    found = json.loads(out.read_text())
    assert found["steps"] == 1 and found["games"] == 2 and set(found["params"]) == set(tune.NAMES)
    assert len(log.read_text().splitlines()) == 1
    bot = sprt.bot(f"tuned={out}@4", 1)
    assert bot.seed == 4 and bot.playouts == 20  # type: ignore[attr-defined]
