"""Argument checks: one function per check, shared by every entry point.

One error type per cause: a value of the wrong type raises TypeError, a value
of the right type out of range raises ValueError, except a seed, which raises
ValueError whatever is wrong with it (as :func:`~crapette.new_game` has always
documented). Rules are read by :func:`crapette._core.rules.to_rules`, beside the
rules parser it needs; this module sits below the cards and imports only the
error helpers.
"""

from __future__ import annotations

import json
import operator
from typing import Any

from ..errors import ParseError
from .messages import brief

__all__ = ["MAX_PLAYOUTS", "MAX_SECONDS", "SEED_LIMIT", "check_int", "check_seconds", "check_seed", "strict_json"]

#: Seeds are ints from 0 to ``SEED_LIMIT - 1``.
SEED_LIMIT = 2**64

#: The most playouts a bot may spend on one decision (its ``playouts`` or ``budget``): a few
#: minutes of thought at most, and a bot's memory stays bounded whatever it is given.
MAX_PLAYOUTS = 1_000_000
#: The longest time limit a bot takes, in seconds.
MAX_SECONDS = 3600.0


def check_seed(seed: object, name: str = "seed") -> int:
    """``seed`` as an int if it is a valid seed: an int with ``0 <= seed < 2**64``.

    Any integer type will do (a NumPy int, say: anything with ``__index__``)
    but a bool. ``name`` says what the seed is called where it was given.

    >>> check_seed(7)
    7
    >>> check_seed("7")
    Traceback (most recent call last):
    ...
    ValueError: seed must be an int with 0 <= seed < 2**64, got '7'

    :raises ValueError: for anything else, whatever its type.
    """
    if type(seed) is int and 0 <= seed < SEED_LIMIT:
        return seed
    if not isinstance(seed, bool) and hasattr(seed, "__index__"):
        try:
            value = operator.index(seed)
        except Exception:  # an __index__ that fails is no integer
            value = -1
        if 0 <= value < SEED_LIMIT:
            return value
    raise ValueError(f"{name} must be an int with 0 <= seed < 2**64, got {brief(seed)}")


def check_int(name: str, value: object, low: int, high: int | None = None) -> int:
    """``value`` if it is an int (not a bool) from ``low`` to ``high`` (no upper bound if None).

    >>> check_int("budget", 3, 1)
    3
    >>> check_int("budget", 0, 1)
    Traceback (most recent call last):
    ...
    ValueError: budget must be at least 1, got 0

    :raises TypeError: if ``value`` is not an int.
    :raises ValueError: if it is out of range.
    """
    if type(value) is not int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise TypeError(f"{name} must be an int, got {type(value).__name__}")
        value = int(value)
    if value < low:
        raise ValueError(f"{name} must be at least {low}, got {brief(value)}")
    if high is not None and value > high:
        raise ValueError(f"{name} must be from {low} to {high}, got {brief(value)}")
    return value


def check_seconds(name: str, value: object) -> float | None:
    """``value`` as a time limit: None (no limit) or a number of seconds above 0 and at most :data:`MAX_SECONDS`.

    >>> check_seconds("seconds", 2)
    2.0
    >>> check_seconds("seconds", 0)
    Traceback (most recent call last):
    ...
    ValueError: seconds must be above 0 and at most 3600, got 0

    :raises TypeError: if ``value`` is neither None nor a number.
    :raises ValueError: if it is out of range (or not a number at all, such as NaN).
    """
    if value is None:
        return None
    if type(value) not in (int, float):
        raise TypeError(f"{name} must be a number, got {type(value).__name__}")
    if not 0 < value <= MAX_SECONDS:  # type: ignore[operator]
        raise ValueError(f"{name} must be above 0 and at most {MAX_SECONDS:g}, got {brief(value)}")
    return float(value)  # type: ignore[arg-type]


def strict_json(text: str, what: str) -> Any:
    """``json.loads(text)``, refusing what JSON leaves open: a key twice in an object, NaN and Infinity.

    The one strict reader of the formats' JSON (records, views); ``what`` names
    the format in the message. Text that is no JSON raises what :func:`json.loads`
    raises, and nesting too deep :class:`RecursionError`: the callers say so.

    >>> strict_json('{"a": 1}', "record")
    {'a': 1}
    >>> strict_json('{"a": 1, "a": 2}', "view")
    Traceback (most recent call last):
    ...
    crapette.ParseError: invalid view JSON: key 'a' appears twice in an object

    :raises ParseError: for a key twice in an object, or NaN or Infinity.
    """

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise ParseError(f"invalid {what} JSON: key {brief(key, 40)} appears twice in an object")
            result[key] = value
        return result

    def no_constant(name: str) -> Any:
        raise ParseError(f"invalid {what} JSON: {name} is not a number JSON allows")

    return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=no_constant)
