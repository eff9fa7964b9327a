"""The MCP server: the tools, resources, resource templates and prompts of :mod:`engine.assistant.tools`
over stdio, with the official ``mcp`` SDK's low-level :class:`mcp.server.lowlevel.Server` (the ``mcp``
extra).

The low-level server is used because every tool already has its own JSON Schemas (its arguments derived from
the question registry, its structured result declared beside them), which the high-level decorator API
would re-derive from Python signatures.  Errors never stop the server:

* an unknown tool or resource is an MCP protocol error (``INVALID_PARAMS``) naming it;
* bad arguments, or a rule the input breaks, give a tool result with ``isError`` set whose text names the
  field (``players: T6-SETUP-1: ...``) and whose structured content is ``{"error": {"field", "message",
  "clause"}}``, so the assistant can correct itself;
* an engine fault is reported the same way (``internal``), with the exception's class and message;
* a call stopped by one of the server's bounds (its time limit, a full queue) says which, naming no field.

Tool calls run off the event loop, in worker processes (:mod:`engine.assistant.pool`): each within a time
limit and a memory cap, a cancelled call's worker stopped, the lookups in workers of their own so that a
slow picture never delays them.  A call's arguments are counted (:func:`~engine.assistant.limits.
check_arguments`) before they reach a worker and its schema check, and a message longer than
:data:`~engine.assistant.limits.MAX_REQUEST_BYTES` is refused unread (:mod:`engine.assistant.transport`).
Completions (``completion/complete``) come from :mod:`engine.assistant.completion`.

The SDK is imported when the server is built (:func:`build_server`), so this module imports, and its
error mapping (:func:`error_payload`) works, without the extra.  Run it with ``arbiter mcp`` (see
``docs/assistant.md``).

>>> from engine.errors import IllegalAction
>>> error_payload(IllegalAction("T6-SELECT-1", "card 4 is not in P0's hand"))[1]["clause"]
'T6-SELECT-1'
>>> error_payload(KeyError("x"))[0]
"internal: KeyError: 'x'"
"""

from __future__ import annotations

import asyncio
import base64
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from engine import jsonio
from engine.assistant import completion
from engine.assistant import prompts as prompt_book
from engine.assistant import resources as documents
from engine.assistant import tools as catalog
from engine.assistant.limits import TIME_LIMIT, check_arguments
from engine.assistant.pool import Pool
from engine.assistant.replies import error_payload, writable
from engine.assistant.transport import REFUSED_METHOD, BoundedLines
from engine.assistant.worker import run as run_inline
from engine.errors import InputError

__all__ = ["InlineCalls", "build_server", "error_payload", "serve_stdio", "writable"]

INSTRUCTIONS = (
    "The reference rules engine of 6 nimmt! (Take 6!) and Saint Petersburg. Every answer names the rule "
    "clauses it applied (the chain of rules: each clause id with our wording and the verbatim seed passage "
    "it rests on): quote the clause ids and passages when you answer. About a position (its notation line, "
    "or the game's JSON state): legal_actions lists what may be played, each action by its short text "
    "('P1 33', 'buy Market lower'), explain_action says whether an action (its text or JSON form) is "
    "legal and why, card_cost derives what a Saint Petersburg card costs a player there, "
    "render_position draws it (PNG and SVG); record_position gives the position of a game record. "
    "search_rules and get_rule find the rules (also the resources arbiter://clause/{id}); the ask_* tools "
    "answer structured questions without a position. The prompts settle_dispute, check_implementation, "
    "explain_rule and explain_card put the tools to work on a dispute, a game record, a rule or a card."
)

SVG_URI = "arbiter://picture/position.svg"


