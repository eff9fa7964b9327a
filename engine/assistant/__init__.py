"""The rules assistant: the engine's answers served to AI assistants over the Model Context Protocol.

* :mod:`engine.assistant.tools` — the tools and resources, protocol-free (no MCP import);
* :mod:`engine.assistant.server` — the MCP server over stdio (needs the ``mcp`` extra);
* :mod:`engine.assistant.cli` — ``arbiter mcp``.
"""
