"""The text of a rule part: :func:`parse_part` reads ``name``, ``name:param:...`` and ``name:param=value...``.

``str(part)`` writes a part's text (:class:`~crapette.RulePart`); this module
reads it back, and says, when it cannot, what the part's parameters are and in
which order they come.
"""

from __future__ import annotations

import difflib
from typing import TypeVar

import attrs

from ..errors import InvalidRulesError, ParseError
from .messages import brief
from .outcome import MAX_PART_TEXT
from .parts import RulePart, param_text, param_types, registered

__all__ = ["parse_part"]

_P = TypeVar("_P", bound=RulePart)


def parse_part(kind: type[_P], text: str) -> _P:
    """The part of ``kind`` that ``text`` names: ``name``, ``name:param:param...`` or ``name:param=value...``.

    A bare name takes every default. Parameters are written in the part's
    order (:attr:`RulePart.written`: for a scoring of one's own, ``win_bonus``
    and ``match_target`` come first, then its own fields), or by name, in any
    order, after those given in order: the parameters not named take their
    defaults. ``str(part)`` writes them all, in order.

    >>> from crapette import Build, Scoring
    >>> parse_part(Scoring, "weighted:30:2:1:1:60").match_target
    60
    >>> parse_part(Scoring, "weighted:match_target=60") == parse_part(Scoring, "weighted:30:2:1:1:60")
    True
    >>> parse_part(Scoring, "weighted:60")
    Traceback (most recent call last):
    ...
    crapette.ParseError: scoring weighted takes 5 parameters, in this order: win_bonus (default 30), reserve_weight (default 2), hand_weight (default 1), waste_weight (default 1), match_target (default 150); got 1 in 'weighted:60'. Write all 5 in order, name the ones you set, or its name alone for the defaults: weighted:match_target=60
    >>> parse_part(Build, "down-in-colour")
    Traceback (most recent call last):
    ...
    crapette.InvalidRulesError: unknown building rule 'down-in-colour': no building rule of that name is registered (known: down-alternating, ...); a part of your own is registered with @crapette.register in the module that defines it, which must be imported before the text is read

    :raises InvalidRulesError: if no part of that name is registered, or the
        parameters do not make a valid part.
    :raises ParseError: if a parameter is not a whole number or true/false,
        the parameters are too many or too few, or a name is not a parameter's.

    .. versionchanged:: 0.3.0
       Parameters may be given by name (``weighted:match_target=60``).
    """
    table = registered(kind)
    if len(text) > MAX_PART_TEXT:
        raise ParseError(f"a {kind.kind} is at most {MAX_PART_TEXT} characters, got {len(text)}")
    name, *args = text.split(":")
    cls = table.get(name)
    if cls is None:
        known = ", ".join(sorted(table))
        shown = repr(name) if len(name) <= 40 else repr(name[:40]) + "..."
        close = difflib.get_close_matches(name, list(table), n=1, cutoff=0.75)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise InvalidRulesError(
            f"unknown {kind.kind} {shown}{hint}: no {kind.kind} of that name is registered "
            f"(known: {known}); a part of your own is registered with @crapette.register "
            "in the module that defines it, which must be imported before the text is read"
        )
    params = param_types(cls)
    fields = attrs.fields(cls) if attrs.has(cls) else ()
    named = [a for a in args if "=" in a]
    if named:
        return _build(cls, kind, text, _by_name(cls, kind, name, text, params, args))  # type: ignore[return-value]
    if not args:
        missing = [f.name for f in fields if f.name in dict(params) and f.default is attrs.NOTHING]
        if not missing:
            params = ()  # a bare name: every parameter takes its default
    elif len(args) != len(params) and len(args) == len(fields):
        # Written before the part left out the parameters it ignores: read every field.
        params = tuple((f.name, bool if f.type in (bool, "bool") else int) for f in fields)
    if len(args) != len(params):
        raise ParseError(_count_problem(cls, kind, name, text, params, args))
    return _build(cls, kind, text, {p: _value(name, p, t, a) for (p, t), a in zip(params, args)})  # type: ignore[return-value]


