"""clawmem's memory as an MCP server (``clawmem mcp``): tools, resources, two transports.

Trust rules (``docs/mcp.md`` says the same to users):

* An MCP client is automation, never the owner: ``add_note``, ``flush_context`` and
  ``ingest_transcript`` record ``agent`` unless the call says ``untrusted`` or ``system``;
  ``owner`` is refused (``clawmem.trust.provenance.client_origin``), in the input schema and again in code.
  ``add_intent`` always records ``agent``, and so does ``propose_directive``, whose directive
  is a daily-note entry for dreaming to weigh (``clawmem.dream.directives``), never ``USER.md``.
* ``search_memory`` leaves untrusted and system entries out unless ``include_untrusted`` is
  set, and then returns them inside ``<untrusted-content>`` framing, as the CLI does;
  ``read_excerpt`` frames untrusted text the same way.
* Whatever the server returns from memory (``recall_context``'s ``context``, the curated
  resources) is wrapped in the recall marker or joins the recalled set, so an agent that
  echoes it back into a note, a flush or a transcript does not create a second copy.
* No tool deletes an entry, rewrites ``MEMORY.md`` or ``USER.md``, promotes, runs ``dream``
  or changes the config: those stay with the owner at the command line.

The SDK (the ``mcp`` extra) is imported only inside this package, and this package only by
``clawmem mcp`` (and ``scripts/gen_docs.py`` for ``docs/mcp.md``).
"""

from __future__ import annotations

INSTALL_HINT = "install the MCP extra: pip install 'clawmem-cli[mcp]'"

