"""``dataclass`` without methods compiled for each class (issue 26).

The standard ``dataclass`` writes a class's ``__init__``, ``__repr__`` and ``__eq__`` (frozen: also
``__hash__``, ``__setattr__`` and ``__delattr__``) as source text and compiles each: about a million
instructions a method, six million a frozen class, paid at import. A lexical search imports 16 such
classes and ``status`` 28, more than the interpreter's own start. This ``dataclass`` lets the standard
one collect the fields and generate nothing, then gives the class the same methods as closures over
its field list, whose code every class shares: construction (positional or keyword, defaults,
default factories, ``__post_init__``), equality and hashing over the compared fields, ``repr``, and,
frozen, no assignment. ``fields``, ``replace``, ``asdict`` and ``is_dataclass`` work as on any
dataclass. Every dataclass of clawmem comes from here (``tests/test_records.py``).

A type checker sees the standard ``dataclass``, so every construction is checked as before.
"""

from __future__ import annotations

import dataclasses
import operator
import reprlib
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError, fields
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dataclasses import dataclass
else:

    def dataclass(cls: type | None = None, /, *, frozen: bool = False) -> Any:
        """``@dataclass`` or ``@dataclass(frozen=True)``, its methods shared (the module's docstring)."""

        def wrap(cls: type) -> type:
            return _build(cls, frozen=frozen)

        return wrap if cls is None else wrap(cls)


def _build(cls: type, *, frozen: bool) -> type:
    own = vars(cls)
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))  # as dataclass reads it
    undocumented = not cls.__doc__
    if undocumented:  # else the standard decorator asks ``inspect.signature`` for a doc (tokenizing its text)
        cls.__doc__ = cls.__name__
    dataclasses.dataclass(init=False, repr=False, eq=False)(cls)
    every = fields(cls)
    if undocumented:
        cls.__doc__ = _signature_doc(cls.__name__, every)
    if any(not f.init or f.kw_only for f in every):
        raise TypeError(f"{cls.__qualname__}: no init=False or keyword-only field here (clawmem.foundation.records)")
    compared = _values(tuple(f.name for f in every if f.compare))
    methods: dict[str, Any] = {
        "__init__": _init(cls, every),
        "__repr__": _repr(tuple(f.name for f in every if f.repr)),
        "__eq__": _eq(compared),
    }
    if frozen:
        methods["__setattr__"], methods["__delattr__"] = _frozen(cls, frozenset(f.name for f in every))
    for name, method in methods.items():
        if name not in own:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if not explicit_hash:  # dataclass's table for eq=True: hashable when frozen, unhashable when not
        hashed = _values(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))
        cls.__hash__ = _hash(hashed) if frozen else None  # type: ignore[method-assign,assignment]
    return cls


def _signature_doc(name: str, every: tuple[Field[Any], ...]) -> str:
    """What the standard decorator gives a class without a docstring: its name and ``__init__``'s signature.

    Annotations are text here (every module of clawmem has ``from __future__ import annotations``).
    """

    def parameter(f: Field[Any]) -> str:
        default = "" if f.default is MISSING and f.default_factory is MISSING else f" = {'<factory>' if f.default is MISSING else repr(f.default)}"
        return f"{f.name}: {f.type!r}{default}"

    return f"{name}({', '.join(parameter(f) for f in every)})"


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's values of ``names``: what a dataclass compares and hashes."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda obj: tuple(getattr(obj, name) for name in names)


def _init(cls: type, every: tuple[Field[Any], ...]) -> Callable[..., None]:
    names = tuple(f.name for f in every)
    defaults = {f.name: f.default for f in every if f.default is not MISSING}
    factories = {f.name: f.default_factory for f in every if f.default_factory is not MISSING}
    post_init = hasattr(cls, "__post_init__")
    most = len(names)
    put = object.__setattr__  # as a frozen dataclass's __init__ does

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > most:
            raise TypeError(f"{type(self).__qualname__}.__init__() takes {most + 1} positional arguments but {len(args) + 1} were given")
        for name, value in zip(names, args, strict=False):
            if name in kwargs:
                raise TypeError(f"{type(self).__qualname__}.__init__() got multiple values for argument {name!r}")
            put(self, name, value)
        for name in names[len(args):]:
            if name in kwargs:
                put(self, name, kwargs.pop(name))
            elif name in defaults:
                put(self, name, defaults[name])
            elif name in factories:
                put(self, name, factories[name]())
            else:
                raise TypeError(f"{type(self).__qualname__}.__init__() missing required argument: {name!r}")
        if kwargs:
            raise TypeError(f"{type(self).__qualname__}.__init__() got an unexpected keyword argument {next(iter(kwargs))!r}")
        if post_init:
            self.__post_init__()

    return __init__


def _repr(names: tuple[str, ...]) -> Callable[[Any], str]:
    @reprlib.recursive_repr()  # a record that holds itself prints "...", as a dataclass's does
    def __repr__(self: Any) -> str:
        return f"{type(self).__qualname__}({', '.join(f'{name}={getattr(self, name)!r}' for name in names)})"

    return __repr__


def _eq(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any, object], Any]:
    def __eq__(self: Any, other: object) -> Any:
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash(values: Callable[[Any], tuple[Any, ...]]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(values(self))

    return __hash__


def _frozen(owner: type[Any], names: frozenset[str]) -> tuple[Callable[[Any, str, Any], None], Callable[[Any, str], None]]:
    """``__setattr__`` and ``__delattr__`` refusing the fields (a subclass may still set attributes of its own)."""

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is owner or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__
