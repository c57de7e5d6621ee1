"""The kinds of option a RuleSet has, and the one declaration of each option.

Every option of :class:`~crapette.RuleSet` is declared once, by :func:`option`,
with a kind that knows the option's type, how it is converted from what a user
passes, how it is written and read as text and as JSON, and which Hypothesis
strategy draws it. Rules texts, position strings, records, the public view's
JSON, :mod:`crapette.strategies` and the documentation's table of options are
all derived from these declarations (:meth:`RuleSet.options
<crapette.RuleSet.options>`).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, Generic, Optional, TypeVar, cast

import attrs

from ..errors import InvalidRulesError, ParseError
from .messages import brief
from .outcome import MAX_NUMBER, check_number
from .part_text import parse_part
from .parts import RulePart, is_built_in_class, registered

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Option", "option"]

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)
P = TypeVar("P", bound=RulePart)

#: Digits accepted in one number of a text (bounds the work of int()).
MAX_DIGITS = 30


def parse_number(name: str, text: str) -> int:
    """A whole number of at most 30 digits, else :class:`ParseError` naming ``name``."""
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
        raise ParseError(f"{name} must be a whole number, got {brief(text, 40)}")
    return int(text)


class Kind(Generic[T]):
    """The type of an option: conversion, text, JSON, strategy and a description for the docs."""

    def convert(self, name: str, value: object) -> T:
        raise NotImplementedError

    def to_text(self, value: T) -> str:
        raise NotImplementedError

    def from_text(self, name: str, text: str) -> T:
        raise NotImplementedError

    def to_json(self, value: T) -> Any:
        return self.to_text(value)

    def strategy(self) -> SearchStrategy[T]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError


class Count(Kind[int]):
    def __init__(self, low: int, high: int = MAX_NUMBER, example_high: int | None = None) -> None:
        self.low, self.high = low, high
        self.example_high = high if example_high is None else example_high

    def convert(self, name: str, value: object) -> int:
        problem = check_number(name, value, self.low, self.high)
        if problem:
            raise InvalidRulesError(problem)
        return int(cast(int, value))

    def to_text(self, value: int) -> str:
        return str(value)

    def from_text(self, name: str, text: str) -> int:
        return parse_number(name, text)

    def to_json(self, value: int) -> Any:
        return value

    def strategy(self) -> SearchStrategy[int]:
        from hypothesis import strategies as st

        return st.integers(min_value=self.low, max_value=self.example_high)

    def describe(self) -> str:
        if self.high == MAX_NUMBER:
            return f"int, at least {self.low}"
        return f"int, {self.low} to {self.high}"


class Limit(Kind[Optional[int]]):
    """None, or an int from ``low``."""

    def __init__(self, low: int, example_high: int) -> None:
        self.count = Count(low, example_high=example_high)

    def convert(self, name: str, value: object) -> int | None:
        return None if value is None else self.count.convert(name, value)

    def to_text(self, value: int | None) -> str:
        return "none" if value is None else str(value)

    def from_text(self, name: str, text: str) -> int | None:
        return None if text == "none" else parse_number(name, text)

    def to_json(self, value: int | None) -> Any:
        return value

    def strategy(self) -> SearchStrategy[int | None]:
        from hypothesis import strategies as st

        return st.none() | self.count.strategy()

    def describe(self) -> str:
        return f"int, at least {self.count.low}, or None"


class Flag(Kind[bool]):
    def convert(self, name: str, value: object) -> bool:
        if not isinstance(value, bool):
            raise InvalidRulesError(f"{name} must be True or False, got {brief(value)}")
        return value

    def to_text(self, value: bool) -> str:
        return "true" if value else "false"

    def from_text(self, name: str, text: str) -> bool:
        if text not in ("true", "false"):
            raise ParseError(f"{name} must be true or false, got {brief(text, 40)}")
        return text == "true"

    def to_json(self, value: bool) -> Any:
        return value

    def strategy(self) -> SearchStrategy[bool]:
        from hypothesis import strategies as st

        return st.booleans()

    def describe(self) -> str:
        return "bool"


class Choice(Kind[E]):
    """One member of a str enum; given as the member or its string."""

    def __init__(self, enum_type: type[E]) -> None:
        self.type = enum_type
        self.values = {m.value: m for m in enum_type}

    def convert(self, name: str, value: object) -> E:
        if isinstance(value, self.type):
            return value
        member = self.values.get(value) if isinstance(value, str) else None
        if member is None:
            choices = ", ".join(repr(v) for v in self.values)
            raise InvalidRulesError(f"{name} must be one of {choices}, got {brief(value)}")
        return member

    def to_text(self, value: E) -> str:
        return str(value.value)

    def from_text(self, name: str, text: str) -> E:
        member = self.values.get(text)
        if member is None:
            raise ParseError(f"{name} must be one of {', '.join(self.values)}, got {brief(text, 40)}")
        return member

    def strategy(self) -> SearchStrategy[E]:
        from hypothesis import strategies as st

        return st.sampled_from(self.type)

    def describe(self) -> str:
        return f":class:`~crapette.{self.type.__name__}`"


class Subset(Kind[tuple[E, ...]]):
    """Some members of a str enum, in the enum's order; given as any collection of members or strings."""

    def __init__(self, enum_type: type[E]) -> None:
        self.choice = Choice(enum_type)

    def convert(self, name: str, value: object) -> tuple[E, ...]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise InvalidRulesError(
                f"{name} must be a collection of {', '.join(map(repr, self.choice.values))}, got {brief(value)}"
            )
        found = {self.choice.convert(f"an item of {name}", item) for item in value}
        return tuple(m for m in self.choice.type if m in found)

    def to_text(self, value: tuple[E, ...]) -> str:
        return "+".join(str(v.value) for v in value) or "none"

    def from_text(self, name: str, text: str) -> tuple[E, ...]:
        if text == "none":
            return ()
        return self.convert(name, [self.choice.from_text(name, part) for part in text.split("+")])

    def to_json(self, value: tuple[E, ...]) -> Any:
        return [str(v.value) for v in value]

    def strategy(self) -> SearchStrategy[tuple[E, ...]]:
        from hypothesis import strategies as st

        members = list(self.choice.type)
        return st.lists(st.sampled_from(members), unique=True).map(
            lambda items: tuple(m for m in members if m in items)
        )

    def describe(self) -> str:
        return f"a collection of :class:`~crapette.{self.choice.type.__name__}`"


