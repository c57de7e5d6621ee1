"""The training pipeline of the learned value (crapette.training): generate, fit, measure, and its command.

Tiny sizes throughout: these tests check that the pipeline is reproducible
from a seed whatever executor plays the games, that its pieces fit together
(samples saved and read back, a network fitted and measured, the command end
to end) and that bad arguments are refused; they measure no strength. They
need NumPy (the ``learn`` extra) and skip without it.
"""

from __future__ import annotations

import concurrent.futures
import json
import math
import shlex
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason='crapette.training needs NumPy: pip install ".[learn]"')

import attrs  # noqa: E402

from crapette import apply_move, kernel, new_game  # noqa: E402
from crapette.training import POLICIES, Samples, fit, generate, log_loss, logits, main  # noqa: E402
from crapette.value import FEATURES, LearnedValue, ValueNet, encode, net_for  # noqa: E402

#: Each policy at a size that plays in well under a second.
SIZES: dict[str, dict[str, Any]] = {
    "greedy": {"rules": "classic", "games": 3, "max_moves": 300},
    "value": {"rules": "casual", "games": 2, "max_moves": 60, "net": net_for("casual")},
    "rollouts": {"rules": "classic", "games": 3, "max_moves": 200, "rollouts": 2, "per_game": 3},
    "planner": {"rules": "classic", "games": 2, "max_moves": 40, "playouts": 16, "net": net_for("classic")},
}


def _generate(policy: str, **kwargs: Any) -> Samples:
    arguments = dict(SIZES[policy])
    rules, games = arguments.pop("rules"), arguments.pop("games")
    return generate(rules, games, seed=11, policy=policy, **arguments, **kwargs)


def _same(a: Samples, b: Samples) -> bool:
    return (
        a.features.dtype == b.features.dtype
        and np.array_equal(a.features, b.features)
        and np.array_equal(a.labels, b.labels)
        and np.array_equal(a.deals, b.deals)
    )


@pytest.fixture(scope="module")
def processes() -> Iterator[concurrent.futures.ProcessPoolExecutor]:
    with concurrent.futures.ProcessPoolExecutor(2) as pool:
        yield pool


@pytest.fixture(scope="module")
def greedy_samples() -> Samples:
    """The samples of 20 greedy classic games: enough to fit a small network to."""
    return generate("classic", 20, seed=3)


@pytest.fixture(scope="module")
def few_samples() -> Samples:
    return _generate("greedy")


# -- generate ----------------------------------------------------------------------------


@pytest.mark.parametrize("policy", POLICIES)
def test_the_same_seed_gives_the_same_samples_whatever_the_executor_and_the_chunk(
    policy: str, processes: concurrent.futures.ProcessPoolExecutor
) -> None:
    here = _generate(policy)
    assert len(here) > 0
    assert _same(here, _generate(policy, chunk=1))
    with concurrent.futures.ThreadPoolExecutor(2) as threads:
        assert _same(here, _generate(policy, executor=threads, chunk=1))
    assert _same(here, _generate(policy, executor=processes, chunk=2))
    other = generate(SIZES[policy]["rules"], SIZES[policy]["games"], seed=12, policy=policy,
                     **{k: v for k, v in SIZES[policy].items() if k not in ("rules", "games")})
    assert not _same(here, other)


