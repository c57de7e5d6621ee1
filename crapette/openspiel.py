"""Crapette as an OpenSpiel game: ``pyspiel.load_game("crapette")``.

This module needs OpenSpiel: ``pip install "open_spiel>=1.6,<3" numpy`` (what the
``openspiel`` extra installs). Importing
it registers the game with ``pyspiel`` under the name ``crapette``; OpenSpiel's
algorithms and tools then take it like any of their own games:

>>> import pyspiel
>>> import crapette.openspiel
>>> game = pyspiel.load_game("crapette", {"rules": "casual", "max_moves": 200})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes()) == game.max_chance_outcomes() == 52
(True, True)
>>> for action in deal_actions(0):  # the chance nodes deal game 0: new_game("casual", 0)
...     state.apply_action(action)
>>> state.legal_actions(), [state.action_to_string(a) for a in state.legal_actions()]
([14, 27, 48, 900], ['T0-T7', 'T1-T0', 'T2-T3', 'draw'])
>>> state.information_state_tensor(0) == state.information_state_tensor(1)
False

The game is two-player, zero-sum, sequential, with imperfect information
(nobody sees the order of the face-down cards) and terminal rewards. Its
parameters:

``rules``
    the rules as a rules text (:func:`~crapette.parse_rules`): ``"classic"``
    (the default), ``"casual"``, or a preset with options, such as
    ``"classic(move_limit=150)"``. In a game string, where parentheses,
    commas and equals signs have a meaning of their own, write brackets,
    semicolons and colons instead:
    ``pyspiel.load_game("crapette(rules=classic[move_limit:150;stack_moves:false])")``.
    The game's own string (``str(game)``) uses that form.
``max_moves``
    the most moves a game may take (5000 by default, as in
    :mod:`crapette.simulation`; at most :data:`MAX_MOVES`).
``max_turn_moves``
    the most moves a player may make in one turn (200 by default; 0 for no
    cap): a player who makes that many forfeits the game.
``revisits``
    the ``revisits`` option of the rules played (False by default: a move may
    not recreate a position already reached in the same turn).
``rewards``
    ``"win"`` (the default: 1, -1 or 0), ``"score"`` (the score difference
    scaled into -1 to 1) or ``"points"`` (the score difference): see
    :func:`crapette.episode.rewards`.

A parameter out of range is a :class:`ValueError` (of the wrong type a
:class:`TypeError`) from :class:`CrapetteGame`; ``pyspiel.load_game`` itself
refuses a number that does not fit 32 bits before crapette sees it. Applying
an action to a terminal state, or a chance action that is not a card left to deal,
is a :class:`ValueError` too.

**The deal** is dealt card by card, as OpenSpiel's card games deal: the
first :data:`DEAL_NODES` nodes of the game are chance nodes, 51 for each deck
(player 0's first), each picking the next card of that deck in dealing order
uniformly among the cards not yet dealt (the action is the card's place in
:data:`~crapette.ALL_CARDS` within its deck, 0 to 51; the last card of a deck
follows). The game is then :func:`crapette.new_game(rules, 0, decks=...)
<crapette.new_game>` of those orders: the engine's own layout (reserve, four
tableau cards, hand) and first-player rule (a first-player rule of one's own
that draws from the seed sees seed 0). Every deal is equally likely, so what a
player has not seen is as uncertain as it can be: after the first observation
(ten cards face up) each deck still has 47 unseen cards in 47! ≈ 2.6 · 10^59
equally likely orders, and no list of deals to match the cards in sight
against. The deal is as secret as the generator that picks the chance
outcomes (OpenSpiel's sampler, or the caller's); :func:`deal_actions` gives the
actions that deal crapette's game ``seed``, for experiments on given deals.

**The end.** A game the rules end is terminal with the returns of
:func:`crapette.episode.rewards` (by default 1 for a win, -1 for a loss,
0 for a draw). OpenSpiel has no truncation: a game the rules have not ended
after ``max_moves`` moves (ruling R10) is terminal too, settled by the rules'
penalties as every ending but a win is (ruling R9; a draw without scoring).
Stalling never pays: with ``revisits`` off no move recreates a position of
the same turn, and a player who makes ``max_turn_moves`` moves in one turn
forfeits (returns -1 and 1, :attr:`CrapetteState.forfeit` names it).

**Observations.** Both players see the same cards (:ref:`section 12 of the rules <rules-12>`).
The observation tensor of a player is :func:`crapette.observation.encode` of
the state for that player (:data:`~crapette.observation.OBSERVATION_SIZE`
numbers); the observation string is the public view as text. The information
state adds what a player with perfect recall knows beyond the view: the
face-down cards it has seen and where they lie (the waste a player turned over
into the hand, a reserve card that a load covered). The information state
tensor is the observation tensor followed by four rows of 104 (the known cards
below the top of reserve 0 and of reserve 1, in hand 0, in hand 1), each
holding 1 over a card's position from the top of its pile (1 for the top), like the
rows of the observation. The information state string also says how many
moves the player to move has made in this turn, and which positions of the
turn ``revisits=false`` bars (as a digest), which decide the legal moves. That is all a player's past observations tell it, so
two histories that leave the same knowledge share an information state.
:meth:`CrapetteState.resample_from_infostate` deals the unseen cards afresh,
which IS-MCTS asks of an imperfect-information game, as the game's own chance
would deal them.

.. versionchanged:: 0.3.0
   The deal is dealt card by card; the ``deals`` parameter (a chance node over
   numbered deals, one of which the first observation gave away) is gone.

.. versionadded:: 0.2.0
"""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

