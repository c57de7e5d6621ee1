"""Argument checks: one function per check, shared by every entry point.

One error type per cause: a value of the wrong type raises TypeError, a value
of the right type out of range raises ValueError, except a seed, which raises
ValueError whatever is wrong with it (as :func:`~crapette.new_game` has always
documented). Rules are read by :func:`crapette._rules.to_rules`, beside the
rules parser it needs; this module sits below the cards and imports only the
error helpers.
"""

from __future__ import annotations

import operator

from ._errors import brief

__all__ = ["SEED_LIMIT", "check_int", "check_seed"]

#: Seeds are ints from 0 to ``SEED_LIMIT - 1``.
SEED_LIMIT = 2**64


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
