"""The compiled kernel: C twins of the engine's hot paths, and the switch between it and pure Python.

``pip install .`` builds a small C extension, ``crapette._ckernel``, where
the machine has a C compiler and Python's headers (and carries on without it
where it has not). The kernel holds a compact copy of a position and lists
legal moves, applies them, finds :func:`~crapette.turn_ends`, and plays the
bots' greedy policy and playouts, in C. The pure-Python engine stays the
reference: wherever the kernel runs, every function gives the same results as
without it (the same moves in the same order, equal states, the same turn
ends and playout values), only faster; tests hold it to the Python engine move
for move.

Once built, the kernel is used by :func:`~crapette.legal_moves`,
:func:`~crapette.apply_move` and :func:`~crapette.turn_ends` themselves, so
everything built on them (the bots, :func:`~crapette.simulation.simulate`, the
RL adapters) runs faster without asking. It runs every rule set but those with
further endings (``RuleSet.endings``, such as ``no-progress``: Python hooks on every move) or a
scoring class of one's own, and those with an option it does not know (it
keeps the list of the options it runs, by name); those, and any state it cannot
read, are handed to the Python engine. Building rules of one's own run in the kernel: it takes
them as the tables the engine compiles them into.

>>> import crapette.kernel
>>> crapette.kernel.engine() in ("kernel", "python")
True
>>> crapette.kernel.supports("classic") == (crapette.kernel.engine() == "kernel")
True

Where the install could not build the kernel, it leaves a note of why in
the package, and importing this module (which crapette does) says so in a
:class:`RuntimeWarning`, as :data:`REASON` does. The environment variable
``CRAPETTE_PURE=1`` (set before crapette is imported) forces the pure-Python
engine, without a warning; :data:`REASON` then says so.
:func:`set_enabled` switches the kernel off and on again within a process,
which benchmarks and tests use to compare the two.

The module's other functions (``playout``, ``evaluate``, ``fast_move``,
``greedy_scores``, ``exits``, ``shuffle``, ``self_play``) are
the kernel's entry points for the play layer, outside ``__all__``: each
returns None where the kernel does not run the state (not built, switched
off, or rules it does not run), and the caller then does the same work in
Python.

.. versionadded:: 0.3.0
"""

from __future__ import annotations

import importlib.util
import os
import random
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from ._core import engine as _engine
from ._core import greedy_table as _greedy_table
from ._core import turns as _turns
from ._core.cards import ALL_CARDS
from ._core.compiled import COMPILED_RULES, CompiledRules
from ._core.moves import DRAW, END_TURN, PASS, PLAYS, STACKS, Move, MoveStack, Play
from ._core.outcome import MAX_NUMBER, EndReason, Outcome
from ._core.parts import Scoring
from ._core.rules import RuleSet, to_rules
from ._core.state import CACHE_LAYOUT, F0, H0, MAX_TURN_MOVES, R0, T0, W0, GameState
from ._core.turns import TurnEnd

__all__ = ["AVAILABLE", "REASON", "engine", "set_enabled", "supports"]

#: The moves in the order of the fixed action numbering (crapette._formats.actions): the kernel passes moves as these numbers.
MOVES: tuple[Move, ...] = (
    *(play for row in PLAYS for play in row if play is not None),
    *(STACKS[key] for key in sorted(STACKS)),
    DRAW,
    END_TURN,
    PASS,
)

#: The largest scoring weight the kernel counts with (every penalty then fits 64 bits with room).
_MAX_WEIGHT = 2**40


def _kind(move: Move) -> tuple[int, int, int, int]:
    if type(move) is Play:
        return (0, move.source.id, move.target.id, 0)
    if type(move) is MoveStack:
        return (1, move.source.id, move.target.id, move.count)
    kinds: dict[Move, int] = {DRAW: 2, END_TURN: 3, PASS: 4}
    return (kinds[move], 0, 0, 0)


def _weights(scoring: Scoring) -> tuple[int, int, int] | None:
    found = (scoring.reserve_weight, scoring.hand_weight, scoring.waste_weight)
    return found if all(type(w) is int and 0 <= w <= _MAX_WEIGHT for w in found) else None


def _compiled(rules: RuleSet) -> tuple[CompiledRules, CompiledRules] | None:
    """The compiled rules the kernel reads by name (csrc/bridge.c, make_rules), or None where it does not run them."""
    if not _KNOWN.issuperset(option.name for option in type(rules).options()):
        return None   # an option the kernel does not know (csrc/kernel.h): Python runs it
    if rules.endings:
        return None   # further endings are Python hooks on every move
    if rules.scoring is not None:
        if type(rules.scoring) is not Scoring:
            return None   # a scoring of one's own: its penalty is a Python hook
        if _weights(rules.scoring) is None or not 0 <= rules.scoring.win_bonus <= _MAX_WEIGHT:
            return None
    found = COMPILED_RULES.get(rules)
    if found is not None:
        return found
    # The same compiled rules, less the index tables only the Python engine reads (they take a while).
    return CompiledRules(rules, 0, python_tables=False), CompiledRules(rules, 1, python_tables=False)