@pytest.mark.parametrize("policy", POLICIES)
def test_samples_are_counts_of_positions_seen_from_both_sides_in_the_order_of_the_deals(policy: str) -> None:
    samples = _generate(policy)
    assert samples.features.shape == (len(samples), len(FEATURES)) and samples.features.dtype == np.int16
    assert samples.labels.dtype == np.float32 and samples.deals.dtype == np.int64
    assert (samples.features >= 0).all()
    assert list(np.unique(samples.deals)) == list(range(11, 11 + SIZES[policy]["games"]))
    assert (np.diff(samples.deals) >= 0).all()
    # Each position twice, for one side and then the other: the labels are each other's complement.
    assert len(samples) % 2 == 0
    assert np.array_equal(samples.labels[0::2] + samples.labels[1::2], np.ones(len(samples) // 2))
    move = FEATURES.index("own move")
    assert np.array_equal(samples.features[0::2, move] + samples.features[1::2, move], np.ones(len(samples) // 2))
    if policy == "rollouts":
        assert ((samples.labels >= 0) & (samples.labels <= 1)).all()
    else:
        assert set(np.unique(samples.labels)) <= {0.0, 0.5, 1.0}
        # A game's first sample is its deal.
        deal = new_game(SIZES[policy]["rules"], seed=11)
        assert tuple(samples.features[0]) == encode(deal, 0) and tuple(samples.features[1]) == encode(deal, 1)


def test_generate_reports_its_progress_as_the_games_are_played() -> None:
    seen: list[tuple[int, int]] = []
    generate("classic", 5, seed=2, chunk=2, max_moves=200, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(2, 5), (4, 5), (5, 5)]


def test_no_games_give_no_samples() -> None:
    samples = generate("classic", 0)
    assert len(samples) == 0 and samples.features.shape == (0, len(FEATURES))


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"policy": "smart"}, ValueError, "unknown policy 'smart': expected one of greedy, value, rollouts"),
        ({"policy": "value"}, ValueError, "the value policy needs a net"),
        ({"net": "classic"}, TypeError, "net must be a ValueNet, got str"),
        ({"games": -1}, ValueError, "games must be at least 0"),
        ({"games": "2"}, TypeError, "games must be an int"),
        ({"chunk": 0}, ValueError, "chunk must be at least 1"),
        ({"max_moves": 0}, ValueError, "max_moves must be at least 1"),
        ({"rollouts": 0}, ValueError, "rollouts must be at least 1"),
        ({"per_game": 0}, ValueError, "per_game must be at least 1"),
        ({"playouts": -1}, ValueError, "playouts must be at least 0"),
        ({"epsilon": 1.5}, ValueError, "epsilon must be a number from 0 to 1"),
        ({"epsilon": "0.1"}, ValueError, "epsilon must be a number from 0 to 1"),
        ({"epsilon": True}, ValueError, "epsilon must be a number from 0 to 1"),
        ({"seed": -1}, ValueError, "seed must be an int"),
        ({"seed": 2**63}, ValueError, "seed \\+ games must be at most 2\\*\\*63"),
        ({"rules": 3}, TypeError, "generate\\(\\): rules must be a RuleSet or a rules text"),
    ],
)
def test_generate_refuses_bad_arguments_saying_which(kwargs: dict[str, Any], error: type[Exception], message: str) -> None:
    arguments: dict[str, Any] = {"rules": "classic", "games": 1, **kwargs}
    with pytest.raises(error, match=message):
        generate(arguments.pop("rules"), arguments.pop("games"), **arguments)


# -- samples on disk ---------------------------------------------------------------------


def test_samples_are_saved_under_the_name_given_and_read_back_equal(tmp_path: Path, few_samples: Samples) -> None:
    samples = few_samples
    for name in ("samples.npz", "samples"):  # NumPy alone would add ".npz" to the second
        samples.save(str(tmp_path / name))
        assert (tmp_path / name).is_file()
        assert _same(Samples.load(str(tmp_path / name)), samples)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["samples", "samples.npz"]
    both = Samples.join([samples, samples])
    assert len(both) == 2 * len(samples) and _same(Samples.join([both]), both)
    assert len(Samples.join([])) == 0


def test_reading_a_file_that_holds_no_samples_raises_a_value_error_that_says_so(tmp_path: Path) -> None:
    text = tmp_path / "text.npz"
    text.write_text("not samples")
    empty = tmp_path / "empty.npz"
    empty.write_bytes(b"")
    narrow = tmp_path / "narrow.npz"
    np.savez(narrow, features=np.zeros((2, 5), np.int16), labels=np.zeros(2), deals=np.zeros(2, np.int64))
    unlabelled = tmp_path / "unlabelled.npz"
    np.savez(unlabelled, features=np.zeros((2, len(FEATURES)), np.int16), deals=np.zeros(2, np.int64))
    short = tmp_path / "short.npz"
    np.savez(short, features=np.zeros((2, len(FEATURES)), np.int16), labels=np.zeros(1), deals=np.zeros(2, np.int64))
    for path, message in [
        (text, "holds no samples"),
        (empty, "holds no samples"),
        (narrow, f"holds samples of 5 features, not {len(FEATURES)}"),
        (unlabelled, "holds no samples: KeyError"),
        (short, "other numbers of labels or deals"),
    ]:
        with pytest.raises(ValueError, match=message):
            Samples.load(str(path))
    with pytest.raises(OSError):
        Samples.load(str(tmp_path / "missing.npz"))