class Part(Kind[P]):
    """A registered rule part of one kind; given as a part or its text (``"down-alternating"``)."""

    def __init__(self, base: type[P], *, exclude: tuple[type[RulePart], ...] = ()) -> None:
        self.base = base
        self.exclude = exclude

    def convert(self, name: str, value: object) -> P:
        if isinstance(value, str):
            try:
                value = parse_part(self.base, value)
            except ParseError as exc:
                raise InvalidRulesError(f"{name}: {exc}") from None
        if not isinstance(value, self.base):
            raise InvalidRulesError(
                f"{name} must be a {self.base.kind} ({self.base.__name__}) or its name, got {brief(value)}"
            )
        if isinstance(value, self.exclude):
            raise InvalidRulesError(
                f"{name} cannot hold {value}: that {self.base.kind} is selected by its own option of RuleSet"
            )
        if type(value) not in registered(self.base).values():
            raise InvalidRulesError(
                f"{name}: {type(value).__qualname__} is not registered: decorate it with "
                "@crapette.register so that texts can name it"
            )
        return value

    def to_text(self, value: P) -> str:
        return str(value)

    def from_text(self, name: str, text: str) -> P:
        return self.convert(name, parse_part(self.base, text))

    def classes(self) -> list[type[RulePart]]:
        """The registered classes that strategies draw from: crapette's own (built-in and :mod:`crapette.variants`)."""
        return [
            c
            for c in registered(self.base).values()
            if not issubclass(c, self.exclude) and is_built_in_class(c)
        ]

    def strategy(self) -> SearchStrategy[P]:
        from hypothesis import strategies as st

        def values(cls: type[RulePart]) -> SearchStrategy[P]:
            return cast("SearchStrategy[P]", cls.strategy())

        return st.sampled_from(self.classes()).flatmap(values)

    def describe(self) -> str:
        return f"a :class:`~crapette.{self.base.__name__}` or its name"


