"""The server's standard input, read in bounded lines: a JSON-RPC message longer than
:data:`~engine.assistant.limits.MAX_REQUEST_BYTES` is skipped without being held whole or parsed.

The MCP SDK's stdio transport reads each line whole, then parses it; :class:`BoundedLines` is the input
it reads instead (``stdio_server(stdin=...)``).  A line over the limit is passed over in chunks, and in its
place the transport gets a short request, :data:`REFUSED_METHOD`, carrying the id the long line began with,
which the server answers with an error naming the limit (``INVALID_REQUEST``), so the client is not left
waiting.  A long line whose id cannot be read from its first bytes (a notification, or an id after the
params) is dropped, with a line on standard error.

>>> import io
>>> line = b'{"jsonrpc": "2.0", "id": 7, "params": "' + b"x" * 100 + b'"}\\n'
>>> lines = BoundedLines(io.BytesIO(line), limit=50)
>>> json.loads(lines.read_line())["params"]["reason"]
'a request of 141 bytes, more than the 50 the server reads'
>>> lines.read_line() is None
True
"""

from __future__ import annotations

import json
import sys
from typing import IO, Any

from engine.assistant.limits import MAX_REQUEST_BYTES

__all__ = ["REFUSED_METHOD", "BoundedLines", "leading_id"]

REFUSED_METHOD = "arbiter/refused"
"""The request a line over the limit becomes: the server answers it with the error its ``reason`` says."""

_CHUNK = 1 << 16
_HEAD = 4096


def leading_id(head: bytes) -> int | str | None:
    """The ``id`` member of a JSON object whose first bytes are ``head``, when it comes before any member
    that cannot be read whole from them (None otherwise).

    >>> leading_id(b'{"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": {"argu')
    12
    >>> leading_id(b'{"params": {"id": 3, "x": [1, 2') is None
    True
    """
    text = head.decode("utf-8", "replace")
    decoder = json.JSONDecoder()
    i = len(text) - len(text.lstrip())
    if text[i : i + 1] != "{":
        return None
    i += 1
    while True:
        try:
            i = _skip(text, i)
            key, i = decoder.raw_decode(text, i)
            i = _skip(text, i)
            if text[i : i + 1] != ":":
                return None
            value, i = decoder.raw_decode(text, _skip(text, i + 1))
        except (ValueError, IndexError):
            return None
        if key == "id":
            return value if isinstance(value, int | str) and not isinstance(value, bool) else None
        i = _skip(text, i)
        if text[i : i + 1] != ",":
            return None
        i += 1


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\r\n":
        i += 1
    return i


class BoundedLines:
    """The lines of a binary stream as text (UTF-8, a bad byte replaced), each at most ``limit`` bytes; an
    async iterator for the SDK's stdio transport, reading in a worker thread as the SDK's own does."""

    def __init__(self, stream: IO[bytes], limit: int = MAX_REQUEST_BYTES) -> None:
        self.stream = stream
        self.limit = limit

    def read_line(self) -> str | None:
        """The next line (a long one replaced by its refusal, or skipped), or None at the end."""
        while True:
            data = self.stream.readline(self.limit + 1)
            if not data:
                return None
            if len(data) <= self.limit or data.endswith(b"\n"):
                return data.decode("utf-8", "replace")
            size = len(data)
            head = data[:_HEAD]
            while not data.endswith(b"\n"):
                data = self.stream.readline(_CHUNK)
                if not data:
                    break
                size += len(data)
            size -= data.endswith(b"\n")  # the line's own newline is no part of it
            refusal = _refusal(head, size, self.limit)
            if refusal is not None:
                return refusal
            print(f"arbiter mcp: skipped a message of {size} bytes (more than {self.limit}) with no id",
                  file=sys.stderr)

    def __aiter__(self) -> BoundedLines:
        return self

    async def __anext__(self) -> str:
        import anyio.to_thread

        line: str | None = await anyio.to_thread.run_sync(self.read_line, abandon_on_cancel=True)
        if line is None:
            raise StopAsyncIteration
        return line


def _refusal(head: bytes, size: int, limit: int) -> str | None:
    """The request standing for a long line (None when it carries no id)."""
    rid = leading_id(head)
    if rid is None:
        return None
    reason = f"a request of {size} bytes, more than the {limit} the server reads"
    request: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": REFUSED_METHOD,
                               "params": {"reason": reason}}
    return json.dumps(request) + "\n"
