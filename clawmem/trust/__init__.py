"""Trust decided by structure: where text came from and what it was made from, never what it says.

The one room where each trust rule lives, one function per question (``docs/architecture.md``
names them): ``provenance`` (origin classes: which are trusted, what is shown as untrusted,
defaults per caller and per turn role, lines the ledger cannot account for), ``eligibility``
(what may become curated memory), ``authority`` (who may decide: owner-only operations,
intent creators), ``content_origin`` (agent text restating untrusted text), ``lineage`` (is
agent text derived from untrusted or system content that entered the session since the owner
last typed?), ``sessions`` (what is a live session's agent exposed to when it writes a note?),
``typed`` (which user-role text did the person type, by the host's marks and the prompts a prompt
hook saw?), ``echoes`` (is a written line what clawmem handed out, come back?), ``framing``
(recall blocks and untrusted frames, their nonces and marks), ``team`` (which ledger records
and lines of a shared workspace count as this copy's) and ``workspaces`` (which workspaces
found by walking up are this user's own).
"""
