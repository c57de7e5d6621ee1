"""The checks on the hooks of rule parts of one's own: wrapped calls, and probes.

:func:`~crapette.register` wraps each hook of a user's part with :func:`guard`,
so that an exception or a wrong answer raises :class:`~crapette.RulePartError`
naming the part and the hook. :class:`~crapette.RuleSet` probes a scoring of
one's own when it is made (:func:`probe_scoring`); a first-player rule or an
ending of one's own is tried in play, which the engine does the first time it
plays such rules (``crapette._core.engine.probe_play``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..errors import RulePartError
from .messages import brief
from .outcome import check_number

if TYPE_CHECKING:
    from .parts import RulePart, Scoring

__all__ = ["CHECKS", "PROBE_MOVES", "PROBE_SEEDS", "guard", "hook_error", "probe_scoring"]


def _part_text(part: object) -> str:
    try:
        text = str(part)
    except Exception:  # a part whose text cannot be made is still named by its class
        text = type(part).__qualname__
    return text if len(text) <= 80 else text[:77] + "..."


def _int_answer(value: object) -> str:
    return "" if not check_number("", value) else "not an int from 0 to 2**63 - 1"


def _player_answer(value: object) -> str:
    return "" if type(value) is int and value in (0, 1) else "not 0 or 1"


def _bool_answer(value: object) -> str:
    return "" if value is True or value is False else "not True or False"


#: For each kind of part, its hooks that are called in play and how their answers are checked.
CHECKS: dict[str, dict[str, Callable[[object], str]]] = {
    "first-player rule": {"who_starts": _player_answer},
    "scoring": {"penalty": _int_answer, "points_for_win": _int_answer},
    "ending": {"start": _int_answer, "update": _int_answer, "ends": _bool_answer},
}


def hook_error(part: object, hook: str, problem: str) -> RulePartError:
    """The :class:`RulePartError` saying that ``part``'s ``hook`` went wrong as ``problem`` says."""
    text = _part_text(part)
    kind = getattr(part, "kind", "rule part")
    return RulePartError(f"the {kind} {text}: {hook}() {problem}", part=text, hook=hook)


def guard(hook: str, func: Callable[..., Any], check: Callable[[object], str]) -> Callable[..., Any]:
    """``func`` (a user's hook) wrapped: its exceptions and its wrong answers raise :class:`RulePartError`."""

    @functools.wraps(func)
    def guarded(self: RulePart, *args: Any, **kwargs: Any) -> Any:
        try:
            value = func(self, *args, **kwargs)
        except RulePartError:
            raise  # from another checked hook it called (points_for_win calling penalty)
        except Exception as exc:
            try:
                said = str(exc)
            except Exception:
                said = ""
            said = said if len(said) <= 200 else said[:197] + "..."
            raise hook_error(self, hook, f"raised {type(exc).__name__}" + (f": {said}" if said else "")) from exc
        problem = check(value)
        if problem:
            raise hook_error(self, hook, f"returned {brief(value)}, {problem}")
        return value

    guarded.__crapette_guarded__ = True  # type: ignore[attr-defined]
    return guarded


# Probes: what can be checked of a user's parts before play ------------------------------------

#: The counts of cards left (reserve, hand, waste) on which a scoring of one's own is probed.
_PROBE_COUNTS = tuple((r, h, w) for r in (0, 1, 2, 13, 48) for h in (0, 1, 35) for w in (0, 1, 35))
#: The deals on which a first-player rule or an ending of one's own is probed, and the moves played on the first few.
#: How many deals, and moves into the first two, the engine tries a first-player rule or an
#: ending of one's own on, the first time it plays rules that have one (see crapette._core.engine).
PROBE_SEEDS = 8
PROBE_MOVES = 4


@functools.lru_cache(maxsize=64)
def probe_scoring(scoring: Scoring) -> None:
    """Call a scoring's ``penalty`` and ``points_for_win`` on a grid of counts: a negative, None or NaN answer is refused now.

    :raises RulePartError: if a hook raises or answers other than an int from 0 to 2**63 - 1.
    """
    for reserve, hand, waste in _PROBE_COUNTS:
        scoring.penalty(reserve=reserve, hand=hand, waste=waste)
        scoring.points_for_win(reserve=reserve, hand=hand, waste=waste)