class _Handlers:
    """The request handlers, bound to the SDK's wire types and error class (imported by build_server)."""

    def __init__(self, types: Any, error: type[Exception], access: jsonio.FileAccess) -> None:
        self.types = types
        self.error = error
        self.access = access

    def error_result(self, exc: Exception) -> Any:
        text, error = error_payload(exc)
        return self.types.CallToolResult(
            content=[self.types.TextContent(text=writable(text))],
            structured_content={"error": writable(error)},
            is_error=True,
        )

    def tool_result(self, result: catalog.ToolResult) -> Any:
        t = self.types
        if result.svg is None:
            content = [t.TextContent(text=writable(result.text))]
        else:  # the picture as a PNG image a multimodal client can look at, and the SVG beside it
            svg = writable(result.svg)
            picture = t.TextResourceContents(uri=SVG_URI, mime_type="image/svg+xml", text=svg)
            content = [t.EmbeddedResource(resource=picture)]
            if result.png is not None:
                png = base64.b64encode(result.png).decode("ascii")
                content.insert(0, t.ImageContent(data=png, mime_type="image/png"))
        return t.CallToolResult(content=content, structured_content=writable(result.data))

    async def list_tools(self, ctx: Any, params: Any) -> Any:
        t = self.types
        hints = t.ToolAnnotations(
            read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
        )
        return t.ListToolsResult(
            tools=[
                t.Tool(
                    name=x.name,
                    title=x.title,
                    description=x.description,
                    input_schema=x.schema,
                    output_schema=x.output_schema,
                    annotations=hints,
                )
                for x in catalog.tools()
            ]
        )

    def reply_result(self, reply: Mapping[str, Any]) -> Any:
        """A worker's reply (:mod:`engine.assistant.worker`) as the tool result."""
        if "error" in reply:
            t = self.types
            return t.CallToolResult(
                content=[t.TextContent(text=writable(reply["error"]["text"]))],
                structured_content={"error": writable(reply["error"]["error"])},
                is_error=True,
            )
        got = reply["result"]
        png = base64.b64decode(got["png"]) if got["png"] is not None else None
        return self.tool_result(catalog.ToolResult(got["text"], got["data"], svg=got["svg"], png=png))

    async def call_tool(self, ctx: Any, params: Any) -> Any:
        index = catalog.tool_index()
        if params.name not in index:
            known = ", ".join(index)
            raise self.error(
                self.types.INVALID_PARAMS, f"name: unknown tool {params.name!r} (known: {known})"
            )
        try:
            arguments = params.arguments or {}
            check_arguments(arguments)  # counted on the loop, before a worker or the schema sees them
            reply = await ctx.lifespan_context.call(params.name, arguments)
        except Exception as exc:  # every failure becomes a result: the server never stops
            return self.error_result(exc)
        return self.reply_result(reply)

    async def complete(self, ctx: Any, params: Any) -> Any:
        t = self.types
        ref = params.ref
        kind, name = ("prompt", ref.name) if ref.type == "ref/prompt" else ("resource", ref.uri)
        context = (params.context.arguments if params.context is not None else None) or {}
        try:
            argument = params.argument
            values, total = completion.complete(kind, name, argument.name, argument.value, context)
        except InputError as exc:
            raise self.error(t.INVALID_PARAMS, str(exc)) from None
        return t.CompleteResult(
            completion=t.Completion(values=values, total=total, has_more=total > len(values))
        )

    async def refused(self, ctx: Any, params: Any) -> Any:
        """The answer to a message too long to read (:mod:`engine.assistant.transport`)."""
        raise self.error(self.types.INVALID_REQUEST, str(getattr(params, "reason", ""))[:200])

    async def list_resources(self, ctx: Any, params: Any) -> Any:
        t = self.types
        return t.ListResourcesResult(
            resources=[
                t.Resource(uri=r.uri, name=r.name, description=r.description, mime_type=r.mime_type)
                for r in documents.resources()
            ]
        )

    async def list_resource_templates(self, ctx: Any, params: Any) -> Any:
        t = self.types
        return t.ListResourceTemplatesResult(
            resource_templates=[
                t.ResourceTemplate(
                    uri_template=r.uri_template, name=r.name, description=r.description, mime_type=r.mime_type
                )
                for r in documents.resource_templates()
            ]
        )

    async def list_prompts(self, ctx: Any, params: Any) -> Any:
        t = self.types
        return t.ListPromptsResult(
            prompts=[
                t.Prompt(
                    name=p.name,
                    title=p.title,
                    description=p.description,
                    arguments=[
                        t.PromptArgument(name=a.name, description=a.description, required=a.required)
                        for a in p.arguments
                    ],
                )
                for p in prompt_book.prompts()
            ]
        )

    async def get_prompt(self, ctx: Any, params: Any) -> Any:
        t = self.types
        try:
            prompt, text = prompt_book.get_prompt(params.name, params.arguments)
        except InputError as exc:
            raise self.error(t.INVALID_PARAMS, str(exc)) from None
        return t.GetPromptResult(
            description=prompt.description,
            messages=[t.PromptMessage(role="user", content=t.TextContent(text=text))],
        )

    async def read_resource(self, ctx: Any, params: Any) -> Any:
        t = self.types
        uri = str(params.uri)
        try:
            resource, text = documents.read_resource(uri)
        except InputError as exc:
            raise self.error(t.INVALID_PARAMS, str(exc)) from None
        return t.ReadResourceResult(
            contents=[t.TextResourceContents(uri=uri, mime_type=resource.mime_type, text=text)]
        )


