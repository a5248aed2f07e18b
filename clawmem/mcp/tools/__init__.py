"""The MCP tools, one module-level function each, grouped by family; ``clawmem.mcp.server`` registers them from one table.

Each tool handles its arguments and calls the same core function as the matching command,
returning the same JSON shape as its ``--json`` output. The SDK reads a tool's name, docstring
and annotated parameters to publish it, so those are the tool's public contract.
"""
