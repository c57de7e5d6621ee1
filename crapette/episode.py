"""One episode of Crapette for a learning agent: what the three RL adapters share, written once.

:class:`Episode` is an immutable value: a game under :class:`EpisodeSettings`
(the rules, the move cap that truncates, the turn cap that forfeits, the kind
of reward, what an illegal action earns), stepped by action numbers or moves.
The Gymnasium, PettingZoo and OpenSpiel adapters hold one and ask it
everything an episode decides: when it ends and how (terminated, truncated,
forfeited, an illegal action), what each player earns, and the ``info`` they
report, with the same keys and values in all three. Needs no NumPy.

>>> episode = Episode.start(EpisodeSettings.of("casual", max_moves=2), deal=1)
>>> episode = episode.act(27).act(900)   # T1-T0, then draw
>>> episode.truncated, episode.returns(), episode.info(0)
(True, (0.0, 0.0), {'deal': 1, 'seat': 0, 'illegal_action': False, 'forfeit': None})

The reward functions (:func:`rewards`, :func:`forfeit`, :func:`score_scale`)
lived in :mod:`crapette.observation` before 0.3.0, which still offers them.

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import difflib
import math
import operator
import warnings
from collections.abc import Collection, Mapping
from typing import Any

import attrs

from ._core.checks import check_int, check_seed
from ._core.engine import apply_move, legal_moves, new_game
from ._core.messages import brief
from ._core.moves import Move
from ._core.outcome import Outcome
from ._core.rules import RuleSet, to_rules
from ._core.state import GameState
from ._formats.actions import NUM_ACTIONS, action_to_move
from .errors import IllegalMoveError
from .protocol import DEFAULT_MAX_MOVES, Crapette, points_difference, win_loss

__all__ = [
    "DEFAULT_TURN_MOVES",
    "REWARD_KINDS",
    "Episode",
    "EpisodeSettings",
    "action_move",
    "check_deal",
    "check_reset_options",
    "check_seat",
    "forfeit",
    "rewards",
    "score_scale",
]

#: The kinds of reward the adapters give (their ``rewards`` argument), the first the default.
REWARD_KINDS: tuple[str, ...] = ("win", "score", "points")
#: How many moves one player may make in one turn in the adapters unless told otherwise (``max_turn_moves``).
DEFAULT_TURN_MOVES = 200
#: Every card of both decks: what bounds a score (see :func:`score_scale`).
_CARDS = 104


def score_scale(rules: RuleSet) -> float:
    """What divides a score difference under ``rewards="score"``: the most a game can score, 1 without scoring.

    It is the winner's points with all 104 cards left to the loser in each of
    reserve, hand and waste, more than any game can score, so that a scaled
    difference lies within -1 and 1 (the bounds of OpenSpiel's utility).

    >>> score_scale(RuleSet.classic()), score_scale(RuleSet.casual())
    (446.0, 1.0)
    """
    if rules.scoring is None:
        return 1.0
    return float(rules.scoring.points_for_win(reserve=_CARDS, hand=_CARDS, waste=_CARDS))


def _check_kind(kind: object) -> str:
    if kind not in REWARD_KINDS:
        raise ValueError(f"rewards must be one of {', '.join(map(repr, REWARD_KINDS))}, got {kind!r}")
    return str(kind)


def rewards(outcome: Outcome, kind: str = "win", *, rules: RuleSet | None = None) -> tuple[float, float]:
    """What each player (0, then 1) earns for a game that ended with ``outcome``: the rewards of the adapters.

    ``kind`` is one of :data:`REWARD_KINDS`:

    ``"win"`` (the default)
        1 for a win, -1 for a loss, 0 for a draw
        (:func:`crapette.protocol.win_loss`). A game settled by penalties is
        won by the side with the lower penalty.
    ``"score"``
        the score difference (each player's points minus the opponent's)
        divided by :func:`score_scale` of ``rules``, so within -1 and 1;
        without scoring the same as ``"win"``. ``rules`` must be given.
    ``"points"``
        the score difference as it is, in points: Crapette's returns
        (``Crapette.game_type.payoff``, :func:`crapette.protocol.points_difference`);
        without scoring the same as ``"win"``.

    The rewards always add up to 0.

    >>> from crapette import EndReason, Outcome
    >>> lost = Outcome(winner=1, reason=EndReason.EMPTIED, scores=(0, 53))
    >>> rewards(lost), rewards(lost, "points")
    ((-1.0, 1.0), (-53.0, 53.0))
    >>> [round(r, 4) for r in rewards(lost, "score", rules=RuleSet.classic())]
    [-0.1188, 0.1188]
    >>> rewards(Outcome(winner=None, reason=EndReason.BLOCKED))
    (0.0, 0.0)

    :raises TypeError: if ``outcome`` is not an :class:`~crapette.Outcome`.
    :raises ValueError: if ``kind`` is unknown, or ``"score"`` without ``rules``.
    """
    if not isinstance(outcome, Outcome):
        raise TypeError(f"rewards() expects an Outcome, got {type(outcome).__name__}")
    kind = _check_kind(kind)
    if kind == "win":
        first, second = win_loss(outcome)
    else:
        first, second = points_difference(outcome)
        if kind == "score" and outcome.scores is not None:
            if not isinstance(rules, RuleSet):
                raise ValueError('rewards(outcome, "score") needs the rules: rewards(outcome, "score", rules=...)')
            scale = score_scale(rules)
            first, second = first / scale, second / scale
    return (first + 0.0, second + 0.0)


def forfeit(loser: int, kind: str = "win", *, rules: RuleSet | None = None) -> tuple[float, float]:
    """The rewards of a game that ``loser`` forfeits by making too many moves in one turn (the adapters' turn cap).

    The loser earns what the worst loss earns: -1 under ``"win"`` and
    ``"score"``, minus :func:`score_scale` points under ``"points"``; the
    opponent the opposite.

    >>> forfeit(0), forfeit(1, "points", rules=RuleSet.classic())
    ((-1.0, 1.0), (446.0, -446.0))

    :raises ValueError: if ``loser`` is not 0 or 1 or ``kind`` is unknown.
    """
    if loser not in (0, 1):
        raise ValueError(f"loser must be 0 or 1, got {loser!r}")
    worst = -1.0
    if _check_kind(kind) == "points" and rules is not None:
        worst = -score_scale(rules)
    return (worst, -worst) if loser == 0 else (-worst, worst)


def action_move(action: object) -> Move:
    """The move an agent's action number stands for, as the environments read a step's action.

    Any integer type will do (NumPy's too). A number outside ``0`` to
    ``NUM_ACTIONS - 1`` names no move: it is an illegal action, as a move the
    position does not allow is, so that a step never fails on a number alone.

    >>> action_move(900)
    parse_move('draw')
    >>> action_move(903)
    Traceback (most recent call last):
    ...
    crapette.IllegalMoveError: action 903 is no move: actions are 0 to 902

    :raises IllegalMoveError: if the number is out of range.
    :raises TypeError: if ``action`` is not an integer (a bool is not).
    """
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise TypeError(f"an action is an integer, got {type(action).__name__}")
    number = operator.index(action)
    if not 0 <= number < NUM_ACTIONS:
        raise IllegalMoveError(f"action {brief(number)} is no move: actions are 0 to {NUM_ACTIONS - 1}")
    return action_to_move(number)


def _check_reward(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"illegal_reward must be a number or None, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"illegal_reward must be finite, got {value!r}")
    return float(value)


@attrs.frozen
class EpisodeSettings:
    """What an environment is made with: the rules played, and how an episode ends and pays.

    Made by :meth:`of`, which checks every argument as the adapters take them.
    """

    #: The rules played.
    rules: RuleSet
    #: A game the rules have not ended is cut off (truncated) after this many moves in all.
    max_moves: int = DEFAULT_MAX_MOVES
    #: A player who makes this many moves in one turn forfeits (None: no cap).
    max_turn_moves: int | None = DEFAULT_TURN_MOVES
    #: The kind of reward: one of :data:`REWARD_KINDS`.
    rewards: str = "win"
    #: What an illegal action earns, ending the episode; None: it raises :class:`~crapette.IllegalMoveError`.
    illegal_reward: float | None = -1.0

    @classmethod
    def of(
        cls,
        rules: object = "classic",
        *,
        max_moves: object = DEFAULT_MAX_MOVES,
        max_turn_moves: object = DEFAULT_TURN_MOVES,
        revisits: object = False,
        rewards: object = "win",
        illegal_reward: object = -1.0,
    ) -> EpisodeSettings:
        """The settings, each argument checked: ``rules`` a :class:`~crapette.RuleSet` or its text, played with ``revisits`` as given.

        >>> EpisodeSettings.of("classic").rules.revisits
        False

        :raises TypeError: if an argument has the wrong type.
        :raises ValueError: if ``max_moves`` or ``max_turn_moves`` is below 1, or ``rewards`` unknown.
        """
        ruleset = to_rules(rules, "the environment")
        if not isinstance(revisits, bool):
            raise TypeError(f"revisits must be True or False, got {revisits!r}")
        if ruleset.revisits is not revisits:
            ruleset = attrs.evolve(ruleset, revisits=revisits)
        return cls(
            ruleset,
            check_int("max_moves", max_moves, 1),
            None if max_turn_moves is None else check_int("max_turn_moves", max_turn_moves, 1),
            _check_kind(rewards),
            _check_reward(illegal_reward),
        )


@attrs.frozen
class Episode:
    """A game as an episode: its state, the moves of the turn so far, and how the episode ended.

    Immutable: :meth:`act` and :meth:`play` return the next episode. The
    episode is *terminated* when the rules end the game, when a player
    forfeits by making ``max_turn_moves`` moves in one turn, or after an
    illegal action that earns ``illegal_reward``; it is *truncated* when it
    reaches ``max_moves`` moves otherwise, settled by the rules' penalties as
    every ending but a win is (:meth:`crapette.protocol.Crapette.cut_short`).

    >>> episode = Episode.start(EpisodeSettings.of("casual"), deal=1)
    >>> after = episode.act(901)   # End turn: casual has none
    >>> after.terminated, after.illegal, after.returns()
    (True, 0, (-1.0, 0.0))
    """

    #: How the episode ends and pays.
    settings: EpisodeSettings
    #: The number of the game dealt (the seed of :func:`~crapette.new_game`); None for a deal made
    #: otherwise (OpenSpiel deals the cards at its chance nodes).
    deal: int | None
    #: The game.
    state: GameState
    #: The moves the player to move has made in this turn.
    turn_moves: int = 0
    #: The player who forfeited by making too many moves in one turn, or None.
    forfeit: int | None = None
    #: The player who made an illegal action (which ended the episode), or None.
    illegal: int | None = None

    @classmethod
    def start(cls, settings: EpisodeSettings, deal: int) -> Episode:
        """The episode of game ``deal`` (a seed of :func:`~crapette.new_game`).

        :raises ValueError: if ``deal`` is not a valid seed.
        """
        return cls(settings, deal, new_game(settings.rules, check_deal(deal)))

    @property
    def terminated(self) -> bool:
        """True once the game ended, a player forfeited, or an action was illegal."""
        return self.state.outcome is not None or self.forfeit is not None or self.illegal is not None

    @property
    def truncated(self) -> bool:
        """True once the episode reached ``max_moves`` moves without terminating."""
        return not self.terminated and self.state.move_count >= self.settings.max_moves

    @property
    def over(self) -> bool:
        """True once the episode is terminated or truncated."""
        return self.terminated or self.truncated

    def act(self, action: object, *, who: str = "") -> Episode:
        """The episode after the action number ``action`` (any integer type) for the player to move.

        A number that is no legal move, out of range included, is an illegal action (see :meth:`play`);
        ``who`` names the agent in the error raised for one (``"of player_0"``).

        :raises TypeError: if ``action`` is not an integer.
        :raises IllegalMoveError: for an illegal action, if ``illegal_reward`` is None.
        :raises RuntimeError: if the episode is over.
        """
        try:
            move = action_move(action)
        except IllegalMoveError as error:
            return self._illegal(error, f"{operator.index(action)} {who}".rstrip())  # type: ignore[arg-type]
        return self.play(move, action=f"{operator.index(action)} {who}".rstrip())  # type: ignore[arg-type]

    def play(self, move: Move, *, action: object = None, strict: bool = False) -> Episode:
        """The episode after ``move`` for the player to move.

        An illegal move ends the episode earning ``illegal_reward`` (and 0 to
        the other player); with ``illegal_reward=None``, or ``strict`` (a
        bot's move, which must be legal), it raises.

        :raises IllegalMoveError: for an illegal move, if ``illegal_reward`` is None or ``strict``.
        :raises RuntimeError: if the episode is over.
        """
        if self.over:
            raise RuntimeError("the episode is over: deal a new game")
        before = self.state
        try:
            state = apply_move(before, move)
        except IllegalMoveError as error:
            if strict:
                raise
            return self._illegal(error, action)
        if state.current_player != before.current_player:
            return attrs.evolve(self, state=state, turn_moves=0)
        turn = self.turn_moves + 1
        cap = self.settings.max_turn_moves
        loser = before.current_player if cap is not None and turn >= cap and state.outcome is None else None
        return attrs.evolve(self, state=state, turn_moves=turn, forfeit=loser)

    def _illegal(self, error: IllegalMoveError, action: object) -> Episode:
        if self.over:
            raise RuntimeError("the episode is over: deal a new game")
        if self.settings.illegal_reward is None:
            what = "" if action is None else f"action {action}: "
            raise IllegalMoveError(f"{what}{error}", move=error.move, reason=error.reason) from None
        return attrs.evolve(self, illegal=self.state.current_player)

    def returns(self) -> tuple[float, float]:
        """What each player (0, then 1) earns: 0 each until the episode is over.

        Then :func:`rewards` of the game's outcome (of the outcome the rules'
        penalties give a truncated game), :func:`forfeit` of a forfeit, or
        ``illegal_reward`` to the player who made an illegal action (0 to the other).
        """
        settings = self.settings
        if self.illegal is not None:
            penalty = settings.illegal_reward or 0.0
            return (penalty, 0.0) if self.illegal == 0 else (0.0, penalty)
        if self.forfeit is not None:
            return forfeit(self.forfeit, settings.rewards, rules=settings.rules)
        outcome = self.state.outcome
        if outcome is None:
            if not self.truncated:
                return (0.0, 0.0)
            outcome = Crapette.cut_short(self.state)
        return rewards(outcome, settings.rewards, rules=settings.rules)

    def info(self, seat: int) -> dict[str, Any]:
        """What every adapter reports of the episode to the player ``seat``: the same keys and values in all three.

        ``deal`` (the game's number), ``seat``, ``illegal_action`` (whether the
        episode ended by an illegal action) and ``forfeit`` (the player who
        forfeited, or None).
        """
        return {"deal": self.deal, "seat": seat, "illegal_action": self.illegal is not None, "forfeit": self.forfeit}

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the player to move: none once the episode is over."""
        return () if self.over else legal_moves(self.state)


def check_deal(value: object) -> int:
    """A deal number (as ``reset(options={"deal": ...})`` takes it): a seed for :func:`~crapette.new_game`.

    :raises ValueError: if it is not an int from 0 to 2**64 - 1 (NumPy's integers too).
    """
    return check_seed(value, 'options["deal"] (a deal number: the seed of new_game)')


def check_seat(seat: object, name: str = "seat", modes: tuple[str, ...] = ()) -> int | str:
    """A seat: 0 or 1 as any integer type (NumPy's too, not a bool), or one of ``modes``.

    >>> check_seat(1), check_seat("alternate", modes=("alternate",))
    (1, 'alternate')

    :raises TypeError: if ``seat`` is neither an integer nor a str.
    :raises ValueError: if it is another integer or str.
    """
    expected = f"{name} must be 0, 1{''.join(f', {m!r}' for m in modes)}, got {seat!r}"
    if isinstance(seat, str):
        if seat in modes:
            return seat
        raise ValueError(expected)
    if isinstance(seat, bool) or type(seat).__name__ == "bool_" or not hasattr(seat, "__index__"):
        raise TypeError(expected)
    number = operator.index(seat)
    if number not in (0, 1):
        raise ValueError(expected)
    return number


def check_reset_options(
    options: object, known: Mapping[str, str], *, warn_unknown: bool = False, ignore: Collection[str] = ()
) -> Mapping[str, Any]:
    """The options given to ``reset()``: a mapping whose every key is one of ``known`` (name: what it is).

    Options that are not a mapping are a TypeError; an unknown key a
    ValueError naming it (and the closest known one), or with
    ``warn_unknown`` a UserWarning unless it is close to a known one. The
    keys in ``ignore`` are passed over in silence (PettingZoo's ``api_test``
    resets with ``options={"options": 1}``, only to see that ``reset`` takes
    the argument).

    >>> check_reset_options({"deal": 3}, {"deal": "a deal number"})
    {'deal': 3}
    """
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise TypeError(
            f"reset() options must be a dict such as {{{next(iter(known))!r}: ...}} or None, got {brief(options)}"
        )
    known_text = ", ".join(f"{name!r} ({what})" for name, what in known.items())
    for key in options:
        if key in known or key in ignore:
            continue
        close = difflib.get_close_matches(str(key), list(known), n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        message = f"unknown reset() option {brief(key)}{hint}: the options are {known_text}"
        if warn_unknown and not close:
            warnings.warn(message + "; it is ignored", UserWarning, stacklevel=3)
        else:
            raise ValueError(message)
    return options
