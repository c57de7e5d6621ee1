"""Rule variants that other Crapette programs play, written as rule parts of the public API.

Each part here is an ordinary user-written part: a subclass of
:class:`~crapette.FirstPlayer`, :class:`~crapette.Build`,
:class:`~crapette.Scoring` or :class:`~crapette.Ending`, registered by name
with :func:`~crapette.register`. crapette imports this module itself, so the
names below can be read in any rules text. The other variants the peers play
are options of :class:`~crapette.RuleSet`: ``drawn_first`` (the drawn card
must be dealt with before any other move) and ``stack_limit="unlimited"``
(runs of any length move as one).

=================================  =============================================================
the higher reserve card starts     ``first_player=higher-reserve`` (:class:`HigherReserve`)
a seeded random first player       ``first_player=random`` (:class:`RandomFirstPlayer`)
loading wraps King-Ace             ``load_build=suit-up-or-down-wrap`` (:class:`SuitUpOrDownWrap`)
no-progress stalemate              ``endings=no-progress:20`` (:class:`NoProgress`)
one point per card left            ``scoring=weighted:0:1:1:1:150`` (:data:`CARDS_LEFT`)
the drawn card first               ``drawn_first=true`` (an option)
runs of any length move as one     ``stack_limit=unlimited`` (an option)
=================================  =============================================================

>>> from crapette import new_game, parse_rules
>>> rules = parse_rules("classic(first_player=higher-reserve,load_build=suit-up-or-down-wrap)")
>>> rules.first_player, rules.load_build
(HigherReserve(), SuitUpOrDownWrap())
>>> new_game(rules, seed=7).current_player   # the kings tie; the jack beats the six
0

.. versionadded:: 0.2.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from ._core.cards import Card, splitmix64
from ._core.messages import brief
from ._core.moves import Move, Play
from ._core.parts import Build, Ending, FirstPlayer, Scoring, register
from ._core.state import GameState, Pile
from .errors import InvalidRulesError

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["CARDS_LEFT", "HigherReserve", "NoProgress", "RandomFirstPlayer", "SuitUpOrDownWrap"]


@register
class HigherReserve(FirstPlayer):
    """The player whose reserve top card has the higher rank starts; ties go to the tableau cards in dealing order, then player 0.

    >>> from crapette import new_game, parse_rules
    >>> state = new_game(parse_rules("classic(first_player=higher-reserve)"), seed=1)
    >>> [str(r[-1]) for r in state.reserves], state.current_player
    (['3C0', 'JS1'], 1)
    """

    name = "higher-reserve"

    def who_starts(self, deal: GameState, seed: int) -> int:
        pairs = [(deal.reserves[0][-1], deal.reserves[1][-1])]
        pairs += [(deal.tableau[i][0], deal.tableau[4 + i][0]) for i in range(4)]
        for mine, theirs in pairs:
            if mine.rank != theirs.rank:
                return 0 if mine.rank > theirs.rank else 1
        return 0


#: Mixed into the seed so that the first player does not follow the deal's own numbers.
_FIRST_PLAYER_SALT = 0x6372617065747465  # "crapette"


@register
class RandomFirstPlayer(FirstPlayer):
    """A first player drawn from the game's seed: the same seed always gives the same one.

    The player is the lowest bit of the first number of SplitMix64 (the
    generator of :func:`~crapette.shuffled_deck`) started at ``seed`` XOR
    ``0x6372617065747465``. Part of the deal's contract, like the shuffle.

    >>> from crapette import new_game, parse_rules
    >>> rules = parse_rules("casual(first_player=random)")
    >>> [new_game(rules, seed=s).current_player for s in range(8)]
    [0, 0, 0, 0, 1, 1, 1, 1]
    """

    name = "random"

    def who_starts(self, deal: GameState, seed: int) -> int:
        return next(splitmix64(seed ^ _FIRST_PLAYER_SALT)) & 1


@register
class SuitUpOrDownWrap(Build):
    """The same suit, one rank up or down, and King and Ace follow each other: for loading that wraps.

    >>> from crapette import parse_card
    >>> SuitUpOrDownWrap().accepts(parse_card("KH0"), parse_card("AH1"))
    True
    """

    name = "suit-up-or-down-wrap"
    description = "up or down in suit, King and Ace next to each other"

    def accepts(self, below: Card, card: Card) -> bool:
        return card.suit is below.suit and (abs(card.rank - below.rank) in (1, 12))


def _positive(_inst: object, _attr: object, value: object) -> None:
    if type(value) is not int or not 1 <= value <= 10**9:
        raise InvalidRulesError(f"NoProgress turns must be an int from 1 to 10**9, got {brief(value)}")


@register
@attrs.frozen
class NoProgress(Ending):
    """The game ends as a stalemate after ``turns`` turns in a row in which no hand or reserve card was played.

    A play from a player's own reserve or waste is progress (a waste card came
    from the hand). The count is the number of turns ended since the last
    progress, the turn of that progress included; the game ends when it passes
    ``turns``. It may end at any move, not only at a turnover as the classic
    stalemate rule does.

    >>> from crapette import new_game, parse_rules
    >>> rules = parse_rules("classic(endings=no-progress:20)")
    >>> new_game(rules, seed=1).counters
    (0,)
    """

    name = "no-progress"
    turns: int = attrs.field(default=20, validator=_positive)

    @property
    def described(self) -> str:
        """Why the game ended, in words, naming the number of turns."""
        return f"no reserve or hand card was played for {self.turns} turns in a row"

    def update(self, count: int, before: GameState, move: Move, after: GameState) -> int:
        if type(move) is Play:
            player = before.current_player
            if move.source is Pile.reserve(player) or move.source is Pile.waste(player):
                return 0
        if after.current_player != before.current_player:
            return count + 1
        return count

    def ends(self, count: int, state: GameState) -> bool:
        return count > self.turns

    @classmethod
    def strategy(cls) -> SearchStrategy[NoProgress]:
        """Turns drawn from 1 to 30."""
        from hypothesis import strategies as st

        return st.builds(cls, turns=st.integers(min_value=1, max_value=30))


#: One point per card left, reserve included, and no bonus: the winner scores the loser's cards left.
CARDS_LEFT = Scoring(win_bonus=0, reserve_weight=1, hand_weight=1, waste_weight=1)