class InlineCalls:
    """Tool calls run in the server's own process, on its event loop, one at a time, with no time limit:
    how the server ran before :class:`~engine.assistant.pool.Pool`.  Kept for the load benchmark's figures
    beside the pool's (``python -m engine.assistant.bench --inline``); never for serving."""

    def __init__(self, access: jsonio.FileAccess) -> None:
        self.access = access

    async def call(self, tool: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
        return run_inline({"tool": tool, "arguments": dict(arguments)}, self.access)


def build_server(
    root: str | Path | None = None,
    *,
    time_limit: float = TIME_LIMIT,
    workers: int | None = None,
    inline: bool = False,
) -> Any:
    """The configured low-level MCP server (not yet running); needs the ``mcp`` extra.  Its tools read no
    file, or (``root``) only regular files under that folder (:meth:`engine.jsonio.FileAccess.under`).
    While it runs, its tool calls run in worker processes (:class:`~engine.assistant.pool.Pool`: one call's
    ``time_limit`` in seconds, ``workers`` for the heavy tools, default one per core); ``inline`` runs them
    in the server's own process instead (:class:`InlineCalls`, for the benchmark only)."""
    from mcp import types
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError

    from engine import __version__

    access = catalog.NO_ROOT if root is None else jsonio.FileAccess.under(root)
    handlers = _Handlers(types, MCPError, access)

    @asynccontextmanager
    async def calls(_server: Any) -> AsyncIterator[Any]:
        if inline:
            yield InlineCalls(access)
            return
        async with Pool(access.given, time_limit=time_limit, workers=workers) as pool:
            yield pool

    server = Server(
        "arbiter",
        version=__version__,
        title="arbiter rules engine",
        instructions=INSTRUCTIONS,
        lifespan=calls,
        on_list_tools=handlers.list_tools,
        on_call_tool=handlers.call_tool,
        on_list_resources=handlers.list_resources,
        on_list_resource_templates=handlers.list_resource_templates,
        on_read_resource=handlers.read_resource,
        on_list_prompts=handlers.list_prompts,
        on_get_prompt=handlers.get_prompt,
        on_completion=handlers.complete,
    )

    class Refused(types.RequestParams):  # type: ignore[misc]
        reason: str = ""

    server.add_request_handler(REFUSED_METHOD, Refused, handlers.refused)
    return server


def serve_stdio(
    root: str | Path | None = None, *, time_limit: float = TIME_LIMIT, workers: int | None = None
) -> None:
    """Serve MCP on standard input and output until the client closes the connection (files, workers:
    see :func:`build_server`); a line of standard input longer than the request limit is not read whole
    (:class:`~engine.assistant.transport.BoundedLines`)."""
    from mcp.server.stdio import stdio_server

    server = build_server(root, time_limit=time_limit, workers=workers)

    async def main() -> None:
        stdin = cast(Any, BoundedLines(sys.stdin.buffer))
        async with stdio_server(stdin=stdin) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(main())
