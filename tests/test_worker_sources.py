"""The worker's check of its own source files (``clawmem.worker.sources``), on a real folder tree.

The end-to-end case (an edited install's worker refuses and exits) is in ``tests/test_worker.py``;
here each kind of change is made to a small package tree and ``Sources.changed`` must see it,
or, for what is not source, must not.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clawmem import worker
from clawmem.worker.sources import Sources

OLD_NS = 1_600_000_000 * 10**9  # an mtime long past: a folder the worker may trust (not "racy")


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``pkg/`` with a module, a JSON file and a subpackage, every mtime long past."""
    top = tmp_path / "pkg"
    (top / "sub").mkdir(parents=True)
    (top / "__init__.py").write_text("VERSION = 1\n")
    (top / "help.json").write_text("{}\n")
    (top / "sub" / "__init__.py").write_text("")
    (top / "sub" / "mod.py").write_text("def f():\n    return 1\n")
    age(top)
    return top


def age(top: Path) -> None:
    """Every file and folder under ``top`` (itself included) to an mtime long past."""
    for folder, _dirs, files in os.walk(top):
        for name in files:
            os.utime(os.path.join(folder, name), ns=(OLD_NS, OLD_NS))
        os.utime(folder, ns=(OLD_NS, OLD_NS))


def test_an_untouched_tree_has_not_changed(tree):
    sources = Sources(str(tree))
    assert not sources.changed()
    assert not sources.changed()


def test_a_file_written_in_place_to_the_same_size_has_changed(tree):
    sources = Sources(str(tree))
    mod = tree / "sub" / "mod.py"
    mod.write_text("def f():\n    return 2\n")  # same length: only the mtime tells
    assert sources.changed()


def test_a_file_replaced_by_a_rename_with_its_size_and_mtime_kept_has_changed(tree):
    sources = Sources(str(tree))
    mod = tree / "sub" / "mod.py"
    other = tree / "sub" / ".mod.py.new"
    other.write_text("def f():\n    return 3\n")
    os.utime(other, ns=(OLD_NS, OLD_NS))
    os.replace(other, mod)
    os.utime(tree / "sub", ns=(OLD_NS, OLD_NS))  # even were its folder's mtime to say nothing, the inode does
    assert sources.changed()


def test_a_json_file_edited_has_changed(tree):
    sources = Sources(str(tree))
    (tree / "help.json").write_text('{"a": 1}\n')
    assert sources.changed()


def test_a_module_added_has_changed(tree):
    sources = Sources(str(tree))
    (tree / "sub" / "new.py").write_text("")
    assert sources.changed()


def test_a_subpackage_added_has_changed(tree):
    sources = Sources(str(tree))
    (tree / "other").mkdir()
    assert sources.changed()


def test_a_module_removed_has_changed(tree):
    sources = Sources(str(tree))
    (tree / "sub" / "mod.py").unlink()
    assert sources.changed()


def test_bytecode_and_an_editors_swap_file_are_not_source(tree):
    """Their folder's mtime moves; listed again, it holds the same sources, and is noted anew."""
    sources = Sources(str(tree))
    (tree / "sub" / "__pycache__").mkdir()
    (tree / "sub" / "__pycache__" / "mod.cpython-311.pyc").write_bytes(b"")
    (tree / ".swp").write_text("")
    assert not sources.changed()
    (tree / "sub" / "mod.py").write_text("def f():\n    return 4\n")
    assert sources.changed()


def test_a_folder_changed_within_the_racy_window_is_listed_on_every_check(tree):
    """A change in the same clock tick as the look leaves the mtime as it was: a young folder is never trusted by it."""
    os.utime(tree / "sub")  # now: younger than WORKER_SOURCES_RACY_S
    sources = Sources(str(tree))
    seen = os.stat(tree / "sub").st_mtime_ns
    (tree / "sub" / "new.py").write_text("")
    os.utime(tree / "sub", ns=(seen, seen))  # as if made in the same tick
    assert sources.changed()


def test_a_folder_that_moved_without_a_source_change_is_trusted_again_once_old(tree):
    sources = Sources(str(tree))
    (tree / "sub" / "notes.txt").write_text("")
    age(tree)
    assert not sources.changed()
    assert sources.folders[str(tree / "sub")][0] == OLD_NS


def test_the_installed_package_is_noted_whole():
    """What the worker notes of its own install: every module and JSON file, not bytecode."""
    top = worker.package_dir()
    sources = Sources(top)
    noted = {os.path.join(folder, name) for folder, files in sources.files.items() for name, _stamp in files}
    expected = {
        os.path.join(folder, name)
        for folder, dirs, files in os.walk(top) if "__pycache__" not in folder.split(os.sep)
        for name in files if name.endswith((".py", ".json"))
    }
    assert noted == expected
    assert os.path.join(top, "worker", "sources.py") in noted
    assert not sources.changed()