import attrs

from crapette import (
    ALL_CARDS,
    NUM_ACTIONS,
    Card,
    GameState,
    RuleSet,
    action_to_move,
    legal_actions,
    new_game,
    shuffled_deck,
)
from crapette._core.checks import check_int
from crapette._core.messages import brief
from crapette._core.shapes import run_keys
from crapette._core.state import H0, R0
from crapette.protocol import DEFAULT_MAX_MOVES

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        'crapette.openspiel needs OpenSpiel: pip install "open_spiel>=1.6,<3" numpy (the openspiel extra of crapette)'
    ) from error

from crapette.episode import DEFAULT_TURN_MOVES, Episode, EpisodeSettings, score_scale
from crapette.observation import FIELDS, OBSERVATION_SIZE, encode

__all__ = [
    "DEAL_NODES",
    "GAME_TYPE",
    "MAX_MOVES",
    "CrapetteGame",
    "CrapetteObserver",
    "CrapetteState",
    "deal_actions",
]

#: The most moves the ``max_moves`` parameter may allow: OpenSpiel holds the game's length in a 32-bit int.
MAX_MOVES = 2**31 - 1
#: The chance nodes of a game: 51 cards of each deck (the last card of a deck follows).
DEAL_NODES = 102
_DECK = 52


def _check_bounded(name: str, value: object, high: int) -> int:
    """``value`` as the parameter ``name``, an int from 1 to ``high``."""
    count = check_int(name, value, 1)
    if count > high:
        raise ValueError(f"{name} must be at most {high:,}, got {brief(count)}")
    return count

_CARDS = 104
try:
    _CHANCE = int(pyspiel.PlayerId.CHANCE)
    _TERMINAL = int(pyspiel.PlayerId.TERMINAL)
except TypeError:  # a mock of pyspiel: the docs' build without OpenSpiel (docs/conf.py)
    _CHANCE, _TERMINAL = -1, -4
_KNOWN_SIZE = 4 * _CARDS
_DEFAULTS: dict[str, Any] = {
    "rules": "classic",
    "max_moves": DEFAULT_MAX_MOVES,
    "max_turn_moves": DEFAULT_TURN_MOVES,
    "revisits": False,
    "rewards": "win",
}

