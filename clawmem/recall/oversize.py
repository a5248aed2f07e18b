"""Curated files that outgrow what the hosts take: the warning ``status`` and ``audit`` give.

A session-start hook shows ``USER.md``, ``MEMORY.md`` and the project block within the
host's cap (``clawmem.recall.fit``); what does not fit stays out of every session start,
reachable only by search. That is not silent (the context says so), but the owner should
hear it where they look: ``check`` renders the three as the bootstrap would, with every
eligible entry, and reports each cap they exceed, with the sizes and the fix.
"""

from __future__ import annotations

from clawmem.foundation.config import HOST_CONTEXT_KEYS, INT_MAX
from clawmem.foundation.records import dataclass, replace
from clawmem.recall import bootstrap, fit, render
from clawmem.recall.result import Escalation, RecallResult
from clawmem.recall.turn import project_block
from clawmem.storage.workspace import Workspace

NAME = "host-context"  # the warning's name in status and the audit check that reports it


@dataclass(frozen=True)
class Oversize:
    hosts: list[str]
    cap: int
    chars: int  # the session-start hook output with every eligible entry
    memory: int  # characters each part renders to
    user: int
    project: int
    entries: int  # entries the session start would show with no cap
    left_out: int  # of them, what the cap keeps out
    memory_budget: int  # dream.memory_chars

    @property
    def message(self) -> str:
        keys = ", ".join(f"hooks.{HOST_CONTEXT_KEYS[h]}" for h in self.hosts)
        return (
            f"the session-start context for {' and '.join(self.hosts)} would be {self.chars:,} characters (MEMORY.md {self.memory:,}, "
            f"USER.md {self.user:,}, project block {self.project:,}), over the {self.cap:,} {'it takes' if len(self.hosts) == 1 else 'they take'} ({keys}): "
            f"{self.left_out} of {self.entries} entries stay out of every session start, the least important and oldest first. "
            f"Fix: prune MEMORY.md (edit it, or `clawmem forget`), or lower dream.memory_chars (now {self.memory_budget:,}) "
            "so dreaming keeps it smaller"
        )


def check(ws: Workspace, index, cwd: str | None = None) -> list[Oversize]:
    """Each host cap the curated files exceed, as a session start in ``cwd``'s repository would render them."""
    from clawmem.commands import projects

    everything = replace(ws.config.recall, bootstrap_file_chars=INT_MAX, bootstrap_total_chars=INT_MAX, user_chars=INT_MAX)
    files = bootstrap.load(ws, index, everything, [])
    repo = projects.current(cwd)
    keys = [repo.key] if repo else []
    block = project_block(ws, index, keys, ws.config.recall.project_block_chars, include_superseded=False)
    quiet = Escalation(False, ws.config.recall.escalation_mode, "session start", [], None)
    result = RecallResult(files, [], [], keys, block, quiet, [], 0.0, [], 0, str(ws.root))
    chars = fit.hook_chars(render.context_block(result))
    shown = {f.path: len(f.text) for f in files if f.eligible}
    memory_lines = {line for f in files if f.eligible for line in f.lines}
    entries = len(memory_lines) + sum(1 for p in block if bootstrap.line(p.text) not in memory_lines)  # a repeat is one entry
    by_cap: dict[int, list[str]] = {}
    for host in HOST_CONTEXT_KEYS:
        by_cap.setdefault(fit.host_cap(ws.config, host), []).append(host)
    return [
        Oversize(
            hosts, cap, chars, shown.get("MEMORY.md", 0), shown.get("USER.md", 0), sum(len(render.project_line(p)) + 1 for p in block),
            entries, fit.fit(result, cap).left_out, ws.config.dream.memory_chars,
        )
        for cap, hosts in sorted(by_cap.items())
        if chars > cap
    ]
