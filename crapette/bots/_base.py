"""What the bots share: the game a bot plays and how it travels, and the check of a state to choose in."""

from __future__ import annotations

from typing import Any, Generic, TypeVar

from .._core.state import GameState
from .._views.view import PublicView, view
from ..protocol import (
    CardGame,
    Crapette,
    check_card_game,
    game_name,
    game_type_of,
    portable,
    resolve,
    same_game,
)

__all__ = ["CRAPETTE", "AnyGameBot", "check_game", "check_game_state", "checked_view", "game_key", "game_suffix"]

#: The game of a bot built without ``game=``: Crapette (the state carries its rules, so any rules).
CRAPETTE = Crapette("classic")

#: The types of the states and moves of the game a bot plays.
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


def check_game(game: object) -> CardGame[Any, Any, Any]:
    """The game a bot plays: Crapette for None, else the game, checked."""
    if game is None:
        return CRAPETTE
    return check_card_game(game)


def check_game_state(game: CardGame[Any, Any, Any], state: Any) -> Any:
    """``state``, checked to be a state of ``game`` that is not over.

    :raises TypeError: if it is not a state.
    :raises ValueError: if the game is over.
    """
    try:
        over = state.is_over
    except AttributeError:
        raise TypeError(f"choose() expects a state of {game_name(game)}, got {type(state).__name__}") from None
    if over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return state


def checked_view(state: object) -> PublicView:
    """The view of a Crapette ``state`` for a bot's ``choose``, once the state is checked.

    :raises TypeError: if ``state`` is not a :class:`~crapette.GameState`.
    :raises ValueError: if the game is over.
    """
    if not isinstance(state, GameState):
        raise TypeError(f"choose() expects a GameState, got {type(state).__name__}")
    if state.is_over:
        raise ValueError(f"the game is over ({state.outcome}): there is no move to choose")
    return view(state)


def game_suffix(game: CardGame[Any, Any, Any]) -> str:
    """``, game=NAME`` for a bot's repr, or nothing for Crapette (the default)."""
    return "" if same_game(game, CRAPETTE) else f", game={game_name(game)}"


def game_key(game: CardGame[Any, Any, Any]) -> str:
    """What a bot's hash takes of its game: its type's name."""
    return game_type_of(game).name


class AnyGameBot(Generic[StateT, MoveT]):
    """What the bots that play any game share: their game, and how it travels (a module as its name)."""

    game: CardGame[StateT, MoveT, Any]

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["game"] = portable(state.get("game"))
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        state = dict(state)
        state["game"] = resolve(state.get("game"))
        self.__dict__.update(state)