# -- fit and measure ---------------------------------------------------------------------


def test_fit_returns_an_integer_network_and_its_log_losses_held_out(greedy_samples: Samples) -> None:
    net, report = fit(greedy_samples, hidden=8, epochs=4, seed=1, name="classic", made="a test")
    assert isinstance(net, ValueNet) and net.name == "classic" and net.made == "a test"
    assert len(net.hidden) == 8 and net.clip == 8
    assert set(report) == {"train", "held_out", "held_out_rounded", "base", "samples", "epoch"}
    assert all(math.isfinite(value) for value in report.values())
    assert 0 < report["samples"] < len(greedy_samples)  # a tenth of the deals held out
    # Rounding the weights to integers hardly changes the network; it learned something from the counts
    # (each position is there from both sides, so knowing nothing is a coin's log loss).
    assert abs(report["held_out_rounded"] - report["held_out"]) < 0.01
    assert report["base"] == pytest.approx(math.log(2)) and report["train"] < math.log(2)
    # The same seed fits the same network; another seed another.
    assert fit(greedy_samples, hidden=8, epochs=4, seed=1, name="classic", made="a test")[0] == net
    assert fit(greedy_samples, hidden=8, epochs=4, seed=2)[0] != net


def test_the_fitted_network_measures_and_plays_as_the_value_does(greedy_samples: Samples) -> None:
    net, _ = fit(greedy_samples, hidden=4, epochs=1, seed=1)
    rows = greedy_samples.features[::97]
    assert list(logits(net, rows)) == [net.logit([int(x) for x in row]) for row in rows]
    z = logits(net, greedy_samples.features)
    y = greedy_samples.labels.astype(np.float64)
    expected = float(np.mean(np.log1p(np.exp(-np.abs(z))) + np.maximum(z, 0) - y * z))
    assert log_loss(net, greedy_samples) == pytest.approx(expected, rel=1e-9)
    assert math.isnan(log_loss(net, Samples.join([])))
    state = new_game("classic", seed=4)
    assert 0 < LearnedValue(net).evaluate(state, 0) < 1
    assert (net.handle is not None) == kernel.AVAILABLE


def test_the_progress_of_fit_is_reported_after_each_epoch(greedy_samples: Samples) -> None:
    seen: list[tuple[int, float, float]] = []
    fit(greedy_samples, hidden=4, epochs=3, progress=lambda *args: seen.append(args))
    assert [epoch for epoch, _, _ in seen] == [1, 2, 3]
    assert all(math.isfinite(train) and math.isfinite(held) for _, train, held in seen)
    assert seen[-1][1] < seen[0][1]  # the loss on the training samples goes down


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"hidden": 0}, ValueError, "hidden must be at least 1"),
        ({"hidden": 2.0}, TypeError, "hidden must be an int"),
        ({"clip": 0}, ValueError, "clip must be at least 1"),
        ({"epochs": -1}, ValueError, "epochs must be at least 0"),
        ({"batch": 0}, ValueError, "batch must be at least 1"),
        ({"seed": -1}, ValueError, "seed must be an int"),
        ({"rate": 0}, ValueError, "rate must be positive"),
        ({"rate": "fast"}, ValueError, "rate must be a number"),
        ({"l2": -1e-5}, ValueError, "l2 must be at least 0"),
        ({"holdout": 1.0}, ValueError, "holdout must be less than 1"),
        ({"holdout": -0.1}, ValueError, "holdout must be at least 0"),
        ({"holdout": float("nan")}, ValueError, "holdout must be a number"),
        ({"td_lambda": 1.5}, ValueError, "td_lambda must be a number from 0 to 1"),
        ({"td_lambda": True}, ValueError, "td_lambda must be a number from 0 to 1"),
    ],
)
def test_fit_refuses_bad_arguments_saying_which(
    kwargs: dict[str, Any], error: type[Exception], message: str, few_samples: Samples
) -> None:
    with pytest.raises(error, match=message):
        fit(few_samples, **kwargs)