#: The game's type: what OpenSpiel knows of it before it is loaded.
GAME_TYPE = pyspiel.GameType(
    short_name="crapette",
    long_name="Crapette (Russian Bank)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _to_game_string(text: str) -> str:
    """A rules text as a game string can hold it: ``classic(a=1,b=2)`` as ``classic[a:1;b:2]``."""
    name, parenthesis, options = text.partition("(")
    if not parenthesis:
        return text
    items = options.removesuffix(")").split(",")
    return f"{name}[{';'.join(item.replace('=', ':', 1) for item in items)}]"


def _from_game_string(text: str) -> str:
    """The rules text a game string holds (see :func:`_to_game_string`); other texts are left as they are."""
    name, bracket, options = text.partition("[")
    if not bracket or not options.endswith("]"):
        return text
    items = options[:-1].split(";")
    return f"{name}({','.join(item.replace(':', '=', 1) for item in items)})"


class _Play(NamedTuple):
    """What a state holds: immutable, so a clone shares it (``copy.deepcopy`` returns it as is)."""

    settings: EpisodeSettings
    #: The game as an episode (how it ends and pays: crapette.episode); None at the chance nodes.
    episode: Episode | None
    #: The face-down cards a player with perfect recall has seen: bit ``card.index``.
    seen: int
    #: The cards dealt so far at the chance nodes (their indexes in ALL_CARDS), in dealing order, deck 0 first.
    dealt: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return self

    @property
    def game(self) -> GameState | None:
        return None if self.episode is None else self.episode.state

    @property
    def player(self) -> int:
        """The OpenSpiel player to move: 0 or 1, _CHANCE or _TERMINAL."""
        episode = self.episode
        if episode is None:
            return _CHANCE
        return _TERMINAL if episode.over else episode.state.current_player

    @property
    def turn_moves(self) -> int:
        return 0 if self.episode is None else self.episode.turn_moves


def _visible_bits(state: GameState) -> int:
    """The cards face up in ``state``: bit ``card.index`` for each."""
    bits = 0
    for pile in state.piles[:R0]:  # the foundations and the tableau
        for card in pile:
            bits |= 1 << card.index
    return bits | _top_bits(state)


def _top_bits(state: GameState) -> int:
    # A face-down card comes face up only as the top of a reserve or of a waste
    # (a draw); every other face-up card was face up before the move.
    bits = 0
    for pile in (*state.reserves, *state.wastes):
        if pile:
            bits |= 1 << pile[-1].index
    return bits


class CrapetteGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel ships no type information
    """The game of Crapette for OpenSpiel; ``pyspiel.load_game("crapette", params)`` makes one.

    :param params: the game's parameters (see the module's documentation);
        those left out take their default.
    :raises TypeError: if a parameter has the wrong type.
    :raises ValueError: if a parameter is unknown or out of range.
    :raises crapette.ParseError: if the rules' text cannot be read.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        unknown = sorted(set(given) - set(_DEFAULTS))
        if unknown:
            raise ValueError(f"unknown parameter(s) {', '.join(unknown)}: crapette takes {', '.join(_DEFAULTS)}")
        values = {**_DEFAULTS, **given}
        text = values["rules"]
        turn_cap = values["max_turn_moves"]
        # OpenSpiel asks for legal actions only: an illegal one raises (illegal_reward=None).
        config = EpisodeSettings.of(
            _from_game_string(text) if isinstance(text, str) else text,
            max_moves=_check_bounded("max_moves", values["max_moves"], MAX_MOVES),
            max_turn_moves=None if turn_cap == 0 else turn_cap,
            revisits=values["revisits"],
            rewards=values["rewards"],
            illegal_reward=None,
        )
        rules = config.rules
        bound = score_scale(rules) if config.rewards == "points" else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=_DECK,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=config.max_moves,
        )
        super().__init__(
            GAME_TYPE,
            info,
            {
                "rules": _to_game_string(str(rules)),
                "max_moves": config.max_moves,
                "max_turn_moves": config.max_turn_moves or 0,
                "revisits": rules.revisits,
                "rewards": config.rewards,
            },
        )
        self._config = config

    @property
    def rules(self) -> RuleSet:
        """The rules the game plays."""
        return self._config.rules

    def new_initial_state(self) -> CrapetteState:
        """A new game, at its chance node (the deal)."""
        return CrapetteState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CrapetteObserver:
        """An observer (OpenSpiel calls this for observations and information states)."""
        return CrapetteObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)

    def max_chance_nodes_in_history(self) -> int:
        """:data:`DEAL_NODES`: the deal, card by card."""
        return DEAL_NODES


def deal_actions(seed: int) -> list[int]:
    """The chance actions that deal crapette's game ``seed``: the decks in the order :func:`crapette.new_game` deals them.

    Applied at the chance nodes of a new game, they deal
    ``new_game(rules, seed)`` (for every first-player rule that does not
    draw from the seed, the built-in ones among them), so that a set of
    given deals can be played in OpenSpiel too.

    >>> len(deal_actions(7)), max(deal_actions(7)) < 52
    (102, True)

    :raises ValueError: if ``seed`` is not an int with ``0 <= seed < 2**64``.
    """
    return [card.index % _DECK for deck in (0, 1) for card in shuffled_deck(seed, deck)[: _DECK - 1]]


def _left(dealt: tuple[int, ...]) -> tuple[int, list[int]]:
    """The deck being dealt at the chance node after ``dealt``, and its cards not dealt yet (their indexes)."""
    deck = 0 if len(dealt) < _DECK - 1 else 1
    taken = set(dealt)
    return deck, [i for i in range(deck * _DECK, deck * _DECK + _DECK) if i not in taken]


def _deal(rules: RuleSet, dealt: tuple[int, ...]) -> GameState:
    """The game the chance nodes dealt: each deck in dealing order, its last card after the 51 chosen."""
    orders = []
    for deck in (0, 1):
        chosen = list(dealt[deck * (_DECK - 1) : (deck + 1) * (_DECK - 1)])
        (last,) = set(range(deck * _DECK, deck * _DECK + _DECK)) - set(chosen)
        orders.append([ALL_CARDS[i] for i in (*chosen, last)])
    return new_game(rules, 0, decks=(orders[0], orders[1]))


class CrapetteState(pyspiel.State):  # type: ignore[misc]  # pyspiel ships no type information
    """A state of :class:`CrapetteGame`: the chance node, a position, or the end.

    Its OpenSpiel methods are those of any ``pyspiel.State``; :attr:`game_state`
    is the crapette :class:`~crapette.GameState` (None at the chance node).
    Use ``str(state)`` for the whole position (face-down cards included), the
    observation and information state for what a player knows.
    """

    def __init__(self, game: CrapetteGame) -> None:
        super().__init__(game)
        # The only attribute: OpenSpiel clones a Python state by deep-copying its
        # attributes, and this one is immutable, so a clone shares it.
        self._play = _Play(game._config, None, 0)

    @property
    def game_state(self) -> GameState | None:
        """The crapette state, or None before the deal is complete."""
        return self._play.game

    @property
    def seen_cards(self) -> frozenset[Card]:
        """Every card that has been face up so far (the players know where each one is)."""
        seen = self._play.seen
        return frozenset(card for card in ALL_CARDS if seen >> card.index & 1)

    def current_player(self) -> int:
        """The player to move, ``pyspiel.PlayerId.CHANCE`` while the cards are dealt, ``TERMINAL`` at the end."""
        return self._play.player

    def is_terminal(self) -> bool:
        """True once the rules have ended the game, or it has lasted ``max_moves`` moves."""
        return self._play.player == _TERMINAL

    def _legal_actions(self, player: int) -> list[int]:
        state = self._play.game
        assert state is not None and player == state.current_player
        return sorted(legal_actions(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The cards of the deck being dealt that are not dealt yet (their places in it, 0 to 51), each as likely."""
        if self._play.player != _CHANCE:
            return []
        _deck, left = _left(self._play.dealt)
        probability = 1.0 / len(left)
        return [(index % _DECK, probability) for index in left]

    def _apply_action(self, action: int) -> None:
        config, episode, seen, dealt = self._play
        if self._play.player == _TERMINAL:
            raise ValueError(f"the game is over: action {brief(action)} cannot be applied to a terminal state")
        if episode is None:
            deck, left = _left(dealt)
            index = action + deck * _DECK if type(action) is int and 0 <= action < _DECK else None
            if index is None or index not in left:
                raise ValueError(
                    f"chance action {brief(action)} is not a card left to deal: the chance node deals one of "
                    f"the {len(left)} cards of deck {deck} not dealt yet, by their places 0 to 51 in the deck"
                )
            dealt = (*dealt, index)
            if len(dealt) < DEAL_NODES:
                self._play = self._play._replace(dealt=dealt)
                return
            state = _deal(config.rules, dealt)
            # The cards are dealt at chance nodes, not from a deal number: the episode has none.
            self._play = _Play(config, Episode(config, None, state), _visible_bits(state), dealt)
        else:
            episode = episode.act(action)
            self._play = self._play._replace(episode=episode, seen=seen | _top_bits(episode.state))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if not (type(action) is int and 0 <= action < _DECK):
                return f"chance action {action}"
            deck = _left(self._play.dealt)[0] if self._play.player == _CHANCE else 0
            card = str(ALL_CARDS[deck * _DECK + action])
            return f"deal {card}" if self._play.player == _CHANCE else f"deal {card[:2]}"
        return str(action_to_move(action))

    @property
    def forfeit(self) -> int | None:
        """The player who forfeited the game by making ``max_turn_moves`` moves in one turn, or None."""
        episode = self._play.episode
        return None if episode is None else episode.forfeit

    def info(self, player: int) -> dict[str, Any]:
        """What the Gymnasium and PettingZoo adapters report in ``info`` for ``player``: the same keys and values.

        ``deal`` is None: OpenSpiel deals the cards at its chance nodes (see :func:`deal_actions`).
        """
        episode = self._play.episode
        if episode is None:
            return {"deal": None, "seat": player, "illegal_action": False, "forfeit": None}
        return episode.info(player)

    def returns(self) -> list[float]:
        """The returns: 0 each until the end, then :func:`crapette.episode.rewards` of how the game ended.

        A game cut off after ``max_moves`` is settled by the rules' penalties;
        a forfeit is the worst loss (:func:`crapette.episode.forfeit`).
        """
        episode = self._play.episode
        return [0.0, 0.0] if episode is None else list(episode.returns())

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CrapetteState:
        """A state ``player_id`` cannot tell from this one, drawn as the game's own chance would deal it.

        Every deal is equally likely and what the players do depends only on
        what they have seen, so given all they have seen every placing of the
        unseen cards in the face-down slots is equally likely: each player's
        unseen cards (all from that player's deck) are shuffled among the
        face-down slots of that player's reserve and hand that hold unseen
        cards. While the cards are being dealt (nothing is seen yet), the cards
        dealt so far are drawn afresh. ``probability_sampler()`` gives the
        randomness (a number in [0, 1), as OpenSpiel's samplers do), once a card.

        :raises ValueError: if ``player_id`` is not 0 or 1.
        """
        if type(player_id) is not int or player_id not in (0, 1):
            raise ValueError(f"player_id must be 0 or 1, got {brief(player_id)}")
        clone: CrapetteState = self.clone()
        play = self._play
        state = play.game
        draw = _Draws(probability_sampler)
        if state is None:
            dealt = []
            for deck in (0, 1):
                count = len(play.dealt[deck * (_DECK - 1) : (deck + 1) * (_DECK - 1)])
                indexes = list(range(deck * _DECK, deck * _DECK + _DECK))
                draw.shuffle(indexes)
                dealt += indexes[:count]
            clone._play = play._replace(dealt=tuple(dealt))
            return clone
        piles = list(state.piles)
        seen = play.seen
        for player in (0, 1):
            slots = [
                (pile_id, i)
                for pile_id in (R0 + player, H0 + player)
                for i, card in enumerate(piles[pile_id])
                if not seen >> card.index & 1
            ]
            cards = [piles[pile_id][i] for pile_id, i in slots]
            draw.shuffle(cards)
            for pile_id in (R0 + player, H0 + player):
                pile = list(piles[pile_id])
                for (where, i), card in zip(slots, cards):
                    if where == pile_id:
                        pile[i] = card
                piles[pile_id] = tuple(pile)
        # The same history: what it made known, and the positions the turn has reached, stay.
        world = attrs.evolve(state, piles=tuple(piles))
        assert play.episode is not None
        clone._play = play._replace(episode=attrs.evolve(play.episode, state=world))
        return clone

    def __str__(self) -> str:
        state = self._play.game
        return "deal not made yet" if state is None else str(state)


class _Draws:
    """Random choices from an OpenSpiel probability sampler (a number in [0, 1) a call)."""

    def __init__(self, sampler: Any) -> None:
        self.sampler = sampler

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, each as likely."""
        value = float(self.sampler())
        if not 0.0 <= value < 1.0:
            raise ValueError(f"the probability sampler gave {brief(value)}, not a number in [0, 1)")
        return min(int(value * n), n - 1)

    def shuffle(self, items: list[Any]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates): every order as likely."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _public_text(state: GameState) -> str:
    """The public view of ``state`` as text: every face-up card, the sizes of the face-down piles, the counters."""
    names = ("F0", "F1", "F2", "F3", "F4", "F5", "F6", "F7", "T0", "T1", "T2", "T3", "T4", "T5", "T6", "T7")
    lines = [
        f"move {state.move_count}, player {state.current_player} to move"
        f"{', drawn' if state.drawn else ''}, passes {state.passes}, "
        f"exhausted {''.join(str(int(x)) for x in state.exhausted)}, "
        f"played {''.join(str(int(x)) for x in state.played)}"
        + ("" if state.outcome is None else f", over: {state.outcome}")
    ]
    lines += [f"{name}: {' '.join(map(str, pile)) or '-'}" for name, pile in zip(names, state.piles)]
    for player in (0, 1):
        reserve = state.reserves[player]
        top = str(reserve[-1]) if reserve else "-"
        lines.append(
            f"R{player}: {top} [{len(reserve)}]  H{player}: [{len(state.hands[player])}]  "
            f"W{player}: {' '.join(map(str, state.wastes[player])) or '-'}"
        )
    return "\n".join(lines)


def _known(state: GameState, seen: int) -> list[list[tuple[Card, int]]]:
    """The seen face-down cards of R0, R1, H0 and H1, each with its position from the top of its pile (1 for the top)."""
    known = []
    for pile, face_down in (
        (state.reserves[0], state.reserves[0][:-1]),
        (state.reserves[1], state.reserves[1][:-1]),
        (state.hands[0], state.hands[0]),
        (state.hands[1], state.hands[1]),
    ):
        size = len(pile)
        known.append([(card, size - i) for i, card in enumerate(face_down) if seen >> card.index & 1])
    return known


class CrapetteObserver:
    """Makes observation and information-state tensors and strings (OpenSpiel's Python observer interface).

    :param iig_obs_type: a ``pyspiel.IIGObservationType``: with
        ``perfect_recall`` the information state, without it the observation.
        Crapette has no private information, so ``private_info`` changes nothing.
    :raises ValueError: if ``public_info`` is False (all there is to see is
        public), or ``params`` is given.
    """

    def __init__(self, iig_obs_type: Any, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the crapette observer takes no parameters, got {params!r}")
        if not iig_obs_type.public_info:
            raise ValueError("crapette has only public information: an observer without it sees nothing")
        #: True for the information state, False for the observation.
        self.perfect_recall: bool = bool(iig_obs_type.perfect_recall)
        size = OBSERVATION_SIZE + (_KNOWN_SIZE if self.perfect_recall else 0)
        #: The tensor :meth:`set_from` writes: the observation, then (information state) the known face-down cards.
        self.tensor = np.zeros(size, dtype=np.float32)
        #: The parts of :attr:`tensor` by name: ``"observation"``, and ``"known_face_down"`` (4 rows of 104).
        self.dict = {"observation": self.tensor[:OBSERVATION_SIZE]}
        if self.perfect_recall:
            self.dict["known_face_down"] = self.tensor[OBSERVATION_SIZE:].reshape(4, _CARDS)

    def set_from(self, state: CrapetteState, player: int) -> None:
        """Write into :attr:`tensor` what ``player`` knows of ``state``."""
        play = state._play
        game = play.game
        if game is None:
            # Nothing is dealt yet: the observer is all there is to show.
            self.tensor.fill(0)
            self.tensor[FIELDS["observer"].start + player] = 1
            return
        self.tensor[:OBSERVATION_SIZE] = encode(game, player)
        if self.perfect_recall:
            rows = self.dict["known_face_down"]
            rows.fill(0)
            for row, cards in enumerate(_known(game, play.seen)):
                for card, depth in cards:
                    rows[row, card.index] = 1.0 / depth

    def string_from(self, state: CrapetteState, player: int) -> str:
        """What ``player`` knows of ``state``, as text."""
        play = state._play
        game = play.game
        if game is None:
            return f"observer {player}: the deal is not made yet"
        text = f"observer {player}\n{_public_text(game)}"
        if self.perfect_recall:
            known = [
                f"{name}: {' '.join(f'{card}@{depth}' for card, depth in cards)}"
                for name, cards in zip(("R0", "R1", "H0", "H1"), _known(game, play.seen))
                if cards
            ]
            text += "\nknown face down (card@position from the top): " + ("; ".join(known) or "none")
            text += f"\nthis turn: {play.turn_moves} moves, positions barred {_barred(game)}"
        return text


def _barred(state: GameState) -> str:
    """The tableaux reached earlier in this turn (which ``revisits=false`` bars), as a short digest, or "none"."""
    if not state.turn_moves:
        return "none"
    seen = sorted(run_keys(state)[0])
    return hashlib.sha256(" ".join(map(str, seen)).encode()).hexdigest()[:16]


pyspiel.register_game(GAME_TYPE, CrapetteGame)
