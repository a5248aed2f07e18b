"""Owner means typed: with a prompt hook, what the hook received is what the person typed.

Host formats mark typed input positively where they can: Claude Code's ``promptSource``
(``host_marked_typed``), Codex's ``user_message`` events (``typed_only``, read by
``clawmem.transcripts.codex``). A prompt hook is ground truth on top of that:
the host hands it exactly the prompt the person submitted. The hook records the hash of each
(``clawmem.trust.sessions.remember``); when the session's transcript is ingested, a user
turn is the owner's only where it is one of those prompts (``split``). A user record holding
a prompt and host context together keeps the prompt as the owner's and the rest as ``system``;
any other user-role record (a skill body, a reminder, a notification, a compaction request)
is ``system``. Sessions with no recorded prompt (no prompt hook, or the hook never ran) keep
the host's own marks.

A Markdown transcript has no marks at all: a turn is a line of text, and text the person did not
write (tool output, or system text such as a repository's AGENTS.md) that holds a ``user:`` line,
or closes the host's fence before one, writes turns nothing tells from typed ones. So, with no
recorded prompt, a Markdown user turn is the owner's only before the first turn that neither the
person nor their agent wrote (``owner_turns``); after it the file cannot show that anyone typed
it, and it is kept as ``system`` (searchable, never the owner's evidence, and it does not end the
lineage of what that turn exposed). JSON formats are safe: a record's text is one string that
cannot open another.

Only hashes of the normalised prompts (and their line counts) are kept (``mark``): the runtime state
holds no memory text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol, TypeVar

from clawmem.entries import identity
from clawmem.foundation.records import replace
from clawmem.trust import provenance

HOST_TYPED_SOURCES = frozenset(("typed", "sdk"))  # Claude Code's ``promptSource`` of a prompt the person (or their own ``claude -p``) submitted
UNMARKED_FORMATS = ("markdown",)  # formats whose text alone opens a turn: no record can show it was typed
UNCONFIRMED = "user turn after tool or system text"  # the speaker of a user turn the file cannot show was typed


class _Turn(Protocol):
    """What the rule reads of a transcript turn (``clawmem.transcripts.parse.Turn``, a layer above)."""

    __dataclass_fields__: ClassVar[dict[str, Any]]

    @property
    def role(self) -> str: ...

    @property
    def content(self) -> str: ...


T = TypeVar("T", bound=_Turn)


def mark(prompt: str) -> str:
    """What is kept of a typed prompt: its hash and how many non-empty lines it has."""
    return f"{identity.text_hash(prompt)}:{sum(1 for line in prompt.splitlines() if line.strip())}"


def split(content: str, prompts: frozenset[str]) -> tuple[str | None, str]:
    """``content`` as (the typed prompt in it or None, the rest): a run of whole lines whose
    normalised text is a recorded prompt (the host joins a record's text blocks by lines), the
    longest first; only runs as long as some recorded prompt are tried."""
    parts = [p for p in content.splitlines() if p.strip()]
    if mark(content) in prompts:
        return content, ""
    sizes = sorted({int(m.rsplit(":", 1)[1]) for m in prompts if m.rsplit(":", 1)[-1].isdigit()}, reverse=True)
    for size in (s for s in sizes if 0 < s < len(parts)):
        for start in range(len(parts) - size + 1):
            run = "\n".join(parts[start:start + size])
            if mark(run) in prompts:
                return run, "\n".join(parts[:start] + parts[start + size:])
    return None, content


def host_marked_typed(origin: object, prompt_source: object, *, marked: bool) -> bool:
    """Do the host's own marks say the person wrote this prompt record? Claude Code writes an
    ``origin`` on records it made for events (task notifications) and, in files that carry
    ``promptSource`` at all (``marked``), ``typed`` or ``sdk`` only on what was submitted."""
    if origin is not None:
        return False
    return not marked or prompt_source in HOST_TYPED_SOURCES


def typed_only(turn: T, prompts: frozenset[str], *, rest_speaker: str) -> list[T]:
    """A user turn as the prompt typed in it (``split``: the owner's) and the rest as ``system``
    text under ``rest_speaker``; a turn of another role as it is."""
    if turn.role.lower() != "user":
        return [turn]
    prompt, rest = split(turn.content, prompts)
    kept = [replace(turn, content=prompt)] if prompt is not None else []
    return kept + ([replace(turn, role="system", content=rest, speaker=rest_speaker)] if rest.strip() else [])


def owner_turns(turns: Sequence[T], fmt: str, prompts: frozenset[str]) -> list[T]:
    """The turns with every user turn the person cannot be shown to have typed made ``system``.

    With recorded prompts, a user turn keeps only the prompt in it (``split``). Without, a
    Markdown user turn after the first tool, system or unknown-role turn is ``system``.
    """
    out: list[T] = []
    after_other = False  # a turn neither the person nor their agent wrote has come: it could have written the rest
    for turn in turns:
        role = turn.role.lower()
        after_other = after_other or not provenance.is_trusted(provenance.role_origin(role, "owner"))
        if role != "user":
            out.append(turn)
        elif prompts:
            out.extend(typed_only(turn, prompts, rest_speaker="host record"))
        elif after_other and fmt in UNMARKED_FORMATS:
            out.append(replace(turn, role="system", speaker=UNCONFIRMED))
        else:
            out.append(turn)
    return out
