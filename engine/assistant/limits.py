"""The assistant's bounds on one call: how large its request, how many values its arguments, how long it runs
and in how much memory — each checked before the work it bounds starts.

* :data:`MAX_REQUEST_BYTES` — one JSON-RPC message (a line on the server's standard input); a longer line
  is skipped without being read whole or parsed (:mod:`engine.assistant.transport`);
* :data:`MAX_LIST`, :data:`MAX_VALUES`, :data:`MAX_DEPTH` — a tool call's arguments, counted by
  :func:`check_arguments` before the tool's input schema is applied (a schema check of 150,000 list
  entries alone costs seconds and a gigabyte);
* :data:`TIME_LIMIT` — one call's run in a worker process, after which the worker is stopped
  (:mod:`engine.assistant.pool`);
* :data:`MEMORY_LIMIT` — a worker process's address space.

A call stopped by one of the pool's bounds is refused with :class:`LimitReached`, which names the bound and
no argument (no argument was wrong).

>>> check_arguments({"card": 5, "rows": list(range(2000))})
Traceback (most recent call last):
...
engine.errors.InputError: rows: a list of 2000 entries, more than the 1000 one argument may hold
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.errors import ArbiterError, InputError
from engine.jsonio import MAX_DEPTH

__all__ = [
    "MAX_LIST",
    "MAX_REQUEST_BYTES",
    "MAX_VALUES",
    "MEMORY_LIMIT",
    "TIME_LIMIT",
    "LimitReached",
    "check_arguments",
]

MAX_REQUEST_BYTES = 4 * 1024 * 1024
"""The longest JSON-RPC message read (a game record of a 10-player game with every fact claimed is about
300 KB; a larger one is read from a file under the server's folder)."""

MAX_LIST = 1000
"""The most entries of one list in a call's arguments (a position's longest list, a stock, holds 104)."""

MAX_VALUES = 20_000
"""The most values (numbers, texts, lists, objects) in a call's arguments (a 4-player position holds a few
hundred)."""

TIME_LIMIT = 30.0
"""The longest one tool call runs, in seconds, by default (drawing a position at scale 8, the slowest call,
takes about 2 s)."""

MEMORY_LIMIT = 1024 * 1024 * 1024
"""A worker process's address space, in bytes (drawing at scale 8 peaks near 310 MB)."""


class LimitReached(ArbiterError):
    """A call stopped by one of the server's bounds (its time, its memory, a full queue): no argument is at
    fault, so it names none."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def check_arguments(arguments: Mapping[str, Any]) -> None:
    """Refuse arguments beyond the bounds (:data:`MAX_LIST`, :data:`MAX_VALUES`, :data:`MAX_DEPTH`), naming
    the argument (a dotted path); stops counting at the first bound passed, so a huge call costs no more
    than a small one."""
    stack: list[tuple[Any, str, int]] = [(v, str(k), 1) for k, v in arguments.items()]
    values = 0
    while stack:
        value, path, depth = stack.pop()
        values += 1
        if values > MAX_VALUES:
            raise InputError(path, f"more than the {MAX_VALUES} values one call may hold")
        if isinstance(value, list | dict):
            if depth > MAX_DEPTH:
                raise InputError(path, f"nesting deeper than {MAX_DEPTH} levels")
            if len(value) > MAX_LIST:
                kind = "list" if isinstance(value, list) else "object"
                raise InputError(
                    path, f"a {kind} of {len(value)} entries, more than the {MAX_LIST} one argument may hold"
                )
            items = value.items() if isinstance(value, dict) else enumerate(value)
            stack.extend((v, f"{path}.{k}", depth + 1) for k, v in items)
        elif isinstance(value, str) and len(value) > MAX_REQUEST_BYTES:
            raise InputError(
                path, f"a text of {len(value)} characters, more than the {MAX_REQUEST_BYTES} a call may hold"
            )