def test_td_lambda_targets_mix_the_result_with_the_chances_of_later_positions_of_the_same_game() -> None:
    from crapette.training import _games, _td_targets

    # Two games: deal 7 with three positions (two rows each, the two sides), deal 9 with one.
    deals = np.array([7, 7, 7, 7, 7, 7, 9, 9])
    outcomes = np.array([1, 0, 1, 0, 1, 0, 0, 1], np.float32)
    chances = np.array([0.5, 0.5, 0.8, 0.2, 0.6, 0.4, 0.3, 0.7], np.float32)
    games = _games(deals)
    assert games == [(0, 6), (6, 8)]
    targets = _td_targets(chances, outcomes, games, 0.5)
    # The last position of a game is worth its result; each earlier one half the next chance, half the next target.
    assert targets[4] == 1 and targets[5] == 0 and list(targets[6:]) == [0, 1]
    assert targets[2] == pytest.approx(0.5 * 0.6 + 0.5 * 1) and targets[3] == pytest.approx(0.5 * 0.4 + 0)
    assert targets[0] == pytest.approx(0.5 * 0.8 + 0.5 * targets[2])
    # lambda 1 is the result; lambda 0 the next position's chance.
    assert list(_td_targets(chances, outcomes, games, 1.0)) == list(outcomes)
    assert list(_td_targets(chances, outcomes, games, 0.0)[:4]) == pytest.approx([0.8, 0.2, 0.6, 0.4])


def test_td_lambda_refuses_samples_of_rollouts_which_are_no_games(greedy_samples: Samples) -> None:
    labelled = attrs.evolve(greedy_samples, made=("python -m crapette.training generate --policy rollouts --out r.npz",))
    with pytest.raises(ValueError, match="td_lambda needs the samples of games"):
        fit(labelled, epochs=1, td_lambda=0.5)
    assert fit(labelled, hidden=2, epochs=1)[0] is not None


def test_fit_with_td_lambda_trains_twice_the_epochs_and_measures_against_the_results(greedy_samples: Samples) -> None:
    seen: list[tuple[int, float, float]] = []
    net, report = fit(greedy_samples, hidden=4, epochs=2, seed=1, td_lambda=0.8, progress=lambda *args: seen.append(args))
    assert [epoch for epoch, _, _ in seen] == [1, 2, 3, 4]
    assert report["held_out"] == pytest.approx(min(held for _, _, held in seen))
    assert fit(greedy_samples, hidden=4, epochs=2, seed=1, td_lambda=1.0)[0] == fit(greedy_samples, hidden=4, epochs=2, seed=1, td_lambda=1.0)[0]


def test_fit_starts_from_a_network_where_given_and_keeps_its_size(greedy_samples: Samples) -> None:
    first, _ = fit(greedy_samples, hidden=4, epochs=1, seed=1, clip=6)
    # No epoch: the network comes back as it went in, but for the rounding of its weights.
    same, report = fit(greedy_samples, hidden=16, epochs=0, start=first)
    assert len(same.hidden) == 4 and same.clip == 6 and report["epoch"] == 0
    for row, back in zip((*first.hidden, first.output), (*same.hidden, same.output)):
        assert all(abs(a - b) <= 1 for a, b in zip(row, back))
    assert log_loss(same, greedy_samples) == pytest.approx(log_loss(first, greedy_samples), abs=1e-3)
    # Trained on, it learns on from there.
    on, report = fit(greedy_samples, epochs=2, start=first)
    assert len(on.hidden) == 4 and on != first
    with pytest.raises(TypeError, match="start must be a ValueNet, got str"):
        fit(greedy_samples, start="value-classic.json")  # type: ignore[arg-type]


