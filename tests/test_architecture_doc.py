"""docs/architecture.md's "Where each trust rule lives" names real code: every ``file: name`` it cites exists.

The layer contract is checked by ``tests/test_layers.py``; this checks the trust table, so a rule
that moves or is renamed without the doc fails here instead of leaving a maintainer a dead pointer.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "clawmem"
DOC = ROOT / "docs" / "architecture.md"
CITED = re.compile(r"`(?P<file>[\w/]+\.py): (?P<names>[\w.]+(?:, [\w.]+)*)`")


def _trust_table() -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index("## Where each trust rule lives")
    return text[start : text.index("\n## ", start + 1)]


def _module(file: str) -> Path:
    """The cited file: a path under clawmem/, or a file name that only one module has."""
    direct = PACKAGE / file
    if direct.exists():
        return direct
    found = [p for p in PACKAGE.rglob(Path(file).name) if "__pycache__" not in p.parts and p.as_posix().endswith(file)]
    assert len(found) == 1, f"{file} names {len(found)} modules: {found}"
    return found[0]


def _defined(path: Path) -> set[str]:
    """Names a module defines: functions, classes, assignments, and ``Class.member``."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.add(node.name)
            for member in node.body:
                if isinstance(member, ast.FunctionDef | ast.AsyncFunctionDef):
                    names.add(f"{node.name}.{member.name}")
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_trust_table_cites_enough_to_mean_something():
    assert len(CITED.findall(_trust_table())) >= 30


def test_every_file_and_name_the_trust_table_cites_exists():
    missing = []
    for match in CITED.finditer(_trust_table()):
        path = _module(match["file"])
        defined = _defined(path)
        missing += [f"{match['file']}: {name}" for name in match["names"].split(", ") if name not in defined]
    assert not missing, f"docs/architecture.md cites what the code does not define: {missing}"


def test_the_check_sees_a_dead_pointer(tmp_path):
    """Control: a name the module does not define is reported."""
    module = tmp_path / "m.py"
    module.write_text("def real():\n    pass\n")
    assert "real" in _defined(module) and "gone" not in _defined(module)
