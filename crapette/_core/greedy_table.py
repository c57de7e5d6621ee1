"""The numbers of the greedy heuristic and of the playouts, named once for both engines.

:mod:`crapette._play.greedy` scores moves with them and :mod:`crapette.evaluation`
plays on and counts with them; :mod:`crapette.kernel` hands this module to the
compiled kernel when it loads it, and the kernel reads each number by its name
(csrc/bridge.c), so the two engines cannot disagree on one.
"""

from __future__ import annotations

__all__ = [
    "DRAW",
    "END_TURN",
    "FOUNDATION",
    "FOUNDATION_FROM_RESERVE",
    "FOUNDATION_FROM_TABLEAU",
    "FOUNDATION_FROM_WASTE",
    "HORIZON",
    "KEEP_EMPTY",
    "OPENS_FOUNDATION",
    "OPENS_RESERVE",
    "OPENS_WASTE",
    "RESERVE_READY",
    "RESERVE_TO_RESERVE",
    "RESERVE_TO_TABLEAU",
    "RESERVE_TO_WASTE",
    "TABLEAU_TO_RESERVE",
    "TABLEAU_TO_WASTE",
    "USELESS",
    "WASTE_TO_RESERVE",
    "WASTE_TO_TABLEAU",
    "WASTE_TO_WASTE",
    "WIN",
]

# The greedy scores, by kind of move (higher is played first).
#: A play to a foundation, plus the bonus of where the card came from.
FOUNDATION = 1000
FOUNDATION_FROM_RESERVE = 30
FOUNDATION_FROM_WASTE = 20
FOUNDATION_FROM_TABLEAU = 10
#: A play from the reserve (loading the opponent's reserve or waste, or onto the tableau).
RESERVE_TO_RESERVE = 540
RESERVE_TO_WASTE = 530
RESERVE_TO_TABLEAU = 500
#: A play from the waste.
WASTE_TO_RESERVE = 440
WASTE_TO_WASTE = 430
WASTE_TO_TABLEAU = 400
#: A load from the tableau.
TABLEAU_TO_RESERVE = 300
TABLEAU_TO_WASTE = 290
#: A move between tableau piles that opens a play to a foundation, from the reserve, from the waste.
OPENS_FOUNDATION = 350
OPENS_RESERVE = 340
OPENS_WASTE = 240
#: A move between tableau piles that opens nothing: below drawing.
USELESS = -100
DRAW = 100
END_TURN = 50
#: Added to a play onto the tableau when it keeps an empty pile empty (its target holds cards).
KEEP_EMPTY = 10

# The playouts.
#: Moves a playout may make (a safety net: turns end long before).
HORIZON = 200
#: What a finished game is worth to the card count: won, or (negated) lost, in cards.
WIN = 10_000.0
#: What a reserve card the player to move can play at once is worth, in cards.
RESERVE_READY = 1.0