def test_the_planner_policy_plays_the_planning_bot_and_judges_by_the_net_where_one_is_given() -> None:
    from crapette._core.turns import leaves_segment
    from crapette.bots import PlanningBot
    from crapette.evaluation import Playout

    def expected(judge: Any) -> list[tuple[int, ...]]:
        # The two bots of deal 3 play; a turn's first position and every position left by a move out of
        # its segment are kept (twice if both), each seen from both sides.
        bots = (PlanningBot(3, 8, evaluator=judge), PlanningBot(4, 8, evaluator=judge))
        state, rows, previous = new_game("classic", 3), [], -1
        while state.move_count < 30 and not state.is_over:
            move = bots[state.current_player].choose(state)
            for kept in (state.current_player != previous, leaves_segment(state, move)):
                rows += [encode(state, 0), encode(state, 1)] if kept else []
            previous = state.current_player
            state = apply_move(state, move)
        return rows

    for net in (None, net_for("classic")):
        samples = generate("classic", 1, seed=3, policy="planner", playouts=8, max_moves=30, epsilon=0.0, net=net)
        judge = Playout(leaf=LearnedValue(net)) if net is not None else None
        assert [tuple(int(x) for x in row) for row in samples.features] == expected(judge)
        assert set(np.unique(samples.deals)) == {3}


def test_fit_refuses_what_it_cannot_train_on() -> None:
    with pytest.raises(ValueError, match="no samples to train on"):
        fit(Samples.join([]))
    with pytest.raises(TypeError, match="fit\\(\\) expects Samples, got list"):
        fit([])  # type: ignore[arg-type]


# -- the command -------------------------------------------------------------------------


def test_the_command_generates_fits_and_measures_end_to_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data, net_path, again = str(tmp_path / "s.npz"), str(tmp_path / "net.json"), str(tmp_path / "v.npz")
    assert main(["generate", "--games", "3", "--seed", "5", "--max-moves", "300", "--out", data]) == 0
    out = capsys.readouterr()
    samples = Samples.load(data)
    assert out.out == f"{len(samples)} samples from 3 games -> {data}\n" and "3/3 games" in out.err
    assert "\r" not in out.err and out.err.endswith("\n")  # in a pipe: whole lines, not a line redrawn
    assert _same(samples, generate("classic", 3, seed=5, max_moves=300))

    fit_command = ["fit", data, "--hidden", "4", "--epochs", "2", "--name", "classic", "--out", net_path]
    assert main(fit_command) == 0
    out = capsys.readouterr()
    assert out.out.startswith("train ") and " held_out " in out.out and "epoch 2: train" in out.err
    net = ValueNet.from_json(Path(net_path).read_text(encoding="utf-8"))
    generate_command = f"python -m crapette.training generate --games 3 --seed 5 --max-moves 300 --out {data}"
    assert Samples.load(data).made == (generate_command,)
    assert net.made == generate_command + " && python -m crapette.training " + " ".join(fit_command)
    assert len(net.hidden) == 4

    assert main(["loss", net_path, data]) == 0
    assert capsys.readouterr().out == f"log loss {log_loss(net, samples):.4f} over {len(samples)} samples\n"

    assert main(["generate", "--policy", "value", "--net", net_path, "--games", "1", "--max-moves", "40",
                 "--workers", "2", "--out", again]) == 0
    assert _same(Samples.load(again), generate("classic", 1, policy="value", net=net, max_moves=40))


