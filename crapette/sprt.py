"""Deciding between two bots as chess-engine testers do: Elo, its interval, and the sequential probability ratio test.

A match between two bots is a run of **deal pairs**: every deal is played
twice, once with each bot in each seat (as :func:`crapette.simulation.simulate`
plays them), and a pair scores 0, 1/2, 1, 3/2 or 2 points for the first bot
(a win 1, a draw 1/2, a loss 0). The five counts of pairs with each score are
the match's **pentanomial**; the three counts of single games lost, drawn and
won its **trinomial**. Pairing cancels most of the luck of the deal, so the
pentanomial's variance is the smaller and its figures the sharper.

:func:`elo_interval` gives the Elo difference the mean score means (the
logistic Elo of chess, ``score = 1 / (1 + 10 ** (-elo / 400))``) with its
confidence interval; :func:`sprt_llr` the log-likelihood ratio of the
generalized sequential probability ratio test (GSPRT) of ``elo = elo1``
against ``elo = elo0``, as fishtest and cutechess run it: the likelihood of
the counts under the multinomial that fits them best with mean score
``score(elo1)``, over that with mean score ``score(elo0)``. Play pairs until
the ratio leaves the bounds of :func:`sprt_bounds`; :func:`sprt_decision` says
where it stands: ``"accept"`` (the first bot is at least ``elo1`` stronger, at
error rate ``beta`` of missing it), ``"reject"`` (it is not better than
``elo0``, at error rate ``alpha`` of a false acceptance) or ``"continue"``.

>>> counts = pair_counts_of([(2, 0), (1, 1), (0, 2), (2, 0), (1.5, 0.5), (1, 1)])  # each bot's points a pair
>>> counts
(1, 0, 2, 1, 2)
>>> elo, low, high = elo_interval(counts)
>>> round(elo), round(low), round(high)
(89, -109, 385)
>>> lower, upper = sprt_bounds(0.05, 0.05)
>>> round(lower, 3), round(upper, 3)
(-2.944, 2.944)
>>> llr = sprt_llr(counts, 0, 20)
>>> round(llr, 3), sprt_decision(llr, 0.05, 0.05)
(0.137, 'continue')

``benchmarks/sprt.py`` plays such a test between any two bots on many
processes (see the strength page of the documentation).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from statistics import NormalDist

from ._core.messages import brief
from ._play.report import GameResult

__all__ = [
    "elo_interval",
    "elo_to_score",
    "game_counts",
    "los",
    "pair_counts",
    "pair_counts_of",
    "score_to_elo",
    "sprt_bounds",
    "sprt_decision",
    "sprt_llr",
]

#: What an empty category counts as where the counts alone cannot be fitted (see :func:`sprt_llr`).
_PRIOR = 1e-3


def elo_to_score(elo: float) -> float:
    """The expected score (a win 1, a draw 1/2) of a player ``elo`` points stronger: ``1 / (1 + 10 ** (-elo / 400))``.

    >>> elo_to_score(0), round(elo_to_score(100), 4), round(elo_to_score(-100), 4)
    (0.5, 0.6401, 0.3599)

    :raises TypeError: if ``elo`` is not a number.
    """
    _number("elo", elo)
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def score_to_elo(score: float) -> float:
    """The Elo difference an expected score means: the inverse of :func:`elo_to_score` (infinite at 0 and 1).

    >>> round(score_to_elo(0.75), 1), score_to_elo(0.5), score_to_elo(1.0)
    (190.8, 0.0, inf)

    :raises TypeError: if ``score`` is not a number.
    :raises ValueError: if ``score`` is not between 0 and 1.
    """
    _number("score", score)
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must be between 0 and 1, got {brief(score)}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def _number(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise TypeError(f"{name} must be a number, got {brief(value)}")


def _counts(counts: object) -> tuple[float, ...]:
    """The counts checked: at least two, each a number at least 0."""
    if isinstance(counts, (str, bytes)) or not isinstance(counts, Sequence) or len(counts) < 2:
        raise TypeError(f"counts must be a sequence of at least two numbers, got {brief(counts)}")
    for c in counts:
        _number("a count", c)
        if c < 0 or math.isinf(c):
            raise ValueError(f"counts must be finite and at least 0, got {brief(counts)}")
    return tuple(float(c) for c in counts)


def _points(k: int) -> tuple[float, ...]:
    """The score of each category of ``k`` counts, per game: 0, ..., 1 evenly spaced."""
    return tuple(j / (k - 1) for j in range(k))


def pair_counts_of(pairs: Iterable[tuple[float, float]]) -> tuple[int, int, int, int, int]:
    """The pentanomial of deal pairs given as the points ``(a, b)`` each bot made in the pair (2 in all).

    Index ``i`` counts the pairs in which the first bot made ``i / 2`` points.

    >>> pair_counts_of([(2, 0), (1.5, 0.5), (1, 1), (1, 1)])
    (0, 0, 2, 1, 1)

    :raises ValueError: if a pair's points are not two of 0, 1/2, 1, 3/2, 2 adding up to 2.
    """
    found = [0, 0, 0, 0, 0]
    for pair in pairs:
        try:
            a, b = pair
            index = round(2 * a)
        except (TypeError, ValueError):
            raise ValueError(f"a pair must be the two bots' points, got {brief(pair)}") from None
        if a + b != 2 or not 0 <= index <= 4 or index != 2 * a:
            raise ValueError(f"a pair's points must be two halves adding up to 2, got {brief(pair)}")
        found[index] += 1
    return (found[0], found[1], found[2], found[3], found[4])


def _points_of(result: GameResult) -> float:
    return 0.5 if result.winner is None else 1.0 if result.winner == 0 else 0.0


def pair_counts(results: Iterable[GameResult]) -> tuple[int, int, int, int, int]:
    """The pentanomial of a simulation's games (``SimulationReport.results``), for its first bot.

    The games are paired by deal (:func:`~crapette.simulation.simulate` plays
    each deal twice, seats swapped); a deal with only one game counted (a
    simulation cut short) is left out.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> from crapette.simulation import simulate
    >>> pair_counts(simulate("classic", (GreedyBot(), RandomBot(seed=1)), games=6).results)
    (0, 0, 0, 0, 3)

    :raises ValueError: if a deal was played more than twice.
    """
    by_deal: dict[int, list[float]] = {}
    for result in results:
        by_deal.setdefault(result.deal, []).append(_points_of(result))
    pairs = []
    for deal, points in by_deal.items():
        if len(points) > 2:
            raise ValueError(f"deal {deal} was played {len(points)} times: pairs need two games a deal")
        if len(points) == 2:
            pairs.append((points[0] + points[1], 2 - points[0] - points[1]))
    return pair_counts_of(pairs)


def game_counts(results: Iterable[GameResult]) -> tuple[int, int, int]:
    """The trinomial of a simulation's games for its first bot: ``(lost, drawn, won)``.

    >>> from crapette.bots import GreedyBot, RandomBot
    >>> from crapette.simulation import simulate
    >>> game_counts(simulate("classic", (RandomBot(seed=1), GreedyBot()), games=4).results)
    (4, 0, 0)
    """
    found = [0, 0, 0]
    for result in results:
        found[round(2 * _points_of(result))] += 1
    return (found[0], found[1], found[2])


def _moments(counts: tuple[float, ...]) -> tuple[float, float, float]:
    """The number of samples, the mean score a game and the variance of a sample's score."""
    points = _points(len(counts))
    n = sum(counts)
    if n == 0:
        return 0.0, 0.5, 0.0
    mean = sum(c * a for c, a in zip(counts, points)) / n
    variance = sum(c * (a - mean) ** 2 for c, a in zip(counts, points)) / n
    return n, mean, variance


