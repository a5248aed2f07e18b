"""The report as one self-contained HTML page: escaped text, a strict CSP, no script, no asset.

Every string that comes from memory (entries, excerpts, diary lines, paths, even labels) goes
through ``html.escape``; the only markup is what this module writes. Links point only at ids
this module made (``#src-…``), never at a URL from memory text. The Content-Security-Policy
meta tag is the first thing in ``<head>``: no script, no fetch, no frame, no form, images
only as ``data:``, so even a mistake in escaping could not run code or load anything.
"""

from __future__ import annotations

import datetime as dt
import re
import shlex
from collections.abc import Iterable
from html import escape
from typing import Any

from clawmem import __version__
from clawmem.entries.neutralise import readable
from clawmem.report.charts import line_chart
from clawmem.report.data import (
    Capped,
    CuratedEntry,
    Report,
    Source,
    StagedCandidate,
    Sweep,
)
from clawmem.storage.anchors import cite

CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"
SHELL_SAFE = re.compile(r"[\w@%+=:,./-][\w@%+=:,./#-]*")  # an anchor the shell reads as one word (``#`` only starts a comment at a word's start)
SIGNALS = ("relevance", "frequency", "diversity", "recency", "recurrence", "richness")
SECTIONS = (("overview", "Overview"), ("curated", "Curated core"), ("dreaming", "Dreaming"), ("recall", "Recall"),
            ("growth", "Growth"), ("untrusted", "Quarantine and untrusted"), ("sources", "Source excerpts"))

STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1d232a;background:#f6f7f9}
header,main{max-width:1100px;margin:0 auto;padding:0 16px}
header{padding-top:16px}h1{font-size:22px;margin:0 0 4px}h2{font-size:18px;margin:28px 0 8px;border-bottom:1px solid #d5dae0}
h3{font-size:15px;margin:16px 0 6px}nav a{margin-right:12px}.muted,.empty{color:#5e6875}
table{border-collapse:collapse;width:100%;background:#fff;margin:6px 0}th,td{border:1px solid #dde2e7;padding:4px 6px;
text-align:left;vertical-align:top}th{background:#eef1f4;font-weight:600}td.num{text-align:right;white-space:nowrap}
.cards{display:flex;flex-wrap:wrap;gap:10px}.card{background:#fff;border:1px solid #dde2e7;border-radius:6px;padding:8px 12px;min-width:150px}
.card b{display:block;font-size:20px}.warn{background:#fff4e0;border-left:4px solid #e69500;padding:6px 10px;margin:4px 0}
.meta{color:#3b4652;font-size:13px}.tag{display:inline-block;background:#eef1f4;border-radius:3px;
padding:0 5px;margin:1px 2px;font-size:12px}.tag.bad{background:#fde2e2}.tag.ok{background:#e1f3e4}
.untrusted{border:2px dashed #c0392b;background:#fff5f4;border-radius:4px;margin:4px 0;padding:4px 8px}
.untrusted .label{color:#a93226;font-size:12px;font-weight:600;text-transform:uppercase}
pre{white-space:pre-wrap;word-break:break-word;margin:2px 0;font:12px/1.4 ui-monospace,monospace}
.excerpt{background:#fff;border:1px solid #dde2e7;border-radius:4px;padding:6px 10px;margin:6px 0}
.bar{display:inline-block;height:8px;background:#3b7dd8;vertical-align:middle}.miss{color:#a93226}
figure.chart{background:#fff;border:1px solid #dde2e7;border-radius:6px;padding:6px;margin:0}
svg{width:100%;height:auto}svg text{font-size:12px;fill:#5e6875}svg polyline{fill:none;stroke:#3b7dd8;stroke-width:2}
svg circle{fill:#3b7dd8}svg .axis{stroke:#9aa4ae}.charts{display:grid;grid-template-columns:repeat(auto-fill,minmax(440px,1fr));gap:12px}
details{margin:4px 0}summary{cursor:pointer}code.cmd{display:block;white-space:nowrap;font-size:12px;background:#eef1f4;padding:1px 4px;margin:1px 0;user-select:all}
td .miss{font-size:13px}table.entries details table{margin:4px 0 0}
table.entries td:first-child{width:40%}table.entries details{display:inline}table.entries details[open]{display:block}
"""


def e(value: Any) -> str:
    """Escaped text of any value; ``-`` for nothing."""
    return "-" if value is None or value == "" else escape(str(value), quote=True)


def t(text: str) -> str:
    """Memory text, escaped once: what ``neutralise`` escaped in the file is shown as written."""
    return e(readable(text))


def _cmd(*words: str) -> str:
    """A command to copy (the page runs nothing): exactly what the CLI accepts, shell-quoted."""
    line = " ".join(w if SHELL_SAFE.fullmatch(w) else shlex.quote(w) for w in ("clawmem", *words))
    return f'<code class="cmd">{e(line)}</code>'


def _time(stamp: str | None) -> str:
    """A stored ISO time as local ``YYYY-MM-DD HH:MM`` (as the diary writes it); ``never`` for none."""
    if not stamp:
        return "never"
    try:
        when = dt.datetime.fromisoformat(stamp)  # Python 3.11 reads a trailing Z
    except ValueError:
        return stamp
    return (when.astimezone() if when.tzinfo else when).strftime("%Y-%m-%d %H:%M")


def _tags(values: Iterable[Any], cls: str = "") -> str:
    return "".join(f'<span class="tag {cls}">{e(v)}</span>' for v in values) or '<span class="muted">-</span>'


def _framed(text: str, label: str) -> str:
    return f'<div class="untrusted"><div class="label">{e(label)}: shown as inert text</div><pre>{t(text)}</pre></div>'


def _more(capped: Capped, what: str) -> str:
    hidden = capped.total - len(capped.items)
    return f'<p class="muted">… and {hidden} more {e(what)} not listed here.</p>' if hidden > 0 else ""


def _table(head: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """A table whose cells are already-escaped HTML fragments."""
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return "<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + f"</tr>{body}</table>"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{e(k)} {e(v)}" for k, v in counts.items()) or "-"


# sections --------------------------------------------------------------------------------
def _overview(report: Report) -> str:
    o = report.overview
    cards = [("entries", o["entries"]), *((f"{k} tier", v) for k, v in o["by_tier"].items()),
             ("curated entries recalled", f"{report.recall.recalled} of {report.recall.curated}"),
             ("staged candidates", report.dreaming.candidates.total), ("untrusted or quarantined", report.untrusted.total)]
    rows = [("by origin", _counts(o["by_origin"])), ("by session kind", _counts(o["by_session_kind"])),
            ("by file kind", _counts(o["by_kind"])), ("index", f"{e(o['files_indexed'])} files, schema {e(o['schema_version'])}, last sync {e(_time(o['last_sync']))}"),
            ("last dream", e(_time(o["last_dream"]))),
            ("MEMORY.md budget", f"{o['memory_chars']:,} of {o['memory_budget']:,} characters (dream.memory_chars)"),
            ("embedder", f"{e(o['embedder'])} ({'available' if o['embedder_available'] else 'unavailable: ' + e(o['embedder_reason'])})"),
            ("provenance ledger", "intact" if o["ledger_intact"] else "LOST: unrecorded lines are treated as untrusted")]
    warnings = "".join(f'<div class="warn">{e(w)}</div>' for w in report.warnings) or '<p class="muted">No warnings.</p>'
    return (
        '<div class="cards">' + "".join(f'<div class="card"><b>{e(v)}</b>{e(k)}</div>' for k, v in cards) + "</div>"
        + _table(("what", "counts"), ((e(k), v) for k, v in rows)) + "<h3>Warnings</h3>" + warnings
    )


def _source_link(s: Source) -> str:
    """The anchor, linked to its excerpt; a red tag only when the evidence is untrusted or gone (the excerpt says the rest)."""
    if s.framed or s.state not in ("ok", "moved"):
        who = f"{s.origin or 'unknown'}/{s.session_kind or '?'}" if s.origin else s.state
        return f'<div><a href="#{e(s.ident)}">{e(s.anchor)}</a> <span class="tag bad">{e(who)}</span></div>'
    return f'<div><a href="#{e(s.ident)}">{e(s.anchor)}</a></div>'


def _anchor_id(path: str, line: int) -> str:
    return f"{path.split('.')[0].lower()}-L{line}"


def _entry_commands(c: CuratedEntry) -> str:
    """``demote`` for a MEMORY.md line that cites evidence (it refuses a hand-written one), ``forget`` for any."""
    anchor = cite(c.path, c.line)
    return (_cmd("demote", anchor) if c.path == "MEMORY.md" and c.sources else "") + _cmd("forget", anchor)


def _entry(c: CuratedEntry) -> str:
    """One table row; the trail (lineage, triggers, sweeps, problems) in a collapsed ``<details>``."""
    who = f"{c.origin or 'not indexed'}" + (", by hand" if c.hand_written else "")
    lineage = "".join(
        f"<li>{e(cite(link.path, link.line))} ({e(link.origin)}, {'current' if link.live else 'superseded'}): "
        + (_framed(link.text, "untrusted content") if link.framed else t(link.text)) + "</li>"
        for link in c.lineage
    )
    rows = [
        ("session kind", e(c.session_kind)), ("entered", e(_time(c.entered_at) if c.entered_at else "unrecorded (hand-written or before the ledger)")),
        ("sweeps", _tags(c.sweeps)), ("triggers", _tags(c.triggers)), ("project", _tags(c.projects)),
        ("recalled", f"{c.recalls} time(s)" + (f" ({_counts(c.by_source)})" if c.by_source else "") + (f", {c.echoes} echo(es) dropped" if c.echoes else "")
         + ("; injected or shown (in the recalled set)" if c.injected else "")),
    ]
    if c.key:
        rows.append(("supersession", f"key {e(c.key)}" + (f", status {e(c.status)}" if c.status else "") + (f"<ul>{lineage}</ul>" if lineage else "; no other entry")))
    if c.problems:
        rows.append(("problems", _tags(c.problems, "bad")))
    meta = "".join(f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in rows)
    flag = ' <span class="tag bad">problems</span>' if c.problems else ""
    cells = (
        f'{t(c.text)}{flag} <details><summary class="muted">details</summary><table>{meta}</table></details>',
        f'<span id="{_anchor_id(c.path, c.line)}">{e(cite(c.path, c.line))}</span>', e(who), e(c.importance), f"{c.recalls}",
        "".join(_source_link(s) for s in c.sources) or '<span class="muted">none cited</span>', _entry_commands(c),
    )
    return "<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>"


def _curated(report: Report) -> str:
    head = "".join(f"<th>{e(h)}</th>" for h in ("entry", "where", "origin", "importance", "recalls", "sources", "act on it (copy)"))
    out = ['<p class="muted">Commands run in this workspace (add <code>-w PATH</code> from elsewhere); '
           "<code>demote</code> sends a line back to the episodic tier, <code>forget</code> removes it (both ask first).</p>"]
    for rel, capped in report.curated.items():
        out.append(f"<h3>{e(rel)} ({capped.total} entries)</h3>")
        rows = "".join(_entry(c) for c in capped.items)
        out.append(f'<table class="entries"><tr>{head}</tr>{rows}</table>' if rows else '<p class="empty">No entries.</p>')
        out.append(_more(capped, "entries"))
    return "".join(out)


def _sweep(s: Sweep, newest: bool) -> str:
    """One sweep, collapsed (the newest open): its summary line, then its diary section."""
    counts = ", ".join(f"{e(k)} {e(v)}" for k, v in s.counts.items() if v not in (None, 0, "")) or "nothing changed"
    groups = "".join(f"<h4>{e(label)} ({len(items)})</h4><ul>" + "".join(f"<li>{t(i)}</li>" for i in items) + "</ul>" for label, items in s.groups.items())
    notes = "".join(f"<p>{t(n)}</p>" for n in s.notes)
    return (
        f"<details{' open' if newest else ''}><summary><b>{e(_time(s.started))}</b> · phases {e(s.phases)} · {e(s.status)} · {counts}</summary>"
        f'<div class="excerpt">{groups}{notes or ""}{"" if groups or notes else "<p class=muted>No diary section (nothing to tell).</p>"}</div></details>'
    )


def _signal_cell(value: Any) -> str:
    v = float(value or 0)
    return f'<span class="bar" style="width:{round(v * 40)}px"></span> {v:.2f}'


def _verdict(c: StagedCandidate) -> str:
    """The gate's verdict as ``dream`` says it; a pass the last sweep still refused says why."""
    if c.in_words:
        return "".join(f'<div class="miss">{e(w)}</div>' for w in c.in_words)
    if c.last_sweep:
        return f'<div class="miss">passes the gate; the last sweep rejected it: {e(c.last_sweep)}</div>'
    return '<span class="tag ok">passes every threshold</span>'


def _candidate(c: StagedCandidate) -> list[str]:
    s = c.signals
    promote = _cmd("promote", c.sources[0]) if c.sources else ""
    return [
        e(c.candidate_id), t(c.text) + "<div class=meta>" + e(", ".join(c.sources)) + "</div>" + _verdict(c) + promote, f"{c.score:.2f}",
        *(_signal_cell(s.get(name)) for name in SIGNALS),
        f"{e(s.get('encounters'))} / {e(s.get('queries'))} / {e(s.get('days'))} / {float(s.get('age_days') or 0):.0f}d",
    ]


def _dreaming(report: Report) -> str:
    d = report.dreaming
    sweeps = "".join(_sweep(s, n == 0) for n, s in enumerate(d.sweeps.items)) or '<p class="empty">No sweep yet: run <code>clawmem dream</code>.</p>'
    weights = ", ".join(f"{e(k)} {v:.2f}" for k, v in d.weights.items())
    thresholds = ", ".join(f"{e(k)} {e(v)}" for k, v in d.thresholds.items())
    table = _table(("id", "candidate and the gate's verdict", "score", *SIGNALS, "enc / qry / days / age"), (_candidate(c) for c in d.candidates.items))
    themes = "".join(
        f"<li>{t(th['reflection'])} <span class=muted>({th['candidates']} candidate(s), {th['days']} day(s), {th['sessions']} session(s))</span></li>"
        for th in d.themes
    )
    return (
        f"<h3>Last sweeps ({d.sweeps.total} in all, newest first)</h3>{sweeps}{_more(d.sweeps, 'sweeps')}"
        f"<h3>Staged candidates ({d.candidates.total})</h3><p class=muted>Deep gate weights: {weights}. Thresholds: {thresholds}.</p>"
        + (table if d.candidates.items else '<p class="empty">Nothing staged.</p>') + _more(d.candidates, "candidates")
        + (f"<h3>Themes</h3><ul>{themes}</ul>" if themes else "")
    )


def _recall(report: Report) -> str:
    r = report.recall
    top = _table(("entry", "where", "recalled", "by", "last"), (
        (t(c.text), f'<a href="#{_anchor_id(c.path, c.line)}">{e(cite(c.path, c.line))}</a>', f"{c.recalls}", _counts(c.by_source), e(_time(c.last_recalled)))
        for c in r.top
    )) if r.top else '<p class="empty">No curated entry was recalled yet.</p>'
    never = "".join(f"<li>{t(c.text)} <span class=muted>{e(cite(c.path, c.line))}</span></li>" for c in r.never.items)
    return (
        f"<p>{r.recalled} of {r.curated} curated entries were returned by search or recall; recall events by source: {_counts(r.events_by_source)}; "
        f"{r.untrusted_returned} untrusted text(s) were returned (always framed, never injected).</p>"
        f"<h3>Most recalled</h3>{top}<h3>Never recalled or injected ({r.never.total})</h3>"
        + (f"<ul>{never}</ul>" if never else '<p class="empty">Every curated entry was recalled or injected.</p>') + _more(r.never, "entries")
    )


def _growth(report: Report) -> str:
    g = report.growth
    return '<div class="charts">' + "".join((
        line_chart(g.entries, title="Indexed entries over time (by note date)"),
        line_chart(g.memory_entries, title="MEMORY.md entries (each rewrite's pre-image, then now)"),
        line_chart(g.memory_size, title="MEMORY.md size in bytes"),
        line_chart(g.curated_share, title="Recall hit rate: share of each day's returned hits from MEMORY.md or USER.md", percent=True),
    )) + "</div>"


def _untrusted(report: Report) -> str:
    rows = "".join(
        f'<div class="excerpt"><div class="meta">{e(cite(u.path, u.line))} · {e(u.origin)} / {e(u.session_kind)} · {e(u.kind)}</div>'
        + _framed(u.text, "quarantined" if u.kind == "quarantine" else f"{u.origin} content") + "</div>"
        for u in report.untrusted.items
    )
    return (
        "<p>Lines from untrusted or system sources, and everything in quarantine. They are never promoted or auto-injected; "
        "search returns them only inside an untrusted frame.</p>"
        + (rows or '<p class="empty">None.</p>') + _more(report.untrusted, "lines")
    )


def _sources(report: Report) -> str:
    out = []
    for s in report.sources:
        text = "\n".join(s.lines)
        body = (_framed(text, "untrusted content") if s.framed else f"<pre>{t(text)}</pre>") if s.lines else f'<p class="muted">Nothing there now ({e(s.state)}).</p>'
        out.append(f'<div class="excerpt" id="{e(s.ident)}"><div class="meta">{e(s.anchor)} · {e(s.state)} · {e(s.origin)} / {e(s.session_kind)}</div>{body}</div>')
    return "".join(out) or '<p class="empty">No curated entry cites a source.</p>'


def render(report: Report) -> str:
    """The whole page."""
    parts = {"overview": _overview, "curated": _curated, "dreaming": _dreaming, "recall": _recall,
             "growth": _growth, "untrusted": _untrusted, "sources": _sources}
    body = "".join(f'<section id="{key}"><h2>{e(title)}</h2>{parts[key](report)}</section>' for key, title in SECTIONS)
    nav = "".join(f'<a href="#{key}">{e(title)}</a>' for key, title in SECTIONS)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head>"
        f'<meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="{CSP}">'
        '<meta name="referrer" content="no-referrer"><meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>clawmem report: {e(report.workspace)}</title><style>{STYLE}</style></head><body>"
        f"<header><h1>What your agent remembers</h1><p class=muted>Workspace {e(report.workspace)} · generated {e(_time(report.generated_at))} by clawmem {e(__version__)}</p>"
        f"<nav>{nav}</nav></header><main>{body}</main></body></html>\n"
    )
