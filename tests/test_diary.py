"""``DREAMS.md`` read back by its one parser (``storage/diary.py: sections``), on a real file."""

from __future__ import annotations

from clawmem.commands.workspace_init import create
from clawmem.storage import diary

DIARY = """# Dreams

## 2026-12-01 03:00 — dream sweep

Promoted (2):
- Deploys go to fly.io (sources: memory/2026-11-30.md#L4)
- [forgotten on 2026-12-01]
notice: 3 candidates wait on a threshold
- an item after a note belongs to no group

## 2026-12-02 09:12 — promote

- Port 8081 for staging (sources: memory/2026-12-02.md#L3)
"""


def test_sections_groups_notes_and_items(tmp_path):
    ws = create(tmp_path / "ws")
    ws.dreams_md.write_text(DIARY, encoding="utf-8")
    sweep, promote = diary.sections(ws)
    assert (sweep.when, sweep.title, promote.title) == ("2026-12-01 03:00", "dream sweep", "promote")
    assert sweep.groups() == {"Promoted": ["Deploys go to fly.io (sources: memory/2026-11-30.md#L4)", "[forgotten on 2026-12-01]"]}
    assert sweep.notes == ("notice: 3 candidates wait on a threshold", "- an item after a note belongs to no group")
    items = diary.items(ws)
    assert [(i.title, i.label, i.text) for i in items] == [
        ("dream sweep", "promoted", "Deploys go to fly.io"),
        ("dream sweep", "promoted", "[forgotten on 2026-12-01]"),
        ("dream sweep", None, "an item after a note belongs to no group"),
        ("promote", None, "Port 8081 for staging"),
    ]
    lines = DIARY.splitlines()
    assert all(lines[i.line - 1].startswith("- ") for i in items)


def test_no_diary_no_sections(tmp_path):
    ws = create(tmp_path / "ws")
    ws.dreams_md.unlink(missing_ok=True)
    assert diary.sections(ws) == [] and diary.items(ws) == []
