"""crapette: the rules of Crapette (Russian Bank), immutable, typed and fast.

The documentation (``docs/`` in the repository, built with Sphinx) has a
quickstart, the rules of both presets with every ruling, the formats, and
recipes. The core is in this package's namespace: cards, rules, states,
moves, :func:`new_game`, :func:`legal_moves` and :func:`apply_move`, the
formats and their parsers (``parse_card``, ``parse_move``, ``parse_rules``,
``parse_position``, ``parse_record``: ``str(x)`` writes what they read). The
features sit in submodules beside it:

- :mod:`crapette.bots`: computer players; :mod:`crapette.simulation`: many games;
- :mod:`crapette.svg`: pictures of a position; :mod:`crapette.text`: a position as text;
- :mod:`crapette.cli`: the ``crapette`` command;
- :mod:`crapette.variants`: rule variants of other Crapette programs;
- :mod:`crapette.strategies` and :mod:`crapette.testing`: property-testing tools.

>>> from crapette import RuleSet, new_game, legal_moves, apply_move
>>> state = new_game(RuleSet.classic(), seed=42)
>>> while not state.is_over and state.move_count < 200:
...     state = apply_move(state, legal_moves(state)[0])
>>> state.move_count
200
"""

from . import variants  # noqa: F401  (registers the peer variants' rule parts)
from ._formats.actions import (
    NUM_ACTIONS,
    action_to_move,
    legal_action_mask,
    legal_actions,
    move_to_action,
)
from ._core.cards import ALL_CARDS, Card, Colour, Rank, Suit, parse_card, shuffled_deck
from ._core.engine import apply_move, legal_moves, new_game
from ._core.explain import explain_illegal
from ._formats.game import Game
from ._core.match import Match
from ._core.moves import Draw, EndTurn, Move, MoveStack, Pass, Play, parse_move
from ._core.options import Option
from ._core.outcome import MAX_NUMBER, EndReason, Outcome
from ._core.parts import (
    Blocked,
    Build,
    DownAlternating,
    Ending,
    FirstPlayer,
    LowerReserve,
    MoveLimit,
    PlayerOne,
    PlayerZero,
    RulePart,
    Scoring,
    Stalemate,
    SuitUpOrDown,
    register,
    registered,
)
from ._core.parts import seal_built_ins as _seal_built_ins
from ._formats.position import (
    MAX_POSITION_LENGTH,
    parse_position,
    rules_from_text,
    rules_to_text,
)
from ._formats.record import GameRecord, parse_record
from ._core.rules import (
    FoundationPlays,
    LoadTarget,
    RuleSet,
    StackLimit,
    TableauSources,
    WastePlay,
    parse_rules,
)
from ._core.state import (
    ALL_PILES,
    MAX_TURN_MOVES,
    GameState,
    Pile,
    PileKind,
    parse_pile,
    validate,
)
from ._core.turns import (
    DEFAULT_TURN_LIMIT,
    MAX_TURN_LIMIT,
    TurnEnd,
    TurnEnds,
    position_key,
    reveals,
    turn_ends,
)
from ._views.view import MAX_VIEW_LENGTH, PublicView, step_view, view
from . import kernel  # noqa: F401, I001  (installs the compiled kernel where it is built)
from .errors import (
    HiddenCardError,
    IllegalMoveError,
    InvalidRulesError,
    InvalidStateError,
    ParseError,
    RecordError,
    RulePartError,
    UndoError,
)

_seal_built_ins()  # every part registered from here on is a user's, and its hooks are checked

__version__ = "0.5.0"

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
    "FoundationPlays",
    "LoadTarget",
    "Option",
    "RuleSet",
    "StackLimit",
    "TableauSources",
    "WastePlay",
    "parse_rules",
    "rules_from_text",
    "rules_to_text",
    # rule parts
    "Blocked",
    "Build",
    "DownAlternating",
    "Ending",
    "FirstPlayer",
    "LowerReserve",
    "MoveLimit",
    "PlayerOne",
    "PlayerZero",
    "RulePart",
    "Scoring",
    "Stalemate",
    "SuitUpOrDown",
    "register",
    "registered",
    # state
    "ALL_PILES",
    "EndReason",
    "GameState",
    "MAX_NUMBER",
    "MAX_TURN_MOVES",
    "Outcome",
    "Pile",
    "PileKind",
    "parse_pile",
    "MAX_POSITION_LENGTH",
    "parse_position",
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
    "reveals",
    # turns
    "DEFAULT_TURN_LIMIT",
    "MAX_TURN_LIMIT",
    "TurnEnd",
    "TurnEnds",
    "position_key",
    "turn_ends",
    # match
    "Match",
    # formats
    "Game",
    "UndoError",
    "GameRecord",
    "NUM_ACTIONS",
    "PublicView",
    "MAX_VIEW_LENGTH",
    "step_view",
    "action_to_move",
    "legal_action_mask",
    "legal_actions",
    "move_to_action",
    "parse_record",
    "view",
    # errors
    "HiddenCardError",
    "IllegalMoveError",
    "InvalidRulesError",
    "InvalidStateError",
    "ParseError",
    "RecordError",
    "RulePartError",
]


def _public_home() -> None:
    # Shown as crapette.Card, not crapette._core.cards.Card, in help(), reprs of
    # classes and tracebacks; pickles find them here too. The module that
    # defines each is kept as __source_module__ (the docs' build reads the
    # attribute comments from there).
    for name in __all__:
        obj = globals()[name]
        module = getattr(obj, "__module__", "")
        if (isinstance(obj, type) or callable(obj)) and module.startswith("crapette._"):
            try:
                obj.__source_module__ = module
                obj.__module__ = __name__
            except (AttributeError, TypeError):
                pass


_public_home()
del _public_home
