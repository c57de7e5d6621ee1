"""crapette: the rules of Crapette (Russian Bank), immutable, typed and fast.

>>> from crapette import RuleSet, new_game, legal_moves, apply_move
>>> state = new_game(RuleSet.classic(), seed=42)
>>> while not state.is_over and state.move_count < 200:
...     state = apply_move(state, legal_moves(state)[0])
>>> state.move_count
200
"""

from ._cards import ALL_CARDS, Card, Colour, Rank, Suit, parse_card, shuffled_deck
from ._engine import apply_move, explain_illegal, legal_moves, new_game
from ._errors import IllegalMoveError, InvalidRulesError, InvalidStateError, ParseError
from ._match import Match
from ._moves import Draw, EndTurn, Move, MoveStack, Pass, Play, parse_move
from ._position import rules_from_text, rules_to_text
from ._rules import (
    Build,
    FirstPlayer,
    FoundationPlays,
    LoadTarget,
    RuleSet,
    Scoring,
    TableauSources,
    WastePlay,
)
from ._state import ALL_PILES, EndReason, GameState, Outcome, Pile, PileKind, parse_pile, validate
from ._view import PublicView, view
from ._record import GameRecord, RecordError
from ._game import Game
from ._actions import NUM_ACTIONS, action_to_move, legal_action_mask, legal_actions, move_to_action

__version__ = "0.1.0"

__all__ = [
    # cards
    "ALL_CARDS",
    "Card",
    "Colour",
    "Rank",
    "Suit",
    "parse_card",
    "shuffled_deck",
    # rules
    "Build",
    "FirstPlayer",
    "FoundationPlays",
    "LoadTarget",
    "RuleSet",
    "Scoring",
    "TableauSources",
    "WastePlay",
    "rules_from_text",
    "rules_to_text",
    # state
    "ALL_PILES",
    "EndReason",
    "GameState",
    "Outcome",
    "Pile",
    "PileKind",
    "parse_pile",
    "validate",
    # moves
    "Draw",
    "EndTurn",
    "Move",
    "MoveStack",
    "Pass",
    "Play",
    "parse_move",
    # engine
    "apply_move",
    "explain_illegal",
    "legal_moves",
    "new_game",
    # match
    "Match",
    # formats
    "Game",
    "GameRecord",
    "NUM_ACTIONS",
    "PublicView",
    "RecordError",
    "action_to_move",
    "legal_action_mask",
    "legal_actions",
    "move_to_action",
    "view",
    # errors
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "ParseError",
]
