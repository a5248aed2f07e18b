"""``clawmem.foundation.records.dataclass``: the standard dataclass's behaviour, without its compiled methods (issue 26).

Every command imports dozens of clawmem's dataclasses; the standard decorator compiles six methods
from source for each frozen one (about six million instructions a class), and importing the standard
module costs 8 ms. Each case below is run on a class from ``records`` and on the same class from the
standard decorator, and must come out the same; every dataclass of clawmem must take its methods from
``records``; and importing one must not import the standard module.
"""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
import types

import pytest

import clawmem
from clawmem.foundation import records


def _pair(*, frozen: bool) -> tuple[type, type]:
    """The same class made by the standard module and by ``records``."""
    made = []
    for decorate, field in ((dataclasses.dataclass, dataclasses.field), (records.dataclass, records.field)):
        namespace = {
            "__module__": __name__, "__qualname__": "Point",
            "__annotations__": {"x": "int", "y": "int", "label": "str", "tags": "list[str]", "note": "str"},
            "label": "p", "tags": field(default_factory=list, hash=False), "note": field(default="", compare=False, metadata={"doc": "d"}),
        }
        made.append(decorate(frozen=frozen)(type("Point", (), namespace)))
    return made[0], made[1]


def _outcome(call):
    try:
        return ("ok", call())
    except Exception as err:
        return (type(err).__name__, str(err).split(".__init__() ")[-1])


@pytest.mark.parametrize("frozen", [True, False])
def test_a_record_behaves_as_the_standard_dataclass(frozen):
    standard, ours = _pair(frozen=frozen)
    for cls in (standard, ours):
        a, b, c = cls(1, 2), cls(x=1, y=2, label="p"), cls(1, 3, note="other")
        facts = (
            repr(a), a == b, a != c, a == cls(1, 2, note="ignored in equality"), a.__eq__(object()),
            dataclasses.asdict(a), dataclasses.replace(a, y=5).y, records.replace(a, y=6).y if cls is ours else 6,
            [(f.name, f.type, f.default, f.compare, f.hash, dict(f.metadata)) for f in dataclasses.fields(cls)], "label" in vars(cls), "tags" in vars(cls),
            cls.__match_args__, a.tags is not cls(1, 2).tags, dataclasses.is_dataclass(cls),
        )
        if frozen:
            facts += (hash(a) == hash(b) == hash(cls(1, 2, note="not hashed either")), _outcome(lambda a=a: setattr(a, "x", 9)), _outcome(lambda a=a: delattr(a, "x")))
        else:
            a.x = 9
            facts += (cls.__hash__ is None, a.x)
        facts += (cls.__doc__,)
        errors = tuple(_outcome(call) for call in (
            lambda cls=cls: cls(1), lambda cls=cls: cls(1, 2, zz=3), lambda cls=cls: cls(1, 2, x=3), lambda cls=cls: cls(1, 2, "a", [], "n", 6),
        ))
        if cls is standard:
            expected = (facts, [kind for kind, _ in errors])
        else:
            assert (facts, [kind for kind, _ in errors]) == expected
    assert "'y'" in _outcome(lambda: ours(1))[1] and "zz" in _outcome(lambda: ours(1, 2, zz=3))[1]


def test_post_init_runs_and_methods_a_class_defines_are_kept():
    @records.dataclass(frozen=True)
    class Named:
        name: str
        shown: str = ""

        def __post_init__(self) -> None:
            if not self.shown:
                object.__setattr__(self, "shown", self.name.title())

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert Named("ada").shown == "Ada" and repr(Named("ada")) == "<ada>"
    assert Named("ada") == Named("ada", "Ada") and hash(Named("ada")) == hash(Named("ada", "Ada"))


def test_a_subclass_adds_its_fields_after_the_bases():
    @records.dataclass
    class Base:
        a: int

    @records.dataclass
    class Child(Base):
        b: int = 2

    assert repr(Child(1)).endswith(".Child(a=1, b=2)") and Child(1) != Base(1)


def _dataclasses() -> list[type]:
    found = []
    for info in pkgutil.walk_packages(clawmem.__path__, "clawmem."):
        try:
            module = importlib.import_module(info.name)
        except ImportError:
            continue  # an optional backend's package is not installed
        found += [v for v in vars(module).values() if isinstance(v, type) and dataclasses.is_dataclass(v) and v.__module__ == info.name]
    return found


def test_every_dataclass_of_clawmem_shares_the_records_methods():
    shared = records._init(object, ()).__code__
    classes = _dataclasses()
    assert len(classes) > 100
    compiled = [cls.__qualname__ for cls in classes if not isinstance(cls.__init__, types.FunctionType) or cls.__init__.__code__ is not shared]
    assert compiled == []


def test_a_record_module_imports_no_standard_dataclasses():
    import subprocess
    import sys

    probe = "import sys, clawmem.foundation.config, clawmem.search.results; print('dataclasses' in sys.modules, 'inspect' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split() == ["False", "False"]
