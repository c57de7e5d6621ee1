"""The match statistics of crapette.sprt: known values, monotonicity, decisions on synthetic matches."""

from __future__ import annotations

import math
import random

import pytest

from crapette.bots import GreedyBot, RandomBot
from crapette.simulation import simulate
from crapette.sprt import (
    elo_interval,
    elo_to_score,
    game_counts,
    los,
    pair_counts,
    pair_counts_of,
    score_to_elo,
    sprt_bounds,
    sprt_decision,
    sprt_llr,
)

POINTS5 = (0.0, 0.25, 0.5, 0.75, 1.0)


def _normal_llr(counts: tuple[float, ...], elo0: float, elo1: float) -> float:
    """The GSPRT's normal approximation: N (s1 - s0) (2 mean - s0 - s1) / (2 variance)."""
    points = [j / (len(counts) - 1) for j in range(len(counts))]
    n = sum(counts)
    mean = sum(c * a for c, a in zip(counts, points)) / n
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts, points)) / n
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)


def test_elo_and_score_are_inverse() -> None:
    for elo in (-600, -100, -3.5, 0, 1, 50, 400):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert elo_to_score(400) == pytest.approx(10 / 11)
    assert score_to_elo(0.0) == -math.inf and score_to_elo(1.0) == math.inf


def test_known_values_of_the_bounds() -> None:
    lower, upper = sprt_bounds(0.05, 0.05)
    assert lower == pytest.approx(-math.log(19)) and upper == pytest.approx(math.log(19))
    assert sprt_bounds(0.1, 0.2) == pytest.approx((math.log(0.2 / 0.9), math.log(0.8 / 0.1)))


def test_without_draws_it_is_walds_test_of_a_coin() -> None:
    s0, s1 = elo_to_score(-5), elo_to_score(15)
    for lost, won in ((40, 60), (70, 30), (1, 1), (123, 140)):
        expected = won * math.log(s1 / s0) + lost * math.log((1 - s1) / (1 - s0))
        assert sprt_llr((lost, 0, won), -5, 15) == pytest.approx(expected, rel=1e-9)
        # The same games as pairs of a loss and a win add nothing: only the two ends count.
        assert sprt_llr((lost, 0, 0, 0, won), -5, 15) == pytest.approx(expected, rel=1e-9)


def test_close_to_the_normal_approximation_for_small_differences() -> None:
    counts = (30, 250, 500, 260, 40)
    for elo0, elo1 in ((0, 5), (-5, 5), (0, 10)):
        assert sprt_llr(counts, elo0, elo1) == pytest.approx(_normal_llr(counts, elo0, elo1), rel=0.02)


def test_the_ratio_grows_with_the_score_and_the_games() -> None:
    base = [10, 40, 100, 40, 10]
    llrs = []
    for shift in range(6):  # move pairs from a loss to a win: the score rises
        counts = [base[0] - shift, base[1], base[2], base[3], base[4] + shift]
        llrs.append(sprt_llr(counts, 0, 20))
    assert llrs == sorted(llrs) and llrs[0] < 0 < llrs[-1]
    strong = (5, 30, 100, 50, 15)
    assert sprt_llr([2 * c for c in strong], 0, 20) == pytest.approx(2 * sprt_llr(strong, 0, 20), rel=1e-9)
    weak = (15, 50, 100, 30, 5)
    assert sprt_llr([3 * c for c in weak], 0, 20) < sprt_llr(weak, 0, 20) < 0


def test_zero_at_the_midpoint_of_a_symmetric_test() -> None:
    assert sprt_llr((10, 20, 40, 20, 10), -10, 10) == pytest.approx(0.0, abs=1e-9)
    assert sprt_llr((0, 0, 0, 0, 0), 0, 10) == 0.0


def test_one_sided_counts_are_fitted_with_a_prior() -> None:
    llr = sprt_llr((0, 0, 0, 0, 12), 0, 20)
    assert math.isfinite(llr) and llr > 0
    assert sprt_llr((12, 0, 0, 0, 0), 0, 20) < 0