def _value(part: str, pname: str, ptype: type, arg: str) -> object:
    if ptype is bool:
        if arg not in ("true", "false"):
            raise ParseError(f"{part} parameter {pname} must be true or false, got {arg[:30]!r}")
        return arg == "true"
    if not (arg.isascii() and arg.isdigit() and len(arg) <= 30):
        raise ParseError(f"{part} parameter {pname} must be a whole number, got {arg[:30]!r}")
    return int(arg)


def _defaults(cls: type[RulePart], params: tuple[tuple[str, type], ...]) -> list[str]:
    """Each parameter with its default, as a message lists them."""
    fields = {f.name: f for f in attrs.fields(cls)} if attrs.has(cls) else {}
    out = []
    for pname, _ in params:
        default = fields[pname].default if pname in fields else attrs.NOTHING
        out.append(pname if default is attrs.NOTHING else f"{pname} (default {param_text(default)})")
    return out


def _count_problem(
    cls: type[RulePart], kind: type[RulePart], name: str, text: str, params: tuple[tuple[str, type], ...], args: list[str]
) -> str:
    """Why ``args`` are too many or too few for ``params``, and how to write them."""
    count = len(params)
    head = f"{kind.kind} {name} takes {count} parameter{'s' if count != 1 else ''}"
    if not count:
        return f"{head}: write its name alone; got {brief(text)}"
    order = f"in this order: {', '.join(_defaults(cls, params))}"
    bare = all("(default" in shown for shown in _defaults(cls, params))
    every = "it" if count == 1 else "both" if count == 2 else f"all {count}"
    how = f"Write {every} in order, {'name the ones you set, or its name alone for the defaults' if bare else 'or name the ones you set'}"
    if len(args) < count:
        # Most often the part's own parameters, given without the ones that come before them.
        how += ": " + ":".join([name, *(f"{p}={a}" for (p, _), a in zip(params[count - len(args):], args))])
    return f"{head}, {order}; got {len(args)} in {brief(text)}. {how}"


def _by_name(
    cls: type[RulePart], kind: type[RulePart], name: str, text: str, params: tuple[tuple[str, type], ...], args: list[str]
) -> dict[str, object]:
    """The values of ``args``: those in order first, then ``param=value``; the others take their defaults."""
    types = dict(params)
    values: dict[str, object] = {}
    for i, arg in enumerate(args):
        if "=" not in arg:
            if values.keys() - dict(params[:i]).keys():
                raise ParseError(f"{name}: parameter {i + 1} ({brief(arg)}) comes after one given by name in {brief(text)}")
            if i >= len(params):
                raise ParseError(_count_problem(cls, kind, name, text, params, args))
            pname, ptype = params[i]
            values[pname] = _value(name, pname, ptype, arg)
            continue
        pname, _, raw = arg.partition("=")
        pname = pname.strip()
        if pname not in types:
            close = difflib.get_close_matches(pname, list(types), n=1, cutoff=0.6)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            listed = ", ".join(types) or "none"
            raise ParseError(f"{kind.kind} {name} has no parameter {brief(pname)}{hint}; its parameters: {listed}")
        if pname in values:
            raise ParseError(f"{name}: parameter {pname} given twice in {brief(text)}")
        values[pname] = _value(name, pname, types[pname], raw.strip())
    missing = [
        f.name for f in (attrs.fields(cls) if attrs.has(cls) else ()) if f.name in types and f.name not in values
        and f.default is attrs.NOTHING
    ]
    if missing:
        raise ParseError(f"{kind.kind} {name} needs {', '.join(missing)}: it has no default; got {brief(text)}")
    return values


def _build(cls: type[RulePart], kind: type[RulePart], text: str, values: dict[str, object]) -> RulePart:
    try:
        return cls(**values)
    except (ValueError, TypeError) as exc:
        raise InvalidRulesError(f"{kind.kind} {text[:60]!r}: {exc}") from None