def _config() -> tuple[Any, ...]:
    """What the kernel is handed when it loads: the objects it works with, the rules' compiler, the numbers."""
    fields = ("rules", "piles", "current_player", "move_count", "drawn", "passes", "exhausted", "played",
              "counters", "hand_known", "reserve_known", "from_deal", "turn_moves", "_engine")
    return (
        ALL_CARDS,
        MOVES,
        tuple(_kind(move) for move in MOVES),
        GameState,
        tuple(getattr(GameState, name) for name in fields),
        Outcome,
        (EndReason.EMPTIED, EndReason.STALEMATE, EndReason.BLOCKED, EndReason.MOVE_LIMIT),
        TurnEnd,
        _compiled,
        _engine.python_moves,
        _engine.python_apply,
        len(CACHE_LAYOUT),
        random.Random,
        _greedy_table,
        # The numbers the kernel is compiled with (csrc/kernel.h): it refuses to run with others.
        {"F0": F0, "T0": T0, "R0": R0, "H0": H0, "W0": W0, "MAX_TURN": MAX_TURN_MOVES, "MAX_NUMBER": MAX_NUMBER},
    )


#: Where the install leaves a note when it could not build the kernel (see setup.py): why, in one line.
#: A strict editable install links the package's files, and the note is beside the linked-to source.
_NOT_BUILT = (Path(__file__).with_name("_ckernel_not_built.txt"), Path(__file__).resolve().with_name("_ckernel_not_built.txt"))


def _not_built(notes: Sequence[Path]) -> tuple[str, bool]:
    """Why the kernel is not built, and whether to warn: the install's note says it could not build it.

    >>> _not_built([Path("no-such-note.txt")])
    ('the compiled kernel is not built (no C compiler at install?): the pure-Python engine runs', False)
    """
    found = [note for note in notes if note.is_file()]
    if not found:
        return "the compiled kernel is not built (no C compiler at install?): the pure-Python engine runs", False
    why = found[0].read_text(encoding="utf-8").strip()
    return (
        f"the compiled kernel was not built at install ({why}): the pure-Python engine runs, "
        "with the same results, only slower (a C compiler and Python's headers at install build it; "
        "CRAPETTE_PURE=1 chooses the pure-Python engine and silences this)"
    ), True


def _load() -> tuple[Any, str]:
    if os.environ.get("CRAPETTE_PURE", "").strip() not in ("", "0"):
        return None, "CRAPETTE_PURE is set: the pure-Python engine runs"
    try:
        from . import _ckernel
        known = frozenset(_ckernel.OPTIONS)
    except (ImportError, AttributeError) as exc:
        if importlib.util.find_spec(f"{__package__}._ckernel") is None:
            why, warn = _not_built(_NOT_BUILT)
            if warn:
                try:
                    warnings.warn(f"crapette: {why}", RuntimeWarning, stacklevel=2)
                except RuntimeWarning:   # warnings made errors (-W error): crapette imports all the same
                    pass
            return None, why
        return None, f"the compiled kernel does not load ({exc}): the pure-Python engine runs"
    try:
        _ckernel.init(_config())
    except (TypeError, ValueError, AttributeError) as exc:   # a kernel built for another layout of the classes
        return None, f"the compiled kernel does not fit this crapette ({exc}): the pure-Python engine runs"
    _KNOWN.update(known)
    return _ckernel, ""


#: The rule options the kernel runs (its list, csrc/kernel.h): rules with any other are left to Python.
_KNOWN: set[str] = set()
_C, _WHY = _load()
#: True when the compiled kernel is built, fits, and ``CRAPETTE_PURE`` is not set.
AVAILABLE: bool = _C is not None
#: Why the kernel is not available ("" when it is).
REASON: str = _WHY
_on = False


def _none(*args: Any) -> None:
    return None


