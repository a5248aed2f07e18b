"""The SQLite index (``.clawmem/index.db``): derived data, rebuilt from the files and the ledger.

``db.py`` opens it (``Index``, the one ``transaction`` helper); ``migrations.py`` builds the
schema; ``sync.py`` brings it in line with the Markdown files; ``recalls.py`` records what was
returned to an agent; ``supersession.py`` links keyed entries to their replacements;
``maintain.py`` opens a synced index for the commands; ``tokens.py`` splits text into terms.
Nothing is imported here, so ``import clawmem.index.tokens`` stays cheap on the start-up path.
"""
