"""``arbiter mcp`` under load (hostile input, round three, class 3): one call never holds the whole server.

Tool calls run in worker processes, so a slow call does not delay a fast one, a call past its time limit
or cancelled by the client has its worker stopped, and a call over the size bounds is refused before the
tool's schema is applied.  Behaviour only, never speed: the checks use the order in which answers come
back and the worker processes that exist, with wide margins (the figures under load are printed by
``arbiter bench mcp``).
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from extras import need

from engine.assistant.limits import MAX_LIST, MAX_REQUEST_BYTES
from engine.game import get_game

ROOT = Path(__file__).resolve().parent.parent
LIMIT = 120


def _big_position() -> dict[str, Any]:
    game = get_game("petersburg")
    return game.state_to_json(game.new_game(4, seed=5))


RENDER = {"game": "petersburg", "position": _big_position(), "scale": 8}
"""A call that takes seconds: drawing a 4-player Saint Petersburg position at the largest scale."""


def children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as fh:
                    fields = fh.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(entry))
    return out


async def until(predicate: Any, what: str, seconds: float = LIMIT) -> Any:
    """Poll ``predicate`` until it gives a true value (a failure after ``seconds``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        await asyncio.sleep(0.05)
    raise AssertionError(f"gave up waiting for {what}")


@asynccontextmanager
async def served(*flags: str) -> AsyncIterator[tuple[Any, int]]:
    """A client session with ``arbiter mcp FLAGS`` and the server's process id."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    before = children(os.getpid())
    args = ["-m", "engine", "mcp", *flags]
    params = StdioServerParameters(command=sys.executable, args=args, cwd=str(ROOT))
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        server = await until(lambda: children(os.getpid()) - before, "the server process")
        yield session, next(iter(server))


def run(coroutine: Any) -> Any:
    need("mcp")
    return asyncio.run(asyncio.wait_for(coroutine, timeout=4 * LIMIT))


def test_a_slow_call_does_not_delay_a_lookup() -> None:
    """Four drawings at scale 8 for one heavy worker, then a rule lookup: the lookup is answered while
    drawings are still waiting (before: it waited behind all of them, one at a time on the event loop)."""

    async def scenario() -> list[str]:
        async with served("--workers", "1") as (session, server):
            await session.call_tool("get_rule", {"clause_id": "T6-PLACE-2"})  # the lookups' workers are up
            lookups = children(server)
            done: list[str] = []

            async def one(name: str, args: dict[str, Any]) -> None:
                result = await session.call_tool(name, args)
                assert not result.is_error, result.content
                done.append(name)

            renders = [asyncio.create_task(one("render_position", RENDER)) for _ in range(4)]
            await until(lambda: children(server) - lookups, "a heavy worker")
            await one("get_rule", {"clause_id": "SP-COST-4"})
            finished_first = list(done)
            await asyncio.gather(*renders)
            return finished_first

    assert run(scenario()) == ["get_rule"]


def test_a_cancelled_call_stops_its_worker() -> None:
    """A drawing cancelled by the client stops its worker process at once (before: the call ran to its
    end on the server's event loop); the server answers the next call."""

    async def scenario() -> None:
        async with served() as (session, server):
            await session.call_tool("get_rule", {"clause_id": "T6-PLACE-2"})
            lookups = children(server)
            call = asyncio.create_task(session.call_tool("render_position", RENDER))
            worker = next(iter(await until(lambda: children(server) - lookups, "the drawing's worker")))
            call.cancel()
            with pytest.raises(asyncio.CancelledError):
                await call
            await until(lambda: worker not in children(server), "the cancelled call's worker to stop")
            after = await session.call_tool("ask_bullheads", {"cards": [55]})
            assert after.structured_content["value"] == 7

    run(scenario())


def test_a_call_past_its_time_limit_is_stopped() -> None:
    """With ``--time-limit 0.5`` a drawing at scale 8 (seconds of work) is stopped: an error naming the
    limit and no field, its worker gone; the server answers the next call."""

    async def scenario() -> None:
        async with served("--time-limit", "0.5") as (session, server):
            await session.call_tool("get_rule", {"clause_id": "T6-PLACE-2"})
            lookups = children(server)
            result = await session.call_tool("render_position", RENDER)
            assert result.is_error
            assert "render_position stopped after 0.5 s, the time limit of one call" in result.content[0].text
            assert result.structured_content["error"]["field"] is None
            assert children(server) <= lookups  # the drawing's worker is gone
            after = await session.call_tool("ask_bullheads", {"cards": [55]})
            answered = after.structured_content.get("value") == 7 or "time limit" in after.content[0].text
            assert answered, after  # answered (in time, unless the machine is very busy)

    run(scenario())


def test_a_call_over_the_size_bounds_is_refused_before_its_schema(monkeypatch: pytest.MonkeyPatch) -> None:
    """``ask_row`` with 150,000 rows (a 1 MB request; before: 10 s and 1.4 GB) is refused naming ``rows``
    and the bound, before the schema is applied (the validator is never reached)."""
    from engine.assistant import tools
    from engine.errors import InputError

    def no_schema(*_args: Any) -> Any:
        raise AssertionError("the schema was applied")

    monkeypatch.setattr(tools, "_validate", no_schema)
    with pytest.raises(InputError) as err:
        tools.call("ask_row", {"card": 5, "rows": list(range(1, 150_001))})
    assert str(err.value) == f"rows: a list of 150000 entries, more than the {MAX_LIST} one argument may hold"


def test_a_message_over_the_request_limit_is_answered_unread() -> None:
    """A JSON-RPC line longer than the request limit is not parsed: the server answers its id with an
    error naming the limit, then answers the next request (over stdin, as a client writes)."""
    need("mcp")
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
         "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "ask_row",
         "arguments": {"card": 5, "rows": list(range(MAX_REQUEST_BYTES // 4))}}},
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "ask_bullheads",
         "arguments": {"cards": [55]}}},
        {"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "ask_row",
         "arguments": {"card": 5, "rows": list(range(1, 150_001))}}},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines).encode("ascii")
    assert len(text) > MAX_REQUEST_BYTES
    proc = subprocess.Popen([sys.executable, "-m", "engine", "mcp"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=ROOT)
    assert proc.stdin is not None and proc.stdout is not None
    replies: dict[int, Any] = {}
    try:
        proc.stdin.write(text)
        proc.stdin.flush()
        deadline = time.monotonic() + LIMIT
        while len(replies) < 4 and time.monotonic() < deadline:
            raw = proc.stdout.readline()
            if not raw:
                break
            reply = json.loads(raw)
            replies[reply.get("id", 0)] = reply
    finally:
        proc.stdin.close()
        proc.wait(LIMIT)
    assert sorted(replies) == [1, 2, 3, 4]
    assert replies[2]["error"]["code"] == -32600
    assert f"more than the {MAX_REQUEST_BYTES} the server reads" in replies[2]["error"]["message"]
    assert replies[3]["result"]["structuredContent"]["value"] == 7
    assert replies[4]["result"]["isError"]
    assert replies[4]["result"]["structuredContent"]["error"]["field"] == "rows"