#: The value of ``state`` for ``player`` as :func:`crapette.bots` evaluates it (the cards left), or None.
evaluate: Callable[[GameState, int], float | None] = _none
#: The greedy playout to the end of the opponent's next turn and its value for ``player``, or None.
playout: Callable[[GameState, int], float | None] = _none
#: The same, played on by the greedy heuristic with its look-ahead (``crapette.evaluation.careful_move``), or None.
careful_playout: Callable[[GameState, int], float | None] = _none
#: :data:`playout` of the state ``moves`` lead to from ``state``, its piles moved by ``swaps`` and its move
#: count set to ``count`` (the planning bot's judgement of a candidate), or None. Arguments:
#: ``state, moves, swaps, count, player``.
path_playout: Callable[..., float | None] = _none
#: The greedy move without look-ahead (the playouts' policy), or None.
fast_move: Callable[[GameState], Move | None] = _none
#: The greedy scores of ``moves`` (legal in ``state``), with or without look-ahead, or None.
greedy_scores: Callable[[GameState, Sequence[Move], bool], list[int] | None] = _none
#: The legal moves of ``state`` that reveal a card or end the turn (Draw, End turn, Pass, and plays of the
#: reserve that uncover a card nobody has seen), in legal order; or None.
exits: Callable[[GameState], tuple[Move, ...] | None] = _none
#: ``(ranked, complete)``: the turn ends of ``state`` that the planning bot's stock ranking may put among its
#: ``most`` best candidates, each ``(TurnEnd, exits, value, key, swaps)``, best first (see
#: ``crapette.bots.planner``), or None. Arguments: ``state, limit, weights, most, groups``.
ranked_ends: Callable[..., tuple[list[tuple[Any, ...]], bool] | None] = _none
#: ``rng.shuffle(items)`` done in the kernel, drawing the same numbers (True), where ``rng`` is exactly
#: a :class:`random.Random` and ``items`` a list; else None, and nothing is drawn.
shuffle: Callable[[random.Random, list[Any]], bool | None] = _none
_self_play: Callable[..., list[tuple[tuple[GameState, ...], Outcome | None, int]] | None] = _none
#: The counts of :func:`crapette.value.encode`, or None.
encode: Callable[[GameState, int], tuple[int, ...] | None] = _none
#: ``(code, mine, theirs)`` of a value network (a handle from :func:`value_net`) for ``state`` and
#: ``player``: code 0 with the network's raw outputs from ``player``'s side and from the opponent's,
#: or 1 won, 2 lost, 3 drawn (and zeros); or None.
value: Callable[[GameState, int, Any], tuple[int, int, int] | None] = _none
#: The same after the greedy play-on of :func:`playout`, or None.
value_playout: Callable[[GameState, int, Any], tuple[int, int, int] | None] = _none


def set_enabled(on: bool) -> None:
    """Switch the kernel on or off in this process (it is on when it is :data:`AVAILABLE`).

    Switched off, everything runs in the pure-Python engine, as under
    ``CRAPETTE_PURE=1``; states made either way are the same values and may be
    mixed freely.

    >>> set_enabled(False); engine()
    'python'
    >>> set_enabled(True); engine() == ("kernel" if AVAILABLE else "python")
    True

    Switching it on where it is not available does nothing.
    """
    global _on, evaluate, playout, careful_playout, path_playout, fast_move, greedy_scores, exits, ranked_ends, shuffle, _self_play
    global encode, value, value_playout
    _on = bool(on) and _C is not None
    if _C is not None:
        _C.set_enabled(_on)
    c: Any = _C if _on else None
    _engine.install(c and c.legal_moves, c and c.apply_move)
    _turns.install(c and c.turn_ends, c and c.exits)
    evaluate = c.evaluate if c else _none
    playout = c.playout if c else _none
    careful_playout = c.careful_playout if c else _none
    path_playout = c.path_playout if c else _none
    fast_move = c.fast_move if c else _none
    greedy_scores = c.greedy_scores if c else _none
    exits = c.exits if c else _none
    ranked_ends = c.ranked_ends if c else _none
    shuffle = c.shuffle if c else _none
    _self_play = c.self_play if c else _none
    encode = c.encode if c else _none
    value = c.value if c else _none
    value_playout = c.value_playout if c else _none


def value_net(hidden: Sequence[Sequence[int]], output: Sequence[int], clip: int) -> Any:
    """The kernel's copy of a value network's weights (see :class:`crapette.value.ValueNet`), or None without the kernel."""
    if _C is None:
        return None
    return _C.net(hidden, output, clip)


def engine() -> str:
    """Which engine runs: ``"kernel"`` (the compiled kernel, for the rules it runs) or ``"python"``.

    >>> engine() == ("kernel" if AVAILABLE else "python")
    True
    """
    return "kernel" if _on else "python"


def supports(rules: RuleSet | str) -> bool:
    """True if the kernel runs games under ``rules`` now: it is on, and the rules have no part it cannot run.

    Further endings (``RuleSet.endings``) and scorings of one's own are Python
    hooks, which the kernel leaves to the Python engine; so are rules with an
    option the kernel does not know (a :class:`~crapette.RuleSet` subclass with
    a field of its own, or an option newer than the kernel: it keeps a list of
    the options it runs, by name). Every other option and part runs in it.

    >>> supports("classic(revisits=false)") == AVAILABLE, supports("casual(endings=no-progress:20)")
    (True, False)

    :raises TypeError: if ``rules`` is neither a RuleSet nor a rules text.
    """
    return _on and _compiled(to_rules(rules, "supports()")) is not None


def self_play(
    starts: list[GameState], seeds: list[int], policy: int, epsilon: float, max_moves: int, keep: int
) -> list[tuple[tuple[GameState, ...], Outcome | None, int]] | None:
    """Games played on from ``starts`` inside the kernel, or None (see :func:`crapette.selfplay.self_play`)."""
    return _self_play(starts, seeds, policy, epsilon, max_moves, keep)


set_enabled(True)