def elo_interval(counts: Sequence[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """The Elo difference of the mean score of ``counts`` and its ``confidence`` interval: ``(elo, low, high)``.

    ``counts`` is a pentanomial (five counts of pairs, :func:`pair_counts`),
    a trinomial (lost, drawn, won: :func:`game_counts`), or any number of
    evenly spaced score categories from 0 to 1. The interval is the normal one
    of the mean score (its standard error from the samples' own variance,
    which for pairs takes in what the pairing cancels), its ends turned into
    Elo; a score of 0 or 1 is infinitely many Elo.

    >>> [round(x) for x in elo_interval((10, 30, 20))]   # 10 lost, 30 drawn, 20 won
    [58, -3, 123]
    >>> [round(x) for x in elo_interval((0, 3, 17, 7, 3))]  # 30 pairs with the same score
    [58, 9, 111]
    >>> elo_interval((0, 0, 0))
    (0.0, -inf, inf)

    :raises TypeError: if ``counts`` is not a sequence of at least two numbers.
    :raises ValueError: if a count is below 0 or ``confidence`` is not between 0 and 1.
    """
    checked = _counts(counts)
    _number("confidence", confidence)
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {brief(confidence)}")
    n, mean, variance = _moments(checked)
    if n == 0:
        return 0.0, -math.inf, math.inf
    spread = NormalDist().inv_cdf(0.5 + confidence / 2) * math.sqrt(variance / n)
    return (
        score_to_elo(mean),
        score_to_elo(max(0.0, mean - spread)),
        score_to_elo(min(1.0, mean + spread)),
    )


def los(counts: Sequence[float]) -> float:
    """The likelihood of superiority: the chance that the first bot is the stronger, given ``counts``.

    The normal approximation ``Phi((mean - 1/2) / standard error)``, from
    the counts as :func:`elo_interval` reads them; 0.5 without a result.

    >>> round(los((10, 30, 20)), 3), round(los((0, 3, 17, 7, 3)), 3), los((3, 0, 3))
    (0.97, 0.99, 0.5)

    :raises TypeError: if ``counts`` is not a sequence of at least two numbers.
    :raises ValueError: if a count is below 0.
    """
    n, mean, variance = _moments(_counts(counts))
    if n == 0 or mean == 0.5:
        return 0.5
    if variance == 0:
        return 1.0 if mean > 0.5 else 0.0
    return NormalDist().cdf((mean - 0.5) / math.sqrt(variance / n))


def _fitted(freqs: Sequence[float], points: Sequence[float], score: float) -> list[float]:
    """The multinomial closest to ``freqs`` (in likelihood) whose mean is ``score``.

    The maximum-likelihood probabilities under the constraint are
    ``freqs[j] / (1 + lam * (points[j] - score))``, with ``lam`` the root of
    ``sum(freqs[j] * (points[j] - score) / (1 + lam * (points[j] - score)))``,
    a decreasing function on the interval where every denominator is
    positive. ``freqs`` must hold a point below ``score`` and one above it.
    """
    gaps = [a - score for a in points]
    low = max((-1.0 / g for f, g in zip(freqs, gaps) if f > 0 and g > 0), default=-math.inf)
    high = min((-1.0 / g for f, g in zip(freqs, gaps) if f > 0 and g < 0), default=math.inf)

    def slope(lam: float) -> float:
        return sum(f * g / (1.0 + lam * g) for f, g in zip(freqs, gaps) if f > 0)

    for _ in range(200):
        mid = (low + high) / 2
        if slope(mid) > 0:
            low = mid
        else:
            high = mid
        if high - low <= 1e-15 * max(1.0, abs(mid)):
            break
    lam = (low + high) / 2
    return [f / (1.0 + lam * g) if f > 0 else 0.0 for f, g in zip(freqs, gaps)]


def sprt_llr(counts: Sequence[float], elo0: float, elo1: float) -> float:
    """The log-likelihood ratio of ``elo = elo1`` against ``elo = elo0`` for ``counts``: the GSPRT's.

    ``counts`` are as :func:`elo_interval` reads them: a pentanomial of deal
    pairs (what a paired match should be tested by), a trinomial of games, or
    any evenly spaced score categories. Each hypothesis is the multinomial
    of the categories that fits the counts best (maximum likelihood) with the
    mean score its Elo means (:func:`elo_to_score`); the ratio is the
    log-likelihood of the counts under the one less that under the other. It
    grows with the counts and with the score: positive above the midpoint of
    the two scores, negative below. Where the counts leave no category on one
    side of a hypothesis's score (every pair won, say), each empty category
    counts as 1/1000 of a sample so that one can be fitted.

    With only wins and losses it is Wald's test of a coin, ``won * log(s1 / s0)
    + lost * log((1 - s1) / (1 - s0))``:

    >>> s0, s1 = elo_to_score(0), elo_to_score(20)
    >>> round(sprt_llr((40, 0, 60), 0, 20), 6) == round(60 * math.log(s1 / s0) + 40 * math.log((1 - s1) / (1 - s0)), 6)
    True
    >>> round(sprt_llr((5, 40, 100, 50, 5), 0, 10), 3), round(sprt_llr((5, 40, 100, 50, 5), -10, 0), 3)
    (0.375, 1.373)
    >>> sprt_llr((0, 0, 0, 0, 0), 0, 10)
    0.0

    :raises TypeError: if ``counts`` is not a sequence of at least two numbers, or an Elo not a number.
    :raises ValueError: if a count is below 0, or ``elo0`` is not below ``elo1``.
    """
    checked = _counts(counts)
    _number("elo0", elo0)
    _number("elo1", elo1)
    if not elo0 < elo1:
        raise ValueError(f"elo0 must be below elo1, got elo0={brief(elo0)}, elo1={brief(elo1)}")
    n = sum(checked)
    if n == 0:
        return 0.0
    points = _points(len(checked))
    s0, s1 = elo_to_score(elo0), elo_to_score(elo1)
    seen = [a for c, a in zip(checked, points) if c > 0]
    freqs = list(checked)
    if not (min(seen) < s0 < max(seen) and min(seen) < s1 < max(seen)):
        freqs = [c if c > 0 else _PRIOR for c in checked]
    total = sum(freqs)
    freqs = [f / total for f in freqs]
    p0 = _fitted(freqs, points, s0)
    p1 = _fitted(freqs, points, s1)
    return sum(c * math.log(a / b) for c, a, b in zip(checked, p1, p0) if c > 0)


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> tuple[float, float]:
    """Wald's bounds of the log-likelihood ratio: ``(log(beta / (1 - alpha)), log((1 - beta) / alpha))``.

    ``alpha`` is the chance of accepting a change that is no better than
    ``elo0``, ``beta`` that of rejecting one that is ``elo1`` better.

    >>> [round(b, 3) for b in sprt_bounds(0.05, 0.05)], [round(b, 3) for b in sprt_bounds(0.05, 0.1)]
    ([-2.944, 2.944], [-2.251, 2.89])

    :raises TypeError: if ``alpha`` or ``beta`` is not a number.
    :raises ValueError: if they are not between 0 and 1 or add up to 1 or more.
    """
    for name, value in (("alpha", alpha), ("beta", beta)):
        _number(name, value)
        if not 0.0 < value < 1.0:
            raise ValueError(f"{name} must be between 0 and 1, got {brief(value)}")
    if alpha + beta >= 1.0:
        raise ValueError(f"alpha + beta must be below 1, got {alpha} + {beta}")
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(llr: float, alpha: float = 0.05, beta: float = 0.05) -> str:
    """Where a test stands: ``"accept"`` (H1, elo1) at or above the upper bound, ``"reject"`` (H0) at or below the lower, else ``"continue"``.

    >>> sprt_decision(3.0), sprt_decision(-3.0), sprt_decision(0.5)
    ('accept', 'reject', 'continue')

    :raises TypeError: if an argument is not a number.
    :raises ValueError: if ``alpha`` or ``beta`` is out of range (see :func:`sprt_bounds`).
    """
    _number("llr", llr)
    lower, upper = sprt_bounds(alpha, beta)
    if llr >= upper:
        return "accept"
    if llr <= lower:
        return "reject"
    return "continue"
