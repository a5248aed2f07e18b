"""A package's ``__init__.py`` is its face: a docstring, imports, ``__all__`` and constants, no logic.

A newcomer opening ``clawmem/search/`` should find the ranking in a module named for it, not in
``__init__.py``. Read with ``ast``: a face defines no function or class and runs no statement
beyond imports and plain assignments. The packages listed in ``LOGIC_KEPT`` keep theirs, each
for the reason given.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "clawmem"

LOGIC_KEPT = {
    "worker": "the hook client imports only this module on every turn: one more module is one more file read per turn",
    "cli": "the root Typer group and its one error handler",
    "fastlane": "the parser every fast-lane command builds on (from options.json), its usage signal and the guard that reports failures",
    "hosts": "host_module, the module of a host by its name, asked by the hooks and by install alike",
}
ALLOWED = (ast.Expr, ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign)


def faces() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("__init__.py") if "__pycache__" not in p.parts)


def statements(path: Path) -> list[ast.stmt]:
    """The top-level statements of ``path`` that are not a docstring, an import or a plain assignment."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [n for n in tree.body if not isinstance(n, ALLOWED) or (isinstance(n, ast.Expr) and not isinstance(n.value, ast.Constant))]


def logic(path: Path) -> list[str]:
    return [f"{path.relative_to(PACKAGE.parent)}:{n.lineno} {type(n).__name__}" for n in statements(path)]


def package_of(path: Path) -> str:
    return ".".join(path.parent.relative_to(PACKAGE).parts)


def test_package_faces_hold_no_logic() -> None:
    found = [line for path in faces() if package_of(path) not in LOGIC_KEPT for line in logic(path)]
    assert not found, "logic in a package face (move it into a named module):\n" + "\n".join(found)


def test_every_kept_exception_still_holds_logic() -> None:
    """An entry of ``LOGIC_KEPT`` whose face is clean again must go."""
    stale = [name for name in LOGIC_KEPT if not logic(PACKAGE.joinpath(*name.split("."), "__init__.py"))]
    assert not stale, f"no logic left in these faces: remove them from LOGIC_KEPT: {stale}"


def test_the_check_sees_a_function_a_class_and_a_loop(tmp_path: Path) -> None:
    face = tmp_path / "__init__.py"
    face.write_text('"""Doc."""\nfrom x import y\nA = 1\n__all__ = ["y"]\n', encoding="utf-8")
    assert statements(face) == []
    face.write_text('"""Doc."""\ndef f():\n    pass\nclass C:\n    pass\nfor i in ():\n    pass\n', encoding="utf-8")
    assert [type(n).__name__ for n in statements(face)] == ["FunctionDef", "ClassDef", "For"]
