"""Matches: a sequence of scored games played to a target (:ref:`section 11 of the rules <rules-11>`)."""

from __future__ import annotations

from typing import Any

import attrs

from .messages import brief
from .rules import RuleSet, Scoring, to_rules
from .state import Outcome

__all__ = ["Match"]


def _outcomes(value: Any) -> tuple[Outcome, ...]:
    items = tuple(value)
    for item in items:
        if not isinstance(item, Outcome) or item.scores is None:
            raise ValueError(f"a match records scored Outcomes, got {brief(item)}")
    return items


@attrs.frozen
class Match:
    """A match: games are added one by one until a player reaches the target score.

    Players keep their numbers (0 and 1) for the whole match. Values are
    immutable: :meth:`add` returns a new match.

    >>> from crapette import EndReason, Outcome, RuleSet
    >>> match = Match.for_rules(RuleSet.classic())
    >>> match = match.add(Outcome(0, EndReason.EMPTIED, (120, 0)))
    >>> match.totals, match.winner
    ((120, 0), None)
    >>> match = match.add(Outcome(0, EndReason.EMPTIED, (31, 0)))
    >>> match.totals, match.winner, match.is_over
    ((151, 0), 0, True)

    :raises ValueError: if an outcome has no scores.
    """

    scoring: Scoring
    outcomes: tuple[Outcome, ...] = attrs.field(default=(), converter=_outcomes)

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.scoring, Scoring):
            raise ValueError(f"scoring must be a Scoring, got {brief(self.scoring)}")
        totals = [0, 0]
        for i, outcome in enumerate(self.outcomes):
            if max(totals) >= self.scoring.match_target:
                raise ValueError(f"outcome {i} comes after the match was already won")
            assert outcome.scores is not None
            totals[0] += outcome.scores[0]
            totals[1] += outcome.scores[1]

    @classmethod
    def for_rules(cls, rules: RuleSet | str) -> Match:
        """An empty match under the scoring of ``rules`` (a :class:`~crapette.RuleSet` or a rules text).

        >>> Match.for_rules("classic").scoring.match_target
        150

        :raises ValueError: if the rules have no scoring (casual games are not scored).
        :raises TypeError: if ``rules`` is neither a :class:`~crapette.RuleSet` nor a str.
        """
        rules = to_rules(rules, "Match.for_rules()")
        if rules.scoring is None:
            raise ValueError("these rules have no scoring, so there is no match to play")
        return cls(rules.scoring)

    def add(self, outcome: Outcome) -> Match:
        """The match with ``outcome`` added.

        :raises ValueError: if the match is already over or the outcome has no scores.
        """
        if self.is_over:
            raise ValueError(f"the match is over: player {self.winner} has won it")
        return Match(self.scoring, self.outcomes + (outcome,))

    @property
    def totals(self) -> tuple[int, int]:
        """Points so far, per player."""
        totals = [0, 0]
        for outcome in self.outcomes:
            assert outcome.scores is not None
            totals[0] += outcome.scores[0]
            totals[1] += outcome.scores[1]
        return (totals[0], totals[1])

    @property
    def winner(self) -> int | None:
        """The player who reached the target first, or None while the match goes on."""
        totals = self.totals
        for player in (0, 1):
            if totals[player] >= self.scoring.match_target:
                return player
        return None

    @property
    def is_over(self) -> bool:
        """True once a player has reached the target."""
        return self.winner is not None
