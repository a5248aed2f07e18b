"""Trust decided by structure: where text came from and what it was made from, never what it says.

One module per question: ``lineage`` (is agent text derived from untrusted or system content
that entered the session since the owner last typed?), ``sessions`` (what is a live session's
agent exposed to when it writes a note?) and ``typed`` (which user-role text did the person type,
by the prompts a prompt hook saw?).
"""