def test_the_command_records_itself_in_the_network_so_that_a_shell_reads_it_back(tmp_path: Path) -> None:
    data, net_path = str(tmp_path / "s.npz"), str(tmp_path / "a net.json")
    assert main(["generate", "--games", "3", "--seed", "5", "--max-moves", "100", "--rules", "casual(reserve_size=10)",
                 "--out", data]) == 0
    argv = ["fit", data, "--epochs", "1", "--hidden", "2", "--name", "casual (reserve of 10)", "--out", net_path]
    assert main(argv) == 0
    made = json.loads(Path(net_path).read_text(encoding="utf-8"))["made"]
    generated, fitted = made.split(" && ")
    assert shlex.split(generated)[3:] == ["generate", "--games", "3", "--seed", "5", "--max-moves", "100", "--rules",
                                         "casual(reserve_size=10)", "--out", data]
    assert fitted.startswith("python -m crapette.training fit ") and "'casual (reserve of 10)'" in fitted
    assert shlex.split(fitted)[3:] == argv
    # A network trained on from this one carries its commands first, then its own samples' and its own.
    on_path = str(tmp_path / "on.json")
    more = ["fit", data, "--epochs", "1", "--start", net_path, "--td-lambda", "0.5", "--out", on_path]
    assert main(more) == 0
    chain = json.loads(Path(on_path).read_text(encoding="utf-8"))["made"].split(" && ")
    assert chain[:2] == [generated, fitted] and chain[2] == generated and shlex.split(chain[3])[3:] == more


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["loss", "missing.json", "missing.npz"], "python -m crapette.training loss: [Errno 2] No such file"),
        (["generate", "--games", "1", "--rules", "classic(nope=1)", "--out", "x.npz"],
         "python -m crapette.training generate: invalid rules 'classic(nope=1)'"),
        (["generate", "--games", "-1", "--out", "x.npz"], "python -m crapette.training generate: games must be at least 0"),
        (["generate", "--policy", "value", "--out", "x.npz"], "the value policy needs a net"),
        (["fit", "bad.npz", "--out", "x.json"], "python -m crapette.training fit: bad.npz holds no samples"),
    ],
)
def test_the_command_reports_a_bad_argument_or_file_in_one_line(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.npz").write_text("not samples")
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and err.strip().count("\n") <= 1


def test_the_command_runs_as_a_module_and_explains_each_subcommand() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "crapette.training", "generate", "--help"], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    for option in ("--rules", "--games", "--seed", "--policy", "--net", "--epsilon", "--workers", "--out"):
        assert option in done.stdout
    assert "default: classic" in done.stdout and "game i is dealt from seed + i" in done.stdout
    with pytest.raises(SystemExit) as exit:
        main(["frobnicate"])
    assert exit.value.code == 2


def test_fit_returns_the_weights_of_the_epoch_with_the_least_held_out_loss(greedy_samples: Samples) -> None:
    held: list[float] = []
    _, report = fit(greedy_samples, hidden=8, epochs=6, rate=0.05, seed=3, progress=lambda e, tr, h: held.append(h))
    best = min(range(6), key=lambda i: held[i])
    assert report["epoch"] == best + 1 and report["held_out"] == held[best]
    _, none_held = fit(greedy_samples, hidden=2, epochs=3, holdout=0.0)
    assert none_held["epoch"] == 3  # nothing held out: the last epoch's weights


def test_samples_keep_the_commands_that_made_them(tmp_path: Path, greedy_samples: Samples) -> None:
    path = str(tmp_path / "made.npz")
    made = attrs.evolve(greedy_samples, made=("python -m crapette.training generate --games 1 --out a.npz",))
    made.save(path)
    assert Samples.load(path).made == made.made
    assert Samples.join([made, made, greedy_samples]).made == made.made  # each command once, in order
    import numpy as np

    np.savez_compressed(str(tmp_path / "bad.npz"), features=made.features, labels=made.labels, deals=made.deals,
                        made=np.array([[1, 2]]))
    with pytest.raises(ValueError, match="commands are not a list of texts"):
        Samples.load(str(tmp_path / "bad.npz"))
# -- files: whatever they hold, written whole ----------------------------------------------


def _net_text(**changes: Any) -> str:
    data = json.loads(net_for("classic").to_json())
    data.update({key: value(data) if callable(value) else value for key, value in changes.items()})
    return json.dumps(data)