def _synthetic(elo: float, pairs: int, rng: random.Random) -> list[tuple[float, float]]:
    """Deal pairs between bots ``elo`` apart: each game won with the Elo's score, a draw one time in five."""
    s = elo_to_score(elo)
    out = []
    for _ in range(pairs):
        points = 0.0
        for _ in (0, 1):
            u = rng.random()
            points += 0.5 if u < 0.2 else 1.0 if u < 0.2 + 0.8 * s else 0.0
        out.append((points, 2 - points))
    return out


def _run(elo: float, seed: int, limit: int = 20_000) -> str:
    rng = random.Random(seed)
    pairs: list[tuple[float, float]] = []
    while len(pairs) < limit:
        pairs += _synthetic(elo, 50, rng)
        decision = sprt_decision(sprt_llr(pair_counts_of(pairs), 0, 30))
        if decision != "continue":
            return decision
    return "continue"


def test_decisions_on_synthetic_matches() -> None:
    decisions = [_run(60, seed) for seed in range(6)]
    assert decisions.count("accept") >= 5
    decisions = [_run(-30, seed) for seed in range(6)]
    assert decisions.count("reject") >= 5


def test_decision_thresholds() -> None:
    lower, upper = sprt_bounds(0.05, 0.1)
    assert sprt_decision(upper, 0.05, 0.1) == "accept"
    assert sprt_decision(lower, 0.05, 0.1) == "reject"
    assert sprt_decision((lower + upper) / 2, 0.05, 0.1) == "continue"


def test_the_interval_holds_the_estimate_and_shrinks() -> None:
    counts = (5, 20, 50, 20, 5)
    elo, low, high = elo_interval(counts)
    assert low < elo < high and elo == pytest.approx(0.0, abs=1e-9)
    _, low4, high4 = elo_interval([4 * c for c in counts])
    assert low < low4 < high4 < high
    assert (high4 - low4) == pytest.approx((high - low) / 2, rel=0.05)
    _, low99, high99 = elo_interval(counts, 0.99)
    assert low99 < low and high < high99


def test_pairs_are_sharper_than_games_when_the_deal_decides() -> None:
    # 40 pairs, each split 1-1 but for four the first bot won twice: the same games unpaired.
    penta = (0, 0, 36, 0, 4)
    tri = (36, 0, 44)
    assert elo_interval(penta)[0] == pytest.approx(elo_interval(tri)[0])
    assert elo_interval(penta)[1] > elo_interval(tri)[1]
    assert los(penta) > los(tri) > 0.5


def test_counts_of_a_simulation() -> None:
    report = simulate("classic", (GreedyBot(), RandomBot(seed=2)), games=8, seed=40)
    penta = pair_counts(report.results)
    assert sum(penta) == 4
    lost, drawn, won = game_counts(report.results)
    assert lost + drawn + won == 8
    assert sum(c * 2 * a for c, a in zip(penta, POINTS5)) == pytest.approx(won + drawn / 2)
    # A deal with one game counted (a simulation cut short) is left out of the pairs.
    assert sum(pair_counts(report.results[:-1])) == 3


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: sprt_llr((1, 2, 3), 10, 0), ValueError),
        (lambda: sprt_llr((1, -2, 3), 0, 10), ValueError),
        (lambda: sprt_llr((1,), 0, 10), TypeError),
        (lambda: sprt_llr("abc", 0, 10), TypeError),
        (lambda: sprt_llr((1, 2, 3), "0", 10), TypeError),
        (lambda: sprt_bounds(0.0, 0.05), ValueError),
        (lambda: sprt_bounds(0.6, 0.5), ValueError),
        (lambda: elo_interval((1, 2, 3), 1.0), ValueError),
        (lambda: score_to_elo(1.5), ValueError),
        (lambda: pair_counts_of([(2, 1)]), ValueError),
        (lambda: pair_counts_of([(0.3, 1.7)]), ValueError),
        (lambda: pair_counts_of([(1,)]), ValueError),
    ],
)
def test_bad_input(call: object, error: type[Exception]) -> None:
    with pytest.raises(error):
        call()  # type: ignore[operator]
