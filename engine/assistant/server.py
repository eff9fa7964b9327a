"""The MCP server: the tools and resources of :mod:`engine.assistant.tools` over stdio, with the official
``mcp`` SDK's low-level :class:`mcp.server.lowlevel.Server` (the ``mcp`` extra).

The low-level server is used because every tool already has its own JSON Schema (derived from the question
registry), which the high-level decorator API would re-derive from Python signatures.  Errors never stop the
server:

* an unknown tool or resource is an MCP protocol error (``INVALID_PARAMS``) naming it;
* bad arguments, or a rule the input breaks, give a tool result with ``isError`` set whose text names the
  field (``players: T6-SETUP-1: ...``) and whose structured content is ``{"error": {"field", "message",
  "clause"}}``, so the assistant can correct itself;
* an engine fault is reported the same way (``internal``), with the exception's class and message.

Run it with ``arbiter mcp`` (see ``docs/assistant.md``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from mcp import types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError

from engine.assistant import tools as catalog
from engine.errors import InputError, RuleViolation

__all__ = ["build_server", "error_result", "serve_stdio"]

INSTRUCTIONS = (
    "The reference rules engine of 6 nimmt! (Take 6!) and Saint Petersburg. Every answer names the rule "
    "clauses it applied, with our wording and the verbatim seed passage: quote the clause ids and passages "
    "when you answer. About a position (a game's JSON state): legal_actions lists what may be played, "
    "explain_action says whether an action is legal and why, card_cost derives what a Saint Petersburg card "
    "costs a player there, render_position draws it. search_rules and get_rule find the rules; the "
    "ask_* tools answer structured questions without a position."
)


def error_result(exc: Exception) -> Any:
    """A tool result reporting ``exc`` to the assistant (``isError``), naming the field or the clause."""
    if isinstance(exc, InputError):
        error = {"field": exc.field, "message": exc.message, "clause": None}
    elif isinstance(exc, RuleViolation):
        error = {"field": None, "message": exc.message, "clause": exc.clause}
    else:
        error = {"field": "internal", "message": f"{type(exc).__name__}: {exc}", "clause": None}
    return types.CallToolResult(
        content=[
            types.TextContent(
                text=str(exc) if error["field"] != "internal" else f"internal: {error['message']}"
            )
        ],
        structured_content={"error": error},
        is_error=True,
    )


def _tool_result(result: catalog.ToolResult) -> Any:
    content: list[Any] = [types.TextContent(text=result.text)] if result.svg is None else []
    if result.svg is not None:
        content.append(
            types.EmbeddedResource(
                resource=types.TextResourceContents(
                    uri="arbiter://picture/position.svg", mime_type="image/svg+xml", text=result.svg
                )
            )
        )
    return types.CallToolResult(content=content, structured_content=result.data)


async def _list_tools(ctx: Any, params: Any) -> Any:
    return types.ListToolsResult(
        tools=[
            types.Tool(
                name=t.name,
                title=t.title,
                description=t.description,
                input_schema=t.schema,
                annotations=types.ToolAnnotations(
                    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
                ),
            )
            for t in catalog.tools()
        ]
    )


async def _call_tool(ctx: Any, params: Any) -> Any:
    index = catalog.tool_index()
    if params.name not in index:
        raise MCPError(
            types.INVALID_PARAMS, f"name: unknown tool {params.name!r} (known: {', '.join(index)})"
        )
    try:
        result = catalog.call(params.name, params.arguments or {})
    except Exception as exc:  # every failure becomes a result: the server never stops
        return error_result(exc)
    return _tool_result(result)


async def _list_resources(ctx: Any, params: Any) -> Any:
    return types.ListResourcesResult(
        resources=[
            types.Resource(uri=r.uri, name=r.name, description=r.description, mime_type=r.mime_type)
            for r in catalog.resources()
        ]
    )


async def _read_resource(ctx: Any, params: Any) -> Any:
    uri = str(params.uri)
    try:
        resource, text = catalog.read_resource(uri)
    except InputError as exc:
        raise MCPError(types.INVALID_PARAMS, str(exc)) from None
    return types.ReadResourceResult(
        contents=[types.TextResourceContents(uri=uri, mime_type=resource.mime_type, text=text)]
    )


def build_server() -> Any:
    """The configured low-level MCP server (not yet running)."""
    from engine import __version__

    return Server(
        "arbiter",
        version=__version__,
        title="arbiter rules engine",
        instructions=INSTRUCTIONS,
        on_list_tools=_list_tools,
        on_call_tool=_call_tool,
        on_list_resources=_list_resources,
        on_read_resource=_read_resource,
    )


def serve_stdio() -> None:
    """Serve MCP on standard input and output until the client closes the connection."""
    server = build_server()

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(main())