class OptionalPart(Kind[Optional[P]]):
    """None, or a registered rule part."""

    def __init__(self, base: type[P]) -> None:
        self.part = Part(base)

    def convert(self, name: str, value: object) -> P | None:
        return None if value is None or value == "none" else self.part.convert(name, value)

    def to_text(self, value: P | None) -> str:
        return "none" if value is None else str(value)

    def from_text(self, name: str, text: str) -> P | None:
        if text == "none":
            return None
        if text[:1].isdigit():
            # Before parts had names, the weighted scoring was written as its five numbers.
            text = f"{self.part.base.name}:{text}"
        return self.part.from_text(name, text)

    def to_json(self, value: P | None) -> Any:
        return None if value is None else str(value)

    def strategy(self) -> SearchStrategy[P | None]:
        from hypothesis import strategies as st

        return st.none() | self.part.strategy()

    def describe(self) -> str:
        return self.part.describe() + ", or None"


class Parts(Kind[tuple[P, ...]]):
    """A tuple of registered rule parts, in order."""

    def __init__(self, base: type[P], *, exclude: tuple[type[RulePart], ...] = ()) -> None:
        self.part = Part(base, exclude=exclude)

    def convert(self, name: str, value: object) -> tuple[P, ...]:
        if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
            raise InvalidRulesError(f"{name} must be a collection of {self.part.base.kind}s, got {brief(value)}")
        return tuple(self.part.convert(f"an item of {name}", item) for item in value)

    def to_text(self, value: tuple[P, ...]) -> str:
        return "+".join(map(str, value)) or "none"

    def from_text(self, name: str, text: str) -> tuple[P, ...]:
        if text == "none":
            return ()
        return self.convert(name, [parse_part(self.part.base, part) for part in text.split("+")])

    def to_json(self, value: tuple[P, ...]) -> Any:
        return [str(v) for v in value]

    def strategy(self) -> SearchStrategy[tuple[P, ...]]:
        from hypothesis import strategies as st

        if not self.part.classes():
            return st.just(())
        return st.lists(self.part.strategy(), max_size=2).map(tuple)

    def describe(self) -> str:
        return f"a tuple of :class:`~crapette.{self.part.base.__name__}`"


@attrs.frozen
class Option:
    """One option of :class:`~crapette.RuleSet`, as it is declared: every spelling of it derives from this.

    >>> from crapette import RuleSet
    >>> opt = RuleSet.options()[0]
    >>> opt.name, opt.default, opt.to_text(13), opt.from_text("13")
    ('reserve_size', 12, '13', 13)
    """

    #: The field's name in :class:`~crapette.RuleSet` and in rules texts.
    name: str
    #: The value when it is not given (the casual preset's).
    default: Any
    #: One line that says what the option does.
    doc: str
    _kind: Kind[Any] = attrs.field(alias="kind", repr=False)

    def convert(self, value: object) -> Any:
        """``value`` as the option's type (strings accepted for enum values and parts).

        :raises InvalidRulesError: if it is not a value of the option.
        """
        return self._kind.convert(self.name, value)

    def to_text(self, value: Any) -> str:
        """The value as rules texts write it (no spaces, commas or parentheses)."""
        return self._kind.to_text(value)

    def from_text(self, text: str) -> Any:
        """Read :meth:`to_text`'s output.

        :raises ParseError: if the text is not a value of the option.
        :raises InvalidRulesError: if it names an unregistered part or a value out of range.
        """
        return self.convert(self._kind.from_text(self.name, text))

    def to_json(self, value: Any) -> Any:
        """The value as JSON-ready data (int, bool, str, None or a list of str)."""
        return self._kind.to_json(value)

    def strategy(self) -> SearchStrategy[Any]:
        """A Hypothesis strategy for the option's values (needs Hypothesis)."""
        return self._kind.strategy()

    @property
    def type_text(self) -> str:
        """The option's type in words, for the documentation."""
        return self._kind.describe()


def option(kind: Kind[T], default: T, doc: str) -> T:
    """Declare an option of RuleSet: its kind, its default and its one-line doc."""

    def convert(value: object, field: attrs.Attribute[Any]) -> T:
        return kind.convert(field.name, value)

    converter: Any = attrs.Converter(convert, takes_field=True)
    declared: T = attrs.field(default=default, converter=converter, metadata={"crapette.option": (kind, doc)})
    return declared
