"""The per-turn path stays lean: --help, --version and note add import no heavy package."""

from __future__ import annotations

import pytest

from tests.conftest import modules_loaded

HEAVY = ("numpy", "tokenizers", "apsw", "sqlite_vec", "torch", "sentence_transformers", "rich.table", "dateparser", "rapidfuzz")



def loaded(args, env_ws):
    return modules_loaded(args, HEAVY, env_ws)


@pytest.mark.parametrize("args", [["--help"], ["--version"], ["note", "--help"]])
def test_help_and_version_import_nothing_heavy(args, tmp_path):
    import os

    assert loaded(args, dict(os.environ)) == set()


def test_note_add_imports_nothing_heavy(ws):
    import os

    mods = loaded(["note", "add", "fast path", "--origin", "agent"], dict(os.environ))
    assert not mods & {"numpy", "tokenizers", "torch", "sentence_transformers", "sqlite_vec", "rich.table", "dateparser"}
