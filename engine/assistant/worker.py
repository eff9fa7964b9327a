"""A worker process of ``arbiter mcp``: runs the tool calls the server hands it, one at a time.

The server (:mod:`engine.assistant.pool`) starts it as ``python -m engine.assistant.worker [--root DIR]
[--memory BYTES]`` and speaks JSON Lines with it: one request per line on its standard input,
``{"tool": NAME, "arguments": {...}}``, one reply per line on its standard output, ``{"result": {"text",
"data", "svg", "png"}}`` (the PNG in base64) or ``{"error": {"text", "error"}}`` (the tool's error result,
:func:`engine.assistant.replies.error_payload`).  The worker reads files under the root as the server would,
caps its own address space (``--memory``, :data:`engine.assistant.limits.MEMORY_LIMIT` by default);
anything it prints besides its replies goes to standard error.  The server stops it (``SIGKILL``) when a
call runs past its time or is cancelled, and starts another.

>>> reply = run({"tool": "ask_bullheads", "arguments": {"cards": [55]}}, NO_ROOT)
>>> reply["result"]["data"]["value"]
7
>>> run({"tool": "ask_bullheads", "arguments": {"cards": [105]}}, NO_ROOT)["error"]["error"]["field"]
'cards'
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import sys
from collections.abc import Sequence
from typing import Any

from engine import jsonio
from engine.assistant import tools as catalog
from engine.assistant.limits import MEMORY_LIMIT, LimitReached
from engine.assistant.replies import error_payload
from engine.assistant.tools import NO_ROOT

__all__ = ["main", "run"]


def run(request: dict[str, Any], access: jsonio.FileAccess) -> dict[str, Any]:
    """One request's reply: the tool's result, or its error result (an engine fault included)."""
    try:
        result = catalog.call(request["tool"], request["arguments"], access=access)
    except MemoryError:
        text, error = error_payload(LimitReached("the call needed more memory than a worker may use"))
        return {"error": {"text": text, "error": error}}
    except Exception as exc:  # every failure is a reply: the worker goes on
        text, error = error_payload(exc)
        return {"error": {"text": text, "error": error}}
    png = base64.b64encode(result.png).decode("ascii") if result.png is not None else None
    return {"result": {"text": result.text, "data": result.data, "svg": result.svg, "png": png}}


def _cap_memory(limit: int) -> None:
    """Cap the address space at ``limit`` bytes (where the system allows; never above its own cap)."""
    try:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (OSError, ValueError):  # pragma: no cover - a system without the limit
        pass


def main(argv: Sequence[str] | None = None) -> int:
    """Serve requests from standard input until it closes."""
    parser = argparse.ArgumentParser(prog="python -m engine.assistant.worker")
    parser.add_argument("--root", default=None)
    parser.add_argument("--memory", type=int, default=MEMORY_LIMIT)
    args = parser.parse_args(argv)
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8")  # the replies' own descriptor
    os.dup2(2, 1)  # a stray print cannot break a reply
    access = NO_ROOT if args.root is None else jsonio.FileAccess.under(args.root)
    _cap_memory(args.memory)
    catalog.tool_index()  # the tables the tools read, loaded before the first call
    for line in sys.stdin.buffer:
        reply = run(json.loads(line), access)
        try:
            text = json.dumps(reply)  # ASCII: a lone surrogate travels as its escape
        except (TypeError, ValueError) as exc:  # an engine fault: a result that is not JSON
            message, error = error_payload(exc)
            text = json.dumps({"error": {"text": message, "error": error}})
        replies.write(text + "\n")
        replies.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
