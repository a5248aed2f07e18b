"""``dataclass`` without methods compiled for each class, and without the standard module at import (issue 26).

The standard ``dataclass`` writes a class's ``__init__``, ``__repr__`` and ``__eq__`` (frozen: also
``__hash__``, ``__setattr__`` and ``__delattr__``) as source text and compiles each: about a million
instructions a method, six million a frozen class, paid at import. A lexical search imports 16 such
classes and ``status`` 28, more than the interpreter's own start; and importing ``dataclasses``
imports ``inspect`` (with ``ast``, ``dis`` and ``tokenize``), another 8 ms of wall time. This
``dataclass`` reads the fields itself (annotations, defaults, ``field``) and gives the class the
same methods as closures over its field list, whose code every class shares: construction
(positional or keyword, defaults, default factories, ``__post_init__``), equality and hashing over
the compared fields, ``repr``, and, frozen, no assignment. The standard module's view of the class
(``__dataclass_fields__``, so ``fields``, ``asdict``, ``is_dataclass`` and ``dataclasses.replace``
work as on any dataclass) is made by the standard decorator the first time it is asked for.
``replace`` here is ``dataclasses.replace`` without that import. Every dataclass of clawmem comes
from here (``tests/test_records.py``).

A type checker sees the standard ``dataclass``, ``field`` and ``replace``, so every use is checked as before.
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Callable
from typing import TYPE_CHECKING, Any


class _Missing:
    """No default given (the standard module's ``MISSING``, which this module does not import)."""

    def __repr__(self) -> str:
        return "<MISSING>"


MISSING: Any = _Missing()


class Spec:
    """A field as ``field()`` declares it and the decorator completes it (name, annotation)."""

    __slots__ = ("compare", "default", "default_factory", "hash", "metadata", "name", "repr", "type")

    def __init__(self, default: Any = MISSING, default_factory: Any = MISSING, *, repr: bool = True, hash: bool | None = None,
                 compare: bool = True, metadata: dict[str, Any] | None = None) -> None:
        self.default, self.default_factory, self.repr, self.hash, self.compare = default, default_factory, repr, hash, compare
        self.metadata: dict[str, Any] = metadata or {}
        self.name = ""
        self.type: Any = None


if TYPE_CHECKING:
    from dataclasses import dataclass, field, replace
else:

    def dataclass(cls: type | None = None, /, *, frozen: bool = False) -> Any:
        """``@dataclass`` or ``@dataclass(frozen=True)``, its methods shared (the module's docstring)."""

        def wrap(cls: type) -> type:
            return _build(cls, frozen=frozen)

        return wrap if cls is None else wrap(cls)

    def field(*, default: Any = MISSING, default_factory: Any = MISSING, repr: bool = True, hash: bool | None = None,
              compare: bool = True, metadata: dict[str, Any] | None = None) -> Any:
        """``dataclasses.field`` with the arguments clawmem uses."""
        return Spec(default, default_factory, repr=repr, hash=hash, compare=compare, metadata=metadata)

    def replace(obj: Any, /, **changes: Any) -> Any:
        """``dataclasses.replace`` for a record: a copy with ``changes``, made by its ``__init__``."""
        specs = getattr(type(obj), "__record_fields__", None)
        if specs is None:
            raise TypeError("replace() should be called on dataclass instances")
        return type(obj)(**{name: getattr(obj, name) for name in specs if name not in changes}, **changes)


def record_fields(cls: type) -> tuple[Spec, ...]:
    """A record's fields in order (its bases' first), as ``dataclasses.fields`` lists them."""
    return tuple(cls.__record_fields__.values())  # type: ignore[attr-defined]


def _build(cls: type, *, frozen: bool) -> type:
    own = vars(cls)
    class_hash = own.get("__hash__", MISSING)
    explicit_hash = not (class_hash is MISSING or (class_hash is None and "__eq__" in own))  # as dataclass reads it
    specs: dict[str, Spec] = {}
    for base in reversed(cls.__mro__[1:]):
        specs.update(base.__dict__.get("__record_fields__", {}))
    for name, annotation in own.get("__annotations__", {}).items():
        if isinstance(annotation, str) and annotation.partition("[")[0].rpartition(".")[2] in ("ClassVar", "InitVar", "KW_ONLY"):
            raise TypeError(f"{cls.__qualname__}.{name}: no ClassVar, InitVar or KW_ONLY here (clawmem.foundation.records)")
        value = own.get(name, MISSING)
        spec = value if isinstance(value, Spec) else Spec(value)
        if isinstance(value, Spec):  # as the standard decorator leaves the class: the default, or no attribute
            if spec.default is MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        spec.name, spec.type = name, annotation
        specs[name] = spec
    every = tuple(specs.values())
    cls.__record_fields__ = specs  # type: ignore[attr-defined]
    for attribute in ("__dataclass_fields__", "__dataclass_params__"):
        setattr(cls, attribute, _Standard(cls, attribute, frozen))
    if "__match_args__" not in own:
        cls.__match_args__ = tuple(specs)  # type: ignore[attr-defined,misc]
    if not cls.__doc__:
        cls.__doc__ = _signature_doc(cls.__name__, every)
    compared = _values(tuple(f.name for f in every if f.compare))
    methods: dict[str, Any] = {
        "__init__": _init(cls, every),
        "__repr__": _repr(tuple(f.name for f in every if f.repr)),
        "__eq__": _eq(compared),
    }
    if frozen:
        methods["__setattr__"], methods["__delattr__"] = _frozen(cls, frozenset(specs))
    for name, method in methods.items():
        if name not in own:
            method.__qualname__ = f"{cls.__qualname__}.{name}"
            setattr(cls, name, method)
    if not explicit_hash:  # dataclass's table for eq=True: hashable when frozen, unhashable when not
        hashed = _values(tuple(f.name for f in every if (f.compare if f.hash is None else f.hash)))
        cls.__hash__ = _hash(hashed) if frozen else None  # type: ignore[method-assign,assignment]
    return cls


class _Standard:
    """``__dataclass_fields__`` or ``__dataclass_params__`` of a record, made by the standard decorator when first asked.

    The decorator runs on a stand-in class with the record's fields (its own methods are never used),
    and both attributes of the record are then the stand-in's: what ``fields``, ``asdict`` and
    ``is_dataclass`` read.
    """

    def __init__(self, cls: type, attribute: str, frozen: bool) -> None:
        self.cls, self.attribute, self.frozen = cls, attribute, frozen

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        import dataclasses

        cls = self.cls
        namespace: dict[str, Any] = {"__module__": cls.__module__, "__qualname__": cls.__qualname__, "__doc__": cls.__doc__, "__annotations__": {}}
        for spec in record_fields(cls):
            given = {"default": spec.default, "default_factory": spec.default_factory}
            namespace["__annotations__"][spec.name] = spec.type
            namespace[spec.name] = dataclasses.field(
                **{key: value for key, value in given.items() if value is not MISSING},
                repr=spec.repr, hash=spec.hash, compare=spec.compare, metadata=spec.metadata,
            )
        made: Any = dataclasses.dataclass(init=False, repr=False, eq=False, frozen=self.frozen)(type(cls.__name__, (), namespace))
        for attribute in ("__dataclass_fields__", "__dataclass_params__"):
            type.__setattr__(cls, attribute, getattr(made, attribute))
        return getattr(cls, self.attribute)


def _signature_doc(name: str, every: tuple[Spec, ...]) -> str:
    """What the standard decorator gives a class without a docstring: its name and ``__init__``'s signature.

    Annotations are text here (every module of clawmem has ``from __future__ import annotations``).
    """

    def parameter(f: Spec) -> str:
        default = "" if f.default is MISSING and f.default_factory is MISSING else f" = {'<factory>' if f.default is MISSING else repr(f.default)}"
        return f"{f.name}: {f.type!r}{default}"

    return f"{name}({', '.join(parameter(f) for f in every)})"


def _values(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """The tuple of an instance's values of ``names``: what a dataclass compares and hashes."""
    if len(names) > 1:
        return operator.attrgetter(*names)
    return lambda obj: tuple(getattr(obj, name) for name in names)


def _init(cls: type, every: tuple[Spec, ...]) -> Callable[..., None]:
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
            raise _frozen_error(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is owner or name in names:
            raise _frozen_error(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    return __setattr__, __delattr__


def _frozen_error(message: str) -> Exception:
    """The standard module's ``FrozenInstanceError`` (imported when a frozen record is written to: a bug, never a path)."""
    from dataclasses import FrozenInstanceError

    return FrozenInstanceError(message)
