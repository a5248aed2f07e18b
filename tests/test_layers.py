"""The layer contract of docs/architecture.md, checked on the source: no import cycles, no upward imports.

Imports are read with ``ast`` wherever they are written, at module level or inside a function,
so a deferred import that only hides a cycle from the interpreter still counts. Imports under
``if TYPE_CHECKING:`` never run: they count for the layers, not for cycles. An import of
``clawmem.a.b`` counts as an edge to the module ``clawmem.a.b`` (not to the package ``clawmem.a``
whose ``__init__`` also runs), and ``from clawmem.a import b`` to the submodule when ``b`` is one.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "clawmem"

# Lowest first: each layer imports only its own layer and the layers below it.
LAYER_ORDER = ("foundation", "storage", "rules", "core", "entry")

# Every top-level module and package of clawmem, in one place (docs/architecture.md, "Layers");
# a dotted key places one module of a package apart from the rest (the most specific key wins).
LAYERS: dict[str, str] = {
    # entry points: parse arguments, call the core, print
    "__main__": "entry",
    "launcher": "entry",
    "cli": "entry",
    "mcp": "entry",
    "hosts": "entry",
    "hosts.claude_code": "core",  # the hosts' documented formats and config files: no arguments, no printing
    "hosts.codex": "core",
    "hosts.cursor": "core",
    "hosts.claude_desktop": "core",
    "hosts.configfiles": "core",
    "hosts.wiring": "core",
    "hosts.jobs": "core",  # the background ingest's job files, which status reads
    "hosts.names": "foundation",  # the hosts' and hook events' names, which config's per-host settings read
    "worker": "entry",
    "fastlane": "entry",
    # commands' core: one module or package per command family
    "commands": "core",  # the command families of one module each
    "transcripts": "core",
    "recall": "core",
    "search": "core",
    "dream": "core",
    "intents": "core",
    "forget": "core",
    "audit": "core",
    "report": "core",
    # rules: the closed vocabularies, the trust rules, input validation, output conventions
    "trust": "rules",
    "rules": "rules",  # hints, incoming text, input validation, output conventions
    # the origin classes and the closed vocabularies: definitions every layer records and asks,
    # importing only the foundation, so they sit in it (the index classifies while it indexes)
    "trust.provenance": "foundation",
    # the trust list and a copy's secret id: files this user keeps, read by the workspace as it
    # opens and by the team ledger as it seals, importing only storage and the foundation
    "trust.workspaces": "storage",
    # whose ledger records and lines count here (seals, acceptance, rollback): read by the ledger
    # and the index as they replay, importing only storage and the foundation
    "trust.team": "storage",
    # storage: files and the index
    "storage": "storage",  # the workspace, locks, durable writes, anchors, the ledger, curated files, the diary
    "entries": "storage",
    "index": "storage",
    # foundation: what every layer may use; imports nothing above it
    "clawmem": "foundation",  # the package itself: __version__
    "foundation": "foundation",  # config, errors, timeparse, jsonbound, abandoned, vocabulary
    "embeddings": "foundation",
}

def modules(package: Path = PACKAGE) -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for path in package.rglob("*.py"):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _targets(name: str, path: Path, node: ast.Import | ast.ImportFrom, known: dict[str, Path]) -> Iterator[str]:
    """The clawmem modules one import statement names."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        package = package[: len(package) - node.level + 1]
        base = ".".join([*package, *([node.module] if node.module else [])])
    for alias in node.names:
        submodule = f"{base}.{alias.name}"
        yield submodule if submodule in known else base


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of import statements under ``if TYPE_CHECKING:``: annotations only, never run."""
    found: set[int] = set()
    for node in ast.walk(tree):
        test = node.test if isinstance(node, ast.If) else None
        if (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"):
            found |= {id(inner) for part in node.body for inner in ast.walk(part)}
    return found


def imports(package: Path = PACKAGE, *, type_only: bool = True) -> dict[str, set[str]]:
    """Each module's imports of other clawmem modules, at module level and inside functions
    (with ``type_only=False``, without those under ``if TYPE_CHECKING:``)."""
    known = modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skipped = set() if type_only else _type_only(tree)
        edges: set[str] = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom) or id(node) in skipped:
                continue
            for target in _targets(name, path, node, known):
                while target not in known and "." in target:
                    target = target.rsplit(".", 1)[0]
                if target.startswith("clawmem") and target in known and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in order:
            continue
        work = [(root, iter(sorted(graph[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in order:
                    order[child] = low[child] = len(order)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], order[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == order[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def layer(module: str) -> str:
    """The layer of a dotted module name: its most specific key in ``LAYERS``."""
    parts = module.split(".")[1:] or ["clawmem"]
    return next(LAYERS[key] for key in (".".join(parts[:n]) for n in range(len(parts), 0, -1)) if key in LAYERS)


def upward(graph: dict[str, set[str]]) -> list[str]:
    """Imports of a higher layer, one line each."""
    rank = {name: position for position, name in enumerate(LAYER_ORDER)}
    return sorted(
        f"{source} ({layer(source)}) -> {target} ({layer(target)})"
        for source, targets in graph.items()
        for target in targets
        if rank[layer(target)] > rank[layer(source)]
    )


def test_every_top_level_module_has_a_layer() -> None:
    tops = {name.split(".")[1] if "." in name else name for name in modules()}
    assert sorted(tops - set(LAYERS)) == []
    assert sorted(key for key in LAYERS if f"clawmem.{key}" not in modules() and key != "clawmem") == []
    assert set(LAYERS.values()) <= set(LAYER_ORDER)


def test_the_top_level_holds_only_the_entry_modules() -> None:
    """Every other module sits in a package named for its layer or its command family, so the tree shows the layers."""
    assert sorted(path.name for path in PACKAGE.glob("*.py")) == ["__init__.py", "__main__.py", "launcher.py"]


def test_no_import_cycles() -> None:
    found = cycles(imports(type_only=False))  # an annotation-only import runs nowhere: no cycle
    assert found == [], "import cycles:\n" + "\n".join(" <-> ".join(c) for c in found)


def test_no_upward_imports() -> None:
    found = upward(imports())
    assert found == [], "upward imports:\n" + "\n".join(found)


def test_the_checker_sees_function_level_and_relative_imports_and_skips_annotations(tmp_path: Path) -> None:
    package = tmp_path / "clawmem"
    (package / "index").mkdir(parents=True)
    (package / "foundation").mkdir()
    for name, text in {
        "__init__.py": "",
        "index/__init__.py": "",
        "foundation/__init__.py": "",
        "index/db.py": "def open_():\n    from clawmem.index import migrations\n",
        "index/migrations.py": "from . import db\n",
        "cli.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from clawmem.index.db import Index\n",
        "foundation/config.py": "import clawmem.cli\n",
    }.items():
        (package / name).write_text(text)
    graph = imports(package, type_only=False)
    assert graph["clawmem.index.db"] == {"clawmem.index.migrations"}  # inside a function
    assert graph["clawmem.index.migrations"] == {"clawmem.index.db"}  # relative
    assert graph["clawmem.cli"] == set() and imports(package)["clawmem.cli"] == {"clawmem.index.db"}
    assert cycles(graph) == [["clawmem.index.db", "clawmem.index.migrations"]]
    assert upward(graph) == ["clawmem.foundation.config (foundation) -> clawmem.cli (entry)"]