def _one_line(argv: list[str], capsys: pytest.CaptureFixture[str], status: int = 1) -> str:
    assert main(argv) == status
    captured = capsys.readouterr()
    said = captured.err if status else captured.out
    assert "Traceback" not in captured.err and said.strip(), captured
    if status:  # the message is one line, after any progress lines
        assert said.strip().splitlines()[-1].startswith("python -m crapette.training "), said
    return said.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (lambda: _net_text(output=lambda d: [1e200] * len(d["output"])), "every weight must be an int"),
        (lambda: _net_text(hidden=lambda d: [[float("nan")] * len(d["hidden"][0])] * len(d["hidden"])),
         "every weight must be an int"),
        (lambda: _net_text(clip=float("nan")), "clip must be a positive int"),
        (lambda: _net_text(clip="8"), "clip must be a positive int"),
        (lambda: _net_text(output=lambda d: [True] * len(d["output"])), "every weight must be an int"),
        (lambda: _net_text(hidden="abc"), "each hidden unit needs"),
        (lambda: _net_text(features=["cards"]), "made for other features"),
        (lambda: _net_text().replace('"clip": 8', '"clip": ' + "9" * 5000), "not a value network"),
        (lambda: "[" * 100_000, "nested too deeply"),
        (lambda: "[1, 2]", "not a value network"),
        (lambda: "", "not a value network"),
        (lambda: b"\xff\xfe{}", "not a text file (UTF-8)"),
    ],
    ids=["float weights", "NaN weights", "NaN clip", "text clip", "bool weights", "text rows", "other features",
         "long number", "deep JSON", "a list", "empty", "not UTF-8"],
)
def test_a_network_file_that_is_not_a_network_is_refused_in_one_line(
    content: Any, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], few_samples: Samples
) -> None:
    few_samples.save(str(tmp_path / "samples.npz"))
    data = content()
    net = tmp_path / "net.json"
    net.write_bytes(data if isinstance(data, bytes) else data.encode())
    for argv in (["loss", str(net), str(tmp_path / "samples.npz")],
                 ["generate", "--policy", "value", "--net", str(net), "--games", "1", "--out", str(tmp_path / "x.npz")]):
        err = _one_line(argv, capsys)
        assert f"{net}" in err and message in err
    assert not (tmp_path / "x.npz").exists()


@pytest.mark.parametrize(
    "changes",
    [
        {"output": lambda d: [10**200] * len(d["output"])},
        {"hidden": lambda d: [[-(10**300)] * len(d["hidden"][0])] * len(d["hidden"])},
        {"clip": 10**4000},
    ],
    ids=["output weights of 10**200", "hidden weights of -10**300", "a clip of 10**4000"],
)
def test_a_network_too_large_for_64_bits_is_measured_exactly(
    changes: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str], few_samples: Samples
) -> None:
    few_samples.save(str(tmp_path / "samples.npz"))
    (tmp_path / "net.json").write_text(_net_text(**changes))
    out = _one_line(["loss", str(tmp_path / "net.json"), str(tmp_path / "samples.npz")], capsys, status=0)
    assert out.startswith("log loss ")
    net = ValueNet.from_json((tmp_path / "net.json").read_text())
    rows = few_samples.features[:5]

    def exact(raw: int) -> float:  # the log-odds, or the largest float where it is larger
        try:
            return raw / 2**24
        except OverflowError:
            return math.copysign(sys.float_info.max, raw)

    assert list(logits(net, rows)) == [exact(net.raw([int(x) for x in row])) for row in rows]


def test_a_network_file_too_large_to_be_one_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, few_samples: Samples
) -> None:
    import crapette.training

    monkeypatch.setattr(crapette.training, "_MAX_NET_BYTES", 100)
    few_samples.save(str(tmp_path / "samples.npz"))
    (tmp_path / "net.json").write_text(net_for("classic").to_json())
    assert "too large for a network" in _one_line(["loss", str(tmp_path / "net.json"), str(tmp_path / "samples.npz")], capsys)


def _npz_member(name: str, header: str, body: bytes) -> tuple[str, bytes]:
    """A .npy file of the header given, as a member of an .npz (a zip), whatever the header claims."""
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return f"{name}.npy", b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + body


