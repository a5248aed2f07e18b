"""The in-process gates-off switch (``gates_off.removed``) removes what a fresh ``gates_off.py`` process removes, and puts it back.

In a fresh process the script swaps the table in before the CLI imports most of clawmem, so a
module imported later binds the replacement. In the test process every module may already be
imported, so the switch replaces each original wherever a clawmem module binds it by name; here
every clawmem module is imported first and nothing may still hold a real gate: no module
attribute of the rule's name, no module-level table, no function default.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
import types

import pytest

from tests.security import gates_off

TABLES = [gates_off.table, gates_off.storage_fix_rows, gates_off.recall_veto_rows]


@pytest.fixture(scope="module")
def modules() -> list[types.ModuleType]:
    import clawmem

    for found in pkgutil.walk_packages(clawmem.__path__, "clawmem."):
        try:
            importlib.import_module(found.name)
        except ImportError:  # an optional extra that is not installed
            pass
    return [module for name, module in sys.modules.items() if name.startswith("clawmem")]


def _bindings(modules, rows) -> dict[tuple[str, str], int]:
    return {(module.__name__, name): id(getattr(module, name)) for _, name, _ in rows for module in modules if hasattr(module, name)}


def _still_real(modules, original: object) -> list[str]:
    """Where a module-level table or a function default still holds ``original``."""
    found = []
    for module in modules:
        for key, value in vars(module).items():
            if isinstance(value, (dict, list, tuple, set, frozenset)):
                items = value.values() if isinstance(value, dict) else value
                found += [f"{module.__name__}.{key}" for item in items if item is original]
            elif isinstance(value, types.FunctionType) and value.__module__ == module.__name__:
                defaults = (*(value.__defaults__ or ()), *(value.__kwdefaults__ or {}).values())
                found += [f"{module.__name__}.{key} default" for item in defaults if item is original]
    return found


@pytest.mark.parametrize("rows", TABLES, ids=lambda rows: rows.__name__)
def test_every_binding_of_a_gate_is_swapped_and_put_back(modules, rows):
    originals = {(id(owner), name): getattr(owner, name) for owner, name, _ in rows()}
    before = _bindings(modules, rows())
    with gates_off.removed(rows):
        for owner, name, _ in rows():
            original = originals[(id(owner), name)]
            assert getattr(owner, name) is not original, f"{name} is still the real one"
            assert not [m.__name__ for m in modules if getattr(m, name, None) is original], f"a module still binds the real {name}"
            if not isinstance(original, (int, str)):
                assert _still_real(modules, original) == [], f"the real {name} is still held"
    assert _bindings(modules, rows()) == before
