"""The ``preimage`` check: nothing a rewrite of a curated file drops may be lost (the baseline is ``clawmem.storage.baseline``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from clawmem.audit.ledger_view import Ledger
from clawmem.audit.results import Finding
from clawmem.entries import grammar, identity
from clawmem.foundation.digest import sha256_hex
from clawmem.foundation.records import dataclass, field
from clawmem.storage import ledger_records
from clawmem.storage.baseline import entry_hashes, load_baseline, save_baseline
from clawmem.storage.workspace import Workspace


def _excerpt(text: str, limit: int = 80) -> str:
    from clawmem.entries.neutralise import neutralise

    flat = " ".join(neutralise(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


def record_acceptance(ws: Workspace, outcome: _PreimageOutcome) -> None:
    """Say in ``DREAMS.md`` which files ``audit --accept`` took as they are (held files say it in ``accept_edits``)."""
    from clawmem.storage import diary

    for rel, state in outcome.states.items():
        if state not in ("established", "advanced"):
            continue
        added = sum(1 for w in outcome.warnings if w.check == "hand-edit" and w.path == rel)
        detail = f"{added} entr{'y' if added == 1 else 'ies'} added by hand" if added else "no entry lost"
        diary.append(ws, f"audit: accepted {rel} as it is", [f"- the audit baseline now holds {rel} as it is ({detail})."])


def _preimage_hashes(ws: Workspace, path: Path, wanted: set[str]) -> set[str]:
    """Which of ``wanted`` some stored pre-image of ``path`` holds (newest first, stops when all found)."""
    from clawmem.storage.curated import preimages

    found: set[str] = set()
    for image in reversed(preimages(ws, path)):
        if found >= wanted:
            break
        try:
            found |= wanted & set(entry_hashes(image.read_text(encoding="utf-8", errors="replace")))
        except OSError:
            continue
    return found


@dataclass(frozen=True)
class HeldFile:
    """A curated file that lost entries without a pre-image: its baseline stays where it was."""

    path: Path
    rel: str
    base: dict[str, Any]
    sha: str
    text: str
    lost: list[tuple[str, grammar.Entry]]
    first_seen: dict[str, str]


@dataclass
class _PreimageOutcome:
    violations: list[Finding]
    warnings: list[Finding]
    files: dict[str, Any]
    states: dict[str, str]
    held: list[HeldFile] = field(default_factory=list)


def check_preimages(ws: Workspace, led: Ledger, *, accept: bool) -> _PreimageOutcome:
    """The ``preimage`` check; with ``accept`` (``audit --accept``) the owner's edits are then repaired.

    Writes nothing without ``accept``; the caller saves ``files`` as the new baseline only then.
    """
    outcome = inspect_preimages(ws, led)
    if accept:
        accept_edits(ws, outcome)
    return outcome


def inspect_preimages(ws: Workspace, led: Ledger) -> _PreimageOutcome:
    """Compare each curated file with its baseline; writes nothing (the new baseline is returned)."""
    files = load_baseline(ws)
    out = _PreimageOutcome([], [], dict(files), {})
    now = ledger_records.now_iso()
    for path in (ws.memory_md, ws.user_md):
        rel = ws.rel(path)
        data = path.read_bytes() if path.exists() else b""
        text = data.decode("utf-8", errors="replace")
        sha = sha256_hex(data)
        current = entry_hashes(text)
        base = files.get(rel) if isinstance(files.get(rel), dict) else None
        if base is None or not isinstance(base.get("text"), str):
            out.warnings.append(Finding("baseline", rel, 0, "no audit baseline yet: `clawmem audit --accept` records the file as it is; later changes are checked against it"))
            state, advance = "established", True
            first_seen: dict[str, str] = {}
        elif base.get("sha256") == sha:
            state, advance = "unchanged", True
            first_seen = dict(base.get("first_seen") or {})
        else:
            first_seen = dict(base.get("first_seen") or {})
            old = entry_hashes(base["text"])
            gone = {h: e for h, e in old.items() if h not in current}
            explained = (set(gone) & led.tombstoned) | _preimage_hashes(ws, path, set(gone) - led.tombstoned)
            lost = [(h, e) for h, e in gone.items() if h not in explained]
            for h, e in current.items():
                if h not in old and (rel, h) not in led.first_at:
                    out.warnings.append(Finding("hand-edit", rel, e.line_start, "entry added by hand (no ledger record); inside the operator trust boundary"))
            if lost:
                for _, e in sorted(lost, key=lambda p: p[1].line_start):
                    out.violations.append(
                        Finding(
                            "preimage", rel, e.line_start,
                            f"entry removed or changed without a pre-image since the audit of {base.get('audited_at')}: "
                            f"\"{_excerpt(e.body)}\" (was line {e.line_start}; if the edit was yours, run `clawmem audit --accept`)",
                        )
                    )
                state, advance = "held", False
            else:
                state, advance = "advanced", True
        for h in current:
            first_seen.setdefault(h, led.first_at.get((rel, h)) or now)
        if advance:
            out.files[rel] = {"sha256": sha, "text": text, "audited_at": now, "first_seen": {h: first_seen[h] for h in current}}
        else:
            assert base is not None  # only a file with a baseline can be held
            out.files[rel] = {**base, "first_seen": first_seen}
            out.held.append(HeldFile(path, rel, base, sha, text, lost, first_seen))
        out.states[rel] = state
    return out


def accept_edits(ws: Workspace, outcome: _PreimageOutcome) -> None:
    """The repair: keep each held file's audited version as a pre-image, say so in DREAMS.md, advance.

    Only the owner runs this (``audit --accept``); afterwards the lost entries are warnings
    that name the pre-image, and the baseline moves on to the file as it is now.
    """
    from clawmem.storage import curated, diary

    now = ledger_records.now_iso()
    for held in outcome.held:
        old = held.base["text"].encode()
        image = curated.store_preimage(ws, curated.Snapshot(held.path, old, sha256_hex(old)), reason="audit-accept")
        diary.append(
            ws, f"audit: accepted an edit of {held.rel}",
            [f"- {len(held.lost)} entr{'y' if len(held.lost) == 1 else 'ies'} removed or changed outside clawmem since the audit of "
             f"{held.base.get('audited_at')}; the previous version is kept as {ws.rel(image)}."],
        )
        outcome.violations = [v for v in outcome.violations if not (v.check == "preimage" and v.path == held.rel)]
        outcome.warnings += [
            Finding("preimage", held.rel, e.line_start, f"accepted: entry removed without a pre-image, now kept in {ws.rel(image)}") for _, e in held.lost
        ]
        current = entry_hashes(held.text)
        outcome.files[held.rel] = {
            "sha256": held.sha, "text": held.text, "audited_at": now, "first_seen": {h: held.first_seen[h] for h in current},
        }
        outcome.states[held.rel] = "accepted"
    outcome.held = []


def redact_baseline(ws: Workspace, hashes: set[str]) -> int:
    """Drop entries with these text hashes from the stored baseline (``clawmem forget``); return how many."""
    files = load_baseline(ws)
    removed = 0
    for rel, base in files.items():
        if not isinstance(base, dict) or not isinstance(base.get("text"), str):
            continue
        doc = grammar.parse(base["text"])
        doomed = {e.line_start for e in doc.entries if identity.text_hash(e.body) in hashes}
        if not doomed:
            continue
        text = "".join(b.raw for b in doc.blocks if b.line_start not in doomed or not isinstance(b, grammar.Entry))
        removed += len(doomed)
        seen = {h: v for h, v in (base.get("first_seen") or {}).items() if h not in hashes}
        files[rel] = {**base, "text": text, "sha256": sha256_hex(text.encode()), "first_seen": seen}
    if removed:
        save_baseline(ws, files)
    return removed