def _hostile_samples(path: Path, kind: str, good: Samples) -> None:
    import io
    import zipfile

    n, width = len(good), len(FEATURES)
    arrays = {"features": good.features, "labels": good.labels, "deals": good.deals}
    if kind == "corrupt":
        good.save(str(path))
        raw = bytearray(path.read_bytes())
        raw[len(raw) // 2 : len(raw) // 2 + 40] = b"x" * 40
        path.write_bytes(bytes(raw))
        return
    if kind == "a plain .npy":
        buffer = io.BytesIO()
        np.save(buffer, good.features)
        path.write_bytes(buffer.getvalue())
        return
    if kind == "a shape of 10**10 rows":
        with zipfile.ZipFile(path, "w") as archive:
            archive.writestr(*_npz_member(
                "features", f"{{'descr': '<i2', 'fortran_order': False, 'shape': (10000000000, {width}), }}", b"\0" * 64))
            for name in ("labels", "deals"):
                buffer = io.BytesIO()
                np.save(buffer, arrays[name])
                archive.writestr(f"{name}.npy", buffer.getvalue())
        return
    changed = {
        "NaN counts": {"features": np.full((n, width), np.nan)},
        "counts of 2**60": {"features": np.full((n, width), 2**60)},
        "negative counts": {"features": -good.features - 1},
        "text counts": {"features": np.full((n, width), "ab")},
        "objects": {"features": np.array([[None] * width] * n, dtype=object)},
        "a number for counts": {"features": np.array(5)},
        "NaN labels": {"labels": np.full(n, np.nan)},
        "labels of 2": {"labels": np.full(n, 2.0)},
        "float deals": {"deals": np.full(n, 0.5)},
    }[kind]
    np.savez(path, **{**arrays, **changed}, allow_pickle=True) if kind == "objects" else np.savez(path, **{**arrays, **changed})


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("corrupt", "holds no samples"),
        ("a plain .npy", "holds no samples"),
        ("a shape of 10**10 rows", "holds no samples"),
        ("NaN counts", "wrong types"),
        ("counts of 2**60", "counts out of range"),
        ("negative counts", "counts out of range"),
        ("text counts", "wrong types"),
        ("objects", "holds no samples"),
        ("a number for counts", "holds counts of shape ()"),
        ("NaN labels", "labels out of range"),
        ("labels of 2", "labels out of range"),
        ("float deals", "wrong types"),
    ],
)
def test_a_samples_file_that_holds_anything_else_is_refused_in_one_line(
    kind: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], few_samples: Samples
) -> None:
    path = tmp_path / "bad.npz"
    _hostile_samples(path, kind, few_samples)
    (tmp_path / "net.json").write_text(net_for("classic").to_json())
    for argv in (["loss", str(tmp_path / "net.json"), str(path)], ["fit", str(path), "--out", str(tmp_path / "x.json")]):
        assert message in _one_line(argv, capsys)
    assert not (tmp_path / "x.json").exists()


def test_samples_with_deals_of_any_integer_type_are_read_as_64_bit(tmp_path: Path, few_samples: Samples) -> None:
    np.savez(tmp_path / "small.npz", features=few_samples.features.astype(np.int64), labels=few_samples.labels,
             deals=few_samples.deals.astype(np.int8))
    read = Samples.load(str(tmp_path / "small.npz"))
    assert read.features.dtype == np.int16 and read.deals.dtype == np.int64
    assert np.array_equal(read.features, few_samples.features)


def test_the_files_the_pipeline_writes_replace_the_old_whole_or_not_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, few_samples: Samples
) -> None:
    import os

    samples, net = tmp_path / "samples.npz", tmp_path / "net.json"
    few_samples.save(str(samples))
    before = samples.read_bytes()
    net.write_text("the old network")

    def fails_midway(out: Any, **arrays: Any) -> None:
        out.write(b"PK half a zip")
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:  # the write fails midway
        patch.setattr(np, "savez_compressed", fails_midway)
        with pytest.raises(OSError, match="No space left"):
            few_samples.save(str(samples))
    with monkeypatch.context() as patch:  # the disk fills as the file is flushed
        patch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(28, "No space left on device")))
        with pytest.raises(OSError, match="No space left"):
            Samples.join([few_samples, few_samples]).save(str(samples))
        assert "No space left" in _one_line(["fit", str(samples), "--epochs", "1", "--out", str(net)], capsys)
        assert "No space left" in _one_line(
            ["generate", "--games", "1", "--max-moves", "20", "--out", str(samples)], capsys)
    assert samples.read_bytes() == before and net.read_text() == "the old network"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["net.json", "samples.npz"]  # no file left behind
    assert main(["fit", str(samples), "--epochs", "1", "--hidden", "2", "--out", str(net)]) == 0
    assert ValueNet.from_json(net.read_text()).name == "classic"
